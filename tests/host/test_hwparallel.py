"""The parallel search's model (host/hwparallel.py) against the sequential one (host/hwsearch.py,
``board="track"``), as docs/parallel.md promises: one engine is the sequential search node for
node; with N engines every completed iteration scores what the sequential search scores at that
depth, and the chosen move's own value is that score.
"""

from __future__ import annotations

import pytest

from trax_fpga.host.hwparallel import hw_parallel_search
from trax_fpga.host.hwsearch import INFINITY, MATE_BOUND, _Searcher, hw_search
from trax_fpga.host.position import Position
from trax_fpga.host.search_bench import random_opening

from .records import record_lines

TORUS = 32
BIG = 10**7


def game_positions(count: int, plies: int = 16) -> list[Position]:
    """Every third position (after 3 to ``plies`` moves) of the human games, ``count`` of them."""
    found = []
    for _, _, moves in record_lines("human_games.txt"):
        position = Position()
        for move in moves.split()[:plies]:
            position.play(move)
            if position.outcome:
                break
            if len(position.turns) >= 3:
                found.append(position.copy())
        if len(found) >= 3 * count:
            break
    return found[::3][:count]


def random_positions(count: int, seed: int) -> list[Position]:
    """Positions after seeded random openings of 2 to 21 plies."""
    return [
        Position.from_moves(random_opening(seed + i, 2 + (seed + i) % 20)) for i in range(count)
    ]


def summary(result) -> tuple:
    return result.move, result.score, result.depth, result.nodes, result.window_cell


def sequential_scores(position: Position, depth: int) -> list[int]:
    """The sequential search's score at every depth it completes up to ``depth``."""
    scores = []
    for d in range(1, depth + 1):
        result = hw_search(position, TORUS, TORUS, BIG, d, board="track")
        if result.depth < d:  # the deepening ended on a win or a loss
            break
        scores.append(result.score)
        if abs(result.score) >= MATE_BOUND:
            break
    return scores


def move_value(position: Position, move, depth: int) -> int:
    """The value of the root move ``move`` in the iteration of ``depth`` (full window), from the
    side to move's point of view, as the root scores it (mate scores count the root's ply)."""
    searcher = _Searcher(position.copy(), TORUS, TORUS, BIG, True, "track")
    turn = searcher.order.play(move)
    return searcher.value(turn, 0, depth, -INFINITY, INFINITY)


