"""Hardware perft: count the legal move sequences of a given length from a position.

A depth-first walk over a :class:`~.ply_board.PlyBoard` with one candidate cursor per ply, the
candidates from the :class:`~.movegen.MoveGenerator`. A won position has no children (as in the
reference engine's ``perft``); the moves of the last ply are only checked for legality (forced
plays included), not searched for wins, since a leaf counts the same either way.
"""

from amaranth import Module, Signal
from amaranth.lib import data, wiring
from amaranth.lib.wiring import In, Out

from .board import Verdict
from .legality import check_window
from .movegen import MoveGenerator
from .ply_board import PlyBoard, PlyBoardOp

__all__ = ["Perft"]


class Perft(wiring.Component):
    """Count the legal move sequences of ``depth`` plies from a loaded position.

    Parameters
    ----------
    width, height : int
        The window size.
    max_depth : int
        The deepest count.

    Members
    -------
    start : In(1)
        Pulse while ``busy`` is low: load the position on the inputs and count.
    depth : In(range(1, max_depth + 1))
    white, box_x, box_y, box_w, box_h : In(...)
        The position (as :class:`~.search.Search` takes it; not the empty board).
    busy, done : Out(1)
    count : Out(48)
        The number of sequences (held after ``done``).
    overflow : Out(1)
        Some move was refused because the game would outgrow the window: the count is short.
    cycles : Out(48)
        Clocks taken.
    """

    def __init__(self, width: int, height: int, max_depth: int):
        self.width, self.height = check_window(width, height)
        if not isinstance(max_depth, int) or isinstance(max_depth, bool) or max_depth < 1:
            raise ValueError(f"max_depth must be a positive integer, not {max_depth!r}")
        self.max_depth = max_depth
        w, h, n = width, height, width * height
        super().__init__(
            {
                "start": In(1),
                "depth": In(range(1, max_depth + 1)),
                "white": In(data.ArrayLayout(n, 4)),
                "box_x": In(range(w)),
                "box_y": In(range(h)),
                "box_w": In(range(w + 1)),
                "box_h": In(range(h + 1)),
                "busy": Out(1),
                "done": Out(1),
                "count": Out(48),
                "overflow": Out(1),
                "cycles": Out(48),
            }
        )

    def elaborate(self, platform):
        m = Module()
        w, h = self.width, self.height
        m.submodules.board = board = PlyBoard(w, h, self.max_depth)
        m.submodules.movegen = movegen = MoveGenerator(w, h)
        m.d.comb += [
            board.load_white.eq(self.white),
            board.load_box_x.eq(self.box_x),
            board.load_box_y.eq(self.box_y),
            board.load_box_w.eq(self.box_w),
            board.load_box_h.eq(self.box_h),
            movegen.fit.eq(board.fit),
            movegen.frontier.eq(board.frontier),
        ]
        # The board takes its move a clock after NEXT chose it, when the cursor has moved on.
        chosen_x = Signal.like(movegen.x)
        chosen_y = Signal.like(movegen.y)
        chosen_symbol = Signal.like(movegen.symbol)
        m.d.comb += [
            board.x.eq(chosen_x),
            board.y.eq(chosen_y),
            board.symbol.eq(chosen_symbol),
        ]
        cursor = [
            Signal(movegen.index_width + 1, name=f"cursor_{p}") for p in range(self.max_depth)
        ]
        cursor_here = Signal.like(cursor[0])
        for p, reg in enumerate(cursor):
            with m.If(board.ply == p):
                m.d.comb += cursor_here.eq(reg)
        m.d.comb += movegen.cursor.eq(cursor_here)

        def set_cursor(value, p=None):
            p = board.ply if p is None else p
            for i, reg in enumerate(cursor):
                with m.If(p == i):
                    m.d.sync += reg.eq(value)

        target = Signal.like(self.depth)
        last_ply = Signal()  # the move about to be played is at the last ply
        m.d.comb += last_ply.eq(board.ply + 1 == target)
        won = board.white_loop | board.white_line | board.black_loop | board.black_line
        m.d.comb += board.judge_wins.eq(~last_ply)

        m.d.sync += [board.start.eq(0), self.done.eq(0)]
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
                        board.op.eq(PlyBoardOp.LOAD),
                        board.start.eq(1),
                    ]
                    set_cursor(0, 0)
                    m.next = "LOAD"
            with m.State("LOAD"):
                with m.If(board.done):
                    m.next = "NEXT"
            with m.State("NEXT"):
                with m.If(~movegen.valid):
                    with m.If(board.ply == 0):
                        m.d.sync += [self.busy.eq(0), self.done.eq(1)]
                        m.next = "IDLE"
                    with m.Else():
                        m.d.sync += [board.op.eq(PlyBoardOp.UNDO), board.start.eq(1)]
                        m.next = "UNDO"
                with m.Else():
                    set_cursor(movegen.index + 1)
                    m.d.sync += [
                        chosen_x.eq(movegen.x),
                        chosen_y.eq(movegen.y),
                        chosen_symbol.eq(movegen.symbol),
                        board.op.eq(PlyBoardOp.PLAY),
                        board.start.eq(1),
                    ]
                    m.next = "PLAY"
            with m.State("PLAY"):
                with m.If(board.done):
                    with m.If(board.verdict == Verdict.OVERFLOW):
                        m.d.sync += self.overflow.eq(1)
                        m.next = "NEXT"
                    with m.Elif(board.verdict != Verdict.LEGAL):
                        m.next = "NEXT"
                    with m.Elif(board.ply == target):  # a leaf: count it, take it back
                        m.d.sync += [
                            self.count.eq(self.count + 1),
                            board.op.eq(PlyBoardOp.UNDO),
                            board.start.eq(1),
                        ]
                        m.next = "UNDO"
                    with m.Elif(won):  # a finished game has no children
                        m.d.sync += [board.op.eq(PlyBoardOp.UNDO), board.start.eq(1)]
                        m.next = "UNDO"
                    with m.Else():
                        set_cursor(0)
                        m.next = "NEXT"
            with m.State("UNDO"):
                with m.If(board.done):
                    m.next = "NEXT"
        return m
