"""The evaluation of the block-RAM board's search, from whole tracks: the specification.

The gateware (``hdl/track_board.py``) keeps these values up to date as tiles come and go (each
tile changes only the tracks through it, so the update costs nothing beyond the placement);
this module computes them from the position's open tracks (:meth:`.Position.open_tracks`, kept
move by move), and a test compares the two at every step.

Specification
-------------
Every track with two open ends has two *targets*: the empty cells its ends point into. On the
C x R torus (target cells taken mod C and mod R), the distance of a track is |dx| + |dy|, where
dx is the difference of the targets' columns mod C read as a signed number in [-C/2, C/2), and
dy likewise. A track of distance 1 is an **attack**: its owner can put a tile in one target that
leads the track into the other, which is then forced and closes the loop.

A track of distance 1 to 4 has a *kind*: its distance and the relation of the directions its
two ends leave their tiles in (the same, turned, or opposite). Its *loop potential* is
``LOOP_WEIGHTS[distance - 1][relation]``, the software player's table (:mod:`.evaluate`); other
tracks have none. A colour's potential is the sum over its tracks.

The score, for the side to move s against o: +500 if s has an attack (s closes a loop now);
-500 if o has two or more (s cannot stop both); otherwise potential(s) - potential(o) + 20 (the
tempo) - 150 x attacks(o), clamped to +-400. The side to move is **threatened** when o has an
attack: the search then looks one ply further.

This is the software player's evaluation without its line progress (which depends on the box,
so cannot be kept tile by tile), measured against the attack-and-near-track counts it replaced
in docs/evaluation.md. The torus's distance is the plane's while the targets are less than half
the torus apart in each direction (every game the 64 x 64 board holds but the widest).

The tracks' shapes
------------------
With a :class:`ShapeTable` (issue 12, docs/evaluation.md "The shapes evaluation"), a track is
weighed by its *shape* instead of its kind: the sizes of the differences of its targets'
columns and rows (its *fronts*) and of its two ends' tiles' columns and rows (its *backs*),
each read on the torus as above and capped at 3, two bits each from bit 0 (fronts x, fronts y,
backs x, backs y: 256 shapes, :func:`track_shape`). A colour's tracks give two sums: weighed as
the side to move's (``ShapeTable.mine``) and as the other's (``theirs``). The score then is
+500 and -500 as above, otherwise the side to move's "mine" sum + the other colour's "theirs"
sum + ``constant`` - 150 x attacks(o), clamped to +-400: the compiled model's
``RESEARCH_SHAPES`` with every weight but the tracks' and the constant 0.
"""

from __future__ import annotations

import dataclasses

from .position import Position
from .tiles import STEP, Colour

__all__ = [
    "SHAPES",
    "ShapeTable",
    "TrackFeatures",
    "kind_counts",
    "loop_kind",
    "track_features",
    "track_score",
    "track_shape",
]

OWN_ATTACK = 500
LOST = -500
ATTACK_WEIGHT = 150
TEMPO = 20
CLAMP = 400
#: The loop potential of a track by its kind: rows by distance (1 to 4), columns by the
#: relation of its ends' directions (the same, turned, opposite): ``evaluate.Weights.loop``.
LOOP_WEIGHTS = ((60, 40, 10), (40, 30, 8), (20, 12, 4), (8, 5, 2))
SAME, TURNED, OPPOSITE = 0, 1, 2
_COLOURS = (Colour.BLACK, Colour.WHITE)
#: The tracks' shapes: four sizes capped at 3, two bits each.
SHAPES = 256


@dataclasses.dataclass(frozen=True)
class ShapeTable:
    """The weights of the tracks' shapes: a track of shape ``s`` weighs ``mine[s]`` when its
    colour is the side to move's, ``theirs[s]`` when it is the other's; ``constant`` once (the
    tempo)."""

    mine: tuple[int, ...]
    theirs: tuple[int, ...]
    constant: int

    def __post_init__(self):
        for table in (self.mine, self.theirs):
            if len(table) != SHAPES or not all(isinstance(w, int) for w in table):
                raise ValueError(f"a shape table holds {SHAPES} integers for each side")
        if not isinstance(self.constant, int):
            raise ValueError("the shape table's constant is an integer")

    def clamped(self, bits: int) -> ShapeTable:
        """This table with every weight clamped to a signed ``bits``-bit integer (the constant
        is not: it is a sum's starting value, not a stored weight)."""
        low, high = -(1 << (bits - 1)), (1 << (bits - 1)) - 1

        def clamp(table):
            return tuple(min(high, max(low, w)) for w in table)

        return ShapeTable(clamp(self.mine), clamp(self.theirs), self.constant)


