"""The weights of the block-RAM board's near-track evaluation, fitted to game results.

The board's evaluation before the loop potential of :mod:`.trackeval` (attacks and near tracks,
kept as the research baseline in :mod:`.trackresearch`): this fit chose between its weights;
docs/evaluation.md says what self-play then said.

``python -m trax_fpga.host.tune`` (from a checkout: it reads ``tests/data``) prints the fit and
the integer weights it proposes. The method, reproducible with that one command:

1. *Positions.* Every position of every decided game in the records: the human games
   (``tests/data/human_games.txt``, results ``white-loop`` ... ; the ``none`` games, resigned or
   unfinished, are left out) and the 2015 contest logs (``tests/data/contest_logs_2015.txt``,
   results ``W-loop`` ... ``R-line``; illegal and open games left out). Each position is labelled
   1 if the side to move went on to win the game, else 0.
2. *Features*, those the gateware kept (as :func:`.trackresearch.research_features` counts them on
   the 64x64 torus): per colour its attacks (tracks whose targets are 1 apart) and near tracks
   (2 apart), for the side to move s and the opponent o; and, for research only, the far (3
   apart) and long tracks (6 or more apart in one direction) of :mod:`.trackresearch`.
3. *The branch the weights serve.* The score is +500 when s has an attack
   and -500 when o has two or more: those are decided. Only the other positions (s has no
   attack, o at most one) are fitted, to ``logit P(s wins) = a (near(s) - near(o)) + b
   attacks(o) + c``: the existing score's form (``c`` absorbs the move's own advantage and is
   not used: a constant in every leaf changes no choice). A fit with near(s) and near(o) apart
   is printed beside it, to show whether the difference is the right shape.
4. *Fit*: maximum likelihood by Newton's method (a handful of features, no library needed),
   with standard errors from the inverse Hessian.
5. *Weights*: the score is in hundredths of a logit (100 = odds of e to 1), so ``NEAR_WEIGHT =
   100 a`` and ``ATTACK_WEIGHT = -100 b``, each rounded to the nearest integer with at most two
   bits set (a shift and an add in gateware). ``CLAMP`` (400, odds of 55 to 1) is kept.

The fit proposes; self-play decides (docs/evaluation.md has both, with their commands).
"""

from __future__ import annotations

import argparse
import dataclasses
import math
import pathlib

from .position import Position
from .tiles import Colour
from .trackeval import ATTACK_WEIGHT, LOOP_WEIGHTS, kind_counts, track_features
from .trackresearch import NEAR_WEIGHT, research_features

__all__ = ["Sample", "fit_logistic", "load_samples", "main", "shift_add"]

HUMAN = pathlib.Path("tests/data/human_games.txt")
CONTEST = pathlib.Path("tests/data/contest_logs_2015.txt")
TORUS = 64
SCALE = 100  # score units per logit

_WINNER = {"white": Colour.WHITE, "W": Colour.WHITE, "black": Colour.BLACK, "R": Colour.BLACK}


@dataclasses.dataclass(frozen=True)
class Sample:
    """One position: the side to move's and the opponent's attacks and near tracks, whether the
    side to move is white, and whether it went on to win."""

    attacks: tuple[int, int]  # (side to move, opponent)
    near: tuple[int, int]
    white: bool
    won: bool
    far: tuple[int, int] = (0, 0)  # research features (:mod:`.trackresearch`)
    long: tuple[int, int] = (0, 0)
    potential: tuple[int, int] = (0, 0)  # the board's loop potential (:mod:`.trackeval`)
    kinds: tuple[tuple[int, ...], tuple[int, ...]] = ((0,) * 12, (0,) * 12)  # tracks by kind


def read_games(path: pathlib.Path) -> list[tuple[list[str], Colour]]:
    """The decided games of a record file: (moves, winner)."""
    games = []
    for line in path.read_text().splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        fields = [field.strip() for field in line.split("|")]
        result, moves = fields[-2], fields[-1]
        colour, _, kind = result.partition("-")
        if kind not in ("loop", "line") or colour not in _WINNER:
            continue
        games.append(([m for m in moves.split() if not m.startswith("{")], _WINNER[colour]))
    return games


