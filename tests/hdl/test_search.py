"""The gateware search against its software model (host/hwsearch.py): same move, score, nodes.

The gateware runs on Verilator (sim/verilator.py); each test builds one design, cached across runs.
"""

import random

import pytest
from amaranth.back import verilog

from trax_fpga.hdl.search import Search
from trax_fpga.host.hwsearch import WIN, hw_search
from trax_fpga.host.position import Position
from trax_fpga.sim.search_driver import RtlSearch

from ..host.records import record_lines
from ..host.test_hwsearch import budget_of, fitting, solves

WIDTH = HEIGHT = 12
DEPTH = 3


@pytest.fixture(scope="module")
def rtl():
    with RtlSearch(WIDTH, HEIGHT, DEPTH) as engine:
        yield engine


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
    assert got.move == model.move, label
    assert (got.window_cell, got.symbol) == (model.window_cell, model.symbol), label
    assert (got.score, got.depth, got.nodes) == (model.score, model.depth, model.nodes), label
    assert got.move is not None, label  # a legal move exists and the budget is not 0
    assert position.is_legal(got.move), label
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


@pytest.mark.parametrize("tactic", fitting("", WIDTH))
def test_tactics(rtl, tactic):
    """Wins in one, one-move defences and wins in two by double threats from human games."""
    position = tactic.position()
    got = rtl.search(position, budget_of(tactic))
    assert solves(tactic, got.move), got


def test_budget_spent_inside_the_first_root_move(rtl):
    """The side to move is threatened after every root move, so the first one is extended and
    5 nodes do not finish it: the answer is the first legal move, scored 0, not a score left
    over from the search before (a bug found once) and not "no move"."""
    scored = Position.from_moves(["@0+", "B1+", "A0/", "A3/", "@3/", "@3+"])
    assert rtl.search(scored, 300).score != 0
    position = Position.from_moves(["@0+", "A2\\", "@2\\", "C1\\", "D1\\", "A3/"])
    check(rtl, position, 5)


def test_stops_at_the_cycle_budget(rtl):
    position = positions_from_games(1, 12)[0]
    unlimited = rtl.search(position, 5_000)
    assert unlimited.cycles > 2_000
    got = rtl.search(position, 5_000, cycle_budget=2_000)
    assert got.cycles < 2_000 + 200  # one move and the take-backs after the budget is spent
    assert got.nodes < unlimited.nodes
    assert got.move is None or position.is_legal(got.move)


def test_elaborates_and_converts_to_verilog():
    for width, height in [(5, 5), (9, 7)]:
        assert "module" in verilog.convert(Search(width, height, 2), name="search")


def test_trax_best_backend_rtl(capsys):
    from trax_fpga.cli import main

    moves = ["@0+", "B1+", "A0/", "A3/", "@3/", "@3+"]
    args = ["best", "--backend", "rtl", "--window", str(WIDTH), "--depth", str(DEPTH)]
    assert main([*args, "--nodes", "300", *moves]) == 0
    out = capsys.readouterr().out.splitlines()
    model = hw_search(Position.from_moves(moves), WIDTH, HEIGHT, 300, DEPTH)
    assert out[-1] == str(model.move)
    assert "agrees" in out[-2]
