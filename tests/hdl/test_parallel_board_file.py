# amaranth: UnusedElaboratable=no
"""The ULX3S board file's search (boards/ulx3s_85f.py's ``search_options``) in gateware against
the sequential model, with three engines in place of six, a table of 64 best moves in place of
16,384 (most slots wanted by several nodes) and iterations of up to 6 plies, everything else as
the board file says: the shared table with the nodes' values, the attack cut, newest first, the
tracks' shapes by the board files' table, and the previous best's line split down to ply 4
(``pv_plies`` 4, which splits every ply of it from the iteration of 6 on).

Every completed iteration scores as the sequential model at its depth (docs/parallel.md's
contract) and its move is legal with that value; budgets stop it with a legal move and leave
the engines and the table ready for the next search. A file of its own, so that `make test`'s
workers, which take whole files, build its design beside the others.
"""

import pytest

from trax_fpga.boards.build import load_board
from trax_fpga.host.fastmodel import fast_search
from trax_fpga.host.hwsearch import (
    INFINITY,
    MATE_BOUND,
    RESEARCH_CUT,
    RESEARCH_NEWEST,
    _Searcher,
)
from trax_fpga.host.position import Position
from trax_fpga.host.shapes import board_table
from trax_fpga.host.tiles import Colour
from trax_fpga.sim.track_driver import TrackSearchSim

from .test_parallel_search import TORUS, UNLIMITED, searcher_move
from .test_track_search import search

DEPTH = 6  # the deepest iteration checked: the first that splits the line at ply 4
TABLE = 64
SHAPES = board_table()
RESEARCH = RESEARCH_CUT | RESEARCH_NEWEST


def board_file_options() -> dict:
    """The ULX3S board file's search options, scaled down as the docstring says."""
    options = dict(load_board("ulx3s_85f").player_options["search_options"])
    assert options["shared_table"] and options["table_scores"]
    assert options["attack_cut"] and options["newest_first"] and options["shapes"]
    options.update(engines=3, move_table=TABLE, max_depth=DEPTH, pv_plies=4)
    return options


@pytest.fixture(scope="module")
def engines():
    options = board_file_options()
    shapes = options.pop("shapes")
    assert shapes == (SHAPES.mine, SHAPES.theirs, SHAPES.constant)
    board = {**options.pop("board_options", {}), "shapes": shapes}  # the board file's too
    with TrackSearchSim((TORUS, TORUS), "verilator", board_options=board, **options) as design:
        yield design


def model(position: Position, depth: int, budget: int = UNLIMITED):
    """The sequential model (compiled) with the board file's evaluation and order flags."""
    return fast_search(position, TORUS, TORUS, budget, depth, research=RESEARCH, shapes=SHAPES)


def exact_value(position: Position, move, depth: int) -> int:
    """The value of the root move ``move`` in the sequential model's iteration of ``depth``,
    searched alone with the whole window. Below the move, the compiled model searches the
    position after it one ply shallower: every score is the same there but a won or lost
    game's, one ply nearer (the scores' plies count from the root). Where that search stops
    early on a proven win or loss, the Python model searches the move to the full depth."""
    searcher = _Searcher(
        position.copy(), TORUS, TORUS, UNLIMITED, True, "track", research=RESEARCH, shapes=SHAPES
    )
    turn = searcher.play(*searcher_move(searcher, move))
    value = searcher.leaf(turn, 0, depth)
    if value is not None:
        return value
    below = model(searcher.position, depth - 1)
    if below.depth != depth - 1:
        return searcher.value(turn, 0, depth, -INFINITY, INFINITY)
    score = below.score
    if abs(score) >= MATE_BOUND:
        score -= 1 if score > 0 else -1
    return -score


#: Seeded random positions (tests/hdl/reference.py's ``random_game``, ``random.Random(5)``,
#: the first three of 140 whose 6-ply search is no proven win or loss in at most 170,000 nodes
#: of the model with the designs' table; no human-game position of 60 was so small): in each
#: the previous best's line is 5 plies or more, so all 4 of its split plies are played.
POSITIONS = (
    "@0/ A2\\",
    "@0+ @1/ A0\\ @2+ D2\\ D3+ B4/",
    "@0+ A0+ A0\\ B1\\ A4\\ @2/ D1+ B5/",
)


def board_file_positions() -> list[Position]:
    return [Position.from_moves(moves.split()) for moves in POSITIONS]


def test_the_positions_are_searched_to_6_plies_with_no_win_in_sight():
    for position in board_file_positions():
        deepest = fast_search(
            *(position, TORUS, TORUS, 170_000, DEPTH),
            research=RESEARCH,
            shapes=SHAPES,
            move_table=TABLE,
            table_scores=True,
        )
        assert deepest.depth == DEPTH and abs(deepest.score) < MATE_BOUND, position


def test_the_board_files_engines_score_every_iteration_as_the_sequential_search(engines):
    checked = 0
    positions = board_file_positions()
    for position in positions:
        for depth in range(1, DEPTH + 1):
            expected = model(position, depth)
            got, move = search(engines, position, UNLIMITED, depth=depth)
            label = f"{' '.join(str(t.move) for t in position.turns)} at depth {depth}"
            assert (got.score, got.depth) == (expected.score, expected.depth), label
            assert move is not None and position.is_legal(move), label
            assert exact_value(position, move, got.depth) == got.score, label
            checked += 1
    assert checked == 3 * DEPTH


def test_the_board_files_engines_stop_within_their_budgets(engines):
    """Node and cycle budgets stop the search at any point of the split (its tables' reads and
    writes under way): a legal move, and no deeper than the model's unless the split's extra
    nodes carried an iteration on; then the game goes on from the engines' boards, which score
    the next search as the model."""
    checked = 0
    for position in board_file_positions()[:2]:
        for budget in (1, 3, 40, 900, 20_000):
            expected = model(position, DEPTH, budget)
            got, move = search(engines, position, budget)
            assert (move is None) == (expected.move is None)
            assert move is None or position.is_legal(move)
            assert got.depth <= expected.depth + 1
            checked += 1
        # (3 engines play at most 3 nodes a clock: the 6 plies take more than 40,000 clocks)
        assert model(position, DEPTH).nodes > 3 * 40_000
        got, move = search(engines, position, UNLIMITED, cycle_budget=40_000)
        assert got.cycles < 40_000 + 300
        assert move is not None and position.is_legal(move)
        assert engines.play(move).name == "LEGAL"
        position.play(move)
        got = engines.search(int(position.turn is Colour.WHITE), UNLIMITED, depth=4)
        assert got.score == model(position, 4).score
        checked += 1
    assert checked == 12