@dataclasses.dataclass(frozen=True)
class TrackFeatures:
    """Per colour (indexed by :class:`~.tiles.Colour`): its attacks and its loop potential;
    with a :class:`ShapeTable`, its tracks' weights summed as the side to move's and as the
    other's (``shapes[colour]``: (mine, theirs); (0, 0) without)."""

    attacks: tuple[int, int]
    potential: tuple[int, int]
    shapes: tuple[tuple[int, int], tuple[int, int]] = ((0, 0), (0, 0))

    def threatened(self, turn: Colour) -> bool:
        """The side to move must answer an attack of the opponent."""
        return self.attacks[turn.other] > 0


def _signed(value: int, size: int) -> int:
    value %= size
    return value - size if value >= size // 2 else value


def loop_kind(distance: int, d1: int, d2: int) -> tuple[int, int] | None:
    """(distance, relation) of a track whose targets are ``distance`` apart and whose ends
    leave their tiles in directions ``d1`` and ``d2``; None beyond 4 (or at 0)."""
    if not 1 <= distance <= len(LOOP_WEIGHTS):
        return None
    relation = SAME if d1 == d2 else OPPOSITE if d1 == d2 ^ 2 else TURNED
    return distance, relation


def track_shape(ends, width: int, height: int) -> int:
    """The shape of the track whose open ends are ``ends``, ``((x1, y1, d1), (x2, y2, d2))``
    (each end's tile and the direction it leaves in), on a ``width`` x ``height`` torus."""
    (x1, y1, d1), (x2, y2, d2) = ends
    fx = x1 + STEP[d1][0] - x2 - STEP[d2][0]
    fy = y1 + STEP[d1][1] - y2 - STEP[d2][1]
    sizes = (_signed(fx, width), _signed(fy, height), _signed(x1 - x2, width))
    sizes += (_signed(y1 - y2, height),)
    return sum(min(3, abs(size)) << 2 * k for k, size in enumerate(sizes))


def _tracks(position: Position, width: int, height: int):
    """Every track with two open ends: (colour, the distance of its targets on the torus, the
    directions its two ends leave their tiles in, the ends)."""
    tiles = position.tiles
    for ends in position.open_tracks():
        (x1, y1, d1), (x2, y2, d2) = ends
        colour = _COLOURS[(tiles[(x1, y1)] >> d1) & 1]
        dx = x1 + STEP[d1][0] - x2 - STEP[d2][0]
        dy = y1 + STEP[d1][1] - y2 - STEP[d2][1]
        distance = abs(_signed(dx, width)) + abs(_signed(dy, height))
        yield colour, distance, d1, d2, ends


def track_features(
    position: Position, width: int, height: int, shapes: ShapeTable | None = None
) -> TrackFeatures:
    """Count the attacks and sum the loop potential of both colours on a ``width`` x
    ``height`` torus (and with ``shapes``, their tracks' shapes' weights)."""
    attacks, potential = [0, 0], [0, 0]
    sums = [[0, 0], [0, 0]]
    for colour, distance, d1, d2, ends in _tracks(position, width, height):
        if distance == 1:
            attacks[colour] += 1
        kind = loop_kind(distance, d1, d2)
        if kind is not None:
            potential[colour] += LOOP_WEIGHTS[kind[0] - 1][kind[1]]
        if shapes is not None:
            shape = track_shape(ends, width, height)
            sums[colour][0] += shapes.mine[shape]
            sums[colour][1] += shapes.theirs[shape]
    return TrackFeatures(tuple(attacks), tuple(potential), (tuple(sums[0]), tuple(sums[1])))


def kind_counts(position: Position, width: int, height: int) -> tuple[list[int], list[int]]:
    """Per colour, its tracks of each kind (index ``3 (distance - 1) + relation``: 12 kinds),
    for fitting the table (``python -m trax_fpga.host.tune``)."""
    counts = ([0] * 12, [0] * 12)
    for colour, distance, d1, d2, _ in _tracks(position, width, height):
        kind = loop_kind(distance, d1, d2)
        if kind is not None:
            counts[colour][3 * (kind[0] - 1) + kind[1]] += 1
    return counts


def track_score(features: TrackFeatures, turn: Colour, shapes: ShapeTable | None = None) -> int:
    """The score of the position for ``turn``, the side to move (by the tracks' shapes with
    ``shapes``, the table ``features`` were summed with)."""
    mine, theirs = turn, turn.other
    if features.attacks[mine] > 0:
        return OWN_ATTACK
    if features.attacks[theirs] >= 2:
        return LOST
    if shapes is not None:
        value = features.shapes[mine][0] + features.shapes[theirs][1] + shapes.constant
    else:
        value = features.potential[mine] - features.potential[theirs] + TEMPO
    value -= ATTACK_WEIGHT * features.attacks[theirs]
    return max(-CLAMP, min(CLAMP, value))
