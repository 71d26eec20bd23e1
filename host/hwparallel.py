"""The software model of the parallel search (issue 13): N engines splitting the root of the
block-RAM board's search (:func:`.hwsearch.hw_search` with ``board="track"``), as
docs/parallel.md specifies it (tickets, shared alpha, exact values, merge, budgets).

Every engine is the sequential search on its own copy of the board (its own
:class:`~.trackorder.TrackOrder`, its own killers), written as a generator that yields after
each node it plays. The engines advance in *virtual time*: in every tick each engine still in
the iteration runs until it has played one node, engine 0 first, so that what one engine does
in a tick (a root move completed, a ticket taken) is seen by the engines after it in the same
tick. A tick in which no engine plays a node (the end of an iteration) takes no time.

Choices the contract leaves to the model:

- *The walk* to a ticket plays and takes back the legal root moves it passes at once: no node,
  no budget, no tick. The budget is checked before every root candidate the engine tries,
  walked or searched, as the sequential search checks it before every candidate: with one
  engine the walk is empty and the checks are the sequential ones.
- *Alpha* of a root move is the largest root best of all engines (the engine's own included)
  when the engine plays the move: an engine's own root alpha is its own root best.
- *Young brothers wait* (as the gateware, from the second iteration on): an engine holding a
  ticket after 0 waits, playing nothing, until ordinal 0 (the previous best) is completed.
- *The PV split* (from the second iteration on): every engine plays the previous best; the
  moves of the node below it go by ticket (a second counter) in the order of its candidates with
  engine 0's killer first; an engine whose share is done waits, playing nothing, until every
  engine's is, then takes the largest best of all as that node's score. With ``pv_plies``
  above 1 the line is split further down (the recursive PV split, :meth:`_Engine.split_share`),
  and every engine starts the iteration with engine 0's killers of the plies that may be split.
- *Helpers* (``helpers``, docs/parallel.md): an engine whose root moves ran out helps a root
  move another engine is still searching (:class:`_HelpNode`): the open one whose root move
  was taken first.
- *The first legal root move* of the result when the first iteration completes no root move is
  ordinal 0, which engine 0 plays first.

With one engine the search is :func:`.hwsearch.hw_search`'s node for node.
"""

from __future__ import annotations

import collections
import dataclasses
from collections.abc import Iterator

from .hwsearch import INFINITY, MATE_BOUND, HwSearchResult, _Searcher, _Stop, check_research
from .notation import Move
from .position import Position
from .tiles import Symbol
from .trackeval import ShapeTable

__all__ = ["ENGINE_STATES", "ParallelResult", "hw_parallel_search", "split_plies"]

#: What an engine does in a tick (:func:`hw_parallel_search`'s ``states``): plays a node, or
#: waits where the model's code waits (its generator's function), or is done with the iteration.
ENGINE_STATES = {
    "node": "playing a node",
    "iteration": "root: waiting for the previous best's score (young brothers wait)",
    "split_share": "split node: waiting for its first move (young brothers wait)",
    "split_value": "split node: its share done, waiting for the others' shares",
    "owned": "root move: its replies done, waiting for its helpers",
    "help": "helping: nothing to help now",
    "done": "done with the iteration, waiting for the others' last root moves",
}


def _waiting_in(steps) -> str:
    """The function of the innermost generator that ``steps`` (an engine's) is paused in."""
    while isinstance(getattr(steps, "gi_yieldfrom", None), type(steps)):
        steps = steps.gi_yieldfrom
    return steps.gi_frame.f_code.co_name


def split_plies(pv_plies: int, max_depth: int) -> int:
    """The deepest ply of the previous best's line that is ever split: ``pv_plies``, but no
    deeper than 2 plies above the deepest iteration's horizon (and at least 1). An iteration of
    ``depth`` splits down to ``max(1, min(pv_plies, depth - 2))``."""
    return min(pv_plies, max(1, max_depth - 2))


@dataclasses.dataclass(frozen=True)
class ParallelResult(HwSearchResult):
    """The merged result (``nodes`` is the sum over the engines), with the score of every
    completed iteration in order, each engine's nodes, and the ticks until the search ended."""

    iterations: list[int]
    engine_nodes: tuple[int, ...]
    ticks: int


@dataclasses.dataclass
class _Best:
    """An engine's root best in the iteration: value, move ``(key, cell, symbol)``, exact."""

    value: int = -INFINITY
    move: tuple | None = None
    exact: bool = False

    def offer(self, value: int, move: tuple, exact: bool) -> None:
        """Replace on a strictly larger value, or an equal exact one when the held is not."""
        if value > self.value or (value == self.value and exact and not self.exact):
            self.value, self.move, self.exact = value, move, exact


