"""Candidate evaluations and threat searches for the block-RAM board's next gateware step.

Model only, and off unless asked for: :func:`.hwsearch.hw_search` takes ``tuning=`` (a
:class:`TrackTuning`); without it (the default) the model is the gateware's, bit for bit. A
:class:`TrackTuning`'s defaults are the board's evaluation *before* the loop potential of
:mod:`.trackeval` (attacks and near tracks, ``spec``: the baseline these candidates were measured
against); ``sw-loops`` is the board's evaluation now, node for node while the game's targets lie
less than half the torus apart.
``python -m trax_fpga.host.search_bench match track-fit track ...`` plays the variants named in
:data:`TUNINGS` against each other; docs/evaluation.md has the results.

Everything here is computed from the two targets of each track (the empty cells its open ends
point into), as the track-end table of ``hdl/track_board.py`` holds them, so that each feature
is O(1) per track and can be counted tile by tile as the gateware counts attacks today:

- ``far``: tracks whose targets are 3 apart (|dx| + |dy| on the torus): a wider attack, such as
  an L threat's track, two moves from a loop;
- ``long``: tracks whose targets are at least ``long_span`` apart in one direction (columns or
  rows): a track reaching across the box toward a line;
- ``extensions``: the plies a threatened side may be searched beyond the horizon (the
  gateware's ``MAX_EXTENSIONS``, 1);
- ``software``: the horizon scored by the software player's evaluation
  (:func:`.evaluate.evaluate`: loop potential by the targets' distance up to 4 and the ends'
  directions, line progress against the box, tempo) under the same rules for attacks (+500 own,
  -500 for two of the opponent's) and clamp: what whole-track knowledge beyond attacks and near
  tracks is worth at equal nodes; without ``software_lines``, its loop potential and tempo
  alone (no line progress, which depends on the box and so is not O(1) per track);
- ``threat_plies``: a threat search at the horizon: the side to move, not threatened, may also
  try the moves at the targets of its near tracks that make an attack (a threat); the opponent
  must then answer with any move, and the threats go on for at most ``threat_plies`` of the
  threatening side's moves. The side to move may always stand on the evaluation instead;
- ``threat_answers``: with ``threat_plies``, how the threatened side answers a threat: ``"all"``
  (every move, the first version) or ``"targets"`` (only the moves at the two targets of the
  attack just made, which cost a few nodes where every move costs some forty; a defence
  elsewhere, by forced plays into a target, is not seen: the search is a little optimistic for
  the threatening side);
- ``hash_moves``: a table of best moves (:mod:`.movetable`, the gateware's ``move_table``)
  of ``hash_moves`` entries, ``hash_tag_bits`` of tag, an entry searched deeper kept or not
  (``hash_keep_deeper``): the sizes and policies the gateware's was chosen from
  (docs/hash-moves.md), on the board's evaluation (``sw-loops``); with ``hash_scores``, the
  nodes' values in it too (the gateware's ``table_scores``);
- ``reduce_far``: a move at a ply of at least ``reduce_from`` more than ``reduce_far`` cells
  outside the boxes of the two turns before it is searched a ply shallower (KizuNa's "old
  line reduction" in a form a board's registers could keep).
"""

from __future__ import annotations

import dataclasses

from .evaluate import DEFAULT_WEIGHTS
from .position import Position
from .tiles import STEP, Colour
from .trackeval import ATTACK_WEIGHT, CLAMP, LOST, OWN_ATTACK

__all__ = [
    "NO_LINES",
    "TUNINGS",
    "ResearchFeatures",
    "TrackTuning",
    "research_features",
    "research_score",
]


#: The weight of a near track (targets 2 apart) in the board's evaluation before the loop
#: potential.
NEAR_WEIGHT = 60

#: The software player's evaluation without its line progress (``software_lines`` False).
NO_LINES = dataclasses.replace(DEFAULT_WEIGHTS, line=(0,) * 7, line_count=0)


