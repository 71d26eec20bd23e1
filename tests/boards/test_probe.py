# amaranth: UnusedElaboratable=no
"""The rules-core probe (the synthesis wrapper) answers over its UART pins like the reference."""

import pytest
from amaranth.back import verilog
from amaranth.sim import Simulator

from trax_fpga.boards.probe import TRACK_REPLY_BYTES, TrackProbe, TrackReply
from trax_fpga.hdl.track_rules import Outcome
from trax_fpga.hdl.types import Colour, Verdict
from trax_fpga.host.notation import Move
from trax_fpga.host.position import Position
from trax_fpga.sim.symbols import gateware_symbol

BAUD = 19200
DIVISOR = 8
WINDOW = 8
OUTCOMES = {
    None: Outcome.NONE,
    "white-loop": Outcome.WHITE_LOOP,
    "white-line": Outcome.WHITE_LINE,
    "black-loop": Outcome.BLACK_LOOP,
    "black-line": Outcome.BLACK_LINE,
}


def run_probe(commands: list[bytes], expected_replies: int):
    """Send ``commands`` on the rx pin of a :class:`TrackProbe` of a WINDOW x WINDOW torus; the
    reply frames and the LEDs after each one."""
    dut = TrackProbe(WINDOW, WINDOW, clk_freq=BAUD * DIVISOR, baud=BAUD)
    shape, reply_bytes = TrackReply, TRACK_REPLY_BYTES
    received: list[int] = []
    replies, leds = [], []

    async def monitor(ctx):
        while True:
            while ctx.get(dut.tx):
                await ctx.tick()
            await ctx.tick().repeat(DIVISOR // 2)
            byte = 0
            for bit in range(8):
                await ctx.tick().repeat(DIVISOR)
                byte |= ctx.get(dut.tx) << bit
            await ctx.tick().repeat(DIVISOR)
            assert ctx.get(dut.tx) == 1, "stop bit"
            received.append(byte)

    async def send(ctx, data: bytes):
        for byte in data:
            for bit in [0, *((byte >> i) & 1 for i in range(8)), 1]:
                ctx.set(dut.rx, bit)
                await ctx.tick().repeat(DIVISOR)

    async def testbench(ctx):
        ctx.set(dut.rx, 1)
        await ctx.tick().repeat(4)
        for command in commands:
            before = len(received)
            await send(ctx, command)
            if command[0] & 0x80 or (command[1] < WINDOW and command[2] < WINDOW):
                for _ in range(40 * DIVISOR * reply_bytes):
                    if len(received) == before + reply_bytes:
                        break
                    await ctx.tick()
                frame = int.from_bytes(bytes(received[before:]), "little")
                replies.append(shape.as_shape().from_bits(frame))
            else:
                await ctx.tick().repeat(20 * DIVISOR)
                assert len(received) == before, "a move outside the window has no reply"
            leds.append(ctx.get(dut.leds))
        assert len(replies) == expected_replies

    sim = Simulator(dut)
    sim.add_clock(1 / (BAUD * DIVISOR))
    sim.add_testbench(monitor, background=True)
    sim.add_testbench(testbench)
    sim.run()
    return replies, leds


def play_command(position: Position, text: str) -> bytes:
    move = Move.parse(text)
    x, y = position.cell_of(move)
    return bytes([gateware_symbol(move.symbol).value, x % WINDOW, y % WINDOW])


def test_track_probe_plays_a_game_like_the_reference():
    """The block-RAM core behind its probe: verdicts, outcome, box, tiles placed, the tile read
    back from the torus at the command's cell, and the LEDs."""
    moves = ["@0/", "@1/", "B2\\", "A0/", "B0+", "C3/", "A0\\", "A2+"]
    position = Position()
    commands, expected = [bytes([0x80, 0, 0])], []
    for text in moves:
        move = Move.parse(text)
        cell = position.cell_of(move)
        commands.append(play_command(position, text))
        legal = position.is_legal(move)
        placed = len(position.play(text).placed) if legal else 0
        box = position.box
        tile = position.tiles.get(cell)
        expected.append(
            (legal, str(position.outcome) if position.outcome else None, box, placed, tile)
        )
    replies, leds = run_probe(commands, len(commands))
    assert (replies[0].verdict, replies[0].empty, replies[0].box_w) == (Verdict.LEGAL, 1, 0)
    for text, reply, (legal, outcome, box, placed, tile), led in zip(
        moves, replies[1:], expected, leds[1:], strict=True
    ):
        assert (reply.verdict == Verdict.LEGAL) == legal, text
        assert reply.outcome == OUTCOMES[outcome], text
        assert (reply.box_x, reply.box_y) == (box.min_x % WINDOW, box.min_y % WINDOW), text
        assert (reply.box_w, reply.box_h) == (box.width, box.height), text
        if legal:  # an illegal move places none (after a win the core is not even started)
            assert reply.tiles == placed, text
        assert reply.cycles > 0, text
        assert int(reply.tile.value) == (int(tile) if tile is not None else 0), text
        assert led & 1 == (outcome is None), text  # playing
        assert (led >> 2) & 1 == (reply.turn == Colour.WHITE), text
        assert (led >> 3) & 1 == (not legal), text  # error


def test_a_move_outside_the_window_is_dropped_and_lights_the_error_led():
    _, leds = run_probe([bytes([0x80, 0, 0]), bytes([1, WINDOW, 0])], 1)
    assert leds[1] >> 3 & 1


@pytest.mark.parametrize("bad", [4, 12, 512])
def test_track_probe_checks_its_torus(bad):
    with pytest.raises(ValueError, match=r"power of two|at most 256"):
        TrackProbe(bad, 8, 12e6)


def test_probe_converts_to_verilog():
    assert "module top" in verilog.convert(TrackProbe(8, 8, 12e6), name="top")
