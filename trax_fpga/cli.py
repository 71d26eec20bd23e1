"""The ``trax`` command: the reference engine, the simulated gateware and the board from a shell.

Every subcommand is a function ``cmd_<name>(args) -> int``; errors of the engine (``TraxError``)
are caught once in :func:`main` and printed as ``trax: error: ...`` with exit status 1; Ctrl-C
exits with 130.
"""

from __future__ import annotations

import argparse
import contextlib
import datetime
import json
import logging
import os
import shlex
import signal
import subprocess
import sys
import sysconfig
import time
from pathlib import Path

from . import __version__
from .host.engine import (
    BOARD_THINK_TIME,
    BOARD_TICK_CLOCKS,
    BOARD_TICKS,
    DEFAULT_ATTACK_CUT,
    DEFAULT_MODEL_DEPTH,
    DEFAULT_MODEL_ENGINES,
    DEFAULT_MODEL_PV_PLIES,
    DEFAULT_MODEL_TABLE,
    DEFAULT_NEWEST_FIRST,
    DEFAULT_NODES,
    DEFAULT_TORUS,
    EngineSession,
    ModelChooser,
    MoveChooser,
    board_model,
)
from .host.errors import TraxError
from .host.gamelog import RESULTS, SeriesLog
from .host.judge import judge_game, judge_lines
from .host.players import (
    EnginePlayer,
    FreshProtocolPlayer,
    HumanPlayer,
    Player,
    ProtocolPlayer,
)
from .host.position import Position, Variant
from .host.referee import CONTEST_TIME_LIMIT, Referee, run_series
from .host.render import ASCII, UNICODE, render
from .host.svg import board_svg
from .host.tiles import Colour
from .host.transport import (
    DisconnectedError,
    LinkError,
    MalformedLineError,
    ProcessTransport,
    SerialTransport,
    StdioTransport,
    TcpTransport,
)
from .status import Status

__all__ = ["main"]

log = logging.getLogger("trax")

BACKENDS = ("ref", "rtl")


def _variant(text: str) -> Variant:
    try:
        return Variant(text)
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"unknown variant {text!r} (choose 'unlimited' or '8x8')"
        ) from None


def _seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number of seconds, not {text!r}") from None
    if not value >= 0:
        raise argparse.ArgumentTypeError(f"expected a non-negative time, not {text}")
    return value


def _host_port(text: str) -> tuple[str, int]:
    host, _, port = text.rpartition(":")
    if not host or not port.isdigit():
        raise argparse.ArgumentTypeError(f"expected HOST:PORT, not {text!r}")
    return host, int(port)


