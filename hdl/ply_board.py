"""A board for searching: a position plus a stack of moves played on it, each undone in one clock.

The search loads the game's position (the board planes and the box of
:class:`~.rules_core.RulesCore`), then plays and takes back moves on top of it. Every tile
carries the ply that placed it, as one W*H-bit plane per ply: taking a move back clears the
tiles of that plane from the board in one clock, and the box of every ply is kept in a stack.
A move is judged as by :class:`~.board.Board` (same checks, same verdicts, forced plays one
round per clock) and, when legal, the whole board is searched for loops and lines by
:class:`~.wins.WinDetector`.
"""

from amaranth import Cat, Const, Module, Mux, Signal
from amaranth.lib import data, enum, wiring
from amaranth.lib.wiring import In, Out

from .board import Verdict, grow_box, placement
from .legality import ArrayLegality, check_window
from .types import Symbol
from .wins import WinDetector

__all__ = ["PlyBoard", "PlyBoardOp"]


class PlyBoardOp(enum.Enum, shape=2):
    """What a ``start`` of the ply board does."""

    LOAD = 0  # take the position on the load_* inputs as ply 0
    PLAY = 1  # play a move as ply + 1
    UNDO = 2  # take back the move of the current ply


class PlyBoard(wiring.Component):
    """A position and up to ``depth`` moves played on it, with their verdicts and wins.

    Parameters
    ----------
    width, height : int
        The window size (the box plus its ring must fit, as for :class:`~.board.Board`).
    depth : int
        The most moves that can be stacked on the loaded position.

    Members
    -------
    start : In(1)
        Begin ``op`` (taken when ``busy`` is low).
    op : In(PlyBoardOp)
    x, y, symbol : In(...)
        The move of a ``PLAY``: window cell and symbol.
    load_white : In(ArrayLayout(W*H, 4))
        The position for ``LOAD`` (white-edge planes, as ``RulesCore.white``).
    load_box_x, load_box_y, load_box_w, load_box_h : In(...)
        Its box.
    judge_wins : In(1, init=1)
        Search a legal ``PLAY``'s board for loops and lines (0: skip it, the win flags are then
        stale; a perft leaf needs only the verdict).
    busy, done : Out(1)
        ``done`` pulses when the operation is over.
    verdict : Out(Verdict)
        Of the last ``PLAY``: ``LEGAL`` (then ``ply`` grew by one) or why not (the board is as it
        was). ``OVERFLOW``: the move would outgrow the window; it is refused, never misjudged.
    white_loop, white_line, black_loop, black_line : Out(1)
        After a legal ``PLAY``: the loops and lines on the board.
    settled : Out(1)
        One-clock pulse during a legal ``PLAY`` with ``judge_wins``: the forced plays are over
        and ``white``, ``ply`` and the box hold the move's position until the next ``start``
        (the win detection has just begun; a leaf evaluation can run beside it).
    ply : Out(range(depth + 1))
        Moves stacked on the loaded position.
    white, fit, frontier : Out(...)
        The board and its per-cell rules (for the move generator).
    box_x, box_y, box_w, box_h : Out(...)
        The box of the current ply.
    """

    def __init__(self, width: int, height: int, depth: int):
        self.width, self.height = check_window(width, height)
        if not isinstance(depth, int) or isinstance(depth, bool) or depth < 1:
            raise ValueError(f"depth must be a positive integer, not {depth!r}")
        self.depth = depth
        w, h, n = width, height, width * height
        super().__init__(
            {
                "start": In(1),
                "op": In(PlyBoardOp),
                "x": In(range(w)),
                "y": In(range(h)),
                "symbol": In(Symbol),
                "load_white": In(data.ArrayLayout(n, 4)),
                "load_box_x": In(range(w)),
                "load_box_y": In(range(h)),
                "load_box_w": In(range(w + 1)),
                "load_box_h": In(range(h + 1)),
                "judge_wins": In(1, init=1),
                "busy": Out(1),
                "done": Out(1),
                "verdict": Out(Verdict),
                "white_loop": Out(1),
                "white_line": Out(1),
                "black_loop": Out(1),
                "black_line": Out(1),
                "settled": Out(1),
                "ply": Out(range(depth + 1)),
                "white": Out(data.ArrayLayout(n, 4)),
                "fit": Out(data.ArrayLayout(n, 6)),
                "frontier": Out(n),
                "box_x": Out(range(w)),
                "box_y": Out(range(h)),
                "box_w": Out(range(w + 1)),
                "box_h": Out(range(h + 1)),
            }
        )

    def elaborate(self, platform):
        m = Module()
        w, h, n, depth = self.width, self.height, self.width * self.height, self.depth
        m.submodules.legality = legality = ArrayLegality(w, h)
        m.submodules.wins = wins = WinDetector(w, h)
        white = [self.white[d] for d in range(4)]
        m.d.comb += [
            legality.white.eq(self.white),
            self.fit.eq(legality.fit),
            self.frontier.eq(legality.frontier),
            wins.white.eq(self.white),
            wins.box_x.eq(self.box_x),
            wins.box_y.eq(self.box_y),
            wins.box_w.eq(self.box_w),
            wins.box_h.eq(self.box_h),
            self.white_loop.eq(wins.white_loop),
            self.white_line.eq(wins.white_line),
            self.black_loop.eq(wins.black_loop),
            self.black_line.eq(wins.black_line),
            self.settled.eq(wins.start),
        ]

        # The tiles of each ply (plane p-1 for ply p) and the box of each ply (entry p).
        placed = [Signal(n, name=f"placed_{p + 1}") for p in range(depth)]
        boxes = [
            [
                Signal.like(self.box_x, name=f"box{p}_x"),
                Signal.like(self.box_y, name=f"box{p}_y"),
                Signal.like(self.box_w, name=f"box{p}_w"),
                Signal.like(self.box_h, name=f"box{p}_h"),
            ]
            for p in range(depth + 1)
        ]
        box_now = [self.box_x, self.box_y, self.box_w, self.box_h]
        for p in range(depth + 1):
            with m.If(self.ply == p):
                m.d.comb += [out.eq(reg) for out, reg in zip(box_now, boxes[p], strict=True)]
        top = Signal(n)  # the plane of the ply being played (ply + 1)
        for p in range(depth):
            with m.If(self.ply == p):
                m.d.comb += top.eq(placed[p])
        undo_plane = Signal(n)  # the plane of the current ply
        for p in range(1, depth + 1):
            with m.If(self.ply == p):
                m.d.comb += undo_plane.eq(placed[p - 1])

        # --- the placement at (x, y), as in Board ------------------------------------------
        index = Signal(range(n))
        m.d.comb += index.eq(self.y * w + self.x)
        occupied = legality.occupied.bit_select(index, 1)
        frontier = legality.frontier.bit_select(index, 1)
        fit = Cat([legality.fit[i].bit_select(index, 1) for i in range(6)])
        white_first, black_first, place_tile = placement(m, fit, self.symbol)
        grown_x, grown_w = grow_box(m, self.x, self.box_x, self.box_w, w)
        grown_y, grown_h = grow_box(m, self.y, self.box_y, self.box_h, h)
        too_big = (grown_w + 2 > w) | (grown_h + 2 > h)

        selected = Signal(n)
        m.d.comb += selected.eq(Const(1, n) << index)
        place_tile_bits = place_tile.as_value()

        def set_top(value):
            for p in range(depth):
                with m.If(self.ply == p):
                    m.d.sync += placed[p].eq(value)

        # --- the sequence ----------------------------------------------------------------------
        m.d.sync += [self.done.eq(0), wins.start.eq(0)]

        def finish(verdict):
            m.d.sync += [self.verdict.eq(verdict), self.done.eq(1), self.busy.eq(0)]

        with m.FSM(name="ply_board_fsm"):
            with m.State("IDLE"):
                with m.If(self.start):
                    with m.Switch(self.op):
                        with m.Case(PlyBoardOp.LOAD):
                            m.d.sync += [self.white.eq(self.load_white), self.ply.eq(0)]
                            m.d.sync += [plane.eq(0) for plane in placed]
                            m.d.sync += [
                                boxes[0][0].eq(self.load_box_x),
                                boxes[0][1].eq(self.load_box_y),
                                boxes[0][2].eq(self.load_box_w),
                                boxes[0][3].eq(self.load_box_h),
                            ]
                            finish(Verdict.LEGAL)
                        with m.Case(PlyBoardOp.UNDO):
                            m.d.sync += [white[d].eq(white[d] & ~undo_plane) for d in range(4)]
                            for p in range(1, depth + 1):
                                with m.If(self.ply == p):
                                    m.d.sync += placed[p - 1].eq(0)
                            with m.If(self.ply != 0):
                                m.d.sync += self.ply.eq(self.ply - 1)
                            finish(Verdict.LEGAL)
                        with m.Case(PlyBoardOp.PLAY):
                            with m.If(self.ply == depth):
                                finish(Verdict.OVERFLOW)
                            with m.Elif(occupied):
                                finish(Verdict.OCCUPIED)
                            with m.Elif(~frontier):
                                finish(Verdict.NOT_ADJACENT)
                            with m.Elif(~(white_first | black_first)):
                                finish(Verdict.MISMATCH)
                            with m.Elif(too_big):
                                finish(Verdict.OVERFLOW)
                            with m.Else():
                                m.d.sync += [  # the 1-bit edge must cover the whole plane
                                    white[d].eq(white[d] | Mux(place_tile_bits[d], selected, 0))
                                    for d in range(4)
                                ]
                                set_top(selected)
                                for p in range(depth):
                                    with m.If(self.ply == p):
                                        m.d.sync += [
                                            boxes[p + 1][0].eq(grown_x),
                                            boxes[p + 1][1].eq(grown_y),
                                            boxes[p + 1][2].eq(grown_w),
                                            boxes[p + 1][3].eq(grown_h),
                                        ]
                                m.d.sync += self.busy.eq(1)
                                m.next = "FORCE"
            with m.State("FORCE"):
                with m.If(legality.any_dead | legality.conflict):
                    m.d.sync += [white[d].eq(white[d] & ~top) for d in range(4)]
                    set_top(0)
                    finish(Mux(legality.any_dead, Verdict.DEAD, Verdict.CONFLICT))
                    m.next = "IDLE"
                with m.Elif(legality.any_forced):
                    m.d.sync += [white[d].eq(white[d] | legality.tile[d]) for d in range(4)]
                    set_top(top | legality.forced)
                with m.Elif(self.judge_wins):
                    m.d.sync += [self.ply.eq(self.ply + 1), wins.start.eq(1)]
                    m.next = "WINS"
                with m.Else():
                    m.d.sync += self.ply.eq(self.ply + 1)
                    finish(Verdict.LEGAL)
                    m.next = "IDLE"
            with m.State("WINS"):
                with m.If(wins.done):
                    finish(Verdict.LEGAL)
                    m.next = "IDLE"
        return m
