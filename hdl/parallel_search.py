"""Many engines on one chip: the split of docs/parallel.md.

:class:`ParallelSearch` has the members of a :class:`~.track_search.TrackSearch` and holds N of
them (``split=True``), each with its own board in its own block RAM. Every game command goes to
all of them in the same clocks, so their boards never differ. A search starts them together;
this block hands out tickets (the ordinals of the root moves, and from the second iteration on
first those of the moves below the previous best, which every engine plays: the PV split), keeps
the shared alphas (the largest best of any engine at the root and at the split node), merges
the split node's score when every engine's share of it is done, stops them all when one's
budget is spent, and at the end of every iteration merges their root bests into the iteration's
result, then sends them on to the next iteration with that move first, or tells them to stop
and answers.
"""

from amaranth import Module, Mux, Signal
from amaranth.hdl import EnableInserter
from amaranth.lib import wiring
from amaranth.lib.wiring import In, Out

from .move_table import SharedMoveTable
from .scores import INFINITY, MATE_BOUND, signed_score
from .threaded_engines import ThreadedEngines
from .track_board import check_torus, member_at, move_eq, move_layout, port_members
from .track_search import TrackSearch, ordinal_shape, search_members, split_plies
from .types import Symbol

__all__ = ["MERGE_LATENCY", "WATCHDOG", "ParallelSearch"]

#: Clocks after the clock budget at which the watchdog aborts the engines and answers.
WATCHDOG = 4096
#: Clocks from the engines' bests to their shared maximum: the merges span the chip, so they
#: are a tree of comparisons with a register halfway.
MERGE_LATENCY = 2

#: An engine's requests to the shared table (its port's outputs, registers in the engine).
TABLE_REQUESTS = (
    "table__probe", "table__probe_slot", "table__store", "table__store_slot",
    "table__store_entry",
)  # fmt: skip
#: Inputs that every engine takes as they come (the game port's commands too, registered).
BROADCAST = ("turn", "budget", "peek_x", "peek_y")
#: Outputs of the game's board, the same in every engine: engine 0's (the game port's answer
#: too, but for ``busy``).
FROM_FIRST = (
    "overflow", "white_loop", "white_line", "black_loop", "black_line", "peek_tile",
)  # fmt: skip


