"""Two engines on one engine's logic (hdl/threaded_engines.py): the engines C-slowed by two,
with the logic around them at half the clock, are the same design as with engines of their own,
slow clock by slow clock. Checked in Verilator on a small engine (registers, a memory, outputs
read by the other engines in the same clock: a combinational one by higher-numbered engines, a
register's by all), and on the search (``ParallelSearch(threads=2)``, ``make test-slow``)."""

import random

import pytest
from amaranth import Cat, Module, Signal
from amaranth.hdl import EnableInserter
from amaranth.lib import wiring
from amaranth.lib.memory import Memory
from amaranth.lib.wiring import In, Out

from trax_fpga.hdl.threaded_engines import ThreadedEngines
from trax_fpga.sim.verilator import VerilatorSim


class Engine(wiring.Component):
    """A small engine: a running total of its inputs (a register), the total plus what it is
    given (combinational), a memory of past totals (with initial contents) read back, and a
    register of a sum of them (read only into the team's register: captured)."""

    step: In(8)
    given: In(8)
    total: Out(8)
    offer: Out(8)
    recalled: Out(8)
    stored: Out(8)

    def elaborate(self, platform):
        m = Module()
        # (deep enough for a block RAM when the ECP5's synthesis maps it, retimed)
        m.submodules.memory = memory = Memory(
            shape=8, depth=1024, init=[(5 * i + 1) % 256 for i in range(1024)]
        )
        write, read = memory.write_port(), memory.read_port()
        total, count = Signal(8), Signal(10)
        m.d.sync += [total.eq(total + self.step + read.data), count.eq(count + 1)]
        # (its data after the cut when retimed: the captured twin is then the second stage's)
        m.d.sync += self.stored.eq((total + read.data) ^ (self.step + count[:8]))
        m.d.comb += [
            write.addr.eq(count),
            write.data.eq(total ^ self.given),
            write.en.eq(self.step[0]),
            read.addr.eq(Cat(self.step[4:], self.given[:6])),
            self.total.eq(total),
            self.offer.eq(total + self.given),
            self.recalled.eq(read.data),
        ]
        return m


ENGINES = 4
#: Where the small engine's logic is cut (ns): early, so that the second stage holds logic.
CUT_AT = 1.0


class Team(wiring.Component):
    """Four engines, each given the offer of the one numbered below it (engine 0: the largest
    total of all), as a coordinator's grants read the engines below; with ``threads=2``, on two
    logics, the team's own registers (the sum of the offers, a mix of the stored values) at
    half the clock."""

    def __init__(self, threads: int, retime: bool = False):
        self.threads, self.retime = threads, retime
        members = {f"step{i}": In(8) for i in range(ENGINES)}
        members |= {f"total{i}": Out(8) for i in range(ENGINES)}
        members |= {f"offer{i}": Out(8) for i in range(ENGINES)}
        members |= {f"recalled{i}": Out(8) for i in range(ENGINES)}
        members["sum"] = Out(8)
        members["mix"] = Out(16)
        super().__init__(members)

    def elaborate(self, platform):
        m = Module()
        if self.threads == 2:
            threaded = ThreadedEngines(
                Engine(),
                ENGINES // 2,
                early=("total",),
                captured=("stored",),
                retime=self.retime,
                cut_at=CUT_AT,
            )
            units = list(threaded.units)
        else:
            units = []
            for i in range(ENGINES):
                m.submodules[f"engine{i}"] = unit = Engine()
                units.append(unit)
        largest = units[0].total
        for unit in units[1:]:
            largest = (unit.total > largest).as_unsigned() * unit.total + (
                unit.total <= largest
            ).as_unsigned() * largest
        for i, unit in enumerate(units):
            m.d.comb += [
                unit.step.eq(getattr(self, f"step{i}")),
                unit.given.eq(largest if i == 0 else units[i - 1].offer),
                getattr(self, f"total{i}").eq(unit.total),
                getattr(self, f"offer{i}").eq(unit.offer),
                getattr(self, f"recalled{i}").eq(unit.recalled),
            ]
        m.d.sync += self.sum.eq(self.sum + sum(unit.offer for unit in units))
        m.d.sync += self.mix.eq(
            (self.mix << 3)
            ^ (self.mix >> 13)
            ^ Cat(*(unit.stored for unit in units))[:16]
            ^ Cat(*(unit.stored for unit in units))[16:]
        )
        if self.threads == 1:
            return m
        top = Module()
        top.submodules.engines = threaded
        top.submodules.team = EnableInserter({"sync": threaded.phase})(m)
        return top


