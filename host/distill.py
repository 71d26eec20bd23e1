"""The board's evaluation fitted to a contest engine's judgement (research, issue 12).

The board's evaluation (:mod:`.trackeval`) weighs each track by its kind; fitted to game results
(:mod:`.tune`) its weights changed nothing in self-play. This module fits the same kinds of
track, and a few more, to what a strong contest engine *says* about positions: KizuNa's search
score (github.com/YuriCat/KizuNaTrax, snapshot 16feb28, one thread; docs/evaluation.md) after
its iterative deepening, as it reports it on its standard error before every move it plays.

``python -m trax_fpga.host.distill fit`` (from a checkout: it reads ``tests/data``) prints how
well the board's evaluation and the fit predict those scores, and the fitted weights. The
method, reproducible with that one command:

1. *Positions* (``tests/data/kizuna_scores.tsv``, made by ``distill extract`` from the match
   logs of ``trax match`` and KizuNa's standard error in the wrapper's run folders): every
   position in which KizuNa searched before a move, with its score (from the side to move, its
   own: +30,000 a win it has found) and the depth it reached.
2. *Which are fitted*: the quiet ones, as the board's leaves: no win found by either (|score|
   below 20,000), no attack of the side to move (the board scores that +500), at most one of
   the opponent's (two: -500).
3. *Features* (:func:`features`, :data:`.fastmodel.BOARD_WEIGHTS`'s layout, as the compiled
   model's fitted evaluation sums them): per kind of track (distance of its targets 1 to 4 on
   the 64 x 64 torus, and the relation of its ends' directions, :func:`.trackeval.loop_kind`)
   the side to move's count and the opponent's, the opponent's attacks, KizuNa's
   pseudo-threats (:func:`.trackresearch.research_features`) of each, the long tracks (targets
   6 or more apart in x or y) of each, and a constant.
4. *Fit*: least squares with a ridge penalty (``--ridge``, on every weight but the constant:
   some kinds are rare), solved exactly (no library needed). Five folds split by game give
   the correlation of prediction and score on games the fit did not see, beside the board's
   own evaluation's (:data:`.fastmodel.BOARD_WEIGHTS`); and, as a check on other games, the
   correlation of each with the side to move's winning in the human games and the 2015
   contest logs.
5. *Weights*: KizuNa's scale is about five times the board's (its scores' spread against the
   board's clamp of 400), so the weights are multiplied by ``--scale`` (0.5) and rounded, laid
   out for :func:`.fastmodel.research_weights`.

The fit proposes; games decide (docs/evaluation.md).
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import math
import pathlib
import re

from .fastmodel import BOARD_WEIGHTS
from .position import Position
from .trackeval import kind_counts, track_features
from .trackresearch import research_features
from .tune import _solve, read_games

#: Relative to the working directory (a checkout's root): an installed package has no tests/.
TESTS_DATA = pathlib.Path("tests/data")
DATA = TESTS_DATA / "kizuna_scores.tsv"
#: Decided games to check a fit against: the human games and the 2015 contest logs.
RECORDS = (TESTS_DATA / "human_games.txt", TESTS_DATA / "contest_logs_2015.txt")
TORUS = 64
#: A score at least this large is a win KizuNa has found (its "almost win" is 30,000).
FOUND_WIN = 20000

FEATURE_NAMES = (
    *(f"mine {d}{r}" for d in (1, 2, 3, 4) for r in "sto"),
    *(f"theirs {d}{r}" for d in (1, 2, 3, 4) for r in "sto"),
    "theirs attacks",
    "mine pseudo-threats",
    "theirs pseudo-threats",
    "mine long",
    "theirs long",
    "constant",
)


@dataclasses.dataclass(frozen=True)
class Sample:
    """A position KizuNa searched (``moves`` from the empty board), its score and depth, and
    the game it came from (``game``: for splitting the folds)."""

    game: str
    score: int
    depth: int
    moves: tuple[str, ...]


def features(position: Position, torus: int = TORUS) -> list[int] | None:
    """The position's features from the side to move, in :data:`.fastmodel.BOARD_WEIGHTS`'s
    layout; None when the board's leaf would not weigh them (an attack of the side to move,
    or two of the opponent's)."""
    mine = position.turn
    theirs = mine.other
    found = track_features(position, torus, torus)
    if found.attacks[mine] or found.attacks[theirs] >= 2:
        return None
    kinds = kind_counts(position, torus, torus)
    research = research_features(position, torus, torus)
    return [
        *kinds[mine],
        *kinds[theirs],
        found.attacks[theirs],
        research.pseudo_threats[mine],
        research.pseudo_threats[theirs],
        research.long[mine],
        research.long[theirs],
        1,
    ]


