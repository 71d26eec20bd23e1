"""The board's own move: iterative deepening alpha-beta in gateware.

This is the gateware of the specification in :mod:`trax_fpga.host.hwsearch` (read it first: the
window order, what a node is, the scores, the horizon and its extensions, the iterations and the
result). The search loads the game's position into a :class:`~.ply_board.PlyBoard`, walks the
tree with one register set per ply (cursor into the candidates, alpha, beta, best score), asks
the :class:`~.movegen.MoveGenerator` for the next candidate at the cursor, plays it (forced
plays and win detection included), and takes it back in one clock. At the horizon the
:class:`~.evaluation.Evaluation` scores the position; it starts as soon as the forced plays are
over and runs beside the win detection, so it costs a clock only when the flood is shorter.

The search stops at whichever budget is spent first: ``budget`` nodes (the software model
counts the same nodes, so tests compare the two) or ``cycle_budget`` clocks (what a board sets
from its clock frequency, so the answer always comes in time).
"""

from amaranth import Module, Mux, Signal
from amaranth.lib import data, wiring
from amaranth.lib.wiring import In, Out

from ..host.hweval import MAX_EXTENSIONS
from ..host.hwsearch import INFINITY, MATE_BOUND, WIN
from .board import Verdict
from .evaluation import SCORE_BITS, Evaluation, signed_score
from .legality import check_window
from .movegen import SYMBOL_BITS, MoveGenerator, index_bits
from .ply_board import PlyBoard, PlyBoardOp
from .rules_core import Colour
from .types import Symbol

__all__ = ["SCORE_BITS", "Search", "search_members", "signed_score"]


def search_members(width: int, height: int) -> dict:
    """The ports every search has (the protocol engine drives these; test doubles share them)."""
    n = width * height
    return {
        "start": In(1),
        "white": In(data.ArrayLayout(n, 4)),
        "box_x": In(range(width)),
        "box_y": In(range(height)),
        "box_w": In(range(width + 1)),
        "box_h": In(range(height + 1)),
        "empty": In(1),
        "turn": In(Colour),
        "busy": Out(1),
        "done": Out(1),
        "found": Out(1),
        "x": Out(range(width)),
        "y": Out(range(height)),
        "symbol": Out(Symbol),
        "nodes": Out(32),
        "cycles": Out(32),
    }


