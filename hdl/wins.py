"""Loops and lines of both colours, by flooding every track at once, tile by tile each clock.

Method (chosen over the alternatives by cycles and area; see ``bench_rules``):
every occupied cell carries, per colour, three flags that spread along that colour's track one
tile per clock, in all tracks at the same time:

``open``
    seeded at every track end (a tile whose track leaves into an empty cell);
``west``
    seeded at track ends leaving the box through its west edge;
``north``
    seeded at track ends leaving the box through its north edge.

When no flag changes any more (at most the length of the longest track, plus two clocks):

- a tile that no open end reaches lies on a loop;
- a track end leaving through the east edge that the ``west`` flood reached is a line across
  a box at least 8 wide (likewise ``north`` reaching a south end, 8 tall).

The whole board is judged, not only the tracks through the new tiles: before the move there was
no loop or line (the game would be over), and a line of old tiles stays one only if the box kept
its extent on that axis, so every win found is one this turn completed.

Why this and not the alternatives. Clocks measured with ``python -m trax_fpga.sim.bench_rules``
(18x18 window, the 4,872 legal moves of the 277 human games); LUT4 per cell from yosys
``synth_ice40`` of this block alone in an 8x8 window:

==========================================  ===========  ============  ==========
win detection                               mean clocks  worst clocks  LUT4/cell
==========================================  ===========  ============  ==========
flood, 1 tile per clock, both colours       10.2         48            49
flood, 2 tiles per clock (``hops=2``)       6.3          25            63
flood, 3 tiles per clock (``hops=3``)       5.1          18
flood, one colour at a time (``serial``)    16.6         75            30
track tracing, model (lower bound)          16.4         136
==========================================  ===========  ============  ==========

Tracing tracks from each new tile (as the reference engine does) steps one tile per clock along
every track through the new tiles, both colours in turn: the *sum* of their lengths, and it
needs a W*H-to-1 read multiplexer. A table pairing the ends of every open track answers in O(1)
clocks per placed tile, but forced plays place up to 14 tiles per move, each needing its own
table update, with much more control logic; it was not built. The flood takes the *longest*
track in clocks, runs all tracks and both colours in parallel, and costs 6 flip-flops and a few
LUTs per cell with only nearest-neighbour wiring, which places and routes well at any window size;
``hops`` trades LUTs for clocks.
The flags are kept as W*H-bit planes (:mod:`.planes`): the same per-cell logic, written as wide
operations, which also makes amaranth.sim run it many times faster.
"""

from amaranth import Cat, Module, Mux, Signal
from amaranth.lib import data, wiring
from amaranth.lib.wiring import In, Out

from .legality import check_window
from .planes import Planes

__all__ = ["LINE_SPAN", "WinDetector", "check_hops"]

NORTH, EAST, SOUTH, WEST = 0, 1, 2, 3

#: A line needs a box at least this many tiles across (RULES.md).
LINE_SPAN = 8


def check_hops(hops: object) -> int:
    """Validate the tiles a flood covers per clock."""
    if not isinstance(hops, int) or isinstance(hops, bool) or hops < 1:
        raise ValueError(f"hops must be a positive integer, not {hops!r}")
    return hops


