"""The software model of the gateware search (``hdl/track_search.py`` with ``board="track"``; the
first design's ``hdl/search.py``, in the git history, with ``board="window"``): the
specification it follows.

The gateware reproduces this function move for move and node for node; a test compares the
two on the same positions and budgets. It is deliberately simpler than the software player of
:mod:`.search`: everything here is a few registers per ply and one move generator in hardware.

Specification
-------------
*Window.* The board maps onto a W x H window as a torus: board cell (x, y) is window cell
(x mod W, y mod H) (the first tile at window (0, 0)). A move whose box plus its ring of cells
would no longer fit (box width + 2 > W or height + 2 > H) is refused, like an illegal one.

*Candidates.* At every node: the empty cells next to a tile, each with the symbols ``+ / \\``
one of whose colour variants matches the neighbours, in *window order*: the index
``(wy << (XB + 2)) | (wx << 2) | symbol`` ascending (XB: bits of a window column). A candidate
whose forced plays fail, or that is refused by the window, is skipped and is not a node.

*Killers.* Every ply keeps the window index of the last move that made a cutoff there (none at
the start of a search; kept across iterations). A node below the root tries its ply's killer
first when it is one of its candidates, then the others in window order. A killer that is no
candidate is still "tried" for the budget: the check below is made before it, as before a
candidate (the gateware asks the board to play it, and the board refuses it).

*Table of best moves* (``move_table``, on the block-RAM board; :mod:`.movetable`): every node
below the root looks its position up on entry; when the table holds a move for it, that move
takes the killer's place as the node's first move (tried as a killer is, the budget checked
before it even when it is no candidate). On its return the node stores its best move.

*Nodes and budget.* A node is one legal move played. Before playing a candidate, if ``nodes ==
budget`` the search stops (the iteration in progress is abandoned).

*Scores* are from the side to move (negamax, fail-soft alpha-beta). A move at ply p (the root's
moves are ply 0) that ends the game scores ``WIN - (p + 1)`` if the mover wins, ``-(WIN - (p +
1))`` if the opponent does. A node with no legal candidate scores 0.

*Horizon and extensions.* In the iteration of depth d, a move at ply p >= d - 1 that ends
nothing is at the horizon. If the position after it holds a threat (a loop attack of either
colour, :mod:`.hweval`) and p + 1 < d + ``MAX_EXTENSIONS``, the search goes on one more ply
there (an extension); otherwise the move scores minus the evaluation of the position after it
(:func:`.hweval.hw_evaluate`, from the side then to move; 0 when the evaluation is off).

*Iterations* of depth 1, 2, ... up to ``max_depth``. From the second on, the root searches the
previous iteration's best move first, then the others in window order. An iteration that proves
a win or a loss (``|score| >= MATE_BOUND``) ends the deepening. The root's best move is the
first with the highest score.

*On the block-RAM board* (``board="track"``, ``hdl/track_search.py``): the W x H window is the
torus of :class:`~trax_fpga.hdl.track_board.TrackBoard`, the candidates come in its frontier
list's order (:mod:`.trackorder`; the list is compacted at the start of the search), a move
is known by its torus cell and symbol (the killers and the previous best), and the evaluation
and the threats are those of whole tracks (:mod:`.trackeval`: attacks and loop potential,
counted on the torus). Everything else is as above.

*Research* (model only, off by default): ``tuning=`` (:class:`.trackresearch.TrackTuning`, on
the block-RAM board) replaces the evaluation's weights, adds candidate features, and sets the
extensions, a threat search at the horizon, reductions of moves away from the last turns and
tables of best moves of other sizes and policies than the gateware's; without it the model is
the gateware's.

*Result.* The best move of the last completed iteration; if the budget stops an iteration after
at least one of its root moves was searched completely, the iteration's best so far is the
result instead (from the second iteration on, the first root move searched is the previous
best, so this never loses information). If the budget stops the first iteration before any root
move is searched completely (an extension can make one root move cost many nodes), the result
is the first legal root move played, with score 0 and depth 0: there is no move only when the
position has no legal move (or the budget is 0).
"""

from __future__ import annotations

import dataclasses

