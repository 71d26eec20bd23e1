"""The research candidates' features (host/trackresearch.py, model only)."""

import dataclasses
import pathlib

from trax_fpga.host.hwsearch import hw_search
from trax_fpga.host.search_bench import midgame_positions
from trax_fpga.host.trackresearch import TUNINGS, _pseudo_threats


def test_pseudo_threats_count_equal_corners_a_knights_move_apart():
    """A pair of 1-1 corners counts once when their tiles are the same and a knight's move
    apart, across the torus's seam too; other tiles, or corners farther apart, do not count."""
    a = ((0, 0), 2)
    b = ((2, 1), 2)  # a knight's move from a
    other_tile = ((2, 1), 3)
    far = ((10, 10), 2)
    across = ((62, 63), 2)  # a knight's move from a on a 64 x 64 torus
    assert _pseudo_threats([a, b], 64, 64) == 1
    assert _pseudo_threats([a, other_tile], 64, 64) == 0
    assert _pseudo_threats([a, far], 64, 64) == 0
    assert _pseudo_threats([a, b, far], 64, 64) == 1
    assert _pseudo_threats([a, across], 64, 64) == 1
    assert _pseudo_threats([a, across], 128, 128) == 0
    assert _pseudo_threats([a, b, across], 64, 64) == 2  # (b and across are not)


def test_reductions_search_moves_away_from_the_last_turns_shallower():
    """``reduce_far``: a move more than that many cells outside the boxes of the two turns
    before it is searched a ply shallower, so a search to a depth plays fewer nodes; with a
    reach no move exceeds, the search is the board file's node for node."""
    records = pathlib.Path(__file__).parent.parent / "data" / "human_games.txt"
    position = midgame_positions(1, 64, records)[0]
    board_file = TUNINGS["sw-loops-hash16k-scores"]

    def search(tuning):
        return hw_search(position, 64, 64, 10**6, 3, board="track", tuning=tuning)

    full = search(board_file)
    assert full.depth == 3
    reduced = search(TUNINGS["hash16k-scores-r2"])
    assert reduced.depth == 3 and reduced.nodes < full.nodes
    unreachable = search(dataclasses.replace(board_file, reduce_far=64))
    assert (unreachable.nodes, unreachable.move, unreachable.score) == (
        full.nodes,
        full.move,
        full.score,
    )