class ParallelSearch(wiring.Component):
    """N search engines on a C x R block-RAM torus, splitting the root's moves and the previous
    best's node's.

    Parameters
    ----------
    columns, rows, max_depth, evaluation :
        As :class:`~.track_search.TrackSearch`.
    engines : int
        How many (at least 1; with 1 the search is the sequential one node for node).
    watchdog : int
        Clocks after the clock budget at which the engines are aborted, whatever they are
        doing, and the result so far is the answer (:data:`WATCHDOG`).
    pv_plies : int
        How deep the previous best's line is split (1: the node below it; more: the recursive
        PV split of docs/parallel.md, at most 2 plies above the horizon).
    move_table : int
        The entries of a table of best moves (0: none), every engine's own.
    shared_table : bool
        With ``move_table``: one table for all engines (:class:`~.move_table.SharedMoveTable`,
        emptied after every search), so that every engine's moves are ordered by what any
        engine found. With one engine the search is its own table's, node for node.
    table_scores : bool
        With ``move_table``: the tables hold the nodes' values too, and settle nodes
        (:class:`~.track_search.TrackSearch`'s ``table_scores``).
    attack_cut : bool
        A move that leaves the side to move an attack is lost, without a search below it
        (:class:`~.track_search.TrackSearch`'s ``attack_cut``).
    newest_first : bool
        Candidates from the newest cell of the frontier list to the oldest
        (:class:`~.track_search.TrackSearch`'s ``newest_first``).
    board_options : dict
        Every engine's :class:`~.track_board.TrackBoard` options (area for clocks; none by
        default).
    threads : int
        1: every engine its own logic. 2: two engines on each engine's logic, C-slowed by two
        (:class:`~.threaded_engines.ThreadedEngines`; ``engines`` even): the design is the
        one with ``engines`` engines of their own, run at half the clock (its ``sync`` domain
        runs in the clocks where ``phase`` is 1, and so must the logic around it: inputs held
        two clocks, outputs for two clocks; a reset held two clocks or more).
    retime : bool
        With ``threads=2``: each engine's logic synthesized for the ECP5 and cut in two stages
        (:class:`~.threaded_engines.ThreadedEngines`' ``retime``; ``cut_at`` ns): the same
        search at up to twice the clock.

    Members
    -------
    As :class:`~.track_search.TrackSearch`, except: ``budget`` is per engine (each stops the
    iteration when its own nodes reach it, and then all do); ``nodes`` is the sum over the
    engines; among equal scores the move chosen depends on the engines' timing (the score of a
    completed iteration does not).
    depth_limit : In(8)
        The deepest iteration of the next search, if not 0 and below ``max_depth`` (the
        engines' registers are sized for ``max_depth``).
    phase : Out(1)
        With ``threads=2``: 1 in the odd clocks, the clocks that the ``sync`` domain runs in.
    """

    def __init__(
        self,
        columns: int,
        rows: int,
        max_depth: int = 3,
        *,
        engines: int = 2,
        evaluation: bool = True,
        watchdog: int = WATCHDOG,
        pv_plies: int = 1,
        move_table: int = 0,
        shared_table: bool = False,
        table_scores: bool = False,
        attack_cut: bool = False,
        newest_first: bool = False,
        board_options: dict | None = None,
        threads: int = 1,
        retime: bool = False,
        cut_at: float | None = None,
    ):
        self.columns, self.rows = check_torus(columns, rows)
        if retime and threads != 2:
            raise ValueError("retiming takes two threads a logic (threads=2)")
        self.retime, self.cut_at = bool(retime), cut_at
        if threads not in (1, 2):
            raise ValueError(f"threads must be 1 or 2, not {threads!r}")
        if threads == 2 and (not isinstance(engines, int) or engines % 2):
            raise ValueError(f"two threads a logic need an even number of engines, not {engines!r}")
        self.threads = threads
        if not isinstance(engines, int) or isinstance(engines, bool) or engines < 1:
            raise ValueError(f"engines must be a positive integer, not {engines!r}")
        if not isinstance(max_depth, int) or isinstance(max_depth, bool) or max_depth < 1:
            raise ValueError(f"max_depth must be a positive integer, not {max_depth!r}")
        self.max_depth = max_depth
        self.engines = engines
        self.watchdog = watchdog
        self.evaluation = evaluation
        if not isinstance(pv_plies, int) or isinstance(pv_plies, bool) or pv_plies < 1:
            raise ValueError(f"pv_plies must be a positive integer, not {pv_plies!r}")
        self.pv_plies = split_plies(pv_plies, max_depth)
        if shared_table and not move_table:
            raise ValueError("a shared table needs its entries (move_table)")
        if table_scores and not move_table:
            raise ValueError("scores in the table need its entries (move_table)")
        self.move_table = move_table
        self.shared_table = bool(shared_table)
        self.table_scores = bool(table_scores)
        self.attack_cut = bool(attack_cut)
        self.newest_first = bool(newest_first)
        self.board_options = dict(board_options or {})
        members = {**search_members(columns, rows), "depth_limit": In(8)}
        if threads == 2:
            members["phase"] = Out(1)
        super().__init__(members)

    def _engine(self) -> TrackSearch:
        return TrackSearch(
            self.columns,
            self.rows,
            self.max_depth,
            evaluation=self.evaluation,
            split=True,
            pv_plies=self.pv_plies,
            move_table=self.move_table,
            shared_table=self.shared_table,
            table_scores=self.table_scores,
            attack_cut=self.attack_cut,
            newest_first=self.newest_first,
            board_options=self.board_options,
        )

    def elaborate(self, platform):
        m = Module()
        c, r, n = self.columns, self.rows, self.engines
        if self.threads == 2:
            # The grants read every engine's ``pv_done`` and ``split_first_done`` in the clock
            # (registers in the engine): a thread-0 engine's, its thread-1 peers' too.
            threaded = ThreadedEngines(
                self._engine(),
                n // 2,
                early=("pv_done", "split_first_done"),
                # The shared table's requests, from registers near it (the table's arbitration
                # from the engines' own registers across the chip was the 85F's critical path).
                captured=TABLE_REQUESTS if self.shared_table else (),
                retime=self.retime,
                cut_at=self.cut_at,
            )
            units = list(threaded.units)
        else:
            units = []
            for i in range(n):
                m.submodules[f"engine_{i}"] = unit = self._engine()
                units.append(unit)
        clear_table = Signal()  # the search ends: the shared table is emptied
        if self.shared_table:
            m.submodules.move_table = table = SharedMoveTable(
                c, r, self.move_table, self.max_depth, n, scores=self.table_scores
            )
            for unit, port in zip(units, table.ports, strict=True):
                wiring.connect(m, unit.table, port)
            m.d.comb += table.clear.eq(clear_table)
        # The game's commands reach the engines a clock later, from registers: they fan out to
        # every engine's board, across the chip, and a board acts on its command at once.
        for path, value in port_members(self.game, In):
            held = Signal.like(value, name=f"game_{'_'.join(path)}_held")
            m.d.sync += held.eq(value)
            m.d.comb += [member_at(unit.game, path).eq(held) for unit in units]
        for name in BROADCAST:
            m.d.comb += [getattr(unit, name).eq(getattr(self, name)) for unit in units]
        first = units[0]
        for name in FROM_FIRST:
            m.d.comb += getattr(self, name).eq(getattr(first, name))
        for path, value in port_members(self.game, Out):
            if path != ("busy",):  # (busy while any engine's board is)
                m.d.comb += value.eq(member_at(first.game, path))
        m.d.comb += self.game.busy.eq(any_of(u.game.busy for u in units))
        engines_busy = any_of(u.busy for u in units)
        # The nodes of all engines and the clocks, counted here once (an engine counts its own
        # nodes too, for its budget).
        counted = Signal(range(n + 1))
        m.d.comb += counted.eq(sum(u.counted for u in units))
        m.d.sync += self.nodes.eq(self.nodes + counted)
        cycle_budget = Signal.like(self.cycle_budget)
        # Whether the clock budget is spent, from a register (it fans out to every engine):
        # ``cycles >= cycle_budget`` of the clock it is read in, made the clock before.
        clock_spent = Signal()
        m.d.sync += clock_spent.eq(self.cycles + 1 >= cycle_budget)
        m.d.comb += [u.clock_spent.eq(clock_spent) for u in units]

        # Tickets: one per clock, to the lowest-numbered engine asking, of the root's moves or
        # of the split node's (the node below the previous best, from the second iteration on:
        # every engine plays the previous best itself, so the root's tickets then start at 1).
        # The move of ticket 0 is searched first, alone: the others wait for its score, the
        # alpha they need (young brothers wait).
        next_ticket = Signal(ordinal_shape(c, r))
        split_ticket = Signal(ordinal_shape(c, r))
        iteration = Signal(range(self.max_depth + 2))
        have_result = Signal()
        pv_done = any_of(u.pv_done for u in units)
        stop = Signal()
        split_merge = Signal()  # every engine's share of the split node in hand is done
        may_grant = (next_ticket == 0) | ~have_result | pv_done | stop
        may_grant_split = (split_ticket == 0) | any_of(u.split_first_done for u in units) | stop
        asks = [Signal(name=f"asks_{i}") for i in range(n)]
        for unit, ask in zip(units, asks, strict=True):
            m.d.comb += ask.eq((unit.want & may_grant) | (unit.want_split & may_grant_split))
        for i, unit in enumerate(units):
            m.d.comb += [
                unit.grant.eq(asks[i] & ~any_of(asks[:i])),
                unit.ticket.eq(Mux(unit.want_split, split_ticket, next_ticket)),
            ]
        with m.If(any_of(u.grant & u.want for u in units)):
            m.d.sync += next_ticket.eq(next_ticket + 1)
        with m.If(any_of(u.grant & u.want_split for u in units)):
            m.d.sync += split_ticket.eq(split_ticket + 1)
        with m.If(split_merge):  # (no engine asks in its clock: all wait for it)
            m.d.sync += split_ticket.eq(0)

        merge = Signal()
        # The shared alpha: the largest root best, MERGE_LATENCY clocks late (it only ever rises
        # within an iteration, and an engine's root best is -INFINITY outside one; the merge
        # empties the pipeline, so no stale best reaches the next iteration).
        shared = largest_pipelined(m, [u.root_best for u in units], clear=merge, name="shared")
        # The same at the split node, and its merge: when every engine has done its share, its
        # score is the largest best of all (MERGE_LATENCY clocks after the last one waits, when
        # the shared best is up to date). Every engine tries engine 0's killers first there.
        # A split merge takes every engine up to the split node above (or the root), whose
        # tickets start again: the counter and the shared best (the node below's) are emptied.
        shared_split = largest_pipelined(
            m, [u.split_best for u in units], clear=merge | split_merge, name="shared_split"
        )
        split_pending = Signal()  # every engine waits, the shared best a clock from ready
        # Clocks since the last split merge, up to MERGE_LATENCY: the shared best is the new
        # split node's once they are all gone (the engines take clocks to get there anyway).
        since_merge = Signal(range(MERGE_LATENCY + 1), init=MERGE_LATENCY)
        with m.If(split_merge):
            m.d.sync += since_merge.eq(0)
        with m.Elif(since_merge != MERGE_LATENCY):
            m.d.sync += since_merge.eq(since_merge + 1)
        settled = since_merge == MERGE_LATENCY
        all_split = all_of(u.split_waiting for u in units)
        m.d.sync += [
            split_pending.eq(all_split & settled & ~split_pending & ~split_merge & ~stop),
            split_merge.eq(split_pending & ~stop),
        ]
        for unit in units:
            m.d.comb += [
                unit.split_alpha.eq(shared_split),
                unit.split_merge.eq(split_merge),
                unit.split_value.eq(shared_split),
                unit.split_killer.eq(first.killer_out),
                unit.split_killer_valid.eq(first.killer_out_valid),
            ]
        with m.If(any_of(u.own_spent for u in units)):
            m.d.sync += stop.eq(1)
        merge_go = Signal()
        result = Signal(move_layout(c, r))
        m.d.comb += [unit.shared_alpha.eq(shared) for unit in units]
        m.d.comb += [unit.stop.eq(stop) for unit in units]
        m.d.comb += [unit.merge.eq(merge) for unit in units]
        m.d.comb += [unit.merge_go.eq(merge_go) for unit in units]
        m.d.comb += [unit.merge_move.eq(result) for unit in units]

        # The merge: the move of the lowest-numbered engine whose root best is the largest and
        # exact; the first legal root move played, the last resort. Registered (a clock after
        # the shared best is up to date, in COLLECT), as is the first move.
        pick = Signal(move_layout(c, r))
        for unit in reversed(units):  # a move played, whatever happens (later statements win)
            with m.If(unit.root_best == shared):
                m.d.sync += pick.eq(unit.root_move)
        for unit in reversed(units):
            with m.If((unit.root_best == shared) & unit.root_exact):
                m.d.sync += pick.eq(unit.root_move)
        first_move = Signal(move_layout(c, r))
        for unit in reversed(units):
            with m.If(unit.first_valid):
                m.d.sync += first_move.eq(unit.first_move)
        first_valid = any_of(u.first_valid for u in units)
        all_done = all_of(u.iter_done for u in units)
        # An iteration that every engine completed is complete, even if a budget ran out at
        # its very end (the next one then stops at once, as in the sequential search).
        stopped = any_of(u.iter_stopped for u in units)
        found_any = shared != -INFINITY

        result_score = Signal(signed_score())
        gather = Signal(range(MERGE_LATENCY))
        depth = Signal(8)
        last = Signal(8)  # the deepest iteration of this search

        # The watchdog: whatever the engines do, the answer comes ``watchdog`` clocks after the
        # clock budget at the latest (they stop at the budget and take their plies back in far
        # fewer): they are aborted, and the result so far is the answer.
        deadline = Signal(33)
        watchdog = Signal()
        m.d.sync += watchdog.eq(self.cycles >= deadline)  # registered: it fans out too
        # The engines' abort, registered: it fans out to every engine, and the protocol's abort
        # comes from logic of its own (the path from the protocol engine's state through it was
        # the critical one of the 8-engine ULX3S player). The engines take it a clock later,
        # still busy, while this block waits for them in ABORT or RESCUE.
        abort = Signal()
        m.d.sync += abort.eq(self.abort | (self.busy & watchdog))
        m.d.comb += [unit.abort.eq(abort) for unit in units]

        # A ponder search whose guess was right: the clock budget (and the watchdog's deadline)
        # from now (docs/ponder.md).
        with m.If(self.rearm & self.busy):
            m.d.sync += [
                cycle_budget.eq(self.cycles + self.cycle_budget),
                deadline.eq(self.cycles + self.cycle_budget + self.watchdog),
            ]
        m.d.sync += [merge.eq(0), self.done.eq(0)]
        m.d.comb += [u.start.eq(self.start & ~first.game.box.empty & ~self.busy) for u in units]
        with m.If(self.busy):
            m.d.sync += self.cycles.eq(self.cycles + 1)

        def finish():
            m.d.sync += [merge.eq(1), merge_go.eq(0)]
            m.next = "FINISH"

        with m.FSM(name="parallel_fsm"):
            with m.State("IDLE"):
                with m.If(self.start & first.game.box.empty):  # the first move of a game
                    m.d.sync += [
                        self.found.eq(1),
                        self.move.x.eq(0),
                        self.move.y.eq(0),
                        self.move.symbol.eq(Symbol.CROSS),
                        self.score.eq(0),
                        self.depth.eq(0),
                        self.cycles.eq(0),
                        self.nodes.eq(0),
                        self.done.eq(1),
                    ]
                with m.Elif(self.start):
                    m.d.sync += [
                        self.busy.eq(1),
                        self.cycles.eq(0),
                        self.nodes.eq(0),
                        cycle_budget.eq(self.cycle_budget),
                        clock_spent.eq(self.cycle_budget == 0),
                        next_ticket.eq(0),
                        split_ticket.eq(0),
                        stop.eq(0),
                        iteration.eq(1),
                        have_result.eq(0),
                        result_score.eq(0),
                        depth.eq(0),
                        last.eq(self.max_depth),
                        deadline.eq(self.cycle_budget + self.watchdog),
                        watchdog.eq(0),  # (a clock late when the deadline is 0)
                    ]
                    with m.If((self.depth_limit != 0) & (self.depth_limit < self.max_depth)):
                        m.d.sync += last.eq(self.depth_limit)
                    m.next = "RUN"
            with m.State("RUN"):
                with m.If(watchdog):
                    m.next = "RESCUE"
                with m.Elif(self.abort):
                    m.next = "ABORT"
                with m.Elif(all_done):
                    m.d.sync += gather.eq(MERGE_LATENCY - 1)
                    m.next = "GATHER"
            with m.State("GATHER"):  # every engine waits: the merges catch up
                m.d.sync += gather.eq(gather - 1)
                with m.If(gather == 0):
                    m.next = "COLLECT"
            with m.State("COLLECT"):  # the shared alpha and the pick are up to date now
                with m.If(watchdog):
                    m.next = "RESCUE"
                with m.Elif(self.abort):
                    m.next = "ABORT"
                with m.Elif(stopped):
                    with m.If(found_any & (~have_result | pv_done)):
                        m.d.sync += [have_result.eq(1), result.eq(pick), result_score.eq(shared)]
                    with m.Elif(~have_result & first_valid):
                        m.d.sync += [have_result.eq(1), result.eq(first_move), result_score.eq(0)]
                    finish()
                with m.Elif(~found_any):  # no legal move at all
                    finish()
                with m.Else():
                    m.d.sync += [
                        have_result.eq(1),
                        result.eq(pick),
                        result_score.eq(shared),
                        depth.eq(iteration),
                        iteration.eq(iteration + 1),
                    ]
                    proved = (shared >= MATE_BOUND) | (shared <= -MATE_BOUND)
                    with m.If(proved | (iteration == last)):
                        finish()
                    with m.Else():
                        m.d.sync += [merge.eq(1), merge_go.eq(1)]
                        m.next = "SETTLE"
            with m.State("SETTLE"):  # the engines take the merge in this clock
                m.d.sync += [next_ticket.eq(1), split_ticket.eq(0)]
                m.next = "RUN"
            with m.State("FINISH"):
                with m.If(~merge & ~engines_busy):
                    m.d.comb += clear_table.eq(1)
                    m.d.sync += [
                        self.busy.eq(0),
                        self.done.eq(1),
                        self.found.eq(have_result),
                        *move_eq(self.move, result),
                        self.score.eq(result_score),
                        self.depth.eq(depth),
                    ]
                    m.next = "IDLE"
            with m.State("RESCUE"):  # the watchdog: the engines unwind, the answer is ready
                with m.If(~engines_busy):
                    with m.If(~have_result & first_valid):
                        m.d.sync += [have_result.eq(1), result.eq(first_move), result_score.eq(0)]
                    m.next = "FINISH"
            with m.State("ABORT"):  # the engines unwind their boards
                with m.If(~engines_busy):
                    m.d.comb += clear_table.eq(1)
                    m.d.sync += self.busy.eq(0)
                    m.next = "IDLE"
        if self.threads == 1:
            return m
        # Two threads a logic: this block's logic runs at half the clock, with its engines'.
        top = Module()
        top.submodules.engines = threaded
        top.submodules.coordinator = EnableInserter({"sync": threaded.phase})(m)
        top.d.comb += self.phase.eq(threaded.phase)
        return top


