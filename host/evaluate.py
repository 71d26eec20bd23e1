"""The static evaluation of a quiet position, from the side to move's point of view.

Everything here is computed from the *track-end table*: every open track of each colour, given by
its two ends. An end is ``(x, y, d)``: the last tile of the track and the direction ``d`` in which
the track leaves it into an empty cell (the end's *target* cell is one step from the tile in
direction ``d``). The gateware keeps the same table up to date in O(1) per placed tile, so every
feature below is a function of one track's two ends (or of one end and the box), and all tracks
can be scored in parallel and summed by an adder tree.

Features, per colour (``+`` for the side to move, ``-`` for the opponent), integer weights:

============== ===================================================== ======================
feature        what is counted (one track, ends A and B)             weight (default)
============== ===================================================== ======================
loop attack    targets of A and B adjacent or two apart in a line,   ``loop[kind]``
  potential    both facing the same way (a narrow / wide attack
               shape: the FAQ's C2) ... and in general the kind is
               the pair (Manhattan distance between the targets,
               relation of the two directions: same / turned /
               opposite), distances 1..4, see :func:`loop_kind`
line progress  for a track with one end facing west and the other    ``line[gap]``, for the
               east (or north and south): the number of tiles still  best (smallest) gap
               missing before it spans the box edge to edge and at   of the colour, and
               least 8 columns (rows): :func:`line_gap`, 1..6        ``line_count`` for every
                                                                      track with gap <= 3
tempo          the side to move                                      ``tempo``
============== ===================================================== ======================

Threats that win at once (a move completing a loop or a line) are not evaluated here: the search
finds them exactly by playing every move at its leaves (see :mod:`.search`), so this function is
only ever asked about positions where the side to move cannot win at once and is not threatened.

The sum is order-independent (a sum over tracks plus a minimum), so hardware may score the
tracks in any order and must get the same integer.

Self-play results (``python -m trax_fpga.host.search_bench match A B --budget 3000 --pairs P
--seed S``: A's score, wins + half the unfinished games, over 2P games from P seeded 4-ply
openings with colours swapped; white wins most games, so only paired results mean anything, and
a 30-game score has a standard error of about 0.09):

=========================== ======= ==================================================
A vs B                      games   A's score (wins-losses-unfinished)
=========================== ======= ==================================================
default vs greedy           12 / 30 0.67 (7-3-2), 0.80 (24-6) after depth-1 ranking
default vs material         12      0.75 (9-3): material = search with tempo only
default vs no-loop          12      0.83 (10-2): loop potential is the key feature
default vs no-line          12      0.58 (7-5)
default vs loop-x2          20      0.45 (9-11)
default vs line-x2          20 / 30 0.35 (7-13), then 0.48 (14-15-1) on new openings
line-x2 vs line-x3          30      0.43 (13-17)
line-x2 vs line-x2-loop-x2  30      0.45 (13-16-1)
line-x3-no-tempo vs default 50      0.47 (23-26-1)
default vs corner-only      20      0.55 (11-9)
default vs no-tempo         20      0.40 (8-12)
no-tempo vs default         50      0.53 (25-22-3) on new openings
=========================== ======= ==================================================

So each feature earns its place (dropping loop potential or everything loses clearly; dropping
line progress loses a little), while doubling or tripling a group of weights, or dropping the
tempo, makes no difference that 20-50 games can see: the defaults stay.
"""

from __future__ import annotations

import dataclasses

from .position import LINE_SPAN, Box, Position
from .tiles import EAST, NORTH, SOUTH, STEP, WEST, Colour, Tile

__all__ = [
    "DEFAULT_WEIGHTS",
    "End",
    "Weights",
    "evaluate",
    "line_gap",
    "loop_kind",
    "track_ends",
]

#: A track end: the tile ``(x, y)`` where the track stops and the direction it leaves it.
End = tuple[int, int, int]

#: Relations of two end directions, used by :func:`loop_kind`.
SAME, TURNED, OPPOSITE = 0, 1, 2
MAX_LOOP_DISTANCE = 4
MAX_LINE_GAP = 6


@dataclasses.dataclass(frozen=True, slots=True)
class Weights:
    """The weights of :func:`evaluate`; ``loop`` is indexed by ``loop_kind()``, ``line`` by gap."""

    #: loop[distance][relation] for distance 0..MAX_LOOP_DISTANCE (0 unused), relation 0..2.
    loop: tuple[tuple[int, int, int], ...] = (
        (0, 0, 0),
        (60, 40, 10),
        (40, 30, 8),
        (20, 12, 4),
        (8, 5, 2),
    )
    #: line[gap] for gap 0..MAX_LINE_GAP (0 unused: a gap of 0 is a completed line).
    line: tuple[int, ...] = (0, 200, 90, 40, 16, 6, 2)
    #: added per track of the colour with a line gap of at most 3.
    line_count: int = 10
    tempo: int = 20


