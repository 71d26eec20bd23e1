"""The table of best moves: the search's memory of the best move found at a position.

A transposition table used for move order only, never for a score (docs/hash-moves.md): every
node below the root that searches its replies looks its position up and, when the table holds
a move for it, tries that move first in place of its ply's killer; on its return it stores its
best move there. A completed iteration's score is the same with or without it (alpha-beta's
value does not depend on move order); only its nodes change. The gateware holds it in block
RAM (``hdl/track_search.py`` with ``move_table``); :func:`.hwsearch.hw_search`'s
``move_table`` is its model.

Specification
-------------
*Key.* A position's key is the XOR, over its tiles, of a 32-bit key per torus cell and tile
(:func:`tile_key`, on a torus of at most 64 x 64): a Zobrist key, kept tile by tile by the
board as tiles come and go.

*Entries.* ``entries`` slots (a power of two), direct-mapped: a key's slot is its low bits,
its tag the ``tag_bits`` above them. A slot holds a tag, a move (its torus cell and symbol)
and the plies that were searched below the node that stored it (the iteration's depth less the
node's ply). Empty at the start of every search.

*Lookup.* The entry at the key's slot gives its move when its tag is the key's (another
position with the same slot and tag gets it too: harmless, the move is tried first or refused).

*Store.* On its return, a node that searched at least one reply completely stores its best
move (the first with the best score) at the slot it looked up, with its tag and plies left,
unless (``keep_deeper``) the entry it read there on entry was another tag's with more plies
left. A node stopped by the budget stores nothing.
"""

from __future__ import annotations

import dataclasses

from .position import Position
from .tiles import Tile

__all__ = [
    "KEY_MULTIPLIER",
    "KEY_SHIFT",
    "TAG_BITS",
    "MoveTable",
    "Probe",
    "position_key",
    "tile_key",
]

#: A tile's key is the high bits of a multiplicative hash of its 15-bit number (torus cell
#: y * 64 + x, then the tile's place in :class:`~.tiles.Tile`): Fibonacci hashing, one 15 x 32
#: bit product by a constant (two DSP multipliers in gateware, where a table of keys per cell
#: and tile would take 24,576 entries). Tables of keys by pieces of the number (tabulation)
#: were tried first: their XORs cancel over tiles in a rectangle of pieces, common in a game's
#: compact positions, and the search played more nodes with them than without a table.
KEY_MULTIPLIER = 0x9E3779B1
KEY_SHIFT = 15
_TILE_NUMBER = {tile: n for n, tile in enumerate(Tile)}

#: The tag bits of the gateware's table (8 are as good as 20 in docs/hash-moves.md's figures).
TAG_BITS = 8


def tile_key(x: int, y: int, tile: Tile) -> int:
    """The 32-bit key of ``tile`` at torus cell (x, y) (a torus of at most 64 x 64): bits 15
    to 46 of the number's product by the constant."""
    number = ((y * 64 + x) << 3) | _TILE_NUMBER[tile]
    return (number * KEY_MULTIPLIER) >> KEY_SHIFT


def position_key(position: Position, width: int, height: int) -> int:
    """The position's 32-bit Zobrist key on a ``width`` x ``height`` torus: the XOR of its
    tiles' :func:`tile_key` at their torus cells."""
    key = 0
    for (x, y), tile in position.tiles.items():
        key ^= tile_key(x % width, y % height, Tile(tile))
    return key


@dataclasses.dataclass(frozen=True)
class Probe:
    """What a lookup found: the key's slot and tag, and the entry held there (None, or its
    tag, move and plies left)."""

    slot: int
    tag: int
    held: tuple | None

    @property
    def move(self):
        """The move the table holds for this position, or None."""
        return self.held[1] if self.held is not None and self.held[0] == self.tag else None


class MoveTable:
    """A direct-mapped table of ``entries`` best moves (see the module's specification)."""

    def __init__(self, entries: int, tag_bits: int = TAG_BITS, keep_deeper: bool = True):
        if entries < 1 or entries & (entries - 1):
            raise ValueError(f"a table's entries must be a power of two, not {entries!r}")
        if tag_bits < 1:  # (tag bits beyond the key's 32 are 0, as for the research's 1M)
            raise ValueError(f"a table's tags need a bit at least, not {tag_bits!r}")
        self.entries = entries
        self.tag_bits = tag_bits
        self.keep_deeper = keep_deeper
        self.slots: dict[int, tuple] = {}  # slot -> (tag, move, plies left)

    def probe(self, key: int) -> Probe:
        """Look up the position of ``key``."""
        slot = key % self.entries
        tag = key // self.entries % (1 << self.tag_bits)
        return Probe(slot, tag, self.slots.get(slot))

    def store(self, probe: Probe, move, left: int) -> None:
        """Store ``move``, searched ``left`` plies deep, at the slot ``probe`` looked up."""
        held = probe.held
        deeper = held is not None and held[0] != probe.tag and held[2] > left
        if not (self.keep_deeper and deeper):
            self.slots[probe.slot] = (probe.tag, move, left)
