"""The shapes evaluation's weights, fitted to the board's own self-play (issue 12, research).

``python -m trax_fpga.host.shapefit run --games 4000 --budget 20000 --jobs 2 --teacher 20000
--mix 1 --out shapes.json`` plays the games and fits the weights that ``--research 128``
(:data:`.fastmodel.RESEARCH_SHAPES`) searches with; ``games`` and ``fit`` do the two halves
apart. The method, reproducible with that one command (the games and searches are
deterministic given the seed):

1. *Games.* The board file's search (one engine, its table, the attack cut and newest first:
   ``search_bench``'s ``board1``, or ``--player``, with ``--player-weights`` for a shapes
   player) plays itself at ``--budget`` nodes a move from ``--games`` seeded random 4-ply
   openings (the search is deterministic: one game an opening). Records are written one a line
   as ``<index> | <result> | <moves>``, the format of ``tests/data/human_games.txt``.
2. *Positions and labels.* Every position of a decided game after its opening where the shapes
   evaluation decides (the side to move holds no attack, the opponent at most one: otherwise
   the search scores +-500 or extends; ``--quiet``: neither holds one). Its label is 1 if the
   side to move went on to win, else 0; with ``--teacher N`` it is mixed (``--mix`` the
   judgement's share) with the board file's search's judgement of the position at N nodes,
   ``sigmoid(score / 100)`` for the side to move (``--teacher-weights``: the teacher searches
   with the shapes evaluation and those weights, for a second round). Features:
   :func:`.shapes.shape_features` (1,029 counts from the side to move's view, the layout in
   ``host/fastmodel.c``).
3. *Fit.* ``logit P(side to move wins) = (w . x - 150 attacks(opponent)) / 100`` (the score in
   hundredths of a logit, as :mod:`.tune`; the opponent's attack weight is the board's, fixed),
   by maximum likelihood (log-loss against the labels) with an L2 penalty (``--l2``, per
   position) on every weight but the constant, full-batch gradient descent (Adam,
   ``--iterations``); ``--groups`` fits some kinds of feature only. Features seen in fewer
   than ``--min-count`` positions are left at 0. A fifth of the games (every fifth) is held out
   and the log-loss on them reported.
4. *Weights*: ``w`` rounded to integers (a JSON list; ``search_bench match board1-r131 board1
   --shape-weights FILE`` and ``trax engine --search model --research 128 --research-weights
   FILE`` read it). The fit proposes; self-play at the board's nodes decides: fitted to the
   results alone the weights lose, fitted to the search's judgement they gain
   (docs/evaluation.md, "The shapes evaluation").
"""

from __future__ import annotations

import argparse
import json
import math
import multiprocessing
import pathlib
import sys

from .engine import DEFAULT_MODEL_DEPTH, DEFAULT_MODEL_TABLE
from .fastmodel import RESEARCH_SHAPES, fast_search
from .judge import game_moves
from .position import Position
from .search_bench import BOARD_RESEARCH, MAX_PLIES, make_player, random_opening
from .shapes import (
    CONSTANT,
    GROUPS,
    SHAPE_FEATURES,
    chosen_features,
    shape_features,
    shape_weights,
)

__all__ = ["fit", "load_samples", "main", "self_play"]

OPENING_PLIES = 4
SCALE = 100  # score units per logit
ATTACK_WEIGHT = 150  # the opponent's attacks (the board's evaluation, fixed in the fit)


def _play(task: tuple[str, int, int]) -> tuple[str, list[str]]:
    """One self-play game from the opening of ``seed``: its result and moves."""
    player_name, budget, seed = task
    player = make_player(player_name, budget)
    position = Position.from_moves(random_opening(seed, OPENING_PLIES))
    while position.outcome is None and position.ply < MAX_PLIES:
        position.play(player(position))
    result = str(position.outcome) if position.outcome else "none"
    return result, [str(turn.move) for turn in position.turns]