def load_samples(paths: list[pathlib.Path]) -> list[Sample]:
    """Every position before the last move of every decided game in ``paths``."""
    samples = []
    for path in paths:
        for moves, winner in read_games(path):
            position = Position()
            for move in moves[:-1]:
                position.play(move)
                if position.outcome is not None:
                    break
                f = research_features(position, TORUS, TORUS)
                p = track_features(position, TORUS, TORUS).potential
                k = kind_counts(position, TORUS, TORUS)
                s, o = position.turn, position.turn.other
                samples.append(
                    Sample(
                        (f.attacks[s], f.attacks[o]),
                        (f.near[s], f.near[o]),
                        s is Colour.WHITE,
                        s is winner,
                        (f.far[s], f.far[o]),
                        (f.long[s], f.long[o]),
                        (p[s], p[o]),
                        (tuple(k[s]), tuple(k[o])),
                    )
                )
    return samples


def fit_logistic(rows: list[list[float]], labels: list[bool], iterations: int = 30):
    """Maximum-likelihood logistic regression: (coefficients, standard errors, log-likelihood)."""
    k = len(rows[0])
    beta = [0.0] * k
    for _ in range(iterations):
        gradient = [0.0] * k
        hessian = [[0.0] * k for _ in range(k)]
        for x, y in zip(rows, labels, strict=True):
            p = 1 / (1 + math.exp(-sum(b * v for b, v in zip(beta, x, strict=True))))
            for i in range(k):
                gradient[i] += (y - p) * x[i]
                for j in range(k):
                    hessian[i][j] += p * (1 - p) * x[i] * x[j]
        step = _solve(hessian, gradient)
        beta = [b + s for b, s in zip(beta, step, strict=True)]
        if max(abs(s) for s in step) < 1e-9:
            break
    inverse = [_solve(hessian, [float(i == j) for j in range(k)]) for i in range(k)]
    errors = [math.sqrt(inverse[i][i]) for i in range(k)]
    return beta, errors, log_likelihood(beta, rows, labels)


def log_likelihood(beta, rows, labels) -> float:
    total = 0.0
    for x, y in zip(rows, labels, strict=True):
        z = sum(b * v for b, v in zip(beta, x, strict=True))
        total += -math.log1p(math.exp(-z)) if y else -math.log1p(math.exp(z))
    return total


def _solve(matrix: list[list[float]], vector: list[float]) -> list[float]:
    """Gaussian elimination with partial pivoting (small dense systems)."""
    n = len(vector)
    a = [[*row, vector[i]] for i, row in enumerate(matrix)]
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: abs(a[r][col]))
        a[col], a[pivot] = a[pivot], a[col]
        for r in range(n):
            if r != col and a[col][col]:
                factor = a[r][col] / a[col][col]
                a[r] = [v - factor * w for v, w in zip(a[r], a[col], strict=True)]
    return [a[i][n] / a[i][i] for i in range(n)]


