# amaranth: UnusedElaboratable=no
"""The tracks' shapes in the block-RAM board (hdl/track_board.py's ``shapes``) and in its search
(hdl/track_search.py), against their specification: host/trackeval.py's ``track_features`` and
``track_score`` with a ``ShapeTable``, and host/hwsearch.py's ``hw_search(..., shapes=)``.

Random tests assert how many cases they compared, so that none can pass having compared none.
"""

import random

import pytest

from trax_fpga.hdl.scores import ATTACK_WEIGHT, CLAMP, LOST, OWN_ATTACK, TEMPO
from trax_fpga.hdl.track_board import COMPACT_OPTIONS, TrackBoard, check_shapes
from trax_fpga.hdl.track_game import TrackGame, check_search_options
from trax_fpga.hdl.track_search import TrackSearch
from trax_fpga.host.hwsearch import RESEARCH_CUT, RESEARCH_NEWEST, hw_search
from trax_fpga.host.tiles import Colour
from trax_fpga.host.trackeval import SHAPES, ShapeTable, track_features, track_score
from trax_fpga.host.trackorder import TrackOrder
from trax_fpga.sim.track_driver import TrackBoardSim, TrackSearchSim

from .reference import random_game
from .test_track_board import board_symbol, model_candidates, random_walk
from .test_track_search import DEPTH, SYMBOLS, TORUS, positions_from_games, search

WEIGHTS = {
    "tempo": TEMPO,
    "attack": ATTACK_WEIGHT,
    "own_attack": OWN_ATTACK,
    "lost": LOST,
    "clamp": CLAMP,
}


def random_table(seed: int) -> ShapeTable:
    """A table of random weights (-60 to 60), as the model's tests make them."""
    rng = random.Random(seed)
    mine = tuple(rng.randrange(-60, 61) for _ in range(SHAPES))
    theirs = tuple(rng.randrange(-60, 61) for _ in range(SHAPES))
    return ShapeTable(mine, theirs, rng.randrange(-30, 31))


def as_option(table: ShapeTable) -> tuple:
    """The table as the gateware takes it (plain tuples: the hdl imports nothing of the host)."""
    return table.mine, table.theirs, table.constant


BOARD_TABLE = random_table(12)


#: The board as the search uses it, and with every option that trades clocks for area (its
#: track-end writes go out later than the new tracks' shapes are measured).
@pytest.fixture(scope="module", params=["fast", "compact"])
def board16(request):
    options = {"weights": WEIGHTS, "shapes": as_option(BOARD_TABLE)}
    if request.param == "compact":
        options.update(COMPACT_OPTIONS)
    with TrackBoardSim((16, 16), "verilator", plies=8, options=options) as board:
        board.options = {} if request.param == "fast" else COMPACT_OPTIONS
        yield board


def board_counts(board) -> tuple:
    """The attacks (black, white) and the shape values (white, black) as the board keeps them,
    in the clock it says ``done``."""
    names = ("black_attacks", "white_attacks", "white_shape_value", "black_shape_value")
    black, white, white_value, black_value = board._get(*names)
    return (black, white), (white_value, black_value)


def board_scores(board) -> tuple:
    """The board's scores for white and black as the side that has just moved, a clock after
    ``done`` (they are registered from the counts)."""
    board.backend.tick()
    return tuple(board._get("white_mover_score", "black_mover_score"))


def model_counts(position, table) -> tuple:
    found = track_features(position, 16, 16, table)
    white, black = Colour.WHITE, Colour.BLACK
    values = (
        found.shapes[white][0] + found.shapes[black][1],
        found.shapes[black][0] + found.shapes[white][1],
    )
    return found.attacks, values


def model_scores(position, table) -> tuple:
    """Minus the score for the other side to move: as white, and as black, has just moved."""
    found = track_features(position, 16, 16, table)
    return (
        -track_score(found, Colour.BLACK, table),
        -track_score(found, Colour.WHITE, table),
    )


def test_shape_counts_and_scores_follow_every_tile(board16):
    """The attacks, both shape values and both scores, kept by the board tile by tile, equal a
    count from scratch (host/trackeval.py) after every game move, every ply (legal or not) and
    every undo; the scores are checked a clock after half of them (the others leave an UNDO
    right after its ply the fast way, as the search does)."""
    rng = random.Random(1212)
    checked = scored = 0
    table = BOARD_TABLE

    def compare(position, label):
        nonlocal checked, scored
        assert board_counts(board16) == model_counts(position, table), label
        checked += 1
        if rng.random() < 0.5:
            assert board_scores(board16) == model_scores(position, table), label
            scored += 1

    for _, position, moves in random_walk(board16, rng, 40):
        compare(position, moves)
    assert checked > 450 and scored > 200, (checked, scored)


def test_the_shapes_take_no_clock_more(board16):
    """Every command takes the clocks it takes on the board without the table (the counts of
    test_track_board.py's boards): the same moves, plies and undos, clock for clock."""
    rng = random.Random(34)
    compared = 0
    with TrackBoardSim((16, 16), "verilator", plies=8, options=board16.options) as plain:
        for _ in range(12):
            moves = random_game(rng, rng.randrange(1, 30), 16, 16)
            order = TrackOrder()
            for board in (board16, plain):
                board.new_game()
            for move in moves:
                assert board16.play(move) == plain.play(move)
                order.play(move)
                compared += 1
            plies = 0
            for _ in range(rng.randrange(1, 6)):
                expected = model_candidates(order, 16, 16, False)
                if not expected or order.position.is_over:
                    break
                x, y, symbol = rng.choice(expected)
                turn = board16.play_cell(x, y, board_symbol(symbol), ply=True)
                assert turn == plain.play_cell(x, y, board_symbol(symbol), ply=True)
                if turn.legal:
                    plies += 1
                    order.play(order.position.move_at(order_cell(order, x, y), SYMBOLS[symbol]))
                compared += 1
            for _ in range(plies):
                assert board16.undo() == plain.undo()
                order.pop()
                compared += 1
    assert compared > 150, compared


