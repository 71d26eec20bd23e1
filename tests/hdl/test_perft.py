# amaranth: UnusedElaboratable=no
"""Hardware perft on the block-RAM board against the reference engine (RULES.md's counts)."""

import pytest
from amaranth.back import verilog

from trax_fpga.cli import main
from trax_fpga.hdl.track_perft import TrackPerft
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


def recorded_positions() -> list[list[str]]:
    """The first few moves of some human games (different lengths, so different boxes)."""
    games = record_lines("human_games.txt")
    return [moves.split()[:n] for (_, _, moves), n in zip(games[:4], (2, 3, 4, 6), strict=True)]


def test_perft_from_recorded_positions(unit):
    """Depths 1 to 3 from four recorded positions, and 4 from the first: each equals the
    reference engine's ``perft``."""
    checked = 0
    for moves in recorded_positions():
        position = Position.from_moves(moves)
        unit.load(moves)
        for depth in (1, 2, 3, 4) if len(moves) == 2 else (1, 2, 3):
            count, cycles = unit.count(depth)
            assert count == position.perft(depth), (moves, depth)
            assert cycles > count
            checked += 1
    assert checked == 13


def test_a_won_position_has_no_children(unit):
    """Two of the moves here close a loop: the sequences through them end there, in the
    gateware as in the reference engine."""
    moves = ["@0/", "A2\\"]
    position = Position.from_moves(moves)
    unit.load(moves)
    assert [unit.count(depth)[0] for depth in (1, 2, 3)] == [18, 352, 8272]
    assert [position.perft(depth) for depth in (1, 2, 3)] == [18, 352, 8272]


def test_trax_perft_backend_rtl(capsys):
    assert main(["perft", "3", "--backend", "rtl"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[:3] == ["1 2", "2 24", "3 432"]
    assert out[3].startswith("cycles ")


def test_trax_perft_backend_rtl_refuses_the_8x8_variant(capsys):
    assert main(["perft", "2", "--backend", "rtl", "--variant", "8x8"]) == 1
    assert "the gateware plays unlimited Trax only" in capsys.readouterr().err


def test_the_perft_unit_checks_its_parameters_and_converts():
    with pytest.raises(ValueError, match="max_depth must be a positive integer, not 0"):
        TrackPerft(16, 16, 0)
    with pytest.raises(ValueError, match="power of two of at least 8, not 12"):
        TrackPerft(12, 16, 4)
    assert "module perft" in verilog.convert(TrackPerft(8, 8, 3), name="perft")
