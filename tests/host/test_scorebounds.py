"""The table of score bounds (host/scorebounds.py, research): it settles a node only where its
value is settled, keeps a win's score from the node's point of view, and leaves every completed
iteration's score as alpha-beta's without it, in the sequential model and in the parallel one,
while playing fewer nodes."""

from __future__ import annotations

from trax_fpga.host.hwparallel import hw_parallel_search
from trax_fpga.host.hwsearch import MATE_BOUND, WIN, hw_search
from trax_fpga.host.movetable import MoveTable
from trax_fpga.host.position import Position
from trax_fpga.host.scorebounds import ScoreBounds
from trax_fpga.host.tiles import Colour
from trax_fpga.host.trackresearch import TUNINGS

from .test_hwparallel import BIG, TORUS, game_positions, sequential_scores

KEY = (9, "a position", "its side to move", 3)  # (its slot first)


def test_a_bound_settles_only_the_windows_it_decides() -> None:
    bounds = ScoreBounds(16, MATE_BOUND)
    bounds.store(KEY, 1, -10, 10, 40)  # at least 40 (it failed high at beta 10)
    assert bounds.lookup(KEY, 1, -10, 30) == 40
    assert bounds.lookup(KEY, 1, -10, 50) is None
    bounds.store(KEY, 1, -10, 10, -20)  # at most -20 (it failed low at alpha -10)
    assert bounds.lookup(KEY, 1, -5, 30) == -20
    assert bounds.lookup(KEY, 1, -30, 30) is None
    bounds.store(KEY, 1, -10, 10, 5)  # exactly 5
    assert bounds.lookup(KEY, 1, 6, 7) == 5
    assert bounds.hits == 3


def test_a_win_is_kept_from_the_node_and_given_back_at_the_ply_that_reads_it() -> None:
    bounds = ScoreBounds(16, MATE_BOUND)
    bounds.store(KEY, 2, -10, 10, WIN - 5)  # a win 2 plies below the node at ply 2
    assert bounds.lookup(KEY, 4, -10, 10) == WIN - 7  # the same win, 2 plies below ply 4
    bounds.store(KEY, 2, -10, 10, -(WIN - 5))
    assert bounds.lookup(KEY, 1, -10, 10) == -(WIN - 4)


def test_the_sequential_search_scores_as_without_it_in_fewer_nodes() -> None:
    """Beside the table of best moves, and in its entries (``MoveTable(scores=True)``)."""
    without = TUNINGS["sw-loops-hash16k-deep"]
    variants = ("sw-loops-hash16k-bounds", "sw-loops-hash16k-scores")
    nodes = dict.fromkeys(("", *variants), 0)
    compared = 0
    for position in game_positions(6):
        for depth in (1, 2, 3):
            plain = hw_search(position, TORUS, TORUS, BIG, depth, board="track", tuning=without)
            nodes[""] += plain.nodes
            for name in variants:
                got = hw_search(
                    position, TORUS, TORUS, BIG, depth, board="track", tuning=TUNINGS[name]
                )
                assert (got.score, got.depth) == (plain.score, plain.depth), (name, position, depth)
                nodes[name] += got.nodes
                compared += 1
    assert compared == 36
    assert all(nodes[name] < nodes[""] for name in variants), nodes


def test_engines_sharing_it_score_every_iteration_as_the_sequential_search() -> None:
    compared = 0
    for position in game_positions(4):
        expected = sequential_scores(position, 3)
        result = hw_parallel_search(
            position, TORUS, TORUS, BIG, 3, 3, move_table=1024, shared_table=True, bounds=True
        )
        assert result.iterations == expected, position
        compared += len(expected)
    assert compared >= 8


def test_positions_differing_in_the_side_to_move_or_the_plies_left_are_apart() -> None:
    bounds = ScoreBounds(16, MATE_BOUND)
    position = Position.from_moves(["@0+", "@1+"])
    assert bounds.key(position, 2) != bounds.key(position, 3)
    other = Position.from_tiles(position.tiles, turn=position.turn.other)
    assert other.tiles == position.tiles
    assert bounds.key(position, 2) != bounds.key(other, 2)


def test_a_store_replaces_what_its_slot_held() -> None:
    bounds = ScoreBounds(16, MATE_BOUND)
    other = (9, "another position", "its side to move", 3)  # the same slot
    bounds.store(KEY, 1, -10, 10, 5)
    bounds.store(other, 1, -10, 10, 7)
    assert bounds.lookup(KEY, 1, -10, 10) is None
    assert bounds.lookup(other, 1, -10, 10) == 7


def test_with_tag_bits_another_position_of_the_same_slot_and_tag_is_taken_for_it() -> None:
    """As a gateware table's would be: with one slot and a tag of one bit, two of any three
    positions with one side to move share the key; exact keys tell them apart."""
    tagged, exact = ScoreBounds(1, MATE_BOUND, tag_bits=1), ScoreBounds(1, MATE_BOUND)
    side = [p for p in game_positions(12) if p.turn == game_positions(1)[0].turn][:3]
    assert len(side) == 3
    tags = [tagged.key(p, 2)[1] for p in side]
    a, b = next(
        (p, q)
        for i, p in enumerate(side)
        for j, q in enumerate(side)
        if i < j and tags[i] == tags[j]
    )
    assert a.tiles != b.tiles
    tagged.store(tagged.key(a, 2), 1, -10, 10, 5)
    exact.store(exact.key(a, 2), 1, -10, 10, 5)
    assert tagged.lookup(tagged.key(b, 2), 1, -10, 10) == 5
    assert exact.lookup(exact.key(b, 2), 1, -10, 10) is None
    assert exact.lookup(exact.key(a, 2), 1, -10, 10) == 5


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
