"""The table of best moves (host/movetable.py) and the search's model with it
(``hw_search(..., move_table=N)``): the order changes, never a completed iteration's score."""

import random

import pytest

from trax_fpga.host.hwsearch import hw_search
from trax_fpga.host.movetable import MoveTable, position_key, tile_key
from trax_fpga.host.position import Position
from trax_fpga.host.tiles import Tile

from .test_search import random_position


def test_the_position_key_is_the_xor_of_its_tiles_keys_on_the_torus():
    position = Position.from_moves(["@0/", "A2\\", "B1+", "@1+"])
    key = position_key(position, 16, 16)
    assert 0 <= key < 1 << 32
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
