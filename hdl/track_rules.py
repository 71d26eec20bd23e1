"""The rules of a game on the block-RAM board: new game, play, the verdict and the outcome.

The same commands and verdicts as :class:`~.rules_core.RulesCore`, on a
:class:`~.track_board.TrackBoard` torus instead of a window of cells: the board finds loops and
lines as it places tiles, so a move costs its placements and nothing more.
"""

from amaranth import Module, Mux, Signal
from amaranth.lib import wiring
from amaranth.lib.wiring import In, Out

from .board import Verdict
from .legality import Tile
from .rules_core import Colour, Command, Outcome, end_turn
from .track_board import TrackBoard, TrackOp, check_torus
from .types import Symbol

__all__ = ["TrackRules"]


class TrackRules(wiring.Component):
    """The rules of Trax on a C x R torus in block RAM, one command at a time.

    ``cmd_valid`` with ``cmd`` = ``NEW_GAME`` empties the board (white to move); with ``PLAY``
    plays ``symbol`` at torus cell (``x``, ``y``). When ``done`` pulses, ``verdict`` says whether
    the move was legal (``OVERFLOW``: not judged, the box plus its ring would outgrow the torus;
    the board is unchanged) and ``outcome`` how the game stands; a move after a win is
    ``GAME_OVER``. If a turn completes a loop or line of both colours, the mover wins.

    Members
    -------
    cmd_valid, cmd, x, y, symbol, outside, busy, done, verdict, outcome, turn, overflow,
    box_x, box_y, box_w, box_h, empty :
        As for :class:`~.rules_core.RulesCore`.
    tiles : Out(range(C * R + 1))
        Tiles the last move placed (its own and the forced ones).
    cycles : Out(16)
        Clocks of the last command, counted as :class:`~.rules_core.RulesCore` counts them.
    peek_x, peek_y, peek_tile :
        Read one cell while idle (see :class:`~.track_board.TrackBoard`).
    """

    def __init__(self, columns: int, rows: int):
        self.columns, self.rows = check_torus(columns, rows)
        c, r = columns, rows
        super().__init__(
            {
                "cmd_valid": In(1),
                "cmd": In(Command),
                "x": In(range(c)),
                "y": In(range(r)),
                "symbol": In(Symbol),
                "outside": In(1),
                "busy": Out(1),
                "done": Out(1),
                "verdict": Out(Verdict),
                "outcome": Out(Outcome),
                "turn": Out(Colour, init=Colour.WHITE),
                "overflow": Out(1),
                "box_x": Out(range(c)),
                "box_y": Out(range(r)),
                "box_w": Out(range(c + 1)),
                "box_h": Out(range(r + 1)),
                "empty": Out(1),
                "tiles": Out(range(c * r + 1)),
                "cycles": Out(16),
                "peek_x": In(range(c)),
                "peek_y": In(range(r)),
                "peek_tile": Out(Tile),
            }
        )

    def elaborate(self, platform):
        m = Module()
        m.submodules.board = board = TrackBoard(self.columns, self.rows)
        m.d.comb += [
            board.x.eq(self.x),
            board.y.eq(self.y),
            board.symbol.eq(self.symbol),
            board.outside.eq(self.outside),
            board.op.eq(Mux(self.cmd == Command.NEW_GAME, TrackOp.NEW_GAME, TrackOp.PLAY)),
            board.peek_x.eq(self.peek_x),
            board.peek_y.eq(self.peek_y),
        ]
        for name in (
            "overflow", "box_x", "box_y", "box_w", "box_h", "empty", "tiles", "peek_tile",
        ):  # fmt: skip
            m.d.comb += getattr(self, name).eq(getattr(board, name))

        playing = Signal()  # the command in progress is PLAY (latched: cmd may change meanwhile)
        m.d.sync += self.done.eq(0)
        with m.If(self.busy):
            m.d.sync += self.cycles.eq(self.cycles + 1)

        def finish(verdict):
            m.d.sync += [self.verdict.eq(verdict), self.done.eq(1), self.busy.eq(0)]

        with m.FSM(name="rules_fsm"):
            with m.State("IDLE"):
                with m.If(self.cmd_valid):
                    m.d.sync += self.cycles.eq(1)
                    with m.If(self.cmd == Command.NEW_GAME):
                        m.d.comb += board.start.eq(1)
                        m.d.sync += [
                            self.outcome.eq(Outcome.NONE),
                            self.turn.eq(Colour.WHITE),
                            self.busy.eq(1),
                            playing.eq(0),
                        ]
                        m.next = "BOARD"
                    with m.Elif(self.outcome != Outcome.NONE):
                        finish(Verdict.GAME_OVER)
                    with m.Else():
                        m.d.comb += board.start.eq(1)
                        m.d.sync += [self.busy.eq(1), playing.eq(1)]
                        m.next = "BOARD"
            with m.State("BOARD"):
                with m.If(board.done):
                    with m.If((board.verdict == Verdict.LEGAL) & playing):
                        end_turn(m, self.turn, self.outcome, board)
                    finish(board.verdict)
                    m.next = "IDLE"
        return m
