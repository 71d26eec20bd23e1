"""The rules of one cell and of one placement: what fits, what is forced, which tile goes in.

What may go into an empty cell depends only on the colours its four neighbours present to it
(each edge: no neighbour, white or black; 3^4 = 81 cases). :func:`cell_rules` is that function,
written bit-parallel (one bit per cell, so it serves one cell or many). :func:`placement` picks
the variant of a symbol that fits, and :func:`grow_box` the box along one axis of the torus
after a tile.

A tile is encoded as in the reference engine (``trax_fpga.host.tiles``): the 4-bit mask of its
white edges, bit d for direction d (N=0, E=1, S=2, W=3); see :class:`~.types.Tile`.
"""

from amaranth import Module, Mux, Signal, Value
from amaranth.utils import ceil_log2

from .types import Symbol, Tile

__all__ = ["FIT_ORDER", "cell_rules", "grow_box", "placement"]

#: The placed tiles in the order of the bits of a fit mask: bit i is ``FIT_ORDER[i]``, the same
#: order as ``list(trax_fpga.host.tiles.Tile)``. Symbol s has its two variants at bits 2s
#: (white-first) and 2s+1 (black-first).
FIT_ORDER = (Tile.NS, Tile.EW, Tile.NW, Tile.SE, Tile.NE, Tile.SW)


def cell_rules(known: list[Value], white: list[Value]) -> dict:
    """The rules of empty cells from the edges their neighbours present, bit-parallel.

    ``known[d]`` and ``white[d]`` are equal-width values, one bit per cell: the cell has a
    neighbour in direction d, and that neighbour presents a white edge. Returns ``fit`` (six
    values, one per ``FIT_ORDER`` tile), ``forced``, ``tile`` (four values: the forced tile's
    white edges) and ``dead``; the caller masks out occupied cells.
    """
    whites = [white[d] & known[d] for d in range(4)]
    blacks = [known[d] & ~white[d] for d in range(4)]

    def at_least(bits, n):
        pairs = [(a, b) for a in range(4) for b in range(a + 1, 4)]
        if n == 2:
            terms = [bits[a] & bits[b] for a, b in pairs]
        else:
            terms = [bits[a] & bits[b] & bits[c] for a, b in pairs for c in range(b + 1, 4)]
        result = terms[0]
        for term in terms[1:]:
            result = result | term
        return result

    white3, black3 = at_least(whites, 3), at_least(blacks, 3)
    white2 = at_least(whites, 2) & ~white3
    black2 = at_least(blacks, 2) & ~black3
    dead = white3 | black3
    fit = []
    for tile in FIT_ORDER:
        match = None
        for d in range(4):
            # A white edge of the tile must not face black, a black edge must not face white.
            ok = ~blacks[d] if (tile.value >> d) & 1 else ~whites[d]
            match = ok if match is None else match & ok
        fit.append(match)
    return {
        "fit": fit,
        "forced": ~dead & (white2 | black2),
        "tile": [(white2 & whites[d]) | (~white2 & ~blacks[d]) for d in range(4)],
        "dead": dead,
    }


_WHITE_FIRST = {Symbol.CROSS: Tile.NS, Symbol.SLASH: Tile.NW, Symbol.BACKSLASH: Tile.NE}
_BLACK_FIRST = {Symbol.CROSS: Tile.EW, Symbol.SLASH: Tile.SE, Symbol.BACKSLASH: Tile.SW}


def placement(m: Module, fit, symbol, empty=0) -> tuple[Signal, Signal, Signal]:
    """The tile for ``symbol`` in a cell with fit mask ``fit``: (white_first fits, black_first
    fits, the tile to place: the white-first variant if it fits or the board is ``empty``)."""
    white_first = Signal()
    black_first = Signal()
    place_tile = Signal(Tile)
    with m.Switch(symbol):
        for s in Symbol:
            with m.Case(s):
                bit = 2 * s.value
                m.d.comb += [white_first.eq(fit[bit]), black_first.eq(fit[bit + 1])]
                with m.If(empty | white_first):
                    m.d.comb += place_tile.eq(_WHITE_FIRST[s])
                with m.Else():
                    m.d.comb += place_tile.eq(_BLACK_FIRST[s])
    return white_first, black_first, place_tile


def grow_box(m: Module, pos, lo, size, extent: int) -> tuple[Signal, Signal]:
    """The new (min, size) along one axis of the torus when a tile goes at ``pos``."""
    if extent & (extent - 1):
        offset = Mux(pos >= lo, pos - lo, pos + extent - lo)  # (pos - lo) mod extent
    else:  # a power of two: (pos - lo) mod extent is the difference's low bits
        offset = (pos - lo)[: ceil_log2(extent)]
    new_lo = Signal.like(lo, name=f"{lo.name}_grown")
    new_size = Signal.like(size, name=f"{size.name}_grown")
    m.d.comb += [new_lo.eq(lo), new_size.eq(size)]
    with m.If(offset == size):  # just past the max edge
        m.d.comb += new_size.eq(size + 1)
    with m.Elif(offset == extent - 1):  # just before the min edge
        m.d.comb += [new_lo.eq(pos), new_size.eq(size + 1)]
    return new_lo, new_size
