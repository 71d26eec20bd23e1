"""ForwardedMemory reads what a transparent read port of Amaranth's Memory reads, clock by clock,
collisions included; its memory asks synthesis for no collision logic of its own."""

import random

from amaranth import Module
from amaranth.back import rtlil
from amaranth.lib import data, wiring
from amaranth.lib.memory import Memory
from amaranth.lib.wiring import In, Out
from amaranth.sim import Simulator

from trax_fpga.hdl.forwarded_memory import ForwardedMemory

RECORD = data.StructLayout({"tile": 4, "known": 4, "white": 4})
DEPTH = 16


class Pair(wiring.Component):
    """A ForwardedMemory and a transparent Memory, fed the same writes and reads."""

    write_addr: In(range(DEPTH))
    write_data: In(RECORD)
    write_en: In(1)
    read_addr: In(range(DEPTH))
    forwarded: Out(RECORD)
    transparent: Out(RECORD)

    def elaborate(self, platform):
        m = Module()
        m.submodules.dut = dut = ForwardedMemory(shape=RECORD, depth=DEPTH)
        m.submodules.ref = ref = Memory(shape=RECORD, depth=DEPTH, init=[])
        wr = ref.write_port()
        rd = ref.read_port(transparent_for=(wr,))
        m.d.comb += [
            dut.write.addr.eq(self.write_addr),
            dut.write.data.eq(self.write_data),
            dut.write.en.eq(self.write_en),
            dut.read.addr.eq(self.read_addr),
            wr.addr.eq(self.write_addr),
            wr.data.eq(self.write_data),
            wr.en.eq(self.write_en),
            rd.addr.eq(self.read_addr),
            self.forwarded.eq(dut.read.data),
            self.transparent.eq(rd.data),
        ]
        return m


def test_reads_match_a_transparent_port():
    dut = Pair()
    rng = random.Random(50)
    checked = {"clocks": 0, "collisions": 0}

    async def bench(ctx):
        collided_last = False
        for _ in range(600):
            addr = rng.randrange(4)  # a few addresses: many collisions
            en = rng.random() < 0.6
            read = addr if rng.random() < 0.4 else rng.randrange(4)
            ctx.set(dut.write_addr, addr)
            ctx.set(dut.write_data.as_value(), rng.randrange(1 << 12))
            ctx.set(dut.write_en, en)
            ctx.set(dut.read_addr, read)
            await ctx.tick()
            assert ctx.get(dut.forwarded.as_value()) == ctx.get(dut.transparent.as_value())
            checked["clocks"] += 1
            checked["collisions"] += collided_last
            collided_last = en and read == addr

    sim = Simulator(dut)
    sim.add_clock(1e-6)
    sim.add_testbench(bench)
    sim.run()
    assert checked["clocks"] == 600
    assert checked["collisions"] > 100


def test_the_memory_says_no_rw_check():
    text = rtlil.convert(ForwardedMemory(shape=RECORD, depth=DEPTH))
    assert "no_rw_check" in text
