"""Figures of the block-RAM board in clocks (not tests): per tile, per move, per searched node,
per perft leaf.

``python -m trax_fpga.sim.track_bench [--torus 64] [--positions 12] [--budget 20000]
[--perft 5] [--engines 1,2,4,6,7,8] [--parallel-positions 4] [--parallel-depths 4,5] [--pv-plies 1]
[--move-table 0] [--shared-table] [--table-scores] [--attack-cut] [--newest-first]
[--records FILE]``

Prints one line per figure, as ``<name>: <value> <unit> (<board or model>, <conditions>)``:

- the rules core (:class:`~trax_fpga.hdl.track_rules.TrackRules`, Verilator) over every move of
  the human games: clocks per placed tile (the move's clocks over its tiles, all moves), clocks
  per whole move (placement, forced plays and wins: mean and worst);
- the search (:class:`~trax_fpga.hdl.track_search.TrackSearch`) on mid-game positions of the
  human games: clocks per searched node (mean over the searches), and what that is at the
  ULX3S's 25 MHz clock;
- with ``--move-table N``, the search with a table of N best moves (docs/hash-moves.md) against
  the same search without: the clocks and nodes to complete depth 4 and 5 (no node limit), the
  mean over the parallel figures' positions; and the many-engine figures with such a table in
  every engine;
- the many-engine search (:class:`~trax_fpga.hdl.parallel_search.ParallelSearch`, docs/parallel.md)
  for each number of engines: the clocks to complete depth 4 and 5 (no node limit), the nodes
  per clock, and the nodes per second at 25 MHz and at the routed clock of the ULX3S player
  with that many engines, where its build report is in ``build/``;
- with ``--attack-cut`` and ``--newest-first``, every search above with the attack cut and the
  candidates from the newest cell of the frontier list (:class:`~trax_fpga.hdl.track_search.
  TrackSearch`'s options of those names);
- hardware perft (:class:`~trax_fpga.hdl.track_perft.TrackPerft`) from the empty board: the
  count and its clocks;
- the place-and-route figures of the complete player on the block-RAM board, where
  ``make bitstream`` left a report in ``build/``.
"""

from __future__ import annotations

import argparse
import json
import pathlib
import statistics

from ..boards.build import add_board_option_argument, checkout_commit
from ..host.notation import Move
from ..host.search_bench import figure
from ..host.search_bench import midgame_positions as positions
from ..host.tiles import Colour
from .perft_driver import rtl_perft
from .rules_driver import RtlRules
from .track_driver import TrackSearchSim

__all__ = ["main"]

BUILD = pathlib.Path(__file__).resolve().parent.parent / "build"

#: The human games, as a checkout holds them (``--records`` names another file): relative to the
#: working directory, since an installed package has no tests/ folder.
RECORDS = pathlib.Path("tests/data/human_games.txt")
UNLIMITED = 2**32 - 1


def _records(records: pathlib.Path) -> list[str]:
    if not records.exists():
        raise SystemExit(
            f"error: {records} not found (give --records FILE, or run from a checkout)"
        )
    return records.read_text().splitlines()


def human_games(records: pathlib.Path = RECORDS) -> list[list[str]]:
    games = []
    for line in _records(records):
        if line.strip() and not line.startswith("#"):
            games.append(line.split("|")[-1].split())
    return games


def rules_figures(torus: int, records: pathlib.Path) -> None:
    per_move, tiles, cycles = [], 0, 0
    with RtlRules((torus, torus), "verilator") as rules:
        for moves in human_games(records):
            rules.new_game()
            for text in moves:
                result = rules.play(Move.parse(text))
                if not result.legal:
                    break
                per_move.append(result.cycles)
                tiles += result.tiles
                cycles += result.cycles
    where = f"TrackRules {torus}x{torus}, Verilator, {len(per_move)} moves of the human games"
    figure("track rules, clocks per placed tile", f"{cycles / tiles:.2f}", "clocks", where)
    figure(
        "track rules, clocks per move (mean)", f"{statistics.fmean(per_move):.2f}", "clocks", where
    )
    figure("track rules, clocks per move (worst)", max(per_move), "clocks", where)


