"""The gateware search against its software model (host/hwsearch.py): same move, score, nodes.

The gateware runs on Verilator (sim/verilator.py); each test builds one design, cached across runs.
"""

import random

import pytest
from amaranth.back import verilog

from trax_fpga.hdl.search import Search
from trax_fpga.host.hwsearch import WIN, hw_search
from trax_fpga.host.position import Position
from trax_fpga.host.tiles import Colour, Symbol
from trax_fpga.sim.verilator import VerilatorSim

from ..host.records import record_lines
from .test_movegen import white_planes

WIDTH = HEIGHT = 12
DEPTH = 3


def box_inputs(position, width, height):
    box = position.box
    return {
        "box_x": box.min_x % width,
        "box_y": box.min_y % height,
        "box_w": box.width,
        "box_h": box.height,
    }


class RtlSearch:
    """The gateware search behind an ordinary function (Glasgow style)."""

    def __init__(self, width=WIDTH, height=HEIGHT, depth=DEPTH):
        self.width, self.height = width, height
        self.sim = VerilatorSim(Search(width, height, depth))

    def close(self):
        self.sim.close()

    def search(self, position, budget):
        n = self.width * self.height
        sim = self.sim
        planes = white_planes(position, self.width, self.height)
        sim.set("white", sum(plane << (d * n) for d, plane in enumerate(planes)))
        for name, value in box_inputs(position, self.width, self.height).items():
            sim.set(name, value)
        sim.set("empty", 0)
        sim.set("turn", int(position.turn is Colour.WHITE))
        sim.set("budget", budget)
        sim.set("start", 1)
        sim.tick()
        sim.set("start", 0)
        sim.tick_until("done", 1, max_cycles=50_000_000)
        names = ["found", "x", "y", "symbol", "score", "depth", "nodes", "cycles"]
        return dict(zip(names, sim.get_many(names), strict=True))


@pytest.fixture(scope="module")
def rtl():
    engine = RtlSearch()
    yield engine
    engine.close()


def fits(position, width=WIDTH, height=HEIGHT):
    box = position.box
    return box.width + 2 <= width and box.height + 2 <= height


def positions_from_games(count, plies):
    found = []
    for _, _, moves in record_lines("human_games.txt"):
        position = Position()
        for move in moves.split()[:plies]:
            position.play(move)
            if position.outcome or not fits(position):
                break
            if len(position.turns) >= 3:
                found.append(position.copy())
        if len(found) >= count:
            break
    return found[::3][:count]


def check(rtl, position, budget, depth=DEPTH):
    model = hw_search(position, WIDTH, HEIGHT, budget, depth)
    got = rtl.search(position, budget)
    label = " ".join(str(t.move) for t in position.turns)
    assert got["found"] == (model.move is not None), label
    assert (got["x"], got["y"]) == model.window_cell, label
    assert got["symbol"] == list(Symbol).index(model.symbol), label
    assert got["score"] == model.score, label
    assert got["depth"] == model.depth, label
    assert got["nodes"] == model.nodes, label
    return got, model


@pytest.mark.parametrize("budget", [1, 7, 60, 400])
def test_same_move_as_the_model_on_human_game_positions(rtl, budget):
    for position in positions_from_games(6, 12):
        check(rtl, position, budget)


def test_same_move_as_the_model_on_random_positions(rtl):
    seed = 2026
    rng = random.Random(seed)
    for _ in range(8):
        position = Position()
        for _ in range(rng.randint(2, 10)):
            moves = position.legal_moves()
            position.play(rng.choice(moves))
            if position.outcome or not fits(position):
                position.pop()
                break
        if position.box is None or position.outcome:
            continue
        check(rtl, position, rng.choice([5, 50, 300]))


def test_finds_a_win_in_one_and_avoids_losing_at_once(rtl):
    # Human games that the last mover won with his own colour, in a box that fits the window:
    # the position before the last move has a win in one for the side to move.
    checked = 0
    for _, result, moves in record_lines("human_games.txt"):
        moves = moves.split()
        winner = result.split("-")[0]
        mover = "white" if len(moves) % 2 else "black"
        if winner != mover:
            continue
        position = Position.from_moves(moves[:-1])
        if not fits(position, WIDTH - 1, HEIGHT - 1):
            continue
        _, model = check(rtl, position, 2000)
        assert model.score == WIN - 1
        position.play(model.move)
        assert position.outcome.winner.word == winner
        checked += 1
        if checked == 3:
            break
    assert checked == 3


def test_elaborates_and_converts_to_verilog():
    for width, height in [(5, 5), (9, 7)]:
        assert "module" in verilog.convert(Search(width, height, 2), name="search")
