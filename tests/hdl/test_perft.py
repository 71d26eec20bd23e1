"""Hardware perft against the reference engine's golden counts (RULES.md)."""

import pytest

from trax_fpga.cli import main
from trax_fpga.host.position import Position
from trax_fpga.sim.perft_driver import RtlPerft, rtl_perft

from ..host.records import record_lines
from ..host.test_perft import PERFT


@pytest.fixture(scope="module")
def unit():
    with RtlPerft() as perft:
        yield perft


def test_perft_1_to_4_from_the_empty_board():
    lines = list(rtl_perft(4))
    assert lines[:4] == [f"{d} {PERFT[d]}" for d in range(1, 5)]
    assert lines[4].startswith("cycles ") and int(lines[4].split()[1]) > 0


@pytest.mark.slow
def test_perft_5_from_the_empty_board():
    assert list(rtl_perft(5))[4] == f"5 {PERFT[5]}"


def test_perft_from_human_game_positions(unit):
    for _, _, moves in record_lines("human_games.txt")[:4]:
        position = Position.from_moves(moves.split()[:3])
        for depth in (1, 2):
            count, cycles = unit.count(position, depth)
            assert count == position.perft(depth), " ".join(moves.split()[:3])
            assert cycles > 0


def test_trax_perft_backend_rtl(capsys):
    assert main(["perft", "3", "--backend", "rtl"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[:3] == ["1 2", "2 24", "3 432"]
    assert out[3].startswith("cycles ")
