"""The compiled search model (host/fastmodel.c) against the Python models it follows
(host/hwsearch.py, ``board="track"``, and host/hwparallel.py): the same move, score, depth and
nodes (and with many engines each engine's nodes, the iterations' scores and the ticks) on the
same positions and budgets, and the rules under it against the reference engine by perft.

A random test asserts how many cases it compared, so that it cannot pass having compared none.
"""

from __future__ import annotations

import dataclasses
import functools
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
from trax_fpga.host.hwsearch import MATE_BOUND, hw_search, reply_move
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


def tactics_within(torus: int) -> list[Position]:
    """The positions of tests/data/tactics.txt whose box and a ring fit ``torus``."""
    positions = [tactic.position() for tactic in TACTICS]
    return [p for p in positions if max(p.box.width, p.box.height) + 2 <= torus]


def test_tactics_node_for_node():
    """Wins in one and two, defences: the search's mate scores and extensions."""
    compared = 0
    for position in tactics_within(32):
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


#: (engines, pv_plies, budget per engine, options): the ULX3S board file's (6 engines sharing a
#: table with scores, the previous best's node split, the attack cut and newest first), its
#: search before the cut (7 engines), and the variants the model has.
BOARD_TABLE = {"move_table": 16384, "shared_table": True, "table_scores": True}
PARALLEL_SETTINGS = [
    (6, 1, 2000, {**BOARD_TABLE, "research": 3}),
    (7, 1, 2000, BOARD_TABLE),
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


@pytest.mark.parametrize("seed", range(2))
def test_a_ticks_budget_stops_both_models_alike(seed):
    """The clock budget in virtual time (``ticks_budget``): the compiled and the Python model
    stop at the same node of every engine, never after the ticks given; with one engine a tick
    is a node, so it is the node budget."""
    rng, compared = random.Random(200 + seed), 0
    table = {"move_table": 4096, "shared_table": True, "table_scores": True, "research": 3}
    for _ in range(8):
        position = random_game(rng, rng.randrange(2, 40))
        engines, pv_plies = rng.randrange(1, 7), rng.randrange(1, 5)
        ticks = rng.choice([0, 1, 7, 150, 900, 2500])
        arguments = (position, 64, 64, 10**9, 8, engines)
        options = {"pv_plies": pv_plies, "ticks_budget": ticks, **table}
        expected = hw_parallel_search(*arguments, **options)
        found = fast_parallel_search(*arguments, **options)
        assert found == expected, f"{position!r}: {engines} engines, {ticks} ticks"
        assert found.ticks <= ticks
        if engines == 1:
            by_nodes = fast_parallel_search(
                position, 64, 64, ticks, 8, 1, pv_plies=pv_plies, **table
            )
            assert by_nodes == found
        compared += 1
    assert compared == 8


@pytest.mark.parametrize("seed", range(2))
def test_helpers_search_alike_in_both_models(seed):
    """``helpers`` (engines whose root moves ran out help the others', cutoffs under a root move
    ending every helper's reply there): the compiled model is the Python model's node for node,
    engine for engine and tick for tick, with node budgets, tick budgets, tables or none."""
    rng, compared = random.Random(300 + seed), 0
    for _ in range(8):
        position = random_game(rng, rng.randrange(2, 40))
        table = rng.choice([{}, {**BOARD_TABLE, "research": 3}, {"move_table": 256}])
        engines, pv_plies = rng.randrange(1, 9), rng.randrange(1, 5)
        budget, ticks = rng.choice([(5000, None), (300, None), (10**9, 1500), (10**9, 5)])
        arguments = (position, 64, 64, budget, rng.randrange(3, 6), engines)
        options = {"pv_plies": pv_plies, "ticks_budget": ticks, "helpers": True, **table}
        expected = hw_parallel_search(*arguments, **options)
        found = fast_parallel_search(*arguments, **options)
        assert found == expected, f"{position!r}: {engines} engines, {budget} nodes, {ticks}"
        compared += 1
    assert compared == 8


def test_helpers_take_only_the_python_models_research_flags():
    position = midgame_positions(1, 64, HUMAN_GAMES)[0]
    with pytest.raises(ValueError, match="helpers"):
        fast_parallel_search(position, 64, 64, 100, 4, 3, helpers=True, research=64)


def test_the_model_engine_stops_at_its_ticks():
    """``trax engine --search model --ticks T`` (``ModelChooser(ticks=T)``): the board file's
    six engines stop after T ticks whatever their nodes."""
    from trax_fpga.host.engine import ModelChooser

    position = midgame_positions(1, 64, HUMAN_GAMES)[0]
    result = ModelChooser(nodes=10**9, depth=8, engines=6, ticks=3000).choose(position)
    assert result.ticks <= 3000 and result.nodes > 3000 and result.move is not None
    with pytest.raises(ValueError, match="the ticks' budget must be a positive integer, not 0"):
        ModelChooser(ticks=0)


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


def test_research_reduction_is_the_tunings_node_for_node():
    """RESEARCH_REDUCE (a move far from the two turns before it searched a ply shallower) is
    the Python model's tuning ``reduce_far=2`` on the board file's search, node for node, and
    it reduces: fewer nodes to the same depth in most positions."""
    tuning = TUNINGS["hash16k-scores-r2"]
    table = {"move_table": 16384, "table_scores": True}
    positions = midgame_positions(6, 64, HUMAN_GAMES)
    fewer = 0
    for position in positions:
        expected = hw_search(position, 64, 64, 3000, 8, board="track", tuning=tuning)
        found = fast_search(position, 64, 64, 3000, 8, research=fastmodel.RESEARCH_REDUCE, **table)
        assert found == expected, repr(position)
        full = fast_search(position, 64, 64, 10**9, 4, **table)
        reduced = fast_search(
            position, 64, 64, 10**9, 4, research=fastmodel.RESEARCH_REDUCE, **table
        )
        fewer += reduced.nodes < full.nodes
    assert len(positions) == 6 and fewer >= 4


def test_research_pvs_keeps_the_values_with_fewer_nodes():
    """RESEARCH_PVS (moves after a node's first searched with a null window first, again with
    the whole window when they beat alpha): the same value at every depth as the search
    without, in fewer nodes over the positions."""
    table = {"move_table": 16384, "table_scores": True}
    order = fastmodel.RESEARCH_CUT | fastmodel.RESEARCH_NEWEST
    positions = midgame_positions(8, 64, HUMAN_GAMES)
    nodes = {0: 0, fastmodel.RESEARCH_PVS: 0}
    for position in positions:
        for depth in (2, 3, 4):
            full, pvs = (
                fast_search(position, 64, 64, 10**9, depth, research=order | flag, **table)
                for flag in nodes
            )
            assert (pvs.score, pvs.depth) == (full.score, full.depth), (repr(position), depth)
            nodes[0] += full.nodes
            nodes[fastmodel.RESEARCH_PVS] += pvs.nodes
    assert len(positions) == 8
    assert nodes[fastmodel.RESEARCH_PVS] < 0.9 * nodes[0], nodes


@pytest.mark.parametrize(
    "name",
    ["board", "board1", "board-x2", "board1-x3", "board1-x2-r19", "board1-r0", "board1-r259-t1024"],
)
def test_search_bench_plays_the_compiled_board(name):
    position = midgame_positions(1, 64, HUMAN_GAMES)[0]
    engines = 1 if name.startswith("board1") else 6  # (the board file's)
    extensions = int(name.split("-x")[1].split("-")[0]) if "-x" in name else 1
    entries = int(name.split("-t")[1]) if "-t" in name else 16384  # (the board file's)
    table = {"move_table": entries, "table_scores": True, "shared_table": True}
    table["extensions"] = extensions
    research = name.split("-r")[1].split("-")[0] if "-r" in name else "3"  # (the board file's)
    table["research"] = int(research)
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


# --- research options of the compiled model (model only) -----------------------------------


@pytest.fixture
def board_weights():
    """The fitted evaluation's weights set to the board's own, and left so after the test."""
    fastmodel.research_weights(fastmodel.BOARD_WEIGHTS)
    yield
    fastmodel.research_weights(fastmodel.BOARD_WEIGHTS)


def test_the_fitted_evaluation_with_the_boards_weights_is_the_board(board_weights):
    """RESEARCH_FITTED with BOARD_WEIGHTS searches node for node as the board's evaluation
    (which checks the kinds, the attacks and the constant it sums); other weights do not."""
    fitted = fastmodel.RESEARCH_FITTED
    positions = midgame_positions(6, 64, HUMAN_GAMES)
    table = {"move_table": 16384, "table_scores": True}
    for position in positions:
        for budget, depth, options in SETTINGS[:3]:
            expected = fast_search(position, 64, 64, budget, depth, **options)
            assert fast_search(position, 64, 64, budget, depth, research=fitted, **options) == (
                expected
            )
        shared = dict(table, shared_table=True)
        expected = fast_parallel_search(position, 64, 64, 800, 8, 3, **shared)
        assert fast_parallel_search(position, 64, 64, 800, 8, 3, research=fitted, **shared) == (
            expected
        )
    tempo_only = [0] * (len(fastmodel.BOARD_WEIGHTS) - 1) + [20]
    fastmodel.research_weights(tempo_only)
    changed = sum(
        fast_search(p, 64, 64, 4000, 8, research=fitted, **table)
        != fast_search(p, 64, 64, 4000, 8, **table)
        for p in positions
    )
    assert changed >= 3
    with pytest.raises(ValueError):
        fastmodel.research_weights([1, 2, 3])


@pytest.mark.parametrize("research", [1, 2, 3])
def test_the_cut_and_the_newest_first_are_the_python_models_node_for_node(research):
    """RESEARCH_NEWEST and RESEARCH_CUT, the two research options the Python model has too:
    the same move, score, depth and nodes, one engine and several (each engine's nodes, the
    iterations' scores, the ticks), on human-game and tactics positions."""
    compared = 0
    positions = midgame_positions(6, 64, HUMAN_GAMES)
    positions += [t.position() for t in TACTICS[::3]]
    for position in positions:
        box = position.box
        if max(box.width, box.height) + 2 > 64:
            continue
        for budget, depth, options in SETTINGS:
            expected = hw_search(
                position, 64, 64, budget, depth, board="track", research=research, **options
            )
            found = fast_search(position, 64, 64, budget, depth, research=research, **options)
            assert found == expected, (repr(position), budget, options)
        table = {"move_table": 4096, "shared_table": True, "table_scores": True}
        arguments = (position, 64, 64, 400, 8, 3)
        expected = hw_parallel_search(*arguments, pv_plies=2, research=research, **table)
        found = fast_parallel_search(*arguments, pv_plies=2, research=research, **table)
        assert found == expected, repr(position)
        compared += 1
    assert compared >= 10


def test_the_python_model_refuses_the_compiled_models_own_options():
    position = midgame_positions(1, 64, HUMAN_GAMES)[0]
    with pytest.raises(ValueError):
        hw_search(position, 64, 64, 100, 4, board="track", research=fastmodel.RESEARCH_HALF)
    with pytest.raises(ValueError):
        hw_search(position, 64, 64, 100, 4, board="window", research=fastmodel.RESEARCH_CUT)


def test_newest_first_keeps_each_iterations_value():
    """RESEARCH_NEWEST changes the order of the candidates only: a completed iteration has the
    same minimax value (alpha-beta's does not depend on the order), in other nodes."""
    positions = midgame_positions(8, 64, HUMAN_GAMES)
    other_nodes = 0
    for position in positions:
        for depth in (2, 3):
            expected = fast_search(position, 64, 64, 10**8, depth)
            found = fast_search(position, 64, 64, 10**8, depth, research=fastmodel.RESEARCH_NEWEST)
            assert (found.score, found.depth) == (expected.score, expected.depth), repr(position)
            other_nodes += found.nodes != expected.nodes
    assert other_nodes >= 8


def test_the_cut_and_the_newest_order_still_solve_the_tactics():
    """RESEARCH_CUT (a move leaving the opponent an attack is lost, scored as a mate in one,
    without a search below it) with the newest-first order and the deeper entries' scores, as
    the research players use them: where the board's search proves a win in
    tests/data/tactics.txt, the research search proves one too, and its move wins: the board's
    search from the position after it proves the opponent lost."""
    research = fastmodel.RESEARCH_CUT | fastmodel.RESEARCH_NEWEST | fastmodel.RESEARCH_DEEPER
    table = {"move_table": 16384, "table_scores": True}
    solved = 0
    for position in tactics_within(30):
        if fast_search(position, 32, 32, 200_000, 6, **table).score < 900:
            continue  # not a win the board's search proves
        found = fast_search(position, 32, 32, 200_000, 6, research=research, **table)
        assert found.score >= 900, repr(position)
        position.play(found.move)
        if position.outcome is None:
            reply = fast_search(position, 32, 32, 2_000_000, 6, **table)
            assert reply.score <= -900, (repr(position), found.move)
        solved += 1
    assert solved >= 10


def test_an_attack_always_has_its_winning_move():
    """What RESEARCH_CUT rests on: wherever the side to move holds an attack (a track whose
    targets are 1 apart, trackeval), it has a move that wins at once (checked on every child
    of the human games' middle positions; a session checked 10,154 such positions)."""
    from trax_fpga.host.trackeval import track_features

    checked = 0
    for position in midgame_positions(40, 64, HUMAN_GAMES):
        for move in position.legal_moves():
            position.play(move)
            side = position.turn
            if position.outcome is None and track_features(position, 64, 64).attacks[side]:
                wins = []
                for answer in position.legal_moves():
                    position.play(answer)
                    wins.append(position.outcome is not None and position.outcome.winner == side)
                    position.pop()
                assert any(wins), repr(position)
                checked += 1
            position.pop()
    assert checked >= 100


def test_half_plies_for_attacks_see_a_win_kizuna_saw():
    """RESEARCH_HALF (a move after which its mover holds an attack costs half a ply) with the
    cut and the newest order: in a game the board lost to KizuNa (twenty-fourth session, the
    board white, KizuNa to move at ply 13), KizuNa's search saw a win at depth 6 that the
    board's search, with 6 M nodes, does not; the research search proves it."""
    moves = ["@0+", "A0/", "A3\\", "B2/", "C2/", "C1/", "D1/", "A0+", "E4+", "D5\\", "@1\\", "@1\\"]
    position = Position.from_moves(moves)
    table = {"move_table": 16384, "table_scores": True}
    board = fast_search(position, 64, 64, 6_000_000, 12, **table)
    assert board.score < 500
    research = fastmodel.RESEARCH_HALF | fastmodel.RESEARCH_CUT | fastmodel.RESEARCH_NEWEST
    found = fast_search(position, 64, 64, 6_000_000, 12, research=research, **table)
    assert found.score >= 900
    position.play(found.move)
    assert fast_search(position, 64, 64, 6_000_000, 12, research=research, **table).score <= -900


def test_search_bench_prints_the_research_figures(capsys):
    """``search_bench research``: one figure line per flags for the nodes to a depth (the
    compiled model's, summed) and one for the depth in the board's think time."""
    from trax_fpga.host.search_bench import GAMES_FILE, research_figures

    research_figures((0, 3), 3, count=2)
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 4
    positions = midgame_positions(2, 64, GAMES_FILE)
    table = {"move_table": 16384, "table_scores": True}
    for line, research in zip(lines[::2], (0, 3), strict=True):
        total = sum(
            fast_search(p, 64, 64, 10**10, 3, research=research, **table).nodes for p in positions
        )
        assert line.startswith(f"nodes to depth 3, research {research}: {total} nodes (")
    assert lines[1].startswith("depth in the board's 0.8 s, research 0: ")


def test_search_bench_prints_what_the_board_searches_in_its_think_time(capsys):
    """``search_bench think``: per pv_plies, the nodes a tick and a second and the depth of the
    board file's player at a ticks budget, over the positions every setting searched to it."""
    from trax_fpga.host.search_bench import (
        BOARD_ENGINES,
        BOARD_RESEARCH,
        GAMES_FILE,
        think_figures,
    )
    from trax_fpga.host.shapes import chosen_table

    think_figures(2000, (1, 2), count=2)
    lines = capsys.readouterr().out.splitlines()
    assert [line.split(":")[0] for line in lines] == [
        f"{name} in play, pv_plies {plies}"
        for plies in (1, 2)
        for name in ("nodes a tick", "nodes a second", "depth")
    ]
    positions = midgame_positions(2, 64, GAMES_FILE)

    def board_player(plies: int, helpers: bool = False) -> list:
        """The board file's player on the positions at 2,000 ticks a move."""
        return [
            fast_parallel_search(
                *(p, 64, 64, 2**62, 8, BOARD_ENGINES),
                pv_plies=plies,
                helpers=helpers,
                shared_table=True,
                move_table=16384,
                table_scores=True,
                research=BOARD_RESEARCH,
                shapes=chosen_table("board"),
                ticks_budget=2000,
            )
            for p in positions
        ]

    searched = {plies: board_player(plies) for plies in (1, 2)}
    full = [i for i in range(2) if all(r[i].ticks == 2000 for r in searched.values())]
    assert full  # (a position that ends sooner is left out)
    mean = sum(searched[1][i].nodes for i in full) / len(full)
    assert lines[0].startswith(f"nodes a tick in play, pv_plies 1: {mean / 2000:.2f} nodes (")
    assert f"the {len(full)} of 2 mid-game positions searched to the budget" in lines[0]
    think_figures(2000, (2,), count=2, helpers=True)
    lines = capsys.readouterr().out.splitlines()
    assert [line.split(":")[0] for line in lines[::3]] == [
        "nodes a tick in play, pv_plies 2",
        "nodes a tick in play, pv_plies 2, helpers",
    ]
    helped = board_player(2, helpers=True)
    full = [i for i in range(2) if searched[2][i].ticks == helped[i].ticks == 2000]
    mean = sum(helped[i].nodes for i in full) / len(full)
    assert lines[3].startswith(f"nodes a tick in play, pv_plies 2, helpers: {mean / 2000:.2f} ")


def test_search_bench_parallel_takes_the_research_flags(capsys):
    """``search_bench parallel --research 3``: the ticks are the compiled model's with the
    board file's order (the cut, newest first), which differ from the order without them."""
    from trax_fpga.host.search_bench import GAMES_FILE, parallel

    positions = midgame_positions(2, 64, GAMES_FILE)
    table = {"move_table": 16384, "table_scores": True, "shared_table": True}
    means = {}
    for research in (0, 3):
        parallel(3, 2, engine_counts=(2,), research=research, **table)
        line = next(x for x in capsys.readouterr().out.splitlines() if ", ticks: " in x)
        ticks = [
            fast_parallel_search(p, 64, 64, 10**9, 3, 2, research=research, **table).ticks
            for p in positions
        ]
        means[research] = round(sum(ticks) / len(ticks))
        assert line.startswith(f"parallel split, 2 engines, depth 3, ticks: {means[research]} ")
        assert ("research flags 3" in line) == (research == 3)
    assert means[0] != means[3]


def test_the_threat_search_proves_wins_the_full_width_search_proves_two_plies_deeper():
    """RESEARCH_THREATS (a quiet horizon searches the side to move's threats and every answer to
    them): where KizuNa first reported a win against the software player at 75 ms
    (tests/data/kizuna_scores.tsv, series ``ref-kz75-data``), the board's search at depth 3
    with the threat search proves more wins than without, and each win it proves is one the
    full-width search proves at depth 5 (a threat and its answers are two plies): no false
    proof. A threat's answers are every move, so a proof needs no pattern to be right."""
    from trax_fpga.host.distill import read_samples
    from trax_fpga.host.hwsearch import MATE_BOUND
    from trax_fpga.host.shapes import board_table

    first: dict[str, object] = {}
    for sample in read_samples():
        earlier = sample.game not in first or len(sample.moves) < len(first[sample.game].moves)
        if sample.score >= 20000 and sample.game.startswith("ref-kz75-data/") and earlier:
            first[sample.game] = sample
    table = {"move_table": 16384, "table_scores": True, "shapes": board_table()}
    order = fastmodel.RESEARCH_CUT | fastmodel.RESEARCH_NEWEST
    threats = order | fastmodel.RESEARCH_THREATS
    proved = {order: 0, threats: 0}
    for sample in first.values():
        position = Position.from_moves(list(sample.moves))
        plain = fast_search(position, 64, 64, 10**8, 3, research=order, **table)
        found = fast_search(position, 64, 64, 10**8, 3, research=threats, **table)
        proved[order] += plain.score >= MATE_BOUND
        proved[threats] += found.score >= MATE_BOUND
        assert found.score >= MATE_BOUND or plain.score < MATE_BOUND, repr(position)
        if found.score >= MATE_BOUND and plain.score < MATE_BOUND:
            deeper = fast_search(position, 64, 64, 10**8, 5, research=order, **table)
            assert deeper.score >= MATE_BOUND, repr(position)
    assert len(first) >= 40
    assert proved[threats] >= proved[order] + 10, proved


def test_excluded_root_moves_are_left_out_and_cleared():
    """``exclude``: the searches (one engine and many) choose among the other root moves, and
    search as before once the list is cleared."""
    checked = 0
    for position in midgame_positions(4, 64, HUMAN_GAMES):
        for search in (
            functools.partial(fast_search, position, 64, 64, 3000, 4),
            functools.partial(fast_parallel_search, position, 64, 64, 1500, 4, 3),
        ):
            best = search()
            key = fastmodel.root_key(best.window_cell, best.symbol, 64, 64)
            fastmodel.exclude([key])
            try:
                other = search()
            finally:
                fastmodel.exclude([])
            assert other.move is not None and other.move != best.move
            assert fastmodel.root_key(other.window_cell, other.symbol, 64, 64) != key
            assert search() == best
            checked += 1
    assert checked == 8


@pytest.mark.parametrize("depth", [3, 4])
def test_the_reply_is_the_best_reply_the_search_saw(depth):
    """The compiled model's ``reply`` (research: the pondering board's free guess) is the best
    move of the chosen move's node at ply 1: a legal move there, and, the node searched with an
    exact window, one that keeps the root's score: the position after the move and the reply,
    searched ``depth - 2`` plies, scores the root's score (positions won or lost aside)."""
    options = {"move_table": 16384, "table_scores": True}
    checked = 0
    for position in midgame_positions(6, 64, HUMAN_GAMES):
        result = fast_search(position, 64, 64, 10**7, depth, **options)
        if abs(result.score) >= MATE_BOUND:  # a win or a loss ends the deepening
            continue
        assert result.depth == depth
        position.play(result.move)
        try:
            reply = reply_move(position, 64, 64, result.reply)
            assert reply is not None and reply in position.legal_moves()
            position.play(reply)
            try:
                below = fast_search(position, 64, 64, 10**7, depth - 2, **options)
            finally:
                position.pop()
        finally:
            position.pop()
        assert below.score == result.score, position
        checked += 1
    assert checked >= 4


def test_many_engines_name_a_legal_reply():
    """With the board file's six engines and the split to ply 4 the reply comes from the split
    node's merged best (or the engine whose root move won): legal after the chosen move. A
    depth-1 search has no node at ply 1, so no reply."""
    options = {"move_table": 16384, "shared_table": True, "table_scores": True}
    checked = 0
    for position in midgame_positions(12, 64, HUMAN_GAMES):
        found = fast_parallel_search(position, 64, 64, 20000, 8, 6, pv_plies=4, **options)
        if abs(found.score) >= MATE_BOUND:  # the move wins or loses: no reply to expect
            continue
        position.play(found.move)
        try:
            assert reply_move(position, 64, 64, found.reply) in position.legal_moves()
        finally:
            position.pop()
        shallow = fast_parallel_search(position, 64, 64, 20000, 1, 6, pv_plies=4, **options)
        assert shallow.depth == 1 and shallow.reply is None
        checked += 1
    assert checked >= 4
