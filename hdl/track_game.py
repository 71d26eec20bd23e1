"""A game and its search on one block-RAM board, as the protocol engine drives them.

:class:`TrackGame` puts the rules of a game (the side to move, the outcome, no move after a win)
on the game port of a :class:`~.track_search.TrackSearch`, and offers the protocol engine the
two interfaces it drives: ``rules`` (new game, play) and ``search`` (choose a move). There is
one board: the opponent's move and the board's own are played on it, and the search's root is
the game's position. A search that the protocol gives up (a command came) is unwound on the
board; a game command that comes meanwhile waits for it.
"""

import inspect

from amaranth import Module, Mux, Signal
from amaranth.lib import wiring
from amaranth.lib.wiring import In, Out

from .parallel_search import ParallelSearch
from .protocol import search_signature
from .track_board import (
    COMPACT_OPTIONS,
    TrackOp,
    box_eq,
    check_board_options,
    check_shapes,
    check_torus,
    move_eq,
    move_layout,
)
from .track_rules import Command, Outcome, end_turn, rules_signature
from .track_search import TrackSearch
from .types import Colour, Verdict

__all__ = ["TrackGame", "check_search_options"]


def check_search_options(options: dict) -> None:
    """ValueError unless ``options`` are :class:`TrackGame`'s (its keyword arguments, with
    ``board_options`` checked by :func:`~.track_board.check_board_options`): a player's
    ``search_options`` are checked when it is made, not when it is built."""
    known = set(inspect.signature(TrackGame).parameters) - {"columns", "rows"}
    for name in options:
        if name not in known:
            raise ValueError(
                f"no search option {name!r}; the options: {', '.join(sorted(known))}; "
                f"board_options: {', '.join(COMPACT_OPTIONS)}"
            )
    check_board_options(options.get("board_options") or {})
    if options.get("shapes") is not None:
        check_shapes(options["shapes"])
        if options.get("evaluation") is False:
            raise ValueError("the tracks' shapes weigh the evaluation: shapes need it")


