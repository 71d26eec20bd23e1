"""The board's own move on the block-RAM board: iterative deepening alpha-beta over plies.

The gateware of the specification in :mod:`trax_fpga.host.hwsearch` with ``board="track"``
(read it first). One :class:`~.track_board.TrackBoard` holds the game and, above it, the plies
of the search: the game's moves are played on it through the game port while the search is
idle, and the search's root is that very position (no copy, no load). Each ply keeps a cursor
into the board's candidate order, alpha, beta, its best score, its move and its killer; the
board finds the next candidate (``CANDIDATE``), plays it with its forced plays and wins
(``PLY``) and takes it back (``UNDO``).

At the horizon the position is scored from the board's own counts of attacks and sums of loop
potential, or with ``shapes`` of the tracks' shapes' weights (:mod:`trax_fpga.host.trackeval`,
kept up to date as tiles come and go, so scoring costs no clock), and a side to move that must
answer an attack gets one more ply. The search stops at whichever budget is spent first:
``budget`` nodes or ``cycle_budget`` clocks.
"""

from amaranth import Cat, Const, Module, Mux, Signal, Value
from amaranth.lib import data, wiring
from amaranth.lib.memory import Memory
from amaranth.lib.wiring import In, Out

from .move_table import (
    KEY_BITS,
    TABLE_TAG_BITS,
    ValueKind,
    table_entry_layout,
    table_port_signature,
    table_tag_bits,
)
from .move_table import slot_bits as table_slot_bits
from .ply_registers import PlyReadAddresses, PlyRegisters
from .scores import (
    ATTACK_WEIGHT,
    CLAMP,
    INFINITY,
    LOST,
    MATE_BOUND,
    MAX_EXTENSIONS,
    OWN_ATTACK,
    TEMPO,
    WIN,
    moved,
    signed_score,
)
from .track_board import (
    TrackBoard,
    TrackOp,
    check_shapes,
    check_torus,
    cursor_layout,
    game_port_answers,
    game_port_commands,
    game_port_signature,
    move_eq,
    move_layout,
    move_signature,
)
from .types import Colour, Symbol, Verdict

__all__ = ["TABLE_TAG_BITS", "TrackSearch", "ordinal_shape", "search_members", "split_plies"]


def ordinal_shape(columns: int, rows: int) -> range:
    """The shape of a root move's ordinal (among the legal ones: at most three per cell)."""
    return range(3 * columns * rows + 1)


def split_plies(pv_plies: int, max_depth: int) -> int:
    """The deepest ply of the previous best's line that an engine splits: ``pv_plies``, but no
    deeper than 2 plies above the horizon of the deepest iteration (and at least 1)."""
    return min(pv_plies, max(1, max_depth - 2))


def search_members(columns: int, rows: int, *, split: bool = False, pv_plies: int = 1) -> dict:
    """The members of a search's signature (see :class:`TrackSearch`): a game port, the board's
    box and outcome, the search's controls and answer; with ``split``, an engine's members
    (``pv_plies``: the split plies of the previous best's line, one killer each)."""
    c, r = columns, rows
    members = {
        "game": Out(game_port_signature(c, r)),
        "overflow": Out(1),
        "white_loop": Out(1),
        "white_line": Out(1),
        "black_loop": Out(1),
        "black_line": Out(1),
        "start": In(1),
        "abort": In(1),
        "turn": In(Colour),
        "budget": In(32),
        "cycle_budget": In(32),
        "rearm": In(1),
        "busy": Out(1),
        "done": Out(1),
        "found": Out(1),
        "move": Out(move_signature(c, r)),
        "score": Out(signed_score()),
        "depth": Out(8),
        "nodes": Out(32),
        "cycles": Out(32),
        "peek_x": In(range(c)),
        "peek_y": In(range(r)),
        "peek_tile": Out(4),
    }
    if split:
        members |= {
            "want": Out(1),
            "grant": In(1),
            "ticket": In(ordinal_shape(c, r)),
            "shared_alpha": In(signed_score()),
            "root_best": Out(signed_score()),
            "root_exact": Out(1),
            "root_move": Out(move_layout(c, r)),
            "first_valid": Out(1),
            "first_move": Out(move_layout(c, r)),
            "own_spent": Out(1),
            "clock_spent": In(1),
            "counted": Out(1),
            "stop": In(1),
            "iter_done": Out(1),
            "iter_stopped": Out(1),
            "pv_done": Out(1),
            "merge": In(1),
            "merge_go": In(1),
            "merge_move": In(move_layout(c, r)),
            "want_split": Out(1),
            "split_alpha": In(signed_score()),
            "split_best": Out(signed_score()),
            "split_first_done": Out(1),
            "split_waiting": Out(1),
            "split_merge": In(1),
            "split_value": In(signed_score()),
            "killer_out": Out(data.ArrayLayout(move_layout(c, r), pv_plies)),
            "killer_out_valid": Out(pv_plies),
            "split_killer": In(data.ArrayLayout(move_layout(c, r), pv_plies)),
            "split_killer_valid": In(pv_plies),
        }
    return members


