"""The table of best moves (host/movetable.py) and the search's model with it
(``hw_search(..., move_table=N)``): the order changes, never a completed iteration's score.
With scores in it (``table_scores``), a node is settled only where its value is settled, a win
is kept from the node's point of view, and every completed iteration still scores as without,
in the sequential model and with engines sharing the table, in fewer nodes."""

import random

import pytest

from trax_fpga.host.hwparallel import hw_parallel_search
from trax_fpga.host.hwsearch import MATE_BOUND, WIN, hw_search
from trax_fpga.host.movetable import MoveTable, position_key, score_tag_bits, tile_key
from trax_fpga.host.position import Position
from trax_fpga.host.tiles import Colour, Tile

from .test_hwparallel import BIG, TORUS, game_positions, sequential_scores
from .test_search import random_position


def test_the_position_key_is_the_xor_of_its_tiles_keys_on_the_torus():
    position = Position.from_moves(["@0/", "A2\\", "B1+", "@1+"])
    key = position_key(position, 16, 16)
    assert 0 <= key < 1 << 40
    before = position_key(Position.from_moves(["@0/", "A2\\", "B1+"]), 16, 16)
    assert key != before
    assert position_key(position, 16, 16) == key  # the same keys every time
    assert position_key(position, 8, 8) != key  # the same tiles at other torus cells
    expected = 0
    for (x, y), tile in position.tiles.items():
        expected ^= tile_key(x % 16, y % 16, Tile(tile))
    assert key == expected


def test_a_lookup_finds_the_move_stored_for_its_tag_only():
    table = MoveTable(16)
    probe = table.probe(0x1234)
    assert (probe.slot, probe.tag, probe.move) == (4, 0x23, None)
    table.store(probe, "m", 3)
    assert table.probe(0x1234).move == "m"
    assert table.probe(0x1234 + (1 << 12)).move == "m"  # the tag is 8 bits: the same
    assert table.probe(0x1244).move is None  # the same slot, another tag
    assert table.probe(0x1235).move is None  # another slot


def test_an_entry_searched_deeper_is_kept_for_another_tag_only():
    table = MoveTable(16)
    table.store(table.probe(0x14), "deep", 3)
    other = table.probe(0x24)  # the same slot, another tag, read before the store
    table.store(other, "shallow", 2)
    assert table.probe(0x14).move == "deep" and table.probe(0x24).move is None
    table.store(other := table.probe(0x24), "as deep", 3)  # not deeper: replaced
    assert table.probe(0x24).move == "as deep"
    table.store(table.probe(0x24), "same tag", 0)  # its own entry: always replaced
    assert table.probe(0x24).move == "same tag"
    replacing = MoveTable(16, keep_deeper=False)
    replacing.store(replacing.probe(0x14), "deep", 3)
    replacing.store(replacing.probe(0x24), "shallow", 2)
    assert replacing.probe(0x24).move == "shallow"
    assert other.held is not None


@pytest.mark.parametrize("entries", [0, 3, 100])
def test_the_entries_are_a_power_of_two(entries):
    with pytest.raises(ValueError):
        MoveTable(entries)


def test_the_table_changes_the_order_not_the_scores():
    """Every completed iteration scores as without the table (alpha-beta's value does not
    depend on move order), and the searches to depth 3 take fewer nodes with it, with the
    gateware's 4,096 entries and with 16 (most of them taken by other positions)."""
    rng = random.Random(23)
    checked, nodes = 0, {0: 0, 16: 0, 4096: 0}
    while checked < 8:
        position = random_position(rng, rng.randrange(8, 30))
        if position.outcome is not None:
            continue
        for depth in (2, 3):
            want = hw_search(position, 64, 64, 10**9, depth, board="track")
            for entries in (16, 4096):
                got = hw_search(position, 64, 64, 10**9, depth, board="track", move_table=entries)
                assert (got.score, got.depth) == (want.score, want.depth)
                assert position.is_legal(got.move)
                nodes[entries] += got.nodes
            nodes[0] += want.nodes
        checked += 1
    assert nodes[4096] < nodes[16] < nodes[0]


def test_a_table_is_for_the_block_ram_board():
    position = Position.from_moves(["@0/", "A2\\"])
    with pytest.raises(ValueError):
        hw_search(position, 8, 8, 100, 2, move_table=16)
    with pytest.raises(ValueError):
        hw_search(position, 128, 128, 100, 2, board="track", move_table=16)