from .errors import IllegalMoveError
from .evaluate import DEFAULT_WEIGHTS, evaluate
from .hweval import MAX_EXTENSIONS, features, score
from .movetable import MoveTable, position_key, score_tag_bits
from .notation import Move
from .position import Position, _grow
from .tiles import Symbol
from .trackeval import OWN_ATTACK, ShapeTable, track_features, track_score
from .trackorder import TrackOrder
from .trackresearch import NO_LINES, TrackTuning, research_features, research_score

__all__ = [
    "EVAL",
    "INFINITY",
    "MATE_BOUND",
    "WIN",
    "HwSearchResult",
    "hw_search",
    "reply_move",
    "window_order",
]

WIN = 1000
MATE_BOUND = WIN - 100
INFINITY = 2000
EVAL = 0
SYMBOLS = list(Symbol)

# Options of the block-RAM board's search (``research=``, flags: docs/evaluation.md, "Where the
# board loses to KizuNa"). 0 is the gateware's default search. Both are in the gateware too, off
# by default: :class:`~trax_fpga.hdl.track_search.TrackSearch`'s ``newest_first`` and
# ``attack_cut`` (tests hold them to this model node for node). The compiled model
# (:mod:`.fastmodel`) has these and more of its own.
#: Candidates from the newest cell of the frontier list to the oldest.
RESEARCH_NEWEST = 1
#: A move that leaves the opponent an attack is lost, scored as a mate in one without a search
#: below it, inside the horizon and at it (an attack always has its winning move: tested).
RESEARCH_CUT = 2
MODEL_RESEARCH = RESEARCH_NEWEST | RESEARCH_CUT


@dataclasses.dataclass(frozen=True)
class HwSearchResult:
    """What the search chose: the move (None only without any legal move), its score, the
    deepest completed iteration, the nodes it played, and the move's window cell and symbol.

    ``reply`` (research, the compiled model's alone: :mod:`.fastmodel`; None from the Python
    models, and not compared) is the best move found below the move: the window cell and symbol
    of the best move of the chosen move's node at ply 1, the opponent's move the search expects
    (:func:`reply_move` names it); None when the move's value came without that node (a leaf, a
    win) or the search had none. docs/ponder.md measured it as the pondering board's guess."""

    move: Move | None
    score: int
    depth: int
    nodes: int
    window_cell: tuple[int, int] | None
    symbol: Symbol | None
    reply: tuple[tuple[int, int], Symbol] | None = dataclasses.field(
        default=None, kw_only=True, compare=False
    )


class _Stop(Exception):  # noqa: N818 - control flow, not an error
    """The node budget is spent."""


def reply_move(
    position: Position, width: int, height: int, reply: tuple[tuple[int, int], Symbol] | None
) -> Move | None:
    """The notation of a search's ``reply`` (:class:`HwSearchResult`'s: a window cell and symbol)
    in ``position``, the position after the search's move: the cell of the box or its ring on
    that window cell (one at most, since the box and its ring fit the window). None without a
    reply or a box."""
    if reply is None or position.box is None:
        return None
    (wx, wy), symbol = reply
    box = position.box
    x = box.min_x - 1 + (wx - (box.min_x - 1)) % width
    y = box.min_y - 1 + (wy - (box.min_y - 1)) % height
    if x > box.max_x + 1 or y > box.max_y + 1:
        return None
    return position.move_at((x, y), symbol)


def window_order(position: Position, width: int, height: int) -> list[tuple[int, tuple, Symbol]]:
    """The candidates ``(index, board cell, symbol)`` of a position, in window order."""
    xb = max(1, (width - 1).bit_length())
    found = []
    for x, y in position.frontier():
        constraint = position.constraint((x, y))
        fitting = constraint.fitting
        for s, symbol in enumerate(SYMBOLS):
            if any(v in fitting for v in symbol.variants):
                index = ((y % height) << (xb + 2)) | ((x % width) << 2) | s
                found.append((index, (x, y), symbol))
    found.sort(key=lambda c: c[0])
    return found


def track_order(
    order: TrackOrder, width: int, height: int, newest: bool = False
) -> list[tuple[tuple, tuple, Symbol]]:
    """The candidates ``(key, board cell, symbol)`` of the block-RAM board, in its order (with
    ``newest``, research: the frontier list read from its end); the key is the torus cell and
    the symbol's number."""
    return [
        ((cell[0] % width, cell[1] % height, SYMBOLS.index(symbol)), cell, symbol)
        for _, cell, symbol in order.candidates(newest)
    ]


