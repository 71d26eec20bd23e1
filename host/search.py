"""Game-tree search: iterative deepening alpha-beta with a node budget and threat extensions.

This module is the software model that the gateware search must reproduce move for move. The
rules below are the specification; :func:`search` is their reference implementation.

Specification (what the gateware must reproduce)
------------------------------------------------
*Candidates.* At every node the candidates are the pairs (cell, symbol) for every empty cell
sharing an edge with a tile, in row-major order (y, then x, absolute board coordinates), and for
each cell the symbols ``+ / \\`` (in that order) whose tile matches the neighbours' colours. A
candidate whose forced plays fail (three same-colour edges meet) is skipped and is not a node.
This *generator order* is the order of :meth:`Position.legal_moves`.

*Nodes and budget.* A node is one successful ``play()``: one position reached, forced plays,
win detection and all. Every node is counted, in the main search, in the quiescence sweeps and
in the extensions alike. Before each attempted play, if ``nodes == budget`` the search stops
(the iteration in progress is abandoned; see *Result*). So the count is exact and the same in
software and gateware.

*Scores.* Integers from the side to move's point of view (negamax). A win ``p`` plies from the
root scores ``WIN - p``; a loss ``-(WIN - p)``; a draw (8x8 game only) 0. So a won position is
played out by the fastest win and a lost one is defended by the slowest loss. ``|score| >=
MATE_BOUND`` means the result is proved (no evaluation was involved).

*Root.* Pass 0 plays every root candidate once, in generator order: a move that wins at once
is returned immediately (depth 1, score ``WIN - 1``). The others are ranked by the static
evaluation of the child (negated), moves that lose at once last, ties kept in generator order
(a stable sort). If exactly one move does not lose at once, it is returned (depth 1). Then
iterations of depth 1, 2, ... search the root moves in rank order, except that the best move of
the previous completed iteration goes first. An iteration stops the deepening when it proves a
win or a loss, when ``max_depth`` is reached, or when the budget runs out.

*Main search* (``depth >= 1`` plies left): alpha-beta (fail-soft negamax). At nodes with
``depth >= 2`` the candidates go in this order: the move of the previous iteration's principal
variation (only while the path from the root follows it), then the two killer moves of this ply
(absolute cell and symbol, the most recent cutoff first; a killer is recorded whenever a move
causes a cutoff), then the generator order. At nodes with ``depth == 1`` (``RANK_DEPTH``) a
ranking pass comes first, as at the root: every candidate is played once (a win for the mover
returns at once), and the moves are searched best static evaluation of the child first (moves
that lose at once last, ties in generator order), the principal-variation move still first.
This costs one node per move but finds the cutoff sooner: 40% fewer nodes at depth 2 on the
human-game positions of the benchmark. A move that ends the game is scored at once; a win at
the next ply ends the loop (nothing can score higher).

*Quiescence* (``depth == 0``), with the side to move S and the opponent O:

1. The sweep: play every candidate once (hint moves first, then generator order). If one wins
   for S, return ``WIN - (ply + 1)`` at once. A move whose completed turn is won by O (the tiles
   complete O's loop or line and not S's) is a *threat* of O: the same tiles, played by O, win
   for O. The other moves are S's *safe* moves.
2. No threats: return the static evaluation (:func:`.evaluate.evaluate`).
3. Threats but no safe move: S loses at the next ply, return ``-(WIN - (ply + 2))``.
4. Threats, with ``extension`` plies of quiescence already used up: return the evaluation.
5. Otherwise S must defend: search every safe move (ordered by Manhattan distance from its cell
   to the nearest threat cell, 0, 1, 2, then the rest, each group in generator order) with a
   quiescence child whose hint moves are O's threats (so a defence that fails is refuted by the
   first play of the child's sweep).

So every one-move threat at the horizon is resolved by search, and a win by a double threat
(an L threat, an edge threat) is found one ply deeper than the double threat itself.

*Result.* The best of the root moves that the last iteration searched completely: when the
budget stops an iteration after its first root move (the previous best) is done, its best so far
replaces the previous iteration's answer, which is then at least as well informed. ``depth`` is
the deepest completed iteration; the principal variation is the line that produced the score.

Cost and speed
--------------
With N legal moves (about 40 mid-game, up to 100+), pass 0 costs N nodes and depth 1 about
N * N (every child's quiescence sweep plays all the opponent's moves: that is the price of never
missing a one-move threat); depth 2 costs 5-30 thousand nodes on mid-game human positions. The
Python model runs 23-30 thousand nodes per second of CPU (``python -m
trax_fpga.host.search_bench``): at 20,000 nodes (under a second) it completes depth 1.7 on
average (1-2); at 2,000 nodes it often finishes only pass 0 and part of depth 1, keeping the
best root move searched so far. Depth 3 took 85,000 to over 200,000 nodes on the same positions: the
gateware's 25-50 million nodes per second would complete it within the 1 s limit.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

from .errors import IllegalMoveError
from .evaluate import DEFAULT_WEIGHTS, Weights, evaluate
from .notation import Move
from .position import Position, Turn
from .tiles import Symbol

__all__ = [
    "DEFAULT_EXTENSION",
    "MATE_BOUND",
    "WIN",
    "SearchResult",
    "search",
]

WIN = 1_000_000
MATE_BOUND = WIN - 10_000
INFINITY = 2 * WIN
MAX_DEPTH = 64
#: Plies of threat extension (defences searched at the horizon) before evaluating anyway.
DEFAULT_EXTENSION = 8
RANK_DEPTH = 1

Cell = tuple[int, int]
Candidate = tuple[Cell, Symbol]

_SYMBOL_ORDER = (Symbol.CROSS, Symbol.SLASH, Symbol.BACKSLASH)
_FIRST_CANDIDATES = (((0, 0), Symbol.CROSS), ((0, 0), Symbol.SLASH))


@dataclasses.dataclass(frozen=True, slots=True)
class SearchResult:
    """The answer of :func:`search`.

    ``move`` is legal in the searched position; ``score`` is from the mover's point of view;
    ``depth`` is the deepest completed iteration (0: only the root pass); ``nodes`` counts every
    position reached; ``pv`` is the principal variation, each move in the notation of the
    position it is played in (``pv[0] == move``).
    """

    move: Move
    score: int
    depth: int
    nodes: int
    pv: tuple[Move, ...]

    @property
    def plies_to_win(self) -> int | None:
        """Plies to the proved end of the game when the score is a win, else None."""
        return WIN - self.score if self.score >= MATE_BOUND else None

    @property
    def plies_to_loss(self) -> int | None:
        """Plies to the proved loss when the score is one, else None."""
        return WIN + self.score if self.score <= -MATE_BOUND else None


class _BudgetSpentError(Exception):
    """The node budget is spent."""


def candidates(position: Position) -> list[Candidate]:
    """The search's candidates in generator order (the order of ``legal_moves()``).

    Every (frontier cell, symbol) whose tile matches the neighbours; some may still be illegal
    because of their forced plays.
    """
    if position.box is None:
        return list(_FIRST_CANDIDATES)
    result = []
    for cell in position.frontier():
        fitting = position.constraint(cell).fitting
        for symbol in _SYMBOL_ORDER:
            white_first, black_first = symbol.variants
            if white_first in fitting or black_first in fitting:
                result.append((cell, symbol))
    return result


class _Searcher:
    def __init__(self, position: Position, budget: int, weights: Weights, extension: int) -> None:
        self.position = position
        self.budget = budget
        self.weights = weights
        self.extension = extension
        self.nodes = 0
        self.killers: list[list[Candidate]] = [[] for _ in range(MAX_DEPTH + extension + 2)]
        self.pv: list[list[tuple[Candidate, Move]]] = [[] for _ in range(len(self.killers) + 1)]
        self.previous_pv: list[Candidate] = []
        self.root_ply = position.ply
        self.rank_depth = RANK_DEPTH

    # --- primitives -----------------------------------------------------------------------

    def play(self, candidate: Candidate) -> tuple[Turn, Move] | None:
        """Play a candidate (one node) or return None if the rules forbid it."""
        if self.nodes >= self.budget:
            raise _BudgetSpentError
        position = self.position
        move = position.move_at(*candidate)
        try:
            turn = position.play(move)
        except IllegalMoveError:
            return None
        self.nodes += 1
        return turn, move

    def terminal_score(self, turn: Turn, ply: int) -> int:
        """The score, for the mover of ``turn`` (played at ``ply``), of a finished game."""
        winner = turn.outcome.winner
        if winner is None:
            return 0
        return WIN - (ply + 1) if winner is turn.mover else -(WIN - (ply + 1))

    def set_pv(self, ply: int, candidate: Candidate, move: Move) -> None:
        self.pv[ply] = [(candidate, move), *self.pv[ply + 1]]

    # --- main search ----------------------------------------------------------------------

    def ordered(self, ply: int, on_pv: bool) -> list[Candidate]:
        cands = candidates(self.position)
        first: list[Candidate] = []
        if on_pv and ply < len(self.previous_pv):
            first.append(self.previous_pv[ply])
        for killer in self.killers[ply]:
            if killer not in first:
                first.append(killer)
        first = [c for c in first if c in cands]
        if not first:
            return cands
        return first + [c for c in cands if c not in first]

    def negamax(self, depth: int, alpha: int, beta: int, ply: int, on_pv: bool) -> int:
        if depth <= 0:
            return self.quiesce(alpha, beta, ply, 0, ())
        self.pv[ply] = []
        position = self.position
        best = -INFINITY
        follow = self.previous_pv[ply] if on_pv and ply < len(self.previous_pv) else None
        if depth <= self.rank_depth:
            ranked = self.rank(ply)
            if isinstance(ranked, int):
                return ranked
            if follow in ranked:
                ranked.remove(follow)
                ranked.insert(0, follow)
            order = ranked
        else:
            order = self.ordered(ply, on_pv)
        for candidate in order:
            played = self.play(candidate)
            if played is None:
                continue
            turn, move = played
            if turn.outcome is not None:
                score = self.terminal_score(turn, ply)
                self.pv[ply + 1] = []
            else:
                score = -self.negamax(
                    depth - 1, -beta, -max(alpha, best), ply + 1, candidate == follow
                )
            position.pop()
            if score > best:
                best = score
                self.set_pv(ply, candidate, move)
            if best >= beta or best >= WIN - (ply + 1):
                self.add_killer(ply, candidate)
                break
        if best == -INFINITY:  # no legal move: only in the 8x8 game, where that is a draw
            return 0
        return best

    def rank(self, ply: int) -> list[Candidate] | int:
        """Play every candidate once: a win's score, or the legal ones best first (static)."""
        position = self.position
        mover = position.turn
        scored = []
        for index, candidate in enumerate(candidates(position)):
            played = self.play(candidate)
            if played is None:
                continue
            turn, move = played
            if turn.outcome is None:
                score = -evaluate(position, self.weights)
            elif turn.outcome.winner is mover:
                position.pop()
                self.pv[ply + 1] = []
                self.set_pv(ply, candidate, move)
                return WIN - (ply + 1)
            else:
                score = -INFINITY if turn.outcome.winner is not None else 0
            position.pop()
            scored.append((score, index, candidate))
        scored.sort(key=lambda entry: (-entry[0], entry[1]))
        return [entry[2] for entry in scored]

    def add_killer(self, ply: int, candidate: Candidate) -> None:
        killers = self.killers[ply]
        if killers and killers[0] == candidate:
            return
        killers.insert(0, candidate)
        del killers[2:]

    # --- quiescence -----------------------------------------------------------------------

    def quiesce(
        self, alpha: int, beta: int, ply: int, used: int, hints: Sequence[Candidate]
    ) -> int:
        self.pv[ply] = []
        position = self.position
        mover = position.turn
        cands = candidates(position)
        if hints:
            first = [c for c in hints if c in cands]
            cands = first + [c for c in cands if c not in first]
        safe: list[Candidate] = []
        threats: list[Candidate] = []
        draw = False
        for candidate in cands:
            played = self.play(candidate)
            if played is None:
                continue
            turn, move = played
            position.pop()
            outcome = turn.outcome
            if outcome is None:
                safe.append(candidate)
            elif outcome.winner is mover:
                self.pv[ply + 1] = []
                self.set_pv(ply, candidate, move)
                return WIN - (ply + 1)
            elif outcome.winner is None:
                draw = True
            else:
                threats.append(candidate)
        if not threats:
            if not safe:
                return 0  # only draws, or no legal move (8x8 game)
            return evaluate(position, self.weights)
        if not safe:
            return 0 if draw else -(WIN - (ply + 2))
        if used >= self.extension:
            return evaluate(position, self.weights)
        best = 0 if draw else -INFINITY
        for candidate in _by_distance(safe, threats):
            turn, move = self.play(candidate)
            score = -self.quiesce(-beta, -max(alpha, best), ply + 1, used + 1, threats)
            position.pop()
            if score > best:
                best = score
                self.set_pv(ply, candidate, move)
            if best >= beta:
                break
        return best

    # --- root -----------------------------------------------------------------------------

    def run(self, max_depth: int) -> SearchResult:
        position = self.position
        ranked: list[tuple[int, int, Candidate, Move]] = []
        for index, candidate in enumerate(candidates(position)):
            try:
                played = self.play(candidate)
            except _BudgetSpentError:
                break
            if played is None:
                continue
            turn, move = played
            if turn.outcome is not None:
                score = self.terminal_score(turn, 0)
            else:
                score = -evaluate(position, self.weights)
            position.pop()
            if score >= MATE_BOUND:
                return SearchResult(move, score, 1, self.nodes, (move,))
            ranked.append((score, index, candidate, move))
        if not ranked:
            move = position.legal_moves()[0]  # the budget did not allow a single play
            return SearchResult(move, 0, 0, self.nodes, (move,))
        ranked.sort(key=lambda entry: (-entry[0], entry[1]))
        best_score, _, best_candidate, best_move = ranked[0]
        best_pv = [best_move]
        depth_done = 0
        survivors = [entry for entry in ranked if entry[0] > -MATE_BOUND]
        if len(survivors) <= 1:
            return SearchResult(best_move, best_score, 1, self.nodes, tuple(best_pv))
        order = [entry[2] for entry in ranked]
        for depth in range(1, max_depth + 1):
            order.remove(best_candidate)
            order.insert(0, best_candidate)
            self.previous_pv = [c for c, _ in self.pv[0]] if depth > 1 else [best_candidate]
            iteration_best = -INFINITY
            iteration = None
            try:
                for candidate in order:
                    turn, move = self.play(candidate)
                    if turn.outcome is not None:
                        score = self.terminal_score(turn, 0)
                        self.pv[1] = []
                    else:
                        score = -self.negamax(
                            depth - 1,
                            -INFINITY,
                            -iteration_best,
                            1,
                            candidate == self.previous_pv[0],
                        )
                    position.pop()
                    if score > iteration_best:
                        iteration_best = score
                        pv = [move] + [m for _, m in self.pv[1]]
                        iteration = (candidate, move, pv)
                        self.pv[0] = [(candidate, move), *self.pv[1]]
            except _BudgetSpentError:
                _unwind(position, self.root_ply)
                if iteration is not None:
                    best_candidate, best_move, best_pv = iteration
                    best_score = iteration_best
                break
            best_candidate, best_move, best_pv = iteration
            best_score = iteration_best
            depth_done = depth
            if abs(best_score) >= MATE_BOUND:
                break
        return SearchResult(best_move, best_score, depth_done, self.nodes, tuple(best_pv))