def read_samples(path: pathlib.Path = DATA) -> list[Sample]:
    """The samples of a data file: game, score, depth and the moves a line (tab-separated),
    ``#`` comments."""
    samples = []
    for line in path.read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            game, score, depth, moves = line.split("\t")
            samples.append(Sample(game, int(score), int(depth), tuple(moves.split())))
    return samples


def extract(match_dirs: list[pathlib.Path], run_dirs: list[pathlib.Path]) -> list[Sample]:
    """The positions KizuNa searched in the games of ``match_dirs`` (``trax match`` logs), with
    the scores of its standard error files in ``run_dirs`` (``kizuna-N.err``, one a game).

    A KizuNa game is matched to the log whose KizuNa moves begin with the moves it searched
    (its first move as white may be drawn unsearched); one that matches none is skipped."""
    games = []
    for log in sorted(p for d in match_dirs for p in d.glob("*.log")):
        text = log.read_text()
        lines = [line.strip() for line in text.splitlines() if line.strip()]
        moves = [line for line in lines if not line.startswith("#")][2:]
        white = re.search(r"^# white: (.*)$", text, re.M)
        if white and moves:
            games.append((log, moves, "kizuna" in white[1]))
    samples = []
    for err in sorted(p for d in run_dirs for p in d.glob("kizuna-*.err")):
        text = err.read_text(errors="replace")
        searches = re.findall(r"search best = (-?\d+) (\S+) depth = (\d+)", text)
        searched = [move for _, move, _ in searches]
        found = _the_game(games, searched)
        if found is None:
            continue
        log, moves, kizuna_white, skip = found
        game = f"{log.parent.name}/{log.stem}"
        for k, (score, _move, depth) in enumerate(searches):
            ply = (0 if kizuna_white else 1) + 2 * (k + skip)
            samples.append(Sample(game, int(score), int(depth), tuple(moves[:ply])))
    return samples


def _the_game(games, searched: list[str]):
    """The game (log, moves, whether KizuNa was white, its unsearched first moves) whose KizuNa
    moves begin with ``searched``; None if none."""
    for log, moves, kizuna_white in games:
        own = moves[0 if kizuna_white else 1 :: 2]
        for skip in (0, 1):
            if searched and own[skip : skip + len(searched)] == searched:
                return log, moves, kizuna_white, skip
    return None


def quiet_rows(samples: list[Sample]) -> tuple[list[list[int]], list[float], list[str]]:
    """The features, scores and games of the samples the board's leaf would weigh."""
    rows, scores, games = [], [], []
    for sample in samples:
        if abs(sample.score) >= FOUND_WIN:
            continue
        position = Position.from_moves(list(sample.moves))
        if position.box is None or position.outcome is not None:
            continue
        row = features(position)
        if row is not None:
            rows.append(row)
            scores.append(float(sample.score))
            games.append(sample.game)
    return rows, scores, games


def ridge(rows: list[list[int]], scores: list[float], penalty: float) -> list[float]:
    """Least squares with ``penalty`` times the squared weights added (not the constant's, the
    last)."""
    n = len(rows[0])
    matrix = [[sum(r[i] * r[j] for r in rows) for j in range(n)] for i in range(n)]
    for i in range(n - 1):
        matrix[i][i] += penalty
    vector = [sum(r[i] * y for r, y in zip(rows, scores, strict=True)) for i in range(n)]
    return _solve(matrix, vector)


def correlation(xs: list[float], ys: list[float]) -> float:
    mx, my = sum(xs) / len(xs), sum(ys) / len(ys)
    sxy = sum((x - mx) * (y - my) for x, y in zip(xs, ys, strict=True))
    sxx = sum((x - mx) ** 2 for x in xs)
    syy = sum((y - my) ** 2 for y in ys)
    return sxy / math.sqrt(sxx * syy) if sxx and syy else 0.0


def predict(weights, row) -> float:
    return sum(w * v for w, v in zip(weights, row, strict=True))