def largest_pipelined(m, values, *, clear, name):
    """The largest of some signed values, :data:`MERGE_LATENCY` clocks late: the larger of each
    pair is registered, then the largest of those. ``clear`` empties both stages (to
    -INFINITY) for the clock after it."""
    pairs = [values[i : i + 2] for i in range(0, len(values), 2)]
    stage = []
    for i, pair in enumerate(pairs):
        held = Signal(signed_score(), init=-INFINITY, name=f"{name}_pair{i}")
        m.d.sync += held.eq(largest_of(pair))
        stage.append(held)
    largest = Signal(signed_score(), init=-INFINITY, name=name)
    m.d.sync += largest.eq(largest_of(stage))
    with m.If(clear):
        m.d.sync += [held.eq(-INFINITY) for held in stage]
        m.d.sync += largest.eq(-INFINITY)
    return largest


def largest_of(values):
    """The largest of some signed values (a tree of comparisons)."""
    values = list(values)
    while len(values) > 1:
        pairs = [values[i : i + 2] for i in range(0, len(values), 2)]
        values = [p[0] if len(p) == 1 else Mux(p[1] > p[0], p[1], p[0]) for p in pairs]
    return values[0]


def any_of(signals):
    """The OR of some 1-bit signals (0 for none)."""
    out = 0
    for s in signals:
        out = out | s
    return out


def all_of(signals):
    """The AND of some 1-bit signals."""
    out = 1
    for s in signals:
        out = out & s
    return out
