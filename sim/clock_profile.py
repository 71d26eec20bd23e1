"""Where the search's clocks go: per searched node, the clocks in each state of the board and of
the search (a benchmark, not a test).

``python -m trax_fpga.sim.clock_profile [--torus 64] [--positions 4] [--budget 1500] [--depth 6]
[--records FILE] [--engines N] [--move-table E [--shared-table] [--table-scores]] [--attack-cut]
[--newest-first]``

Runs :class:`~trax_fpga.hdl.track_search.TrackSearch` in the Amaranth simulator on the mid-game
positions of the human games (those of ``track_bench``'s figures) and samples, every clock of every
search, the state of the board's FSM (``track_fsm``) and the search's (``search_fsm``). Prints, one
figure a line (``<name>: <value> <unit> (<conditions>)``), the clocks per node, then the clocks per
node spent in each board state and in each search state. The states' names are the FSMs' own, so the
figures say which step of a tile or a command the clocks go to (docs/architecture.md, "Clocks per
node").

With ``--engines N``, a :class:`~trax_fpga.hdl.parallel_search.ParallelSearch` of N engines (the
split at ply 1) searches each position to ``--depth`` with no node limit, as the parallel figures
of ``track_bench`` do, and every engine's states are sampled: the figures are then engine-clocks
per node and each state's share of all the engines' clocks, so the waits of the split (``TICKET``,
``MERGE``, ``SPLIT_WAIT``) and of the shared table (``PROBE``) show beside the search's work
(docs/parallel.md). It is slow: the Amaranth simulator samples every engine's FSMs every clock,
and 7 engines on a 64 x 64 torus did not finish 2 positions at depth 4 in two hours on a
loaded 2-core machine (sixteenth session), nor on a 32 x 32 torus 1 position at depth 4 in 47
minutes of CPU (seventeenth); try 2 or 3 engines and depth 3 first.
"""

from __future__ import annotations

import argparse
import collections
import contextlib
import pathlib

from amaranth.hdl import Fragment, _dsl

from ..hdl.parallel_search import ParallelSearch
from ..hdl.track_search import TrackSearch
from ..host.search_bench import figure, midgame_positions
from ..host.tiles import Colour
from .rules_driver import AmaranthSimBackend
from .track_bench import RECORDS, UNLIMITED, order_label, table_label
from .track_driver import TrackSearchSim

__all__ = ["main", "profile", "recording_fsms"]


@contextlib.contextmanager
def recording_fsms():
    """While elaborating inside this, every ``m.FSM()`` is recorded: yields a dict, name to the
    FSMs of that name (their ``state`` signal and ``decoding``), in the order they were
    elaborated, filled as the design is elaborated."""
    fsms = {}
    original = _dsl.Module.FSM

    @contextlib.contextmanager
    def fsm(self, *args, **kwargs):
        with original(self, *args, **kwargs) as made:
            yield made
        fsms.setdefault(made._data["name"], []).append(made)

    _dsl.Module.FSM = fsm
    try:
        yield fsms
    finally:
        _dsl.Module.FSM = original


class _ProfiledBackend(AmaranthSimBackend):
    """The simulator backend of the drivers, with a testbench that counts the (search state,
    board state) pairs of every clock in which the search is busy, one count an engine."""

    def __init__(self, component) -> None:
        with recording_fsms() as fsms:
            fragment = Fragment.get(component, None)
        self.board_fsms, self.search_fsms = fsms["track_fsm"], fsms["search_fsm"]
        if len(self.board_fsms) != len(self.search_fsms):
            raise ValueError("a search FSM without its board's, or a board without a search")
        self.counts: collections.Counter = collections.Counter()
        super().__init__(component, design=fragment, background=[self._sample])

    async def _sample(self, ctx) -> None:
        engines = list(zip(self.search_fsms, self.board_fsms, strict=True))
        async for _ in ctx.tick():
            if ctx.get(self.component.busy):
                for search, board in engines:
                    pair = (
                        search.decoding[ctx.get(search.state)],
                        board.decoding[ctx.get(board.state)],
                    )
                    self.counts[pair] += 1


