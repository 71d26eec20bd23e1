"""The reference engine as a contest player: a move chooser and the protocol's player side.

:class:`MoveChooser` picks moves with the software search (:func:`.search.search`) within a node
budget, or within a time budget turned into nodes by the speed measured so far.
:class:`EngineSession` is the player's side of the contest protocol as a state machine, one line
in and at most one line out; ``trax engine`` runs it on stdin/stdout.

What the session does with each line it receives:

- ``-T``: answers the team code.
- ``-W``: starts a new game as white and answers its first move.
- ``-B``: starts a new game as black and answers nothing.
- an empty line: ignored.
- a legal move of the opponent: plays it and answers its own move, or nothing if the opponent's
  move ended the game.
- anything else (not a move, an illegal move, a move after the game ended, a line before any
  game): logged as a warning on standard error and ignored, so that noise on the line
  costs at most the referee's verdict, never the engine.
"""

from __future__ import annotations

import logging
import random
import time
from typing import TYPE_CHECKING

from .errors import TraxError
from .notation import Move
from .position import Position
from .tiles import Colour

if TYPE_CHECKING:
    from .search import SearchResult

__all__ = ["DEFAULT_NODES", "EngineSession", "MoveChooser"]

log = logging.getLogger("trax.engine")

#: Well within the contests' 1 s per move: 10 000 nodes took 0.4-1.1 s per move on the project's
#: shared 2-core machine (`trax match ref --engine "trax engine --nodes 10000"`), so 4 000.
DEFAULT_NODES = 4_000
_MIN_NODES = 50
_START_RATE = 20_000.0  # nodes per second assumed before the first measurement
_TIME_SHARE = 0.5  # of the time budget given to the search, for the variance of its speed
#: With a seed, the first plies of a game vary among moves this close to the best one, judged by
#: the static evaluation after the move (the search's own root ranking).
VARIED_PLIES = 4
VARIED_MARGIN = 8


class MoveChooser:
    """Chooses moves with the software search, at ``nodes`` per move or within ``time`` seconds.

    With ``time``, the node budget of each move is the time times the speed measured on the
    previous moves (halved for safety), so moves are deterministic only with ``nodes``.

    ``random`` (None: always the search's move) varies the first ``VARIED_PLIES`` plies of a
    game among the moves whose evaluation is within ``VARIED_MARGIN`` of the best one, so that
    games differ from seed to seed and repeat for one seed.
    """

    def __init__(
        self, nodes: int | None = None, time: float | None = None, seed: int | str | None = None
    ) -> None:
        if nodes is not None and time is not None:
            raise ValueError("give a node budget or a time budget, not both")
        if nodes is not None and (not isinstance(nodes, int) or nodes < 1):
            raise ValueError(f"node budget must be a positive integer, not {nodes!r}")
        if time is not None and not time > 0:
            raise ValueError(f"time budget must be positive, not {time!r}")
        self.nodes = DEFAULT_NODES if nodes is None and time is None else nodes
        self.time = time
        self.rate = _START_RATE
        self.random = None if seed is None else random.Random(seed)

    def budget(self) -> int:
        """The node budget of the next move."""
        if self.nodes is not None:
            return self.nodes
        return max(_MIN_NODES, int(self.rate * self.time * _TIME_SHARE))

    def choose(self, position: Position) -> SearchResult:
        """Search ``position`` (left unchanged) and return the search's answer."""
        from .search import search  # imported on use: the CLI must not need it to start

        budget = self.budget()
        start = time.perf_counter()
        result = search(position, budget)
        elapsed = time.perf_counter() - start
        if result.nodes >= _MIN_NODES and elapsed > 0.005:
            self.rate = 0.5 * self.rate + 0.5 * result.nodes / elapsed
        log.info(
            "%s: depth %d score %d nodes %d in %.3f s",
            result.move,
            result.depth,
            result.score,
            result.nodes,
            elapsed,
        )
        if self.random is not None and position.ply < VARIED_PLIES:
            return self._vary(position, result)
        return result

    def _vary(self, position: Position, result: SearchResult) -> SearchResult:
        """The search's result with its move replaced by a random near-equal one."""
        import dataclasses

        from .evaluate import evaluate

        scored = []
        for move in position.legal_moves():
            turn = position.play(move)
            try:
                if turn.outcome is not None:  # a move that ends the game is never varied
                    return result
                scored.append((-evaluate(position), move))
            finally:
                position.pop()
        best = max(score for score, _ in scored)
        near = [move for score, move in scored if score >= best - VARIED_MARGIN]
        if result.move not in near:
            near.append(result.move)
        move = self.random.choice(near)
        log.info("varied opening: %s among %d near-equal moves", move, len(near))
        return dataclasses.replace(result, move=move, pv=(move,))

    def describe(self) -> str:
        return f"{self.nodes} nodes" if self.nodes is not None else f"{self.time:g} s"


class EngineSession:
    """The player's side of the contest protocol (see the module's docstring for each line)."""

    def __init__(
        self, chooser: MoveChooser | None = None, team: str = "RF", seed: int | None = None
    ) -> None:
        self.chooser = chooser or MoveChooser()
        self.team = team
        self.seed = seed
        self.games = 0
        self.position: Position | None = None
        self.colour: Colour | None = None

    def handle(self, line: str) -> str | None:
        """The answer to one received line (without its terminator), or None.

        Lines are taken exactly as the referee takes answers (:meth:`.Move.parse`, no spaces
        around a move or a command), so a line one side refuses the other refuses too.
        """
        if not line.strip():
            return None
        if line == "-T":
            return self.team
        if line in ("-W", "-B"):
            self.games += 1
            if self.seed is not None:
                self.chooser.random = random.Random(f"{self.seed}:{self.games}")
            self.position = Position()
            self.colour = Colour.WHITE if line == "-W" else Colour.BLACK
            log.info("new game as %s", self.colour.word)
            return self._play() if self.colour is Colour.WHITE else None
        position = self.position
        if position is None:
            log.warning("ignored %r: no game in progress (waiting for -W or -B)", line)
            return None
        if position.outcome is not None:
            log.warning("ignored %r: the game is over (%s)", line, position.outcome)
            return None
        try:
            turn = position.play(Move.parse(line))
        except TraxError as error:
            log.warning("ignored %r: %s", line, error)
            return None
        if turn.outcome is not None:
            log.info("game over: %s", turn.outcome)
            return None
        return self._play()

    def _play(self) -> str:
        result = self.chooser.choose(self.position)
        turn = self.position.play(result.move)
        if turn.outcome is not None:
            log.info("game over: %s", turn.outcome)
        return str(result.move)