def one_engine_searches(
    torus: int,
    count: int,
    records: pathlib.Path,
    depth: int,
    budget: int,
    move_table: int = 0,
    scores: bool = False,
    order: dict | None = None,
):
    """The answers of one simulated search engine (to ``depth``, within ``budget`` nodes; with a
    table of ``move_table`` best moves and, with ``scores``, their values; ``order``: the
    ``attack_cut`` and ``newest_first`` options) on the positions, in order; each search starts
    once the last one's table is emptied, as in a player."""
    with TrackSearchSim(
        (torus, torus),
        "verilator",
        max_depth=depth,
        move_table=move_table,
        table_scores=scores and bool(move_table),
        **(order or {}),
    ) as engine:
        for position in positions(count, torus, records):
            engine.new_game()
            for turn in position.turns:
                engine.play(turn.move)
            engine.idle(move_table)  # (the last search's table is emptied meanwhile)
            yield engine.search(int(position.turn is Colour.WHITE), budget)


def search_figures(
    torus: int,
    count: int,
    budget: int,
    depth: int,
    records: pathlib.Path,
    move_table: int = 0,
    scores: bool = False,
    order: dict | None = None,
) -> None:
    """One engine's clocks per node, nodes a second at 25 MHz and depth completed within
    ``budget`` nodes, the mean over the positions; with ``move_table``, the engine has a table
    of that many best moves (and, with ``scores``, their values), emptied before each search;
    ``order``: the ``attack_cut`` and ``newest_first`` options."""
    per_node, nodes, depths = [], 0, []
    searches = one_engine_searches(torus, count, records, depth, budget, move_table, scores, order)
    for got in searches:
        per_node.append(got.cycles / got.nodes)
        nodes += got.nodes
        depths.append(got.depth)
    held = " and their values" if scores else ""
    where = (
        f"TrackSearch {torus}x{torus}, Verilator, {len(per_node)} human-game positions, "
        f"budget {budget} nodes, depth <= {depth}"
        + (f", a table of {move_table} best moves{held}" if move_table else "")
        + order_label(order)
    )
    mean = statistics.fmean(per_node)
    figure("track search, clocks per node", f"{mean:.1f}", "clocks", where)
    figure("track search, nodes per second at 25 MHz", f"{25e6 / mean / 1e6:.2f}", "M", where)
    figure(
        "track search, depth completed (mean)", f"{statistics.fmean(depths):.1f}", "plies", where
    )


def table_figures(
    torus: int,
    count: int,
    entries: int,
    depths: list[int],
    records: pathlib.Path,
    scores: bool = False,
    order: dict | None = None,
) -> None:
    """The one-engine search with a table of ``entries`` best moves (with ``scores``, and their
    values) against the same search without: the clocks and nodes to complete each depth (no
    node limit), the mean over the positions. Each search starts with its table emptied (the
    last one's emptying passes first, as it does while a player's serial line carries the
    moves). ``order``: both searches' ``attack_cut`` and ``newest_first`` options."""
    cycles_at: dict[tuple[int, int], float] = {}
    for table in (0, entries):
        per_depth: dict[int, list[tuple[int, int]]] = {d: [] for d in depths}
        for d in depths:  # (one build per depth: the search's deepest iteration)
            searches = one_engine_searches(
                torus, count, records, d, UNLIMITED, table, scores, order
            )
            for got in searches:
                per_depth[d].append((got.cycles, got.nodes))
        held = " and their values" if scores else ""
        name = f"a table of {table} best moves{held}" if table else "no table"
        where = (
            f"TrackSearch {torus}x{torus}, {name}, Verilator, {count} human-game positions"
            + order_label(order)
        )
        for d in depths:
            cycles_at[table, d] = statistics.fmean(c for c, _ in per_depth[d])
            nodes = statistics.fmean(n for _, n in per_depth[d])
            gain = ""
            if table:
                gain = f", {cycles_at[0, d] / cycles_at[table, d]:.2f}x sooner than without"
            figure(
                f"track search, {name}, clocks to depth {d} (mean)",
                f"{cycles_at[table, d]:,.0f}",
                "clocks",
                f"{where}, {nodes:,.0f} nodes{gain}",
            )