class _Searcher:
    def __init__(
        self,
        position: Position,
        width: int,
        height: int,
        budget: int,
        evaluation: bool,
        board: str = "window",
        tuning: TrackTuning | None = None,
        move_table: int = 0,
        table_scores: bool = False,
        research: int = 0,
        shapes: ShapeTable | None = None,
    ):
        self.tuning = tuning
        self.shapes = shapes
        self.newest = bool(research & RESEARCH_NEWEST)
        self.cut = bool(research & RESEARCH_CUT)
        self.table = None  # the table of best moves (:mod:`.movetable`), or None
        if move_table and table_scores:
            tag_bits = score_tag_bits(move_table)
            self.table = MoveTable(move_table, tag_bits, scores=True, mate_bound=MATE_BOUND)
        elif move_table:
            self.table = MoveTable(move_table)
        elif tuning is not None and tuning.hash_moves:
            self.table = MoveTable(
                tuning.hash_moves,
                tuning.hash_tag_bits,
                keep_deeper=tuning.hash_keep_deeper,
                scores=tuning.hash_scores,
                mate_bound=MATE_BOUND,
            )
        self.order = None
        if board == "track":
            self.order = TrackOrder(position)
            self.order.compact()
            position = self.order.position
        self.position = position
        self.root_ply = position.ply
        self.trace: list | None = None  # hw_search's
        self.evaluation = evaluation
        self.width, self.height = width, height
        self.budget = budget
        self.nodes = 0
        self.killers: dict[int, int] = {}  # ply -> window index of its last cutoff move
        self.first_legal = None  # the first legal root move played: (index, cell, symbol)

    def fits(self, cell: tuple[int, int]) -> bool:
        box = _grow(self.position.box, *cell)
        return box.width + 2 <= self.width and box.height + 2 <= self.height

    def play(self, cell, symbol):
        """Play a candidate; None when it is refused or illegal (not a node)."""
        if self.nodes == self.budget:  # checked before every candidate, as in the gateware
            raise _Stop
        turn = self.try_play(cell, symbol)
        if turn is not None:
            self.nodes += 1
            if self.trace is not None:
                key = position_key(self.position, self.width, self.height)
                self.trace.append((self.position.ply - self.root_ply, key, str(turn.move)))
        return turn

    def try_play(self, cell, symbol):
        """Play a candidate without counting it or checking the budget; None when it is refused
        or illegal (then nothing is played)."""
        if not self.fits(cell):
            return None
        move = self.position.move_at(cell, symbol)
        try:
            return self.order.play(move) if self.order else self.position.play(move)
        except IllegalMoveError:
            return None

    def pop(self) -> None:
        if self.order:
            self.order.pop()
        else:
            self.position.pop()

    def moves(self, first=None):
        if self.order:
            candidates = track_order(self.order, self.width, self.height, self.newest)
        else:
            candidates = window_order(self.position, self.width, self.height)
        if first is not None:
            head = [c for c in candidates if c[0] == first]
            candidates = head + [c for c in candidates if c[0] != first]
        return candidates

    def value(self, turn, ply: int, depth: int, alpha: int, beta: int) -> int:
        """The score of the move just played at ``ply`` in the iteration of ``depth``, from its
        mover's point of view."""
        horizon = turn.outcome is None and ply + 1 >= depth
        if horizon and self.tuning is not None and self.evaluation:
            return self.tuned_value(ply, depth, alpha, beta)
        v = self.leaf(turn, ply, depth)
        return v if v is not None else -self.negamax(ply + 1, depth, -beta, -alpha)

    def leaf(self, turn, ply: int, depth: int) -> int | None:
        """The score of the move just played at ``ply`` from its mover's point of view when the
        search ends there (the game's end, or the horizon without an extension); None when the
        search goes on below it. Not for a tuning's horizon (:meth:`tuned_value`)."""
        if turn.outcome is not None:
            if turn.outcome.winner is None:
                return 0
            won = turn.outcome.winner is turn.mover
            return WIN - (ply + 1) if won else -(WIN - (ply + 1))
        side = self.position.turn
        if ply + 1 < depth:
            if not (self.cut and self.evaluation):
                return None
            tracks = track_features(self.position, self.width, self.height)
            return -(WIN - (ply + 2)) if tracks.attacks[side] else None  # the mover lost
        if not self.evaluation:
            return EVAL
        if self.order:
            tracks = track_features(self.position, self.width, self.height, self.shapes)
            if self.cut and tracks.attacks[side]:
                return -(WIN - (ply + 2))
            if tracks.threatened(side) and ply + 1 < depth + MAX_EXTENSIONS:
                return None
            return -track_score(tracks, side, self.shapes)
        found = features(self.position)
        if found.threatened(side) and ply + 1 < depth + MAX_EXTENSIONS:
            return None
        return -score(found, side)

    # --- research (``tuning``): not in the gateware ------------------------------------------

    def reduction(self, ply: int, depth: int) -> int:
        """The plies the move just played at ``ply`` is searched shallower (research: a move
        more than ``reduce_far`` cells away from the box of each of the two turns before it,
        :class:`.TrackTuning`'s ``reduce_far``)."""
        tuning = self.tuning
        if tuning is None or not tuning.reduce_far or ply < tuning.reduce_from:
            return 0
        turns = self.position.turns
        if depth - ply < 2 or len(turns) < 3:
            return 0
        (x, y), _ = turns[-1].placed[0]
        reach = tuning.reduce_far
        for turn in turns[-3:-1]:
            xs = [cell[0] for cell, _ in turn.placed]
            ys = [cell[1] for cell, _ in turn.placed]
            if min(xs) - reach <= x <= max(xs) + reach and min(ys) - reach <= y <= max(ys) + reach:
                return 0
        return 1

    def features(self):
        return research_features(self.position, self.width, self.height, self.tuning.long_span)

    def tuned_value(self, ply: int, depth: int, alpha: int, beta: int) -> int:
        """:meth:`value` at the horizon with the tuning's evaluation, extensions and threats."""
        tuning, found, side = self.tuning, self.features(), self.position.turn
        if found.threatened(side) and ply + 1 < depth + tuning.extensions:
            return -self.negamax(ply + 1, depth, -beta, -alpha)
        if tuning.threat_plies and not found.threatened(side):
            return -self.threats(ply + 1, found, tuning.threat_plies, -beta, -alpha)
        return -self.tuned_score(found, side)

    def tuned_score(self, found, side) -> int:
        """The tuning's evaluation of the position, for ``side`` to move."""
        tuning = self.tuning
        if tuning.software and not found.attacks[side] and found.attacks[side.other] < 2:
            weights = DEFAULT_WEIGHTS if tuning.software_lines else NO_LINES
            if tuning.loop is not None:
                weights = dataclasses.replace(weights, loop=((0, 0, 0), *tuning.loop))
            v = evaluate(self.position, weights) - tuning.attack * found.attacks[side.other]
            pseudo = found.pseudo_threats
            v += tuning.pseudo_threat * (pseudo[side] - pseudo[side.other])
            v = max(-tuning.clamp, min(tuning.clamp, v))
            return v // tuning.quantum * tuning.quantum
        return research_score(found, side, tuning)

    def threats(self, ply: int, found, left: int, alpha: int, beta: int) -> int:
        """The side to move (not threatened) stands on the evaluation or makes a threat: a move
        at a target of its near tracks after which it has an attack (the opponent none)."""
        side = self.position.turn
        best = self.tuned_score(found, side)
        if abs(best) >= OWN_ATTACK or left == 0 or not found.near[side]:
            return best
        alpha = max(alpha, best)
        if alpha >= beta:
            return best
        targets = found.near_targets[side]
        for _, cell, symbol in self.moves():
            if cell not in targets:
                continue
            turn = self.play(cell, symbol)
            if turn is None:
                continue
            try:
                if turn.outcome is not None:
                    v = self.value(turn, ply, 0, alpha, beta)  # a game's end scores as ever
                else:
                    after = self.features()
                    if after.attacks[side] == 0 or after.attacks[side.other] > 0:
                        continue  # not a threat, or the opponent wins first
                    if after.attacks[side] >= 2:
                        v = -self.tuned_score(after, side.other)
                    else:
                        v = -self.answers(ply + 1, after, left, -beta, -alpha)
            finally:
                self.pop()
            best = max(best, v)
            alpha = max(alpha, v)
            if alpha >= beta:
                break
        return best

    def answers(self, ply: int, found, left: int, alpha: int, beta: int) -> int:
        """The threatened side answers (every move, or with ``threat_answers`` "targets" the
        moves at the attack's targets); the threatening side then goes on (one fewer threat
        left) or stands on the evaluation."""
        attacker = self.position.turn.other
        only = found.attack_targets[attacker] if self.tuning.threat_answers == "targets" else None
        best = -INFINITY
        for _, cell, symbol in self.moves():
            if only is not None and cell not in only:
                continue
            turn = self.play(cell, symbol)
            if turn is None:
                continue
            try:
                if turn.outcome is not None:
                    v = self.value(turn, ply, 0, alpha, beta)
                else:
                    after, side = self.features(), self.position.turn
                    if after.threatened(side) or after.attacks[side]:
                        v = -self.tuned_score(after, side)
                    else:
                        v = -self.threats(ply + 1, after, left - 1, -beta, -alpha)
            finally:
                self.pop()
            best = max(best, v)
            alpha = max(alpha, v)
            if alpha >= beta:
                break
        if best > -INFINITY:
            return best
        return self.tuned_score(found, self.position.turn) if only is not None else 0

    def candidates(self, first):
        """A node's candidates, ``first`` first when it is one (a first move that is none is
        tried all the same, so the budget is checked before it)."""
        candidates = self.moves(first=first)
        not_a_candidate = first is not None and (not candidates or candidates[0][0] != first)
        if not_a_candidate and self.nodes == self.budget:  # the gateware tries it all the same
            raise _Stop
        return candidates

    def enter(self, ply: int, left: int, alpha: int, beta: int):
        """A node below the root, at ``ply`` with ``left`` plies below it and the window
        (``alpha``, ``beta``), is entered: its lookup in the table (None without one), the value
        the table's scores settle it with (None: it searches its replies, research) and its
        candidates (None when settled), its first move first (the table's, else its ply's
        killer)."""
        probe, first = None, self.killers.get(ply)
        if self.table is not None:
            probe = self.table.probe(position_key(self.position, self.width, self.height))
            if self.table.scores:
                turn = self.position.turn
                settled = self.table.settled(probe, turn, ply, left, alpha, beta)
                if settled is not None:
                    return probe, settled, None
            if probe.move is not None:
                first = probe.move  # the table's move in place of the killer
        return probe, None, self.candidates(first)

    def leave(self, probe, best_move, ply: int, left: int, window: tuple, value: int) -> None:
        """The node of ``probe`` at ``ply`` returns ``value`` with ``best_move`` (None: no
        reply searched), searched ``left`` plies deep with ``window`` (alpha, beta) on entry:
        the table stores the move, and with scores the value, its kind and the side to move."""
        if probe is not None and best_move is not None:
            scored = (self.position.turn, ply, *window, value) if self.table.scores else None
            self.table.store(probe, best_move, left, scored)

    def negamax(self, ply: int, depth: int, alpha: int, beta: int) -> int:
        probe, settled, candidates = self.enter(ply, depth - ply, alpha, beta)
        if settled is not None:
            return settled
        window = alpha, beta
        best, best_index = -INFINITY, None
        for index, cell, symbol in candidates:
            turn = self.play(cell, symbol)
            if turn is None:
                continue
            try:
                v = self.value(turn, ply, depth - self.reduction(ply, depth), alpha, beta)
            finally:
                self.pop()
            if v > best:
                best, best_index = v, index
            if v > alpha:
                alpha = v
                if alpha >= beta:
                    self.killers[ply] = index
                    break
        value = best if best > -INFINITY else 0
        self.leave(probe, best_index, ply, depth - ply, window, value)
        return value