class _SplitNode:
    """What the engines share at a split node (a node of the previous best's line): its ticket
    counter, each engine's best there, the ordinals completed, the engines whose share is
    done. With ``first_shared`` every engine plays its ordinal 0 itself (the tickets start at
    1)."""

    def __init__(self, engines: int, first_shared: bool) -> None:
        self.tickets = 1 if first_shared else 0
        self.best = [-INFINITY] * engines
        self.completed: set[int] = set()
        self.done: set[int] = set()

    def ticket(self) -> int:
        self.tickets += 1
        return self.tickets - 1

    def alpha(self) -> int:
        return max(self.best)


class _Cut(Exception):  # noqa: N818 - control flow, not an error
    """The help node an engine is searching under was cut off: give up the reply in hand."""


class _HelpNode:
    """A root move being searched by its owner, whose replies (the node at ply 1) go by ticket
    to the owner and its helpers. The window there is (the largest best of its participants,
    ``beta``); a reply scoring ``beta`` or more cuts the node off. It is *open* to helpers once
    reply ordinal 0 is done (young brothers wait) while it is neither cut off nor out of
    replies."""

    def __init__(self, move: tuple, beta: int, first=None) -> None:
        self.move, self.beta, self.first = move, beta, first
        self.best_key = None
        self.tickets = 0
        self.best = -INFINITY
        self.first_done = False  # reply ordinal 0
        self.cut = False
        self.exhausted = False
        self.helpers = 0  # helpers in the node now

    def ticket(self) -> int:
        self.tickets += 1
        return self.tickets - 1

    def open(self) -> bool:
        return self.first_done and not self.cut and not self.exhausted


class _Iteration:
    """What the engines share in one iteration: the ticket counter, their root bests, the
    ordinals completed, and ordinal 0's move once it was played; and the split nodes (the
    nodes of the previous best's line below it, plies 1 to ``deepest``)."""

    def __init__(self, engines: int, split: bool, deepest: int = 1, helpers: bool = False):
        self.helpers = helpers
        self.tickets = 1 if split else 0  # with the split, every engine plays ordinal 0
        self.best = [_Best() for _ in range(engines)]
        self.completed: set[int] = set()
        self.first: tuple | None = None
        self.deepest = deepest
        self.split_nodes: dict[int, _SplitNode] = {}
        self.help_nodes: list[_HelpNode] = []  # the root moves searched, in ticket order
        self.idle: set[int] = set()  # the engines whose root moves ran out, with nothing to help

    def helped(self) -> _HelpNode | None:
        """The node for an idle engine to help, if any: the open one whose root move was taken
        first (the lowest ticket: searched the longest, so likely the largest)."""
        return next((n for n in self.help_nodes if n.open()), None)

    def over(self) -> bool:
        """Every engine is idle (its root moves ran out, and it helps none): no root move is
        searched any more."""
        return len(self.idle) == len(self.best)

    def split_node(self, ply: int) -> _SplitNode:
        """The split node at ``ply`` (1 to ``deepest``)."""
        if ply not in self.split_nodes:
            self.split_nodes[ply] = _SplitNode(len(self.best), ply < self.deepest)
        return self.split_nodes[ply]

    def ticket(self) -> int:
        self.tickets += 1
        return self.tickets - 1

    def alpha(self) -> int:
        return max(best.value for best in self.best)

    def merge(self) -> tuple[int, tuple] | None:
        """(score, move) over the root moves completed: the largest root best, and the move of
        the lowest-numbered engine holding it exactly; None when none was completed."""
        score = self.alpha()
        for best in self.best:
            if best.move is not None and best.value == score and best.exact:
                return score, best.move
        return None