def self_play(player: str, budget: int, games: int, seed: int, jobs: int = 1, progress=None):
    """``games`` self-play records, (result, moves) each, from the openings of seeds ``seed``,
    ``seed + 1``, ...; ``progress(done, games)`` after each."""
    tasks = [(player, budget, seed + k) for k in range(games)]
    records = []
    pool = multiprocessing.Pool(jobs) if jobs > 1 else None
    try:
        for record in pool.imap(_play, tasks) if pool else map(_play, tasks):
            records.append(record)
            if progress:
                progress(len(records), games)
    finally:
        if pool:
            pool.close()
    return records


def load_records(path: pathlib.Path) -> list[tuple[str, list[str]]]:
    """Records written by :func:`write_records` (or any file of human_games.txt's format)."""
    records = []
    for line in path.read_text().splitlines():
        moves = game_moves(line)
        if moves:
            records.append((line.split("|")[1].strip(), moves))
    return records


def write_records(path: pathlib.Path, records) -> None:
    lines = ["# Self-play games: <index> | <result> | <moves> (python -m trax_fpga.host.shapefit)"]
    lines += [f"{k} | {result} | {' '.join(moves)}" for k, (result, moves) in enumerate(records)]
    path.write_text("\n".join(lines) + "\n")


def load_samples(records, size: int = 64, quiet: bool = False):
    """The fit's positions of ``records``: (features, label, the opponent's attacks, game index,
    ply) for every position after the opening of every decided game where the shapes evaluation
    decides (method, step 2); with ``quiet``, only those where neither side holds an attack."""
    samples = []
    for index, (result, moves) in enumerate(records):
        winner = result.split("-")[0]
        if winner not in ("white", "black"):
            continue
        position = Position()
        for ply, move in enumerate(moves):
            if ply >= OPENING_PLIES:
                features = shape_features(position, size)
                if features and features.attacks[0] == 0 and features.attacks[1] <= int(not quiet):
                    label = int(position.turn.name.lower() == winner)
                    samples.append((features.counts, label, features.attacks[1], index, ply))
            position.play(move)
    return samples


def _search_scores(task: tuple[list[str], list[int], int, int]) -> list[int]:
    """The board file's search's scores (one engine, ``nodes`` nodes, research flags
    ``research``) of a game's positions at ``plies``, from the side to move's view."""
    moves, plies, nodes, research = task
    scores = []
    for ply in plies:
        position = Position.from_moves(moves[:ply])
        found = fast_search(
            position,
            64,
            64,
            nodes,
            DEFAULT_MODEL_DEPTH,
            research=research,
            move_table=DEFAULT_MODEL_TABLE,
            table_scores=True,
        )
        scores.append(found.score)
    return scores


def teach(
    samples,
    records,
    nodes: int,
    mix: float,
    jobs: int = 1,
    research: int = BOARD_RESEARCH,
    progress=None,
):
    """The samples with their labels mixed with the search's judgement (method, step 2 with
    ``--teacher``): ``(1 - mix) result + mix sigmoid(score / 100)``, the score the board file's
    search (one engine, ``nodes`` nodes a position; ``research``: its flags, the board file's
    by default, with :data:`.fastmodel.RESEARCH_SHAPES` the shapes evaluation with the weights
    set now) gives the side to move. ``progress(done, total)`` is called as each game's
    positions are judged."""
    by_game: dict[int, list[int]] = {}
    for k, sample in enumerate(samples):
        by_game.setdefault(sample[3], []).append(k)
    plies = {g: [samples[k][4] for k in ks] for g, ks in by_game.items()}
    tasks = [(records[g][1], plies[g], nodes, research) for g in by_game]
    pool = multiprocessing.Pool(jobs) if jobs > 1 else None
    try:
        results = []
        for scores in pool.imap(_search_scores, tasks, 8) if pool else map(_search_scores, tasks):
            results.append(scores)
            if progress:
                progress(len(results), len(tasks))
    finally:
        if pool:
            pool.close()
    taught = list(samples)
    for ks, scores in zip(by_game.values(), results, strict=True):
        for k, score in zip(ks, scores, strict=True):
            counts, label, theirs, game, ply = samples[k]
            judged = 1 / (1 + math.exp(-max(-30.0, min(30.0, score / SCALE))))
            taught[k] = (counts, (1 - mix) * label + mix * judged, theirs, game, ply)
    return taught


