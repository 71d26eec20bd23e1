"""Research: an evaluation by the shapes of tracks and of pairs of tracks (issue 12).

KizuNa, an open contest engine that beats the board, weighs the *shape* of every track (how far
apart its two ends are, in x and in y, in front of them and behind) and of every pair of tracks
of one colour (how far apart their ends are, matched both ways), where the board's evaluation
weighs each track's distance alone (docs/evaluation.md, "What KizuNa's evaluation sees"). The
compiled model searches with such an evaluation under ``research=RESEARCH_SHAPES``
(``host/fastmodel.c``'s ``shape_walk`` documents the features and their layout); this module
counts the features of a position (:func:`shape_features`), sets the weights the model searches
with (:func:`shape_weights`), and holds a reference of the count in Python that the tests hold
the compiled one to (:func:`reference_features`).

The weights are fitted, not copied: ``python -m trax_fpga.host.shapes fit`` (:mod:`.shapefit`).
``python -m trax_fpga.host.shapes kizuna eval_params.h`` maps KizuNa's own weights (its source's
``src/trax/eval_params.h``, GPL, not part of this project) onto the layout, to measure what its
evaluation is worth on the board's search; the result is for measuring, not for the player.
"""

from __future__ import annotations

import argparse
import ctypes
import dataclasses
import functools
import json
import pathlib
import re
import sys

from .fastmodel import (
    CONSTANT,
    LONG,
    PAIRS,
    PSEUDO,
    SHAPE_FEATURES,
    TRACKS,
    _game,
    library,
    shape_weights,
    track_weights,
)
from .position import Position
from .tiles import STEP
from .trackeval import ShapeTable, track_shape

__all__ = [
    "BOARD_WEIGHTS",
    "BOARD_WEIGHT_BITS",
    "CONSTANT",
    "GROUPS",
    "LONG",
    "PAIRS",
    "PSEUDO",
    "SHAPE_FEATURES",
    "TRACKS",
    "ShapeFeatures",
    "board_table",
    "chosen_features",
    "chosen_table",
    "kizuna_weights",
    "pair_pattern",
    "reference_features",
    "shape_features",
    "shape_weights",
    "track_table",
    "track_weights",
]

# The layout of the features (``host/fastmodel.c``, ``shape_walk``), :mod:`.fastmodel`'s
# PSEUDO ... CONSTANT: each a pair of counts, the side to move's then the other colour's, at
# index ``2 k`` and ``2 k + 1`` past its start.
#: A track's shape: fronts 1 apart in x and in y, one back cell (a curve's own track: a 1-1
#: corner).
CORNER_SHAPE = 1 | 1 << 2


@dataclasses.dataclass(frozen=True)
class ShapeFeatures:
    """A position's feature counts (:data:`SHAPE_FEATURES`, from the side to move's view), the
    attacks (tracks whose fronts are adjacent) of the side to move and of the other, and the
    shapes evaluation's score for the side to move with the weights set now (+500 with an
    attack of its own, -500 against two; else the weighted sum less 150 an opponent's attack,
    clamped to +-400)."""

    counts: tuple[int, ...]
    attacks: tuple[int, int]
    score: int


def shape_features(position: Position, size: int = 64) -> ShapeFeatures | None:
    """The features of ``position`` on a ``size`` x ``size`` torus, counted by the compiled
    model; None when the game is over."""
    game, count = _game(position)
    counts = (ctypes.c_int32 * SHAPE_FEATURES)()
    out = (ctypes.c_int32 * 3)()
    status = library().fm_shape_features(game, count, size, size, counts, out)
    if status < 0:
        raise ValueError("the compiled model cannot replay this game")
    if status == 1:
        return None
    return ShapeFeatures(tuple(counts), (out[0], out[1]), out[2])


def track_table(weights: list[int] | tuple[int, ...]) -> ShapeTable:
    """The tracks' shapes evaluation (:class:`.trackeval.ShapeTable`, the board's) of weights in
    this layout, which must weigh nothing but the tracks and the constant."""
    if len(weights) != SHAPE_FEATURES or not all(isinstance(w, int) for w in weights):
        raise ValueError(f"shape weights are {SHAPE_FEATURES} integers")
    others = [i for i, w in enumerate(weights) if w and not TRACKS <= i < PAIRS and i != CONSTANT]
    if others:
        raise ValueError(
            "the board weighs the tracks' shapes and a constant only: these weights hold "
            f"{len(others)} others (pairs, pseudo-threats or long tracks; fit with --groups tracks)"
        )
    tracks = weights[TRACKS:PAIRS]
    return ShapeTable(tuple(tracks[0::2]), tuple(tracks[1::2]), weights[CONSTANT])


