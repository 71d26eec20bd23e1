"""Golden move counts from the empty board (RULES.md; two public engines agree)."""

import pytest

from trax_fpga.host.position import Position

PERFT = {1: 2, 2: 24, 3: 432, 4: 9568, 5: 246888, 6: 7209480}


def test_perft_1_to_4():
    position = Position()
    assert [position.perft(d) for d in range(1, 5)] == [PERFT[d] for d in range(1, 5)]
    assert position.tiles == {}, "perft leaves the position as it found it"


def test_perft_5():
    assert Position().perft(5) == PERFT[5]


@pytest.mark.slow
def test_perft_6():
    assert Position().perft(6) == PERFT[6]


def test_legal_move_counts_match_count_legal_moves():
    position = Position.from_moves(["@0+", "B1+", "A0/", "A3/", "@3/", "@3+", "B1+", "@3+"])
    assert len(position.legal_moves()) == position.count_legal_moves()
    assert len(set(position.legal_moves())) == len(position.legal_moves())