def _loss(np, z, y) -> float:
    """The mean log-loss of logits ``z`` against labels ``y``."""
    return float(np.mean(np.logaddexp(0, z) - y * z))


def fit(
    samples,
    l2: float = 1e-4,
    iterations: int = 600,
    min_count: int = 20,
    rate: float = 2.0,
    held_out: int = 5,
    report=print,
    groups: tuple[str, ...] = tuple(GROUPS),
    pairs_within: int | None = None,
) -> list[int]:
    """The weights (method, steps 3 and 4), fitted on the games whose index is not a multiple
    of ``held_out`` and reported on those that are (0: fit on all); only the features of
    ``groups`` (:data:`GROUPS`' names) and the constant, the others' weights 0; with
    ``pairs_within``, only the pairs whose matched fronts lie within it
    (:func:`.shapes.chosen_features`)."""
    import numpy as np

    counts = np.array([s[0] for s in samples], dtype=np.float32)
    labels = np.array([s[1] for s in samples], dtype=np.float32)
    offsets = np.array([s[2] for s in samples], dtype=np.float32) * -ATTACK_WEIGHT
    test = np.array([held_out > 0 and s[3] % held_out == 0 for s in samples])
    used = (counts[~test] != 0).sum(axis=0) >= min_count
    used &= np.array(chosen_features(groups, pairs_within))
    used[CONSTANT] = True
    x = counts[:, used]
    penalty = np.full(x.shape[1], l2, dtype=np.float32)
    penalty[int(used[:CONSTANT].sum())] = 0  # the constant's column
    w = np.zeros(x.shape[1], dtype=np.float64)
    m, v = np.zeros_like(w), np.zeros_like(w)
    train_x, train_y, train_o = x[~test], labels[~test], offsets[~test]
    for t in range(1, iterations + 1):
        z = (train_x @ w + train_o) / SCALE
        p = 1 / (1 + np.exp(-z))
        grad = train_x.T @ (p - train_y) / (SCALE * len(train_y)) + 2 * penalty * w / SCALE**2
        m = 0.9 * m + 0.1 * grad
        v = 0.999 * v + 0.001 * grad**2
        w -= rate * (m / (1 - 0.9**t)) / (np.sqrt(v / (1 - 0.999**t)) + 1e-12)
    weights = np.zeros(SHAPE_FEATURES)
    weights[used] = w
    report(
        f"{len(samples)} positions ({int(test.sum())} held out), {int(used.sum())} features "
        f"used of {SHAPE_FEATURES}; log-loss: even odds {math.log(2):.4f}, fit "
        f"{_loss(np, (x[~test] @ w + train_o) / SCALE, train_y):.4f} (train)"
        + (
            f", {_loss(np, (x[test] @ w + offsets[test]) / SCALE, labels[test]):.4f} (held out)"
            if test.any()
            else ""
        )
    )
    return [round(float(value)) for value in weights]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m trax_fpga.host.shapefit",
        description="Fit the shapes evaluation's weights (RESEARCH_SHAPES) to self-play.",
    )
    sub = parser.add_subparsers(dest="command", required=True)
    games = sub.add_parser("games", help="play the self-play games and write their records")
    run = sub.add_parser("run", help="play the games and fit the weights (the whole method)")
    for command in (games, run):
        command.add_argument("--player", default="board1", help="search_bench's player (board1)")
        command.add_argument("--budget", type=int, default=20000, help="nodes a move (20000)")
        command.add_argument("--games", type=int, default=2000, help="games (2000)")
        command.add_argument("--seed", type=int, default=1, help="first opening's seed (1)")
        command.add_argument("--jobs", type=int, default=1, help="games played at once (1)")
        command.add_argument(
            "--player-weights",
            type=pathlib.Path,
            metavar="FILE",
            help="the shapes evaluation's weights for a --player with research 128 (board1-r131)",
        )
    games.add_argument("--records", type=pathlib.Path, required=True, help="write them here")
    run.add_argument("--records", type=pathlib.Path, help="also write the records here")
    fitting = sub.add_parser("fit", help="fit the weights to records already played")
    fitting.add_argument("records", type=pathlib.Path, nargs="+", help="record files")
    fitting.add_argument("--jobs", type=int, default=1, help="--teacher searches at once (1)")
    for command in (run, fitting):
        command.add_argument("--l2", type=float, default=1e-4, help="L2 penalty (1e-4)")
        command.add_argument("--iterations", type=int, default=600, help="Adam steps (600)")
        command.add_argument("--min-count", type=int, default=20, help="rarest feature kept")
        command.add_argument("--out", type=pathlib.Path, required=True, help="weights (JSON)")
        command.add_argument(
            "--quiet", action="store_true", help="only positions without an attack of either side"
        )
        command.add_argument(
            "--teacher",
            type=int,
            default=0,
            metavar="NODES",
            help="mix the labels with the board file's search's judgement at NODES nodes (0: none)",
        )
        command.add_argument(
            "--teacher-weights",
            type=pathlib.Path,
            metavar="FILE",
            help="with --teacher: the teacher searches with the shapes evaluation and these "
            "weights (an iteration of the method) instead of the board's evaluation",
        )
        command.add_argument(
            "--mix", type=float, default=0.5, help="with --teacher: the judgement's share (0.5)"
        )
        command.add_argument(
            "--groups",
            default=",".join(GROUPS),
            help=f"the kinds of feature fitted, comma-separated (default {','.join(GROUPS)})",
        )
        command.add_argument(
            "--pairs-within",
            type=int,
            metavar="R",
            help="fit only the pairs of tracks whose matched fronts lie within R in x and in y "
            "(2: the near pairs, 1: the adjacent; default: every pair)",
        )
    args = parser.parse_args(argv)

    def progress(done: int, total: int, what: str = "games") -> None:
        if done % 100 == 0 or done == total:
            print(f"  {done}/{total} {what}", file=sys.stderr, flush=True)

    if args.command in ("games", "run"):
        if min(args.budget, args.games, args.jobs) < 1:
            parser.error("--budget, --games and --jobs must be positive")

        if args.player_weights:
            shape_weights(json.loads(args.player_weights.read_text()))
        records = self_play(args.player, args.budget, args.games, args.seed, args.jobs, progress)
        if args.records:
            write_records(args.records, records)
    else:
        records = [r for path in args.records for r in load_records(path)]
    if args.command in ("run", "fit"):
        groups = tuple(args.groups.split(","))
        try:
            chosen_features(groups, args.pairs_within)
        except ValueError as error:
            parser.error(str(error))
        samples = load_samples(records, quiet=args.quiet)
        if args.teacher:
            research = BOARD_RESEARCH
            if args.teacher_weights:
                shape_weights(json.loads(args.teacher_weights.read_text()))
                research |= RESEARCH_SHAPES
            samples = teach(
                samples,
                records,
                args.teacher,
                args.mix,
                args.jobs,
                research,
                lambda done, total: progress(done, total, "games judged by the teacher"),
            )
        weights = fit(
            samples,
            args.l2,
            args.iterations,
            args.min_count,
            groups=groups,
            pairs_within=args.pairs_within,
        )
        args.out.write_text(json.dumps(weights) + "\n")
        print(f"weights written to {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
