"""A design C-slowed by two runs two threads, each exactly as the design, clock by clock
interleaved: checked in Verilator against the design itself, on registers, a memory with a
synchronous read of its initial contents and writes, and a reset."""

import random

import pytest
from amaranth import Module, Signal
from amaranth.lib import wiring
from amaranth.lib.memory import Memory
from amaranth.lib.wiring import In, Out

from trax_fpga.boards.cslow import cslow_netlist, cslow_verilog
from trax_fpga.sim.verilator import VerilatorSim, build

OUTPUTS = ("acc", "count", "read", "last")


class Accumulator(wiring.Component):
    """A counter, a sum of the inputs, a memory written with the sum at the counter's address
    (when ``x`` is odd) and read where asked, and the last value read, registered."""

    x: In(8)
    read_at: In(4)
    acc: Out(8)
    count: Out(4)
    read: Out(8)
    last: Out(8)

    def elaborate(self, platform):
        m = Module()
        m.submodules.memory = memory = Memory(
            shape=8, depth=16, init=[(7 * i + 3) % 256 for i in range(16)]
        )
        write, read = memory.write_port(), memory.read_port()
        count, acc, last = Signal(4, init=5), Signal(8), Signal(8)
        m.d.sync += [count.eq(count + 1), acc.eq(acc + self.x), last.eq(read.data)]
        m.d.comb += [
            write.addr.eq(count),
            write.data.eq(acc),
            write.en.eq(self.x[0]),
            read.addr.eq(self.read_at),
            self.acc.eq(acc),
            self.count.eq(count),
            self.read.eq(read.data),
            self.last.eq(last),
        ]
        return m


def run(sim, inputs):
    """The outputs in each clock, with that clock's inputs set."""
    seen = []
    for x, at, rst in inputs:
        sim.set("x", x)
        sim.set("read_at", at)
        sim.set("rst", rst)
        seen.append(tuple(sim.get(name) for name in OUTPUTS))
        sim.tick()
    return seen


def stimulus(seed, n):
    rng = random.Random(seed)
    # a reset in the middle: each thread's own, in its own clock
    return [(rng.randrange(256), rng.randrange(16), int(i == n // 2)) for i in range(n)]


def test_two_threads_each_compute_what_the_design_does():
    n = 200
    a, b = stimulus(1, n), stimulus(2, n)
    with VerilatorSim(Accumulator()) as sim:
        expect_a = run(sim, a)
    with VerilatorSim(Accumulator()) as sim:
        expect_b = run(sim, b)
    assert expect_a != expect_b  # the threads differ, so mixing them up would show
    interleaved = [step for pair in zip(a, b, strict=True) for step in pair]
    with VerilatorSim(build(cslow_verilog(Accumulator()))) as sim:
        seen = run(sim, interleaved)
    assert len(seen) == 2 * n
    assert seen[0::2] == expect_a
    assert seen[1::2] == expect_b


def test_what_the_transform_refuses():
    doc = {
        "modules": {
            "top": {
                "cells": {
                    "r": {
                        "type": "$dffe",
                        "parameters": {},
                        "attributes": {},
                        "port_directions": {},
                        "connections": {},
                    }
                },
                "netnames": {"n": {"bits": [2], "hide_name": 0}},
            }
        }
    }
    with pytest.raises(ValueError, match="dffunmap"):
        cslow_netlist(doc)
    doc["modules"]["top"]["cells"] = {}
    with pytest.raises(ValueError, match="one clock"):
        cslow_netlist(doc)


@pytest.mark.slow
def test_the_search_engine_c_slowed_runs_two_searches():
    """The search on the block-RAM board (hdl/track_search.py), C-slowed: each thread plays its
    own game on its own half of the board's memories and searches it, node for node as the
    software model; a thread's game survives the other's (the memories' thread bit)."""
    from trax_fpga.hdl.track_search import TrackSearch
    from trax_fpga.sim.threads import ThreadView
    from trax_fpga.sim.track_driver import TrackSearchSim

    from ..hdl.test_track_search import DEPTH, TORUS, model_search, positions_from_games, search

    with VerilatorSim(build(cslow_verilog(TrackSearch(TORUS, TORUS, DEPTH)))) as sim:
        views = ThreadView(sim, 0), ThreadView(sim, 1)
        ThreadView.pair(*views)
        engines = [
            TrackSearchSim(
                (TORUS, TORUS), view, max_depth=DEPTH, component=TrackSearch(TORUS, TORUS, DEPTH)
            )
            for view in views
        ]
        positions = positions_from_games(8, 16)
        first, second = positions[1], positions[4]
        assert first.turns != second.turns
        checked = 0
        for budget in (60, 400):
            for engine, position in ((engines[0], first), (engines[1], second)):
                model = model_search(engine, position, budget)
                got, move = search(engine, position, budget)
                assert move == model.move
                assert (got.score, got.depth, got.nodes) == (model.score, model.depth, model.nodes)
                checked += 1
        # Thread 0's board still holds its game after thread 1's: the same search again.
        model = model_search(engines[0], first, 400)
        again = engines[0].search(int(first.turn.name == "WHITE"), 400)
        assert (again.score, again.nodes) == (model.score, model.nodes)
        assert checked == 4