def outputs(engines):
    return [f"{kind}{i}" for i in engines for kind in ("total", "offer", "recalled")]


def run(sim, steps, threads):
    """Each clock's outputs (a slow clock's with ``threads=2``: the team's register and a
    thread-0 engine's in the even clock, a thread-1 engine's in the odd one), after that clock's
    inputs are set; a reset halfway."""
    seen = []
    first, second = range(ENGINES // 2), range(ENGINES // 2, ENGINES)
    for clock, values in enumerate(steps):
        if clock == len(steps) // 2:
            sim.reset(threads)  # (a thread is reset in its own clock)
        for i, value in enumerate(values):
            sim.set(f"step{i}", value)
        row = [sim.get(name) for name in ["sum", "mix", *outputs(first)]]
        if threads == 2:
            assert sim.cycles % 2 == 0
            sim.tick()
        row += [sim.get(name) for name in outputs(second)]
        sim.tick()
        seen.append(tuple(row))
    return seen


@pytest.mark.parametrize("retime", [False, True], ids=["c-slowed", "retimed"])
def test_engines_on_c_slowed_logic_are_the_engines_of_their_own(retime):
    """Also with the logic synthesized for the ECP5 and cut in two stages (the cells'
    simulation models in Verilator)."""
    rng = random.Random(5)
    steps = [tuple(rng.randrange(256) for _ in range(ENGINES)) for _ in range(300)]
    with VerilatorSim(Team(1)) as sim:
        expected = run(sim, steps, 1)
    with VerilatorSim(Team(2, retime)) as sim:
        got = run(sim, steps, 2)
    if retime:
        from trax_fpga.boards.cslow import retimed_module

        report = retimed_module(Engine(), early=("total",), captured=("stored",), at=CUT_AT)[2]
        second_stage = int(report.split(" cells in the second stage")[0].split()[-1])
        assert second_stage > 10, report
    assert len({row[2] for row in expected}) > 100  # (the totals move)
    assert len({row[1] for row in expected}) > 100  # (and the stored values)
    assert got == expected


@pytest.mark.slow
@pytest.mark.parametrize("retime", [False, True], ids=["c-slowed", "retimed"])
def test_the_search_on_threaded_engines_is_the_search_on_engines_of_their_own(retime):
    """``ParallelSearch(threads=2)``: four engines on two logics C-slowed by two (or retimed:
    synthesized for the ECP5 and cut in two stages, simulated on the cells' models), with the
    board files' kind of search (the shared table with scores, the line split to ply 2, the
    attack cut, newest first), search as four engines of their own, slow clock by slow clock:
    the same move, score, depth, nodes and clocks; and the game goes on alike after them."""
    from trax_fpga.sim.track_driver import TrackSearchSim

    from .test_parallel_search import some_positions
    from .test_track_search import search

    options = {
        "max_depth": 4,
        "engines": 4,
        "pv_plies": 2,
        "move_table": 256,
        "shared_table": True,
        "table_scores": True,
        "attack_cut": True,
        "newest_first": True,
    }
    with (
        TrackSearchSim((32, 32), "verilator", **options) as plain,
        TrackSearchSim((32, 32), "verilator", threads=2, retime=retime, **options) as threaded,
    ):
        checked = 0
        for position in some_positions(3, 11):
            for budget in (60, 400, 3000, 20000):
                results = []
                for engines in (plain, threaded):
                    got, move = search(engines, position, budget)
                    results.append((move, got.score, got.depth, got.nodes, got.cycles))
                assert results[0] == results[1], position
                checked += 1
            assert results[0][0] is not None
            for engines in (plain, threaded):
                assert engines.play(results[0][0]).name == "LEGAL"
            box = [
                [engines.backend.get(f"game__box__{name}") for name in ("x", "y", "w", "h")]
                for engines in (plain, threaded)
            ]
            assert box[0] == box[1]
        assert checked == 24
