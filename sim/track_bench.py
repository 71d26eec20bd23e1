"""Figures of the block-RAM board in clocks (not tests): per tile, per move, per searched node.

``python -m trax_fpga.sim.track_bench [--torus 64] [--positions 12] [--budget 20000]``

Prints one line per figure, as ``<name>: <value> <unit> (<board or model>, <conditions>)``:

- the rules core (:class:`~trax_fpga.hdl.track_rules.TrackRules`, Verilator) over every move of
  the human games: clocks per placed tile (the move's clocks over its tiles, all moves), clocks
  per whole move (placement, forced plays and wins: mean and worst);
- the search (:class:`~trax_fpga.hdl.track_search.TrackSearch`) on mid-game positions of the
  human games: clocks per searched node (mean over the searches), and what that is at the
  ULX3S's 25 MHz clock;
- the place-and-route figures of the complete player on the block-RAM board, where
  ``make bitstream`` left a report in ``build/``.
"""

from __future__ import annotations

import argparse
import json
import pathlib
import statistics

from ..host.notation import Move
from ..host.tiles import Colour
from .rules_driver import RtlRules
from .search_bench import RECORDS, positions
from .track_driver import TrackSearchSim

__all__ = ["main"]

BUILD = pathlib.Path(__file__).resolve().parent.parent / "build"


def figure(name: str, value, unit: str, where: str) -> None:
    print(f"{name}: {value} {unit} ({where})", flush=True)


def human_games() -> list[list[str]]:
    games = []
    for line in RECORDS.read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            games.append(line.split("|")[-1].split())
    return games


def rules_figures(torus: int) -> None:
    per_move, tiles, cycles = [], 0, 0
    with RtlRules((torus, torus), "verilator", core="track") as rules:
        for moves in human_games():
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


def search_figures(torus: int, count: int, budget: int, depth: int) -> None:
    per_node, nodes, depths = [], 0, []
    with TrackSearchSim((torus, torus), "verilator", max_depth=depth) as engine:
        for position in positions(count, torus):
            engine.new_game()
            for turn in position.turns:
                engine.play(turn.move)
            got = engine.search(int(position.turn is Colour.WHITE), budget)
            per_node.append(got.cycles / got.nodes)
            nodes += got.nodes
            depths.append(got.depth)
    where = (
        f"TrackSearch {torus}x{torus}, Verilator, {len(per_node)} human-game positions, "
        f"budget {budget} nodes, depth <= {depth}"
    )
    mean = statistics.fmean(per_node)
    figure("track search, clocks per node", f"{mean:.1f}", "clocks", where)
    figure("track search, nodes per second at 25 MHz", f"{25e6 / mean / 1e6:.2f}", "M", where)
    figure(
        "track search, depth completed (mean)", f"{statistics.fmean(depths):.1f}", "plies", where
    )


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


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--torus", type=int, default=64, help="torus size (default 64)")
    parser.add_argument("--positions", type=int, default=12, help="search positions (default 12)")
    parser.add_argument(
        "--budget", type=int, default=20000, help="nodes per search (default 20000)"
    )
    parser.add_argument("--depth", type=int, default=6, help="deepest iteration (default 6)")
    args = parser.parse_args(argv)
    rules_figures(args.torus)
    search_figures(args.torus, args.positions, args.budget, args.depth)
    build_figures()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
