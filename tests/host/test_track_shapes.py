"""The tracks' shapes, the board's evaluation by them (issue 12): host/trackeval.py's
specification against the compiled model's shapes evaluation (host/shapes.py's counts, its
score), and the Python model's search with them (host/hwsearch.py, host/hwparallel.py) node for
node against the compiled one (host/fastmodel.c, ``RESEARCH_SHAPES`` with the tracks' weights).

A random test asserts how many cases it compared, so that it cannot pass having compared none.
"""

from __future__ import annotations

import json
import pathlib
import random

import pytest

from trax_fpga.host import fastmodel
from trax_fpga.host.fastmodel import fast_parallel_search, fast_search, track_weights
from trax_fpga.host.hwparallel import hw_parallel_search
from trax_fpga.host.hwsearch import hw_search
from trax_fpga.host.position import Position
from trax_fpga.host.search_bench import midgame_positions
from trax_fpga.host.shapes import (
    BOARD_WEIGHT_BITS,
    BOARD_WEIGHTS,
    SHAPE_FEATURES,
    TRACKS,
    board_table,
    chosen_table,
    reference_features,
    shape_features,
    shape_weights,
    track_table,
)
from trax_fpga.host.trackeval import SHAPES, ShapeTable, track_features, track_score, track_shape

from .test_fastmodel import SETTINGS
from .test_shapes import random_positions

DATA = pathlib.Path(__file__).parent.parent / "data"
HUMAN_GAMES = DATA / "human_games.txt"
ORDER = fastmodel.RESEARCH_CUT | fastmodel.RESEARCH_NEWEST


@pytest.fixture
def zero_weights():
    """The compiled shapes weights set to zero after the test (the library is the process's)."""
    yield
    shape_weights([0] * SHAPE_FEATURES)


def random_table(seed: int) -> ShapeTable:
    rng = random.Random(seed)
    mine = tuple(rng.randrange(-60, 61) for _ in range(SHAPES))
    theirs = tuple(rng.randrange(-60, 61) for _ in range(SHAPES))
    return ShapeTable(mine, theirs, rng.randrange(-30, 31))


def test_shapes_by_hand():
    """A cross: each colour's track runs straight through its tile, fronts 2 apart in one
    axis, one back (shapes 2 and 8). A curve: two 1-1 corners (shape 1 | 1 << 2). Two curves
    one above the other: black's track has fronts 1 apart in y and backs 1 apart in y."""
    cross = Position.from_moves(["@0+"])
    assert sorted(track_shape(e, 64, 64) for e in cross.open_tracks()) == [2, 8]
    curve = Position.from_moves(["@0/"])
    assert [track_shape(e, 64, 64) for e in curve.open_tracks()] == [5, 5]
    two = Position.from_moves(["@0/", "A2\\"])
    shapes = sorted(track_shape(e, 64, 64) for e in two.open_tracks())
    assert 1 << 2 | 1 << 6 in shapes


def test_the_sums_are_the_weighted_counts():
    """Each colour's two sums are the reference's track counts (host/shapes.py, the compiled
    model's layout) times the table's weights, on random and human-game positions."""
    table = random_table(1)
    compared = 0
    positions = list(random_positions(5, 20)) + midgame_positions(8, 64, HUMAN_GAMES)
    for position in positions:
        if position.outcome is not None:
            continue
        counts = reference_features(position)
        sums = track_features(position, 64, 64, table).shapes
        side, other = position.turn, position.turn.other
        mine = [counts[TRACKS + 2 * s] for s in range(SHAPES)]
        theirs = [counts[TRACKS + 2 * s + 1] for s in range(SHAPES)]
        # the side to move's tracks are counted as "mine", the other colour's as "theirs"
        assert sums[side][0] == sum(w * c for w, c in zip(table.mine, mine, strict=True))
        assert sums[other][1] == sum(w * c for w, c in zip(table.theirs, theirs, strict=True))
        compared += 1
    assert compared >= 150


def test_the_score_is_the_compiled_shapes_score(zero_weights):
    """The score of the specification is the compiled shapes evaluation's with the table in
    its layout (all other weights 0), on random positions; it differs from the kinds' score."""
    table = random_table(2)
    shape_weights(track_weights(table))
    compared = differs = 0
    for position in random_positions(7, 30):
        found = shape_features(position)
        if found is None:
            continue
        tracks = track_features(position, 64, 64, table)
        assert track_score(tracks, position.turn, table) == found.score, repr(position)
        differs += track_score(tracks, position.turn) != found.score
        compared += 1
    assert compared >= 200 and differs >= compared // 2


def test_the_table_in_the_layout_and_back():
    """The layout of a table and back; weights beyond the tracks and the constant are
    refused (the board weighs nothing else), and so is a table of the wrong length."""
    table = random_table(3)
    weights = track_weights(table)
    assert len(weights) == SHAPE_FEATURES and track_table(weights) == table
    with pytest.raises(ValueError, match="pairs, pseudo-threats or long tracks"):
        track_table([*weights[:-2], 5, weights[-1]])
    with pytest.raises(ValueError, match="1029 integers"):
        track_table(weights[:-1])
    with pytest.raises(ValueError, match="256 integers"):
        ShapeTable(table.mine[:-1], table.theirs, 0)


