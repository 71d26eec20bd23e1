"""Tiles, edges and colours: the vocabulary every other module (and the gateware) shares.

A placed tile is fully described by the colours of its four edges, exactly two of them white.
This module encodes a tile as the 4-bit mask of its *white* edges, bit ``d`` for direction ``d``
(N=0, E=1, S=2, W=3). The same bit formulas are used by the gateware (``hdl/``).
"""

from __future__ import annotations

import enum

__all__ = [
    "DIRECTIONS",
    "EAST",
    "NORTH",
    "SOUTH",
    "STEP",
    "WEST",
    "Colour",
    "Symbol",
    "Tile",
    "opposite",
]

NORTH, EAST, SOUTH, WEST = 0, 1, 2, 3
DIRECTIONS = (NORTH, EAST, SOUTH, WEST)
#: (dx, dy) of a step in each direction; x grows to the east, y grows to the south.
STEP = ((0, -1), (1, 0), (0, 1), (-1, 0))


def opposite(direction: int) -> int:
    """The direction facing ``direction`` (N<->S, E<->W)."""
    return direction ^ 2


class Colour(enum.IntEnum):
    """A track colour, and the player who owns it. White moves first."""

    BLACK = 0
    WHITE = 1

    @property
    def other(self) -> Colour:
        return Colour(1 - self)

    @property
    def word(self) -> str:
        return self.name.lower()


class Symbol(enum.Enum):
    """The tile shape written in notation: the colour variant follows from the neighbours."""

    CROSS = "+"
    SLASH = "/"
    BACKSLASH = "\\"

    @property
    def variants(self) -> tuple[Tile, Tile]:
        """The two placed tiles of this shape: (white-first, black-first)."""
        return _VARIANTS[self]


class Tile(enum.IntEnum):
    """A placed tile, valued as the mask of its white edges (bit d = direction d).

    Names say which two edges the white track joins.
    """

    NS = 0b0101  # '+' white N-S, black E-W (white-first)
    EW = 0b1010  # '+' black-first
    NW = 0b1001  # '/' white N-W, black S-E (white-first)
    SE = 0b0110  # '/' black-first
    NE = 0b0011  # '\' white N-E, black S-W (white-first)
    SW = 0b1100  # '\' black-first

    @property
    def symbol(self) -> Symbol:
        return _SYMBOL[self]

    def colour(self, direction: int) -> Colour:
        """The colour of the track meeting edge ``direction``."""
        return Colour((self >> direction) & 1)

    def exit(self, direction: int) -> int:
        """The other edge of the track that enters this tile at edge ``direction``."""
        return _EXIT[self][direction]

    @classmethod
    def joining(cls, colour: Colour, edges: int) -> Tile:
        """The tile whose ``colour`` track joins the two edges in mask ``edges``."""
        return cls(edges if colour is Colour.WHITE else edges ^ 0b1111)


_VARIANTS = {
    Symbol.CROSS: (Tile.NS, Tile.EW),
    Symbol.SLASH: (Tile.NW, Tile.SE),
    Symbol.BACKSLASH: (Tile.NE, Tile.SW),
}
_SYMBOL = {tile: symbol for symbol, pair in _VARIANTS.items() for tile in pair}


def _exits(mask: int) -> tuple[int, int, int, int]:
    ends = []
    for direction in DIRECTIONS:
        same = [
            d
            for d in DIRECTIONS
            if d != direction and ((mask >> d) & 1) == ((mask >> direction) & 1)
        ]
        ends.append(same[0])
    return tuple(ends)


_EXIT = {tile: _exits(tile) for tile in Tile}
