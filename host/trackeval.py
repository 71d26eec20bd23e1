"""The evaluation of the block-RAM board's search, from whole tracks: the specification.

The gateware (``hdl/track_board.py``) keeps these counts up to date as tiles come and go (each
tile changes only the tracks through it, so the update costs nothing beyond the placement); this
module counts them from scratch, and a test compares the two at every step.

Specification
-------------
Every track with two open ends has two *targets*: the empty cells its ends point into. On the
C x R torus (target cells taken mod C and mod R), the distance of a track is |dx| + |dy|, where
dx is the difference of the targets' columns mod C read as a signed number in [-C/2, C/2), and
dy likewise. A track of distance 1 is an **attack**: its owner can put a tile in one target that
leads the track into the other, which is then forced and closes the loop. A track of distance 2
is **near**: one move from an attack.

The score, for the side to move s against o: +500 if s has an attack (s closes a loop now);
-500 if o has two or more (s cannot stop both); otherwise 60 x (near(s) - near(o)) - 150 x
attacks(o), clamped to +-400. The side to move is **threatened** when o has an attack: the
search then looks one ply further (as with :mod:`.hweval`'s loop attacks).
"""

from __future__ import annotations

import dataclasses

from .position import Position
from .tiles import STEP, Colour, Tile

__all__ = ["TrackFeatures", "track_features", "track_score"]

OWN_ATTACK = 500
LOST = -500
NEAR_WEIGHT = 60
ATTACK_WEIGHT = 150
CLAMP = 400


@dataclasses.dataclass(frozen=True)
class TrackFeatures:
    """Per colour (indexed by :class:`~.tiles.Colour`): its attacks and near tracks."""

    attacks: tuple[int, int]
    near: tuple[int, int]

    def threatened(self, turn: Colour) -> bool:
        """The side to move must answer an attack of the opponent."""
        return self.attacks[turn.other] > 0


def _signed(value: int, size: int) -> int:
    value %= size
    return value - size if value >= size // 2 else value


def track_features(position: Position, width: int, height: int) -> TrackFeatures:
    """Count the attacks and near tracks of both colours on a ``width`` x ``height`` torus."""
    tiles = position.tiles
    attacks, near = [0, 0], [0, 0]
    seen: set[tuple[int, int, int]] = set()
    for (x, y), tile in tiles.items():
        for d, (dx, dy) in enumerate(STEP):
            if (x + dx, y + dy) in tiles or (x, y, d) in seen:
                continue
            colour = Tile(tile).colour(d)
            # Walk the track from this open end to its other end.
            cx, cy, entry = x, y, d
            while True:
                exit_side = Tile(tiles[(cx, cy)]).exit(entry)
                sx, sy = STEP[exit_side]
                nxt = (cx + sx, cy + sy)
                if nxt not in tiles:
                    break
                cx, cy, entry = nxt[0], nxt[1], exit_side ^ 2
            seen.add((x, y, d))
            seen.add((cx, cy, exit_side))
            t1 = (x + dx, y + dy)
            t2 = (cx + sx, cy + sy)
            distance = abs(_signed(t1[0] - t2[0], width)) + abs(_signed(t1[1] - t2[1], height))
            if distance == 1:
                attacks[colour] += 1
            elif distance == 2:
                near[colour] += 1
    return TrackFeatures(tuple(attacks), tuple(near))


def track_score(features: TrackFeatures, turn: Colour) -> int:
    """The score of the position for ``turn``, the side to move."""
    mine, theirs = turn, turn.other
    if features.attacks[mine] > 0:
        return OWN_ATTACK
    if features.attacks[theirs] >= 2:
        return LOST
    value = NEAR_WEIGHT * (features.near[mine] - features.near[theirs])
    value -= ATTACK_WEIGHT * features.attacks[theirs]
    return max(-CLAMP, min(CLAMP, value))
