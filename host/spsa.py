"""The board's evaluation weights tuned by self-play (SPSA), in the compiled model (issue 12).

``python -m trax_fpga.host.spsa --iterations 600 --budget 100000 --out weights.json`` tunes the
weights of the fitted evaluation (:data:`.fastmodel.RESEARCH_FITTED`, laid out as
:data:`.fastmodel.BOARD_WEIGHTS`) by playing the board's search against itself: the board
file's search order (the cut, newest first), one engine, ``--budget`` nodes a move, on the
64 x 64 torus.

The method is SPSA (simultaneous perturbation stochastic approximation), as chess engines'
testing frameworks tune their evaluations: every iteration perturbs all the parameters at once
by ``+c_k`` or ``-c_k`` (a random sign each), plays a pair of games between the two
perturbed evaluations from one seeded random opening (4 plies, colours swapped in the second
game), and moves every parameter toward the side that won, by ``a_k * result / c_k`` times its
sign (``result``: the first's wins less its losses in the pair, -2 to 2). The gains fall as
``c_k = c / k^0.101`` and ``a_k = a / (A + k)^0.602`` (Spall's exponents; ``A`` a tenth of
the iterations), scaled so that at the last iteration ``c_k`` is each parameter's ``c_end``
and a won pair moves it by ``2 * rate * c_end``.

The parameters (:data:`PARAMETERS`) are few, so that a thousand games say something: per
distance of a track's two targets (1 to 4), a multiplier of the loop potential's row
(:data:`.trackeval.LOOP_WEIGHTS`) for the side to move's tracks and one for the opponent's;
the opponent's attacks; the pseudo-threats and the long tracks of each side
(:func:`.trackresearch.research_features`); and the side to move's constant (the tempo). At
their start values the weights are the board's own evaluation (:data:`.fastmodel.BOARD_WEIGHTS`),
node for node.

``--out`` receives the weights (a JSON list, as ``trax engine --search model --research 8
--research-weights FILE`` and ``search_bench match board1-r11 board1 --research-weights FILE``
read them) and ``--out`` with ``.state`` added the parameters and the iteration reached, after
every batch of ``--jobs`` iterations; ``--resume`` goes on from that state. Measure the result
at the board's nodes against the board's own evaluation before believing it (a tuning at few
nodes can find what only few nodes reward).
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import multiprocessing
import pathlib
import random
import sys
from collections.abc import Callable, Sequence

from .fastmodel import BOARD_WEIGHTS, RESEARCH_FITTED, research_weights
from .position import Position
from .search_bench import BOARD_RESEARCH, make_player, play_game, random_opening
from .trackeval import ATTACK_WEIGHT, LOOP_WEIGHTS, TEMPO

__all__ = ["PARAMETERS", "Parameter", "Tuner", "main", "weights_of"]

ALPHA, GAMMA = 0.602, 0.101


@dataclasses.dataclass(frozen=True)
class Parameter:
    """One tuned number: its name, start value and perturbation at the last iteration."""

    name: str
    start: float
    c_end: float


#: The tuned parameters, in the order :func:`weights_of` reads them. ``mine d1`` moves weights
#: the evaluation never reads (a side to move with a track of targets 1 apart has an attack,
#: scored +500 before the sum): it is kept as a null parameter, whose drift shows how far the
#: games' noise alone moves a parameter.
PARAMETERS = (
    *(Parameter(f"mine d{d}", 1.0, 0.2) for d in (1, 2, 3, 4)),
    *(Parameter(f"theirs d{d}", 1.0, 0.2) for d in (1, 2, 3, 4)),
    Parameter("theirs attacks", float(-ATTACK_WEIGHT), 30.0),
    Parameter("mine pseudo-threats", 0.0, 30.0),
    Parameter("theirs pseudo-threats", 0.0, 30.0),
    Parameter("mine long", 0.0, 10.0),
    Parameter("theirs long", 0.0, 10.0),
    Parameter("constant", float(TEMPO), 10.0),
)


def weights_of(theta: Sequence[float]) -> list[int]:
    """The 30 weights of :data:`.fastmodel.BOARD_WEIGHTS`'s layout that ``theta`` (one value per
    :data:`PARAMETERS`) makes: the side to move's kinds, the opponent's, then the rest."""
    if len(theta) != len(PARAMETERS):
        raise ValueError(f"theta has {len(PARAMETERS)} values, not {len(theta)}")
    mine = [round(w * theta[d]) for d, row in enumerate(LOOP_WEIGHTS) for w in row]
    theirs = [round(-w * theta[4 + d]) for d, row in enumerate(LOOP_WEIGHTS) for w in row]
    return [*mine, *theirs, *(round(t) for t in theta[8:])]


#: A pair of games: (first's weights, second's weights, opening seed, budget) -> the first's
#: wins less its losses over the two games (the first white in one, black in the other).
PairGame = Callable[[list[int], list[int], int, int], int]


def model_player(weights: list[int], budget: int):
    """The board's search (one engine, the board file's order and table: ``search_bench``'s
    ``board1``) with the fitted evaluation's ``weights``: a player for
    :func:`.search_bench.play_game`."""
    search = make_player(f"board1-r{BOARD_RESEARCH | RESEARCH_FITTED}", budget)

    def play(position: Position):
        research_weights(weights)  # the weights are the process's: set before every search
        return search(position)

    return play


def play_pair(first: list[int], second: list[int], seed: int, budget: int) -> int:
    """:data:`PairGame` in the compiled model: two games from ``random_opening(seed)``."""
    opening = random_opening(seed)
    a, b = model_player(first, budget), model_player(second, budget)
    result = 0
    for a_white in (True, False):
        outcome = play_game(opening, a, b) if a_white else play_game(opening, b, a)
        if outcome != "unfinished":
            result += 1 if outcome.startswith("white") == a_white else -1
    return result


def _play_pair_args(args: tuple) -> int:
    return play_pair(*args)


@dataclasses.dataclass
class Tuner:
    """SPSA over :data:`PARAMETERS` (the module's docstring); ``theta`` the current values,
    ``done`` the iterations played."""

    iterations: int
    budget: int
    seed: int = 1
    rate: float = 0.02
    theta: list[float] = dataclasses.field(default_factory=lambda: [p.start for p in PARAMETERS])
    done: int = 0

    def gains(self, k: int) -> tuple[list[float], list[float]]:
        """Iteration ``k``'s (1-based) perturbations ``c_k`` and step gains ``a_k``, a parameter
        each."""
        n, big_a = self.iterations, self.iterations / 10
        c_k, a_k = [], []
        for p in PARAMETERS:
            c = p.c_end * n**GAMMA
            a = self.rate * p.c_end**2 * (big_a + n) ** ALPHA
            c_k.append(c / k**GAMMA)
            a_k.append(a / (big_a + k) ** ALPHA)
        return c_k, a_k

    def signs(self, k: int) -> list[int]:
        """Iteration ``k``'s perturbation signs, from the seed alone (a resumed run repeats)."""
        rng = random.Random(self.seed * 1_000_003 + k)
        return [rng.choice((-1, 1)) for _ in PARAMETERS]

    def opening_seed(self, k: int) -> int:
        return self.seed * 100_000 + k

    def batch(self, count: int, pair_game: PairGame, pool=None) -> list[tuple[int, int]]:
        """Play the next ``count`` iterations from the current ``theta`` (in ``pool`` when
        given), then apply their steps; returns (iteration, result) for each."""
        ks = list(range(self.done + 1, min(self.done + count, self.iterations) + 1))
        tasks, steps = [], []
        for k in ks:
            c_k, a_k = self.gains(k)
            signs = self.signs(k)
            plus = [t + c * s for t, c, s in zip(self.theta, c_k, signs, strict=True)]
            minus = [t - c * s for t, c, s in zip(self.theta, c_k, signs, strict=True)]
            tasks.append((weights_of(plus), weights_of(minus), self.opening_seed(k), self.budget))
            steps.append([a / c * s for a, c, s in zip(a_k, c_k, signs, strict=True)])
        results = list(pool.map(_play_pair_args, tasks) if pool else (pair_game(*t) for t in tasks))
        for result, step in zip(results, steps, strict=True):
            self.theta = [t + result * d for t, d in zip(self.theta, step, strict=True)]
        self.done = ks[-1] if ks else self.done
        return list(zip(ks, results, strict=True))

    def state(self) -> dict:
        return {
            "iterations": self.iterations,
            "budget": self.budget,
            "seed": self.seed,
            "rate": self.rate,
            "done": self.done,
            "theta": dict(zip((p.name for p in PARAMETERS), self.theta, strict=True)),
        }

    @classmethod
    def from_state(cls, state: dict) -> Tuner:
        theta = [float(state["theta"][p.name]) for p in PARAMETERS]
        return cls(
            state["iterations"], state["budget"], state["seed"], state["rate"], theta, state["done"]
        )


def describe(theta: Sequence[float]) -> str:
    return ", ".join(f"{p.name} {t:.3g}" for p, t in zip(PARAMETERS, theta, strict=True))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m trax_fpga.host.spsa",
        description="Tune the board's evaluation weights by self-play (SPSA) in the compiled "
        "model.",
    )
    parser.add_argument("--iterations", type=int, default=600, help="game pairs (default 600)")
    parser.add_argument(
        "--budget", type=int, default=100_000, help="nodes a move, one engine (default 100000)"
    )
    parser.add_argument("--seed", type=int, default=1, help="signs' and openings' seed (1)")
    parser.add_argument(
        "--rate", type=float, default=0.02, help="the last step of a won pair, in c_end (0.02)"
    )
    parser.add_argument("--jobs", type=int, default=1, help="pairs played at once (default 1)")
    parser.add_argument("--out", type=pathlib.Path, required=True, help="the weights' JSON file")
    parser.add_argument(
        "--resume", action="store_true", help="go on from OUT.state (its settings, not these)"
    )
    parser.add_argument("-q", "--quiet", action="store_true", help="no line per batch")
    args = parser.parse_args(argv)
    state_file = args.out.with_name(args.out.name + ".state")
    if args.resume:
        tuner = Tuner.from_state(json.loads(state_file.read_text()))
    else:
        if args.iterations < 1 or args.budget < 1 or args.jobs < 1:
            parser.error("--iterations, --budget and --jobs must be positive")
        tuner = Tuner(args.iterations, args.budget, args.seed, args.rate)
    pool = multiprocessing.Pool(args.jobs) if args.jobs > 1 else None
    total = 0
    try:
        while tuner.done < tuner.iterations:
            played = tuner.batch(args.jobs, play_pair, pool)
            total += sum(r for _, r in played)
            args.out.write_text(json.dumps(weights_of(tuner.theta)) + "\n")
            state_file.write_text(json.dumps(tuner.state(), indent=1) + "\n")
            if not args.quiet:
                results = " ".join(f"{r:+d}" for _, r in played)
                print(f"{tuner.done}/{tuner.iterations} [{results}] {describe(tuner.theta)}")
                sys.stdout.flush()
    finally:
        if pool:
            pool.close()
    print(f"weights: {weights_of(tuner.theta)} (board's: {list(BOARD_WEIGHTS)})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
