"""Win detection in gateware against the reference engine: loops and lines of both colours."""

import random
import re

import pytest
from amaranth import Value
from amaranth.back import verilog
from amaranth.sim import Simulator

from trax_fpga.hdl.wins import WinDetector, check_hops
from trax_fpga.host.position import Position
from trax_fpga.host.tiles import Colour

from .reference import (
    fits_window,
    human_games,
    planes_value,
    random_game,
    record_games,
    window_tiles,
)


def reference_wins(position: Position) -> dict[str, bool]:
    """Every loop and line on the board, by tracing every track with the reference engine."""
    found = {"white_loop": False, "white_line": False, "black_loop": False, "black_line": False}
    for colour in (Colour.WHITE, Colour.BLACK):
        seen: set = set()
        for cell in position.tiles:
            if cell not in seen:
                kind = position._track(cell, colour, seen)
                if kind is not None:
                    found[f"{colour.word}_{kind}"] = True
    return found


def check_positions(width, height, positions, hops=1, serial=False):
    """Judge each position with the gateware; returns the clocks each judgement took."""
    dut = WinDetector(width, height, hops=hops, serial=serial)
    clocks = []

    async def testbench(ctx):
        for position in positions:
            grid = window_tiles(position.tiles, width, height)
            ctx.set(Value.cast(dut.white), planes_value(grid))
            box = position.box
            ctx.set(dut.box_x, box.min_x % width)
            ctx.set(dut.box_y, box.min_y % height)
            ctx.set(dut.box_w, box.width)
            ctx.set(dut.box_h, box.height)
            ctx.set(dut.start, 1)
            await ctx.tick()
            ctx.set(dut.start, 0)
            while not ctx.get(dut.done):
                await ctx.tick()
            got = {name: bool(ctx.get(getattr(dut, name))) for name in reference_wins(position)}
            assert got == reference_wins(position), position
            clocks.append(ctx.get(dut.cycles))

    sim = Simulator(dut)
    sim.add_clock(1e-6)
    sim.add_testbench(testbench)
    sim.run()
    return clocks


def game_positions(moves, width, height):
    """The position after every move of a game, while it fits the window."""
    position = Position()
    positions = []
    for move in moves:
        position.play(move)
        if not fits_window(position, width, height):
            break
        positions.append(position.copy())
    return positions


@pytest.mark.parametrize("serial", [False, True])
def test_record_games_with_loops_and_lines(serial):
    """Referee and engine test games: double wins, lines across 8, loops, near-lines."""
    positions = []
    for name in ("official_referee_tests.txt", "engine_tests_peryaudo.txt"):
        for moves in record_games(name):
            try:
                positions += game_positions(moves, 12, 12)[-3:]
            except ValueError:
                continue  # a game with an illegal move: its last positions are judged elsewhere
    wins = [reference_wins(p) for p in positions]
    assert any(w["white_line"] for w in wins) and any(w["black_line"] for w in wins)
    assert any(w["white_loop"] for w in wins) and any(w["black_loop"] for w in wins)
    check_positions(12, 12, positions, serial=serial)


def test_human_game_endings():
    """The last positions of some human games (loops, lines, and none) in an 18x18 window."""
    positions = []
    for _, moves in human_games()[:12]:
        positions += game_positions(moves, 18, 18)[-2:]
    check_positions(18, 18, positions)


@pytest.mark.parametrize(("width", "height", "seed"), [(10, 10, 1), (11, 9, 2)])
@pytest.mark.parametrize(("hops", "serial"), [(1, False), (3, False), (2, True)])
def test_random_games(width, height, seed, hops, serial):
    """Every position of random games; the torus wraps because the box starts anywhere."""
    rng = random.Random(seed)
    positions = []
    while len(positions) < 40:
        positions += game_positions(random_game(rng, 40, width, height), width, height)
    check_positions(width, height, positions, hops, serial)


def test_more_hops_take_fewer_clocks():
    positions = []
    for _, moves in human_games()[:6]:
        positions += game_positions(moves, 18, 18)[-3:]
    one = check_positions(18, 18, positions, hops=1)
    two = check_positions(18, 18, positions, hops=2)
    assert all(b <= a for a, b in zip(one, two, strict=True)) and sum(two) < sum(one)


@pytest.mark.parametrize("bad", [0, -1, 1.5, True])
def test_hops_checked(bad):
    message = f"hops must be a positive integer, not {bad!r}"
    with pytest.raises(ValueError, match=re.escape(message)):
        check_hops(bad)


@pytest.mark.parametrize("size", [(5, 5), (10, 8)])
@pytest.mark.parametrize("serial", [False, True])
def test_wins_converts_to_verilog(size, serial):
    verilog.convert(WinDetector(*size, serial=serial))