def profile(
    torus: int,
    positions: int,
    budget: int,
    depth: int,
    records: pathlib.Path,
    *,
    engines: int | None = None,
    move_table: int = 0,
    shared_table: bool = False,
    table_scores: bool = False,
    order: dict | None = None,
) -> tuple[list, collections.Counter]:
    """Search ``positions`` mid-game positions with ``budget`` nodes each (with ``engines``,
    a parallel search to ``depth`` with no node limit): the searches' results and the clocks
    spent in each (search state, board state) pair while the search was busy, summed over the
    engines (``table_scores``: the table holds the nodes' values too; ``order``: the
    ``attack_cut`` and ``newest_first`` options)."""
    order = order or {}
    if engines is None:
        component = TrackSearch(
            torus, torus, depth, move_table=move_table, table_scores=table_scores, **order
        )
    else:
        component = ParallelSearch(
            torus,
            torus,
            depth,
            engines=engines,
            move_table=move_table,
            shared_table=shared_table,
            table_scores=table_scores,
            **order,
        )
        budget = UNLIMITED
    backend = _ProfiledBackend(component)
    results = []
    with TrackSearchSim((torus, torus), backend, component=component) as engine:
        for position in midgame_positions(positions, torus, records):
            engine.new_game()
            for turn in position.turns:
                engine.play(turn.move)
            engine.idle(move_table)  # (the last search's table is emptied meanwhile)
            depth_limit = {} if engines is None else {"depth": depth}
            results.append(engine.search(int(position.turn is Colour.WHITE), budget, **depth_limit))
    return results, backend.counts


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--torus", type=int, default=64, help="torus size (default 64)")
    parser.add_argument("--positions", type=int, default=4, help="positions (default 4)")
    parser.add_argument("--budget", type=int, default=1500, help="nodes a search (default 1500)")
    parser.add_argument("--depth", type=int, default=6, help="deepest iteration (default 6)")
    parser.add_argument(
        "--records", type=pathlib.Path, default=RECORDS, help=f"the games (default {RECORDS})"
    )
    parser.add_argument(
        "--engines",
        type=int,
        help="a parallel search of this many engines, to --depth with no node limit",
    )
    parser.add_argument(
        "--move-table", type=int, default=0, help="entries of the table of best moves (0: none)"
    )
    parser.add_argument("--shared-table", action="store_true", help="one table for all the engines")
    parser.add_argument(
        "--table-scores", action="store_true", help="the nodes' values in the table too"
    )
    parser.add_argument(
        "--attack-cut", action="store_true", help="the attack cut (as the ULX3S board file)"
    )
    parser.add_argument(
        "--newest-first", action="store_true", help="candidates newest first (as the ULX3S's)"
    )
    args = parser.parse_args(argv)
    if args.shared_table and not (args.engines and args.move_table):
        parser.error("--shared-table needs --engines and --move-table")
    if args.table_scores and not args.move_table:
        parser.error("--table-scores needs --move-table")
    results, counts = profile(
        args.torus,
        args.positions,
        args.budget,
        args.depth,
        args.records,
        engines=args.engines,
        move_table=args.move_table,
        shared_table=args.shared_table,
        table_scores=args.table_scores,
        order={"attack_cut": args.attack_cut, "newest_first": args.newest_first},
    )
    nodes = sum(got.nodes for got in results)
    cycles = sum(got.cycles for got in results)
    table = ""
    if args.move_table:
        table = table_label(args.move_table, args.shared_table, args.table_scores)
    table += order_label({"attack_cut": args.attack_cut, "newest_first": args.newest_first})
    if args.engines is None:
        where = (
            f"TrackSearch {args.torus}x{args.torus}, Amaranth sim, {len(results)} human-game "
            f"positions, budget {args.budget} nodes, depth <= {args.depth}{table}"
        )
        unit = "clocks per node"
    else:
        where = (
            f"ParallelSearch of {args.engines} engines{table}, {args.torus}x"
            f"{args.torus}, Amaranth sim, {len(results)} human-game positions, to depth "
            f"{args.depth}"
        )
        unit = "engine-clocks per node"
    figure("clock profile, clocks per node", f"{cycles / nodes:.2f}", "clocks", where)
    engine_clocks = sum(counts.values())
    if args.engines is not None:
        figure("clock profile, engine-clocks per node", f"{engine_clocks / nodes:.2f}", unit, where)
    for title, index in (("board", 1), ("search", 0)):
        totals: collections.Counter = collections.Counter()
        for pair, count in counts.items():
            totals[pair[index]] += count
        for name, count in totals.most_common():
            share = ""
            if args.engines is not None:
                share = f", {100 * count / engine_clocks:.1f} % of the engines' clocks"
            figure(
                f"clock profile, {title} state {name}", f"{count / nodes:.2f}", unit, where + share
            )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
