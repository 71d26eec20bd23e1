"""Benchmarks of the reference engine (not tests): ``python -m trax_fpga.host.bench``.

Reports perft times from the empty board and the speed in leaf positions per second (every
legal move at the last depth is checked in full, forced plays included) and in moves played
per second (positions reached by ``play()`` at the inner depths).
"""

from __future__ import annotations

import argparse
import platform
import time

from .position import Position


def perft_bench(depth: int, repeat: int) -> None:
    position = Position()
    best = None
    for _ in range(repeat):
        start = time.perf_counter()
        leaves = position.perft(depth)
        elapsed = time.perf_counter() - start
        best = elapsed if best is None else min(best, elapsed)
    inner = sum(position.perft(d) for d in range(1, depth))
    print(f"perft {depth}: {leaves} leaves in {best:.2f} s (best of {repeat})")
    print(f"  {leaves / best:,.0f} leaf positions/s; {inner / best:,.0f} moves played/s")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--depth", type=int, default=5, help="perft depth (default 5)")
    parser.add_argument("--repeat", type=int, default=3, help="runs; the best is kept (default 3)")
    args = parser.parse_args(argv)
    print(f"reference engine, Python {platform.python_version()} on {platform.machine()}")
    perft_bench(args.depth, args.repeat)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
