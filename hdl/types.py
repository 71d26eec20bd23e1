"""Small enums shared by the gateware blocks, so that every block names things the same way."""

from __future__ import annotations

from amaranth.lib import enum

__all__ = [
    "EAST",
    "NORTH",
    "SOUTH",
    "WEST",
    "Colour",
    "Symbol",
    "Tile",
    "Verdict",
]

#: The edge directions, as the bits of a tile's mask (``trax_fpga.host.tiles``).
NORTH, EAST, SOUTH, WEST = 0, 1, 2, 3


class Symbol(enum.Enum, shape=2):
    """The tile shape written in notation (``+``, ``/``, ``\\``), as in ``trax_fpga.host.tiles``.

    The members come in the order of the reference engine's ``Symbol``; the value 3 is unused.
    """

    CROSS = 0
    SLASH = 1
    BACKSLASH = 2

    @property
    def char(self) -> str:
        """The notation character of this symbol."""
        return "+/\\"[self.value]

    @classmethod
    def of(cls, char: str) -> Symbol:
        """The symbol written ``char`` in notation (``+``, ``/`` or ``\\``)."""
        for symbol in cls:
            if symbol.char == char:
                return symbol
        raise ValueError(f"a symbol is written '+', '/' or '\\', not {char!r}")


class Colour(enum.Enum, shape=1):
    """A side, valued as in the reference engine (``trax_fpga.host.tiles.Colour``)."""

    BLACK = 0
    WHITE = 1


class Tile(enum.Enum, shape=4):
    """A cell of the board: empty, or a placed tile valued as the mask of its white edges.

    The values are those of ``trax_fpga.host.tiles.Tile``; ``EMPTY`` is the mask with no white
    edge.
    """

    EMPTY = 0b0000
    NS = 0b0101  # '+' white N-S (white-first)
    EW = 0b1010  # '+' black-first
    NW = 0b1001  # '/' white N-W (white-first)
    SE = 0b0110  # '/' black-first
    NE = 0b0011  # '\' white N-E (white-first)
    SW = 0b1100  # '\' black-first


class Verdict(enum.Enum, shape=4):
    """The verdict on a move: legal, or why not (``OVERFLOW``: not judged, the game would
    outgrow the board's torus)."""

    LEGAL = 0
    GAME_OVER = 1  # the game was already won (given by the rules, not the board)
    FIRST_MOVE = 2  # on the empty board only @0+ or @0/ at the origin
    OCCUPIED = 3  # the cell holds a tile
    NOT_ADJACENT = 4  # the cell shares no edge with a tile
    MISMATCH = 5  # no variant of the symbol matches the neighbours (or no such symbol)
    DEAD = 6  # an empty cell has three same-colour edges entering
    CONFLICT = 7  # two forced tiles disagree on their shared edge (the first design only)
    OVERFLOW = 8  # not judged: the box plus its ring would no longer fit the torus

    @property
    def legal(self) -> bool:
        return self is Verdict.LEGAL