def parallel_figures(
    torus: int,
    count: int,
    engines: list[int],
    depths: list[int],
    records: pathlib.Path,
    pv_plies: int = 1,
    move_table: int = 0,
    shared_table: bool = False,
    table_scores: bool = False,
    order: dict | None = None,
) -> None:
    """The many-engine search (docs/parallel.md) for each number of engines: the clocks to
    complete each depth (a search limited to it, no node limit; the mean over the positions),
    and the nodes per clock over those searches (the split's walks to a ticket are no nodes).
    ``pv_plies``: how deep the previous best's line is split (the recursive PV split);
    ``move_table``: every engine's table of best moves (0: none), or with ``shared_table`` the
    entries of the one table of them all; ``table_scores``: the table holds the nodes' values;
    ``order``: the ``attack_cut`` and ``newest_first`` options."""
    cycles_at: dict[tuple[int, int], float] = {}
    for n in engines:
        per_depth: dict[int, list[int]] = {d: [] for d in depths}
        nodes = cycles = 0
        with TrackSearchSim(
            (torus, torus),
            "verilator",
            max_depth=max(depths),
            engines=n,
            pv_plies=pv_plies,
            move_table=move_table,
            shared_table=shared_table,
            table_scores=table_scores,
            **(order or {}),
        ) as unit:
            for position in positions(count, torus, records):
                for d in depths:
                    unit.new_game()
                    for turn in position.turns:
                        unit.play(turn.move)
                    unit.idle(move_table)  # (the last search's table is emptied meanwhile)
                    got = unit.search(int(position.turn is Colour.WHITE), UNLIMITED, depth=d)
                    per_depth[d].append(got.cycles)
                    nodes += got.nodes
                    cycles += got.cycles
        where = (
            f"ParallelSearch {torus}x{torus}, {n} engine{'s' if n > 1 else ''}, Verilator, "
            f"{count} human-game positions, no node limit"
            + (f", the previous best's line split to ply {pv_plies}" if pv_plies > 1 else "")
            + (table_label(move_table, shared_table, table_scores) if move_table else "")
            + order_label(order)
        )
        for d in depths:
            cycles_at[n, d] = statistics.fmean(per_depth[d])
            speedup = ""
            if (engines[0], d) in cycles_at and n != engines[0]:
                speedup = f", {cycles_at[engines[0], d] / cycles_at[n, d]:.2f}x {engines[0]}'s"
            figure(
                f"parallel search, {n} engines, clocks to depth {d} (mean)",
                f"{cycles_at[n, d]:,.0f}",
                "clocks",
                where + speedup,
            )
        figure(f"parallel search, {n} engines, nodes per clock", f"{nodes / cycles:.3f}", "", where)
        figure(
            f"parallel search, {n} engines, nodes per second at 25 MHz",
            f"{nodes / cycles * 25:.2f}",
            "M",
            where,
        )
        fmax = routed_fmax(n, move_table, shared_table, table_scores)
        if fmax is not None:
            mhz, label = fmax
            figure(
                f"parallel search, {n} engines, nodes per second at the routed clock",
                f"{nodes / cycles * mhz:.2f}",
                "M",
                f"{where}, {label}",
            )


def order_label(order: dict | None) -> str:
    """The conditions' words for the ``attack_cut`` and ``newest_first`` options."""
    words = [
        text
        for name, text in (("attack_cut", "the attack cut"), ("newest_first", "newest first"))
        if (order or {}).get(name)
    ]
    options = (order or {}).get("board_options") or {}
    words += [f"{name}={value}" for name, value in options.items()]
    return ", " + " and ".join(words) if words else ""


def table_label(entries: int, shared: bool, scores: bool = False) -> str:
    """How a figure's conditions name the table of best moves."""
    held = " and their values" if scores else ""
    if shared:
        return f", one table of {entries} best moves{held} for all engines"
    return f", a table of {entries} best moves{held} an engine"


def routed_fmax(
    engines: int, move_table: int = 0, shared_table: bool = False, table_scores: bool = False
) -> tuple[float, str] | None:
    """The routed Fmax of the ULX3S player with ``engines`` engines and that table of best moves,
    from the newest report that ``make bitstream`` (or ``boards.build --engines``) left in
    ``build/``, and its label, which says so when the report is of another commit than the
    clocks measured here."""
    newest_first = sorted(BUILD.glob("ulx3s_85f*/report.json"), key=lambda p: -p.stat().st_mtime)
    for report in newest_first:
        data = json.loads(report.read_text())
        options = data.get("player_options") or {}
        if data.get("top") != "player":
            continue
        search = options.get("search_options", {})
        table = (
            search.get("move_table", 0),
            bool(search.get("shared_table", False)),
            bool(search.get("table_scores", False)),
        )
        wanted = (move_table, bool(shared_table), bool(table_scores))
        if search.get("engines", 1) == engines and table == wanted:
            routed = data.get("commit", "?")
            here = checkout_commit()
            where = f"ULX3S {data['fmax_mhz']:.1f} MHz routed at commit {routed}"
            if routed.split("+")[0] != here.split("+")[0]:
                where += f", clocks of commit {here}: the report is of another commit"
            return data["fmax_mhz"], where
    return None