class Search(wiring.Component):
    """Choose a move for the side to move in a position, within a node budget.

    Parameters
    ----------
    width, height : int
        The window size, as the rules core's.
    max_depth : int
        The deepest iteration (plies); the tree goes ``MAX_EXTENSIONS`` plies deeper where the
        side to move at the horizon is threatened.

    Members
    -------
    start : In(1)
        Pulse while ``busy`` is low: sample the position on the inputs and choose a move.
    white : In(ArrayLayout(W*H, 4))
        The position (``RulesCore.white``).
    box_x, box_y, box_w, box_h : In(...)
        Its box (``RulesCore``'s).
    empty : In(1)
        No tile yet: the answer is ``@0+`` at window (0, 0), without a search.
    turn : In(Colour)
        The side to move.
    budget : In(32)
        The most nodes (legal moves played) to search.
    cycle_budget : In(32)
        The most clocks to search (checked before every candidate, like ``budget``; the answer
        follows within the clocks of one move and the take-backs to the root).
    busy, done : Out(1)
        ``done`` pulses once the move is chosen; the outputs below are then held.
    found : Out(1)
        1: (``x``, ``y``, ``symbol``) is a legal move of the position; 0: there is none.
    x, y : Out(range(W)), Out(range(H))
    symbol : Out(Symbol)
    score : Out(signed)
        The move's score (``WIN - p`` for a win at ply p, negative for a loss, else from the
        evaluation at the horizon).
    depth : Out(8)
        The deepest completed iteration.
    nodes, cycles : Out(32)
        Nodes searched and clocks taken.
    """

    def __init__(self, width: int, height: int, max_depth: int = 3):
        self.width, self.height = check_window(width, height)
        if not isinstance(max_depth, int) or isinstance(max_depth, bool) or max_depth < 1:
            raise ValueError(f"max_depth must be a positive integer, not {max_depth!r}")
        self.max_depth = max_depth
        super().__init__(
            {
                **search_members(width, height),
                "budget": In(32),
                "cycle_budget": In(32),
                "score": Out(signed_score()),
                "depth": Out(8),
            }
        )

    def elaborate(self, platform):
        m = Module()
        w, h, max_depth = self.width, self.height, self.max_depth
        depth = max_depth + MAX_EXTENSIONS  # plies of the deepest path
        xb, _ = index_bits(w, h)
        m.submodules.board = board = PlyBoard(w, h, depth)
        m.submodules.movegen = movegen = MoveGenerator(w, h)
        m.submodules.evaluation = evaluation = Evaluation(w, h)
        index_width = movegen.index_width
        m.d.comb += [
            board.load_white.eq(self.white),
            board.load_box_x.eq(self.box_x),
            board.load_box_y.eq(self.box_y),
            board.load_box_w.eq(self.box_w),
            board.load_box_h.eq(self.box_h),
            movegen.fit.eq(board.fit),
            movegen.frontier.eq(board.frontier),
            evaluation.white.eq(board.white),
            evaluation.start.eq(board.settled),
        ]

        # One register set per ply of the tree (node p is at board ply p).
        def per_ply(name, shape, init=0):
            return [Signal(shape, name=f"{name}_{p}", init=init) for p in range(depth)]

        cursor = per_ply("cursor", index_width + 1)
        move = per_ply("move", index_width)
        alpha = per_ply("alpha", signed_score())
        beta = per_ply("beta", signed_score())
        best = per_ply("best", signed_score())
        killer = per_ply("killer", index_width)  # the move of the ply's last cutoff
        killer_valid = per_ply("killer_valid", 1)

        ply = board.ply
        iteration = Signal(range(max_depth + 1))
        root_turn = Signal(Colour)
        budget = Signal(32)
        cycle_budget = Signal(32)
        first_pending = Signal()  # the node is about to try its first move (PV or killer)
        have_result = Signal()
        result = Signal(index_width)
        result_score = Signal(signed_score())
        root_move = Signal(index_width)  # the best root move of the iteration in progress
        have_first = Signal()
        first_move = Signal(index_width)  # the first legal root move played (the last resort)
        value = Signal(signed_score())  # the score being passed to UPDATE

        def at(regs, p=None):
            """The register of the current ply (a mux over the plies)."""
            p = ply if p is None else p
            out = Signal.like(regs[0], name=f"{regs[0].name.rsplit('_', 1)[0]}_here")
            for i, reg in enumerate(regs):
                with m.If(p == i):
                    m.d.comb += out.eq(reg)
            return out

        def set_at(regs, value, p=None):
            p = ply if p is None else p
            for i, reg in enumerate(regs):
                with m.If(p == i):
                    m.d.sync += reg.eq(value)

        cursor_here = at(cursor)
        move_here = at(move)
        alpha_here = at(alpha)
        beta_here = at(beta)
        best_here = at(best)
        killer_here = at(killer)
        killer_valid_here = at(killer_valid)
        m.d.comb += movegen.cursor.eq(cursor_here)

        # The candidate to play now: first the previous best at the root or the ply's killer
        # elsewhere (the board refuses it if it is no candidate here), then the generator's,
        # skipping the first move when the generator reaches it.
        first_index = Signal(index_width)
        first_valid = Signal()
        m.d.comb += [
            first_index.eq(Mux(ply == 0, result, killer_here)),
            first_valid.eq(Mux(ply == 0, have_result, killer_valid_here)),
        ]
        skip_first = first_valid & movegen.valid & (movegen.index == first_index)
        candidate = Signal(index_width)
        m.d.comb += candidate.eq(Mux(first_pending, first_index, movegen.index))
        # The board takes its move a clock after NEXT chose it, when the cursor has moved on:
        # it plays the move registered for this ply, not the generator's current output.
        m.d.comb += [
            board.x.eq(move_here[SYMBOL_BITS : SYMBOL_BITS + xb]),
            board.y.eq(move_here[SYMBOL_BITS + xb :]),
            board.symbol.eq(move_here[:SYMBOL_BITS]),
        ]

        # Just after a legal play by the node at ply p, the board's ply is p + 1. The mover was
        # the side to move at ply p: the root's side when p is even.
        mover_white = Signal()
        m.d.comb += mover_white.eq((root_turn == Colour.WHITE) ^ ~ply[0])
        white_won = board.white_loop | board.white_line
        black_won = board.black_loop | board.black_line
        mover_won = Signal()
        other_won = Signal()
        m.d.comb += [
            mover_won.eq(Mux(mover_white, white_won, black_won)),
            other_won.eq(Mux(mover_white, black_won, white_won)),
            evaluation.turn.eq(Mux(mover_white, Colour.BLACK, Colour.WHITE)),
        ]
        win_score = Signal(signed_score())  # WIN - (p + 1)
        m.d.comb += win_score.eq(WIN - ply)
        horizon = Signal()  # the move just played was at (or, extended, beyond) the horizon
        m.d.comb += horizon.eq(ply >= iteration)
        extend = Signal()  # the side to move must defend, and the path may go one ply deeper
        m.d.comb += extend.eq(evaluation.threatened & (ply < iteration + MAX_EXTENSIONS))
        parent = Signal.like(ply)
        m.d.comb += parent.eq(ply - 1)
        parent_alpha = at(alpha, parent)
        parent_beta = at(beta, parent)

        m.d.sync += [board.start.eq(0), self.done.eq(0)]
        with m.If(self.busy):
            m.d.sync += self.cycles.eq(self.cycles + 1)

        def score_horizon():
            """Extend the search at a horizon move, or score it by the evaluation."""
            with m.If(extend):
                enter_node(ply, -parent_beta, -parent_alpha)
                m.next = "NEXT"
            with m.Else():
                m.d.sync += value.eq(-evaluation.score)
                m.next = "UNDO"

        def enter_node(p, a, b):
            """Start searching the node at ply ``p`` with the window (a, b)."""
            set_at(cursor, 0, p)
            set_at(alpha, a, p)
            set_at(beta, b, p)
            set_at(best, -INFINITY, p)
            m.d.sync += first_pending.eq(killer_valid_here)

        with m.FSM(name="search_fsm"):
            with m.State("IDLE"):
                with m.If(self.start):
                    m.d.sync += [
                        self.busy.eq(1),
                        self.cycles.eq(0),
                        self.nodes.eq(0),
                        root_turn.eq(self.turn),
                        budget.eq(self.budget),
                        cycle_budget.eq(self.cycle_budget),
                        have_result.eq(0),
                        have_first.eq(0),
                        *[valid.eq(0) for valid in killer_valid],
                        result_score.eq(0),  # the score of "no move" (a bug found once)
                        self.found.eq(0),
                        self.depth.eq(0),
                    ]
                    with m.If(self.empty):
                        m.d.sync += [
                            self.found.eq(1),
                            self.x.eq(0),
                            self.y.eq(0),
                            self.symbol.eq(Symbol.CROSS),
                            self.score.eq(0),
                            self.busy.eq(0),
                            self.done.eq(1),
                        ]
                    with m.Else():
                        m.d.sync += [board.op.eq(PlyBoardOp.LOAD), board.start.eq(1)]
                        m.next = "LOAD"
            with m.State("LOAD"):
                with m.If(board.done):
                    m.d.sync += iteration.eq(1)
                    m.next = "ITERATE"
            with m.State("ITERATE"):  # board at ply 0
                enter_node(0, -INFINITY, INFINITY)
                m.d.sync += first_pending.eq(have_result)
                m.next = "NEXT"
            with m.State("NEXT"):  # pick the next candidate of the node at the board's ply
                with m.If(~first_pending & ~movegen.valid):
                    m.d.sync += value.eq(Mux(best_here == -INFINITY, 0, best_here))
                    m.next = "RETURN"
                with m.Elif(~first_pending & skip_first):
                    set_at(cursor, movegen.index + 1)
                with m.Elif((self.nodes == budget) | (self.cycles >= cycle_budget)):
                    m.next = "ABORT"
                with m.Else():
                    set_at(move, candidate)
                    with m.If(~first_pending):
                        set_at(cursor, movegen.index + 1)
                    m.d.sync += [
                        first_pending.eq(0),
                        board.op.eq(PlyBoardOp.PLAY),
                        board.start.eq(1),
                    ]
                    m.next = "PLAY"
            with m.State("PLAY"):
                with m.If(board.done):
                    with m.If(board.verdict != Verdict.LEGAL):
                        m.next = "NEXT"
                    with m.Else():
                        m.d.sync += self.nodes.eq(self.nodes + 1)
                        with m.If((ply == 1) & ~have_first):  # a root move was played
                            m.d.sync += [have_first.eq(1), first_move.eq(move[0])]
                        # board.ply is now p + 1; the mover was the side to move at ply p.
                        with m.If(mover_won | other_won):
                            m.d.sync += value.eq(Mux(mover_won, win_score, -win_score))
                            m.next = "UNDO"
                        with m.Elif(~horizon):
                            enter_node(ply, -parent_beta, -parent_alpha)
                            m.next = "NEXT"
                        with m.Elif(evaluation.ready):
                            score_horizon()
                        with m.Else():
                            m.next = "EVALUATE"
            with m.State("EVALUATE"):  # the evaluation outlasted the win detection
                with m.If(evaluation.ready):
                    score_horizon()
            with m.State("UNDO"):  # take back the move of the board's ply, then score it
                m.d.sync += [board.op.eq(PlyBoardOp.UNDO), board.start.eq(1)]
                m.next = "UNDO_WAIT"
            with m.State("UNDO_WAIT"):
                with m.If(board.done):
                    m.next = "UPDATE"
            with m.State("UPDATE"):  # ``value`` is the score of move_here at the board's ply
                with m.If(value > best_here):
                    set_at(best, value)
                    with m.If(ply == 0):
                        m.d.sync += root_move.eq(move_here)
                with m.If(value > alpha_here):
                    set_at(alpha, value)
                    with m.If(value >= beta_here):
                        m.d.sync += value.eq(Mux(value > best_here, value, best_here))
                        set_at(killer, move_here)
                        set_at(killer_valid, 1)
                        m.next = "RETURN"
                    with m.Else():
                        m.next = "NEXT"
                with m.Else():
                    m.next = "NEXT"
            with m.State("RETURN"):  # the node at the board's ply is done; its score is value
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
                    m.d.sync += value.eq(-value)
                    m.next = "UNDO"
            with m.State("ABORT"):  # the budget is spent: back to ply 0
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
                    m.d.sync += [board.op.eq(PlyBoardOp.UNDO), board.start.eq(1)]
                    m.next = "ABORT_WAIT"
            with m.State("ABORT_WAIT"):
                with m.If(board.done):
                    m.next = "ABORT"
            with m.State("FINISH"):
                m.d.sync += [
                    self.found.eq(have_result),
                    self.x.eq(result[SYMBOL_BITS : SYMBOL_BITS + xb]),
                    self.y.eq(result[SYMBOL_BITS + xb :]),
                    self.symbol.eq(result[:SYMBOL_BITS]),
                    self.score.eq(result_score),
                    self.busy.eq(0),
                    self.done.eq(1),
                ]
                m.next = "IDLE"
        return m
