# amaranth: UnusedElaboratable=no
"""The search on the block-RAM board (hdl/track_search.py) against its software model.

The model is ``host/hwsearch.py`` with ``board="track"`` (candidates in the order of
``host/trackorder.py``, the evaluation of ``host/trackeval.py``): the gateware must choose the
same move with the same score, depth and node count. The game's moves are played on the
search's own board first: the root of the search is that position, not a copy.
"""

import random

import pytest

from trax_fpga.hdl.track_board import COMPACT_OPTIONS
from trax_fpga.host.hwsearch import RESEARCH_CUT, RESEARCH_NEWEST, hw_search
from trax_fpga.host.position import Position
from trax_fpga.host.tiles import Colour, Symbol
from trax_fpga.sim.track_driver import TrackSearchSim

from ..host.records import record_lines
from ..host.test_hwsearch import budget_of, fitting, solves
from .reference import random_game
from .test_track_board import DEAD_FIRST

TORUS = 32
DEPTH = 3
SYMBOLS = list(Symbol)


#: The searches checked: the default one, the same on the board whose options trade clocks for
#: area (the same nodes, moves and scores, in more clocks), the mate searcher on that board
#: (the small iCE40s' player: no evaluation, so no counts), and the default one with a table of
#: best moves, a small one (most slots are wanted by several positions: every rule of the
#: table is used), without and with scores in it; and that last one with the attack cut and the
#: newest-first order (the model's research flags 3).
TABLE = 64
CUT_NEWEST = RESEARCH_CUT | RESEARCH_NEWEST
SEARCHES = {
    "fast": (True, {}, 0, False, 0),
    "compact": (True, COMPACT_OPTIONS, 0, False, 0),
    "compact_mate": (False, COMPACT_OPTIONS, 0, False, 0),
    "table": (True, {}, TABLE, False, 0),
    "table_scores": (True, {}, TABLE, True, 0),
    "cut_newest": (True, {}, TABLE, True, CUT_NEWEST),
}


@pytest.fixture(scope="module", params=list(SEARCHES))
def rtl(request):
    evaluation, board_options, move_table, table_scores, research = SEARCHES[request.param]
    with TrackSearchSim(
        (TORUS, TORUS),
        "verilator",
        max_depth=DEPTH,
        evaluation=evaluation,
        board_options=board_options,
        move_table=move_table,
        table_scores=table_scores,
        attack_cut=bool(research & RESEARCH_CUT),
        newest_first=bool(research & RESEARCH_NEWEST),
    ) as engine:
        yield engine


def research_of(rtl) -> int:
    """The model's research flags of ``rtl``'s search."""
    return RESEARCH_CUT * rtl.attack_cut | RESEARCH_NEWEST * rtl.newest_first


def model_search(rtl, position, budget, depth=DEPTH):
    """The software model of ``rtl``'s search (with or without the evaluation, the table, the
    cut and the newest-first order)."""
    return hw_search(
        position,
        TORUS,
        TORUS,
        budget,
        depth,
        evaluation=rtl.evaluation,
        board="track",
        move_table=rtl.move_table,
        table_scores=rtl.table_scores,
        research=research_of(rtl),
    )


def positions_from_games(count, plies):
    """Every third position (after 3 to ``plies`` moves) of the human games, ``count`` of
    them."""
    found = []
    for _, _, moves in record_lines("human_games.txt"):
        position = Position()
        for move in moves.split()[:plies]:
            position.play(move)
            if position.outcome:
                break
            if len(position.turns) >= 3:
                found.append(position.copy())
        if len(found) >= count:
            break
    return found[::3][:count]


def board_cell(position, x, y):
    """The board cell in the box or its ring that lies on torus cell (x, y)."""
    box = position.box
    for by in range(box.min_y - 1, box.max_y + 2):
        for bx in range(box.min_x - 1, box.max_x + 2):
            if (bx % TORUS, by % TORUS) == (x, y):
                return bx, by
    raise AssertionError(f"torus cell {(x, y)} is not near the box")


def search(rtl, position, budget, **kwargs):
    rtl.new_game()
    for turn in position.turns:
        assert rtl.play(turn.move).name == "LEGAL"
    got = rtl.search(int(position.turn is Colour.WHITE), budget, **kwargs)
    move = None
    if got.found:
        move = position.move_at(board_cell(position, got.x, got.y), SYMBOLS[got.symbol.value])
    return got, move