def _positive(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, not {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected a positive number, not {value}")
    return value


def _torus(text: str) -> int:
    value = _positive(text)
    if value < 8 or value & (value - 1):
        raise argparse.ArgumentTypeError(f"expected a power of two of at least 8, not {value}")
    return value


def _table_entries(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, not {text!r}") from None
    if value != 0 and (value < 2 or value & (value - 1)):
        raise argparse.ArgumentTypeError(f"expected 0 or a power of two from 2, not {value}")
    return value


def _add_board_search_options(p: argparse.ArgumentParser, which: str) -> None:
    """The board's search options (model or rtl): its table of best moves (``--move-table``,
    ``--table-scores``) and its order (``--attack-cut``, ``--newest-first``)."""
    p.add_argument(
        "--move-table",
        type=_table_entries,
        default=None,
        metavar="N",
        help=f"{which}: the table of N best moves, shared by the engines (a power of two; 0: "
        f"none; default {DEFAULT_MODEL_TABLE}, the ULX3S board file's; tori of at most 64)",
    )
    p.add_argument(
        "--table-scores",
        action=argparse.BooleanOptionalAction,
        default=None,
        help=f"{which}: the table holds the nodes' values too and settles nodes from them "
        "(default: yes, as the ULX3S board file's)",
    )
    p.add_argument(
        "--attack-cut",
        action=argparse.BooleanOptionalAction,
        default=None,
        help=f"{which}: a move that leaves the opponent a loop attack is lost at once, with no "
        "search below it (default: yes, as the ULX3S board file's)",
    )
    p.add_argument(
        "--newest-first",
        action=argparse.BooleanOptionalAction,
        default=None,
        help=f"{which}: try the candidates from the newest cell of the frontier list (default: "
        "yes, as the ULX3S board file's)",
    )
    p.add_argument(
        "--shapes",
        metavar="WEIGHTS",
        default=None,
        help=f"{which}: the evaluation weighs the tracks' shapes (host/trackeval.py) by these "
        "weights: 'board' (the board files' table, host/shape_weights_tracks.json clamped to 8 "
        "bits; the default, as the ULX3S board file's), 'none' (the tracks' kinds, the loop "
        "potential) or a FILE (JSON, the shapes layout with only the tracks and the constant: "
        "python -m trax_fpga.host.shapefit fit --groups tracks)",
    )


def _board_search_options(args: argparse.Namespace) -> dict:
    """The board's search options of ``args`` with the board file's defaults, as keyword
    arguments of the model and of the simulated search: the table (``--move-table``,
    ``--table-scores``), the order (``--attack-cut``, ``--newest-first``) and the evaluation
    (``--shapes``)."""
    entries = DEFAULT_MODEL_TABLE if args.move_table is None else args.move_table
    scores = args.table_scores is not False and entries > 0
    cut = DEFAULT_ATTACK_CUT if args.attack_cut is None else args.attack_cut
    newest = DEFAULT_NEWEST_FIRST if args.newest_first is None else args.newest_first
    return {
        "move_table": entries,
        "table_scores": scores,
        "attack_cut": cut,
        "newest_first": newest,
        "shapes": _shape_table(args),
    }


@contextlib.contextmanager
def _simulation():
    """A failed Verilator build or simulation as a one-line error (the rest is in its log)."""
    from .sim.verilator import BuildError, SimulationError

    try:
        yield
    except (BuildError, SimulationError) as error:
        lines = str(error).strip().splitlines()
        first = lines[0] if lines else type(error).__name__
        raise TraxError(f"the simulation failed: {first}") from None


def cmd_perft(args: argparse.Namespace) -> int:
    """Count legal move sequences from the empty board (or after ``--moves``)."""
    if args.backend == "rtl":
        if args.variant is not Variant.UNLIMITED:
            raise TraxError(
                "the gateware plays unlimited Trax only: drop --variant or use --backend ref"
            )
        from .sim.perft_driver import DEFAULT_TORUS, rtl_perft  # the gateware's, simulated
        from .sim.verilator import reporting

        with _simulation(), Status("counting with the gateware's perft (simulated)") as status:
            with reporting(status.say):
                for line in rtl_perft(args.depth, args.moves, args.torus or DEFAULT_TORUS):
                    status.out(line)
        return 0
    position = Position.from_moves(args.moves, args.variant)
    for depth in range(1, args.depth + 1):
        start = time.perf_counter()
        count = position.perft(depth)
        log.info("perft %d: %.2f s", depth, time.perf_counter() - start)
        print(f"{depth} {count}", flush=True)
    return 0


def cmd_judge(args: argparse.Namespace) -> int:
    """Judge games read from files or standard input, one verdict line per game line.

    With ``--backend rtl`` every verdict comes from the gateware rules core, simulated on
    Verilator: the board in block RAM on a 64 x 64 torus (``--torus``). A game that outgrows the
    torus is not judged: its line reads ``window-overflow``, and the exit status is 1.
    """
    overflowed = []
    if args.backend == "rtl":
        from .sim.rules_driver import RtlRules, WindowOverflowError
        from .sim.rules_driver import judge_game as rtl_judge_game

        if args.variant is not Variant.UNLIMITED:
            raise TraxError(
                "the gateware plays unlimited Trax only: drop --variant or use --backend ref"
            )
        from .sim.verilator import reporting

        with _simulation(), Status() as status, reporting(status.say):
            rules = RtlRules((args.torus, args.torus), "verilator")

        def judge(moves: list[str]) -> str:
            try:
                return rtl_judge_game(moves, rules=rules)
            except WindowOverflowError:
                overflowed.append(moves)
                return "window-overflow"
    else:
        rules = None

        def judge(moves: list[str]) -> str:
            return judge_game(moves, args.variant)

    status = Status("judging with the gateware rules core (simulated)" if rules else None)
    try:
        with _simulation(), status:
            if not args.files:
                stdin = getattr(sys.stdin, "buffer", sys.stdin)  # bytes, unless replaced
                _judge_stream(stdin, "standard input", judge, status)
            for name in args.files:
                try:
                    with open(name, "rb") as stream:
                        _judge_stream(stream, name, judge, status)
                except OSError as error:
                    raise TraxError(f"cannot read {name}: {error.strerror}") from None
    finally:
        if rules is not None:
            rules.close()
    if overflowed:
        print(
            f"trax: error: {len(overflowed)} game(s) outgrew the {args.torus}x{args.torus} "
            "torus and were not judged (use a larger --torus)",
            file=sys.stderr,
        )
        return 1
    return 0


def _judge_stream(stream, name: str, judge, status: Status) -> None:
    """Print the verdict of every game line of the binary ``stream``; a line that is not text
    (not UTF-8, or with a NUL byte) ends it with a one-line error that names the line."""

    def lines():
        for number, raw in enumerate(stream, 1):
            try:
                line = raw if isinstance(raw, str) else raw.decode("utf-8")
                if "\0" in line:
                    raise ValueError("a NUL byte")
            except ValueError:  # UnicodeDecodeError is one
                raise TraxError(
                    f"{name}: line {number} is not text (not UTF-8); "
                    "trax judge reads game records, one game per line"
                ) from None
            yield line

    for verdict in judge_lines(lines(), judge):
        status.out(verdict)


def cmd_show(args: argparse.Namespace) -> int:
    """Print the position after the given moves."""
    position = Position.from_moves(args.moves, args.variant)
    if args.svg is not None:
        picture = board_svg(position)
        if args.svg == "-":
            sys.stdout.write(picture)
            return 0
        try:
            Path(args.svg).write_text(picture, encoding="utf-8")
        except OSError as error:
            raise TraxError(f"cannot write {args.svg}: {error.strerror}") from None
        return 0
    style = ASCII if args.ascii else UNICODE
    print(render(position, style, colour=args.colour))
    if position.outcome:
        print(f"game over: {position.outcome}")
    else:
        print(f"{position.turn.word} to move")
    return 0


def _read_weights(path: str, what: str):
    """The JSON in the weights file ``path`` (``what`` names them in the error)."""
    try:
        return json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, ValueError) as error:
        raise TraxError(f"cannot read the {what} {path}: {error}") from None


def _research_weights(path: str | None) -> list[int] | None:
    """The fitted evaluation's weights of ``--research-weights`` (a JSON list), or None."""
    if path is None:
        return None
    weights = _read_weights(path, "research weights")
    if not isinstance(weights, list) or not all(isinstance(w, int) for w in weights):
        raise TraxError(f"{path}: the research weights are a JSON list of integers")
    from .host.fastmodel import BOARD_WEIGHTS
    from .host.shapes import SHAPE_FEATURES

    if len(weights) not in (len(BOARD_WEIGHTS), SHAPE_FEATURES):
        raise TraxError(
            f"{path}: {len(weights)} research weights; the fitted evaluation's are "
            f"{len(BOARD_WEIGHTS)} (--research 8), the shapes evaluation's {SHAPE_FEATURES} "
            "(--research 128)"
        )
    return weights


def _shape_table(args: argparse.Namespace):
    """The tracks' shapes of ``--shapes`` as a :class:`~.host.trackeval.ShapeTable`, or None:
    ``board`` (the default, unless ``--research`` or ``--research-weights`` sets an evaluation of
    its own) the board files' table, ``none`` none, else a file (a JSON list in the shapes layout
    weighing only the tracks and the constant)."""
    from .host.fastmodel import RESEARCH_FITTED, RESEARCH_SHAPES
    from .host.shapes import chosen_table

    path = args.shapes
    research = getattr(args, "research", 0) & (RESEARCH_FITTED | RESEARCH_SHAPES)
    if research or getattr(args, "research_weights", None) is not None:
        if path not in (None, "none"):
            raise TraxError(
                "--shapes: the research evaluation (--research 8 or 128, --research-weights) "
                "has weights of its own"
            )
        return None
    try:
        return chosen_table(path or "board")
    except ValueError as error:
        raise TraxError(str(error)) from None


def _verify(text: str) -> tuple[int, int, int]:
    """``--verify NODES:DEPTH:RESEARCH``: NODES and DEPTH positive, RESEARCH flags (0 or more)."""
    try:
        verify = tuple(int(part) for part in text.split(":"))
    except ValueError:
        verify = ()
    if len(verify) != 3 or min(verify[:2]) < 1 or verify[2] < 0:
        raise argparse.ArgumentTypeError(
            f"NODES:DEPTH:RESEARCH (NODES and DEPTH positive), not {text!r}"
        )
    return verify


def _chooser(args: argparse.Namespace) -> MoveChooser | ModelChooser:
    if getattr(args, "search", "ref") == "model":
        return ModelChooser(
            nodes=args.nodes,
            depth=args.depth,
            torus=args.torus,
            engines=args.engines,
            pv_plies=args.pv_plies or DEFAULT_MODEL_PV_PLIES,
            helpers=getattr(args, "helpers", False),
            research=args.research,
            research_weights=_research_weights(args.research_weights),
            verify=args.verify,
            ticks=getattr(args, "ticks", None),
            ponder=getattr(args, "ponder", None),
            **_board_search_options(args),
        )
    return MoveChooser(nodes=args.nodes, time=args.time, depth=getattr(args, "depth", None))


def cmd_engine(args: argparse.Namespace) -> int:
    """Play as the reference engine in the contest protocol on stdin/stdout (or over TCP).

    ``--search ref`` (the default) plays the software player; ``--search model`` plays the
    gateware search through its bit-exact model (the block-RAM board's search on a 64x64 torus
    with its table of best moves and their values, its search order and its evaluation by the
    tracks' shapes, as the ULX3S board file's; ``--move-table``, ``--table-scores``,
    ``--attack-cut``, ``--newest-first``, ``--shapes``), move
    for move the board's at the same nodes and depth, except that ``--seed`` varies the first
    plies of a game among near-equal moves; ``--engines N`` plays the model of N engines
    splitting the search (docs/parallel.md), ``--nodes`` per engine.

    Answers -T with the team code, -W with a first move, -B with nothing, each opponent move with
    a move; ignores empty lines; any other line (noise, an illegal or untimely move, a move with
    spaces around it) is reported on standard error and ignored. Ends at the end of its input
    (which may be a file or /dev/null); a closed standard input or output ends it with one line
    on standard error and exit status 1.
    """
    session = EngineSession(_chooser(args), team=args.team, seed=args.seed)
    try:
        if args.connect:
            transport = TcpTransport.connect(*args.connect, max_line=64)
        else:
            transport = StdioTransport(max_line=64)
    except DisconnectedError as error:
        print(f"trax: {error}; the engine stops", file=sys.stderr)
        return 1
    with transport:
        while True:
            try:
                line = transport.read_line()
            except MalformedLineError as error:
                log.warning("ignored %s", error)
                continue
            except DisconnectedError:
                return 0
            answer = session.handle(line)
            if answer is not None:
                try:
                    transport.send_line(answer)
                except DisconnectedError:
                    _silence_stdout()
                    print("trax: the output was closed; the engine stops", file=sys.stderr)
                    return 1


def _silence_stdout() -> None:
    """Point standard output at /dev/null, so that Python's exit does not flush into a closed
    pipe (and print a second error)."""
    with contextlib.suppress(OSError, AttributeError, ValueError):
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, sys.stdout.fileno())
        os.close(null)


def _position_to_search(args: argparse.Namespace) -> Position:
    """The position after ``args.moves``, which must not be over (``trax best``)."""
    position = Position.from_moves(args.moves, args.variant)
    if position.outcome is not None:
        raise TraxError(f"the game is over ({position.outcome})")
    return position


def cmd_best(args: argparse.Namespace) -> int:
    """Print the search's analysis of a position; the last line is the chosen move."""
    if args.backend == "rtl":
        return _best_rtl(args)
    if args.backend == "model":
        return _best_model(args)
    from .host.search import search

    position = _position_to_search(args)
    start = time.perf_counter()
    result = search(position, args.nodes)
    elapsed = time.perf_counter() - start
    print(f"{position.turn.word} to move after {position.ply} moves")
    print(f"depth {result.depth}, {result.nodes} nodes in {elapsed:.2f} s, score {result.score}")
    print("principal variation: " + " ".join(str(m) for m in result.pv))
    if result.plies_to_win is not None:
        print(f"proved win in {result.plies_to_win} plies")
    elif result.plies_to_loss is not None:
        print(f"proved loss in {result.plies_to_loss} plies")
    print(result.move)
    return 0


def _best_model(args: argparse.Namespace) -> int:
    """``trax best --backend model``: the gateware's search, run by its software model (compiled
    when a C compiler is at hand, :mod:`.host.fastmodel`: node for node the same)."""
    position = _position_to_search(args)
    torus, depth, options = args.torus, args.depth, _board_search_options(args)
    start = time.perf_counter()
    result, which = _model_search(position, torus, args.nodes, depth, options, args)
    elapsed = time.perf_counter() - start
    print(f"{position.turn.word} to move after {position.ply} moves")
    where = f"{torus}x{torus} torus, depth <= {depth}"
    if args.engines > 1:
        where += f", {args.engines} engines"
    print(
        f"gateware search model ({where}{_search_label(options)}; {which}): "
        f"depth {result.depth}, {result.nodes} nodes in {elapsed:.2f} s, score {result.score}"
    )
    if result.move is None:
        raise TraxError("no legal move")
    print(result.move)
    return 0


def _model_search(position, torus: int, nodes: int, depth: int, options: dict, args):
    """The search's model on ``position`` with ``args.engines`` and ``args.pv_plies``: its
    result and which model ran it (the compiled one when it can, else the Python one)."""
    from .host.fastmodel import model_search

    result, compiled = model_search(
        *(position, torus, nodes, depth, args.engines), pv_plies=args.pv_plies, **options
    )
    python = "host/hwsearch.py" if args.engines == 1 else "host/hwparallel.py"
    return result, "compiled, host/fastmodel.c" if compiled else python


def _best_rtl(args: argparse.Namespace) -> int:
    """``trax best --backend rtl``: the gateware search (simulated) and its software model."""
    from .sim.search_driver import RtlSearch
    from .sim.verilator import reporting

    position = _position_to_search(args)
    torus, depth, options = args.torus, args.depth, _board_search_options(args)
    with (
        _simulation(),
        Status("searching with the gateware (simulated)") as status,
        reporting(status.say),
    ):
        engines = args.engines if args.engines > 1 else None
        with RtlSearch(torus, depth, engines, args.pv_plies, **options) as unit:
            result = unit.search(position, args.nodes)
    model, which = _model_search(position, torus, args.nodes, depth, options, args)
    print(f"{position.turn.word} to move after {position.ply} moves")
    where = f"{torus}x{torus} torus in block RAM, depth <= {depth}"
    if engines:
        where += f", {engines} engines"
    where += _search_label(options)
    print(
        f"gateware search ({where}): depth "
        f"{result.depth}, {result.nodes} nodes in {result.cycles} cycles, score {result.score}"
    )
    if engines and model.depth != result.depth:
        # Where a budget stops the split depends on its timing, which the model's virtual
        # time does not follow clock for clock (docs/parallel.md).
        agree = (
            f"completed depth {model.depth} (score {model.score}) in its virtual time: the node "
            "budget stopped the split elsewhere"
        )
    elif engines:  # the split's nodes and, among equal scores, its move depend on its timing
        agree = "agrees on the score" if model.score == result.score else "DIFFERS in score"
    else:
        agree = "agrees" if (model.move, model.nodes) == (result.move, result.nodes) else "DIFFERS"
    print(f"software model ({which}) {agree}: {model.move}, {model.nodes} nodes")
    if result.move is None:
        raise TraxError("the gateware found no legal move")
    print(result.move)
    return 0


def _search_label(options: dict) -> str:
    """``, a table of N best moves[ and their values]`` (nothing without a table), then
    ``, the attack cut`` and ``, newest first`` for the search order's options that are on, and
    ``, the tracks' shapes`` for the evaluation by them."""
    label = ""
    if options["move_table"]:
        values = " and their values" if options["table_scores"] else ""
        label = f", a table of {options['move_table']} best moves{values}"
    if options["attack_cut"]:
        label += ", the attack cut"
    if options["newest_first"]:
        label += ", newest first"
    if options["shapes"] is not None:
        label += ", the tracks' shapes"
    return label


class _AddPlayer(argparse.Action):
    """Append ``KIND:VALUE`` to ``args.players``, keeping the command line's order."""

    def __init__(self, option_strings, dest, kind: str, **kwargs) -> None:
        self.kind = kind
        super().__init__(option_strings, dest, **kwargs)

    def __call__(self, parser, namespace, values, option_string=None) -> None:
        players = list(getattr(namespace, self.dest) or [])
        items = values if isinstance(values, list) else [values]
        players.extend(item if self.kind == "spec" else f"{self.kind}:{item}" for item in items)
        setattr(namespace, self.dest, players)


#: Seconds a program may take to start and answer its first -T (not charged to its moves): a
#: simulated board (``trax sim``) builds its Verilator model on its first run, for minutes.
STARTUP_TIMEOUT = 600.0
#: The kind of player for a program that plays one game per process (started afresh each game).
PER_GAME = "engine-per-game"
PLAYER_KINDS = (
    f"ref, model, human, engine:CMD, {PER_GAME}:CMD, port:DEV, tcp:HOST:PORT, listen:PORT"
)
#: A time limit an answer below which the ``model`` player cannot play: its moves take seconds.
MODEL_TIME_LIMIT = 60.0
#: The kinds of player that `trax match --concurrency` can start once for each pair.
REPEATABLE_KINDS = ("ref", "engine", PER_GAME)
#: The options of `trax match` that shape its games, recorded with a series (and their defaults).
MATCH_OPTIONS = {
    "games": 2,
    "time_limit": 1.0,
    "team_codes": False,
    "max_plies": None,
    "nodes": None,
    "time": None,
    "seed": None,
}
#: Games in a row a player may lose its link (crash, closed output) before the match stops.
MAX_FAULTS = 3


def open_player(
    spec: str, args: argparse.Namespace, label: str = "A", log_dir: Path | None = None
) -> Player:
    """The player a match spec names (see ``PLAYER_KINDS``); ``label`` (A or B) names its
    standard error file in ``log_dir``. A program is restarted after its faults."""
    kind, _, value = spec.partition(":")
    startup = getattr(args, "startup", STARTUP_TIMEOUT)
    limit = getattr(args, "time_limit", 0) or 1.0
    if kind == "ref" and not value:
        return EnginePlayer(_chooser(args), name="ref")
    if kind == "model" and not value:
        return model_player()
    if kind == "human" and not value:
        return HumanPlayer()
    if kind in ("engine", PER_GAME) and value:
        seed = getattr(args, "seed", None)
        command = value.replace("{seed}", str(0 if seed is None else seed))
        verbose = getattr(args, "verbose", 0) > 0
        if log_dir is not None:
            stderr = log_dir / f"{label}.stderr"
        else:
            stderr = None if verbose else subprocess.DEVNULL

        def start() -> ProcessTransport:
            return ProcessTransport(command, stderr=stderr, echo=verbose)

        kind_of_player = FreshProtocolPlayer if kind == PER_GAME else ProtocolPlayer
        player = kind_of_player(
            start(), name=_program_name(command), settle=limit, restart=start, startup=startup
        )
        try:
            player.wait_ready(startup)
        except LinkError as error:
            player.close()
            raise TraxError(f"the program {value!r} did not answer -T: {error}") from None
        return player
    if kind == "port" and value:
        return ProtocolPlayer(
            SerialTransport(value, args.baud), name="board", settle=limit, startup=startup
        )
    if kind == "tcp" and value:
        try:
            host, port = _host_port(value)
        except argparse.ArgumentTypeError as error:
            raise TraxError(str(error)) from None

        def connect() -> TcpTransport:
            return TcpTransport.connect(host, port)

        return ProtocolPlayer(connect(), "tcp", settle=limit, restart=connect, startup=startup)
    if kind == "listen" and value.isdigit():

        def listen() -> TcpTransport:
            print(f"trax: waiting for a player to connect to port {value}", file=sys.stderr)
            return TcpTransport.listen(int(value), timeout=startup)

        return ProtocolPlayer(listen(), "tcp", settle=limit, restart=listen, startup=startup)
    raise TraxError(f"unknown player {spec!r} (expected one of: {PLAYER_KINDS})")


def model_player() -> EnginePlayer:
    """The ``model`` player: the ULX3S board file's player through its compiled model, at the
    board's think time (:func:`.host.engine.board_model`); refused without a C compiler (the
    Python model would take many minutes a move)."""
    from .host.fastmodel import available

    if not available():
        raise TraxError(
            "the model player needs the compiled model, and there is no C compiler here (cc, or "
            "$CC) to build it"
        )
    player = EnginePlayer(board_model(), name="model")
    player.notice = (
        f"The model plays the ULX3S board file's search ({DEFAULT_MODEL_ENGINES} engines on a "
        f"{DEFAULT_TORUS}x{DEFAULT_TORUS} torus, its table, order and evaluation), node for node "
        f"the gateware's, for a real board's {BOARD_THINK_TIME:g} s a move ({BOARD_TICKS:,} ticks "
        "of the model's clock): a real board's strength, in some seconds a move here."
    )
    return player


#: Programs that run another one (``nice -n -10 kizuna``), so that a player is named by what they
#: run: each with its options that take a value, and its operands before the program.
WRAPPERS = {
    "nice": (("-n",), 0),
    "env": ((), 0),
    "stdbuf": ((), 0),
    "taskset": ((), 1),
    "timeout": (("-s", "-k"), 1),
}


def _program_name(command: str) -> str:
    """A short name for a program: its file name (``trax`` for ``trax engine ...``, the script's
    for ``python script.py``, the program's for ``nice -n -10 program``)."""
    try:
        argv = shlex.split(command)
    except ValueError:
        argv = command.split()
    while argv and Path(argv[0]).name in WRAPPERS:
        name = Path(argv[0]).name
        with_value, operands = WRAPPERS[name]
        argv = argv[1:]
        while argv and (argv[0].startswith("-") or (name == "env" and "=" in argv[0])):
            argv = argv[2:] if argv[0] in with_value else argv[1:]
        argv = argv[operands:]
    if not argv:
        return "engine"
    if Path(argv[0]).name.startswith("python") and len(argv) > 1 and argv[1].endswith(".py"):
        return Path(argv[1]).name
    return Path(argv[0]).name


def _referee(args: argparse.Namespace) -> Referee:
    return Referee(
        time_limit=args.time_limit or None,
        ask_team=args.team_codes,
        variant=Variant.UNLIMITED,
        max_plies=args.max_plies,
    )


def _labels(a_spec: str, b_spec: str) -> tuple[str, str]:
    """The players' labels in tables and logs: their specs, told apart when they are equal."""
    if a_spec == b_spec:
        return f"{a_spec} (A)", f"{b_spec} (B)"
    return a_spec, b_spec


def _series(
    args,
    a: Player,
    b: Player,
    a_label: str,
    b_label: str,
    series_log,
    resume_hint: str = "",
    more_pairs: list[tuple[Player, Player]] | None = None,
) -> int:
    more_pairs = more_pairs or []
    if a.name == b.name:
        for pa, pb in [(a, b), *more_pairs]:
            pa.name, pb.name = f"{pa.name}1", f"{pb.name}2"
    limit = f"{args.time_limit:g} s per answer" if args.time_limit else "none"
    event = f"trax match {series_log.directory}" if series_log is not None else "trax match"

    def side(letter: str, label: str, player: Player) -> str:
        if isinstance(player, EnginePlayer):  # the in-process engine: its budget too
            return f"{letter} = {label} ({player.chooser.describe()} per move)"
        return f"{letter} = {label}"

    def header(number: int, a_colour: Colour) -> dict[str, str]:
        a_side, b_side = side("A", a_label, a), side("B", b_label, b)
        white, black = (a_side, b_side) if a_colour is Colour.WHITE else (b_side, a_side)
        now = datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d %H:%M:%S UTC")
        lines = {
            "event": event,
            "game": f"{number} of {args.games}",
            "date": now,
            "white": white,
            "black": black,
            "time control": limit,
        }
        if getattr(args, "seed", None) is not None:
            lines["seed"] = str(args.seed)
        return lines

    def report(text: str) -> None:
        print(text, flush=True)

    summary = run_series(
        a,
        b,
        args.games,
        _referee(args),
        series_log,
        a_label=a_label,
        b_label=b_label,
        seed=getattr(args, "seed", None),
        max_faults=MAX_FAULTS,
        header=header,
        report=report,
        more_pairs=more_pairs,
    )
    print(summary.table())
    if summary.complete:
        return 0
    if series_log is not None and not series_log.finished:
        series_log.discard()
        resume = "run the command again"
    else:
        resume = f"continue with: trax match --resume {resume_hint}" if resume_hint else ""
    if summary.interrupted:
        print(f"trax: interrupted; {summary.score_line()}", file=sys.stderr)
        if resume:
            print(f"trax: {resume}", file=sys.stderr)
        return 130
    print(
        f"trax: error: the series stopped early: {summary.stopped}"
        + (f"; {resume}" if resume else ""),
        file=sys.stderr,
    )
    return 1


def _match_settings(args: argparse.Namespace, recorded: dict | None, where: str) -> dict:
    """The options of a match: those given, else those the series was started with (when
    resuming), else the defaults. An option given that contradicts the recorded one is an error,
    except ``--games``, which may lengthen or shorten the series."""
    options = dict(MATCH_OPTIONS)
    old = (recorded or {}).get("options", {})
    options.update({key: old[key] for key in MATCH_OPTIONS if key in old})
    for key in MATCH_OPTIONS:
        given = getattr(args, key)
        if given is None:
            continue
        if recorded is not None and key != "games" and key in old and given != old[key]:
            option = "--" + key.replace("_", "-")
            raise TraxError(
                f"{option} {given} contradicts the series in {where}, started with "
                f"{old[key]}: drop it to continue the series as started"
            )
        options[key] = given
    if options["nodes"] is not None and options["time"] is not None:
        raise TraxError("give --nodes or --time, not both")
    return options


def cmd_match(args: argparse.Namespace) -> int:
    """Referee a series between two players, logging every game as it is played.

    Exit status: 0 when every game was played, 1 on an error or when the series stopped early
    (a player that cannot be restarted), 2 for bad arguments, 130 on Ctrl-C.
    """
    specs = list(args.players or [])
    log_dir = args.log_dir
    if isinstance(args.resume, str):
        log_dir = args.resume
    elif args.resume and not log_dir:
        raise TraxError("--resume needs the series' directory (--resume DIR)")
    recorded = None
    if args.resume:
        directory = Path(log_dir)
        if not (directory / RESULTS).exists():
            raise TraxError(f"no series to resume in {directory}")
        recorded = SeriesLog.read_settings(directory) or {}
        if not specs:
            specs = list(recorded.get("players") or SeriesLog.read_players(directory))
    if len(specs) != 2:
        raise TraxError(f"a match needs two players, not {len(specs)}: {specs} ({PLAYER_KINDS})")
    options = _match_settings(args, recorded, str(log_dir))
    for key, value in options.items():
        setattr(args, key, value)
    if "model" in specs and 0 < (args.time_limit or 0) < MODEL_TIME_LIMIT:
        raise TraxError(
            f"the model player takes seconds a move here (a real board's {BOARD_THINK_TIME:g} s "
            "of search, simulated): give --time-limit 0 (none), or at least "
            f"{MODEL_TIME_LIMIT:g}"
        )
    series_log = None
    if log_dir != "":
        if log_dir is None:
            log_dir = time.strftime("matches/%Y%m%d-%H%M%S")
        settings = {"players": specs, "options": options}
        series_log = SeriesLog(log_dir, specs[0], specs[1], args.resume, settings)
        if series_log.finished and len(series_log.finished) > args.games:
            raise TraxError(
                f"{log_dir} holds {len(series_log.finished)} finished games, more than --games"
            )
        series_log.save_settings({**series_log.settings, "players": specs, "options": options})
        print(f"trax: logging the games in {series_log.directory}", file=sys.stderr)
    concurrency = getattr(args, "concurrency", 1)
    if concurrency > 1:
        for spec in specs:
            if spec.partition(":")[0] not in REPEATABLE_KINDS:
                raise TraxError(
                    f"--concurrency {concurrency} plays several games at once, each with its own "
                    f"players: {spec!r} cannot be started more than once (only "
                    f"{', '.join(REPEATABLE_KINDS)} can)"
                )
    players: list[Player] = []
    previous = signal.getsignal(signal.SIGTERM)
    with contextlib.suppress(ValueError):  # SIGTERM ends the match as Ctrl-C does (main thread)
        signal.signal(signal.SIGTERM, _interrupt)
    started = False
    try:
        where = series_log and series_log.directory
        for copy in range(1, concurrency + 1):  # A2.stderr, B2.stderr for the second pair, ...
            suffix = str(copy) if copy > 1 else ""
            for label, spec in zip("AB", specs, strict=True):
                players.append(open_player(spec, args, label + suffix, where))
        started = True
        a_label, b_label = _labels(*specs)
        hint = str(series_log.directory) if series_log is not None else ""
        pairs = list(zip(players[2::2], players[3::2], strict=True))
        return _series(args, players[0], players[1], a_label, b_label, series_log, hint, pairs)
    finally:
        with contextlib.suppress(ValueError):
            signal.signal(signal.SIGTERM, previous)
        for player in players:
            player.close()
        if not started and series_log is not None:
            series_log.discard()


def _interrupt(signum, frame) -> None:
    raise KeyboardInterrupt


def board_player(port: str | None, baud: int, args: argparse.Namespace) -> Player:
    """The board to play: a real one on ``port``, else the simulated one on a pty.

    The simulated board (``trax sim``) has the real board's clock and search, with a search time
    that a simulation runs in about the contest's time (``--sim-think``; what this costs in
    strength is printed). It is built on first use (cached afterwards), and the answer time
    limit is lifted for it. If it cannot be built (no Verilator, or the gateware is incomplete),
    the reference engine plays instead, with a notice.
    """
    if port:
        return ProtocolPlayer(SerialTransport(port, baud), name="board")
    from .sim import board as simulated

    think = getattr(args, "sim_think", None)
    config = simulated.real_board_config(**({} if think is None else {"think": think}))
    try:
        with Status() as status:
            board = simulated.open_board_player(config, status=status.say, notice=status.note)
    except Exception as error:  # any failure to build or start: fall back, and say why
        print(
            f"trax: the simulated board cannot be started ({type(error).__name__}: "
            f"{str(error).splitlines()[0] if str(error) else ''}); "
            "you play the reference engine instead",
            file=sys.stderr,
        )
        return EnginePlayer(_chooser(args), name="ref")
    if args.time_limit:
        print("trax: no time limit for the simulated board (it runs slower than real time)",
              file=sys.stderr)  # fmt: skip
        args.time_limit = 0
    return board


def cmd_sim(args: argparse.Namespace) -> int:
    """Run the complete player in simulation (Verilator), its UART on stdin/stdout or a pty."""
    from .sim import board as simulated

    try:
        config = simulated.config_from(args)
        with _simulation(), Status() as status:
            simulated.build_board(config, log=status.say)  # then run() finds it built
        code = simulated.run(args)
    except ValueError as error:
        raise TraxError(str(error)) from None
    if code not in (0, 130):
        raise TraxError(f"the simulated board stopped with exit status {code}")
    return code


def opponent_player(spec: str, port: str | None, args: argparse.Namespace) -> Player:
    """The opponent of ``trax play`` and ``trax web``: ``board`` (a real one on ``port``, else
    the simulated one), or any player of a match but a person. The simulated board and the
    model think slower than a real board, so the answer time limit is lifted for them."""
    if spec in ("board", "sim"):
        return board_player(port, args.baud, args)
    if port:
        raise TraxError(f"--port is the board's: give it or --opponent {spec}, not both")
    if spec == "human":
        raise TraxError("the opponent is a program or a board, not 'human'")
    player = open_player(spec, args)
    if spec == "model":
        print(f"trax: {player.notice}", file=sys.stderr)
        if args.time_limit:
            print("trax: no time limit for the model (it runs slower than a real board)",
                  file=sys.stderr)  # fmt: skip
            args.time_limit = 0
    return player


def cmd_play(args: argparse.Namespace) -> int:
    """Play the board at the terminal (a real board with --port, else the simulated one), or
    another opponent (--opponent)."""
    board = opponent_player(args.opponent, args.port, args)
    human = HumanPlayer(opponent=board.name, opponent_search=lambda: board.last_search)
    series_log = SeriesLog(args.log_dir, "human", board.name) if args.log_dir else None
    try:
        if args.colour is Colour.WHITE:
            players = (human, board, "human", board.name)
        else:
            players = (board, human, board.name, "human")
        if args.games == 1:
            white, black = players[0], players[1]
            referee = _referee(args)
            open_log = None
            if series_log is not None:

                def open_log(w: str, b: str):
                    return series_log.game_log(1, w, b)

            record = referee.play_game(white, black, 1, open_log)
            if series_log is not None:
                series_log.record(record)
            return 0
        return _series(args, *players, series_log)
    finally:
        board.close()


def cmd_web(args: argparse.Namespace) -> int:
    """Serve the board in the browser: play the opponent, watch a match (--watch DIR), or
    replay a log (from the page). Prints the page's address and serves until Ctrl-C."""
    from .web.server import PlaySession, WatchSession, serve

    opponent = None
    if args.watch is not None:
        if not Path(args.watch).is_dir():
            raise TraxError(f"no match folder {args.watch} (trax match --log-dir DIR writes one)")
        session = WatchSession(args.watch)
    else:
        opponent = opponent_player(args.opponent, None, args)
        session = PlaySession(
            opponent,
            args.colour,
            time_limit=args.time_limit,
            notice=getattr(opponent, "notice", None),
        )

    def announce(url: str) -> None:
        print(f"trax: the board is at {url} (Ctrl-C to stop)", file=sys.stderr, flush=True)
        print(url, flush=True)

    try:
        serve(session, args.host, args.port, announce)
    except KeyboardInterrupt:
        print("trax: stopped", file=sys.stderr)
    finally:
        if opponent is not None:
            opponent.close()
    return 0


def _colour(text: str) -> Colour:
    try:
        return Colour[text.upper()]
    except KeyError:
        raise argparse.ArgumentTypeError(f"expected white or black, not {text!r}") from None


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="trax",
        description="An FPGA Trax player: reference engine, simulated gateware and board client.",
    )
    parser.add_argument("--version", action="version", version=f"trax-fpga {__version__}")
    parser.add_argument("-v", "--verbose", action="count", default=0, help="more logging")
    parser.add_argument("-q", "--quiet", action="count", default=0, help="less logging")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    def add(name: str, func, help: str) -> argparse.ArgumentParser:
        p = sub.add_parser(name, help=help, description=func.__doc__)
        p.set_defaults(func=func)
        return p

    def add_variant(p: argparse.ArgumentParser) -> None:
        p.add_argument(
            "--variant",
            type=_variant,
            default=Variant.UNLIMITED,
            metavar="{unlimited,8x8}",
            help="the game: unlimited (default; tournaments and contests) or the limited 8x8 game",
        )

    p = add("perft", cmd_perft, "count legal move sequences to a depth")
    p.add_argument("depth", type=_positive, help="the deepest depth to count")
    p.add_argument("--moves", nargs="*", default=[], help="start after these moves")
    p.add_argument(
        "--backend",
        choices=BACKENDS,
        default="ref",
        help="ref (Python) or rtl (the gateware's perft on the block-RAM board, simulated; "
        "depth <= 6 from a position, 7 from the empty board)",
    )
    p.add_argument(
        "--torus",
        type=_torus,
        default=None,
        help="rtl: the board's torus, a power of two (default 16: it holds every position "
        "of depth <= 7 from the empty board; 64 for positions from long games)",
    )
    add_variant(p)

    p = add("judge", cmd_judge, "judge recorded games")
    p.add_argument("files", nargs="*", help="record files (default: standard input)")
    p.add_argument(
        "--backend", choices=BACKENDS, default="ref", help="ref (Python) or rtl (gateware)"
    )
    p.add_argument(
        "--torus",
        type=_torus,
        default=64,
        help="rtl: the block-RAM board's torus, a power of two (default 64, the ULX3S's)",
    )
    add_variant(p)

    p = add("show", cmd_show, "print the position after some moves")
    p.add_argument("moves", nargs="*", help="moves in notation, e.g. @0+ B1/")
    p.add_argument("--ascii", action="store_true", help="the ASCII diagram of old e-mail games")
    p.add_argument("--colour", "--color", action="store_true", help="colour the tracks (ANSI)")
    p.add_argument(
        "--svg",
        metavar="FILE",
        default=None,
        help="write the picture `trax web` shows, as SVG, to FILE ('-': standard output)",
    )
    add_variant(p)

    def add_budget(p: argparse.ArgumentParser) -> None:
        budget = p.add_mutually_exclusive_group()
        budget.add_argument(
            "--nodes",
            type=_positive,
            default=None,
            help=f"search budget of the reference engine per move (default {DEFAULT_NODES})",
        )
        budget.add_argument(
            "--time", type=float, default=None, help="or a time budget per move, in seconds"
        )

    def add_referee(p: argparse.ArgumentParser, games: int, recorded: bool = False) -> None:
        # A match records these options with its series: their defaults are applied later, so
        # that an option given when resuming can be told from one left out.
        def default(value):
            return None if recorded else value

        p.add_argument(
            "--games", type=_positive, default=default(games), help=f"games (default {games})"
        )
        p.add_argument(
            "--time-limit",
            type=_seconds,
            default=default(CONTEST_TIME_LIMIT),
            metavar="S",
            help=f"seconds allowed per answer, 0 for none (default {CONTEST_TIME_LIMIT:g}, the "
            "contest's)",
        )
        p.add_argument(
            "--team-codes",
            action="store_true",
            default=default(False),
            help="ask each player its code with -T first",
        )
        p.add_argument(
            "--startup",
            type=_seconds,
            default=STARTUP_TIMEOUT,
            metavar="S",
            help="seconds a program (--engine) may take to start and answer -T "
            f"(default {STARTUP_TIMEOUT:g}: a simulated board builds on its first run)",
        )
        p.add_argument(
            "--max-plies", type=_positive, default=None, help="end a game without winner after this"
        )
        p.add_argument("--baud", type=_positive, default=19200, help="serial baud rate (19200)")

    def add_sim_think(p: argparse.ArgumentParser) -> None:
        p.add_argument(
            "--sim-think",
            type=_seconds,
            default=None,
            metavar="S",
            help="the simulated board's search time per move, in seconds of board time (default"
            " 0.003, which eight simulated engines take 1-2 s to search; 0.8 is a real board's)",
        )

    p = add("engine", cmd_engine, "play as the reference engine in the contest protocol")
    add_budget(p)
    p.add_argument(
        "--search",
        choices=("ref", "model"),
        default="ref",
        help="ref: the software player (default); model: the gateware search through its "
        "bit-exact model (host/hwsearch.py, the block-RAM board), at --nodes per move",
    )
    p.add_argument(
        "--depth",
        type=_positive,
        default=None,
        help="the deepest iteration of the search (default: the software player's own limit;"
        f" {DEFAULT_MODEL_DEPTH} for the model, as the board files')",
    )
    p.add_argument(
        "--torus",
        type=_positive,
        default=DEFAULT_TORUS,
        metavar="N",
        help=f"model: the board's N x N torus (default {DEFAULT_TORUS}, the ULX3S board file's)",
    )
    p.add_argument(
        "--engines",
        type=_positive,
        default=1,
        metavar="N",
        help="model: N engines splitting the search (host/hwparallel.py), --nodes each "
        "(default 1; the ULX3S board file has 6)",
    )
    p.add_argument(
        "--pv-plies",
        type=_positive,
        default=None,
        metavar="P",
        help="model, with --engines: split the previous best's line down to ply P (the "
        f"recursive PV split; default {DEFAULT_MODEL_PV_PLIES}, the ULX3S board file's)",
    )
    p.add_argument(
        "--helpers",
        action="store_true",
        help="model, with --engines: engines whose root moves ran out help the root moves "
        "still searched, sharing the replies below them (the model's only, docs/parallel.md)",
    )
    p.add_argument(
        "--ticks",
        type=_positive,
        default=None,
        metavar="T",
        help="model: the clock budget of a move in the model's virtual time, T ticks (a tick is "
        f"a node of each engine still searching, some {BOARD_TICK_CLOCKS:g} clocks of the board: "
        f"the ULX3S's {BOARD_THINK_TIME:g} s is about {BOARD_TICKS:,}), beside --nodes (default: "
        "none, --nodes alone)",
    )
    p.add_argument(
        "--ponder",
        type=_seconds,
        default=None,
        metavar="S",
        help="model, with --ticks: play as a pondering board (docs/ponder.md): when the "
        "opponent plays the reply the model predicted (searched with a quarter of a move's "
        "ticks), search the next move S seconds of the board's clock longer (0.55: the time "
        "a board ponders while KizuNa thinks its 0.75 s)",
    )
    _add_board_search_options(p, "model")
    p.add_argument(
        "--research",
        type=int,
        default=0,
        metavar="F",
        help="model: research options (the RESEARCH_ flags of trax_fpga.host.fastmodel, added to "
        "those of --attack-cut and --newest-first; not the board's search; docs/evaluation.md)",
    )
    p.add_argument(
        "--research-weights",
        metavar="FILE",
        help="model: the fitted evaluation's weights (JSON, 30: python -m "
        "trax_fpga.host.distill fit --out), searched with --research 8, or the shapes "
        "evaluation's (1,029: python -m trax_fpga.host.shapefit), with --research 128",
    )
    p.add_argument(
        "--verify",
        type=_verify,
        metavar="NODES:DEPTH:RESEARCH",
        help="model (research): check the chosen move with a search from the opponent's side "
        "(NODES an engine, DEPTH, RESEARCH flags); when it proves the opponent's win, search "
        "again without the move",
    )
    parser.engine_parser = p  # for the checks between options, in main()
    p.add_argument(
        "--seed",
        type=int,
        default=None,
        help="vary the first plies of each game among near-equal moves, the same way for the "
        "same seed (default: no variation)",
    )
    p.add_argument("--team", default="RF", help="the code answered to -T (default RF)")
    p.add_argument(
        "--connect", type=_host_port, metavar="HOST:PORT", help="play over TCP, not stdin/stdout"
    )

    p = add("best", cmd_best, "print the search's choice in a position")
    p.add_argument("moves", nargs="*", help="the moves so far, in notation")
    p.add_argument(
        "--nodes", type=_positive, default=DEFAULT_NODES, help=f"search budget ({DEFAULT_NODES})"
    )
    p.add_argument(
        "--backend",
        choices=(*BACKENDS, "model"),
        default="ref",
        help="ref: the software player; model: the gateware's search through its model (compiled "
        "when it can be: host/fastmodel.c; else host/hwsearch.py); rtl: the gateware search on "
        "the block-RAM board, simulated, beside its model; both with the ULX3S board file's "
        "search unless told",
    )
    p.add_argument(
        "--torus",
        type=_torus,
        default=64,
        help="rtl, model: the block-RAM board's torus, a power of two (default 64, the ULX3S's)",
    )
    p.add_argument(
        "--depth",
        type=_positive,
        default=DEFAULT_MODEL_DEPTH,
        help=f"rtl, model: deepest iteration (default {DEFAULT_MODEL_DEPTH}, the ULX3S board "
        "file's)",
    )
    p.add_argument(
        "--engines",
        type=_positive,
        default=DEFAULT_MODEL_ENGINES,
        help="rtl, model: search engines splitting the search, each with its own board "
        f"(default {DEFAULT_MODEL_ENGINES}, the ULX3S board file's; docs/parallel.md); the node "
        "budget is per engine",
    )
    p.add_argument(
        "--pv-plies",
        type=_positive,
        default=DEFAULT_MODEL_PV_PLIES,
        metavar="P",
        help="rtl, model, with --engines: split the previous best's line down to ply P (the "
        f"recursive PV split; default {DEFAULT_MODEL_PV_PLIES}, the ULX3S board file's; 1: the "
        "node below it)",
    )
    _add_board_search_options(p, "rtl, model")
    add_variant(p)

    p = add("match", cmd_match, "referee a series of games between two players")
    p.add_argument(
        "players",
        nargs="*",
        action=_AddPlayer,
        kind="spec",
        metavar="PLAYER",
        help=f"a player: {PLAYER_KINDS} (or use the options below)",
    )
    p.add_argument(
        "--engine",
        action=_AddPlayer,
        kind="engine",
        dest="players",
        metavar="CMD",
        help="a program speaking the protocol on stdin/stdout",
    )
    p.add_argument(
        f"--{PER_GAME}",
        action=_AddPlayer,
        kind=PER_GAME,
        dest="players",
        metavar="CMD",
        help="a program that plays one game per process (as KizuNa does): started afresh for "
        "each game, its start-up between the games",
    )
    p.add_argument(
        "--port",
        action=_AddPlayer,
        kind="port",
        dest="players",
        metavar="DEV",
        help="a board on a serial port (or any pyserial URL)",
    )
    p.add_argument(
        "--tcp",
        action=_AddPlayer,
        kind="tcp",
        dest="players",
        metavar="HOST:PORT",
        help="a player listening on TCP",
    )
    p.add_argument(
        "--listen",
        action=_AddPlayer,
        kind="listen",
        dest="players",
        metavar="PORT",
        help="wait for a player to connect on this TCP port (as the contests did)",
    )
    add_referee(p, games=2, recorded=True)
    add_budget(p)
    p.add_argument(
        "--seed",
        type=int,
        default=None,
        help="vary the openings: reseeds ref before each pair of games (both colours play the "
        "same opening) and replaces {seed} in engine commands (default: no variation)",
    )
    p.add_argument(
        "--concurrency",
        type=_positive,
        default=1,
        metavar="N",
        help="play N games at once, each pair of players its own programs (ref, engine:, "
        "engine-per-game: only; default 1). Keep N at most the free cores: a program that "
        "thinks by the clock searches less on a loaded machine, and ref shares this process",
    )
    p.add_argument(
        "--log-dir",
        default=None,
        metavar="DIR",
        help="where logs and results go (default matches/<date-time>; '' for none)",
    )
    p.add_argument(
        "--resume",
        nargs="?",
        const=True,
        default=False,
        metavar="DIR",
        help="continue the series in DIR (or --log-dir) as it was started: its players, games "
        "and options are read from DIR; finished games are kept",
    )

    p = add("play", cmd_play, "play the board at the terminal")
    p.add_argument("--port", default=None, help="the board's serial port (default: simulated)")
    p.add_argument(
        "--opponent",
        default="board",
        metavar="PLAYER",
        help="board (the board: simulated, or on --port; default), model (the board's search "
        "through its compiled model, at a real board's think time: a real board's strength in "
        "seconds a move), ref, engine:CMD, tcp:HOST:PORT",
    )
    p.add_argument(
        "--colour",
        "--color",
        type=_colour,
        default=Colour.WHITE,
        help="your colour: white (default, moves first) or black",
    )
    add_referee(p, games=1)
    add_budget(p)
    p.add_argument("--log-dir", default=None, metavar="DIR", help="log the games in DIR")
    add_sim_think(p)

    p = add("web", cmd_web, "the board in the browser: play, watch a match, replay a log")
    p.add_argument(
        "--port", type=int, default=8714, help="the page's TCP port (default 8714; 0: any free)"
    )
    p.add_argument("--host", default="127.0.0.1", help="the address to serve on (127.0.0.1)")
    p.add_argument(
        "--opponent",
        default="board",
        metavar="PLAYER",
        help="board (the simulated board, default), port:DEV (a real board), model (the "
        "board's search through its compiled model, at a real board's think time), ref, "
        "engine:CMD, tcp:HOST:PORT",
    )
    p.add_argument(
        "--colour",
        "--color",
        type=_colour,
        default=Colour.WHITE,
        help="your colour: white (default, moves first) or black",
    )
    p.add_argument(
        "--watch", metavar="DIR", default=None, help="watch the match logged in DIR instead"
    )
    p.add_argument(
        "--time-limit",
        type=_seconds,
        default=0,
        metavar="S",
        help="seconds the opponent may take per answer, 0 for none (default)",
    )
    p.add_argument("--baud", type=_positive, default=19200, help="serial baud rate (19200)")
    p.add_argument(
        "--startup",
        type=_seconds,
        default=STARTUP_TIMEOUT,
        metavar="S",
        help="seconds an engine may take to start and answer -T",
    )
    add_budget(p)
    add_sim_think(p)

    p = add("sim", cmd_sim, "run the simulated board on stdin/stdout or a pty")
    from .sim.board import add_arguments as add_sim_arguments

    add_sim_arguments(p)
    return parser