def held_out(rows, scores, games, penalty: float, folds: int = 5) -> list[tuple[float, float]]:
    """Per fold (games split in turn), the correlation with the scores of the fit on the other
    folds and of the board's own evaluation."""
    names = sorted(set(games))
    results = []
    for fold in range(folds):
        test = set(names[fold::folds])
        train = [i for i, g in enumerate(games) if g not in test]
        tested = [i for i, g in enumerate(games) if g in test]
        weights = ridge([rows[i] for i in train], [scores[i] for i in train], penalty)
        truth = [scores[i] for i in tested]
        fitted = correlation([predict(weights, rows[i]) for i in tested], truth)
        board = correlation([predict(BOARD_WEIGHTS, rows[i]) for i in tested], truth)
        results.append((fitted, board))
    return results


def game_correlations(records: pathlib.Path, weights) -> tuple[float, float]:
    """A check on other games than KizuNa's: over the quiet positions of the decided games in
    ``records`` (:func:`.tune.read_games`), the correlation of the board's evaluation and of
    ``weights`` with whether the side to move went on to win."""
    board, fitted, won = [], [], []
    for moves, winner in read_games(records):
        position = Position()
        for move in moves[:-1]:
            position.play(move)
            if position.outcome is not None:
                break
            row = features(position)
            if row is not None:
                board.append(predict(BOARD_WEIGHTS, row))
                fitted.append(predict(weights, row))
                won.append(float(position.turn is winner))
    return correlation(board, won), correlation(fitted, won)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        prog="python -m trax_fpga.host.distill",
        description="Fit the board's evaluation to KizuNa's search scores (research).",
    )
    commands = parser.add_subparsers(dest="command", required=True)
    fit = commands.add_parser("fit", help="fit the weights and print the held-out correlations")
    fit.add_argument(
        "--data", type=pathlib.Path, default=DATA, help="samples (default: %(default)s)"
    )
    fit.add_argument("--ridge", type=float, default=30.0, help="penalty (default: %(default)s)")
    fit.add_argument("--scale", type=float, default=0.5, help="to the board's scale (0.5)")
    fit.add_argument("--out", type=pathlib.Path, help="write the weights here (JSON)")
    ext = commands.add_parser("extract", help="make a data file from match logs and KizuNa's")
    ext.add_argument("--matches", type=pathlib.Path, nargs="+", required=True)
    ext.add_argument("--runs", type=pathlib.Path, nargs="+", required=True)
    ext.add_argument("--out", type=pathlib.Path, required=True)
    args = parser.parse_args(argv)
    if args.command == "extract":
        samples = extract(args.matches, args.runs)
        lines = [f"{s.game}\t{s.score}\t{s.depth}\t{' '.join(s.moves)}" for s in samples]
        header = (
            "# KizuNa's search scores (github.com/YuriCat/KizuNaTrax 16feb28, one thread),\n"
            "# from its standard error in `trax match` series (python -m\n"
            "# trax_fpga.host.distill extract). A line: game, score, depth, moves\n"
            "# (tab-separated): the position before KizuNa's move from the empty board, the\n"
            "# score from KizuNa's side (the side to move).\n"
        )
        args.out.write_text(header + "\n".join(lines) + "\n")
        print(f"{len(samples)} positions from {len({s.game for s in samples})} games")
        return
    rows, scores, games = quiet_rows(read_samples(args.data))
    print(f"{len(rows)} quiet positions from {len(set(games))} games")
    folds = held_out(rows, scores, games, args.ridge)
    print("held-out correlation with KizuNa's score (fit, board's evaluation), per fold:")
    for fitted, board in folds:
        print(f"  {fitted:6.3f} {board:6.3f}")
    mean = [sum(f[i] for f in folds) / len(folds) for i in (0, 1)]
    print(f"  mean: fit {mean[0]:.3f}, board's evaluation {mean[1]:.3f}")
    weights = ridge(rows, scores, args.ridge)
    print("correlation with the side to move's winning the game (quiet positions, board, fit):")
    for records in RECORDS:
        board, fitted = game_correlations(records, weights)
        print(f"  {records.name}: {board:.3f} {fitted:.3f}")
    scaled = [round(w * args.scale) for w in weights]
    for name, weight, board in zip(FEATURE_NAMES, scaled, BOARD_WEIGHTS, strict=True):
        print(f"  {name:24} {weight:6d}   (board {board})")
    if args.out:
        args.out.write_text(json.dumps(scaled) + "\n")


if __name__ == "__main__":
    main()