@dataclasses.dataclass(frozen=True)
class TrackTuning:
    """The weights and options of a candidate evaluation; the defaults are the board's
    evaluation before the loop potential (attacks and near tracks)."""

    near: int = NEAR_WEIGHT
    attack: int = ATTACK_WEIGHT
    clamp: int = CLAMP
    far: int = 0
    long: int = 0
    long_span: int = 6
    extensions: int = 1
    threat_plies: int = 0
    threat_answers: str = "all"
    software: bool = False
    software_lines: bool = True
    #: With ``software``: the loop potential's table (rows: distance 1 to 4; columns: the same,
    #: turned, opposite directions) in place of the software player's.
    loop: tuple[tuple[int, int, int], ...] | None = None
    #: With ``software``: the score within the clamp rounded down to a multiple of this (the
    #: low bits dropped): coarser scores, more cutoffs.
    quantum: int = 1
    #: Entries of the table of best moves by position (a power of two; 0: none), the bits of its
    #: tags, and whether an entry searched deeper is kept.
    hash_moves: int = 0
    hash_tag_bits: int = 20
    hash_keep_deeper: bool = False
    #: The table of best moves holds its nodes' values too, as a gateware table would
    #: (:class:`.movetable.MoveTable` with ``scores``; ``hash_tag_bits`` tell positions apart).
    hash_scores: bool = False
    #: With ``software``: the weight of a *pseudo-threat* (KizuNa's L-threat test, docs/
    #: evaluation.md): two 1-1 corners of one colour (tracks with both open ends on one tile,
    #: on adjacent sides) whose tiles are the same and a knight's move apart; the difference of
    #: the two colours' counts, for the side to move.
    pseudo_threat: int = 0
    #: Reductions (KizuNa's "old line reduction", docs/evaluation.md): a move at a ply of at
    #: least ``reduce_from`` whose cell lies more than ``reduce_far`` cells (in x or in y)
    #: outside the box of the tiles of each of the two turns before it (a turn's own box, as
    #: the board's registers would keep it) is searched one ply shallower (0: none).
    reduce_far: int = 0
    reduce_from: int = 1


@dataclasses.dataclass(frozen=True)
class ResearchFeatures:
    """Per colour (indexed by :class:`~.tiles.Colour`): attacks, near, far and long tracks, the
    targets of the near tracks (where a threat can be made) and of the attacks (where one is
    answered)."""

    attacks: tuple[int, int]
    near: tuple[int, int]
    far: tuple[int, int]
    long: tuple[int, int]
    near_targets: tuple[frozenset, frozenset]
    attack_targets: tuple[frozenset, frozenset]
    pseudo_threats: tuple[int, int] = (0, 0)

    def threatened(self, turn: Colour) -> bool:
        return self.attacks[turn.other] > 0


def _signed(value: int, size: int) -> int:
    value %= size
    return value - size if value >= size // 2 else value


def research_features(
    position: Position, width: int, height: int, long_span: int = 6
) -> ResearchFeatures:
    """Count the features of both colours on a ``width`` x ``height`` torus (attacks exactly as
    :func:`.trackeval.track_features`)."""
    tiles = position.tiles
    attacks, near, far, long = [0, 0], [0, 0], [0, 0], [0, 0]
    targets: list[set] = [set(), set()]
    attack_targets: list[set] = [set(), set()]
    corners: list[list] = [[], []]
    for (x, y, d), (cx, cy, exit_side) in position.open_tracks():
        tile = tiles[(x, y)]
        colour = (tile >> d) & 1
        t1 = (x + STEP[d][0], y + STEP[d][1])
        t2 = (cx + STEP[exit_side][0], cy + STEP[exit_side][1])
        ddx = abs(_signed(t1[0] - t2[0], width))
        ddy = abs(_signed(t1[1] - t2[1], height))
        distance = ddx + ddy
        if distance == 1:
            attacks[colour] += 1
            attack_targets[colour].update((t1, t2))
        elif distance == 2:
            near[colour] += 1
            targets[colour].update((t1, t2))
            if (cx, cy) == (x, y):  # both ends on one tile: a 1-1 corner
                corners[colour].append(((x, y), tile))
        elif distance == 3:
            far[colour] += 1
        if max(ddx, ddy) >= long_span:
            long[colour] += 1
    return ResearchFeatures(
        tuple(attacks),
        tuple(near),
        tuple(far),
        tuple(long),
        tuple(map(frozenset, targets)),
        tuple(map(frozenset, attack_targets)),
        tuple(_pseudo_threats(c, width, height) for c in corners),
    )


def _pseudo_threats(corners: list, width: int, height: int) -> int:
    """The pairs of 1-1 corners, ``(cell, tile)`` each, whose tiles are the same and a knight's
    move apart (KizuNa's test)."""
    count = 0
    for i, ((x0, y0), tile0) in enumerate(corners):
        for (x1, y1), tile1 in corners[:i]:
            knight = abs(_signed(x0 - x1, width) * _signed(y0 - y1, height)) == 2
            count += knight and tile0 == tile1
    return count


def research_score(features: ResearchFeatures, turn: Colour, tuning: TrackTuning) -> int:
    """The score for ``turn``, the side to move: the near-track evaluation's form with the
    tuning's weights and its extra features."""
    mine, theirs = turn, turn.other
    if features.attacks[mine] > 0:
        return OWN_ATTACK
    if features.attacks[theirs] >= 2:
        return LOST
    value = tuning.near * (features.near[mine] - features.near[theirs])
    value -= tuning.attack * features.attacks[theirs]
    value += tuning.far * (features.far[mine] - features.far[theirs])
    value += tuning.long * (features.long[mine] - features.long[theirs])
    return max(-tuning.clamp, min(tuning.clamp, value))


