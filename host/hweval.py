"""The first design's leaf evaluation and threat test (``hdl/evaluation.py``, removed from the
gateware since; in the git history): its specification, kept for the window search's model.

The gateware scores a position at the search's horizon from shapes a Trax player counts (the
FAQ's C2 and C3, copied in ``docs/evaluation.md``), each a fixed pattern of a few neighbouring
tiles and empty cells, so that every cell of the window tests every pattern at once and an adder
tree counts them. A tile's *c-edges* (c a colour) are the two edges where its c track meets the
tile border; two tiles' tracks are joined through the shared edge.

*Corner* of colour c: a curve tile whose c track leaves through two edges into empty cells (the
FAQ's simplest corner, a single curve: it becomes a loop attack by turning either end).

*Loop attack* of colour c facing direction D (a track that one move closes into a loop): tiles
in a row along the axis A perpendicular to D (A = east when D is north or south, A = south when D
is east or west), starting at the *anchor* tile:

- narrow: the anchor's c-edges are {D, A}, the next tile's {opposite A, D};
- wide: the anchor's c-edges are {D, A}, the next tile's {opposite A, A} (a straight along the
  row), the third's {opposite A, D};

and every cell beyond the row in direction D (two or three) is empty. A cell *anchors an attack*
of colour c when at least one of the eight shapes (narrow or wide, four directions) starts there.

*Evaluation*, from the side to move S against O, with ``attacks`` counting anchoring cells:

- S anchors an attack: ``ATTACK_WIN`` (S closes a loop next move);
- else O anchors two or more: ``-ATTACK_WIN`` (one move rarely stops both);
- else ``CORNER * (corners_S - corners_O) - ATTACK * attacks_O``, clamped to
  ``[-POSITIONAL_LIMIT, POSITIONAL_LIMIT]``.

*Threat*: any cell anchors an attack of either colour; the search then extends its horizon by a
ply (at most ``MAX_EXTENSIONS`` on a path), so a loop attack made or met at the horizon is
played out instead of guessed at.

These are the *local* shapes only: an attack whose track runs around a longer way, an L or edge
threat, and line progress are found by the search itself (it plays every move), not by this
evaluation; the software player (:mod:`.evaluate`) pairs track ends and sees them all.
"""

from __future__ import annotations

import dataclasses

from .position import Position
from .tiles import EAST, NORTH, SOUTH, STEP, WEST, Colour, Tile

__all__ = [
    "ATTACK",
    "ATTACK_WIN",
    "CORNER",
    "MAX_EXTENSIONS",
    "POSITIONAL_LIMIT",
    "Features",
    "features",
    "hw_evaluate",
]

CORNER = 10
ATTACK = 100
ATTACK_WIN = 500
POSITIONAL_LIMIT = 400
MAX_EXTENSIONS = 1

#: The axis of the row of an attack facing each direction.
AXIS = {NORTH: EAST, SOUTH: EAST, EAST: SOUTH, WEST: SOUTH}


def c_edges(tile: Tile, colour: Colour) -> int:
    """The 4-bit mask of the edges where the ``colour`` track meets the tile's border."""
    return int(tile) if colour is Colour.WHITE else ~int(tile) & 0xF


def _step(cell: tuple[int, int], direction: int, times: int = 1) -> tuple[int, int]:
    dx, dy = STEP[direction]
    return cell[0] + times * dx, cell[1] + times * dy


def is_corner(tiles: dict, cell: tuple[int, int], colour: Colour) -> bool:
    """The tile at ``cell`` is a curve whose ``colour`` track leaves into two empty cells."""
    edges = c_edges(tiles[cell], colour)
    if edges in (0b0101, 0b1010):  # a straight
        return False
    return all(_step(cell, d) not in tiles for d in range(4) if edges >> d & 1)


def anchors_attack(tiles: dict, cell: tuple[int, int], colour: Colour) -> bool:
    """One of the eight loop-attack shapes of ``colour`` starts at ``cell``."""
    for facing, axis in AXIS.items():
        back = axis ^ 2
        if c_edges(tiles[cell], colour) != (1 << facing | 1 << axis):
            continue
        for middle in (0, 1):  # narrow, wide
            row = [cell] + [_step(cell, axis, k) for k in range(1, middle + 2)]
            if any(c not in tiles for c in row[1:]):
                continue
            if middle and c_edges(tiles[row[1]], colour) != (1 << back | 1 << axis):
                continue
            if c_edges(tiles[row[-1]], colour) != (1 << back | 1 << facing):
                continue
            if all(_step(c, facing) not in tiles for c in row):
                return True
    return False


@dataclasses.dataclass(frozen=True)
class Features:
    """Per colour (indexed by ``Colour``): corners and cells anchoring a loop attack."""

    corners: tuple[int, int]
    attacks: tuple[int, int]

    def threatened(self, side: Colour) -> bool:
        """``side``'s opponent anchors a loop attack (``side`` must defend at once)."""
        return self.attacks[side.other] > 0


def features(position: Position) -> Features:
    """The counts of the evaluation's shapes on the board."""
    tiles = position.tiles
    corners = [0, 0]
    attacks = [0, 0]
    for cell in tiles:
        for colour in Colour:
            corners[colour] += is_corner(tiles, cell, colour)
            attacks[colour] += anchors_attack(tiles, cell, colour)
    return Features(tuple(corners), tuple(attacks))


def score(found: Features, side: Colour) -> int:
    """The evaluation of ``found`` for ``side`` to move (see the module's docstring)."""
    other = side.other
    if found.attacks[side]:
        return ATTACK_WIN
    if found.attacks[other] >= 2:
        return -ATTACK_WIN
    positional = CORNER * (found.corners[side] - found.corners[other])
    positional -= ATTACK * found.attacks[other]
    return max(-POSITIONAL_LIMIT, min(POSITIONAL_LIMIT, positional))


def hw_evaluate(position: Position) -> int:
    """The evaluation of the position for its side to move."""
    return score(features(position), position.turn)
