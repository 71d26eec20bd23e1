"""The move generator against the reference engine: every candidate, in window order."""

import random

import pytest
from amaranth import Module
from amaranth.back import verilog
from amaranth.lib import wiring

from trax_fpga.hdl.legality import ArrayLegality
from trax_fpga.hdl.movegen import MoveGenerator, candidate_index
from trax_fpga.host.position import Position
from trax_fpga.host.tiles import Symbol
from trax_fpga.sim.perft_driver import white_value
from trax_fpga.sim.verilator import VerilatorSim

from ..host.records import record_lines


def reference_candidates(position, width, height):
    """(x, y, symbol) in window order: frontier cells with a symbol one of whose variants fits."""
    found = set()
    for x, y in position.frontier():
        fitting = position.constraint((x, y)).fitting
        for s, symbol in enumerate(Symbol):
            if any(v in fitting for v in symbol.variants):
                found.add((x % width, y % height, s))
    return sorted(found, key=lambda c: candidate_index(width, height, *c))


class LegalityAndMoves(wiring.Component):
    """ArrayLegality feeding the MoveGenerator: the board planes in, the candidate out."""

    def __init__(self, width, height):
        self.legality = ArrayLegality(width, height)
        self.movegen = MoveGenerator(width, height)
        super().__init__(
            {
                "white": wiring.In(self.legality.white.shape()),
                "cursor": wiring.In(self.movegen.cursor.shape()),
                "valid": wiring.Out(1),
                "index": wiring.Out(self.movegen.index.shape()),
                "x": wiring.Out(self.movegen.x.shape()),
                "y": wiring.Out(self.movegen.y.shape()),
                "symbol": wiring.Out(2),
            }
        )

    def elaborate(self, platform):
        m = Module()
        m.submodules.legality = self.legality
        m.submodules.movegen = self.movegen
        m.d.comb += [
            self.legality.white.eq(self.white),
            self.movegen.fit.eq(self.legality.fit),
            self.movegen.frontier.eq(self.legality.frontier),
            self.movegen.cursor.eq(self.cursor),
            self.valid.eq(self.movegen.valid),
            self.index.eq(self.movegen.index),
            self.x.eq(self.movegen.x),
            self.y.eq(self.movegen.y),
            self.symbol.eq(self.movegen.symbol),
        ]
        return m


def hardware_candidates(positions, width, height):
    """Run the generator (on Verilator) from cursor 0 to the end on each position."""
    results = []
    with VerilatorSim(LegalityAndMoves(width, height)) as sim:
        for position in positions:
            sim.set("white", white_value(position, width, height))
            found, cursor = [], 0
            while True:
                sim.set("cursor", cursor)
                valid, index, x, y, symbol = sim.get_many(["valid", "index", "x", "y", "symbol"])
                if not valid:
                    break
                assert index == candidate_index(width, height, x, y, symbol)
                assert index >= cursor
                found.append((x, y, symbol))
                cursor = index + 1
            results.append(found)
    return results


def random_positions(seed, count, plies, width, height):
    rng = random.Random(seed)
    positions = []
    while len(positions) < count:
        position = Position()
        for _ in range(rng.randint(1, plies)):
            moves = position.legal_moves()
            if not moves:
                break
            position.play(rng.choice(moves))
            box = position.box
            if box.width + 2 > width or box.height + 2 > height:
                position.pop()
                break
        positions.append(position)
    return positions


@pytest.mark.parametrize("width,height,seed", [(6, 5, 1)])
def test_candidates_match_the_reference_on_random_positions(width, height, seed):
    positions = random_positions(seed, 12, 12, width, height)
    got = hardware_candidates(positions, width, height)
    for position, hardware in zip(positions, got, strict=True):
        assert hardware == reference_candidates(position, width, height), (
            f"seed {seed}: {' '.join(str(t.move) for t in position.turns)}"
        )


def test_candidates_match_on_human_game_positions():
    width = height = 18
    positions = []
    for _, _, moves in record_lines("human_games.txt")[:3]:
        position = Position()
        for move in moves.split():
            position.play(move)
            if not position.outcome:
                positions.append(position.copy())
    positions = positions[::4]
    got = hardware_candidates(positions, width, height)
    for position, hardware in zip(positions, got, strict=True):
        assert hardware == reference_candidates(position, width, height)
        legal = {(position.cell_of(m), m.symbol) for m in position.legal_moves()}
        window_legal = {(x % width, y % height, list(Symbol).index(s)) for (x, y), s in legal}
        assert window_legal <= set(hardware), "every legal move is a candidate"


@pytest.mark.parametrize("width,height", [(5, 4), (16, 16)])
def test_elaborates_and_converts_to_verilog(width, height):
    assert "module" in verilog.convert(MoveGenerator(width, height), name="movegen")
