"""Hardware perft on the block-RAM board: count the legal move sequences of a given length.

A depth-first walk over the board's own commands (:class:`~.track_board.TrackBoard`):
``COMPACT`` at the root, then at each ply ``CANDIDATE`` from that ply's cursor, ``PLY`` and
``UNDO``. A won position has no children, as in the reference engine's ``Position.perft``
(:mod:`trax_fpga.host.position`).
"""

from amaranth import Module, Signal
from amaranth.lib import wiring
from amaranth.lib.wiring import In, Out

from .track_board import (
    TrackBoard,
    TrackOp,
    check_torus,
    cursor_layout,
    game_port_answers,
    game_port_commands,
    game_port_signature,
    move_eq,
    move_layout,
)
from .types import Verdict

__all__ = ["TrackPerft"]


class TrackPerft(wiring.Component):
    """A game on a C x R block-RAM torus, and the count of its legal move sequences.

    The game's moves are played on the board through the game port while the counter is idle;
    ``start`` counts from that position (at least one tile: from the empty board the first
    move is fixed by the rules, and the caller sums over ``@0+`` and ``@0/``). The count
    equals ``Position.perft(depth)`` of the reference engine unless ``overflow`` is set.

    Parameters
    ----------
    columns, rows : int
        The torus (powers of two, at least 8).
    max_depth : int
        The deepest count (the board stacks that many plies).

    Members
    -------
    game : Out(game_port_signature(C, R))
        A command for the board while the counter is idle (``NEW_GAME`` or ``PLAY``; see
        :class:`~.track_board.TrackBoard`), the board's handshake, verdict and box (the game's,
        while the counter is idle).
    start : In(1)
        Pulse while idle: count the sequences of ``depth`` plies.
    depth : In(range(1, max_depth + 1))
    busy, done : Out(1)
    count : Out(48)
        The number of sequences (held after ``done``).
    overflow : Out(1)
        Some ply was refused because the game would outgrow the torus: the count is short.
    cycles : Out(48)
        Clocks taken.
    """

    def __init__(self, columns: int, rows: int, max_depth: int):
        self.columns, self.rows = check_torus(columns, rows)
        if not isinstance(max_depth, int) or isinstance(max_depth, bool) or max_depth < 1:
            raise ValueError(f"max_depth must be a positive integer, not {max_depth!r}")
        self.max_depth = max_depth
        c, r = columns, rows
        super().__init__(
            {
                "game": Out(game_port_signature(c, r)),
                "start": In(1),
                "depth": In(range(1, max_depth + 1)),
                "busy": Out(1),
                "done": Out(1),
                "count": Out(48),
                "overflow": Out(1),
                "cycles": Out(48),
            }
        )

    def elaborate(self, platform):
        m = Module()
        c, r, max_depth = self.columns, self.rows, self.max_depth
        m.submodules.board = board = TrackBoard(c, r, plies=max_depth)

        game_port_answers(m, self.game, board)

        # One candidate cursor per ply: where the node at that ply asks for its next move.
        cursors = [Signal(cursor_layout(c, r), name=f"cursor_{p}") for p in range(max_depth)]
        cursor_here = Signal(cursor_layout(c, r))
        for p, reg in enumerate(cursors):
            with m.If(board.ply == p):
                m.d.comb += cursor_here.eq(reg)

        def set_cursor(value):
            for p, reg in enumerate(cursors):
                with m.If(board.ply == p):
                    m.d.sync += reg.eq(value)

        move = Signal(move_layout(c, r))  # the move being played
        target = Signal.like(self.depth)
        walking = Signal()  # the board takes the counter's commands, not the game port's
        op = Signal(TrackOp)
        go = Signal()
        with m.If(walking):
            m.d.comb += [
                board.start.eq(go),
                board.op.eq(op),
                *move_eq(board.move, move),
                board.cursor.eq(cursor_here),
            ]
        with m.Else():
            game_port_commands(m, board, self.game)

        def command(what):
            m.d.sync += [op.eq(what), go.eq(1)]

        won = board.white_loop | board.white_line | board.black_loop | board.black_line

        m.d.sync += [go.eq(0), self.done.eq(0)]
        with m.If(self.busy):
            m.d.sync += self.cycles.eq(self.cycles + 1)
        with m.FSM(name="perft_fsm"):
            with m.State("IDLE"):
                with m.If(self.start):
                    m.d.sync += [
                        self.busy.eq(1),
                        self.count.eq(0),
                        self.cycles.eq(0),
                        self.overflow.eq(0),
                        target.eq(self.depth),
                        walking.eq(1),
                        cursors[0].eq(0),
                    ]
                    command(TrackOp.COMPACT)
                    m.next = "WAIT"
            with m.State("WAIT"):  # COMPACT or UNDO: then the next candidate of the ply
                with m.If(board.done):
                    command(TrackOp.CANDIDATE)
                    m.next = "CANDIDATE"
            with m.State("CANDIDATE"):
                with m.If(board.done):
                    with m.If(board.found):
                        set_cursor(board.next_cursor)
                        m.d.sync += move_eq(move, board.cand)
                        command(TrackOp.PLY)
                        m.next = "PLAY"
                    with m.Elif(board.ply == 0):
                        m.next = "FINISH"
                    with m.Else():  # the node is done: back to its parent
                        command(TrackOp.UNDO)
                        m.next = "WAIT"
            with m.State("PLAY"):
                with m.If(board.done):
                    with m.If(board.verdict != Verdict.LEGAL):
                        with m.If(board.verdict == Verdict.OVERFLOW):
                            m.d.sync += self.overflow.eq(1)
                        command(TrackOp.CANDIDATE)
                        m.next = "CANDIDATE"
                    with m.Elif(board.ply == target):  # a leaf: count it, take it back
                        m.d.sync += self.count.eq(self.count + 1)
                        command(TrackOp.UNDO)
                        m.next = "WAIT"
                    with m.Elif(won):  # a finished game has no children
                        command(TrackOp.UNDO)
                        m.next = "WAIT"
                    with m.Else():  # a node one ply deeper: its first candidate
                        set_cursor(0)
                        command(TrackOp.CANDIDATE)
                        m.next = "CANDIDATE"
            with m.State("FINISH"):
                m.d.sync += [walking.eq(0), self.busy.eq(0), self.done.eq(1)]
                m.next = "IDLE"
        return m
