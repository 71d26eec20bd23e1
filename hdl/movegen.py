"""Move generation: the next candidate move at or after a cursor, one per clock.

A candidate is an empty cell next to a tile (the frontier) with a symbol one of whose two colour
variants fits every neighbour. Candidates are numbered in window order, with the fields of the
index as bit slices: ``index = (y << (XB + 2)) | (x << 2) | symbol``, where XB is the number of
bits of a column (slots that name no cell or symbol never hold a candidate). Whether a candidate
is fully legal (its forced plays may end in a dead cell) is found by playing it; the candidates
are a superset of the legal moves, and every legal move is a candidate.

The search keeps one cursor per ply: ask for the first candidate at or after the cursor, try it,
then ask again from its index plus one. The cursor's thermometer is built from one comparator
per row, per column and per symbol (not per cell), and the first set bit is found by a balanced
tree.
"""

from amaranth import Cat, Const, Module, Mux, Signal
from amaranth.lib import data, wiring
from amaranth.lib.wiring import In, Out

from .legality import check_window
from .types import Symbol

__all__ = ["MoveGenerator", "candidate_index", "index_bits"]

SYMBOLS = 3
SYMBOL_BITS = 2


def index_bits(width: int, height: int) -> tuple[int, int]:
    """The bits of a column and of a row in a candidate index."""
    return max(1, (width - 1).bit_length()), max(1, (height - 1).bit_length())


def candidate_index(width: int, height: int, x: int, y: int, symbol: int) -> int:
    """The index of candidate (x, y, symbol) in window order."""
    xb, _ = index_bits(width, height)
    return (y << (xb + SYMBOL_BITS)) | (x << SYMBOL_BITS) | symbol


def first_set(m: Module, bits: list) -> tuple[Signal, Signal]:
    """A balanced tree finding the first set bit: ``(any, index)`` signals.

    Every node of the tree is a named signal, so the netlist (and the generated Verilog) stays
    linear in the number of bits rather than repeating each subtree in its parents.
    """
    nodes = [(bit, Cat()) for bit in bits]
    level = 0
    while len(nodes) > 1:
        if len(nodes) % 2:
            nodes.append((Const(0, 1), Const(0, len(nodes[0][1]))))
        merged = []
        for i, ((lo_any, lo_idx), (hi_any, hi_idx)) in enumerate(
            zip(nodes[0::2], nodes[1::2], strict=True)
        ):
            any_ = Signal(name=f"ffs{level}_{i}_any")
            index = Signal(level + 1, name=f"ffs{level}_{i}_index")
            m.d.comb += [
                any_.eq(lo_any | hi_any),
                index.eq(Cat(Mux(lo_any, lo_idx, hi_idx), ~lo_any)),
            ]
            merged.append((any_, index))
        nodes = merged
        level += 1
    return nodes[0]


class MoveGenerator(wiring.Component):
    """The first candidate move at or after ``cursor`` (combinational).

    Parameters
    ----------
    width, height : int
        The window size.

    Members
    -------
    fit : In(ArrayLayout(W*H, 6))
        Fit planes (bit ``y * W + x`` of plane i: tile ``FIT_ORDER[i]`` fits), as
        :class:`~.legality.ArrayLegality` gives them.
    frontier : In(W*H)
        The plane of empty cells next to a tile.
    cursor : In(index bits + 1)
        Look at candidates with an index at least this (the top value means "none left").
    valid : Out(1)
        There is such a candidate; then ``index``, ``x``, ``y`` and ``symbol`` name it.
    index : Out(index bits)
    x, y : Out(range(W)), Out(range(H))
    symbol : Out(Symbol)
    """

    def __init__(self, width: int, height: int):
        self.width, self.height = check_window(width, height)
        xb, yb = index_bits(width, height)
        self.index_width = yb + xb + SYMBOL_BITS
        super().__init__(
            {
                "fit": In(data.ArrayLayout(width * height, 6)),
                "frontier": In(width * height),
                "cursor": In(self.index_width + 1),
                "valid": Out(1),
                "index": Out(self.index_width),
                "x": Out(range(width)),
                "y": Out(range(height)),
                "symbol": Out(Symbol),
            }
        )

    def elaborate(self, platform):
        m = Module()
        w, h = self.width, self.height
        xb, yb = index_bits(w, h)
        cursor_symbol = self.cursor[:SYMBOL_BITS]
        cursor_x = self.cursor[SYMBOL_BITS : SYMBOL_BITS + xb]
        cursor_y = self.cursor[SYMBOL_BITS + xb :]  # one bit wider: the top value is past all

        # A thermometer from one comparator per row, per column and per symbol.
        row_after = Signal(h)
        row_at = Signal(h)
        col_after = Signal(w)
        col_at = Signal(w)
        symbol_from = Signal(SYMBOLS)
        m.d.comb += [row_after[y].eq(cursor_y < y) for y in range(h)]
        m.d.comb += [row_at[y].eq(cursor_y == y) for y in range(h)]
        m.d.comb += [col_after[x].eq(cursor_x < x) for x in range(w)]
        m.d.comb += [col_at[x].eq(cursor_x == x) for x in range(w)]
        m.d.comb += [symbol_from[s].eq(cursor_symbol <= s) for s in range(SYMBOLS)]

        live = []
        for y in range(1 << yb):
            for x in range(1 << xb):
                for s in range(1 << SYMBOL_BITS):
                    if y >= h or x >= w or s >= SYMBOLS:
                        live.append(Const(0, 1))
                        continue
                    i = y * w + x
                    candidate = self.frontier[i] & (self.fit[2 * s][i] | self.fit[2 * s + 1][i])
                    at_or_after = (
                        row_after[y]
                        | (row_at[y] & col_after[x])
                        | (row_at[y] & col_at[x] & symbol_from[s])
                    )
                    live.append(candidate & at_or_after)
        any_, index = first_set(m, live)
        m.d.comb += [
            self.valid.eq(any_),
            self.index.eq(index),
            self.symbol.eq(index[:SYMBOL_BITS]),
            self.x.eq(index[SYMBOL_BITS : SYMBOL_BITS + xb]),
            self.y.eq(index[SYMBOL_BITS + xb :]),
        ]
        return m