def test_a_value_settles_only_the_windows_its_kind_decides():
    table = MoveTable(16, tag_bits=18, scores=True, mate_bound=MATE_BOUND)
    white = Colour.WHITE

    def holding(alpha, beta, value):
        table.store(table.probe(9), "a move", 3, (white, 1, alpha, beta, value))
        return table.probe(9)

    probe = holding(-10, 10, 40)  # at least 40 (it failed high at beta 10)
    assert table.settled(probe, white, 1, 3, -10, 30) == 40
    assert table.settled(probe, white, 1, 3, -10, 50) is None
    probe = holding(-10, 10, -20)  # at most -20 (it failed low at alpha -10)
    assert table.settled(probe, white, 1, 3, -5, 30) == -20
    assert table.settled(probe, white, 1, 3, -30, 30) is None
    probe = holding(-10, 10, 5)  # exactly 5
    assert table.settled(probe, white, 1, 3, 6, 7) == 5
    probe = holding(-10, 10, -(WIN - 5))  # a loss 4 plies below the node at ply 1
    assert table.settled(probe, white, 3, 3, -10, 10) == -(WIN - 7)


def test_scores_in_the_table_keep_every_iterations_score_in_fewer_nodes():
    """The sequential model with a table of 1,024 holding scores (its tags every bit of the key
    above the slot) against the table of moves alone, depths 1 to 3 on 6 human-game
    positions."""
    assert score_tag_bits(1024) == 30
    nodes = {False: 0, True: 0}
    compared = 0
    for position in game_positions(6):
        for depth in (1, 2, 3):
            got = {
                scores: hw_search(
                    *(position, TORUS, TORUS, BIG, depth),
                    board="track",
                    move_table=1024,
                    table_scores=scores,
                )
                for scores in (False, True)
            }
            assert (got[True].score, got[True].depth) == (got[False].score, got[False].depth)
            assert position.is_legal(got[True].move)
            for scores, result in got.items():
                nodes[scores] += result.nodes
            compared += 1
    assert compared == 18
    assert nodes[True] < nodes[False], nodes


def test_engines_sharing_a_table_with_scores_score_every_iteration_as_the_sequential_search():
    compared = 0
    for position in game_positions(4):
        expected = sequential_scores(position, 3)
        result = hw_parallel_search(
            *(position, TORUS, TORUS, BIG, 3, 3),
            move_table=1024,
            shared_table=True,
            table_scores=True,
        )
        assert result.iterations == expected, position
        compared += len(expected)
    assert compared >= 8


def test_scores_in_a_table_need_the_table():
    position = Position.from_moves(["@0/", "A2\\"])
    with pytest.raises(ValueError):
        hw_search(position, 32, 32, 100, 2, board="track", table_scores=True)
    with pytest.raises(ValueError):
        hw_parallel_search(position, 32, 32, 100, 2, 2, table_scores=True)
    with pytest.raises(ValueError):
        MoveTable(16, scores=True)  # (no mate bound)


def test_a_table_with_scores_settles_its_own_position_at_the_same_plies_left_only() -> None:
    table = MoveTable(16, tag_bits=18, scores=True, mate_bound=MATE_BOUND)
    white, black = Colour.WHITE, Colour.BLACK
    probe = table.probe(0x12345)
    assert table.settled(probe, white, 1, 3, -10, 10) is None  # empty
    table.store(probe, "a move", 3, (white, 2, -10, 10, WIN - 5))  # a win 2 plies below ply 2
    probe = table.probe(0x12345)
    assert probe.move == "a move"
    assert table.settled(probe, white, 4, 3, -10, 10) == WIN - 7  # read at ply 4
    assert table.settled(probe, black, 4, 3, -10, 10) is None  # the other side to move
    assert table.settled(probe, white, 4, 2, -10, 10) is None  # other plies left
    assert table.settled(table.probe(0x12345 + 16), white, 4, 3, -10, 10) is None  # another tag
    table.store(probe, "a move", 3, (white, 1, -10, 10, -20))  # at most -20
    probe = table.probe(0x12345)
    assert table.settled(probe, white, 1, 3, -5, 30) == -20
    assert table.settled(probe, white, 1, 3, -30, 30) is None
    assert MoveTable(16).settled(probe, white, 1, 3, -5, 30) is None  # no scores: never settles