class _Engine(_Searcher):
    """One engine: the sequential search on its own board, yielding after every node."""

    def iteration(self, number: int, shared: _Iteration, depth: int, first) -> Iterator[bool]:
        """Engine ``number``'s part of the iteration of ``depth``: with ``first`` (the previous
        best's key, ordinal 0) its share of the PV split, then take tickets and search their
        root moves until its root moves run out; with helpers, then help the root moves still
        searched until none is. Yields True after each node it plays, False while it waits.
        Raises ``_Stop`` when its budget is spent."""
        roots = iter(self.moves(first=first))
        ordinal = 0  # of the next legal root move
        if first is not None:  # the PV split: every engine plays the previous best itself
            yield from self.split(number, shared, depth, roots)
            ordinal = 1
        while True:
            ticket = shared.ticket()
            while first is not None and ticket > 0 and 0 not in shared.completed:
                yield False  # the young brothers wait for the previous best's score
            taken = self.take(roots, ordinal, ticket)
            if taken is None:
                break  # the root moves ran out before the ticket
            move, turn, ordinal = taken
            if ticket == 0:
                shared.first = move
            alpha = shared.alpha()
            yield True
            try:
                value = self.leaf(turn, 0, depth)
                exact = value is not None
                if not exact:
                    if shared.helpers:
                        value = -(yield from self.owned(shared, move, depth, alpha))
                    else:
                        value = -(yield from self.negamax_steps(1, depth, -INFINITY, -alpha))
                    exact = value > alpha
            finally:
                self.pop()
            shared.best[number].offer(value, move, exact)
            shared.completed.add(ticket)
        if shared.helpers:
            yield from self.help(number, shared, depth)

    def owned(self, shared: _Iteration, move: tuple, depth: int, alpha: int):
        """The value of the node below root move ``move`` (the board is at it; the window
        (-INFINITY, -alpha)), its replies shared with helpers: this engine's share, then
        (waiting for its helpers to leave) the largest best of all, 0 when it has no reply. The
        node is entered as any other (the table's lookup, its settled value, its move first,
        which the helpers take as theirs there) and left so (the best reply stored)."""
        window = -INFINITY, -alpha
        probe, settled, candidates = self.enter(1, depth - 1, *window)
        if settled is not None:
            return settled
        first = candidates[0][0] if candidates else None
        node = _HelpNode(move, -alpha, first)
        shared.help_nodes.append(node)
        yield from self.replies(node, depth)
        while node.helpers:
            yield False  # the helpers' replies
        shared.help_nodes.remove(node)
        value = node.best if node.best > -INFINITY else 0
        self.leave(probe, node.best_key, 1, depth - 1, window, value)
        return value

    def help(self, number: int, shared: _Iteration, depth: int):
        """Help the root moves still searched (:meth:`_Iteration.helped`): play the node's root
        move (a node), take its replies by ticket, take the move back; until every engine is
        idle."""
        while True:
            node = shared.helped()
            if node is None:
                shared.idle.add(number)
                if shared.over():
                    return
                yield False  # nothing to help now
                continue
            shared.idle.discard(number)
            node.helpers += 1
            try:
                self.play(*node.move[1:])  # legal: a root move of this very position
                yield True
                try:
                    yield from self.replies(node, depth)
                finally:
                    self.pop()
            finally:
                node.helpers -= 1

    def replies(self, node: _HelpNode, depth: int):
        """The replies of ``node`` (the board is at it, ply 1) by ticket, each searched with the
        node's window as it stands, until they run out or the node is cut off (then the reply
        in hand is given up)."""
        moves = iter(self.candidates(node.first))
        ordinal = 0
        while not node.cut:
            ticket = node.ticket()
            taken = self.take(moves, ordinal, ticket)
            if taken is None:
                node.exhausted = True
                return
            (key, _, _), turn, ordinal = taken
            alpha = node.best
            yield True
            try:
                v = self.leaf(turn, 1, depth)
                if v is None:
                    v = -(yield from self.negamax_steps(2, depth, -node.beta, -alpha, node))
            except _Cut:
                return
            finally:
                self.pop()
            if v > node.best:
                node.best, node.best_key = v, key
            node.first_done = True  # (ordinal 0 is the first reply of all)
            if v >= node.beta:
                self.killers[1] = key
                node.cut = True

    def take(self, moves: Iterator[tuple], ordinal: int, ticket: int):
        """Walk ``moves`` (a node's candidates, the next of legal ordinal ``ordinal``) to the
        legal one of ordinal ``ticket`` and play it: those before it are played and taken back
        (the walk: no nodes), the budget is checked before every candidate, walked or not.
        ``(move, turn, the next ordinal)``, or None when the moves run out first."""
        for move in moves:
            _, cell, symbol = move
            if self.nodes == self.budget:
                raise _Stop
            if ordinal < ticket:
                if self.try_play(cell, symbol) is not None:
                    self.pop()
                    ordinal += 1
                continue
            turn = self.play(cell, symbol)
            if turn is not None:
                return move, turn, ordinal + 1
        return None

    def split(self, number: int, shared: _Iteration, depth: int, roots) -> Iterator[bool]:
        """Ordinal 0, the previous best, played by every engine: the moves of the node below it
        are taken by ticket (ordinal 0 first, alone), and its score is the largest best of all
        engines once every engine's share is done."""
        move = next(roots)  # the previous best: legal (a root move of the last iteration)
        turn = self.play(*move[1:])
        shared.first = move
        yield True
        try:
            value = self.leaf(turn, 0, depth)
            if value is None:
                value = -(yield from self.split_value(number, shared, depth, 1))
        finally:
            self.pop()
        shared.best[number].offer(value, move, True)
        shared.completed.add(0)

    def split_value(self, number: int, shared: _Iteration, depth: int, ply: int):
        """The score of the split node at ``ply``: this engine's share, then (waiting for the
        others') the largest best of all engines there, 0 when it has no legal move."""
        yield from self.split_share(number, shared, depth, ply)
        node = shared.split_node(ply)
        node.done.add(number)
        while len(node.done) < len(shared.best):
            yield False  # the others' shares
        value = node.alpha()
        return value if value > -INFINITY else 0

    def split_share(self, number: int, shared: _Iteration, depth: int, ply: int):
        """This engine's moves of the split node at ``ply`` (window (-INFINITY, INFINITY), the
        killer every engine tries first being engine 0's). Above the deepest split node, every
        engine plays its ordinal 0 itself and the node below is split the same way (the
        recursive PV split); at the deepest, ordinal 0 is a ticket, searched alone."""
        node = shared.split_node(ply)
        moves = iter(self.candidates(self.killers.get(ply)))  # (never the table's move)
        ordinal = 0
        if ply < shared.deepest:
            taken = self.take(moves, 0, 0)
            if taken is None:
                return  # no legal move
            _, turn, ordinal = taken
            yield True
            try:
                value = self.leaf(turn, ply, depth)
                if value is None:
                    value = -(yield from self.split_value(number, shared, depth, ply + 1))
            finally:
                self.pop()
            node.best[number] = max(node.best[number], value)
            node.completed.add(0)
        while True:
            ticket = node.ticket()
            while ticket > 0 and 0 not in node.completed:
                yield False  # the young brothers wait for the first move's score
            taken = self.take(moves, ordinal, ticket)
            if taken is None:
                return  # the split node's moves ran out before the ticket
            _, turn, ordinal = taken
            alpha = node.alpha()
            yield True
            try:
                value = self.leaf(turn, ply, depth)
                if value is None:
                    value = -(yield from self.negamax_steps(ply + 1, depth, -INFINITY, -alpha))
            finally:
                self.pop()
            node.best[number] = max(node.best[number], value)
            node.completed.add(ticket)

    def negamax_steps(
        self, ply: int, depth: int, alpha: int, beta: int, node: _HelpNode | None = None
    ) -> Iterator[bool]:
        """:meth:`~.hwsearch._Searcher.negamax`, yielding after every node; returns its value.
        Under a help ``node``, raises ``_Cut`` after a node once that one is cut off."""
        window = alpha, beta
        probe, settled, candidates = self.enter(ply, depth - ply, alpha, beta)
        if settled is not None:
            return settled
        best, best_key = -INFINITY, None
        for key, cell, symbol in candidates:
            turn = self.play(cell, symbol)
            if turn is None:
                continue
            yield True
            try:
                if node is not None and node.cut:
                    raise _Cut
                v = self.leaf(turn, ply, depth)
                if v is None:
                    v = -(yield from self.negamax_steps(ply + 1, depth, -beta, -alpha, node))
            finally:
                self.pop()
            if v > best:
                best, best_key = v, key
            if v > alpha:
                alpha = v
                if alpha >= beta:
                    self.killers[ply] = key
                    break
        value = best if best > -INFINITY else 0
        self.leave(probe, best_key, ply, depth - ply, window, value)
        return value


