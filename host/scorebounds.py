"""Research (model only, not in the gateware): a table of score bounds by position.

The table of best moves (:mod:`.movetable`, the gateware's) orders moves and never gives a
score. This one gives scores, as a chess engine's transposition table does, to measure what the
board's search would save if its table held them (docs/hash-moves.md, "Scores in the table").

Specification
-------------
*Key.* The exact position (its tiles and the side to move) and the plies left below the node
(the iteration's depth less the node's ply): no hash, so no collision. The table is
direct-mapped, as the gateware's table of best moves: ``entries`` slots, a key's slot the low
bits of its position's 32-bit Zobrist key (:func:`.movetable.position_key`), a store replacing
what its slot held. With ``tag_bits``, an entry keeps instead of the exact position only that
many bits of the Zobrist key above the slot's, as a gateware table would (with the side to move
and the plies left): another position of the same slot and tag is taken for it, so its value
may be wrong. A node's value depends only on the exact key (the horizon's extensions count
plies left too), except that a win's or a loss's score counts plies from the root: it is kept
from the node's point of view (its ply taken off) and given back at the ply that reads it.

*Store.* A node that returns stores its value with its kind, from the window it was searched
with (fail-soft): at most its alpha, an upper bound; at least its beta, a lower bound; else
exact. A node stopped by a budget stores nothing.

*Lookup.* On entry, before any reply, a node whose key holds an exact value, a lower bound at
least its beta or an upper bound at most its alpha returns that value at once. With exact keys
every value stored is the node's minimax value at that many plies left, or a bound of it, so a
completed iteration's score is alpha-beta's without the table (the move chosen may be another
of that score); only nodes change. The node itself is counted (its move was played); its
replies are not played.
"""

from __future__ import annotations

from .movetable import moved, position_key, settles, value_kind
from .position import Position

__all__ = ["ScoreBounds"]


class ScoreBounds:
    """Score bounds by position and plies left in ``entries`` slots (a power of two), by
    exact position or (``tag_bits``) by that many bits of its Zobrist key above the slot's;
    ``mate_bound``: the scores of a win or a loss are those at least this far from 0."""

    def __init__(self, entries: int, mate_bound: int, tag_bits: int | None = None) -> None:
        if entries < 1 or entries & (entries - 1):
            raise ValueError(f"a table's entries must be a power of two, not {entries!r}")
        self.mate_bound = mate_bound
        self.entries = entries
        self.tag_bits = tag_bits
        self.slots: dict[int, tuple] = {}  # slot -> (key, value from the node, kind)
        self.hits = 0  # lookups that returned a value

    def key(self, position: Position, left: int) -> tuple:
        """The key of ``position`` with ``left`` plies below it: its slot first, then what
        an entry keeps to tell it from the other positions of that slot."""
        zobrist = position_key(position, 64, 64)
        slot = zobrist % self.entries
        if self.tag_bits is None:
            return slot, frozenset(position.tiles.items()), position.turn, left
        tag = (zobrist // self.entries) % (1 << self.tag_bits)
        return slot, tag, position.turn, left

    def lookup(self, key: tuple, ply: int, alpha: int, beta: int) -> int | None:
        """The value of the node of ``key`` at ``ply`` searched with (``alpha``, ``beta``), if
        the table settles it; else None."""
        entry = self.slots.get(key[0])
        if entry is None or entry[0] != key:
            return None
        _, held, kind = entry
        value = moved(held, -ply, self.mate_bound)
        if not settles(kind, value, alpha, beta):
            return None
        self.hits += 1
        return value

    def store(self, key: tuple, ply: int, alpha: int, beta: int, value: int) -> None:
        """The node of ``key`` at ``ply``, searched with (``alpha``, ``beta``), returns
        ``value``."""
        self.slots[key[0]] = (
            key,
            moved(value, ply, self.mate_bound),
            value_kind(value, alpha, beta),
        )
