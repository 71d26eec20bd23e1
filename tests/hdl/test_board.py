"""The board in gateware against the reference engine, move by move: verdicts, tiles, the box."""

import contextlib
import random

import pytest
from amaranth import Value
from amaranth.back import verilog
from amaranth.sim import Simulator

from trax_fpga.hdl.board import Board, BoardOp, Verdict
from trax_fpga.hdl.types import Symbol
from trax_fpga.host.errors import IllegalMoveError
from trax_fpga.host.notation import Move
from trax_fpga.host.position import Position
from trax_fpga.sim.rules_driver import window_cell

from .reference import human_games, random_game, random_move, window_tiles

#: Words of the reference engine's reasons, as the board's verdicts (two share the last one).
REASONS = {
    "occupied": {Verdict.OCCUPIED},
    "adjacent": {Verdict.NOT_ADJACENT},
    "match": {Verdict.MISMATCH},
    "first move": {Verdict.FIRST_MOVE},
    "three same-colour": {Verdict.DEAD, Verdict.CONFLICT},
}


def expected_verdicts(error: IllegalMoveError) -> set[Verdict]:
    for text, verdicts in REASONS.items():
        if text in error.reason:
            return verdicts
    raise AssertionError(f"unknown reason {error.reason!r}")


async def start(ctx, dut, op, x=0, y=0, symbol=Symbol.CROSS):
    """One command; returns (verdict, clocks from start to done)."""
    ctx.set(dut.op, op)
    ctx.set(dut.x, x)
    ctx.set(dut.y, y)
    ctx.set(dut.symbol, symbol)
    ctx.set(dut.start, 1)
    await ctx.tick()
    ctx.set(dut.start, 0)
    clocks = 1
    while not ctx.get(dut.done):
        await ctx.tick()
        clocks += 1
    return ctx.get(dut.verdict), clocks


def read_tiles(ctx, dut, width, height):
    raw = ctx.get(Value.cast(dut.tiles))
    return [[(raw >> (4 * (y * width + x))) & 15 for x in range(width)] for y in range(height)]


def check_state(ctx, dut, position, width, height):
    assert read_tiles(ctx, dut, width, height) == window_tiles(position.tiles, width, height)
    box = position.box
    if box is None:
        assert ctx.get(dut.empty)
        return
    assert not ctx.get(dut.empty)
    got = (ctx.get(dut.box_x), ctx.get(dut.box_y), ctx.get(dut.box_w), ctx.get(dut.box_h))
    assert got == (box.min_x % width, box.min_y % height, box.width, box.height)


def play_sequence(width, height, moves, expect_overflow=None):
    """Play move texts (legal or not) on the board and the reference side by side.

    A move the reference finds legal but which would outgrow the window must get OVERFLOW.
    Returns the list of verdicts.
    """
    dut = Board(width, height)
    verdicts = []

    async def testbench(ctx):
        position = Position()
        verdict, _ = await start(ctx, dut, BoardOp.NEW_GAME)
        assert verdict is Verdict.LEGAL
        for text in moves:
            if position.is_over:
                break
            move = Move.parse(text)
            box = position.box
            x, y, outside = window_cell(
                box and (box.min_x % width, box.min_y % height, box.width, box.height),
                move.column,
                move.row,
                width,
                height,
            )
            ctx.set(dut.outside, outside)
            verdict, clocks = await start(ctx, dut, BoardOp.PLAY, x, y, Symbol.of(move.symbol))
            verdicts.append(verdict)
            try:
                position.play(move)
            except IllegalMoveError as error:
                assert verdict in expected_verdicts(error), (text, verdict, error)
            else:
                box = position.box
                if box.width + 2 > width or box.height + 2 > height:
                    assert verdict is Verdict.OVERFLOW, (text, verdict)
                    assert ctx.get(dut.overflow)
                    position.pop()
                else:
                    assert verdict is Verdict.LEGAL, (text, verdict)
                    assert ctx.get(dut.rounds) <= clocks
            check_state(ctx, dut, position, width, height)

    sim = Simulator(dut)
    sim.add_clock(1e-6)
    sim.add_testbench(testbench)
    sim.run()
    return verdicts


def test_first_moves():
    assert play_sequence(5, 5, ["@0+"]) == [Verdict.LEGAL]
    assert play_sequence(5, 5, ["@0/"]) == [Verdict.LEGAL]
    assert play_sequence(5, 5, ["@0\\"]) == [Verdict.FIRST_MOVE]
    assert play_sequence(5, 5, ["A1+", "@0/", "A1/", "@0/", "B2+"]) == [
        Verdict.FIRST_MOVE,
        Verdict.LEGAL,
        Verdict.OCCUPIED,
        Verdict.NOT_ADJACENT,
        Verdict.NOT_ADJACENT,
    ]


def test_forced_play_and_illegal_forced_play():
    # From the official referee tests: the 9th move makes three same-colour tracks meet.
    moves = ["@0/", "B1+", "C1/", "C2\\", "@1+", "A2/", "A3/", "D3\\", "B3\\"]
    verdicts = play_sequence(10, 10, moves)
    assert verdicts[:8] == [Verdict.LEGAL] * 8
    assert verdicts[8] in (Verdict.DEAD, Verdict.CONFLICT)


@pytest.mark.parametrize("index", [0, 5, 13])
def test_human_game(index):
    _, moves = human_games()[index]
    verdicts = play_sequence(18, 18, moves)
    assert set(verdicts) == {Verdict.LEGAL}


@pytest.mark.parametrize("seed", range(4))
def test_random_legal_and_illegal_moves(seed):
    """Random legal games with random (mostly illegal) moves mixed in, in a small window."""
    rng = random.Random(seed)
    width, height = rng.choice([(7, 7), (8, 6), (9, 9)])
    try:
        position = Position()
        moves = []
        for _ in range(30):
            if position.is_over:
                break
            if rng.random() < 0.5 or position.box is None:
                legal = random_game(rng, 1, width, height) if position.box is None else None
                move = Move.parse(legal[0]) if legal else rng.choice(position.legal_moves())
            else:
                move = random_move(rng, position)
            moves.append(str(move))
            with contextlib.suppress(IllegalMoveError):
                position.play(move)
        play_sequence(width, height, moves)
    except AssertionError as error:
        raise AssertionError(f"seed {seed}, window {width}x{height}: {error}") from error


def test_overflow_leaves_the_board_untouched():
    """A game outgrowing a 5x5 window: the move is refused, the board and box unchanged."""
    moves = ["@0+", "B1+", "C1+", "D1+", "E1+", "F1+"]  # a row of straights growing east
    verdicts = play_sequence(5, 5, moves)
    assert verdicts[:3] == [Verdict.LEGAL] * 3
    assert verdicts[3] is Verdict.OVERFLOW


@pytest.mark.parametrize("size", [(5, 5), (9, 7)])
def test_board_converts_to_verilog(size):
    verilog.convert(Board(*size))