def check(rtl, position, budget, depth=DEPTH):
    model = model_search(rtl, position, budget, depth)
    got, move = search(rtl, position, budget, **({} if depth == DEPTH else {"depth": depth}))
    label = " ".join(str(t.move) for t in position.turns)
    assert move == model.move, label
    assert ((got.x, got.y), SYMBOLS[got.symbol.value]) == (model.window_cell, model.symbol)
    assert (got.score, got.depth, got.nodes) == (model.score, model.depth, model.nodes), label
    assert move is not None and position.is_legal(move), label
    return got


def test_equals_the_model_on_human_game_positions(rtl):
    checked = 0
    for position in positions_from_games(8, 16):
        for budget in (1, 7, 60, 400, 3000):
            check(rtl, position, budget)
            checked += 1
    assert checked >= 20


@pytest.mark.parametrize("rtl", ["table"], indirect=True)
def test_the_table_of_best_moves_takes_other_nodes(rtl):
    """The table variant's checks are not the default search's again: on these positions the
    model with the table plays other numbers of nodes (and the gateware with it, checked)."""
    differ = 0
    for position in positions_from_games(6, 24):
        got = check(rtl, position, 10**6)
        without = hw_search(position, TORUS, TORUS, 10**6, DEPTH, board="track")
        assert (got.score, got.depth) == (without.score, without.depth)
        differ += got.nodes != without.nodes
    assert differ >= 3


@pytest.mark.parametrize("rtl", ["table_scores"], indirect=True)
def test_the_tables_scores_settle_nodes(rtl):
    """With scores in the table, nodes are settled from it: fewer nodes than with the table of
    moves alone (checked against the model), the same scores."""
    fewer = 0
    for position in positions_from_games(6, 24):
        got = check(rtl, position, 10**6)
        moves_only = hw_search(
            position, TORUS, TORUS, 10**6, DEPTH, board="track", move_table=TABLE
        )
        assert (got.score, got.depth) == (moves_only.score, moves_only.depth)
        fewer += got.nodes < moves_only.nodes
    assert fewer >= 3


@pytest.mark.parametrize("rtl", ["cut_newest"], indirect=True)
def test_the_cut_and_the_newest_first_order_take_fewer_nodes(rtl):
    """The cut and the newest-first order are not the table's search again: to the same depth
    the model with them plays fewer nodes on most of these positions (and the gateware with
    them, checked)."""
    fewer = checked = 0
    for position in positions_from_games(24, 30):
        got = check(rtl, position, 10**6)
        plain = hw_search(
            position, TORUS, TORUS, 10**6, DEPTH, board="track", move_table=TABLE,
            table_scores=True,
        )  # fmt: skip
        fewer += got.nodes < plain.nodes
        checked += 1
    assert checked == 10 and fewer >= 8


def test_a_node_whose_first_candidate_is_illegal(rtl):
    """tests/hdl/test_track_board.py's ``DEAD_FIRST``: the search equals the model there (it
    used to take the illegal first candidate for a node and never complete an iteration)."""
    position = Position.from_moves(DEAD_FIRST.split())
    for budget in (1, 10, 1000, 10**5):
        check(rtl, position, budget)
    assert model_search(rtl, position, 10**5).depth >= 1


def test_equals_the_model_on_random_positions(rtl):
    rng = random.Random(32)
    checked = 0
    while checked < 40:
        position = Position.from_moves(random_game(rng, rng.randrange(2, 40), TORUS, TORUS))
        if position.is_over:
            continue
        check(rtl, position, rng.choice((5, 50, 500, 2000)))
        checked += 1


@pytest.mark.parametrize("tactic", fitting("", TORUS))
def test_tactics(rtl, tactic):
    """Wins in one, one-move defences and wins in two, found by the mate search."""
    position = tactic.position()
    got, move = search(rtl, position, budget_of(tactic))
    assert solves(tactic, move), got


