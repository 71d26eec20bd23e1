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
*Key.* A position's key is the XOR, over its tiles, of a 40-bit key per torus cell and tile
(:func:`tile_key`, on a torus of at most 64 x 64): a Zobrist key, kept tile by tile by the
board as tiles come and go. Its low 32 bits are the table of moves' slot and tag; the 8 above
them lengthen the tags of a table with scores.

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

*Scores* (``scores``: research, model only so far; docs/hash-moves.md, "Scores in the table").
An entry holds too the value its node returned, from the node's point of view (a win's or a
loss's plies counted from the node), its kind, from the window the node was searched with
(fail-soft: at most its alpha, an upper bound; at least its beta, a lower bound; else exact),
and the side to move (the key is the tiles' alone, and one set of tiles may be reached with
either side to move, when a tile forced in one line is played in another). A node entered
whose entry has its tag, its side to move and the same plies left, and holds an exact value, a
lower bound at least the node's beta or an upper bound at most its alpha, returns that value
at once, before its first reply. Positions are told apart by their tags only, so a table with
scores wants wide tags: with 8 bits a search's score went wrong in the model, with 18 (every
bit of the key above a 16,384-entry slot) none did.
"""

from __future__ import annotations

import dataclasses

from .position import Position
from .tiles import Tile

__all__ = [
    "EXACT",
    "KEY_BITS",
    "KEY_HIGH_MULTIPLIER",
    "KEY_HIGH_SHIFT",
    "KEY_MULTIPLIER",
    "KEY_SHIFT",
    "LOWER",
    "TAG_BITS",
    "UPPER",
    "MoveTable",
    "Probe",
    "moved",
    "position_key",
    "score_tag_bits",
    "settles",
    "tile_key",
    "value_kind",
]

#: A tile's key is the high bits of a multiplicative hash of its 15-bit number (torus cell
#: y * 64 + x, then the tile's place in :class:`~.tiles.Tile`): Fibonacci hashing, one 15 x 32
#: bit product by a constant (two DSP multipliers in gateware, where a table of keys per cell
#: and tile would take 24,576 entries). Tables of keys by pieces of the number (tabulation)
#: were tried first: their XORs cancel over tiles in a rectangle of pieces, common in a game's
#: compact positions, and the search played more nodes with them than without a table.
KEY_MULTIPLIER = 0x9E3779B1
KEY_SHIFT = 15
#: The key's bits 32 to 39: the top 8 bits of the number's product by a second constant (one
#: 15 x 16-bit product, a DSP multiplier), for the tags of a table with scores: with 32-bit keys
#: the model settled a node from another position's entry about once in 4 million probes
#: (docs/hash-moves.md), some 0.15 times a move of the board file's player.
KEY_HIGH_MULTIPLIER = 0x85EB
KEY_HIGH_SHIFT = 23
_TILE_NUMBER = {tile: n for n, tile in enumerate(Tile)}

#: The tag bits of the gateware's table (8 are as good as 20 in docs/hash-moves.md's figures).
TAG_BITS = 8

#: The bits of a position's key.
KEY_BITS = 40


def score_tag_bits(entries: int) -> int:
    """The tag bits of a table of ``entries`` with scores: every bit of the key above the slot's
    (positions told apart as well as the key can; docs/hash-moves.md)."""
    return KEY_BITS - (entries.bit_length() - 1)


#: The kinds of a value held (with ``scores``): exact, at least (a lower bound), at most.
EXACT, LOWER, UPPER = range(3)


def value_kind(value: int, alpha: int, beta: int) -> int:
    """The kind of ``value`` returned by a node searched with (``alpha``, ``beta``), fail-soft."""
    return UPPER if value <= alpha else LOWER if value >= beta else EXACT


def settles(kind: int, value: int, alpha: int, beta: int) -> bool:
    """Whether a held ``value`` of ``kind`` settles a node searched with (``alpha``, ``beta``)."""
    return kind == EXACT or (kind == LOWER and value >= beta) or (kind == UPPER and value <= alpha)


def moved(value: int, plies: int, mate_bound: int) -> int:
    """``value`` moved ``plies`` toward the root's count of plies when it is a win's or a loss's
    score (at least ``mate_bound`` from 0): a win's plies are counted from the node in a table."""
    if value >= mate_bound:
        return value + plies
    if value <= -mate_bound:
        return value - plies
    return value


