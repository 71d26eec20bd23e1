"""The compiled search model (host/fastmodel.c) against the Python models it follows
(host/hwsearch.py, ``board="track"``, and host/hwparallel.py): the same move, score, depth and
nodes (and with many engines each engine's nodes, the iterations' scores and the ticks) on the
same positions and budgets, and the rules under it against the reference engine by perft.

A random test asserts how many cases it compared, so that it cannot pass having compared none.
"""

from __future__ import annotations

import dataclasses
import pathlib
import random

import pytest

from trax_fpga.host import fastmodel
from trax_fpga.host.fastmodel import (
    FastModelError,
    available,
    fast_parallel_search,
    fast_perft,
    fast_search,
)
from trax_fpga.host.hwparallel import hw_parallel_search
from trax_fpga.host.hwsearch import hw_search
from trax_fpga.host.position import Position
from trax_fpga.host.search_bench import make_player, midgame_positions
from trax_fpga.host.tiles import Tile
from trax_fpga.host.trackresearch import TUNINGS

from .test_perft import PERFT
from .test_search import TACTICS

HUMAN_GAMES = pathlib.Path(__file__).parent.parent / "data" / "human_games.txt"
#: (budget, max_depth, options): the board file's table with scores, a table of moves alone,
#: none, and the mate search without the evaluation.
SETTINGS = [
    (4000, 8, {"move_table": 16384, "table_scores": True}),
    (1500, 6, {"move_table": 1024}),
    (1500, 6, {}),
    (600, 3, {"evaluation": False}),
]


def same(position: Position, torus: int, budget: int, depth: int, options: dict) -> None:
    expected = hw_search(position, torus, torus, budget, depth, board="track", **options)
    found = fast_search(position, torus, torus, budget, depth, **options)
    assert found == expected, f"{position!r} on {torus}x{torus}, {budget} nodes, {options}"


def test_the_compiler_builds_it():
    """`make test` runs where Verilator's models are built, so a C compiler is there."""
    assert available()


@pytest.mark.parametrize("depth", sorted(PERFT)[:5])
def test_perft_from_the_empty_board(depth):
    assert fast_perft(Position(), depth) == PERFT[depth]


def test_perft_from_recorded_positions():
    positions = midgame_positions(8, 64, HUMAN_GAMES)
    for position in positions:
        assert fast_perft(position, 2) == position.perft(2), repr(position)
    assert len(positions) == 8


def test_human_game_positions_node_for_node():
    positions = midgame_positions(12, 64, HUMAN_GAMES)
    for position in positions:
        for budget, depth, options in SETTINGS:
            same(position, 64, budget, depth, options)
    assert len(positions) == 12


def test_tactics_node_for_node():
    """Wins in one and two, defences: the search's mate scores and extensions."""
    compared = 0
    for tactic in TACTICS:
        position = tactic.position()
        box = position.box
        if max(box.width, box.height) + 2 > 32:
            continue
        same(position, 32, 3000, 6, {"move_table": 16384, "table_scores": True})
        same(position, 32, 2000, 4, {})
        compared += 1
    assert compared >= 20


def random_game(rng: random.Random, plies: int) -> Position:
    position = Position.from_moves([rng.choice(["@0+", "@0/"])])
    for _ in range(plies):
        if position.outcome is not None:
            break
        position.play(rng.choice(position.legal_moves()))
    while position.outcome is not None:
        position.pop()
    return position


@pytest.mark.parametrize("seed", range(3))
def test_random_positions_node_for_node(seed):
    rng = random.Random(seed)
    compared = 0
    for _ in range(12):
        position = random_game(rng, rng.randrange(1, 60))
        budget, depth, options = rng.choice(SETTINGS)
        same(position, 64, budget, depth, options)
        compared += 1
    assert compared == 12


def test_a_small_torus_refuses_what_would_not_fit():
    """Games grown close to a 12 x 12 torus: moves that would outgrow it are refused, and the
    torus's distances and keys wrap."""
    rng, compared = random.Random(11), 0
    while compared < 10:
        position = random_game(rng, 40)
        box = position.box
        if not 7 <= max(box.width, box.height) <= 10:
            continue
        same(position, 12, 2000, 6, {"move_table": 4096, "table_scores": True})
        same(position, 12, 800, 4, {})
        compared += 1


def test_a_spent_budget_gives_the_first_legal_move_or_none():
    position = TACTICS[0].position()
    for budget in (0, 1, 2, 7):
        same(position, 32, budget, 6, {"move_table": 1024, "table_scores": True})
    assert fast_search(position, 32, 32, 0, 6).move is None


def test_the_first_move_needs_no_search():
    result = fast_search(Position(), 64, 64, 1000, 6)
    assert (str(result.move), result.nodes) == ("@0+", 0)


def test_a_position_set_up_from_tiles_is_refused():
    position = Position.from_tiles({(0, 0): Tile.NS, (1, 0): Tile.SE})
    with pytest.raises(FastModelError, match="empty board"):
        fast_search(position, 32, 32, 100, 4)


