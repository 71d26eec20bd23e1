"""The rules core alone behind a UART, so that synthesis keeps all of it: a top for figures.

Synthesis removes logic whose outputs reach no pin. :class:`TrackProbe` keeps the block-RAM core
:class:`~trax_fpga.hdl.track_rules.TrackRules` honest: its commands come from the UART, and
every output the player would use (verdict, outcome, turn, overflow, box) goes back over the
UART; its memories are read by the core itself (every verdict and outcome depends on them) and
by the reply, which carries the tile now at the command's cell. It has the pins of the complete
player (``rx``, ``tx``, ``leds``), so a board top takes either.

The frames, 8N1 at the build's baud rate:

- command, 3 bytes: ``[op, x, y]``; ``op`` bit 7 set is a new game (x, y ignored), clear is a
  move of symbol ``op & 3`` (0 ``+``, 1 ``/``, 2 ``\\``) at torus cell (x, y). A move outside
  the torus is dropped (no reply) and lights the error LED.
- reply, after each command: :class:`TrackReply` (11 bytes).
"""

from amaranth import Cat, Module, Mux, Signal, Value
from amaranth.lib import data, wiring
from amaranth.lib.wiring import In, Out

from trax_fpga.hdl.track_board import check_torus
from trax_fpga.hdl.track_rules import Command, Outcome, TrackRules
from trax_fpga.hdl.types import Colour, Tile, Verdict
from trax_fpga.hdl.uart import UART, divisor_for

__all__ = ["COMMAND_BYTES", "TRACK_REPLY_BYTES", "TrackProbe", "TrackReply"]

COMMAND_BYTES = 3


class TrackReply(data.Struct):
    """The reply of :class:`TrackProbe`, least significant byte first on the line.

    ``tiles`` and ``cycles`` are the core's (tiles placed by the command, clocks it took), cut to
    16 bits; ``tile`` is the tile at the command's cell after the command (a new game: (0, 0)).
    """

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
    tiles: 16
    cycles: 16
    tile: Tile
    _pad2: 4


TRACK_REPLY_BYTES = TrackReply.as_shape().size // 8


class _UartProbe(wiring.Component):
    """A rules core driven over an 8N1 UART: the frames of the module, shared by the probes.

    A subclass gives :attr:`reply_shape`, the core (:meth:`core`), the cells a move may name
    (:meth:`in_range`) and the reply's fields when the core is done (:meth:`reply_fields`).
    """

    reply_shape: type[data.Struct]

    def __init__(self, clk_freq: float, baud: int):
        self.divisor = divisor_for(clk_freq, baud)
        super().__init__({"rx": In(1, init=1), "tx": Out(1, init=1), "leds": Out(4)})

    def core(self, m: Module, x: Value, y: Value):
        """Add the core to ``m``; it reads cell (``x``, ``y``) of the command frame."""
        raise NotImplementedError

    def in_range(self, x: Value, y: Value) -> Value:
        raise NotImplementedError

    def reply_fields(self, core) -> dict[str, Value]:
        """The reply's fields beyond verdict, outcome, turn, overflow, empty and the box."""
        raise NotImplementedError

    def elaborate(self, platform):
        m = Module()
        m.submodules.uart = uart = UART(self.divisor)
        m.d.comb += [uart.rx.eq(self.rx), self.tx.eq(uart.tx)]

        command = Signal(data.ArrayLayout(8, COMMAND_BYTES))
        received = Signal(range(COMMAND_BYTES + 1))
        reply = Signal(self.reply_shape)
        reply_bytes = self.reply_shape.as_shape().size // 8
        to_send = Signal(range(reply_bytes + 1))
        error = Signal()

        op, x, y = command[0], command[1], command[2]
        new_game = op[7]
        core = self.core(m, x, y)
        m.d.comb += [
            core.rules.cmd.eq(Mux(new_game, Command.NEW_GAME, Command.PLAY)),
            core.rules.move.x.eq(x),
            core.rules.move.y.eq(y),
            core.rules.move.symbol.as_value().eq(op[:2]),
        ]

        # Receive: shift bytes in until a command is complete, then hand it to the core.
        m.d.comb += uart.rx_stream.ready.eq(received != COMMAND_BYTES)
        with m.If(uart.rx_stream.valid & uart.rx_stream.ready):
            m.d.sync += [
                command.eq(Cat(command.as_value()[8:], uart.rx_stream.payload)),
                received.eq(received + 1),
            ]
        with m.If(
            (received == COMMAND_BYTES) & ~core.rules.busy & ~core.rules.done & (to_send == 0)
        ):
            with m.If(new_game | self.in_range(x, y)):
                m.d.comb += core.rules.cmd_valid.eq(1)
            with m.Else():
                m.d.sync += error.eq(1)
            m.d.sync += received.eq(0)

        # Reply: every output the player would read.
        with m.If(core.rules.done):
            m.d.sync += [
                reply.verdict.eq(core.rules.verdict),
                reply.outcome.eq(core.rules.outcome),
                reply.turn.eq(core.turn),
                reply.overflow.eq(core.overflow),
                reply.empty.eq(core.rules.box.empty),
                reply.box_x.eq(core.rules.box.x),
                reply.box_y.eq(core.rules.box.y),
                reply.box_w.eq(core.rules.box.w),
                reply.box_h.eq(core.rules.box.h),
                to_send.eq(reply_bytes),
                error.eq(core.rules.verdict != Verdict.LEGAL),
            ]
            for name, value in self.reply_fields(core).items():
                m.d.sync += getattr(reply, name).eq(value)
        m.d.comb += [
            uart.tx_stream.payload.eq(reply.as_value()[:8]),
            uart.tx_stream.valid.eq(to_send != 0),
        ]
        with m.If(uart.tx_stream.valid & uart.tx_stream.ready):
            m.d.sync += [reply.eq(reply.as_value()[8:]), to_send.eq(to_send - 1)]

        m.d.comb += self.leds.eq(
            Cat(
                ~core.rules.box.empty & (core.rules.outcome == Outcome.NONE),
                core.rules.busy,
                core.turn == Colour.WHITE,
                error,
            )
        )
        return m


class TrackProbe(_UartProbe):
    """A :class:`~trax_fpga.hdl.track_rules.TrackRules` torus of C x R cells driven over an 8N1
    UART (see the module for frames).

    Parameters
    ----------
    columns, rows : int
        The torus, powers of two from 8 to 256 (cells are one byte each on the line).
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
        (the last command was refused or out of the torus), as the player's LEDs.
    """

    reply_shape = TrackReply

    def __init__(self, columns: int, rows: int, clk_freq: float, baud: int = 19200):
        self.columns, self.rows = check_torus(columns, rows)
        if columns > 256 or rows > 256:
            raise ValueError(f"torus must be at most 256 x 256, not {columns} x {rows}")
        super().__init__(clk_freq, baud)

    def core(self, m, x, y):
        m.submodules.core = core = TrackRules(self.columns, self.rows)
        # While idle the core reads the command's cell: after the command it is the tile there.
        m.d.comb += [core.peek_x.eq(x), core.peek_y.eq(y), core.outside.eq(0)]
        return core

    def in_range(self, x, y):
        return (x < self.columns) & (y < self.rows)

    def reply_fields(self, core):
        return {"tiles": core.tiles, "cycles": core.cycles, "tile": core.peek_tile}