#: The weights the board files' evaluation is made from: the tracks and the constant alone, second
#: round of self-play teaching (docs/evaluation.md, "The tracks' shapes in the board's model and
#: in the gateware"), in this layout.
BOARD_WEIGHTS = pathlib.Path(__file__).with_name("shape_weights_tracks.json")
#: The board keeps a weight in 8 bits, two to a 16-bit block-RAM word: one ECP5 DP16KD for two
#: of an engine's six reads (10 bits would take two), one iCE40 SB_RAM40_4K a read (9 bits would
#: take two, 12 of the HX8K's 32). :func:`board_table` clamps the fit's weights to -128..127: of
#: the kept ones three ``mine`` weights (143, 259, 261) become 127, which measured the same at
#: equal nodes (docs/evaluation.md, thirty-first session).
BOARD_WEIGHT_BITS = 8


@functools.cache
def board_table(bits: int = BOARD_WEIGHT_BITS) -> ShapeTable:
    """The board files' table of the tracks' shapes' weights (``TrackGame(shapes=...)``) and the
    model's default (``trax engine --search model``): :data:`BOARD_WEIGHTS`'s, clamped to
    ``bits``."""
    weights = json.loads(BOARD_WEIGHTS.read_text())
    return track_table(weights).clamped(bits)


def chosen_table(choice: str) -> ShapeTable | None:
    """The table a ``--shapes`` option names: ``board`` the board files' (:func:`board_table`),
    ``none`` none (the evaluation by the tracks' kinds), else a file of weights in this layout
    weighing the tracks and the constant only. ValueError says what is wrong, naming the file."""
    if choice == "board":
        return board_table()
    if choice == "none":
        return None
    try:
        weights = json.loads(pathlib.Path(choice).read_text(encoding="utf-8"))
    except (OSError, ValueError) as error:
        raise ValueError(f"cannot read the shapes' weights {choice}: {error}") from None
    try:
        return track_table(weights)
    except (TypeError, ValueError) as error:
        raise ValueError(f"{choice}: {error}") from None


def _capped(value: int, size: int) -> int:
    return min(3, abs(_signed(value, size)))


def pair_pattern(first: int, second: int) -> int:
    """The pattern of two matched pairs of fronts (4 bits each: |dx| | |dy| << 2), the lesser in
    the low bits, so that it does not depend on the order of the tracks' ends."""
    low, high = sorted((first, second))
    return low | high << 4


#: The features by kind (``shapefit --groups``, ``shapes keep --groups``): their indices.
GROUPS = {
    "pseudo": slice(PSEUDO, LONG),
    "long": slice(LONG, TRACKS),
    "tracks": slice(TRACKS, PAIRS),
    "pairs": slice(PAIRS, CONSTANT),
}


def _within(half: int, reach: int) -> bool:
    """Whether a matched pair of fronts (4 bits: |dx| | |dy| << 2) lies within ``reach``."""
    return (half & 3) <= reach and half >> 2 <= reach


def chosen_features(
    groups: tuple[str, ...] = tuple(GROUPS), pairs_within: int | None = None
) -> list[bool]:
    """Which features of the layout a fit or a cut keeps: those of ``groups`` (:data:`GROUPS`'
    names) and the constant; of the pairs, with ``pairs_within``, only those whose two matched
    pairs of fronts each lie within it in x and in y (2: the *near* pairs, 1: the *adjacent*;
    docs/evaluation.md, "The tracks' shapes taught again")."""
    unknown = set(groups) - set(GROUPS)
    if unknown:
        raise ValueError(f"unknown groups {', '.join(sorted(unknown))} (from {', '.join(GROUPS)})")
    if pairs_within is not None and not 0 <= pairs_within <= 3:
        raise ValueError("pairs within 0 to 3 only (a front's distance is counted up to 3)")
    chosen = [False] * SHAPE_FEATURES
    for group in groups:
        for i in range(SHAPE_FEATURES)[GROUPS[group]]:
            chosen[i] = True
    if pairs_within is not None:
        for i in range(PAIRS, CONSTANT):
            pattern = (i - PAIRS) // 2
            near = _within(pattern & 15, pairs_within) and _within(pattern >> 4, pairs_within)
            chosen[i] = chosen[i] and near
    chosen[CONSTANT] = True
    return chosen


def reference_features(position: Position, size: int = 64) -> tuple[int, ...]:
    """The same counts as :func:`shape_features`, computed in Python from the position's open
    tracks (the specification the tests hold the compiled count to)."""
    counts = [0] * SHAPE_FEATURES
    counts[CONSTANT] = 1
    tiles, side = position.tiles, position.turn
    box = position.box
    spans = (box.max_x - box.min_x, box.max_y - box.min_y)
    tracks = []
    for ends in position.open_tracks():
        (x0, y0, d0), _ = ends
        colour = (tiles[(x0, y0)] >> d0) & 1
        backs = [(x, y) for x, y, _ in ends]
        fronts = [(x + STEP[d][0], y + STEP[d][1]) for x, y, d in ends]
        other = int(colour != side)
        for axis in (0, 1):
            span = abs(_signed(fronts[1][axis] - fronts[0][axis], size))
            if max(9 - span, spans[axis] - span) <= 2:
                counts[LONG + other] += 1
        shape = track_shape(ends, size, size)
        counts[TRACKS + 2 * shape + other] += 1
        corner = backs[0] if shape == CORNER_SHAPE else None
        for colour2, fronts2, corner2 in tracks:
            if colour2 != colour:
                continue
            for swap in (0, 1):
                q = [
                    _capped(fronts[j][0] - fronts2[j ^ swap][0], size)
                    | _capped(fronts[j][1] - fronts2[j ^ swap][1], size) << 2
                    for j in (0, 1)
                ]
                counts[PAIRS + 2 * pair_pattern(*q) + other] += 1
            if corner and corner2 and tiles[corner] == tiles[corner2]:
                dx = _signed(corner[0] - corner2[0], size)
                dy = _signed(corner[1] - corner2[1], size)
                counts[PSEUDO + other] += abs(dx * dy) == 2
        tracks.append((colour, fronts, corner))
    return tuple(counts)