def test_the_game_goes_on_after_a_search(rtl):
    """The search leaves the board at the game's position: the game's next move is judged on
    it, and the next search agrees with the model again."""
    position = positions_from_games(1, 12)[0]
    _, move = search(rtl, position, 500)
    assert rtl.play(move).name == "LEGAL"
    position.play(move)
    assert rtl.search(int(position.turn is Colour.WHITE), 300).nodes == (
        model_search(rtl, position, 300).nodes
    )


def test_stops_at_the_cycle_budget(rtl):
    position = positions_from_games(1, 12)[0]
    unlimited, _ = search(rtl, position, 5_000)
    assert unlimited.cycles > 4_000
    got, move = search(rtl, position, 5_000, cycle_budget=4_000)
    assert got.cycles < 4_000 + 300  # one move and the take-backs after the budget is spent
    assert got.nodes < unlimited.nodes
    assert move is None or position.is_legal(move)


@pytest.mark.parametrize("table", [0, TABLE])
def test_trax_best_backend_rtl(capsys, table):
    """``trax best --backend rtl``: without options as the board file's (the table holds the
    values, the search cuts and takes the newest first, and it evaluates by the tracks' shapes
    with the board files' table, 8-bit weights as the boards' ROMs keep them); with ``--move-table 0
    --no-attack-cut --no-newest-first --shapes none``, the ``fast`` fixture's design."""
    from trax_fpga.cli import main
    from trax_fpga.host.shapes import board_table

    moves = ["@0+", "B1+", "A0/", "A3/", "@3/", "@3+"]
    args = ["best", "--backend", "rtl", "--torus", str(TORUS), "--depth", str(DEPTH)]
    args += ["--engines", "1", "--nodes", "2000", "--move-table", str(table)]
    if not table:
        args += ["--no-attack-cut", "--no-newest-first", "--shapes", "none"]
    assert main([*args, *moves]) == 0
    out = capsys.readouterr().out.splitlines()
    model = hw_search(
        *(Position.from_moves(moves), TORUS, TORUS, 2000, DEPTH),
        board="track",
        move_table=table,
        table_scores=table > 0,
        research=CUT_NEWEST if table else 0,
        shapes=board_table() if table else None,
    )
    assert out[-1] == str(model.move)
    assert "agrees" in out[-2]
    assert f"{model.nodes} nodes in " in out[-3] and " cycles, score " in out[-3]
    assert (f"a table of {table} best moves and their values" in out[-3]) == (table > 0)
    assert (", the attack cut, newest first, the tracks' shapes)" in out[-3]) == (table > 0)


def test_the_gateware_constants_are_the_models():
    """hdl/scores.py restates the models' scores and weights (the gateware imports no host
    module for them): they must be equal."""
    from trax_fpga.hdl import scores
    from trax_fpga.host import hweval, hwsearch, trackeval

    for name in ("WIN", "MATE_BOUND", "INFINITY"):
        assert getattr(scores, name) == getattr(hwsearch, name), name
    assert scores.MAX_EXTENSIONS == hweval.MAX_EXTENSIONS
    for name in ("OWN_ATTACK", "LOST", "ATTACK_WEIGHT", "TEMPO", "CLAMP", "LOOP_WEIGHTS"):
        assert getattr(scores, name) == getattr(trackeval, name), name
    assert -(1 << (scores.SCORE_BITS - 1)) < -scores.INFINITY
    assert scores.INFINITY < 1 << (scores.SCORE_BITS - 1)
    from trax_fpga.hdl.move_table import KEY_BITS, ValueKind, table_tag_bits
    from trax_fpga.hdl.track_search import TABLE_TAG_BITS
    from trax_fpga.host import movetable

    assert TABLE_TAG_BITS == movetable.TAG_BITS
    assert KEY_BITS == movetable.KEY_BITS
    assert table_tag_bits(16384, scores=True) == movetable.score_tag_bits(16384)
    kinds = (ValueKind.EXACT, ValueKind.LOWER, ValueKind.UPPER)
    assert [kind.value for kind in kinds] == [movetable.EXACT, movetable.LOWER, movetable.UPPER]


@pytest.mark.parametrize("entries", [1, 3, -4, 1 << 33])
def test_a_table_of_best_moves_is_a_power_of_two_that_leaves_room_for_its_tags(entries):
    from trax_fpga.hdl.track_search import TrackSearch

    with pytest.raises(ValueError):
        TrackSearch(TORUS, TORUS, move_table=entries)