def _by_distance(moves: list[Candidate], threats: list[Candidate]) -> list[Candidate]:
    """Moves grouped by distance from their cell to the nearest threat cell: 0, 1, 2, more."""
    cells = {cell for cell, _ in threats}

    def group(candidate: Candidate) -> int:
        (x, y), _ = candidate
        distance = min(abs(x - cx) + abs(y - cy) for cx, cy in cells)
        return min(distance, 3)

    return sorted(moves, key=group)


def _unwind(position: Position, ply: int) -> None:
    while position.ply > ply:
        position.pop()


def search(
    position: Position,
    nodes: int,
    max_depth: int | None = None,
    *,
    weights: Weights = DEFAULT_WEIGHTS,
    extension: int = DEFAULT_EXTENSION,
) -> SearchResult:
    """Choose a move for the side to move in ``position`` within ``nodes`` positions reached.

    The position is left as it was. Deterministic: the same position, budget and options give
    the same result. Raises ValueError if the game is over or the budget is not positive.
    """
    if not isinstance(nodes, int) or nodes < 1:
        raise ValueError(f"node budget must be a positive integer, not {nodes!r}")
    if max_depth is not None and (not isinstance(max_depth, int) or max_depth < 1):
        raise ValueError(f"max_depth must be a positive integer or None, not {max_depth!r}")
    if position.outcome is not None:
        raise ValueError(f"the game is over ({position.outcome})")
    # The search plays on a copy: a signal (Ctrl-C, SIGTERM) that lands inside a play leaves
    # the copy half-changed, never the caller's position.
    searcher = _Searcher(position.copy(), nodes, weights, extension)
    return searcher.run(MAX_DEPTH if max_depth is None else min(max_depth, MAX_DEPTH))