class TrackGame(wiring.Component):
    """The rules and the search of a game on a C x R block-RAM torus.

    Parameters
    ----------
    columns, rows : int
        The torus (powers of two, at least 8).
    max_depth : int
        The search's deepest iteration.
    evaluation : bool
        The search scores its horizon from the tracks (the default) or is a mate searcher
        (smaller: for the parts where the evaluation does not fit).
    engines : int
        Search engines, each with its own board (:class:`~.parallel_search.ParallelSearch`);
        1 (the default) is the single :class:`~.track_search.TrackSearch`, or with
        ``shared_table`` a :class:`~.parallel_search.ParallelSearch` of one engine.
    pv_plies : int
        With more than one engine: how deep the previous best's line is split (see
        :class:`~.parallel_search.ParallelSearch`; 1, the default, the node below it).
    board_options : dict
        Every engine's :class:`~.track_board.TrackBoard` options (area for clocks, for the
        small parts: ``serial_writes``, ...; none by default).
    move_table : int
        Every engine's table of best moves (its entries, a power of two; 0, the default:
        none; see :class:`~.track_search.TrackSearch`).
    shared_table : bool
        With ``move_table``: one table outside the engines, for all of them (see
        :class:`~.parallel_search.ParallelSearch`), whose answers each engine registers on
        arrival; with one engine too, so that no path runs from the table's read through the
        search's decision into the board (a clock or two more a probe, the same search node for
        node: the one-engine player with its own table failed its 25 MHz, 22.6 to 24.4 MHz).
    table_scores : bool
        With ``move_table``: the tables hold the nodes' values too, and settle nodes (see
        :class:`~.track_search.TrackSearch`).
    attack_cut, newest_first : bool
        A move that leaves the opponent an attack is lost, with no search below it; the
        candidates from the newest cell of the frontier list (see
        :class:`~.track_search.TrackSearch`).
    shapes : tuple or None
        With ``evaluation``: every engine scores by the tracks' shapes, weighed by the table
        ``(mine, theirs, constant)`` (see :class:`~.track_search.TrackSearch`); None (the
        default): by their loop potential.
    threads : int
        2: two engines on each engine's logic (``engines`` even; see
        :class:`~.parallel_search.ParallelSearch`): the design runs at half the clock, and so
        must the logic around it (``phase``). 1 (the default): an engine a logic.
    retime : bool
        With ``threads=2``: the engines' logic cut in two stages for the ECP5 (see
        :class:`~.parallel_search.ParallelSearch`).

    Members
    -------
    rules : In(rules_signature(C, R))
        As :class:`~.track_rules.TrackRules` answers it: ``NEW_GAME`` and ``PLAY`` (torus cells),
        the verdict, the outcome, the box. A ``cmd_valid`` pulse is kept until it is served.
    search : In(search_signature(C, R))
        Choose a move for the side to move (a torus cell and a symbol); ``rearm`` restarts the
        clock budget (``cycle_budget``, which the player sets by the search's ``kind``).
    abort : In(1)
        Give up the search in progress (see :class:`~.track_search.TrackSearch`).
    budget, cycle_budget : In(32)
        The search's budgets.
    turn : Out(Colour)
    overflow : Out(1)
        Sticky until ``NEW_GAME``: a move was refused because the game outgrew the torus.
    nodes, cycles : Out(32)
        Of the last search.
    depth : Out(8)
        The deepest iteration the last search completed.
    phase : Out(1)
        With ``threads=2``: 1 in the clocks that the ``sync`` domain runs in (every other one).
    """

    def __init__(
        self,
        columns: int,
        rows: int,
        max_depth: int = 3,
        *,
        evaluation: bool = True,
        engines: int = 1,
        pv_plies: int = 1,
        board_options: dict | None = None,
        move_table: int = 0,
        shared_table: bool = False,
        table_scores: bool = False,
        attack_cut: bool = False,
        newest_first: bool = False,
        shapes=None,
        threads: int = 1,
        retime: bool = False,
    ):
        self.columns, self.rows = check_torus(columns, rows)
        if not isinstance(engines, int) or isinstance(engines, bool) or engines < 1:
            raise ValueError(f"engines must be a positive integer, not {engines!r}")
        if threads not in (1, 2):
            raise ValueError(f"threads must be 1 or 2, not {threads!r}")
        if threads == 2 and engines % 2:
            raise ValueError(f"two threads a logic need an even number of engines, not {engines}")
        self.threads = threads
        if retime and threads != 2:
            raise ValueError("retiming takes two threads a logic (threads=2)")
        self.retime = bool(retime)
        self.board_options = dict(board_options or {})
        check_board_options(self.board_options)
        self.max_depth = max_depth
        self.evaluation = evaluation
        self.engines = engines
        self.pv_plies = pv_plies
        self.move_table = move_table
        self.shared_table = shared_table
        self.table_scores = table_scores
        self.order = {"attack_cut": attack_cut, "newest_first": newest_first}
        if shapes is not None:
            shapes = check_shapes(shapes)
            if not evaluation:
                raise ValueError("the tracks' shapes weigh the evaluation: shapes need it")
        self.shapes = shapes
        super().__init__(
            {
                "rules": In(rules_signature(columns, rows)),
                "search": In(search_signature(columns, rows)),
                "abort": In(1),
                "budget": In(32),
                "cycle_budget": In(32),
                "turn": Out(Colour, init=Colour.WHITE),
                "overflow": Out(1),
                "nodes": Out(32),
                "cycles": Out(32),
                "depth": Out(8),
                **({"phase": Out(1)} if threads == 2 else {}),
            }
        )

    def elaborate(self, platform):
        m = Module()
        if self.engines == 1 and not self.shared_table and self.threads == 1:
            core = TrackSearch(
                self.columns,
                self.rows,
                self.max_depth,
                evaluation=self.evaluation,
                board_options=self.board_options,
                move_table=self.move_table,
                table_scores=self.table_scores,
                shapes=self.shapes,
                **self.order,
            )
        else:
            # The table is the boards' option: it reaches every engine's board with theirs.
            board_options = dict(self.board_options)
            if self.shapes is not None:
                board_options["shapes"] = self.shapes
            core = ParallelSearch(
                self.columns,
                self.rows,
                self.max_depth,
                engines=self.engines,
                evaluation=self.evaluation,
                pv_plies=self.pv_plies,
                move_table=self.move_table,
                shared_table=self.shared_table,
                table_scores=self.table_scores,
                board_options=board_options,
                threads=self.threads,
                retime=self.retime,
                **self.order,
            )
        m.submodules.core = core
        if self.threads == 2:
            m.d.comb += self.phase.eq(core.phase)
        rules, search = self.rules, self.search

        # The search's side of it.
        m.d.comb += [
            core.start.eq(search.start),
            core.abort.eq(self.abort),
            core.turn.eq(self.turn),
            core.budget.eq(self.budget),
            core.cycle_budget.eq(self.cycle_budget),
            core.rearm.eq(search.rearm),
            search.busy.eq(core.busy),
            search.done.eq(core.done),
            search.found.eq(core.found),
            *move_eq(search.move, core.move),
            self.nodes.eq(core.nodes),
            self.cycles.eq(core.cycles),
            self.depth.eq(core.depth),
            self.overflow.eq(core.overflow),
            *box_eq(rules.box, core.game.box),
        ]

        # The rules' side: a command waits while the search (or its unwinding) holds the board.
        pending = Signal()
        command = Signal(Command)
        move = Signal(move_layout(self.columns, self.rows))
        with m.If(rules.cmd_valid):
            m.d.sync += [
                pending.eq(1),
                rules.busy.eq(1),
                command.eq(rules.cmd),
                *move_eq(move, rules.move),
            ]
        m.d.comb += [
            *move_eq(core.game.move, move),
            core.game.op.eq(Mux(command == Command.NEW_GAME, TrackOp.NEW_GAME, TrackOp.PLAY)),
        ]

        m.d.sync += rules.done.eq(0)

        def finish(verdict):
            m.d.sync += [rules.verdict.eq(verdict), rules.done.eq(1), rules.busy.eq(0)]

        with m.FSM(name="game_fsm"):
            with m.State("IDLE"):
                with m.If(pending & ~core.busy & ~core.game.busy):
                    m.d.sync += [pending.eq(0), rules.busy.eq(1)]
                    with m.If(command == Command.NEW_GAME):
                        m.d.comb += core.game.start.eq(1)
                        m.d.sync += [self.turn.eq(Colour.WHITE), rules.outcome.eq(Outcome.NONE)]
                        m.next = "NEW_GAME"
                    with m.Elif(rules.outcome != Outcome.NONE):
                        finish(Verdict.GAME_OVER)
                    with m.Else():
                        m.d.comb += core.game.start.eq(1)
                        m.next = "PLAY"
            with m.State("NEW_GAME"):
                with m.If(core.game.done):
                    finish(Verdict.LEGAL)
                    m.next = "IDLE"
            with m.State("PLAY"):
                with m.If(core.game.done):
                    with m.If(core.game.verdict == Verdict.LEGAL):
                        end_turn(m, self.turn, rules.outcome, core)
                    finish(core.game.verdict)
                    m.next = "IDLE"
        return m
