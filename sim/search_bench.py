"""Benchmarks of the gateware search and perft in clock cycles (not tests).

``python -m trax_fpga.sim.search_bench [--window N] [--budget NODES] [--positions K]``
``python -m trax_fpga.sim.search_bench --think 1 --depth 8`` (a clock budget: 1 s of board time)

Runs the search (Verilator) on positions from the human games and reports cycles per searched
node (mean and worst per search), the depth each search completed, and what that means at a
board clock: nodes per second and the time of the answer. Also hardware perft 5 in cycles.
"""

from __future__ import annotations

import argparse
import pathlib
import statistics

from ..host.judge import game_moves
from ..host.position import Position
from .perft_driver import rtl_perft
from .search_driver import RtlSearch

#: The human games, as a checkout holds them (``--records`` names another file): relative to the
#: working directory, since an installed package has no tests/ folder.
RECORDS = pathlib.Path("tests/data/human_games.txt")


def positions(count: int, window: int, records: pathlib.Path = RECORDS) -> list[Position]:
    """Mid-game positions of the human games (every 4th ply) that fit the window."""
    found = []
    if not records.exists():
        raise SystemExit(
            f"error: {records} not found (give --records FILE, or run from a checkout)"
        )
    for line in records.read_text().splitlines():
        moves = game_moves(line)
        if not moves:
            continue
        position = Position()
        for i, move in enumerate(moves[:-1]):
            position.play(move)
            box = position.box
            if box.width + 2 > window or box.height + 2 > window:
                break
            if i % 4 == 3 and i >= 7:
                found.append(position.copy())
        if len(found) >= count:
            break
    return found[:count]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--window", type=int, default=20, help="window size (default 20)")
    parser.add_argument("--depth", type=int, default=3, help="deepest iteration (default 3)")
    parser.add_argument("--budget", type=int, default=20000, help="node budget (default 20000)")
    parser.add_argument("--positions", type=int, default=20, help="positions (default 20)")
    parser.add_argument("--clock", type=float, default=25e6, help="board clock in Hz (25 MHz)")
    parser.add_argument(
        "--think",
        type=float,
        metavar="SECONDS",
        help="a clock budget of SECONDS at --clock instead of the node budget",
    )
    parser.add_argument("--perft", action="store_true", help="also hardware perft 1..5")
    parser.add_argument(
        "--records", type=pathlib.Path, default=RECORDS, help=f"game records ({RECORDS})"
    )
    args = parser.parse_args(argv)

    rates, depths, times = [], [], []
    with RtlSearch(args.window, args.window, args.depth) as unit:
        for position in positions(args.positions, args.window, args.records):
            if args.think:
                result = unit.search(position, 2**32 - 1, round(args.think * args.clock))
            else:
                result = unit.search(position, args.budget)
            if result.nodes:
                rates.append(result.cycles / result.nodes)
            depths.append(result.depth)
            times.append(result.cycles / args.clock)
    budget = f"{args.think:g} s" if args.think else f"{args.budget} nodes"
    print(
        f"search: window {args.window}x{args.window}, depth <= {args.depth}, "
        f"budget {budget}, {len(depths)} human-game positions"
    )
    print(
        f"  cycles per node: mean {statistics.mean(rates):.1f}, "
        f"worst search {max(rates):.1f}, best {min(rates):.1f}"
    )
    print(f"  depth completed: mean {statistics.mean(depths):.2f}, min {min(depths)}")
    print(
        f"  at {args.clock / 1e6:g} MHz: {args.clock / statistics.mean(rates):,.0f} nodes/s; "
        f"answer time mean {statistics.mean(times) * 1e3:.1f} ms, worst {max(times) * 1e3:.1f} ms"
    )
    if args.perft:
        lines = list(rtl_perft(5))
        print("hardware perft:", ", ".join(lines))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