def order_cell(order, x, y):
    """The model's cell on torus cell (x, y) among its candidates."""
    return next(c for _, c, _ in order.candidates() if (c[0] % 16, c[1] % 16) == (x, y))


def test_a_shapes_table_is_checked():
    table = as_option(BOARD_TABLE)
    assert check_shapes(table) == table
    with pytest.raises(ValueError, match="256 weights"):
        TrackBoard(16, 16, weights=WEIGHTS, shapes=(table[0][:-1], table[1], 0))
    with pytest.raises(ValueError, match="256 weights"):
        TrackBoard(16, 16, weights=WEIGHTS, shapes=(table[0], (*table[1], 0), 0))
    with pytest.raises(ValueError, match="integers"):
        TrackBoard(16, 16, weights=WEIGHTS, shapes=(table[0], (0.5,) * 256, 0))
    with pytest.raises(ValueError, match="constant"):
        TrackBoard(16, 16, weights=WEIGHTS, shapes=(table[0], table[1], None))
    with pytest.raises(ValueError, match="mine, theirs, constant"):
        TrackBoard(16, 16, weights=WEIGHTS, shapes=table[:2])
    with pytest.raises(ValueError, match="need weights"):
        TrackBoard(16, 16, shapes=table)
    with pytest.raises(ValueError, match="need it"):
        TrackSearch(16, 16, evaluation=False, shapes=table)
    with pytest.raises(ValueError, match="need it"):
        TrackGame(16, 16, evaluation=False, shapes=table)
    with pytest.raises(ValueError, match="256 weights"):
        check_search_options({"shapes": (table[0][:5], table[1], 0)})
    check_search_options({"shapes": table, "engines": 2})
    # Without the table, the board has no shape values.
    assert "white_shape_value" not in TrackBoard(16, 16, weights=WEIGHTS).signature.members
    board = TrackBoard(16, 16, weights=WEIGHTS, shapes=table)
    assert "white_shape_value" in board.signature.members
    # A search's table reaches its board, however it is given.
    assert TrackSearch(16, 16, shapes=table).shapes == table
    assert TrackSearch(16, 16, board_options={"shapes": table}).shapes == table
    assert TrackSearch(16, 16).shapes is None


SEARCH_TABLE = random_table(21)
CUT_NEWEST = RESEARCH_CUT | RESEARCH_NEWEST
#: The default search, and the one with a small table of best moves and scores, the attack cut
#: and the newest-first order (test_track_search.py's "cut_newest").
SEARCHES = {
    "plain": {},
    "cut_newest": {"move_table": 64, "table_scores": True, "research": CUT_NEWEST},
}


@pytest.fixture(scope="module", params=list(SEARCHES))
def rtl(request):
    options = SEARCHES[request.param]
    research = options.get("research", 0)
    component = TrackSearch(
        TORUS,
        TORUS,
        DEPTH,
        move_table=options.get("move_table", 0),
        table_scores=options.get("table_scores", False),
        attack_cut=bool(research & RESEARCH_CUT),
        newest_first=bool(research & RESEARCH_NEWEST),
        shapes=as_option(SEARCH_TABLE),
    )
    with TrackSearchSim((TORUS, TORUS), "verilator", component=component) as engine:
        engine.model_options = options
        yield engine


def test_the_search_by_shapes_equals_the_model_on_human_game_positions(rtl):
    """The search with a table is the model's with it node for node (move, score, depth,
    nodes), and the table changes the search (against the model without it)."""
    compared = changed = 0
    for position in positions_from_games(24, 40):
        for budget in (1, 7, 60, 400, 3000):
            arguments = (position, TORUS, TORUS, budget, DEPTH)
            model = hw_search(*arguments, board="track", shapes=SEARCH_TABLE, **rtl.model_options)
            got, move = search(rtl, position, budget)
            label = " ".join(str(t.move) for t in position.turns)
            assert move == model.move, label
            assert ((got.x, got.y), SYMBOLS[got.symbol.value]) == (model.window_cell, model.symbol)
            assert (got.score, got.depth, got.nodes) == (model.score, model.depth, model.nodes)
            without = hw_search(*arguments, board="track", **rtl.model_options)
            changed += (without.move, without.score, without.nodes) != (
                model.move,
                model.score,
                model.nodes,
            )
            compared += 1
    assert compared >= 40 and changed >= compared // 3, (compared, changed)


def test_one_engine_of_the_parallel_search_by_shapes_is_the_sequential_search():
    """The table reaches the boards of the many-engine search (as :class:`TrackGame` passes
    it): its one engine is the model's search with the table node for node."""
    compared = 0
    board_options = {"shapes": as_option(SEARCH_TABLE)}
    with TrackSearchSim(
        (TORUS, TORUS), "verilator", max_depth=DEPTH, engines=1, board_options=board_options
    ) as single:
        for position in positions_from_games(12, 16):
            for budget in (7, 400, 3000):
                model = hw_search(
                    position, TORUS, TORUS, budget, DEPTH, board="track", shapes=SEARCH_TABLE
                )
                got, move = search(single, position, budget)
                label = " ".join(str(t.move) for t in position.turns)
                assert move == model.move, label
                assert (got.score, got.depth, got.nodes) == (model.score, model.depth, model.nodes)
                compared += 1
    assert compared >= 12, compared
