"""The rules core's command interface: verdicts, outcomes, side to move, game over, overflow."""

import contextlib

import pytest
from amaranth.back import verilog
from amaranth.sim import Simulator

from trax_fpga.hdl.rules_core import Colour, Command, Outcome, RulesCore, Verdict
from trax_fpga.hdl.types import Symbol
from trax_fpga.host.position import Position

from .reference import record_games


def cell_of(position, text, width, height):
    """The window cell of a move (the reference's board cell, torus-mapped)."""
    from trax_fpga.host.notation import Move

    move = Move.parse(text)
    x, y = position.cell_of(move)
    return x % width, y % height, Symbol.of(move.symbol)


def run_game(width, height, moves):
    """Play a game with an async testbench; returns [(verdict, outcome, turn)] per move."""
    dut = RulesCore(width, height)
    results = []

    async def command(ctx, cmd, x=0, y=0, symbol=Symbol.CROSS):
        ctx.set(dut.cmd, cmd)
        ctx.set(dut.x, x)
        ctx.set(dut.y, y)
        ctx.set(dut.symbol, symbol)
        ctx.set(dut.cmd_valid, 1)
        await ctx.tick()
        ctx.set(dut.cmd_valid, 0)
        ctx.set(dut.cmd, Command.NEW_GAME)  # the core latched the command
        while not ctx.get(dut.done):
            assert ctx.get(dut.busy)
            await ctx.tick()
        assert not ctx.get(dut.busy)
        return ctx.get(dut.verdict), ctx.get(dut.outcome), ctx.get(dut.turn)

    async def testbench(ctx):
        verdict, outcome, turn = await command(ctx, Command.NEW_GAME)
        assert (verdict, outcome, turn) == (Verdict.LEGAL, Outcome.NONE, Colour.WHITE)
        position = Position()
        for text in moves:
            if position.is_over:
                # Any cell will do: the game is over.
                results.append(await command(ctx, Command.PLAY, 0, 0, Symbol.CROSS))
                continue
            results.append(
                await command(ctx, Command.PLAY, *cell_of(position, text, width, height))
            )
            with contextlib.suppress(ValueError):
                position.play(text)

    sim = Simulator(dut)
    sim.add_clock(1e-6)
    sim.add_testbench(testbench)
    sim.run()
    return results


def games_by_name(name):
    lines = (
        line.split("|")
        for line in (__import__("pathlib").Path(__file__).resolve().parent.parent / "data" / name)
        .read_text()
        .splitlines()
        if line and not line.startswith("#")
    )
    return {fields[0].strip(): fields[-1].split() for fields in lines}


def test_turns_alternate_and_illegal_moves_keep_the_turn():
    results = run_game(8, 8, ["@0+", "B1+", "A1+", "D1+", "A2/"])
    assert [r[0] for r in results] == [
        Verdict.LEGAL,
        Verdict.LEGAL,
        Verdict.OCCUPIED,
        Verdict.NOT_ADJACENT,
        Verdict.LEGAL,
    ]
    assert [r[2] for r in results] == [
        Colour.BLACK,
        Colour.WHITE,
        Colour.WHITE,
        Colour.WHITE,
        Colour.BLACK,
    ]


def test_mover_wins_a_double_loop():
    games = games_by_name("official_referee_tests.txt")
    results = run_game(10, 10, games["double-loop"])
    assert results[-1][:2] == (Verdict.LEGAL, Outcome.BLACK_LOOP)
    results = run_game(10, 10, games["double-loop2"])
    assert results[-1][:2] == (Verdict.LEGAL, Outcome.WHITE_LOOP)


def test_opponent_wins_and_a_move_after_the_win_is_illegal():
    games = games_by_name("official_referee_tests.txt")
    results = run_game(8, 8, [*games["opponent-loop"], "B1+"])
    assert results[-2][:2] == (Verdict.LEGAL, Outcome.WHITE_LOOP)  # black completed white's loop
    assert results[-1][:2] == (Verdict.GAME_OVER, Outcome.WHITE_LOOP)


def test_lines_need_eight_tiles_across():
    games = games_by_name("engine_tests_peryaudo.txt")
    assert run_game(12, 12, games["PositionTest.WinByHorizontalVictoryLineSimple"])[-1][1] is (
        Outcome.BLACK_LINE
    )
    assert run_game(12, 12, games["PositionTest.WinByVerticalVictoryLineSimple"])[-1][1] is (
        Outcome.WHITE_LINE
    )
    assert run_game(12, 12, games["PositionTest.NotHorizontalVictoryLineSimple"])[-1][1] is (
        Outcome.NONE
    )
    assert (
        run_game(12, 12, games["PositionTest.NotHorizontalVictoryLineBecauesNotRightmost"])[-1][1]
        is Outcome.NONE
    )


def test_record_files_are_read():
    assert len(record_games("official_referee_tests.txt")) >= 9


@pytest.mark.parametrize("size", [(6, 6), (12, 10)])
def test_rules_core_converts_to_verilog(size):
    verilog.convert(RulesCore(*size))