class TrackSearch(wiring.Component):
    """A game on a C x R block-RAM torus, and the search of its side to move's best move.

    Parameters
    ----------
    columns, rows : int
        The torus (powers of two, at least 8).
    max_depth : int
        The deepest iteration (plies); a threatened side to move at the horizon gets
        ``MAX_EXTENSIONS`` more.
    evaluation : bool
        Score the horizon from the tracks (the default), or 0 (a mate searcher).
    split : bool
        One engine of a :class:`~.parallel_search.ParallelSearch` (docs/parallel.md): the root's
        moves are taken by ticket, the root's alpha follows ``shared_alpha``, and an iteration
        ends in a merge of all engines' root bests instead of here. Adds the ``split`` members.
    pv_plies : int
        With ``split``: how deep the previous best's line is split (the recursive PV split of
        docs/parallel.md; 1, the default, splits the node below the previous best only), at
        most 2 plies above an iteration's horizon (:func:`split_plies`).
    board_options : dict
        More keyword arguments of the :class:`~.track_board.TrackBoard` (its area options).
    move_table : int
        The entries of a table of best moves (a power of two; 0, the default: none), in block
        RAM: every node below the root looks its position up by the board's key and tries the
        move found there first in place of its ply's killer, and stores its best move there on
        its return (host/movetable.py; a clock more per node that searches its replies).
        The table is emptied after every search, a slot a clock, while the search is idle; a
        search started before that is done waits for it (its clocks count). With ``split``,
        the split nodes neither read nor write it (every engine's order there is engine 0's
        killer first).
    shared_table : bool
        With ``move_table``: the table is outside, shared with other engines, reached through
        the ``table`` port (:class:`~.move_table.SharedMoveTable`, which empties it); a node
        waits for its entry (3 clocks when no other engine asks, against one with a table of
        its own: the port's requests and answers are registered in the engine).
    table_scores : bool
        With ``move_table``: the table holds the nodes' values too (host/movetable.py's
        ``MoveTable(scores=True)``: the value, its kind, the side to move, and a tag of every
        key bit above the slot), and a node entered whose entry settles its window returns that
        value at once, taken back and backed up as a leaf is (``LEAF``).
    attack_cut : bool
        With ``evaluation``: a move after which the side to move holds an attack (it can close
        a loop or a line next move) is lost for its mover, scored as a loss in one, ``WIN``
        less the plies to it, without a search below it: inside the horizon and at it
        (``host/hwsearch.py``'s ``RESEARCH_CUT``; an attack always has its winning move).
    newest_first : bool
        Every node's candidates from the newest cell of the frontier list to the oldest
        (:class:`~.track_board.TrackBoard`'s ``newest_first``; ``RESEARCH_NEWEST``).
    shapes : tuple or None
        With ``evaluation``: the horizon is scored by the tracks' shapes, weighed by the table
        ``(mine, theirs, constant)`` (:class:`~.track_board.TrackBoard`'s ``shapes``;
        ``host/hwsearch.py``'s ``shapes``, a ``ShapeTable``'s fields), instead of their loop
        potential: the same clocks. None (the default): the loop potential. (It is the
        board's option, so ``board_options`` may carry it too.)
    trace : bool
        For simulation: the ``trace`` members, the board's steps, so that a testbench can list
        the nodes the search plays (``sim/search_trace.py``); turns the board's
        ``position_key`` on. Changes nothing else.

    Members
    -------
    game : Out(game_port_signature(C, R))
        A command for the board while the search is idle (``NEW_GAME`` or ``PLAY``; see
        :class:`~.track_board.TrackBoard`): the game's moves; the board's handshake, verdict and
        box (the game's, while the search is idle).
    overflow : Out(1)
        The board's (a move was refused: the game outgrew the torus).
    white_loop, white_line, black_loop, black_line : Out(1)
        What the last game move completed.
    start : In(1)
        Pulse while idle: choose a move for ``turn``.
    turn : In(Colour)
    budget, cycle_budget : In(32)
        The most nodes and clocks to search.
    rearm : In(1)
        Pulse while busy: the clock budget is ``cycle_budget`` clocks from now (a ponder search
        whose guess was right goes on as the board's search: docs/ponder.md).
    busy, done, found, move, score, depth, nodes, cycles : Out(...)
        ``busy`` while searching; ``done`` pulses when it ends, with ``found`` (a legal move
        was found), the chosen ``move`` (a :func:`~.track_board.move_signature`), its
        ``score``, the deepest iteration completed (``depth``), the nodes searched and the
        clocks taken.
    abort : In(1)
        Pulse while busy: give up the search. The board finishes the command in hand and the
        search takes back its plies; ``busy`` falls when the board is at the game's position
        again (no ``done``). The game's position is never lost (a reset would lose it).
    peek_x, peek_y, peek_tile :
        Read a cell of the board while everything is idle.
    table : Out(table_port_signature(C, R, move_table, max_depth, scores=table_scores))
        With ``shared_table``: the port to the table of best moves.
    trace_ply_up, trace_busy, trace_ply, trace_key : Out(...)
        With ``trace``: the board's ``ply_up`` (a ply is stacked at the end of this clock),
        ``busy``, ``ply`` and ``position_key``.

    With ``split``:

    want : Out(1)
        Asks for a ticket (the ordinal of the next root move to search) until ``grant``.
    grant : In(1), ticket : In(...)
        The ticket is ``ticket``.
    shared_alpha : In(signed_score())
        The largest root best of all engines in this iteration.
    root_best, root_exact, root_move : Out(...)
        This engine's root best in this iteration (-INFINITY outside one), whether it is exact,
        and its move.
    first_valid, first_move : Out(...)
        The first legal root move this engine played in the search.
    own_spent : Out(1)
        This engine's node or clock budget is spent.
    clock_spent : In(1)
        The clock budget is spent: the clocks are counted once for all engines (``cycles`` is
        then 0).
    counted : Out(1)
        A node is counted in this clock (``nodes`` rises by one at its end).
    stop : In(1)
        Another engine's is: stop the iteration.
    iter_done, iter_stopped, pv_done : Out(...)
        At the root and waiting for the merge; having stopped (a budget); having completed the
        root move of ordinal 0 in this iteration.
    merge, merge_go, merge_move : In(...)
        Pulse while every engine waits: go on to the next iteration with ``merge_move`` first
        (``merge_go``), or stop searching (the merger reports the result).

    From the second iteration on, the previous best is split (the PV split of docs/parallel.md):
    every engine plays it, and the moves of the node below it are taken by ticket as the root's
    are. With ``pv_plies`` above 1, the line goes on: at a split node above the deepest (ply
    ``min(pv_plies, iteration - 2)``, at least 1), every engine plays its first move itself and
    splits the node below it the same way; when that node's score is merged, the node's other
    moves go by ticket (ticket t is its move of ordinal t + 1). The split node in hand is at
    ``split_ply``; the members below are about it.

    want_split : Out(1)
        Asks for a ticket of the split node (``grant`` and ``ticket`` answer it).
    split_alpha : In(signed_score())
        The largest best of all engines at the split node.
    split_best, split_first_done : Out(...)
        This engine's best at the split node (-INFINITY outside the split); having completed
        the split node's move of ordinal 0.
    split_waiting : Out(1)
        The split node's moves ran out here: waiting for the others.
    split_merge, split_value : In(...)
        Pulse while every engine waits: the split node's score is ``split_value`` (the largest
        best, -INFINITY when it has no legal move); its parent is the split node in hand next.
    killer_out, killer_out_valid : Out(...)
        This engine's killers of plies 1 to ``pv_plies`` (index 0 is ply 1).
    split_killer, split_killer_valid : In(...)
        The killers every engine tries first at the split nodes (engine 0's), so that their
        ordinals agree: taken at the start of every iteration.
    """

    def __init__(
        self,
        columns: int,
        rows: int,
        max_depth: int = 3,
        *,
        evaluation: bool = True,
        split: bool = False,
        pv_plies: int = 1,
        board_options: dict | None = None,
        move_table: int = 0,
        shared_table: bool = False,
        table_scores: bool = False,
        attack_cut: bool = False,
        newest_first: bool = False,
        shapes=None,
        trace: bool = False,
    ):
        self.columns, self.rows = check_torus(columns, rows)
        if not isinstance(max_depth, int) or isinstance(max_depth, bool) or max_depth < 1:
            raise ValueError(f"max_depth must be a positive integer, not {max_depth!r}")
        if not isinstance(pv_plies, int) or isinstance(pv_plies, bool) or pv_plies < 1:
            raise ValueError(f"pv_plies must be a positive integer, not {pv_plies!r}")
        self.max_depth = max_depth
        self.evaluation = evaluation
        self.split = split
        self.pv_plies = split_plies(pv_plies, max_depth)
        self.board_options = dict(board_options or {})
        integer = isinstance(move_table, int) and not isinstance(move_table, bool)
        power_of_two = integer and move_table >= 2 and move_table & (move_table - 1) == 0
        if not (power_of_two or (integer and move_table == 0)):
            raise ValueError(f"move_table must be 0 or a power of two from 2, not {move_table!r}")
        if table_slot_bits(move_table) + TABLE_TAG_BITS > KEY_BITS:
            raise ValueError(f"a table of {move_table} entries leaves no room for its tags")
        if shared_table and not move_table:
            raise ValueError("a shared table needs its entries (move_table)")
        if table_scores and not move_table:
            raise ValueError("scores in the table need its entries (move_table)")
        if attack_cut and not evaluation:
            raise ValueError("the attack cut needs the evaluation's counts of attacks")
        self.attack_cut = bool(attack_cut)
        self.newest_first = bool(newest_first)
        if shapes is not None:
            if not evaluation:
                raise ValueError("the tracks' shapes weigh the evaluation: shapes need it")
            self.board_options["shapes"] = check_shapes(shapes)
        # (A table in ``board_options`` reaches the board too: as a many-engine search passes
        # its engines theirs.)
        self.shapes = self.board_options.get("shapes")
        if newest_first:
            self.board_options["newest_first"] = True
        self.move_table = move_table
        self.shared_table = bool(shared_table)
        self.table_scores = bool(table_scores)
        self.trace = bool(trace)
        if move_table or trace:
            self.board_options["position_key"] = True
        members = search_members(columns, rows, split=split, pv_plies=self.pv_plies)
        if trace:
            members |= {
                "trace_ply_up": Out(1),
                "trace_busy": Out(1),
                "trace_ply": Out(range(max_depth + (MAX_EXTENSIONS if evaluation else 0) + 1)),
                "trace_key": Out(KEY_BITS),
            }
        if self.shared_table:
            port = table_port_signature(columns, rows, move_table, max_depth, scores=table_scores)
            members["table"] = Out(port)
        super().__init__(members)

    def elaborate(self, platform):
        m = Module()
        c, r, max_depth = self.columns, self.rows, self.max_depth
        extensions = MAX_EXTENSIONS if self.evaluation else 0
        depth = max_depth + extensions  # plies of the deepest path
        weights = {
            "tempo": TEMPO,
            "attack": ATTACK_WEIGHT,
            "own_attack": OWN_ATTACK,
            "lost": LOST,
            "clamp": CLAMP,
        }
        m.submodules.board = board = TrackBoard(
            c, r, plies=depth, weights=weights if self.evaluation else None, **self.board_options
        )
        moves_shape = move_layout(c, r)
        cursor = cursor_layout(c, r)
        split = self.split

        for name in (
            "overflow", "white_loop", "white_line", "black_loop", "black_line", "peek_tile",
        ):  # fmt: skip
            m.d.comb += getattr(self, name).eq(getattr(board, name))
        game_port_answers(m, self.game, board)
        m.d.comb += [board.peek_x.eq(self.peek_x), board.peek_y.eq(self.peek_y)]

        # One register set per ply of the tree (node p is at board ply p), written at the
        # node's ply and its parent's.
        ply = board.ply
        parent = Signal.like(ply)
        m.d.comb += parent.eq(ply - 1)

        reads = PlyReadAddresses(
            m, ply, up=board.ply_up, down=board.ply_down, to_zero=board.ply_to_zero
        )

        def per_ply(name, shape, *, fixed=2):
            """Plies 0 and 1 (the root and the split node) in registers, the rest in memory."""
            return PlyRegisters(m, name, shape, depth, ply, parent, fixed=fixed, reads=reads)

        # The split nodes' window, best and killer are registers: the other engines reach them.
        pv_plies = self.pv_plies
        split_fixed = max(2, pv_plies + 1)
        cursors = per_ply("cursor", cursor)
        moves = per_ply("move", moves_shape)
        alpha = per_ply("alpha", signed_score(), fixed=split_fixed)
        beta = per_ply("beta", signed_score())
        best = per_ply("best", signed_score(), fixed=split_fixed)
        killer = per_ply("killer", moves_shape, fixed=split_fixed)
        killer_valid = per_ply("killer_valid", 1, fixed=depth)  # all cleared at once
        ply_registers = (cursors, moves, alpha, beta, best, killer, killer_valid)

        iteration = Signal(range(max_depth + 1))
        root_turn = Signal(Colour)
        budget = Signal(32)
        cycle_budget = Signal(32)
        first_pending = Signal()  # the node is about to try its first move (PV or killer)
        have_result = Signal()
        result = Signal(moves_shape)
        result_score = Signal(signed_score())
        root_move = Signal(moves_shape)  # the best root move of the iteration in progress
        have_first = Signal()
        first_move = Signal(moves_shape)  # the first legal root move played (the last resort)
        value = Signal(signed_score())  # a cutoff's score, for its node's return
        searching = Signal()
        # The split (docs/parallel.md); constant without it.
        ordinal = Signal(ordinal_shape(c, r))  # the legal root moves played in this iteration
        my_ticket = Signal(ordinal_shape(c, r))
        ticket_valid = Signal()
        want = Signal()
        searching_pv = Signal()  # the root move in hand is ordinal 0
        pv_done = Signal()
        root_exact = Signal()
        iter_live = Signal()  # root_best is this iteration's
        waiting = Signal()  # for the merge
        budget_stop = Signal()  # the iteration was stopped by a budget
        # The PV split: from the second iteration on, the nodes of the previous best's line,
        # from the one below it down to ``deepest``.
        pv_split = split and depth >= 2
        in_split = Signal()  # every engine is under the previous best, splitting its moves
        split_first_done = Signal()
        split_ply = Signal(range(pv_plies + 2), init=1)  # the split node in hand
        deepest = Signal(range(pv_plies + 1), init=1)  # the deepest split node this iteration
        # The split node in hand is above the deepest: every engine plays its first legal move
        # (ordinal 0) itself, and its tickets are the ordinals from 1.
        shared_first = Signal()
        m.d.comb += shared_first.eq(in_split & (split_ply < deepest))

        # The table of best moves (host/movetable.py): an entry is a move, its tag and the
        # plies searched below it plus one (0: empty), with scores its value too. A node keeps
        # where it looked up (its slot and tag, and whether it may store there) and its first
        # move, chosen on entry.
        entries, shared_table, scores = self.move_table, self.shared_table, self.table_scores
        if entries:
            slot_bits = table_slot_bits(entries)
            tag_bits = table_tag_bits(entries, scores)
            entry_layout = table_entry_layout(c, r, entries, max_depth, scores=scores)
            lookup_layout = data.StructLayout(
                {
                    "slot": slot_bits,
                    "tag": tag_bits,
                    "store": 1,
                    "first": moves_shape,
                    "first_valid": 1,
                }
            )
            if not shared_table:
                m.submodules.move_table = table = Memory(shape=entry_layout, depth=entries, init=[])
                table_write, table_read = table.write_port(), table.read_port()
            lookups = per_ply("lookup", lookup_layout, fixed=0)
            best_moves = per_ply("best_move", moves_shape, fixed=0)
            ply_registers += (lookups, best_moves)
            key = board.position_key
            key_tag = key[slot_bits : slot_bits + tag_bits]
            left_here = Signal(range(max_depth + 1))  # plies below the board's ply, plus one
            m.d.comb += left_here.eq(iteration - ply + 1)
            white_here = Signal()  # White is to move at the board's ply
            m.d.comb += white_here.eq((root_turn == Colour.WHITE) ^ ply[0])
            # A node settled by the table: its value for the parent (negated), backed up in LEAF.
            settled = Signal()
            settled_value = Signal(signed_score())
            # The value a node returns, as its entry holds it (a win's plies counted from the
            # node), and its kind by the node's window on entry, whose alpha was its parent's
            # -beta: made once for every state a node returns in.
            returned = Signal(signed_score())
            returned_value = Signal(signed_score())
            returned_kind = Signal(ValueKind)
            m.d.comb += [
                returned_value.eq(moved(returned, ply)),
                returned_kind.eq(
                    Mux(
                        returned + beta.parent <= 0,
                        ValueKind.UPPER,
                        Mux(returned >= beta.here, ValueKind.LOWER, ValueKind.EXACT),
                    )
                ),
            ]
            if shared_table:
                # The shared table sits across the chip: the port's requests leave from
                # registers and its answers are registered on arrival, so that no path runs
                # from the search's decisions to the table or from the table to the board's
                # next command (some clocks more per lookup; still the own table's search with
                # one engine, as every store is in the table before a later read).
                table = self.table
                clearing = table.clearing  # (the shared table empties itself)
                probing = Signal()
                storing = Signal()
                store_slot = Signal(slot_bits)
                store_entry = Signal(entry_layout)
                answered = Signal()
                answer = Signal(entry_layout)
                m.d.sync += [probing.eq(0), storing.eq(0)]
                m.d.sync += answered.eq(table.answer)
                # Loaded only on this engine's answer: every engine's register then has its own
                # enable, so synthesis keeps one in each engine (the same D input and no enable
                # had Yosys merge them into one register whose fan-out crossed the chip).
                with m.If(table.answer):
                    m.d.sync += answer.eq(table.entry)
                m.d.comb += [
                    table.probe.eq(probing),
                    table.probe_slot.eq(key[:slot_bits]),  # (the board's, idle in PROBE)
                    table.store.eq(storing),
                    table.store_slot.eq(store_slot),
                    table.store_entry.eq(store_entry),
                ]
            else:
                m.d.comb += table_read.addr.eq(key[:slot_bits])
                clearing = Signal()  # emptying the table after a search, a slot a clock
                clear_slot = Signal(slot_bits)
                with m.If(clearing):
                    m.d.comb += [table_write.addr.eq(clear_slot), table_write.en.eq(1)]
                    m.d.sync += clear_slot.eq(clear_slot + 1)
                    with m.If(clear_slot == entries - 1):
                        m.d.sync += clearing.eq(0)

        cursor_here = cursors.here
        move_here = moves.here
        best_here = best.here
        killer_here = killer.here
        killer_valid_here = killer_valid.here

        # The node's first move: the previous best at the root, the ply's killer below it (or
        # with the table, the move chosen on entry: the table's, else the killer).
        if entries:
            node_first, node_first_valid = lookups.here.first, lookups.here.first_valid
            parent_first, parent_first_valid = lookups.parent.first, lookups.parent.first_valid
        else:
            node_first, node_first_valid = killer_here, killer_valid_here
            parent_first, parent_first_valid = killer.parent, killer_valid.parent
        first = Signal(moves_shape)
        first_valid = Signal()
        m.d.comb += [
            first.eq(Mux(ply == 0, result, node_first)),
            first_valid.eq(Mux(ply == 0, have_result, node_first_valid)),
        ]
        candidate = Signal(moves_shape)
        m.d.comb += candidate.eq(Cat(board.cand.x, board.cand.y, board.cand.symbol))

        # The board: the game port while idle, the search's commands while searching.
        op = Signal(TrackOp)
        go = Signal()
        cmd_play = Signal()  # NEXT and UNDO_NEXT: whether the budget let it play one more
        cmd_proceed = Signal()  # UNDO_NEXT: go on to the next move (no cutoff)
        # A search's commands go out in the clock the search decides them (``now``), so the
        # board is not idle in between; their terms are these, set in that same clock (the move
        # of PLY, the terms of NEXT and UNDO_NEXT), except UNDO_NEXT's ``proceed``, which the
        # board takes when the ply is off, a clock after the command at the soonest: a leaf's
        # is settled in LEAF's clock. The board takes the terms only with its command, so they
        # are 0 in any other clock.
        now = Signal()
        now_op = Signal(TrackOp)
        term_move = Signal(moves_shape)
        term_cursor = Signal(cursor)
        term_skip = Signal(moves_shape)
        term_skip_valid = Signal()
        term_play = Signal()
        term_proceed = Signal()
        m.d.comb += [
            term_move.eq(move_here),
            term_proceed.eq(cmd_proceed),
        ]
        with m.If(searching):
            m.d.comb += [
                board.start.eq(go | now),
                board.op.eq(Mux(now, now_op, op)),
                *move_eq(board.move, term_move),
                board.cursor.eq(term_cursor),
                board.play.eq(term_play),
                board.proceed.eq(term_proceed),
                board.skip_valid.eq(term_skip_valid),
                *move_eq(board.skip, term_skip),
            ]
        with m.Else():
            game_port_commands(m, board, self.game)

        # Just after a legal PLY by the node at ply p, the board's ply is p + 1. The mover was
        # the side to move at ply p: the root's side when p is even.
        mover_white = Signal()
        m.d.comb += mover_white.eq((root_turn == Colour.WHITE) ^ ~ply[0])
        white_won = board.white_loop | board.white_line
        black_won = board.black_loop | board.black_line
        mover_won = Mux(mover_white, white_won, black_won)
        other_won = Mux(mover_white, black_won, white_won)
        win_score = Signal(signed_score())  # WIN - (p + 1)
        m.d.comb += win_score.eq(WIN - ply)
        horizon = ply >= iteration

        # The evaluation of the position after a move, for the mover (minus the score for the
        # side then to move): the board keeps it for both sides, registered.
        their_attacks = Mux(mover_white, board.white_attacks, board.black_attacks)
        mover_score = Signal(signed_score())
        m.d.comb += mover_score.eq(
            Mux(mover_white, board.white_mover_score, board.black_mover_score)
        )
        extend = Signal()  # the side to move must answer an attack: one more ply
        if self.evaluation:
            m.d.comb += extend.eq((their_attacks != 0) & (ply < iteration + extensions))
        # With the attack cut, the side to move holds an attack: the mover lost (a leaf, at any
        # ply), by ``loss_score``, -(WIN - (p + 2)) for the node at ply p. Kept for LEAF.
        lost = Signal()
        cut_leaf = Signal()
        loss_score = Signal(signed_score())
        if self.attack_cut:
            to_move_attacks = Mux(mover_white, board.black_attacks, board.white_attacks)
            m.d.comb += lost.eq(to_move_attacks != 0)
        m.d.comb += loss_score.eq(1 - win_score)
        parent_alpha = alpha.parent
        parent_beta = beta.parent
        parent_best = best.parent
        parent_cursor = cursors.parent
        parent_killer = killer.parent
        parent_killer_valid = killer_valid.parent
        parent_move = moves.parent
        # A node counted in this clock counts for the budget of a command issued in it. Both
        # comparisons with the budget are made from registers alone, so that the late
        # ``counted`` only selects one (no adder or comparator after the search's decisions).
        counted = Signal()
        node_count = Signal(32)
        one_more = Signal(32)
        at_budget = Signal()  # the nodes counted so far are the budget
        one_short = Signal()  # they are one short of it
        m.d.comb += [
            one_more.eq(self.nodes + 1),
            node_count.eq(Mux(counted, one_more, self.nodes)),
            at_budget.eq(self.nodes == budget),
            one_short.eq(one_more == budget),
        ]
        m.d.sync += self.nodes.eq(node_count)
        clock_spent = self.clock_spent if split else self.cycles >= cycle_budget
        own_spent = Mux(counted, one_short, at_budget) | clock_spent
        spent = own_spent
        spent_so_far = Const(0)  # before this clock's node, if any (no loop through counted)
        if split:
            spent = own_spent | self.stop
            spent_so_far = at_budget | clock_spent | self.stop
            m.d.comb += [
                self.own_spent.eq(own_spent),
                self.counted.eq(counted),
                self.want.eq(want & ~waiting & ~in_split),
                self.want_split.eq(want & ~waiting & in_split),
                self.split_first_done.eq(split_first_done),
                self.root_best.eq(Mux(iter_live, best[0], -INFINITY)),
                self.root_exact.eq(root_exact),
                self.root_move.eq(root_move),
                self.first_valid.eq(have_first),
                self.first_move.eq(first_move),
                self.iter_done.eq(waiting),
                self.iter_stopped.eq(budget_stop),
                self.pv_done.eq(pv_done),
            ]
            with m.If(self.grant):
                m.d.sync += [my_ticket.eq(self.ticket), ticket_valid.eq(1), want.eq(0)]
            # The root's alpha keeps up with the other engines' (the FSM's writes come first).
            with m.If(searching & (self.shared_alpha > alpha[0])):
                m.d.sync += alpha[0].eq(self.shared_alpha)
            # The split node in hand's best and alpha (the registers of ``split_ply``).
            split_best = Signal(signed_score())
            split_alpha = Signal(signed_score())
            m.d.comb += self.split_best.eq(Mux(in_split, split_best, -INFINITY))
            if pv_split:
                for p in range(1, pv_plies + 1):
                    with m.If(split_ply == p):
                        m.d.comb += [split_best.eq(best[p]), split_alpha.eq(alpha[p])]
                    m.d.comb += [
                        self.killer_out[p - 1].eq(killer[p]),
                        self.killer_out_valid[p - 1].eq(killer_valid[p]),
                    ]
                # The split node's alpha keeps up with the other engines' in the same way.
                with m.If(searching & in_split & (self.split_alpha > split_alpha)):
                    for p in range(1, pv_plies + 1):
                        with m.If(split_ply == p):
                            m.d.sync += alpha[p].eq(self.split_alpha)
            else:
                m.d.comb += split_best.eq(-INFINITY)

        m.d.sync += [go.eq(0), self.done.eq(0)]
        if not split:  # else counted once for all engines (``clock_spent``)
            with m.If(self.busy):
                m.d.sync += self.cycles.eq(self.cycles + 1)
            with m.If(self.rearm & self.busy):
                m.d.sync += cycle_budget.eq(self.cycles + self.cycle_budget)
        aborting = Signal()
        abort_now = aborting | self.abort
        with m.If(self.abort & self.busy):
            m.d.sync += aborting.eq(1)

        def command(what):
            """Issue a board command in this clock (COMPACT, from IDLE, in the next)."""
            if what == TrackOp.COMPACT:
                m.d.sync += [op.eq(what), go.eq(1)]
            else:
                m.d.comb += [now.eq(1), now_op.eq(what)]

        def next_move(cursor_value, skip, skip_valid):
            """NEXT or UNDO_NEXT's terms, to the board in this clock (the command's): the node's
            place, its first move, the budget."""
            m.d.sync += cmd_play.eq(~spent)
            m.d.comb += [
                term_cursor.eq(cursor_value),
                term_skip.eq(skip),
                term_skip_valid.eq(skip_valid),
                term_play.eq(~spent),
            ]

        def parent_goes_on(place):
            """The terms of the parent's next move (at ``place``, its first move passed over)."""
            next_move(
                place,
                Mux(parent == 0, result, parent_first),
                Mux(parent == 0, have_result, parent_first_valid),
            )

        def proceed(value, *, at_once=False):
            """UNDO_NEXT's ``proceed`` (with ``at_once``, also to the board in this clock)."""
            m.d.sync += cmd_proceed.eq(value)
            if at_once:
                m.d.comb += term_proceed.eq(value)

        def back_up(v, move, place, *, issued=False, leaf=False):
            """``v`` is the score of ``move``, the move of the parent node (the board's ply
            less one), whose candidates go on at ``place``: the parent takes the score, and the
            board takes the move back, then (without a cutoff) plays the parent's next legal
            move. With ``issued``, the board's UNDO_NEXT went out already, with its terms: only
            whether it proceeds is settled here (before the ply is taken back). ``leaf``: the
            move's score is exact (a leaf's, not a node's, which may have failed high)."""
            with m.If(v > parent_best):
                best.set_parent(v)
                if entries:
                    best_moves.set_parent(move)
            with m.If(parent == 0):
                if not split:
                    with m.If(v > parent_best):
                        m.d.sync += root_move.eq(move)
                else:
                    # Exact unless the child failed high against the alpha it was given.
                    exact = Value.cast(1) if depth < 2 else Value.cast(leaf) | (v > -beta[1])
                    replace = (v > parent_best) | ((v == parent_best) & exact & ~root_exact)
                    with m.If(replace):
                        m.d.sync += [root_move.eq(move), root_exact.eq(exact)]
                    with m.If(searching_pv | in_split):
                        m.d.sync += pv_done.eq(1)
                    with m.If(in_split):  # the split is over: the root's tickets follow
                        m.d.sync += [in_split.eq(0), ordinal.eq(1), ticket_valid.eq(0)]
                    m.d.sync += want.eq(1)  # the next ticket
            if pv_split:
                with m.If(in_split & (parent == split_ply)):  # a move of the split node is done
                    with m.If(searching_pv | shared_first):
                        m.d.sync += split_first_done.eq(1)
                    # The next ticket, unless one is held: a first move played by every engine
                    # that was a leaf (nothing below it split) leaves the ticket taken for the
                    # node below it, which is this node's next (the same counter).
                    with m.If(~ticket_valid):
                        m.d.sync += want.eq(1)
            if not issued:  # (unused on a cutoff)
                parent_goes_on(place)
            with m.If((v > parent_alpha) & (v >= parent_beta)):  # a cutoff
                alpha.set_parent(v)
                m.d.sync += value.eq(Mux(v > parent_best, v, parent_best))
                killer.set_parent(move)
                killer_valid.set_parent(1)
                proceed(0, at_once=issued)
                if not issued:
                    command(TrackOp.UNDO)
                m.next = "UNDO_WAIT"
            with m.Else():
                with m.If(v > parent_alpha):
                    alpha.set_parent(v)
                proceed(1, at_once=issued)
                if not issued:
                    command(TrackOp.UNDO_NEXT)
                m.next = "CANDIDATE"

        def played(move, place):
            """The board has just played ``move`` legally for the node at its ply less one,
            whose candidates go on at ``place``. With the split, a root move is searched only
            when it is this engine's ticket; the others are passed over (not nodes)."""
            with m.If((ply == 1) & ~have_first):  # a root move was played
                m.d.sync += [have_first.eq(1), first_move.eq(move)]
            if not split:
                searched(move, place)
                return
            # The board's ply after a move taken by ticket, and the ordinal of this engine's.
            ticket_ply = Mux(in_split, split_ply + 1, 1)
            target = Signal.like(ordinal)
            m.d.comb += target.eq(my_ticket + shared_first)
            with m.If(ply != ticket_ply):
                searched(move, place)
            with m.Elif(shared_first & (ordinal == 0)):  # every engine's: split it in turn
                m.d.sync += ordinal.eq(1)
                searched(move, place, descend=True)
            with m.Elif(~ticket_valid):
                m.next = "TICKET"
            with m.Elif(ordinal != target):  # another engine's: take it back, go on
                m.d.sync += ordinal.eq(ordinal + 1)
                next_move(
                    place,
                    Mux(in_split, parent_killer, result),
                    Mux(in_split, parent_killer_valid, have_result),
                )
                proceed(1)
                command(TrackOp.UNDO_NEXT)
                m.next = "CANDIDATE"
            with m.Else():
                m.d.sync += [
                    ordinal.eq(ordinal + 1),
                    ticket_valid.eq(0),
                    searching_pv.eq(my_ticket == 0),
                ]
                searched(move, place)

        def searched(move, place, *, descend=False):
            """``played``'s move is a node of this search (with ``descend``, the first move of a
            split node above the deepest: a child that is a node is the next split node)."""
            m.d.comb += counted.eq(1)
            m.d.sync += cut_leaf.eq(lost)
            with m.If(~(mover_won | other_won | lost) & (~horizon | extend)):  # the child is a node
                enter_node(-parent_beta, -parent_alpha)
                if descend:
                    m.d.sync += [split_ply.eq(split_ply + 1), ordinal.eq(0)]
                if not entries:
                    first_step(killer_valid_here, killer_here, Const(0, cursor.size))
                elif not pv_split:  # the table reads at the child's key (settled, as counts are)
                    probe()
                else:
                    # A split node (the previous best's line) takes no move from the table and
                    # stores none: its first move is the killer, engine 0's for every engine.
                    with m.If(Const(descend) | (in_split & (ply == split_ply))):
                        split_node = Signal(lookup_layout)
                        m.d.comb += [
                            split_node.first.eq(killer_here),
                            split_node.first_valid.eq(killer_valid_here),
                        ]
                        lookups.set_here(split_node)
                        first_step(killer_valid_here, killer_here, Const(0, cursor.size))
                    with m.Else():
                        probe()
            with m.Else():
                # A leaf: the board takes it back at once, with the terms of the parent's next
                # move, while its score is compared in the next clock (LEAF), which settles
                # whether the board goes on to it.
                parent_goes_on(place)
                proceed(0)
                command(TrackOp.UNDO_NEXT)
                if scores:
                    m.d.sync += settled.eq(0)
                m.next = "LEAF"

        def first_step(has_first, first_move_v, cursor_v, skip=first, skip_valid=first_valid):
            """A node's next step: its first move (PV, killer or the table's) if it has one yet
            to try, else its next legal move after ``cursor_v`` (its first move, ``skip``,
            passed over)."""
            with m.If(has_first):
                with m.If(spent):
                    m.next = "ABORT"
                with m.Else():
                    moves.set_here(first_move_v)
                    m.d.comb += term_move.eq(first_move_v)
                    m.d.sync += first_pending.eq(0)
                    command(TrackOp.PLY)
                    m.next = "PLAY"
            with m.Else():
                next_move(cursor_v, skip, skip_valid)
                command(TrackOp.NEXT)
                m.next = "CANDIDATE"

        # With the split, the root's iteration ends in the merge of every engine's root best.
        merging_root = (ply == 0) if split else Const(0)

        def wait_for_merge(stopped):
            if split:
                m.d.sync += [waiting.eq(1), budget_stop.eq(stopped), in_split.eq(0)]
                m.next = "MERGE"

        def enter_node(a, b):
            """Start searching the node at the board's ply with the window (a, b)."""
            cursors.set_here(0)
            alpha.set_here(a)
            beta.set_here(b)
            best.set_here(-INFINITY)
            m.d.sync += first_pending.eq(killer_valid_here)

        def node_returns(v):
            """The node at the board's ply is done with the score ``v``: the root ends its
            iteration (or, split, waits for the merge), the split node waits for the other
            engines, any other node's score is backed up to its parent."""
            with m.If(merging_root):
                wait_for_merge(stopped=0)
            if pv_split:
                with m.Elif(in_split & (ply == split_ply)):  # the split node's moves ran out
                    m.next = "SPLIT_WAIT"
            with m.Else():
                with m.If(ply == 0):
                    with m.If(best_here == -INFINITY):  # no legal move at all
                        m.next = "FINISH"
                    with m.Else():
                        m.d.sync += [
                            have_result.eq(1),
                            result.eq(root_move),
                            result_score.eq(best_here),
                            self.depth.eq(iteration),
                            iteration.eq(iteration + 1),
                        ]
                        proved = (best_here >= MATE_BOUND) | (best_here <= -MATE_BOUND)
                        with m.If(proved | (iteration == max_depth)):
                            m.next = "FINISH"
                        with m.Else():
                            m.next = "ITERATE"
                with m.Else():
                    if scores:
                        m.d.comb += returned.eq(v)
                    if entries:
                        store_best()
                    back_up(-v, parent_move, parent_cursor)

        def probe():
            """The child entered is a node that searches its replies: look its position up (the
            board's key is settled: the private table's read port is addressed by it now)."""
            m.next = "PROBE"
            if shared_table:
                m.d.sync += probing.eq(1)

        def store_best():
            """The node at the board's ply returns: its best move to the table, if it has one
            and may store it (with scores, its value ``returned`` too)."""
            here = lookups.here
            if shared_table:
                slot, entry, enable, domain = store_slot, store_entry, storing, m.d.sync
            else:
                slot, entry, enable = table_write.addr, table_write.data, table_write.en
                domain = m.d.comb
            with m.If(here.store & (best_here != -INFINITY)):
                domain += [
                    slot.eq(here.slot),
                    entry.move.eq(best_moves.here),
                    entry.tag.eq(here.tag),
                    entry.left.eq(left_here),
                    enable.eq(1),
                ]
                if scores:
                    domain += [
                        entry.value.eq(returned_value),
                        entry.kind.eq(returned_kind),
                        entry.turn.eq(white_here),
                    ]

        def start_clearing():
            if entries and not shared_table:
                m.d.sync += [clearing.eq(1), clear_slot.eq(0)]

        with m.FSM(name="search_fsm") as fsm:
            with m.State("IDLE"):
                with m.If(self.start):
                    m.d.sync += [
                        self.busy.eq(1),
                        self.cycles.eq(0),
                        self.nodes.eq(0),
                        root_turn.eq(self.turn),
                        aborting.eq(0),
                        budget.eq(self.budget),
                        cycle_budget.eq(self.cycle_budget),
                        have_result.eq(0),
                        have_first.eq(0),
                        *[valid.eq(0) for valid in killer_valid],
                        result_score.eq(0),
                        self.found.eq(0),
                        self.depth.eq(0),
                        in_split.eq(0),
                    ]
                    with m.If(board.box.empty):
                        m.d.sync += [
                            self.found.eq(1),
                            self.move.x.eq(0),
                            self.move.y.eq(0),
                            self.move.symbol.eq(Symbol.CROSS),
                            self.score.eq(0),
                            self.busy.eq(0),
                            self.done.eq(1),
                        ]
                    with m.Else():
                        m.d.sync += searching.eq(1)
                        if entries:
                            m.next = "CLEAR"
                        else:
                            command(TrackOp.COMPACT)
                            m.next = "COMPACT"
            if entries:
                with m.State("CLEAR"):  # the table is emptied after the last search first
                    with m.If(abort_now):
                        m.next = "UNWIND"
                    with m.Elif(~clearing):
                        command(TrackOp.COMPACT)
                        m.next = "COMPACT"
                with m.State("PROBE"):  # a node is entered: the entry at its key's slot, its first
                    # move (the key of the position after a move is settled when the board is
                    # done with it, as its counts are for LEAF's score a clock later)
                    with m.If(abort_now):
                        m.next = "UNWIND"
                    with m.Elif(answered if shared_table else Const(1)):
                        held = answer if shared_table else table_read.data
                        hit = (held.left != 0) & (held.tag == key_tag)
                        deeper = (held.left != 0) & (held.tag != key_tag) & (held.left > left_here)
                        lookup = Signal(lookup_layout)
                        m.d.comb += [
                            lookup.slot.eq(key[:slot_bits]),
                            lookup.tag.eq(key_tag),
                            lookup.store.eq(~deeper),
                            lookup.first.eq(Mux(hit, held.move, killer_here)),
                            lookup.first_valid.eq(hit | killer_valid_here),
                        ]
                        lookups.set_here(lookup)
                        chosen, valid = lookup.first, lookup.first_valid
                        m.d.sync += first_pending.eq(valid)
                        if scores:
                            # The entry settles the node: it is taken back as a leaf is (the
                            # board's UNDO_NEXT now, with the parent's terms; LEAF backs the
                            # value up, and the value is exact only if it beats the alpha).
                            held_value = Signal(signed_score())
                            negated = Signal(signed_score())  # for the parent
                            m.d.comb += [
                                held_value.eq(moved(held.value, -ply)),
                                negated.eq(-held_value),
                            ]
                            settles = (
                                hit
                                & (held.left == left_here)
                                & (held.turn == white_here)
                                & (
                                    (held.kind == ValueKind.EXACT)
                                    | ((held.kind == ValueKind.LOWER) & (held_value >= beta.here))
                                    # (at most the node's alpha, its parent's -beta)
                                    | ((held.kind == ValueKind.UPPER) & (negated >= parent_beta))
                                )
                            )
                            with m.If(settles):
                                m.d.sync += [settled.eq(1), settled_value.eq(negated)]
                                parent_goes_on(parent_cursor)
                                proceed(0)
                                command(TrackOp.UNDO_NEXT)
                                m.next = "LEAF"
                            with m.Else():
                                first_step(valid, chosen, Const(0, cursor.size), chosen, valid)
                        else:
                            first_step(valid, chosen, Const(0, cursor.size), chosen, valid)
            with m.State("COMPACT"):
                with m.If(board.done & abort_now):
                    m.next = "UNWIND"
                with m.Elif(board.done):
                    m.d.sync += iteration.eq(1)
                    m.next = "ITERATE"
            with m.State("ITERATE"):  # board at ply 0
                with m.If(abort_now):
                    m.next = "UNWIND"
                with m.Else():
                    enter_node(-INFINITY, INFINITY)  # the board is at ply 0
                    m.d.sync += first_pending.eq(have_result)
                    if split:
                        m.d.sync += [
                            ordinal.eq(0),
                            ticket_valid.eq(0),
                            want.eq(1),
                            searching_pv.eq(0),
                            pv_done.eq(0),
                            root_exact.eq(0),
                            iter_live.eq(1),
                            budget_stop.eq(0),
                        ]
                    if pv_split:
                        m.d.sync += [
                            in_split.eq(have_result),
                            split_first_done.eq(0),
                            best[1].eq(-INFINITY),
                            split_ply.eq(1),
                            # ``iteration - 2``, at least 1, at most ``pv_plies``
                            deepest.eq(1),
                        ]
                        for p in range(2, pv_plies + 1):
                            with m.If(iteration >= p + 2):
                                m.d.sync += deepest.eq(p)
                        with m.If(have_result):  # engine 0's killers, for every engine
                            for p in range(1, pv_plies + 1):
                                m.d.sync += [
                                    killer[p].eq(self.split_killer[p - 1]),
                                    killer_valid[p].eq(self.split_killer_valid[p - 1]),
                                ]
                    m.next = "NEXT"
            with m.State("NEXT"):  # the node's first move, or ask the board for a candidate
                with m.If(abort_now):
                    m.next = "UNWIND"
                with m.Else():
                    first_step(first_pending, first, cursor_here)
            with m.State("CANDIDATE"):  # NEXT or UNDO_NEXT: the node's next legal move, played
                with m.If(board.done & abort_now):
                    m.next = "UNWIND"
                with m.Elif(board.done):
                    with m.If(~board.found):  # the node's moves ran out
                        node_returns(Mux(best_here == -INFINITY, 0, best_here))
                    with m.Elif(~cmd_play):  # the budget was spent before it
                        m.next = "ABORT"
                    with m.Else():  # played: the board is at the child
                        moves.set_parent(candidate)
                        cursors.set_parent(board.next_cursor)
                        played(candidate, board.next_cursor)
            if split:
                with m.State("TICKET"):  # a root move is played: is it this engine's?
                    with m.If(abort_now):
                        m.next = "UNWIND"
                    with m.Elif(spent_so_far):  # a budget ran out meanwhile
                        m.next = "ABORT"
                    with m.Elif(ticket_valid):
                        played(parent_move, parent_cursor)
                with m.State("MERGE"):  # the iteration is over here: the merger decides
                    with m.If(abort_now):
                        m.d.sync += [waiting.eq(0), iter_live.eq(0)]
                        m.next = "UNWIND"
                    with m.Elif(self.merge):
                        m.d.sync += [waiting.eq(0), iter_live.eq(0)]
                        with m.If(self.merge_go):
                            m.d.sync += [
                                have_result.eq(1),
                                result.eq(self.merge_move),
                                iteration.eq(iteration + 1),
                            ]
                            m.next = "ITERATE"
                        with m.Else():
                            m.d.sync += [searching.eq(0), self.busy.eq(0)]
                            start_clearing()
                            m.next = "IDLE"
            if pv_split:
                with m.State("SPLIT_WAIT"):  # every engine's share of the split node is done
                    with m.If(abort_now):
                        m.next = "UNWIND"
                    with m.Elif(spent_so_far):
                        m.next = "ABORT"
                    with m.Elif(self.split_merge):
                        split_score = Mux(self.split_value == -INFINITY, 0, self.split_value)
                        back_up(-split_score, parent_move, parent_cursor)
                        with m.If(split_ply > 1):  # the parent is the split node in hand next
                            m.d.sync += [
                                split_ply.eq(split_ply - 1),
                                ordinal.eq(1),
                                ticket_valid.eq(0),
                                want.eq(1),
                                split_first_done.eq(1),
                            ]
            with m.State("PLAY"):  # the node's first move (PV or killer)
                with m.If(board.done & abort_now):
                    m.next = "UNWIND"
                with m.Elif(board.done):
                    with m.If(board.verdict != Verdict.LEGAL):
                        m.next = "NEXT"
                    with m.Else():
                        played(parent_move, parent_cursor)
            with m.State("LEAF"):  # the board is taking the leaf back (or a node the table
                # settled); its score is here now
                with m.If(abort_now):
                    m.next = "UNWIND_WAIT"
                with m.Else():
                    leaf = Mux(
                        mover_won | other_won,
                        Mux(mover_won, win_score, -win_score),
                        Mux(cut_leaf, loss_score, mover_score)
                        if self.evaluation
                        else Value.cast(0),
                    )
                    if scores:
                        v = Mux(settled, settled_value, leaf)
                        back_up(v, parent_move, parent_cursor, issued=True, leaf=~settled)
                    else:
                        back_up(leaf, parent_move, parent_cursor, issued=True, leaf=True)
            with m.State("UNDO_WAIT"):  # a cutoff: the move is taken back, the node returns
                with m.If(board.done & abort_now):
                    m.next = "UNWIND"
                with m.Elif(board.done):
                    node_returns(value)
            with m.State("ABORT"):  # the budget is spent: back to ply 0
                with m.If(abort_now):
                    m.next = "UNWIND"
                with m.Elif(merging_root):
                    wait_for_merge(stopped=1)
                with m.Else():
                    with m.If(ply == 0):
                        with m.If(best[0] != -INFINITY):
                            m.d.sync += [
                                have_result.eq(1),
                                result.eq(root_move),
                                result_score.eq(best[0]),
                            ]
                        with m.Elif(~have_result & have_first):
                            m.d.sync += [have_result.eq(1), result.eq(first_move)]
                        m.next = "FINISH"
                    with m.Else():
                        command(TrackOp.UNDO)
                        m.next = "ABORT_WAIT"
            with m.State("ABORT_WAIT"):
                with m.If(board.done & abort_now):
                    m.next = "UNWIND"
                with m.Elif(board.done):
                    m.next = "ABORT"
            with m.State("UNWIND"):  # aborted: back to the game's position, quietly
                with m.If(ply == 0):
                    m.d.sync += [searching.eq(0), aborting.eq(0), self.busy.eq(0)]
                    start_clearing()
                    m.next = "IDLE"
                with m.Else():
                    command(TrackOp.UNDO)
                    m.next = "UNWIND_WAIT"
            with m.State("UNWIND_WAIT"):
                with m.If(board.done):
                    m.next = "UNWIND"
            with m.State("FINISH"):
                start_clearing()
                m.d.sync += [
                    searching.eq(0),
                    self.found.eq(have_result),
                    *move_eq(self.move, result),
                    self.score.eq(result_score),
                    self.busy.eq(0),
                    self.done.eq(1),
                ]
                m.next = "IDLE"
        if pv_split:
            m.d.comb += self.split_waiting.eq(fsm.ongoing("SPLIT_WAIT"))
        for registers in ply_registers:  # after every direct write to a fixed ply
            registers.finish()
        if self.trace:
            m.d.comb += [
                self.trace_ply_up.eq(board.ply_up),
                self.trace_busy.eq(board.busy),
                self.trace_ply.eq(board.ply),
                self.trace_key.eq(board.position_key),
            ]
        return m
