"""The research candidates' features (host/trackresearch.py, model only)."""

from trax_fpga.host.trackresearch import _pseudo_threats


def test_pseudo_threats_count_corner_pairs_a_knights_move_apart():
    """A pair counts once when a target of each of two 1-1 corners lies a knight's move from
    the other's, across the torus's seam too; corners farther apart do not count."""
    a = ((0, 0), (1, 1))
    b = ((2, 1), (3, 2))  # (2, 1) is a knight's move from (0, 0)
    far = ((10, 10), (11, 11))
    across = ((62, 63), (63, 0))  # (62, 63) is a knight's move from (0, 0) on a 64 x 64 torus
    assert _pseudo_threats([a, b], 64, 64) == 1
    assert _pseudo_threats([a, far], 64, 64) == 0
    assert _pseudo_threats([a, b, far], 64, 64) == 1
    assert _pseudo_threats([a, across], 64, 64) == 1
    assert _pseudo_threats([a, across], 128, 128) == 0
    assert _pseudo_threats([a, b, across], 64, 64) == 2  # (b and across are not)
