"""The board: a W x H window of cells, the bounding box, and one move with its forced plays.

The unbounded game maps onto the window as a torus: board cell (x, y) of the reference engine
(``trax_fpga.host.position``; the first tile at (0, 0)) lives in window cell (x mod W, y mod H).
The bounding box is kept as registers (window coordinates of its min corner, width and height),
so the array never shifts when the game grows.

The window is exact as long as the box plus its empty ring of frontier cells fits in it
(width + 2 <= W and height + 2 <= H): then every cell next to a tile sees its true neighbours.
A move that would grow the box beyond that is not judged: it gets the verdict ``OVERFLOW``, the
board is left as it was and the sticky ``overflow`` flag is raised. Forced tiles never fall
outside the box, so only the placed tile can grow it (by one row or one column).
"""

from amaranth import Cat, Module, Signal
from amaranth.lib import data, enum, wiring
from amaranth.lib.wiring import In, Out

from .cell_rules import grow_box, placement
from .legality import ArrayLegality, board_layout, check_window
from .planes import Planes
from .types import Symbol, Tile, Verdict

__all__ = ["Board", "BoardOp", "Verdict", "grow_box", "placement"]


class BoardOp(enum.Enum, shape=1):
    """What a ``start`` of the board does."""

    NEW_GAME = 0
    PLAY = 1