class WinDetector(wiring.Component):
    """Loops and lines of both colours on the whole board.

    Parameters
    ----------
    width, height : int
        The window size W x H.
    hops : int
        Tiles each flag spreads per clock (1 or more): fewer clocks, more logic per clock.
    serial : bool
        Flood the white tracks, then the black ones, with one set of flags: about half the
        logic, about twice the clocks.

    Members
    -------
    white : In(ArrayLayout(W*H, 4))
        The board as white-edge planes (see :class:`~trax_fpga.hdl.board.Board`), held steady
        from ``start`` to ``done``.
    box_x, box_y, box_w, box_h : In(...)
        The bounding box as kept by :class:`~trax_fpga.hdl.board.Board`.
    start : In(1)
        Begin a judgement (taken when ``busy`` is low).
    busy : Out(1)
    done : Out(1)
        One-clock pulse: the four results are valid (and held until the next ``start``).
    white_loop, white_line, black_loop, black_line : Out(1)
        A track of that colour is a loop / a line.
    cycles : Out(range(2 * W * H + 5))
        Clocks of the last judgement, ``start`` to ``done``.
    """

    def __init__(self, width: int, height: int, *, hops: int = 1, serial: bool = False):
        self.width, self.height = check_window(width, height)
        self.hops = check_hops(hops)
        self.serial = bool(serial)
        w, h = width, height
        super().__init__(
            {
                "white": In(data.ArrayLayout(w * h, 4)),
                "box_x": In(range(w)),
                "box_y": In(range(h)),
                "box_w": In(range(w + 1)),
                "box_h": In(range(h + 1)),
                "start": In(1),
                "busy": Out(1),
                "done": Out(1),
                "white_loop": Out(1),
                "white_line": Out(1),
                "black_loop": Out(1),
                "black_line": Out(1),
                "cycles": Out(range(2 * w * h + 5)),
            }
        )

    def elaborate(self, platform):
        m = Module()
        w, h = self.width, self.height
        planes = Planes(w, h)
        white = [self.white[d] for d in range(4)]
        occupied = Signal(w * h)
        m.d.comb += occupied.eq(white[NORTH] | white[EAST] | white[SOUTH] | white[WEST])

        # Which column/row is the box's west, east, north and south edge.
        east_x = Signal(range(w))
        south_y = Signal(range(h))
        ex = self.box_x + self.box_w - 1
        sy = self.box_y + self.box_h - 1
        m.d.comb += [
            east_x.eq(ex - w * (ex >= w)),
            south_y.eq(sy - h * (sy >= h)),
        ]
        west_col, east_col = Signal(w * h), Signal(w * h)
        north_row, south_row = Signal(w * h), Signal(w * h)
        m.d.comb += [
            west_col.eq(planes.column([self.box_x == x for x in range(w)])),
            east_col.eq(planes.column([east_x == x for x in range(w)])),
            north_row.eq(planes.row([self.box_y == y for y in range(h)])),
            south_row.eq(planes.row([south_y == y for y in range(h)])),
        ]
        wide = self.box_w >= LINE_SPAN
        tall = self.box_h >= LINE_SPAN
        empty_beside = [Signal(w * h, name=f"empty_{'NESW'[d]}") for d in range(4)]
        m.d.comb += [empty_beside[d].eq(~planes.from_neighbour(occupied, d)) for d in range(4)]

        reset = Signal()  # clear every flag (otherwise they spread by one tile every clock)
        black_pass = Signal()  # serial: the black pass (after the white one)

        def flood(name, edges):
            """The three floods along the tracks using ``edges``: (changed, loop, line)."""
            seeds = {
                "open": edges[0] & empty_beside[0]
                | edges[1] & empty_beside[1]
                | edges[2] & empty_beside[2]
                | edges[3] & empty_beside[3],
                "west": edges[WEST] & west_col,
                "north": edges[NORTH] & north_row,
            }
            flags, changed = {}, []
            for kind, seed in seeds.items():
                flag = Signal(w * h, name=f"{name}_{kind}")
                following = flag
                for hop in range(self.hops):
                    reached = seed | following
                    for d in range(4):
                        reached = reached | (edges[d] & planes.from_neighbour(following, d))
                    following = Signal(w * h, name=f"{name}_{kind}_hop{hop}")
                    m.d.comb += following.eq(occupied & reached)
                m.d.sync += flag.eq(Mux(reset, 0, following))
                changed.append((following ^ flag).any())
                flags[kind] = flag
            loop = (occupied & ~flags["open"]).any()
            line = (wide & (edges[EAST] & east_col & flags["west"]).any()) | (
                tall & (edges[SOUTH] & south_row & flags["north"]).any()
            )
            return Cat(changed).any(), loop, line

        def edge_planes(name, black):
            """Plane d: the track of this colour uses edge d of the cell's tile."""
            edges = [Signal(w * h, name=f"{name}_edge_{'NESW'[d]}") for d in range(4)]
            for d in range(4):
                black_edge = occupied & ~white[d]
                if black is None:
                    m.d.comb += edges[d].eq(Mux(black_pass, black_edge, white[d]))
                else:
                    m.d.comb += edges[d].eq(black_edge if black else white[d])
            return edges

        results = ("white_loop", "white_line", "black_loop", "black_line")
        m.d.sync += self.done.eq(0)
        if self.serial:
            changed, loop, line = flood("track", edge_planes("track", None))
            with m.FSM(name="wins_fsm"):
                with m.State("IDLE"), m.If(self.start):
                    m.d.comb += reset.eq(1)
                    m.d.sync += [self.busy.eq(1), self.cycles.eq(1), black_pass.eq(0)]
                    m.next = "FLOOD"
                with m.State("FLOOD"):
                    m.d.sync += self.cycles.eq(self.cycles + 1)
                    with m.If(~changed & ~black_pass):
                        m.d.comb += reset.eq(1)
                        m.d.sync += [
                            self.white_loop.eq(loop),
                            self.white_line.eq(line),
                            black_pass.eq(1),
                        ]
                    with m.If(~changed & black_pass):
                        m.d.sync += [
                            self.black_loop.eq(loop),
                            self.black_line.eq(line),
                            self.busy.eq(0),
                            self.done.eq(1),
                        ]
                        m.next = "IDLE"
            return m

        white_changed, *white_wins = flood("white", edge_planes("white", False))
        black_changed, *black_wins = flood("black", edge_planes("black", True))
        with m.FSM(name="wins_fsm"):
            with m.State("IDLE"), m.If(self.start):
                m.d.comb += reset.eq(1)
                m.d.sync += [self.busy.eq(1), self.cycles.eq(1)]
                m.next = "FLOOD"
            with m.State("FLOOD"):
                m.d.sync += self.cycles.eq(self.cycles + 1)
                with m.If(~white_changed & ~black_changed):
                    m.d.sync += [
                        getattr(self, name).eq(value)
                        for name, value in zip(results, white_wins + black_wins, strict=True)
                    ]
                    m.d.sync += [self.busy.eq(0), self.done.eq(1)]
                    m.next = "IDLE"
        return m
