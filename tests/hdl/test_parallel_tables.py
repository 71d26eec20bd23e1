# amaranth: UnusedElaboratable=no
"""Many engines with tables of best moves (hdl/move_table.py, docs/hash-moves.md) against
their models: one engine with its own or the shared table is the parallel model with the table
node for node; three engines score every iteration as the sequential search, stop within their
budgets, and leave the boards and the table ready for the next search.

A file of its own (the helpers are tests/hdl/test_parallel_search.py's) so that `make test`'s
workers, which take whole files, run the two files' Verilator builds side by side.
"""

import pytest

from trax_fpga.host.hwparallel import hw_parallel_search
from trax_fpga.host.hwsearch import RESEARCH_CUT, RESEARCH_NEWEST, hw_search
from trax_fpga.sim.track_driver import TrackSearchSim

from .test_parallel_search import (
    DEPTH,
    TORUS,
    UNLIMITED,
    game_goes_on,
    score_every_iteration,
    some_positions,
    stop_at_the_cycle_budget,
    within_small_budgets,
)
from .test_track_search import search

TABLE = 64  # entries of every engine's table of best moves: most slots wanted by several nodes
#: The tables checked (shared, with scores; the model's research flags: the attack cut and the
#: newest-first order): the shared table with scores, the cut and the newest-first order (the
#: board file's; with its shapes and its split to ply 4 too, tests/hdl/test_parallel_board_file.py);
#: every engine's own table, the shared one without scores and with scores but without the cut
#: and the order (designs of their own) are checked in `make test-slow` (one engine's own table
#: without scores is tests/hdl/test_track_search.py's ``table``).
CUT_NEWEST = RESEARCH_CUT | RESEARCH_NEWEST
TABLES = [
    pytest.param(False, False, 0, id="own", marks=pytest.mark.slow),
    pytest.param(True, False, 0, id="shared", marks=pytest.mark.slow),
    pytest.param(True, True, 0, id="shared_scores", marks=pytest.mark.slow),
    pytest.param(True, True, CUT_NEWEST, id="shared_scores_cut_newest"),
]


def order_options(research: int) -> dict:
    """The search options of the model's ``research`` flags."""
    return {
        "attack_cut": bool(research & RESEARCH_CUT),
        "newest_first": bool(research & RESEARCH_NEWEST),
    }


@pytest.mark.parametrize(("shared", "scores", "research"), TABLES)
def test_one_engine_with_a_table_of_best_moves_is_its_model(shared, scores, research):
    """One engine with a table (the split nodes use none), splitting the line to ply 2: the
    same move, score, depth and nodes as the parallel model with the table, which plays other
    nodes than the search without one. The shared table's port (its reads some clocks later)
    changes nothing with one engine. With the cut, the first move of the split node above the
    deepest (played by every engine) is often a leaf: the node's next move was then passed over
    as another engine's ticket (the ticket held was the node below's, and a new one was asked
    for), on @0/ A2+ A3/ @2/ @2/ A1/ D2+ B0+ @3+ among these: fixed, the ticket held is used."""
    checked = differ = 0
    with TrackSearchSim(
        (TORUS, TORUS),
        "verilator",
        max_depth=DEPTH + 1,
        engines=1,
        pv_plies=2,
        move_table=TABLE,
        shared_table=shared,
        table_scores=scores,
        **order_options(research),
    ) as single:
        for position in some_positions(3, 12):
            for budget in (5, 300, 2500, UNLIMITED):
                model = hw_parallel_search(
                    *(position, TORUS, TORUS, budget, DEPTH + 1, 1),
                    pv_plies=2,
                    move_table=TABLE,
                    table_scores=scores,
                    research=research,
                )
                got, move = search(single, position, budget)
                label = f"{' '.join(str(t.move) for t in position.turns)}, budget {budget}"
                assert move == model.move, label
                assert (got.score, got.depth, got.nodes) == (
                    model.score,
                    model.depth,
                    model.nodes,
                ), label
                plain = hw_search(position, TORUS, TORUS, budget, DEPTH + 1, board="track")
                differ += plain.nodes != model.nodes
                checked += 1
    assert checked == 24
    assert differ >= 3  # (the small budgets end before the table's moves change anything)


@pytest.mark.parametrize(("shared", "scores", "research"), TABLES)
def test_many_engines_with_tables_of_best_moves_score_every_iteration_as_the_sequential_search(
    shared, scores, research
):
    with TrackSearchSim(
        (TORUS, TORUS),
        "verilator",
        max_depth=DEPTH,
        engines=3,
        move_table=TABLE,
        shared_table=shared,
        table_scores=scores,
        **order_options(research),
    ) as three:
        assert score_every_iteration(three, some_positions(4, 13), DEPTH, research) == 24
        # Searches stopped by their budgets (their tables' reads and writes under way) leave
        # the engines and the table ready for the next search.
        assert within_small_budgets(three, research) == 40
        stop_at_the_cycle_budget(three)
        game_goes_on(three, research)