def shift_add(value: float) -> int:
    """The integer nearest ``value`` with at most two bits set (a shift and an add)."""
    target = abs(value)
    best = 0
    for i in range(12):
        for j in range(-1, i):
            candidate = (1 << i) + (1 << j if j >= 0 else 0)
            if abs(candidate - target) < abs(best - target):
                best = candidate
    return best if value >= 0 else -best


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        prog="python -m trax_fpga.host.tune",
        description="Fit the track evaluation's weights to the results of recorded games.",
    )
    parser.add_argument(
        "records",
        nargs="*",
        type=pathlib.Path,
        default=[HUMAN, CONTEST],
        help=f"record files (default {HUMAN} {CONTEST}, from a checkout)",
    )
    args = parser.parse_args(argv)
    for path in args.records:
        if not path.exists():
            parser.error(f"{path} not found (run from a checkout, or name the record files)")
    samples = load_samples(args.records)
    fitted = [s for s in samples if s.attacks[0] == 0 and s.attacks[1] <= 1]
    print(
        f"positions: {len(samples)} from {sum(len(read_games(p)) for p in args.records)} "
        f"decided games; fitted (no own attack, at most one of the opponent's): {len(fitted)}"
    )
    labels = [s.won for s in fitted]
    base = sum(labels) / len(labels)
    null = len(labels) * (base * math.log(base) + (1 - base) * math.log(1 - base))
    print(
        f"side to move wins: {base:.3f} of the fitted positions; log-likelihood, constant only:"
        f" {null:.1f}"
    )

    shapes = {
        "difference": (["near(s)-near(o)", "attacks(o)", "const"], lambda s: [
            s.near[0] - s.near[1], s.attacks[1], 1.0]),
        "apart": (["near(s)", "near(o)", "attacks(o)", "const"], lambda s: [
            s.near[0], s.near[1], s.attacks[1], 1.0]),
        "colour": (["near(s)-near(o)", "attacks(o)", "white", "const"], lambda s: [
            s.near[0] - s.near[1], s.attacks[1], float(s.white), 1.0]),
        "research": (["near(s)-near(o)", "attacks(o)", "far(s)-far(o)", "long(s)-long(o)",
                      "const"], lambda s: [s.near[0] - s.near[1], s.attacks[1],
                      s.far[0] - s.far[1], s.long[0] - s.long[1], 1.0]),
    }  # fmt: skip
    results = {}
    for name, (columns, row) in shapes.items():
        beta, errors, ll = fit_logistic([row(s) for s in fitted], labels)
        results[name] = beta
        terms = ", ".join(
            f"{c} {b:+.3f} ({e:.3f})" for c, b, e in zip(columns, beta, errors, strict=True)
        )
        print(f"fit {name}: {terms}; log-likelihood {ll:.1f}")
    current = [NEAR_WEIGHT / SCALE, -ATTACK_WEIGHT / SCALE]
    rows = [[s.near[0] - s.near[1], s.attacks[1]] for s in fitted]
    print(
        f"log-likelihood of today's weights (near {NEAR_WEIGHT}, attack {ATTACK_WEIGHT}, "
        f"as {SCALE} per logit, no constant): {log_likelihood(current, rows, labels):.1f}; "
        f"of the fit without its constant: "
        f"{log_likelihood(results['difference'][:2], rows, labels):.1f}"
    )
    a, b = results["difference"][:2]
    print(
        f"proposed for the near-track form: NEAR_WEIGHT = {shift_add(SCALE * a)}, ATTACK_WEIGHT"
        f" = {shift_add(-SCALE * b)} (from {SCALE * a:.1f} and {-SCALE * b:.1f}; it had"
        f" {NEAR_WEIGHT} and {ATTACK_WEIGHT})"
    )
    # The board's evaluation now: the loop potential (the software player's table) against the
    # opponent's attack. The fit gives the table's scale in hundredths of a logit per unit.
    columns = ["pot(s)-pot(o)", "attacks(o)", "const"]
    rows = [[s.potential[0] - s.potential[1], s.attacks[1], 1.0] for s in fitted]
    (a, b, c), errors, ll = fit_logistic(rows, labels)
    terms = ", ".join(
        f"{n} {v:+.4f} ({e:.4f})" for n, v, e in zip(columns, (a, b, c), errors, strict=True)
    )
    print(f"fit potential: {terms}; log-likelihood {ll:.1f}")
    print(
        f"proposed for the loop potential's form: the table x {SCALE * a:.2f}, ATTACK_WEIGHT ="
        f" {shift_add(-SCALE * b)} (from {-SCALE * b:.1f}; the board has the table x 1 and"
        f" {ATTACK_WEIGHT})"
    )
    # The table itself: a weight per kind of distance 2 to 4 (distance 1 is an attack: in the
    # fitted branch only the opponent has one, so its row and the attack's weight are one term).
    names = [f"{d}{'STO'[r]}" for d in range(2, 5) for r in range(3)]
    rows = [
        [s.kinds[0][i] - s.kinds[1][i] for i in range(3, 12)] + [s.attacks[1], 1.0] for s in fitted
    ]
    beta, errors, ll = fit_logistic(rows, labels)
    terms = ", ".join(
        f"{n} {SCALE * v:+.1f} ({SCALE * e:.1f})"
        for n, v, e in zip([*names, "attacks(o)", "const"], beta, errors, strict=True)
    )
    print(f"fit kinds (hundredths of a logit; S/T/O: ends the same, turned, opposite): {terms};")
    print(f"  log-likelihood {ll:.1f}")
    table = [LOOP_WEIGHTS[0]] + [
        tuple(round(SCALE * beta[3 * row + r]) for r in range(3)) for row in range(3)
    ]
    attack = round(-SCALE * beta[9] - LOOP_WEIGHTS[0][0])
    print(
        f"proposed table: {tuple(table)} (distance 1 kept; a table is a lookup, so any"
        f" integers), ATTACK_WEIGHT = {attack} (the fit's attack less a same-direction"
        f" attack's {LOOP_WEIGHTS[0][0]})"
    )


if __name__ == "__main__":
    main()