class Board(wiring.Component):
    """The window of cells, the box, and the application of one move with its forced plays.

    A ``start`` with ``op`` = ``PLAY`` puts the tile for ``symbol`` at window cell (``x``, ``y``)
    (the colour variant chosen from the neighbours), then fills every forced cell at once, one
    round per clock, until none is left; a dead cell or two disagreeing forced tiles at any round
    make the move illegal and every tile of the turn is taken back in one clock. ``NEW_GAME``
    empties the window. The first tile must be ``+`` or ``/`` at (0, 0), white-first.

    Parameters
    ----------
    width, height : int
        The window size W x H (at least 3 each).

    Members
    -------
    start : In(1)
        Begin ``op`` (taken when ``busy`` is low).
    op : In(BoardOp)
    x, y : In(range(W)), In(range(H))
        The window cell of the move.
    symbol : In(Symbol)
    outside : In(1)
        The move names a cell beyond the ring around the box (the notation decoder's
        ``outside``): it touches no tile (on the empty board: it is not the first move's cell);
        ``x`` and ``y`` are then ignored.
    busy : Out(1)
        High from the clock after ``start`` until ``done``.
    done : Out(1)
        One-clock pulse: ``verdict`` (and the board, box and ``rounds``) are up to date.
    verdict : Out(Verdict)
        Held until the next ``start``.
    rounds : Out(range(W * H))
        Forced-play rounds of the last move (clocks in which forced tiles were filled).
    white : Out(ArrayLayout(W*H, 4))
        The board as planes (bit ``y * W + x`` is window cell (x, y), see :mod:`.planes`):
        plane d has the cells whose tile is white on edge d.
    tiles : Out(board_layout(W, H, Tile))
        The same board as tiles, ``tiles[y][x]``.
    new : Out(W*H)
        The tiles placed by the last legal move (its own tile and the forced ones).
    occupied, frontier : Out(W*H)
        Cells holding a tile; empty cells next to a tile (see :class:`ArrayLegality`).
    fit : Out(ArrayLayout(W*H, 6))
        Plane i: tile ``FIT_ORDER[i]`` matches every neighbour of the empty cell.
    empty : Out(1)
        No tile on the board (the box is then meaningless).
    box_x, box_y : Out(range(W)), Out(range(H))
        Window cell of the box's min (north-west) corner.
    box_w, box_h : Out(range(W + 1)), Out(range(H + 1))
        Size of the box in tiles.
    overflow : Out(1)
        Sticky until ``NEW_GAME``: a move was refused because the game outgrew the window.
    """

    def __init__(self, width: int, height: int):
        self.width, self.height = check_window(width, height)
        w, h = width, height
        n = w * h
        super().__init__(
            {
                "start": In(1),
                "op": In(BoardOp),
                "x": In(range(w)),
                "y": In(range(h)),
                "symbol": In(Symbol),
                "outside": In(1),
                "busy": Out(1),
                "done": Out(1),
                "verdict": Out(Verdict),
                "rounds": Out(range(n)),
                "white": Out(data.ArrayLayout(n, 4)),
                "tiles": Out(board_layout(w, h, Tile)),
                "new": Out(n),
                "occupied": Out(n),
                "frontier": Out(n),
                "fit": Out(data.ArrayLayout(n, 6)),
                "empty": Out(1, init=1),
                "box_x": Out(range(w)),
                "box_y": Out(range(h)),
                "box_w": Out(range(w + 1)),
                "box_h": Out(range(h + 1)),
                "overflow": Out(1),
            }
        )

    def elaborate(self, platform):
        m = Module()
        w, h = self.width, self.height
        n = w * h
        planes = Planes(w, h)
        m.submodules.legality = legality = ArrayLegality(w, h)
        white = [self.white[d] for d in range(4)]
        m.d.comb += [
            legality.white.eq(self.white),
            self.occupied.eq(legality.occupied),
            self.frontier.eq(legality.frontier),
            self.fit.eq(legality.fit),
        ]
        for y in range(h):
            for x in range(w):
                m.d.comb += self.tiles[y][x].eq(Cat([white[d][y * w + x] for d in range(4)]))

        # --- the placement: checks on the addressed cell, and the box it would give -----------
        index = Signal(range(n))
        m.d.comb += index.eq(self.y * w + self.x)
        occupied = legality.occupied.bit_select(index, 1)
        frontier = legality.frontier.bit_select(index, 1)
        fit = Cat([legality.fit[i].bit_select(index, 1) for i in range(6)])
        white_first, black_first, place_tile = placement(m, fit, self.symbol, self.empty)
        grown_x, grown_w = grow_box(m, self.x, self.box_x, self.box_w, w)
        grown_y, grown_h = grow_box(m, self.y, self.box_y, self.box_h, h)
        too_big = (grown_w + 2 > w) | (grown_h + 2 > h)

        pending_x = Signal.like(self.box_x)
        pending_y = Signal.like(self.box_y)
        pending_w = Signal.like(self.box_w)
        pending_h = Signal.like(self.box_h)

        # --- plane updates ----------------------------------------------------------------------
        clear = Signal()  # NEW_GAME
        place = Signal()  # put the player's tile at (x, y)
        fill = Signal()  # fill every forced cell (one round)
        rollback = Signal()  # take back every tile of this turn
        selected = Signal(n)  # a row decoder AND a column decoder (no W*H-wide shifter)
        m.d.comb += selected.eq(
            planes.column([self.x == x for x in range(w)])
            & planes.row([self.y == y for y in range(h)])
        )
        with m.If(clear):
            m.d.sync += [self.white.eq(0), self.new.eq(0)]
        with m.Elif(place):
            m.d.sync += self.new.eq(selected)
            bits = place_tile.as_value()
            m.d.sync += [
                white[d].eq(white[d] | (selected & bits[d].replicate(n))) for d in range(4)
            ]
        with m.Elif(fill):
            m.d.sync += self.new.eq(self.new | legality.forced)
            m.d.sync += [white[d].eq(white[d] | legality.tile[d]) for d in range(4)]
        with m.Elif(rollback):
            m.d.sync += self.new.eq(0)
            m.d.sync += [white[d].eq(white[d] & ~self.new) for d in range(4)]

        # --- the sequence ---------------------------------------------------------------------
        m.d.sync += self.done.eq(0)

        def finish(verdict):
            m.d.sync += [self.verdict.eq(verdict), self.done.eq(1), self.busy.eq(0)]

        with m.FSM(name="board_fsm"):
            with m.State("IDLE"), m.If(self.start):
                with m.If(self.op == BoardOp.NEW_GAME):
                    m.d.comb += clear.eq(1)
                    m.d.sync += [
                        self.empty.eq(1),
                        self.overflow.eq(0),
                        self.rounds.eq(0),
                        self.box_x.eq(0),
                        self.box_y.eq(0),
                        self.box_w.eq(0),
                        self.box_h.eq(0),
                    ]
                    finish(Verdict.LEGAL)
                with m.Elif(self.empty):
                    first_ok = (
                        ~self.outside
                        & (self.x == 0)
                        & (self.y == 0)
                        & ((self.symbol == Symbol.CROSS) | (self.symbol == Symbol.SLASH))
                    )
                    with m.If(first_ok):
                        m.d.comb += place.eq(1)
                        m.d.sync += [
                            pending_x.eq(0),
                            pending_y.eq(0),
                            pending_w.eq(1),
                            pending_h.eq(1),
                            self.rounds.eq(0),
                            self.busy.eq(1),
                        ]
                        m.next = "FORCE"
                    with m.Else():
                        finish(Verdict.FIRST_MOVE)
                with m.Elif(self.outside):
                    finish(Verdict.NOT_ADJACENT)
                with m.Elif(occupied):
                    finish(Verdict.OCCUPIED)
                with m.Elif(~frontier):
                    finish(Verdict.NOT_ADJACENT)
                with m.Elif(~(white_first | black_first)):
                    finish(Verdict.MISMATCH)
                with m.Elif(too_big):
                    m.d.sync += self.overflow.eq(1)
                    finish(Verdict.OVERFLOW)
                with m.Else():
                    m.d.comb += place.eq(1)
                    m.d.sync += [
                        pending_x.eq(grown_x),
                        pending_y.eq(grown_y),
                        pending_w.eq(grown_w),
                        pending_h.eq(grown_h),
                        self.rounds.eq(0),
                        self.busy.eq(1),
                    ]
                    m.next = "FORCE"
            with m.State("FORCE"):
                with m.If(legality.any_dead):
                    m.d.comb += rollback.eq(1)
                    finish(Verdict.DEAD)
                    m.next = "IDLE"
                with m.Elif(legality.conflict):
                    m.d.comb += rollback.eq(1)
                    finish(Verdict.CONFLICT)
                    m.next = "IDLE"
                with m.Elif(legality.any_forced):
                    m.d.comb += fill.eq(1)
                    m.d.sync += self.rounds.eq(self.rounds + 1)
                with m.Else():
                    m.d.sync += [
                        self.box_x.eq(pending_x),
                        self.box_y.eq(pending_y),
                        self.box_w.eq(pending_w),
                        self.box_h.eq(pending_h),
                        self.empty.eq(0),
                    ]
                    finish(Verdict.LEGAL)
                    m.next = "IDLE"
        return m