def perft_figures(depth: int) -> None:
    lines = list(rtl_perft(depth))
    count = int(lines[depth - 1].split()[1])
    cycles = int(lines[-1].split()[1])
    where = f"TrackPerft 16x16, Verilator, from the empty board, depths 1 to {depth}"
    figure(f"hardware perft {depth}", f"{count:,}", "move sequences", where)
    figure(f"hardware perft 1 to {depth}", f"{cycles:,}", "clocks", where)
    figure(f"hardware perft 1 to {depth} at 25 MHz", f"{cycles / 25e6 * 1e3:.0f}", "ms", where)


def build_figures() -> None:
    for report in sorted(BUILD.glob("*/report.json")):
        data = json.loads(report.read_text())
        options = data.get("player_options") or {}
        if data.get("top") != "player" or options.get("board") != "track":
            continue
        size = "x".join(map(str, data["window"]))
        where = f"{data['board']}, complete player, torus {size}, commit {data.get('commit', '?')}"
        figure("player logic", data["logic"]["used"], "LUT4/LC", where)
        figure("player flip-flops", data.get("flip_flops", "?"), "FF", where)
        figure("player block RAM", data["bram"]["used"], "blocks", where)
        figure("player Fmax routed", f"{data['fmax_mhz']:.1f}", "MHz", where)


def _numbers(text: str) -> list[int]:
    try:
        return [int(part) for part in text.split(",") if part.strip()]
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected numbers like 1,2,4, not {text!r}") from None


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--torus", type=int, default=64, help="torus size (default 64)")
    parser.add_argument(
        "--positions", type=int, default=12, help="search positions (default 12; 0: none)"
    )
    parser.add_argument(
        "--budget", type=int, default=20000, help="nodes per search (default 20000)"
    )
    parser.add_argument("--depth", type=int, default=6, help="deepest iteration (default 6)")
    parser.add_argument(
        "--perft", type=int, default=5, help="hardware perft depth (default 5; 0: none)"
    )
    parser.add_argument(
        "--engines",
        type=_numbers,
        default=[1, 2, 4, 6, 7, 8],
        help="the parallel search's engine counts (default 1,2,4,6,7,8; empty: none)",
    )
    parser.add_argument(
        "--parallel-positions",
        type=int,
        default=4,
        help="positions of the parallel search's figures (default 4)",
    )
    parser.add_argument(
        "--parallel-depths",
        type=_numbers,
        default=[4, 5],
        help="the depths it is timed to (default 4,5)",
    )
    parser.add_argument(
        "--pv-plies",
        type=int,
        default=1,
        help="split the previous best's line to this ply (default 1: the node below it)",
    )
    parser.add_argument(
        "--move-table",
        type=int,
        default=0,
        help="a table of best moves of this many entries: its figures for one engine, and in "
        "every engine of the many-engine figures (default 0: none)",
    )
    parser.add_argument(
        "--shared-table",
        action="store_true",
        help="with --move-table: the many-engine figures with one table for all the engines",
    )
    parser.add_argument(
        "--table-scores",
        action="store_true",
        help="with --move-table: the nodes' values in the table too",
    )
    parser.add_argument(
        "--attack-cut",
        action="store_true",
        help="every search with the attack cut (a move that leaves the opponent an attack is "
        "lost, with no search below it)",
    )
    parser.add_argument(
        "--newest-first",
        action="store_true",
        help="every search's candidates from the newest cell of the frontier list",
    )
    add_board_option_argument(parser, "on the board of every search")
    parser.add_argument(
        "--records",
        type=pathlib.Path,
        default=RECORDS,
        help=f"the human games (default {RECORDS}, in a checkout)",
    )
    args = parser.parse_args(argv)
    if args.shared_table and not args.move_table:
        parser.error("--shared-table needs --move-table N")
    if args.table_scores and not args.move_table:
        parser.error("--table-scores needs --move-table N")
    order = {"attack_cut": args.attack_cut, "newest_first": args.newest_first}
    if args.board_option:
        order["board_options"] = dict(args.board_option)
    rules_figures(args.torus, args.records)
    if args.positions:
        search_figures(
            args.torus,
            args.positions,
            args.budget,
            args.depth,
            args.records,
            args.move_table,
            args.table_scores,
            order,
        )
    if args.move_table and args.parallel_positions:
        table_figures(
            args.torus,
            args.parallel_positions,
            args.move_table,
            args.parallel_depths,
            args.records,
            args.table_scores,
            order,
        )
    if args.engines and args.parallel_positions:
        parallel_figures(
            args.torus,
            args.parallel_positions,
            args.engines,
            args.parallel_depths,
            args.records,
            args.pv_plies,
            args.move_table,
            args.shared_table,
            args.table_scores,
            order,
        )
    if args.perft:
        perft_figures(args.perft)
    build_figures()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