def test_one_engine_is_the_sequential_search_node_for_node():
    """With or without the recursive PV split (``pv_plies`` 2 splits plies 1 and 2 at depth 4)."""
    checked = 0
    for i, position in enumerate(game_positions(20) + random_positions(20, 40)):
        for budget in (0, 3, 60, 400, 2000)[i % 2 :: 2]:
            expected = hw_search(position, TORUS, TORUS, budget, 4, board="track")
            got = hw_parallel_search(position, TORUS, TORUS, budget, 4, 1, pv_plies=1 + i // 20)
            assert summary(got) == summary(expected), (position.turns, budget)
            assert got.engine_nodes == (got.nodes,) and got.ticks == got.nodes
            checked += 1
    assert checked == 100


def test_iterations_score_as_the_sequential_search():
    checked = 0
    for i, position in enumerate(game_positions(6) + random_positions(6, 80)):
        depth = 3 if i % 6 == 0 else 2
        expected = sequential_scores(position, depth)
        for engines in (2, 3, 4, 8):
            got = hw_parallel_search(position, TORUS, TORUS, BIG, depth, engines)
            assert got.iterations == expected, (position.turns, engines)
            assert got.score == expected[-1] and got.depth == len(expected)
            assert position.is_legal(got.move)
            assert move_value(position, got.move, got.depth) == got.score
            assert sum(got.engine_nodes) == got.nodes
            checked += 1
    assert checked == 48


def test_tiny_budgets_give_a_move_exactly_when_the_sequential_search_does():
    checked = 0
    for position in [Position(), *game_positions(3), *random_positions(3, 120)]:
        for budget in (0, 1, 2, 5, 17):
            expected = hw_search(position, TORUS, TORUS, budget, 4, board="track")
            for engines in (2, 3, 4, 8):
                got = hw_parallel_search(position, TORUS, TORUS, budget, 4, engines)
                assert (got.move is None) == (expected.move is None), (position.turns, budget)
                assert got.move is None or position.is_legal(got.move)
                assert max(got.engine_nodes) <= budget or position.box is None
                checked += 1
    assert checked == 140


def test_the_walk_to_a_ticket_is_not_counted():
    """Depth 1 without the evaluation (every root move a leaf): each legal root move is one
    node of one engine, dealt round-robin, one per engine per tick."""
    checked = 0
    for position in game_positions(3) + random_positions(3, 160):
        legal = hw_search(position, TORUS, TORUS, BIG, 1, evaluation=False, board="track").nodes
        for engines in (2, 3, 4, 8):
            got = hw_parallel_search(position, TORUS, TORUS, BIG, 1, engines, evaluation=False)
            dealt = tuple(len(range(n, legal, engines)) for n in range(engines))
            assert got.engine_nodes == dealt and sum(got.engine_nodes) == got.nodes == legal
            assert got.ticks == -(-legal // engines)
            checked += 1
    assert checked == 24


@pytest.mark.parametrize("full", [False, pytest.param(True, marks=pytest.mark.slow)])
def test_the_recursive_pv_split_scores_as_the_sequential_search(full):
    """``pv_plies`` > 1: the previous best's line split ply by ply (plies 1 and 2 at depth 4)
    scores every iteration as the sequential search, and chooses a move of that value; it is
    not the split of ply 1 alone (the node counts differ). ``make test`` searches the random
    positions (some 40 s); ``make test-slow`` the human-game positions too (some 3 minutes)."""
    checked = differs = 0
    positions = random_positions(2, 200)
    for position in (game_positions(2) + positions) if full else positions:
        expected = sequential_scores(position, 4)
        for engines in (3, 8):
            got = hw_parallel_search(position, TORUS, TORUS, BIG, 4, engines, pv_plies=8)
            assert got.iterations == expected, (position.turns, engines)
            assert position.is_legal(got.move)
            assert move_value(position, got.move, got.depth) == got.score
            assert sum(got.engine_nodes) == got.nodes
            if engines == 8:
                ply_one = hw_parallel_search(position, TORUS, TORUS, BIG, 4, engines)
                differs += got.engine_nodes != ply_one.engine_nodes
            checked += 1
    assert checked == 4 * (1 + full) and differs >= 2 * (1 + full) - 1


@pytest.mark.parametrize("full", [False, pytest.param(True, marks=pytest.mark.slow)])
def test_helpers_score_as_the_sequential_search(full):
    """``helpers``: engines whose root moves ran out help the root moves still searched (the
    replies below them by ticket, a cutoff there ending every helper's reply). Every iteration
    scores as the sequential search and the chosen move has that value; one engine (no one to
    help) is the sequential search node for node; helping changes the engines' work (the node
    counts differ from the split without helpers) in most positions. ``make test`` searches
    the random positions (some 40 s); ``make test-slow`` the human-game positions too."""
    checked = differs = 0
    positions = random_positions(4, 240)
    for i, position in enumerate((game_positions(4) + positions) if full else positions):
        depth = 4 if i % 4 == 0 else 3
        expected = sequential_scores(position, depth)
        for engines, pv_plies in ((2, 1), (3, 4), (8, 4)):
            got = hw_parallel_search(
                position, TORUS, TORUS, BIG, depth, engines, pv_plies=pv_plies, helpers=True
            )
            assert got.iterations == expected, (position.turns, engines)
            assert got.score == expected[-1] and got.depth == len(expected)
            assert position.is_legal(got.move)
            assert move_value(position, got.move, got.depth) == got.score
            assert sum(got.engine_nodes) == got.nodes
            plain = hw_parallel_search(
                position, TORUS, TORUS, BIG, depth, engines, pv_plies=pv_plies
            )
            differs += got.engine_nodes != plain.engine_nodes
            checked += 1
        for budget in (0, 5, 300):
            alone = hw_parallel_search(position, TORUS, TORUS, budget, 4, 1, helpers=True)
            assert summary(alone) == summary(
                hw_search(position, TORUS, TORUS, budget, 4, board="track")
            )
            checked += 1
    assert checked == 24 * (1 + full) and differs >= 6 * (1 + full)


def test_helpers_enter_a_root_moves_reply_node_as_any_node_with_the_table():
    """A root move's node at ply 1, whose replies helpers may share, reads and writes the table
    of best moves as any other node: its move first, its value settled from the table, its best
    reply stored. One engine with helpers (no one to help) is then node for node the engine
    without them, with the table too (the fifty-fourth session's bug: that node skipped the
    table, so one engine with helpers searched some 1.5 times the nodes, and helpers measured
    worse than they are), and several score every iteration as the sequential search."""
    checked = 0
    table = {"move_table": 256, "table_scores": True}
    for position in [*game_positions(2), *random_positions(2, 520)]:
        for budget, depth in ((60, 4), (BIG, 3)):
            plain = hw_parallel_search(position, TORUS, TORUS, budget, depth, 1, **table)
            alone = hw_parallel_search(
                position, TORUS, TORUS, budget, depth, 1, helpers=True, **table
            )
            assert summary(alone) == summary(plain), (position.turns, budget)
            checked += 1
        expected = sequential_scores(position, 3)
        got = hw_parallel_search(
            position, TORUS, TORUS, BIG, 3, 4, helpers=True, shared_table=True, **table
        )
        assert got.iterations == expected, position.turns
        assert move_value(position, got.move, got.depth) == got.score
        checked += 1
    assert checked == 12


def test_helpers_with_tiny_budgets_give_a_move_exactly_when_the_sequential_search_does():
    checked = 0
    for position in [*game_positions(2), *random_positions(2, 280)]:
        for budget in (1, 2, 7, 40, 150):
            expected = hw_search(position, TORUS, TORUS, budget, 4, board="track")
            for engines in (3, 8):
                got = hw_parallel_search(position, TORUS, TORUS, budget, 4, engines, helpers=True)
                assert (got.move is None) == (expected.move is None), (position.turns, budget)
                assert got.move is None or position.is_legal(got.move)
                assert max(got.engine_nodes) <= budget
                checked += 1
    assert checked == 40


def test_the_engines_tables_of_best_moves_change_the_order_not_the_scores():
    """``move_table``: every engine with its own table (the split nodes use none) scores every
    iteration as the sequential search, and over these positions the engines play fewer nodes
    with the tables than without."""
    checked = without = with_tables = 0
    for i, position in enumerate(game_positions(3) + random_positions(3, 80)):
        depth = 3
        expected = sequential_scores(position, depth)
        for engines in (2, 4):
            split = {"pv_plies": 1 + i % 2}
            plain = hw_parallel_search(position, TORUS, TORUS, BIG, depth, engines, **split)
            got = hw_parallel_search(
                position, TORUS, TORUS, BIG, depth, engines, **split, move_table=64
            )
            assert got.iterations == expected, (position.turns, engines)
            assert position.is_legal(got.move)
            assert move_value(position, got.move, got.depth) == got.score
            without += plain.nodes
            with_tables += got.nodes
            checked += 1
    assert checked == 12
    assert with_tables < without


@pytest.mark.parametrize(
    ("engines", "options"),
    [
        (3, {}),
        (4, {"helpers": True, "pv_plies": 2}),
        (3, {"move_table": 256, "shared_table": True}),
    ],
)
def test_the_engines_states_account_for_every_tick_and_change_nothing(engines, options):
    """``states`` (search_bench parallel --states): every engine in every tick, each node
    played counted as a node, the waits named; the search is the same without them."""
    from trax_fpga.host.hwparallel import ENGINE_STATES

    checked = waits = 0
    waited = "help" if options.get("helpers") else "done"  # (a helper is never done)
    for position in game_positions(2):
        states: dict = {}
        counted = hw_parallel_search(position, 32, 32, 10**9, 3, engines, states=states, **options)
        assert counted == hw_parallel_search(position, 32, 32, 10**9, 3, engines, **options)
        assert sum(sum(c.values()) for c in states.values()) == counted.ticks * engines
        assert sum(c["node"] for c in states.values()) == counted.nodes
        assert set().union(*states.values()) <= set(ENGINE_STATES)
        waits += sum(c[waited] for c in states.values())
        checked += 1
    # (over both positions: with helpers, the first one's engines always find a reply to share)
    assert checked == 2 and waits > 0
