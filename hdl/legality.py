"""What fits an empty cell, which cells are forced and which are dead: all cells in one clock.

What may go into an empty cell depends only on the colours its four neighbours present to it
(each edge: no neighbour, white or black; 3^4 = 81 cases). :class:`CellLegality` is that
function for one cell; :class:`ArrayLegality` applies it to every cell of a W x H window at once,
with torus addressing (the east neighbour of column W-1 is column 0), and also finds forced tiles
that disagree with each other on a shared edge.

A tile is encoded as in the reference engine (``trax_fpga.host.tiles``): the 4-bit mask of its
white edges, bit d for direction d (N=0, E=1, S=2, W=3). The value 0 (no white edge) is no tile,
so the same 4 bits also say whether a cell is empty.
"""

from amaranth import Cat, Const, Module
from amaranth.lib import data, enum, wiring
from amaranth.lib.wiring import In, Out

from .types import Symbol

__all__ = [
    "FIT_ORDER",
    "ArrayLegality",
    "CellLegality",
    "Tile",
    "board_layout",
    "cell_layout",
    "check_window",
    "variant_bits",
]

NORTH, EAST, SOUTH, WEST = 0, 1, 2, 3


class Tile(enum.Enum, shape=4):
    """A cell of the board: empty, or a placed tile valued as the mask of its white edges.

    The values are those of ``trax_fpga.host.tiles.Tile``; ``EMPTY`` is the mask with no white edge.
    """

    EMPTY = 0b0000
    NS = 0b0101  # '+' white N-S (white-first)
    EW = 0b1010  # '+' black-first
    NW = 0b1001  # '/' white N-W (white-first)
    SE = 0b0110  # '/' black-first
    NE = 0b0011  # '\' white N-E (white-first)
    SW = 0b1100  # '\' black-first


#: The placed tiles in the order of the bits of a fit mask: bit i is ``FIT_ORDER[i]``, the same
#: order as ``list(trax_fpga.host.tiles.Tile)``. Symbol s has its two variants at bits 2s
#: (white-first) and 2s+1 (black-first).
FIT_ORDER = (Tile.NS, Tile.EW, Tile.NW, Tile.SE, Tile.NE, Tile.SW)


def variant_bits(symbol: Symbol) -> tuple[int, int]:
    """The fit-mask bits of the (white-first, black-first) variants of ``symbol``."""
    return 2 * symbol.value, 2 * symbol.value + 1


def check_window(width: object, height: object) -> tuple[int, int]:
    """Validate a window size; the box plus its empty ring must fit in it at least once."""
    for name, value in (("width", width), ("height", height)):
        if not isinstance(value, int) or isinstance(value, bool) or value < 3:
            raise ValueError(f"window {name} must be an integer of at least 3, not {value!r}")
    return width, height


def board_layout(width: int, height: int, element) -> data.ArrayLayout:
    """A W x H array of ``element``, indexed ``[y][x]`` (rows of columns)."""
    return data.ArrayLayout(data.ArrayLayout(element, width), height)


#: What the rules say about one cell (meaningful for an empty cell).
cell_layout = data.StructLayout(
    {
        "fit": 6,  # bit i: FIT_ORDER[i] matches every neighbour
        "forced": 1,  # two edges of one colour enter: the cell must be filled
        "tile": Tile,  # the forced tile, when forced
        "dead": 1,  # three or more edges of one colour enter: the turn is illegal
    }
)


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
        white = self.white & self.known
        black = self.known & ~self.white

        def count(mask):
            return sum(mask[d] for d in range(4))  # 0..4, 3 bits

        whites = count(white)
        blacks = count(black)
        m.d.comb += [
            self.fit.eq(Cat([(Const(t.value, 4) & self.known) == white for t in FIT_ORDER])),
            self.dead.eq((whites >= 3) | (blacks >= 3)),
            self.forced.eq(~self.dead & ((whites == 2) | (blacks == 2))),
        ]
        with m.If(whites == 2):
            m.d.comb += self.tile.eq(white)
        with m.Elif(blacks == 2):
            m.d.comb += self.tile.eq(~black)
        return m


class ArrayLegality(wiring.Component):
    """The rules for every cell of a W x H window at once (combinational), torus-addressed.

    Parameters
    ----------
    width, height : int
        The window size (at least 3 each).

    Members
    -------
    tiles : In(board_layout(W, H, Tile))
        The board, ``tiles[y][x]``.
    cells : Out(board_layout(W, H, cell_layout))
        Per cell: fit mask, forced flag and tile, dead flag; all zero for an occupied cell.
    occupied : Out(board_layout(W, H, 1))
        The cell holds a tile.
    frontier : Out(board_layout(W, H, 1))
        The cell is empty and shares an edge with a tile (a move may go there).
    any_forced, any_dead : Out(1)
        Some empty cell is forced / dead.
    conflict : Out(1)
        Two adjacent forced cells would present different colours on their shared edge (filling
        both at once would break the colour match; filling them one by one makes one dead).
    """

    def __init__(self, width: int, height: int):
        self.width, self.height = check_window(width, height)
        super().__init__(
            {
                "tiles": In(board_layout(width, height, Tile)),
                "cells": Out(board_layout(width, height, cell_layout)),
                "occupied": Out(board_layout(width, height, 1)),
                "frontier": Out(board_layout(width, height, 1)),
                "any_forced": Out(1),
                "any_dead": Out(1),
                "conflict": Out(1),
            }
        )

    def elaborate(self, platform):
        m = Module()
        w, h = self.width, self.height

        def tile(x, y):
            return self.tiles[y % h][x % w].as_value()

        forced, dead, conflicts = [], [], []
        for y in range(h):
            for x in range(w):
                cell = CellLegality()
                m.submodules[f"cell_{x}_{y}"] = cell
                here = tile(x, y)
                occupied = here.any()
                # The edge each neighbour presents: N neighbour's S edge, E's W, S's N, W's E.
                faces = [
                    tile(x, y - 1)[SOUTH],
                    tile(x + 1, y)[WEST],
                    tile(x, y + 1)[NORTH],
                    tile(x - 1, y)[EAST],
                ]
                known = [
                    tile(x, y - 1).any(),
                    tile(x + 1, y).any(),
                    tile(x, y + 1).any(),
                    tile(x - 1, y).any(),
                ]
                out = self.cells[y][x]
                m.d.comb += [
                    cell.known.eq(Cat(known)),
                    cell.white.eq(Cat(faces)),
                    self.occupied[y][x].eq(occupied),
                    self.frontier[y][x].eq(~occupied & Cat(known).any()),
                ]
                with m.If(~occupied):
                    m.d.comb += [
                        out.fit.eq(cell.fit),
                        out.forced.eq(cell.forced),
                        out.tile.eq(cell.tile),
                        out.dead.eq(cell.dead),
                    ]
                forced.append(out.forced)
                dead.append(out.dead)

        # Two forced cells side by side must agree on their shared edge (checked E and S once).
        for y in range(h):
            for x in range(w):
                here = self.cells[y][x]
                east = self.cells[y][(x + 1) % w]
                south = self.cells[(y + 1) % h][x]
                t = here.tile.as_value()
                conflicts.append(
                    here.forced & east.forced & (t[EAST] != east.tile.as_value()[WEST])
                )
                conflicts.append(
                    here.forced & south.forced & (t[SOUTH] != south.tile.as_value()[NORTH])
                )
        m.d.comb += [
            self.any_forced.eq(Cat(forced).any()),
            self.any_dead.eq(Cat(dead).any()),
            self.conflict.eq(Cat(conflicts).any()),
        ]
        return m