def _same_installation_first() -> None:
    """Put this installation's programs first on PATH, so that an engine command such as
    ``trax engine`` (``trax match --engine "trax engine ..."``) runs this same ``trax``, not
    another one, or none when the virtual environment's ``bin`` is not on PATH."""
    scripts = sysconfig.get_path("scripts")
    if not scripts or not (Path(scripts) / "trax").exists():
        return
    path = os.environ.get("PATH", "")
    if path.split(os.pathsep)[0] != scripts:
        os.environ["PATH"] = os.pathsep.join([scripts, *([path] if path else [])])


def main(argv: list[str] | None = None) -> int:
    _same_installation_first()
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command == "engine" and args.search == "model":
        if args.time is not None:
            parser.engine_parser.error("--time: the model (--search model) searches --nodes")
        if args.torus < 4:
            parser.engine_parser.error(f"--torus: at least 4, not {args.torus}")
        if args.ponder is not None and (args.ticks is None or args.ponder <= 0):
            parser.engine_parser.error("--ponder: positive seconds, with --ticks")
    elif args.command == "engine" and (
        args.engines != 1
        or args.pv_plies is not None
        or args.helpers
        or args.move_table is not None
        or args.table_scores is not None
        or args.attack_cut is not None
        or args.newest_first is not None
        or args.research
        or args.research_weights is not None
        or args.verify is not None
        or args.shapes is not None
        or args.ponder is not None
    ):
        parser.engine_parser.error(
            "--engines, --pv-plies, --helpers, --ponder, --move-table, --table-scores, "
            "--attack-cut, --newest-first, --research, --verify, --shapes: for the model "
            "(--search model)"
        )
    board_search = (args.command == "best" and args.backend in ("model", "rtl")) or (
        args.command == "engine" and args.search == "model"
    )
    if board_search and args.torus > 64 and args.move_table != 0:  # (None: the default table)
        parser.error(
            f"--torus {args.torus}: the table of best moves is for tori of at most 64 x 64 "
            "(--move-table 0 for none)"
        )
    level = logging.WARNING - 10 * args.verbose + 10 * args.quiet
    logging.basicConfig(level=max(level, logging.DEBUG), format="%(name)s: %(message)s")
    try:
        return args.func(args)
    except TraxError as error:
        print(f"trax: error: {error}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("trax: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 1


if __name__ == "__main__":
    sys.exit(main())