#: (engines, pv_plies, budget per engine, options): the ULX3S board file's (7 engines sharing a
#: table with scores, the previous best's node split), and the variants the model has.
PARALLEL_SETTINGS = [
    (7, 1, 2000, {"move_table": 16384, "shared_table": True, "table_scores": True}),
    (3, 1, 1500, {"move_table": 1024, "shared_table": True, "table_scores": True}),
    (4, 3, 1000, {}),
    (2, 2, 800, {"move_table": 512}),
    (1, 1, 1500, {}),
]


def same_parallel(position, torus, engines, pv_plies, budget, depth, options) -> None:
    arguments = (position, torus, torus, budget, depth, engines)
    expected = hw_parallel_search(*arguments, pv_plies=pv_plies, **options)
    found = fast_parallel_search(*arguments, pv_plies=pv_plies, **options)
    assert found == expected, f"{position!r}: {engines} engines, {budget} nodes, {options}"


def test_many_engines_on_human_game_positions():
    positions = midgame_positions(6, 64, HUMAN_GAMES)
    for position in positions:
        for engines, pv_plies, budget, options in PARALLEL_SETTINGS:
            same_parallel(position, 64, engines, pv_plies, budget, 8, options)
    assert len(positions) == 6


@pytest.mark.parametrize("seed", range(2))
def test_many_engines_on_random_positions_and_budgets(seed):
    """Budgets that stop the first iterations (0, 1, 3 nodes an engine) as well as later ones,
    small tori, the mate search."""
    rng, compared = random.Random(100 + seed), 0
    for _ in range(12):
        position = random_game(rng, rng.randrange(1, 50))
        torus = rng.choice([16, 32, 64])
        if max(position.box.width, position.box.height) + 2 > torus:
            torus = 64
        table = {"move_table": 4096, "shared_table": True, "table_scores": True}
        options = rng.choice([{}, table, {"move_table": 256}, {"evaluation": False}])
        engines, pv_plies = rng.randrange(1, 8), rng.randrange(1, 5)
        budget, depth = rng.choice([0, 1, 3, 20, 300, 1200]), rng.randrange(2, 9)
        same_parallel(position, torus, engines, pv_plies, budget, depth, options)
        compared += 1
    assert compared == 12


def test_research_extensions_are_the_tunings_node_for_node():
    """``extensions`` (research): the Python model with the tuning ``sw-loops`` (the board's
    evaluation through the research path) and as many plies of extension; 1 is the gateware's."""
    board_file = TUNINGS["sw-loops-hash16k-scores"]
    positions = midgame_positions(6, 64, HUMAN_GAMES)
    for position in positions:
        for extensions in (1, 2, 3):
            tuning = dataclasses.replace(board_file, extensions=extensions)
            expected = hw_search(position, 64, 64, 2500, 8, board="track", tuning=tuning)
            table = {"move_table": 16384, "table_scores": True}
            found = fast_search(position, 64, 64, 2500, 8, extensions=extensions, **table)
            assert found == expected, (repr(position), extensions)
    assert len(positions) == 6


@pytest.mark.parametrize("name", ["board", "board1", "board-x2", "board1-x3"])
def test_search_bench_plays_the_compiled_board(name):
    position = midgame_positions(1, 64, HUMAN_GAMES)[0]
    engines = 1 if name.startswith("board1") else 7
    extensions = int(name.split("-x")[1]) if "-x" in name else 1
    table = {"move_table": 16384, "table_scores": True, "shared_table": True}
    table["extensions"] = extensions
    expected = fast_parallel_search(position, 64, 64, 300, 8, engines, **table)
    assert make_player(name, 300)(position) == expected.move


def test_a_game_beyond_the_c_sides_reach_is_searched_by_the_python_model(monkeypatch):
    """A game that outgrew every torus (tiles more than ``REACH`` from the first) goes to the
    Python model, with the same result, and the C side is not asked."""
    position = midgame_positions(1, 64, HUMAN_GAMES)[0]
    box = position.box
    monkeypatch.setattr(fastmodel, "REACH", max(-box.min_x, box.max_x, -box.min_y, box.max_y) - 1)
    monkeypatch.setattr(fastmodel, "library", None)  # (calling it would fail)
    table = {"move_table": 1024, "table_scores": True}
    expected = hw_search(position, 64, 64, 500, 6, board="track", **table)
    assert fast_search(position, 64, 64, 500, 6, **table) == expected
    expected = hw_parallel_search(position, 64, 64, 300, 6, 3, shared_table=True, **table)
    assert fast_parallel_search(position, 64, 64, 300, 6, 3, shared_table=True, **table) == expected


@pytest.mark.parametrize("engines", [1, 3])
def test_model_search_runs_the_python_model_without_a_compiler(engines, monkeypatch):
    """What ``trax engine --search model`` and ``trax best --backend model`` call: the compiled
    model when it can be built, else the Python one, with the same result."""
    position = midgame_positions(1, 64, HUMAN_GAMES)[0]
    table = {"move_table": 1024, "table_scores": True}
    compiled, ran = fastmodel.model_search(position, 64, 400, 6, engines, **table)
    assert ran
    monkeypatch.setattr(fastmodel, "available", lambda: False)
    python, ran = fastmodel.model_search(position, 64, 400, 6, engines, **table)
    assert not ran and python == compiled