def _signed(value: int, size: int) -> int:
    value %= size
    return value - size if value >= size // 2 else value


def kizuna_weights(source: str, scale: float = 1.0) -> list[int]:
    """KizuNa's evaluation weights (the numbers of its ``eval_params.h``, 1,029: the same
    layout, its pair patterns in the order its ends happen to have) on this layout, times
    ``scale``: a pattern and its halves swapped get the mean of their two weights."""
    numbers = [int(n) for n in re.findall(r"-?\d+", source.split("{", 1)[-1].split("}")[0])]
    if len(numbers) != SHAPE_FEATURES:
        raise ValueError(f"expected {SHAPE_FEATURES} weights, found {len(numbers)}")
    weights = [float(w) for w in numbers]
    for q in range(256):
        swapped = (q >> 4) | (q & 15) << 4
        for other in (0, 1):
            a, b = PAIRS + 2 * q + other, PAIRS + 2 * swapped + other
            weights[a] = weights[b] = (numbers[a] + numbers[b]) / 2
    return [round(w * scale) for w in weights]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m trax_fpga.host.shapes",
        description="Research: the shapes evaluation's weights (RESEARCH_SHAPES).",
    )
    sub = parser.add_subparsers(dest="command", required=True)
    kizuna = sub.add_parser("kizuna", help="map KizuNa's eval_params.h onto the layout (JSON)")
    kizuna.add_argument("source", type=pathlib.Path, help="KizuNa's src/trax/eval_params.h")
    kizuna.add_argument("--scale", type=float, default=1.0, help="multiply every weight (1)")
    kizuna.add_argument("--out", type=pathlib.Path, help="write here (default: stdout)")
    table = sub.add_parser(
        "table",
        help="the board's table in the layout (JSON): a tracks-only file's weights clamped",
    )
    table.add_argument(
        "weights",
        nargs="?",
        type=pathlib.Path,
        default=BOARD_WEIGHTS,
        help="tracks-only weights in the layout (default: the board's kept weights)",
    )
    table.add_argument(
        "--bits",
        type=int,
        default=BOARD_WEIGHT_BITS,
        help=f"clamp every weight to this many bits (default {BOARD_WEIGHT_BITS}, the board's)",
    )
    table.add_argument("--out", type=pathlib.Path, help="write here (default: stdout)")
    keep = sub.add_parser(
        "keep",
        help="weights (JSON) with only some kinds of feature kept, the others set to 0: "
        "what a part of fitted weights is worth",
    )
    keep.add_argument("weights", type=pathlib.Path, help="weights in the layout (JSON)")
    keep.add_argument(
        "--groups",
        required=True,
        help=f"the kinds of feature kept, comma-separated, from {','.join(GROUPS)} "
        "(the constant is always kept)",
    )
    keep.add_argument(
        "--pairs-within",
        type=int,
        metavar="R",
        help="keep only the pairs whose matched fronts lie within R in x and in y "
        "(2: the near pairs, 1: the adjacent; default: every pair)",
    )
    keep.add_argument("--out", type=pathlib.Path, help="write here (default: stdout)")
    args = parser.parse_args(argv)
    if args.command == "kizuna":
        weights = kizuna_weights(args.source.read_text(), args.scale)
    elif args.command == "keep":
        try:
            chosen = chosen_features(tuple(args.groups.split(",")), args.pairs_within)
        except ValueError as error:
            parser.error(str(error))
        try:
            weights = json.loads(args.weights.read_text(encoding="utf-8"))
        except (OSError, ValueError) as error:
            parser.error(f"{args.weights}: {error}")
        if not isinstance(weights, list) or len(weights) != SHAPE_FEATURES:
            parser.error(f"{args.weights}: expected a JSON list of {SHAPE_FEATURES} weights")
        weights = [w if keep_it else 0 for w, keep_it in zip(weights, chosen, strict=True)]
    else:
        if args.bits < 2:
            parser.error("--bits must be at least 2")
        try:
            found = track_table(json.loads(args.weights.read_text(encoding="utf-8")))
        except (OSError, TypeError, ValueError) as error:
            parser.error(f"{args.weights}: {error}")
        weights = track_weights(found.clamped(args.bits))
    text = json.dumps(weights)
    if args.out:
        args.out.write_text(text + "\n")
    else:
        print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
