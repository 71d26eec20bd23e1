# amaranth: UnusedElaboratable=no
"""The rules-core probe (the synthesis wrapper) answers over its UART pins like the reference."""

import pytest
from amaranth.back import verilog
from amaranth.sim import Simulator

from trax_fpga.boards.probe import REPLY_BYTES, ProbeReply, RulesProbe, xor_fold
from trax_fpga.hdl.board import Verdict
from trax_fpga.hdl.rules_core import Colour, Outcome
from trax_fpga.hdl.types import Symbol as HdlSymbol
from trax_fpga.host.notation import Move
from trax_fpga.host.position import Position

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
    """Send ``commands`` on the probe's rx pin; the reply frames and the LEDs after each one."""
    dut = RulesProbe(WINDOW, WINDOW, clk_freq=BAUD * DIVISOR, baud=BAUD)
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
                for _ in range(40 * DIVISOR * REPLY_BYTES):
                    if len(received) == before + REPLY_BYTES:
                        break
                    await ctx.tick()
                frame = int.from_bytes(bytes(received[before:]), "little")
                replies.append(ProbeReply.as_shape().from_bits(frame))
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
    return bytes([HdlSymbol.of(move.symbol).value, x % WINDOW, y % WINDOW])


def test_probe_plays_a_game_like_the_reference():
    moves = ["@0/", "@1/", "B2\\", "A0/", "B0+", "C3/", "A0\\"]
    position = Position()
    commands, expected = [bytes([0x80, 0, 0])], []
    for text in moves:
        commands.append(play_command(position, text))
        legal = position.is_legal(Move.parse(text))
        if legal:
            position.play(text)
        box = position.box
        expected.append((legal, str(position.outcome) if position.outcome else None, box))
    replies, leds = run_probe(commands, len(commands))
    new_game = replies[0]
    assert (new_game.verdict, new_game.empty, new_game.box_w) == (Verdict.LEGAL, 1, 0)
    digests = set()
    for text, reply, (legal, outcome, box), led in zip(
        moves, replies[1:], expected, leds[1:], strict=True
    ):
        assert (reply.verdict == Verdict.LEGAL) == legal, text
        assert reply.outcome == OUTCOMES[outcome], text
        assert (reply.box_x, reply.box_y) == (box.min_x % WINDOW, box.min_y % WINDOW), text
        assert (reply.box_w, reply.box_h) == (box.width, box.height), text
        assert led & 1 == (outcome is None), text  # playing
        assert (led >> 2) & 1 == (reply.turn == Colour.WHITE), text
        assert (led >> 3) & 1 == (not legal), text  # error
        digests.add(reply.digest)
    assert len(digests) > 2, "the digest follows the board"


def test_a_move_outside_the_window_is_dropped_and_lights_the_error_led():
    _, leds = run_probe([bytes([0x80, 0, 0]), bytes([1, WINDOW, 0])], 1)
    assert leds[1] >> 3 & 1


def test_xor_fold_is_the_xor_of_the_words():
    from amaranth import Const

    value = 0xDEADBEEF12345
    folded = 0
    for i in range(0, 52, 8):
        folded ^= (value >> i) & 0xFF
    sim_value = xor_fold(Const(value, 52), 8)
    assert len(sim_value) == 8
    sim = Simulator(__import__("amaranth").Module())
    result = []

    async def tb(ctx):
        result.append(ctx.get(sim_value))

    sim.add_testbench(tb)
    sim.run()
    assert result == [folded]


@pytest.mark.parametrize("bad", [2, 257, "8"])
def test_probe_checks_its_window(bad):
    with pytest.raises(ValueError, match=f"window width must be an integer in 3..256, not {bad!r}"):
        RulesProbe(bad, 8, 12e6)


def test_probe_converts_to_verilog():
    assert "module top" in verilog.convert(RulesProbe(4, 4, 12e6), name="top")
