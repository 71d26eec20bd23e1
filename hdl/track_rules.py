"""The rules of a game on the block-RAM board: new game, play, the verdict and the outcome.

The first design's commands and verdicts (a rules core over a window of cells, now in the git
history), on a :class:`~.track_board.TrackBoard` torus: the board finds loops and
lines as it places tiles, so a move costs its placements and nothing more.
"""

from amaranth import Module, Mux, Signal
from amaranth.lib import enum, wiring
from amaranth.lib.wiring import In, Out

from .track_board import (
    TrackBoard,
    TrackOp,
    box_eq,
    box_signature,
    check_torus,
    move_eq,
    move_signature,
)
from .types import Colour, Tile, Verdict

__all__ = ["Command", "Outcome", "TrackRules", "end_turn", "rules_signature"]


class Command(enum.Enum, shape=1):
    """A command to the rules of a game."""

    NEW_GAME = 0
    PLAY = 1


class Outcome(enum.Enum, shape=3):
    """How the game stands after the last move."""

    NONE = 0
    WHITE_LOOP = 1
    WHITE_LINE = 2
    BLACK_LOOP = 3
    BLACK_LINE = 4

    @property
    def text(self) -> str:
        """As the reference prints it: ``white-loop`` ... or ``none``."""
        return self.name.lower().replace("_", "-")


def rules_signature(columns: int, rows: int) -> wiring.Signature:
    """The rules of a game as the protocol engine drives them, on a C x R torus: a command
    (``NEW_GAME``, or ``PLAY`` of ``move``) held by ``cmd_valid`` until ``busy``; ``done`` pulses
    with the ``verdict`` and the ``outcome``; the ``box`` of the tiles in play (the
    :func:`~.track_board.move_signature` and :func:`~.track_board.box_signature` of the board).
    :class:`TrackRules` and :class:`~.track_game.TrackGame` answer it."""
    return wiring.Signature(
        {
            "cmd_valid": Out(1),
            "cmd": Out(Command),
            "move": Out(move_signature(columns, rows)),
            "busy": In(1),
            "done": In(1),
            "verdict": In(Verdict),
            "outcome": In(Outcome),
            "box": In(box_signature(columns, rows)),
        }
    )


def end_turn(m: Module, turn, outcome, wins) -> None:
    """In the clock a legal turn ends: set ``outcome`` from what it completed and pass the move.

    ``wins`` has ``white_loop``, ``white_line``, ``black_loop`` and ``black_line``. The mover wins
    if it completed a loop or line, even if the opponent did too; a loop is named before a line.
    """
    mover_white = turn == Colour.WHITE
    mover = [Mux(mover_white, wins.white_loop, wins.black_loop),
             Mux(mover_white, wins.white_line, wins.black_line)]  # fmt: skip
    other = [Mux(mover_white, wins.black_loop, wins.white_loop),
             Mux(mover_white, wins.black_line, wins.white_line)]  # fmt: skip
    loop_of = [Outcome.BLACK_LOOP, Outcome.WHITE_LOOP]
    line_of = [Outcome.BLACK_LINE, Outcome.WHITE_LINE]
    with m.If(mover[0]):
        m.d.sync += outcome.eq(Mux(mover_white, loop_of[1], loop_of[0]))
    with m.Elif(mover[1]):
        m.d.sync += outcome.eq(Mux(mover_white, line_of[1], line_of[0]))
    with m.Elif(other[0]):
        m.d.sync += outcome.eq(Mux(mover_white, loop_of[0], loop_of[1]))
    with m.Elif(other[1]):
        m.d.sync += outcome.eq(Mux(mover_white, line_of[0], line_of[1]))
    m.d.sync += turn.eq(Mux(mover_white, Colour.BLACK, Colour.WHITE))


class TrackRules(wiring.Component):
    """The rules of Trax on a C x R torus in block RAM, one command at a time.

    On ``rules``: ``cmd_valid`` with ``cmd`` = ``NEW_GAME`` empties the board (white to move);
    with ``PLAY`` plays ``move`` (a symbol at a torus cell). When ``done`` pulses,
    ``verdict`` says whether the move was legal (``OVERFLOW``: not judged, the box plus its ring
    would outgrow the torus; the board is unchanged) and ``outcome`` how the game stands; a move
    after a win is ``GAME_OVER``. If a turn completes a loop or line of both colours, the mover
    wins.

    Members
    -------
    rules : In(rules_signature(C, R))
        The command and its handshake, the verdict and the outcome, and the box of the tiles in
        play (torus cell of its min corner and size; ``empty``: none).
    outside : In(1)
        With a command: its cell is beyond the ring of the box, so not adjacent.
    turn : Out(Colour)
        The side to move.
    overflow : Out(1)
        Sticky until ``NEW_GAME``: a move was refused because the game outgrew the torus.
    tiles : Out(range(C * R + 1))
        Tiles the last move placed (its own and the forced ones).
    cycles : Out(16)
        Clocks of the last command, from ``cmd_valid`` to ``done``.
    peek_x, peek_y, peek_tile :
        Read one cell while idle (see :class:`~.track_board.TrackBoard`).
    """

    def __init__(self, columns: int, rows: int):
        self.columns, self.rows = check_torus(columns, rows)
        c, r = columns, rows
        super().__init__(
            {
                "rules": In(rules_signature(c, r)),
                "outside": In(1),
                "turn": Out(Colour, init=Colour.WHITE),
                "overflow": Out(1),
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
        rules = self.rules
        m.d.comb += [
            *move_eq(board.move, rules.move),
            board.outside.eq(self.outside),
            board.op.eq(Mux(rules.cmd == Command.NEW_GAME, TrackOp.NEW_GAME, TrackOp.PLAY)),
            board.peek_x.eq(self.peek_x),
            board.peek_y.eq(self.peek_y),
        ]
        for name in ("overflow", "tiles", "peek_tile"):
            m.d.comb += getattr(self, name).eq(getattr(board, name))
        m.d.comb += box_eq(rules.box, board.box)

        playing = Signal()  # the command in progress is PLAY (latched: cmd may change meanwhile)
        m.d.sync += rules.done.eq(0)
        with m.If(rules.busy):
            m.d.sync += self.cycles.eq(self.cycles + 1)

        def finish(verdict):
            m.d.sync += [rules.verdict.eq(verdict), rules.done.eq(1), rules.busy.eq(0)]

        with m.FSM(name="rules_fsm"):
            with m.State("IDLE"):
                with m.If(rules.cmd_valid):
                    m.d.sync += self.cycles.eq(1)
                    with m.If(rules.cmd == Command.NEW_GAME):
                        m.d.comb += board.start.eq(1)
                        m.d.sync += [
                            rules.outcome.eq(Outcome.NONE),
                            self.turn.eq(Colour.WHITE),
                            rules.busy.eq(1),
                            playing.eq(0),
                        ]
                        m.next = "BOARD"
                    with m.Elif(rules.outcome != Outcome.NONE):
                        finish(Verdict.GAME_OVER)
                    with m.Else():
                        m.d.comb += board.start.eq(1)
                        m.d.sync += [rules.busy.eq(1), playing.eq(1)]
                        m.next = "BOARD"
            with m.State("BOARD"):
                with m.If(board.done):
                    with m.If((board.verdict == Verdict.LEGAL) & playing):
                        end_turn(m, self.turn, rules.outcome, board)
                    finish(board.verdict)
                    m.next = "IDLE"
        return m