def test_the_python_model_searches_the_shapes_as_the_compiled_one(zero_weights):
    """The Python model with a table (host/hwsearch.py) is node for node the compiled model's
    shapes search with its layout: move, score, depth and nodes, with the cut and the newest
    order and without, on human-game and random positions; and the table changes the search."""
    table = random_table(4)
    positions = midgame_positions(5, 64, HUMAN_GAMES) + list(random_positions(9, 3))[::6]
    compared = changed = 0
    for position in positions:
        if position.outcome is not None:
            continue
        for research in (0, ORDER):
            for budget, depth, options in SETTINGS[:3]:
                arguments = (position, 64, 64, budget, depth)
                options = dict(options, research=research, shapes=table)
                expected = hw_search(*arguments, board="track", **options)
                assert fast_search(*arguments, **options) == expected, repr(position)
                options.pop("shapes")
                changed += fast_search(*arguments, **options) != expected
                compared += 1
    assert compared >= 50 and changed >= compared // 4, (compared, changed)


def test_many_engines_search_the_shapes_as_the_compiled_ones(zero_weights):
    """The same with three engines splitting the search, their table shared (the board
    file's): each engine's nodes, the iterations' scores and the ticks too."""
    table = random_table(5)
    compared = 0
    for position in midgame_positions(4, 64, HUMAN_GAMES):
        options = {"move_table": 4096, "shared_table": True, "table_scores": True}
        options.update(pv_plies=2, research=ORDER, shapes=table)
        arguments = (position, 64, 64, 500, 8, 3)
        expected = hw_parallel_search(*arguments, **options)
        assert fast_parallel_search(*arguments, **options) == expected, repr(position)
        compared += 1
    assert compared >= 4


def test_a_search_with_shapes_off_the_block_ram_board_is_refused():
    table = random_table(6)
    position = Position.from_moves(["@0/", "A2\\"])
    with pytest.raises(ValueError, match="tracks' shapes"):
        hw_search(position, 8, 8, 100, 2, board="window", shapes=table)


def test_the_boards_table_is_the_kept_weights_clamped_to_its_bits():
    """The board files' table: the kept weights (tracks and constant only, package data) as a
    table, every weight clamped to the board's 8 bits and no other changed."""
    kept = track_table(json.loads(BOARD_WEIGHTS.read_text()))
    board = board_table()
    assert any(board.mine) and any(board.theirs) and board.constant == kept.constant
    low, high = -(1 << (BOARD_WEIGHT_BITS - 1)), (1 << (BOARD_WEIGHT_BITS - 1)) - 1
    clamped = 0
    for kept_side, board_side in ((kept.mine, board.mine), (kept.theirs, board.theirs)):
        for k, b in zip(kept_side, board_side, strict=True):
            assert low <= b <= high
            assert b == k or (b in (low, high) and not low <= k <= high)
            clamped += b != k
    assert clamped == 3  # the three largest mine weights (143, 259, 261)


def test_a_shapes_option_names_the_boards_table_none_or_a_file(tmp_path):
    assert chosen_table("board") == board_table()
    assert chosen_table("none") is None
    weights = [0] * SHAPE_FEATURES
    weights[TRACKS + 2] = 7
    path = tmp_path / "w.json"
    path.write_text(json.dumps(weights))
    assert chosen_table(str(path)).mine[1] == 7
    with pytest.raises(ValueError, match="cannot read the shapes' weights"):
        chosen_table(str(tmp_path / "missing.json"))
    path.write_text("[1, 2]")
    with pytest.raises(ValueError, match=f"{path}: shape weights are"):
        chosen_table(str(path))


def test_a_table_clamped_keeps_its_constant_and_its_weights_in_range():
    table = ShapeTable((300,) + (1,) * 255, (-300,) + (-1,) * 255, 999)
    clamped = table.clamped(9)
    assert clamped.mine[:2] == (255, 1) and clamped.theirs[:2] == (-256, -1)
    assert clamped.constant == 999


def test_the_table_command_writes_the_boards_table_in_the_layout(tmp_path, capsys):
    """`python -m trax_fpga.host.shapes table [FILE] [--bits N]`: the board's table (or a
    tracks-only file's weights) clamped, in the layout a match's --shape-weights reads; a file
    with other weights is refused with the reason."""
    from trax_fpga.host.shapes import main

    out = tmp_path / "board8.json"
    assert main(["table", "--out", str(out)]) == 0
    assert json.loads(out.read_text()) == track_weights(board_table())
    weights = [0] * SHAPE_FEATURES
    weights[TRACKS], weights[TRACKS + 1], weights[-1] = 300, -300, 5
    source = tmp_path / "w.json"
    source.write_text(json.dumps(weights))
    assert main(["table", str(source), "--bits", "6"]) == 0
    written = json.loads(capsys.readouterr().out)
    assert written[TRACKS : TRACKS + 2] == [31, -32] and written[-1] == 5
    weights[0] = 1  # a pseudo-threat's weight, which the board has not
    source.write_text(json.dumps(weights))
    with pytest.raises(SystemExit) as refused:
        main(["table", str(source)])
    assert refused.value.code == 2
    assert "constant only" in capsys.readouterr().err
