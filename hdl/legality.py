"""What fits an empty cell, which cells are forced and which are dead: all cells in one clock.

What may go into an empty cell depends only on the colours its four neighbours present to it
(each edge: no neighbour, white or black; 3^4 = 81 cases). :func:`cell_rules` is that function,
written bit-parallel; :class:`CellLegality` applies it to one cell, :class:`ArrayLegality` to
every cell of a W x H window at once (one bit per cell, torus addressing: the east neighbour of
column W-1 is column 0), and also finds forced tiles that disagree on a shared edge.

A tile is encoded as in the reference engine (``trax_fpga.host.tiles``): the 4-bit mask of its
white edges, bit d for direction d (N=0, E=1, S=2, W=3). The value 0 (no white edge) is no tile,
so the same 4 bits also say whether a cell is empty.
"""

from amaranth import Cat, Module, Signal
from amaranth.lib import data, wiring
from amaranth.lib.wiring import In, Out

from .cell_rules import FIT_ORDER, cell_rules
from .planes import Planes
from .types import Tile

__all__ = [
    "FIT_ORDER",
    "ArrayLegality",
    "CellLegality",
    "Tile",
    "board_layout",
    "cell_rules",
    "check_window",
]

NORTH, EAST, SOUTH, WEST = 0, 1, 2, 3


def check_window(width: object, height: object) -> tuple[int, int]:
    """Validate a window size; the box plus its empty ring must fit in it at least once."""
    for name, value in (("width", width), ("height", height)):
        if not isinstance(value, int) or isinstance(value, bool) or value < 3:
            raise ValueError(f"window {name} must be an integer of at least 3, not {value!r}")
    return width, height


def board_layout(width: int, height: int, element) -> data.ArrayLayout:
    """A W x H array of ``element``, indexed ``[y][x]`` (rows of columns)."""
    return data.ArrayLayout(data.ArrayLayout(element, width), height)


class CellLegality(wiring.Component):
    """The rules for one empty cell, from the edges its neighbours present (combinational).

    Members
    -------
    known : In(4)
        Bit d: the cell has a neighbour in direction d.
    white : In(4)
        Bit d: that neighbour presents a white edge (only meaningful where ``known`` is set).
    fit : Out(6)
        Bit i: tile ``FIT_ORDER[i]`` matches every neighbour.
    forced : Out(1)
        Two edges of one colour enter and no three do: the cell must take ``tile``.
    tile : Out(Tile)
        The forced tile (the one joining the two same-colour edges), when ``forced``.
    dead : Out(1)
        Three or more edges of one colour enter: no tile can ever go there.
    """

    known: In(4)
    white: In(4)
    fit: Out(6)
    forced: Out(1)
    tile: Out(Tile)
    dead: Out(1)

    def elaborate(self, platform):
        m = Module()
        rules = cell_rules(list(self.known), list(self.white))
        m.d.comb += [
            self.fit.eq(Cat(rules["fit"])),
            self.dead.eq(rules["dead"]),
            self.forced.eq(rules["forced"]),
        ]
        with m.If(rules["forced"]):
            m.d.comb += self.tile.eq(Cat(rules["tile"]))
        return m


class ArrayLegality(wiring.Component):
    """The rules for every cell of a W x H window at once (combinational), torus-addressed.

    Every port is a plane (:mod:`.planes`): a W*H-bit vector whose bit ``y * W + x`` is window
    cell (x, y).

    Parameters
    ----------
    width, height : int
        The window size (at least 3 each).

    Members
    -------
    white : In(ArrayLayout(W*H, 4))
        The board: plane d has the cells whose tile is white on edge d (empty cells: none).
    occupied : Out(W*H)
        The cell holds a tile.
    frontier : Out(W*H)
        The cell is empty and shares an edge with a tile (a move may go there).
    fit : Out(ArrayLayout(W*H, 6))
        Plane i: tile ``FIT_ORDER[i]`` matches every neighbour of the empty cell.
    forced : Out(W*H)
        The empty cell must be filled (two edges of one colour enter it, no three).
    tile : Out(ArrayLayout(W*H, 4))
        The forced tiles, as white-edge planes (only where ``forced``).
    dead : Out(W*H)
        Three or more edges of one colour enter the empty cell.
    any_forced, any_dead : Out(1)
    conflict : Out(1)
        Two adjacent forced cells would present different colours on their shared edge (filling
        both at once would break the colour match; filling them one by one makes one dead).
    """

    def __init__(self, width: int, height: int):
        self.width, self.height = check_window(width, height)
        n = width * height
        super().__init__(
            {
                "white": In(data.ArrayLayout(n, 4)),
                "occupied": Out(n),
                "frontier": Out(n),
                "fit": Out(data.ArrayLayout(n, 6)),
                "forced": Out(n),
                "tile": Out(data.ArrayLayout(n, 4)),
                "dead": Out(n),
                "any_forced": Out(1),
                "any_dead": Out(1),
                "conflict": Out(1),
            }
        )

    def elaborate(self, platform):
        m = Module()
        planes = Planes(self.width, self.height)
        white = [self.white[d] for d in range(4)]
        occupied = self.occupied
        m.d.comb += occupied.eq(white[0] | white[1] | white[2] | white[3])
        empty = ~occupied
        known = [Signal.like(occupied, name=f"known_{'NESW'[d]}") for d in range(4)]
        facing = [Signal.like(occupied, name=f"facing_{'NESW'[d]}") for d in range(4)]
        for d in range(4):
            # The neighbour in direction d presents its edge d ^ 2 to this cell.
            m.d.comb += [
                known[d].eq(planes.from_neighbour(occupied, d)),
                facing[d].eq(planes.from_neighbour(white[d ^ 2], d)),
            ]
        rules = cell_rules(known, facing)
        m.d.comb += [
            self.frontier.eq(empty & (known[0] | known[1] | known[2] | known[3])),
            self.forced.eq(empty & rules["forced"]),
            self.dead.eq(empty & rules["dead"]),
        ]
        m.d.comb += [self.fit[i].eq(empty & rules["fit"][i]) for i in range(6)]
        m.d.comb += [self.tile[d].eq(self.forced & rules["tile"][d]) for d in range(4)]
        forced, tile = self.forced, [self.tile[d] for d in range(4)]
        east_pair = forced & planes.from_neighbour(forced, EAST)
        south_pair = forced & planes.from_neighbour(forced, SOUTH)
        m.d.comb += [
            self.any_forced.eq(forced.any()),
            self.any_dead.eq(self.dead.any()),
            self.conflict.eq(
                (east_pair & (tile[EAST] ^ planes.from_neighbour(tile[WEST], EAST))).any()
                | (south_pair & (tile[SOUTH] ^ planes.from_neighbour(tile[NORTH], SOUTH))).any()
            ),
        ]
        return m