def _hash(
    entries: int, tag_bits: int = 20, keep_deeper: bool = False, scores: bool = False
) -> TrackTuning:
    """The board's evaluation (``sw-loops``) with a table of best moves (with ``scores``, and
    their values)."""
    return TrackTuning(
        software=True,
        software_lines=False,
        hash_moves=entries,
        hash_tag_bits=tag_bits,
        hash_keep_deeper=keep_deeper,
        hash_scores=scores,
    )


#: The variants measured (docs/evaluation.md). ``fit``: the weights of ``python -m
#: trax_fpga.host.tune``.
FIT = TrackTuning(near=9, attack=68)
FIT_LOOP = ((60, 40, 10), (53, 13, -27), (16, -6, -9), (-18, 13, -25))
#: The ULX3S board file's search: the board's evaluation and 16,384 entries with their values.
_BOARD_FILE = _hash(16384, tag_bits=26, keep_deeper=True, scores=True)
TUNINGS: dict[str, TrackTuning] = {
    "spec": TrackTuning(),
    "fit": FIT,
    "fit-far": dataclasses.replace(FIT, far=4),
    "fit-long": dataclasses.replace(FIT, long=8),
    "fit-ext2": dataclasses.replace(FIT, extensions=2),
    "fit-ext3": dataclasses.replace(FIT, extensions=3),
    "fit-threat": dataclasses.replace(FIT, threat_plies=2),
    "spec-far": TrackTuning(far=30),
    "spec-long": TrackTuning(long=40),
    "spec-ext2": TrackTuning(extensions=2),
    "spec-threat": TrackTuning(threat_plies=2),
    "sw": TrackTuning(software=True),
    "sw-loops": TrackTuning(software=True, software_lines=False),
    # The loop potential's table fitted to the recorded games' results (``python -m
    # trax_fpga.host.tune``, "proposed table"), with the fit's attack weight.
    "loops-fit": TrackTuning(software=True, software_lines=False, loop=FIT_LOOP, attack=17),
    "sw-loops-q32": TrackTuning(software=True, software_lines=False, quantum=32),
    # KizuNa's pseudo-threat (an L threat's shape) on the board's evaluation (twentieth session).
    "sw-loops-pt100": TrackTuning(software=True, software_lines=False, pseudo_threat=100),
    # Reductions of the moves away from the last two turns, on the board file's search.
    "hash16k-scores-r2": dataclasses.replace(_BOARD_FILE, reduce_far=2),
    "hash16k-scores-r2-root": dataclasses.replace(_BOARD_FILE, reduce_far=2, reduce_from=0),
    # The board file's search with the software player's line progress (twenty-second session).
    "hash16k-scores-lines": dataclasses.replace(_BOARD_FILE, software_lines=True),
    # The threat search on the board's evaluation, answers at the attack's targets only.
    "sw-loops-threat2": TrackTuning(
        software=True, software_lines=False, threat_plies=2, threat_answers="targets"
    ),
    # The board's search with a table of best moves: the plan's (docs/hash-moves.md: 4,096
    # entries, an entry searched deeper kept, 8-bit tags), and the variants it was chosen from.
    "sw-loops-hash": _hash(4096, tag_bits=8, keep_deeper=True),
    "sw-loops-hash-replace": _hash(4096),
    "sw-loops-hash1k": _hash(1024),
    "sw-loops-hash16k": _hash(16384),
    "sw-loops-hash1m": _hash(1 << 20),
    "sw-loops-hash-deep": _hash(4096, keep_deeper=True),
    "sw-loops-hash2k": _hash(2048, tag_bits=8, keep_deeper=True),
    "sw-loops-hash-tag1": _hash(4096, tag_bits=1, keep_deeper=True),
    # The ULX3S board file's table before the eighteenth session (16,384 entries, an entry
    # searched deeper kept, 8-bit tags), and since (the nodes' values in it too, its entries
    # told apart by 26 tag bits, every bit of the key above the slot: the gateware's
    # ``table_scores``); the same with 8 tag bits, which gave a wrong score (docs/hash-moves.md).
    "sw-loops-hash16k-deep": _hash(16384, tag_bits=8, keep_deeper=True),
    "sw-loops-hash16k-scores": _BOARD_FILE,
    "sw-loops-hash16k-scores-tag8": _hash(16384, tag_bits=8, keep_deeper=True, scores=True),
}
