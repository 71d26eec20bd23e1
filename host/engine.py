"""The reference engine as a contest player: move choosers and the protocol's player side.

:class:`MoveChooser` picks moves with the software search (:func:`.search.search`) within a node
budget, or within a time budget turned into nodes by the speed measured so far.
:class:`ModelChooser` picks them with the gateware search's bit-exact model
(:func:`.hwsearch.hw_search` on the block-RAM board), so that a referee can match the board's
search against other engines without simulating the gateware.
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
from collections.abc import Callable
from typing import TYPE_CHECKING

from .errors import TraxError
from .fastmodel import RESEARCH_FITTED, RESEARCH_SHAPES
from .notation import Move
from .position import Position
from .shapes import board_table
from .tiles import Colour

if TYPE_CHECKING:
    from .search import SearchResult
    from .trackeval import ShapeTable

__all__ = [
    "BOARD_CLOCK_HZ",
    "BOARD_THINK_TIME",
    "BOARD_TICKS",
    "BOARD_TICK_CLOCKS",
    "DEFAULT_ATTACK_CUT",
    "DEFAULT_MODEL_DEPTH",
    "DEFAULT_MODEL_ENGINES",
    "DEFAULT_MODEL_PV_PLIES",
    "DEFAULT_MODEL_TABLE",
    "DEFAULT_NEWEST_FIRST",
    "DEFAULT_NODES",
    "DEFAULT_SHAPES",
    "DEFAULT_TORUS",
    "EngineSession",
    "ModelChooser",
    "MoveChooser",
    "board_model",
]

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
#: The model's defaults: the ULX3S board file's torus, deepest iteration, engines (``trax best``'s
#: default; ``trax engine --search model`` plays one unless told), the plies of the previous
#: best's line they split and table of best moves (its entries; it holds their values too)
#: (``boards/ulx3s_85f.py``; tests/sim/test_board_cli.py holds them to it).
DEFAULT_TORUS = 64
DEFAULT_MODEL_DEPTH = 8
DEFAULT_MODEL_ENGINES = 6
DEFAULT_MODEL_PV_PLIES = 4
DEFAULT_MODEL_TABLE = 16_384
#: ... and its search order: a move that leaves the opponent a loop attack is lost at once (the
#: attack cut), and the candidates are tried from the newest cell of the frontier list.
DEFAULT_ATTACK_CUT = True
DEFAULT_NEWEST_FIRST = True
#: ... and its evaluation: the tracks' shapes, by the board files' table.
DEFAULT_SHAPES = board_table()
#: ... and its clock: it thinks 0.8 s a move at 25 MHz (``hdl.player.DEFAULT_THINK_TIME`` and
#: boards/ulx3s_85f.py's clock; tests/sim/test_board_cli.py holds them equal). The model counts
#: time in ticks (a node of each engine still searching), some 7.95 of the board's clocks a tick
#: since the board file took the board's leaf step after a ply of many tiles (forty-sixth
#: session; 8.36 with the fit step, 8.77 with the leaf and next-entry steps alone, 9.15 with the
#: leaf step alone, 9.4 before it): the board file's 6 engines complete depth 5 in 192,271
#: clocks on the figures' 12 positions and in 24,190 ticks in the model (docs/parallel.md); one
#: engine 785,693 clocks, 96,891 ticks. So the board's move is some 2,515,700 ticks.
BOARD_THINK_TIME = 0.8
BOARD_CLOCK_HZ = 25e6
BOARD_TICK_CLOCKS = 7.95
BOARD_TICKS = round(BOARD_THINK_TIME * BOARD_CLOCK_HZ / BOARD_TICK_CLOCKS)
#: A node budget an engine that the board's clock always stops first.
UNLIMITED_NODES = 10**9
#: With a seed, the model's first plies vary among the moves whose track evaluation after the
#: move is within this of the best one (the evaluation moves in steps of its near weight), and
#: whose searched score after the move is within this of the best searched one's.
MODEL_VARIED_MARGIN = 30


def gives_a_win(position: Position) -> bool:
    """The side to move has a move that wins at once: a varied opening move never leaves one
    (a game of the compiled model's first series against KizuNa was lost in 5 plies so: the
    track evaluation sees an attack only where a track's two targets touch, not a loop closed
    through forced tiles)."""
    for move in position.legal_moves():
        turn = position.play(move)
        position.pop()
        if turn.outcome is not None and turn.outcome.winner is turn.mover:
            return True
    return False


def searched_near(
    position: Position,
    moves: list[Move],
    score_after: Callable[[Position], int],
    margin: int,
    proved: int,
) -> list[Move]:
    """The ``moves`` still near-equal when searched: each is played and the position after it
    scored by ``score_after`` (a search's score from the opponent's side); the moves whose
    negated score is within ``margin`` of the best one's and is not a proved loss (at or below
    ``-proved``), in the order given. ``position`` is left unchanged.

    A varied opening move is chosen among these, not among the static evaluation's near moves
    alone: the evaluation sees a track's shape, not the forced loss a few plies behind it (the
    seeded model varied into @0+ B1\\ @1\\ D1\\ against KizuNa, lost at once by a search of
    depth 4, and lost that game in 11 plies; tests/host/test_model_engine.py keeps it).
    """
    scored = []
    for move in moves:
        position.play(move)
        try:
            scored.append((-score_after(position), move))
        finally:
            position.pop()
    best = max((score for score, _ in scored), default=0)
    return [move for score, move in scored if score >= best - margin and score > -proved]


class MoveChooser:
    """Chooses moves with the software search, at ``nodes`` per move or within ``time`` seconds.

    With ``time``, the node budget of each move is the time times the speed measured on the
    previous moves (halved for safety), so moves are deterministic only with ``nodes``.

    ``random`` (None: always the search's move) varies the first ``VARIED_PLIES`` plies of a
    game among the moves whose evaluation is within ``VARIED_MARGIN`` of the best one, so that
    games differ from seed to seed and repeat for one seed.
    """

    def __init__(
        self,
        nodes: int | None = None,
        time: float | None = None,
        seed: int | str | None = None,
        depth: int | None = None,
    ) -> None:
        if nodes is not None and time is not None:
            raise ValueError("give a node budget or a time budget, not both")
        if nodes is not None and (not isinstance(nodes, int) or nodes < 1):
            raise ValueError(f"node budget must be a positive integer, not {nodes!r}")
        if time is not None and not time > 0:
            raise ValueError(f"time budget must be positive, not {time!r}")
        if depth is not None and (not isinstance(depth, int) or depth < 1):
            raise ValueError(f"depth must be a positive integer, not {depth!r}")
        self.depth = depth
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
        result = search(position, budget, self.depth)
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
                if not gives_a_win(position):
                    scored.append((-evaluate(position), move))
            finally:
                position.pop()
        if not scored:
            return result
        best = max(score for score, _ in scored)
        near = [move for score, move in scored if score >= best - VARIED_MARGIN]
        if result.move not in near:
            near.append(result.move)
        move = self.random.choice(near)
        log.info("varied opening: %s among %d near-equal moves", move, len(near))
        return dataclasses.replace(result, move=move, pv=(move,))

    def describe(self) -> str:
        return f"{self.nodes} nodes" if self.nodes is not None else f"{self.time:g} s"


class ModelChooser:
    """Chooses moves with the gateware search's model: :func:`.hwsearch.hw_search` with
    ``board="track"`` on a ``torus`` x ``torus`` torus, ``nodes`` per move, iterations up to
    ``depth``; with ``engines`` > 1, :func:`.hwparallel.hw_parallel_search` instead (that many
    engines splitting the search, the previous best's line down to ply ``pv_plies``, and with
    ``helpers`` (model only) the engines whose root moves ran out helping the others',
    docs/parallel.md), ``nodes`` per engine. ``move_table`` is the entries of the table of best
    moves (shared by the engines; 0: none), which with ``table_scores`` holds the nodes' values
    too (docs/hash-moves.md); ``attack_cut`` and ``newest_first`` the search's order (the
    gateware's options of those names); the defaults are the ULX3S board file's. ``research`` and
    ``research_weights`` (research, not the board's search: docs/evaluation.md) are the
    model's research flags and the weights of its fitted evaluation (30, :mod:`.fastmodel`) or
    of its shapes evaluation (1,029, :mod:`.shapes`; give ``shapes`` None with either);
    ``shapes``, the tracks' shapes the evaluation weighs instead of their kinds
    (:class:`.trackeval.ShapeTable`; None: their kinds, the loop potential). ``verify``
    (research, compiled model only): ``(nodes, depth, research)`` of a search from the opponent's
    side after the chosen move; when it proves the opponent's win, the position is searched
    again without that move (:meth:`_verified`). ``ticks`` (None: none): the clock budget of a
    move in the model's virtual time (:func:`.fastmodel.model_search`'s), beside ``nodes``.
    ``ponder`` (with ``ticks``; None: none) plays as the pondering board does
    (docs/ponder.md), in the model's time: after each of its moves the chooser predicts the
    opponent's reply (:meth:`predict`, with a quarter of a move's ticks, the board's guess),
    and when the opponent plays it, the next search gets the ticks of ``ponder`` more seconds of
    the board's clock, as the board that searched the predicted position while the opponent
    thought has (:meth:`_ponder_ticks`).
    The table is empty at the start of every search, as the board's. On a torus of at most
    64 x 64 the model runs compiled (:mod:`.fastmodel`: node for node the same, one engine some
    180 times faster, seven some 140) when a C compiler is at hand.

    Contract: without ``random`` (no seed) every move is exactly the model's, so exactly the
    board's at the same node budget and depth (the model is bit-exact with
    ``hdl/track_search.py``). With ``random``, the model still searches every position exactly as
    the board would, and its result is kept; only in the first ``VARIED_PLIES`` plies of a game
    is its move replaced by a random one among the moves whose track evaluation after the move
    (:mod:`.trackeval`, from the mover's side) is within ``MODEL_VARIED_MARGIN`` of the best
    one's and whose score searched by the model after the move (each at the nodes of one move
    shared among them) is within ``MODEL_VARIED_MARGIN`` of the best searched one's and no
    proved loss (:func:`searched_near`), the model's own move always among them. A move that
    wins at once is never varied, a move that loses at once is never chosen, nor one after which
    the opponent can win at once, and one that gives the opponent a loop attack (evaluated -500)
    only if the model chose it or every move does. The variation is a choice on top of the
    model, not a change of what it computes; a series is varied and repeats for one seed. If
    the model finds no move (the game outgrew the torus, as the board would flag), the first
    legal move is played, with a warning.
    """

    def __init__(
        self,
        nodes: int | None = None,
        depth: int | None = None,
        torus: int = DEFAULT_TORUS,
        seed: int | str | None = None,
        engines: int = 1,
        pv_plies: int = DEFAULT_MODEL_PV_PLIES,
        helpers: bool = False,
        move_table: int = DEFAULT_MODEL_TABLE,
        table_scores: bool = True,
        attack_cut: bool = DEFAULT_ATTACK_CUT,
        newest_first: bool = DEFAULT_NEWEST_FIRST,
        research: int = 0,
        research_weights: list[int] | None = None,
        shapes: ShapeTable | None = DEFAULT_SHAPES,
        verify: tuple[int, int, int] | None = None,
        ticks: int | None = None,
        ponder: float | None = None,
    ) -> None:
        if ticks is not None and (not isinstance(ticks, int) or ticks < 1):
            raise ValueError(f"the ticks' budget must be a positive integer, not {ticks!r}")
        self.ticks = ticks
        if ponder is not None and (ticks is None or not ponder > 0):
            raise ValueError(f"ponder is positive seconds, with a ticks' budget: not {ponder!r}")
        self.ponder = ponder
        #: The predicted reply (the ply it is played at and its first tile), and the count of
        #: predictions the opponent played and did not.
        self.predicted: tuple[int, tuple] | None = None
        self.ponder_hits = 0
        self.ponder_misses = 0
        if verify is not None and (len(verify) != 3 or min(verify[:2]) < 1 or verify[2] < 0):
            raise ValueError(f"verify is (nodes, depth, research flags), not {verify!r}")
        self.verify = verify
        if nodes is not None and (not isinstance(nodes, int) or nodes < 1):
            raise ValueError(f"node budget must be a positive integer, not {nodes!r}")
        if depth is not None and (not isinstance(depth, int) or depth < 1):
            raise ValueError(f"depth must be a positive integer, not {depth!r}")
        if not isinstance(torus, int) or torus < 4:
            raise ValueError(f"torus must be an integer of at least 4, not {torus!r}")
        if not isinstance(engines, int) or engines < 1:
            raise ValueError(f"engines must be a positive integer, not {engines!r}")
        if not isinstance(pv_plies, int) or pv_plies < 1:
            raise ValueError(f"pv_plies must be a positive integer, not {pv_plies!r}")
        powers = isinstance(move_table, int) and move_table >= 0 and move_table != 1
        if not powers or move_table & (move_table - 1):
            raise ValueError(f"move_table must be 0 or a power of two from 2, not {move_table!r}")
        if move_table and torus > 64:
            raise ValueError("a table of best moves is for tori of at most 64 x 64")
        self.attack_cut = attack_cut
        self.newest_first = newest_first
        self.research = research
        self.shapes = shapes
        own = research & (RESEARCH_FITTED | RESEARCH_SHAPES) or research_weights is not None
        if shapes is not None and own:
            raise ValueError("a research evaluation has weights of its own: give shapes=None")
        if research_weights is not None:  # 30: RESEARCH_FITTED's; 1,029: RESEARCH_SHAPES's
            from .fastmodel import research_weights as set_weights
            from .shapes import SHAPE_FEATURES, shape_weights

            (shape_weights if len(research_weights) == SHAPE_FEATURES else set_weights)(
                research_weights
            )
        self.move_table = move_table
        self.table_scores = bool(table_scores) and move_table > 0
        self.engines = engines
        self.pv_plies = pv_plies
        self.helpers = helpers
        self.nodes = DEFAULT_NODES if nodes is None else nodes
        self.depth = DEFAULT_MODEL_DEPTH if depth is None else depth
        self.torus = torus
        self.random = None if seed is None else random.Random(seed)

    def budget(self) -> int:
        """The node budget of the next move."""
        return self.nodes

    def choose(self, position: Position):
        """Search ``position`` (left unchanged) with the model; its :class:`.HwSearchResult`
        (with engines, its :class:`.hwparallel.ParallelResult`)."""
        import dataclasses

        start = time.perf_counter()
        ticks = self._ponder_ticks(position)
        result, compiled = self._search(position, self.nodes, self.depth, self.research, ticks)
        if self.verify is not None:
            result = self._verified(position, result, compiled)
        elapsed = time.perf_counter() - start
        log.info(
            "%s: depth %d score %d nodes %d in %.3f s (%s%s)",
            result.move,
            result.depth,
            result.score,
            result.nodes,
            elapsed,
            "compiled model" if compiled else "model",
            f", {self.engines} engines" if self.engines > 1 else "",
        )
        if result.move is None:
            move = position.legal_moves()[0]
            log.warning("the model found no move (outgrew its torus?): playing %s", move)
            return dataclasses.replace(result, move=move)
        if self.random is not None and position.ply < VARIED_PLIES:
            result = self._vary(position, result)
        if self.ponder is not None:
            self.predict(position, result.move)
        return result

    def _ponder_ticks(self, position: Position) -> int | None:
        """The clock budget of the search of ``position``: ``ticks``, and with ``ponder``, when
        the opponent's last move is the predicted one, the ticks of ``ponder`` seconds more."""
        if self.ponder is None or self.predicted is None:
            return self.ticks
        ply, tile = self.predicted
        self.predicted = None
        if position.ply != ply + 1 or position.turns[-1].placed[0] != tile:
            self.ponder_misses += 1
            log.info("ponder: missed (%d hits, %d misses)", self.ponder_hits, self.ponder_misses)
            return self.ticks
        self.ponder_hits += 1
        log.info("ponder: hit (%d hits, %d misses)", self.ponder_hits, self.ponder_misses)
        return self.ticks + round(self.ticks * self.ponder / BOARD_THINK_TIME)

    def predict(self, position: Position, move: Move, ticks: int | None = None) -> None:
        """Predict the opponent's reply to ``move`` in ``position`` (left unchanged): the
        model's own choice after it, searched with ``ticks`` (None: a quarter of a move's, the
        0.2 s the board spends of the opponent's time on it: ``hdl.player.GUESS_SHARE``);
        ``predicted`` is then its ply and first tile, or None when ``move`` ends the game."""
        self.predicted = None
        turn = position.play(move)
        try:
            if turn.outcome is not None:
                return
            if ticks is None:
                ticks = max(1, self.ticks // 4)
            reply, _ = self._search(position, self.nodes, self.depth, self.research, ticks)
            if reply.move is None:
                return
            tile = position.play(reply.move).placed[0]
            position.pop()
            self.predicted = (position.ply, tile)
        finally:
            position.pop()

    def _search(
        self, position: Position, nodes: int, depth: int, research: int, ticks: int | None = None
    ):
        from .fastmodel import model_search  # imported on use, as the software search

        return model_search(
            *(position, self.torus, nodes, depth, self.engines),
            pv_plies=self.pv_plies,
            helpers=self.helpers,
            move_table=self.move_table,
            table_scores=self.table_scores,
            attack_cut=self.attack_cut,
            newest_first=self.newest_first,
            research=research,
            shapes=self.shapes,
            ticks=ticks,
        )

    def _verified(self, position: Position, result, compiled: bool):
        """Research (``verify``): the search's move checked by a deeper search from the
        opponent's side (``verify`` = its nodes an engine, depth and research flags); when that
        proves the opponent's win, the search again without the move (half the nodes), once.
        The compiled model's alone (it leaves the move out: :func:`.fastmodel.exclude`)."""
        from .fastmodel import FastModelError, exclude, root_key
        from .hwsearch import MATE_BOUND

        if not compiled:
            raise FastModelError("a verified move needs the compiled model (a C compiler)")

        if result.move is None or abs(result.score) >= MATE_BOUND:
            return result
        nodes, depth, research = self.verify
        turn = position.play(result.move)
        try:
            if turn.outcome is not None:
                return result
            check, _ = self._search(position, nodes, depth, research)
        finally:
            position.pop()
        if check.score < MATE_BOUND:
            return result
        key = root_key(result.window_cell, result.symbol, self.torus, self.torus)
        exclude([key])
        try:
            half = None if self.ticks is None else max(1, self.ticks // 2)
            again, _ = self._search(position, self.nodes // 2, self.depth, self.research, half)
        finally:
            exclude([])
        log.info(
            "verified: after %s the opponent wins (%d at depth %d); searched again: %s",
            *(result.move, check.score, check.depth, again.move),
        )
        return again if again.move is not None else result

    def _vary(self, position: Position, result):
        """The model's result with its move replaced by a random near-equal one."""
        import dataclasses

        near = self.near_moves(position, result.move)
        if near == [result.move]:
            return result
        move = self.random.choice(near)
        log.info("varied opening: %s among %d near-equal moves", move, len(near))
        return dataclasses.replace(result, move=move)

    def near_moves(self, position: Position, move: Move) -> list[Move]:
        """The moves a seeded choice varies the model's ``move`` among in ``position`` (left
        unchanged): near-equal by the track evaluation after them, then by the model's search
        after each (:func:`searched_near`), ``move`` always among them; ``[move]`` alone where
        a move wins at once (the contract is the class's)."""
        from .hwsearch import MATE_BOUND
        from .trackeval import track_features, track_score

        scored = []
        for candidate in position.legal_moves():
            turn = position.play(candidate)
            try:
                if turn.outcome is not None:
                    if turn.outcome.winner is turn.mover:  # a win is never varied
                        return [move]
                    continue  # a move that loses at once is never chosen
                if gives_a_win(position):  # (a loop closed through forced tiles, too)
                    continue
                tracks = track_features(position, self.torus, self.torus, self.shapes)
                scored.append((-track_score(tracks, position.turn, self.shapes), candidate))
            finally:
                position.pop()
        if not scored:
            return [move]
        best = max(score for score, _ in scored)
        static = [candidate for score, candidate in scored if score >= best - MODEL_VARIED_MARGIN]
        # The searches share one move's budget: its nodes, and its clock where it has one (with
        # nodes alone, a clock's unlimited nodes would make each a search without end).
        nodes = max(1, self.nodes // len(static))
        ticks = None if self.ticks is None else max(1, self.ticks // len(static))
        near = searched_near(
            position,
            static,
            lambda after: self._search(after, nodes, self.depth, self.research, ticks)[0].score,
            MODEL_VARIED_MARGIN,
            MATE_BOUND,
        )
        log.debug("near-equal: %s of %s", " ".join(map(str, near)), " ".join(map(str, static)))
        return near if move in near else [*near, move]

    def describe(self) -> str:
        ticks = f", {self.ticks} ticks" if self.ticks is not None else ""
        return (
            f"model, {self.nodes} nodes{ticks}, depth {self.depth}, {self.torus}x{self.torus} torus"
        )


def board_model(seed: int | str | None = None) -> ModelChooser:
    """The ULX3S board file's player through its model: its engines, split, table, search order
    and evaluation (:class:`ModelChooser`'s defaults), stopped by its clock, :data:`BOARD_TICKS`
    a move, with no node limit (as ``make kizuna-match`` plays it); ``seed`` varies its first
    plies as :class:`ModelChooser`'s does (the board itself never varies).

    Its search is the board's node for node; where it stops is the model's clock, which counts
    ticks where the board counts clocks (:data:`BOARD_TICK_CLOCKS` a tick on average), so near
    the end of a move's time the two may stop a few nodes apart and, rarely, choose differently.
    The compiled model plays a move in some seconds here, where the simulated gateware takes
    minutes at a real board's think time."""
    return ModelChooser(
        nodes=UNLIMITED_NODES, engines=DEFAULT_MODEL_ENGINES, ticks=BOARD_TICKS, seed=seed
    )


class EngineSession:
    """The player's side of the contest protocol (see the module's docstring for each line)."""

    def __init__(
        self,
        chooser: MoveChooser | ModelChooser | None = None,
        team: str = "RF",
        seed: int | None = None,
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