DEFAULT_WEIGHTS = Weights()


def track_ends(tiles: dict[tuple[int, int], Tile]) -> dict[Colour, list[tuple[End, End]]]:
    """Every open track of each colour as its pair of ends (tracks in first-tile order), walked
    from scratch: the specification of the map a position keeps (:meth:`.Position.open_tracks`),
    which :func:`evaluate` reads."""
    result: dict[Colour, list[tuple[End, End]]] = {Colour.WHITE: [], Colour.BLACK: []}
    for colour in (Colour.WHITE, Colour.BLACK):
        bit = int(colour)
        seen: set[tuple[int, int]] = set()
        pairs = result[colour]
        for cell, tile in tiles.items():
            if cell in seen:
                continue
            seen.add(cell)
            ends = []
            closed = False
            for start in (d for d in range(4) if (tile >> d) & 1 == bit):
                x, y = cell
                d = start
                while True:
                    dx, dy = STEP[d]
                    nxt = (x + dx, y + dy)
                    t = tiles.get(nxt)
                    if t is None:
                        ends.append((x, y, d))
                        break
                    if nxt == cell:
                        closed = True  # a loop: the game is over, nothing to evaluate
                        break
                    seen.add(nxt)
                    d = t.exit(d ^ 2)
                    x, y = nxt
                if closed:
                    break
            if not closed:
                pairs.append((ends[0], ends[1]))
    return result


def _open_tracks_by_colour(position: Position) -> dict[Colour, list[tuple[End, End]]]:
    """:func:`track_ends` from the open tracks the position keeps (the same pairs, in another
    order)."""
    tiles = position.tiles
    result: dict[Colour, list[tuple[End, End]]] = {Colour.WHITE: [], Colour.BLACK: []}
    by_bit = (result[Colour.BLACK], result[Colour.WHITE])
    for a, b in position.open_tracks():
        by_bit[(tiles[a[:2]] >> a[2]) & 1].append((a, b))
    return result


def loop_kind(a: End, b: End) -> tuple[int, int] | None:
    """(distance between the two target cells, direction relation), or None when too far.

    The relation is SAME (both ends leave in one direction, as in the FAQ's narrow and wide loop
    attacks), OPPOSITE, or TURNED (perpendicular, as in a single curve: the FAQ's simplest corner).
    """
    ax, ay, ad = a
    bx, by, bd = b
    tax, tay = ax + STEP[ad][0], ay + STEP[ad][1]
    tbx, tby = bx + STEP[bd][0], by + STEP[bd][1]
    distance = abs(tax - tbx) + abs(tay - tby)
    if distance == 0 or distance > MAX_LOOP_DISTANCE:
        return None
    if ad == bd:
        relation = SAME
    elif ad == bd ^ 2:
        relation = OPPOSITE
    else:
        relation = TURNED
    return distance, relation


def line_gap(a: End, b: End, box: Box) -> int | None:
    """Tiles still missing before the track spans the box (and at least 8) in one direction.

    Only tracks whose ends leave in opposite directions along the axis count (one west and one
    east, or one north and one south); None when neither axis qualifies or the gap exceeds 6.
    """
    best = None
    for low_dir, high_dir, axis, low_edge, high_edge in (
        (WEST, EAST, 0, box.min_x, box.max_x),
        (NORTH, SOUTH, 1, box.min_y, box.max_y),
    ):
        if {a[2], b[2]} != {low_dir, high_dir}:
            continue
        low, high = (a, b) if a[2] == low_dir else (b, a)
        span = high[axis] - low[axis] + 1
        if span <= 0:
            continue
        gap = max(LINE_SPAN - span, (low[axis] - low_edge) + (high_edge - high[axis]))
        if best is None or gap < best:
            best = gap
    if best is None or best > MAX_LINE_GAP:
        return None
    return max(best, 1)


def colour_score(pairs: list[tuple[End, End]], box: Box, weights: Weights) -> int:
    """The sum of one colour's features (loop potential and line progress)."""
    score = 0
    best_gap = None
    for a, b in pairs:
        kind = loop_kind(a, b)
        if kind is not None:
            score += weights.loop[kind[0]][kind[1]]
        gap = line_gap(a, b, box)
        if gap is not None:
            if gap <= 3:
                score += weights.line_count
            if best_gap is None or gap < best_gap:
                best_gap = gap
    if best_gap is not None:
        score += weights.line[best_gap]
    return score


def evaluate(position: Position, weights: Weights = DEFAULT_WEIGHTS) -> int:
    """The score of ``position`` for the side to move (positive: better for it)."""
    if position.box is None:
        return 0
    ends = _open_tracks_by_colour(position)
    mover = position.turn
    own = colour_score(ends[mover], position.box, weights)
    other = colour_score(ends[mover.other], position.box, weights)
    return own - other + weights.tempo