def tile_key(x: int, y: int, tile: Tile) -> int:
    """The 40-bit key of ``tile`` at torus cell (x, y) (a torus of at most 64 x 64): bits 15
    to 46 of the number's product by the constant, then bits 23 to 30 of its product by the
    second one."""
    number = ((y * 64 + x) << 3) | _TILE_NUMBER[tile]
    high = (number * KEY_HIGH_MULTIPLIER) >> KEY_HIGH_SHIFT
    return (number * KEY_MULTIPLIER) >> KEY_SHIFT | high << 32


def position_key(position: Position, width: int, height: int) -> int:
    """The position's 40-bit Zobrist key on a ``width`` x ``height`` torus: the XOR of its
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
    held: tuple | None  # (tag, move, plies left[, value from the node, kind, side to move])

    @property
    def move(self):
        """The move the table holds for this position, or None."""
        return self.held[1] if self.held is not None and self.held[0] == self.tag else None


class MoveTable:
    """A direct-mapped table of ``entries`` best moves (see the module's specification), and
    with ``scores`` of their values; ``mate_bound``: a win's or a loss's scores are those at
    least this far from 0."""

    def __init__(
        self,
        entries: int,
        tag_bits: int = TAG_BITS,
        keep_deeper: bool = True,
        *,
        scores: bool = False,
        mate_bound: int = 0,
    ):
        if scores and mate_bound < 1:
            raise ValueError("a table with scores needs the scores' mate bound")
        if entries < 1 or entries & (entries - 1):
            raise ValueError(f"a table's entries must be a power of two, not {entries!r}")
        if tag_bits < 1:  # (tag bits beyond the key's 40 are 0)
            raise ValueError(f"a table's tags need a bit at least, not {tag_bits!r}")
        self.entries = entries
        self.tag_bits = tag_bits
        self.keep_deeper = keep_deeper
        self.scores = scores
        self.mate_bound = mate_bound
        self.slots: dict[int, tuple] = {}  # slot -> Probe.held

    def probe(self, key: int) -> Probe:
        """Look up the position of ``key``."""
        slot = key % self.entries
        tag = key // self.entries % (1 << self.tag_bits)
        return Probe(slot, tag, self.slots.get(slot))

    def store(self, probe: Probe, move, left: int, value: tuple | None = None) -> None:
        """Store ``move``, searched ``left`` plies deep, at the slot ``probe`` looked up; with
        scores, ``value`` is (the side to move, the node's ply, its window's alpha and beta, the
        value)."""
        held = probe.held
        deeper = held is not None and held[0] != probe.tag and held[2] > left
        if not (self.keep_deeper and deeper):
            entry = (probe.tag, move, left)
            if self.scores:
                turn, ply, alpha, beta, v = value
                entry += (moved(v, ply, self.mate_bound), value_kind(v, alpha, beta), turn)
            self.slots[probe.slot] = entry

    def settled(self, probe: Probe, turn, ply: int, left: int, alpha: int, beta: int) -> int | None:
        """With scores: the value of the node of ``probe``, ``turn`` to move, at ``ply`` with
        ``left`` plies below it, searched with (``alpha``, ``beta``), if its entry settles it;
        else None."""
        held = probe.held
        if not self.scores or held is None or held[0] != probe.tag or held[2] != left:
            return None
        if held[5] != turn:
            return None
        value = moved(held[3], -ply, self.mate_bound)
        return value if settles(held[4], value, alpha, beta) else None
