"""The research candidates' features (host/trackresearch.py, model only)."""

from trax_fpga.host.trackresearch import _pseudo_threats


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