def hw_parallel_search(
    position: Position,
    width: int,
    height: int,
    budget: int,
    max_depth: int,
    engines: int,
    *,
    evaluation: bool = True,
    pv_plies: int = 1,
    helpers: bool = False,
    move_table: int = 0,
    shared_table: bool = False,
    table_scores: bool = False,
    states: dict | None = None,
    research: int = 0,
    shapes: ShapeTable | None = None,
    ticks_budget: int | None = None,
) -> ParallelResult:
    """Choose a move for the side to move as ``engines`` engines splitting the root (and the
    previous best's node) of the block-RAM board's search would (docs/parallel.md), ``budget``
    nodes per engine. With ``pv_plies`` above 1, the nodes of the previous best's line are
    split down to that ply, and no deeper than 2 plies above the iteration's horizon: the
    recursive PV split (the gateware's ``ParallelSearch(pv_plies=...)``). With ``helpers``, an
    engine whose root moves ran out helps the root moves still searched (model only so far).
    ``move_table``: every engine has a table of best moves of that many entries, its own
    (:mod:`.movetable`), which the split nodes neither read nor write (their order is engine
    0's killer first for every engine). With ``shared_table`` the engines read and write one
    table, each as soon as it looks up or returns in virtual time (the gateware's
    ``ParallelSearch(shared_table=True)`` reads some clocks later and takes the engines in
    turn: the same search with one engine, the same scores with more). With ``table_scores``
    the table holds the nodes' values too and settles nodes from them (:func:`.hw_search`'s;
    the gateware's ``table_scores``). ``states`` (a measurement), if given, is filled with a
    ``collections.Counter`` per completed or stopped iteration (its depth the key): the engines'
    ticks by what they did (:data:`ENGINE_STATES`), every engine every tick. ``research``
    (model only) and ``shapes``: :func:`.hw_search`'s. ``ticks_budget`` (None: none) is the
    clock budget in virtual time, as the gateware's stops every engine at once: after that many
    ticks every engine's budget becomes the nodes it has played, so each stops at its next
    candidate, as at its own budget (with one engine, a tick is a node: the node budget)."""
    if engines < 1:
        raise ValueError(f"engines must be at least 1, not {engines}")
    if pv_plies < 1:
        raise ValueError(f"pv_plies must be at least 1, not {pv_plies}")
    if table_scores and not move_table:
        raise ValueError("scores in the table need the table (move_table)")
    if ticks_budget is not None and ticks_budget < 0:
        raise ValueError(f"the ticks' budget must be at least 0, not {ticks_budget}")
    if position.box is None:  # the first move of a game: the search is not needed
        move = Move(0, 0, Symbol.CROSS)
        return ParallelResult(move, 0, 0, 0, (0, 0), Symbol.CROSS, [], (0,) * engines, 0)
    check_research(research, shapes=shapes)
    options = (width, height, budget, evaluation, "track", None, move_table, table_scores, research)
    options += (shapes,)
    team = [_Engine(position.copy(), *options) for _ in range(engines)]
    if shared_table:
        for engine in team[1:]:
            engine.table = team[0].table
    result: tuple[tuple, int, int] | None = None  # move (key, cell, symbol), score, depth
    iterations: list[int] = []
    ticks = 0
    for depth in range(1, max_depth + 1):
        first = result[0][0] if result else None
        deepest = max(1, min(pv_plies, depth - 2))
        shared = _Iteration(engines, first is not None, deepest, helpers)
        # Every engine tries engine 0's killers first at the split nodes, so that their ordinals
        # agree: those of every ply that may be split (the gateware's registers).
        if first is not None:
            for engine in team[1:]:
                for ply in range(1, split_plies(pv_plies, max_depth) + 1):
                    engine.killers.pop(ply, None)
                    if ply in team[0].killers:
                        engine.killers[ply] = team[0].killers[ply]
        running = [engine.iteration(n, shared, depth, first) for n, engine in enumerate(team)]
        if states is not None:
            states[depth] = counted = collections.Counter()
            doing = ["done"] * engines
        stopped = False
        while any(running) and not stopped:
            if ticks == ticks_budget:  # the clock budget: every engine stops at its next candidate
                for engine in team:
                    engine.budget = min(engine.budget, engine.nodes)
            played = False
            for n, steps in enumerate(running):
                if steps is None:
                    continue
                try:
                    node = next(steps)
                    played |= node
                    if states is not None:
                        doing[n] = "node" if node else _waiting_in(steps)
                except StopIteration:
                    running[n] = None
                    if states is not None:
                        doing[n] = "done"
                except _Stop:
                    stopped = True
                    break
            if played:
                ticks += 1
                if states is not None:
                    counted.update(doing)
        merged = shared.merge()
        if stopped:
            if merged is not None and (result is None or 0 in shared.completed):
                result = (merged[1], merged[0], result[2] if result else 0)
            elif result is None and shared.first is not None:  # in the first iteration
                result = (shared.first, 0, 0)
            break
        if merged is None:  # no legal move at all
            break
        result = (merged[1], merged[0], depth)
        iterations.append(merged[0])
        if abs(merged[0]) >= MATE_BOUND:
            break
    engine_nodes = tuple(engine.nodes for engine in team)
    nodes = sum(engine_nodes)
    if result is None:
        return ParallelResult(None, 0, 0, nodes, None, None, iterations, engine_nodes, ticks)
    (_, cell, symbol), score, depth = result
    return ParallelResult(
        position.move_at(cell, symbol),
        score,
        depth,
        nodes,
        (cell[0] % width, cell[1] % height),
        symbol,
        iterations,
        engine_nodes,
        ticks,
    )
