"""The rules core alone behind a UART, so that synthesis keeps all of it: a top for figures.

Synthesis removes logic whose outputs reach no pin. :class:`RulesProbe` keeps the
:class:`~trax_fpga.hdl.rules_core.RulesCore` honest: its commands come from the UART, and every
output the player would use (verdict, outcome, turn, overflow, box, and an XOR digest of all the
board planes: white edges, tiles, new, occupied, frontier, fit) goes back over the UART, so no
plane bit can be optimised away. It has the pins of the complete player (``rx``, ``tx``,
``leds``), so a board top takes either.

The frames, 8N1 at the build's baud rate:

- command, 3 bytes: ``[op, x, y]``; ``op`` bit 7 set is a new game (x, y ignored), clear is a
  move of symbol ``op & 3`` (0 ``+``, 1 ``/``, 2 ``\\``) at window cell (x, y). A move outside
  the window is dropped (no reply) and lights the error LED.
- reply, 7 bytes, after each command: :class:`ProbeReply`.
"""

from amaranth import Cat, Module, Mux, Signal, Value
from amaranth.lib import data, wiring
from amaranth.lib.wiring import In, Out

from trax_fpga.hdl.board import Verdict
from trax_fpga.hdl.rules_core import Colour, Command, Outcome, RulesCore
from trax_fpga.hdl.uart import UART, divisor_for

__all__ = ["COMMAND_BYTES", "REPLY_BYTES", "ProbeReply", "RulesProbe", "xor_fold"]

COMMAND_BYTES = 3


class ProbeReply(data.Struct):
    """The reply to a command, least significant byte first on the line."""

    verdict: Verdict
    outcome: Outcome
    turn: Colour
    overflow: 1
    empty: 1
    _pad: 6
    box_x: 8
    box_y: 8
    box_w: 8
    box_h: 8
    digest: 8


REPLY_BYTES = ProbeReply.as_shape().size // 8


def xor_fold(value: Value, width: int) -> Value:
    """XOR of ``value`` cut into ``width``-bit words (zero-padded), as a balanced tree."""
    value = Value.cast(value)
    words = [value[i : i + width] for i in range(0, len(value), width)]
    while len(words) > 1:
        pairs = [a ^ b for a, b in zip(words[0::2], words[1::2], strict=False)]
        words = pairs + words[len(pairs) * 2 :]
    return words[0]


class RulesProbe(wiring.Component):
    """A :class:`RulesCore` of W x H cells driven over an 8N1 UART (see the module for frames).

    Parameters
    ----------
    width, height : int
        The rules core's window, at most 256 x 256 (cells are one byte each on the line).
    clk_freq : float
        The clock frequency in Hz, for the UART divisor.
    baud : int
        The UART's baud rate.

    Members
    -------
    rx : In(1)
        Serial input (synchronised inside).
    tx : Out(1)
        Serial output.
    leds : Out(4)
        Playing (a game is under way), thinking (the core is busy), colour (white to move), error
        (the last command was refused or out of the window), as the player's LEDs.
    """

    def __init__(self, width: int, height: int, clk_freq: float, baud: int = 19200):
        for name, value in (("width", width), ("height", height)):
            if not isinstance(value, int) or isinstance(value, bool) or not 3 <= value <= 256:
                raise ValueError(f"window {name} must be an integer in 3..256, not {value!r}")
        self.width, self.height = width, height
        self.divisor = divisor_for(clk_freq, baud)
        super().__init__({"rx": In(1, init=1), "tx": Out(1, init=1), "leds": Out(4)})

    def elaborate(self, platform):
        m = Module()
        m.submodules.uart = uart = UART(self.divisor)
        m.submodules.core = core = RulesCore(self.width, self.height)
        m.d.comb += [uart.rx.eq(self.rx), self.tx.eq(uart.tx)]

        command = Signal(data.ArrayLayout(8, COMMAND_BYTES))
        received = Signal(range(COMMAND_BYTES + 1))
        reply = Signal(ProbeReply)
        to_send = Signal(range(REPLY_BYTES + 1))
        error = Signal()

        op, x, y = command[0], command[1], command[2]
        new_game = op[7]
        in_window = (x < self.width) & (y < self.height)
        m.d.comb += [
            core.cmd.eq(Mux(new_game, Command.NEW_GAME, Command.PLAY)),
            core.x.eq(x),
            core.y.eq(y),
            core.symbol.as_value().eq(op[:2]),
        ]

        # Receive: shift bytes in until a command is complete, then hand it to the core.
        m.d.comb += uart.rx_stream.ready.eq(received != COMMAND_BYTES)
        with m.If(uart.rx_stream.valid & uart.rx_stream.ready):
            m.d.sync += [
                command.eq(Cat(command.as_value()[8:], uart.rx_stream.payload)),
                received.eq(received + 1),
            ]
        with m.If((received == COMMAND_BYTES) & ~core.busy & ~core.done & (to_send == 0)):
            with m.If(new_game | in_window):
                m.d.comb += core.cmd_valid.eq(1)
            with m.Else():
                m.d.sync += error.eq(1)
            m.d.sync += received.eq(0)

        # Reply: every output the player would read, and a digest of every board plane.
        planes = Cat(core.white, core.tiles, core.new, core.occupied, core.frontier, core.fit)
        with m.If(core.done):
            m.d.sync += [
                reply.verdict.eq(core.verdict),
                reply.outcome.eq(core.outcome),
                reply.turn.eq(core.turn),
                reply.overflow.eq(core.overflow),
                reply.empty.eq(core.empty),
                reply.box_x.eq(core.box_x),
                reply.box_y.eq(core.box_y),
                reply.box_w.eq(core.box_w),
                reply.box_h.eq(core.box_h),
                reply.digest.eq(xor_fold(planes, 8)),
                to_send.eq(REPLY_BYTES),
                error.eq(core.verdict != Verdict.LEGAL),
            ]
        m.d.comb += [
            uart.tx_stream.payload.eq(reply.as_value()[:8]),
            uart.tx_stream.valid.eq(to_send != 0),
        ]
        with m.If(uart.tx_stream.valid & uart.tx_stream.ready):
            m.d.sync += [reply.eq(reply.as_value()[8:]), to_send.eq(to_send - 1)]

        m.d.comb += self.leds.eq(
            Cat(
                ~core.empty & (core.outcome == Outcome.NONE),
                core.busy,
                core.turn == Colour.WHITE,
                error,
            )
        )
        return m