def check_research(
    research: int,
    board: str = "track",
    tuning: TrackTuning | None = None,
    shapes: ShapeTable | None = None,
):
    """Refuse research flags the model does not have, or off the block-RAM board's search (and
    the tracks' shapes there too)."""
    if research & ~MODEL_RESEARCH:
        raise ValueError(f"research flags beyond {MODEL_RESEARCH} are the compiled model's")
    if research and (board != "track" or tuning is not None):
        raise ValueError("research flags are for the block-RAM board's search without a tuning")
    if shapes is not None and (board != "track" or tuning is not None):
        raise ValueError("the tracks' shapes are for the block-RAM board's search, no tuning")


def hw_search(
    position: Position,
    width: int,
    height: int,
    budget: int,
    max_depth: int,
    *,
    evaluation: bool = True,
    board: str = "window",
    tuning: TrackTuning | None = None,
    move_table: int = 0,
    table_scores: bool = False,
    research: int = 0,
    shapes: ShapeTable | None = None,
    trace: list | None = None,
) -> HwSearchResult:
    """Choose a move for the side to move, exactly as the gateware search does.

    ``evaluation=False`` scores the horizon 0 without extensions (the first version of the
    gateware, a mate searcher), for measuring what the evaluation is worth. ``board`` is
    ``"window"`` (the first design's ``hdl/search.py``, removed; kept for the strength comparison
    of ``host/search_bench.py``) or ``"track"`` (``hdl/track_search.py``: W x H is the torus;
    the evaluation is that of whole tracks, :mod:`.trackeval`). ``tuning`` (research, block-RAM
    board only; None: the gateware's) is a candidate evaluation, :mod:`.trackresearch`.
    ``move_table`` (block-RAM board) is the entries of the table of best moves
    (:mod:`.movetable`; 0: none); with ``table_scores`` it holds the nodes' values too and
    settles a node from them (its tags every bit of the key above the slot). ``research``
    (block-RAM board, no tuning) is :data:`RESEARCH_NEWEST` and :data:`RESEARCH_CUT` flags
    (the gateware's ``newest_first`` and ``attack_cut``). ``shapes`` (block-RAM board, no
    tuning): the evaluation weighs the tracks' shapes by this table (:mod:`.trackeval`) in
    place of their kinds. ``trace`` (debugging), a list: every
    node played is appended to it, in order, as (plies stacked, the position's key on the
    torus, the move in the notation of the position it was played in)."""
    if board not in ("window", "track"):
        raise ValueError(f"board must be 'window' or 'track', not {board!r}")
    if tuning is not None and (board != "track" or not evaluation):
        raise ValueError("a tuning is for the block-RAM board's search with its evaluation")
    if move_table and (board != "track" or (tuning is not None and tuning.hash_moves)):
        raise ValueError("a table of best moves is for the block-RAM board, and only one")
    if tuning is not None and tuning.hash_scores and not tuning.hash_moves:
        raise ValueError("scores in a table need the table (hash_moves)")
    if table_scores and not move_table:
        raise ValueError("scores in the table need the table (move_table)")
    if move_table and (width > 64 or height > 64):
        raise ValueError("the positions' keys are for tori of at most 64 x 64")
    check_research(research, board, tuning, shapes)
    if position.box is None:  # the first move of a game: the search is not needed
        move = Move(0, 0, Symbol.CROSS)
        return HwSearchResult(move, 0, 0, 0, (0, 0), Symbol.CROSS)
    searcher = _Searcher(
        *(position.copy(), width, height, budget, evaluation, board, tuning),
        *(move_table, table_scores, research, shapes),
    )
    searcher.trace = trace
    result: tuple[int, tuple, Symbol, int, int] | None = None  # index, cell, symbol, score, depth
    for depth in range(1, max_depth + 1):
        best, best_move = -INFINITY, None
        alpha, beta = -INFINITY, INFINITY
        try:
            for index, cell, symbol in searcher.moves(first=result[0] if result else None):
                turn = searcher.play(cell, symbol)
                if turn is None:
                    continue
                if searcher.first_legal is None:
                    searcher.first_legal = (index, cell, symbol)
                try:
                    v = searcher.value(turn, 0, depth - searcher.reduction(0, depth), alpha, beta)
                finally:
                    searcher.pop()
                if v > best:
                    best, best_move = v, (index, cell, symbol)
                alpha = max(alpha, v)
        except _Stop:
            if best_move is not None:
                result = (*best_move, best, result[4] if result else 0)
            elif result is None and searcher.first_legal is not None:
                result = (*searcher.first_legal, 0, 0)
            break
        if best_move is None:  # no legal move at all
            break
        result = (*best_move, best, depth)
        if abs(best) >= MATE_BOUND:
            break
    if result is None:
        return HwSearchResult(None, 0, 0, searcher.nodes, None, None)
    index, cell, symbol, score, depth = result
    window_cell = (cell[0] % width, cell[1] % height)
    return HwSearchResult(
        position.move_at(cell, symbol), score, depth, searcher.nodes, window_cell, symbol
    )
