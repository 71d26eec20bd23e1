"""The simulated board: the complete player (:class:`~trax_fpga.hdl.player.Player`) on Verilator,
its UART joined to standard input and output or to a new pseudo-terminal.

Any referee, script or serial program can play it as it would play a real board: bytes written
to it are shifted into ``rx`` bit by bit at the configured baud rate (in simulated time), bytes
shifted out of ``tx`` are written back as they complete. Simulated time runs as fast as the
simulation can go, so answers come slower or faster than on a real board; the clock counts are
exact.

Builds are cached twice: :mod:`trax_fpga.sim.verilator` keeps the executable under a hash of the
Verilog, and this module remembers which build belongs to which parameters and gateware sources,
so that a second start skips even the conversion to Verilog.

Usage::

    with simulated_board(window=16, team="FP") as path:     # a pty
        port = serial.Serial(path, timeout=5)
        port.write(b"-W\\n")
        port.readline()                                     # b"@0+\\n"
"""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import sys
import threading

from ..host.players import ProtocolPlayer
from ..host.transport import SerialTransport
from .uart_bridge import bridge_command, open_simulated_port, run_bridge, stop_bridge
from .verilator import Model, build_by_parameters, gateware_key

__all__ = [
    "DEFAULT_TEAM",
    "BoardConfig",
    "build_board",
    "main",
    "open_board",
    "open_board_player",
    "player_search_options",
    "real_board_config",
    "simulated_board",
]

#: The real board whose player the simulated board is (``trax sim``, ``trax play``, ``trax web``):
#: its clock, its player (6 search engines, each on its own block-RAM board, a 64 x 64 torus,
#: sharing a table of best moves and their values, with the attack cut and newest first,
#: evaluating by the tracks' shapes with the board files' table: ``shapes`` 1) and
#: the search of ``trax_fpga.boards.top.BOARD_SEARCH`` with the board file's options (0.8 s
#: of board time per move, no node limit, iterations up to 8 plies, the previous best's
#: line split down to ply 4). The values are kept
#: here so that ``trax --help`` need not import the board files; a test holds them to those
#: files.
REAL_BOARD = "ulx3s_85f"
REAL_BOARD_TITLE = "ULX3S"
REAL_CLOCK = 25_000_000
REAL_THINK = 0.8
REAL_SEARCH = (
    ("attack_cut", 1),
    ("engines", 6),
    ("max_depth", 8),
    ("move_table", 16384),
    ("newest_first", 1),
    ("pv_plies", 4),
    ("shapes", 1),
    ("shared_table", 1),
    ("table_scores", 1),
)
REAL_TORUS = 64
#: Clocks per node of the real board's search: its 6 engines sharing a table of 16,384 best
#: moves and their values, with the attack cut and newest first, the line split to ply 4 and the
#: board's leaf, next-entry and fit steps, play 0.558 nodes per clock (README, Figures, ``python
#: -m trax_fpga.sim.track_bench --perft 0 --positions 0 --engines 1,6 --move-table 16384
#: --shared-table --table-scores --parallel-positions 12 --depth 8 --attack-cut --newest-first
#: --pv-plies 4``, forty-sixth session; one engine alone 0.124 nodes per clock).
CLOCKS_PER_NODE = 1.8
#: The answer time of the contests, in seconds per move.
CONTEST_TIME = 1.0
#: The simulated board's own search time per move, in board seconds at ``REAL_CLOCK``: 75,000
#: clocks. Chosen when 8 engines simulated at about 0.15 M clocks per second; searching, they
#: ran about 41,000 here (sixth session; one engine's 1.4 M), so the answers take 1-2 s and
#: ``trax play`` lifts the time limit for the simulated board. The serial line is simulated at
#: ``SIM_BAUD``: at 19200 baud a move line in and out costs 0.1 M clocks.
SIM_THINK = 0.003
SIM_BAUD = 115200
DEFAULT_TEAM = "FP"


@dataclasses.dataclass(frozen=True)
class BoardConfig:
    """The build parameters of a simulated board; the defaults are the real board's
    (:data:`REAL_BOARD`) player, torus, clock and search.

    What differs from a real board, and why: the search time (``think``, board seconds; the real
    board's is :data:`REAL_THINK`, which a simulation takes minutes to run) and the serial line's
    rate (:data:`SIM_BAUD`; a pty has no rate). :func:`strength_notice` says what this costs, in
    figures.
    """

    #: The torus of the player's block-RAM board (a power of two).
    window: int = REAL_TORUS
    team: str = DEFAULT_TEAM
    baud: int = SIM_BAUD
    clock: int = REAL_CLOCK
    #: The search's node budget per move (0: none, the clock budget alone).
    budget: int = 0
    think: float = SIM_THINK
    search_options: tuple[tuple[str, int], ...] = REAL_SEARCH
    #: The player thinks while the opponent does (docs/ponder.md; the board file's choice).
    ponder: bool = True

    def player(self):
        """The :class:`~trax_fpga.hdl.player.Player` these parameters describe."""
        from trax_fpga.hdl.player import Player

        return Player(
            self.window,
            self.window,
            self.clock,
            self.baud,
            self.team,
            budget=self.budget or 2**32 - 1,
            think_time=self.think,
            search_options=player_search_options(self.search_options),
            ponder=self.ponder,
        )

    def key(self) -> str:
        """A digest of the parameters (the search options as the player takes them: with the
        shapes' weights) and of every gateware source file."""
        options = player_search_options(self.search_options)
        return gateware_key(repr((dataclasses.astuple(self), sorted(options.items()))))


def player_search_options(options) -> dict:
    """``search_options`` as (name, integer) pairs, as the :class:`~trax_fpga.hdl.player.Player`
    takes them: the names of :class:`~trax_fpga.hdl.track_board.TrackBoard`'s options that trade
    clocks for logic (``serial_appends=1``, ``edge_banks=4``) go into every engine's
    ``board_options``; ``shapes=1`` is the evaluation by the tracks' shapes with the board files'
    table (:func:`~trax_fpga.host.shapes.board_table`), ``shapes=0`` the loop potential's.
    ValueError names an unknown option and the known ones
    (:func:`~trax_fpga.hdl.track_game.check_search_options`, as the player checks them)."""
    from trax_fpga.hdl.track_board import COMPACT_OPTIONS
    from trax_fpga.hdl.track_game import check_search_options

    from ..host.shapes import board_table

    search, board = {}, {}
    for name, value in options:
        if name == "shapes":
            if value:
                search[name] = dataclasses.astuple(board_table())
        elif name == "edge_banks":
            board[name] = value
        elif name in COMPACT_OPTIONS:
            board[name] = bool(value)
        else:
            search[name] = value
    if board:
        search["board_options"] = board
    check_search_options(search)
    return search


def real_board_config(*, window: int = REAL_TORUS, think: float = SIM_THINK) -> BoardConfig:
    """The simulated board with the real board's player, torus, clock and search (the
    defaults of :class:`BoardConfig`), and a search time of ``think`` board seconds."""
    return BoardConfig(window=window, think=think)


def measure_speed(model: Model, cycles: int = 20_000) -> float:
    """The simulated clocks per second of ``model`` on this machine (a short run, ~0.2 s)."""
    import time

    from .verilator import VerilatorSim

    with VerilatorSim(model) as sim:
        sim.get("tx")  # started
        start = time.perf_counter()
        sim.tick(cycles)
        sim.get("tx")  # the ticks are done
        return cycles / max(time.perf_counter() - start, 1e-9)


def strength_notice(config: BoardConfig, speed: float) -> str:
    """Plain words and figures: how this simulated board compares with a real one.

    ``speed`` is the simulation's clocks per second (:func:`measure_speed`).
    """
    real_clocks = REAL_THINK * REAL_CLOCK
    clocks = config.think * config.clock
    if config.budget:
        clocks = min(clocks, config.budget * CLOCKS_PER_NODE)
    answer = clocks / speed
    slower = config.clock / speed
    whose = f"the {REAL_BOARD_TITLE}'s" if config.clock == REAL_CLOCK else "its"
    size = f"{config.window}x{config.window}"
    if config.window == REAL_TORUS:
        board = f"on a {size} torus in block RAM, as a real {REAL_BOARD_TITLE}"
    else:
        board = (
            f"on a {size} torus in block RAM (a real {REAL_BOARD_TITLE} holds "
            f"{REAL_TORUS}x{REAL_TORUS})"
        )
    lines = [
        f"The simulated board runs at {speed / 1e6:.2f} M clocks per second here, "
        f"{slower:,.0f} times slower than {whose} {config.clock / 1e6:g} MHz clock, {board}."
    ]
    if clocks >= real_clocks:
        lines.append(
            f"It searches as long as a real {REAL_BOARD_TITLE} ({real_clocks:,.0f} clocks a "
            f"move) and is as strong, but each answer takes about {answer:,.0f} s here, not "
            f"{REAL_THINK:g} s."
        )
    else:
        factor = real_clocks / clocks
        within = "within" if answer <= CONTEST_TIME else "not within"
        lines.append(
            f"It searches {clocks:,.0f} clocks a move (about {answer:.1f} s here, {within} "
            f"the contest's {CONTEST_TIME:g} s), where a real {REAL_BOARD_TITLE} searches "
            f"{real_clocks:,.0f} in its {REAL_THINK:g} s: about {factor:,.0f} times fewer "
            f"nodes (some {clocks / CLOCKS_PER_NODE:,.0f} instead of "
            f"{real_clocks / CLOCKS_PER_NODE:,.0f}), so it plays much weaker than a real board. "
            f"--sim-think {REAL_THINK:g} plays at full strength, about "
            f"{real_clocks / speed:,.0f} s a move here."
        )
    return "\n".join(lines)


def build_board(config: BoardConfig, *, log=None) -> Model:
    """The built simulated board for ``config`` (built now if no cached build matches).

    ``log`` (a callable taking a string) hears about a build that has to be made.
    """
    message = (
        f"building the simulated board ({config.window}x{config.window} torus); "
        "the first build takes a few minutes"
    )
    return build_by_parameters(config.key(), config.player, log=log, message=message)


@contextlib.contextmanager
def simulated_board(config: BoardConfig | None = None, **options):
    """Start the simulated board on a new pty; yield the pty's path; stop it on exit.

    ``options`` are :class:`BoardConfig` fields (when no ``config`` is given).
    """
    path, process = open_board(config or BoardConfig(**options))
    try:
        yield path
    finally:
        stop_bridge(process)


def open_board(config: BoardConfig, *, log=None):
    """Start the simulated board on a new pty; return ``(path, process)``.

    Stop it with :func:`trax_fpga.sim.uart_bridge.stop_bridge`.
    """
    model = build_board(config, log=log)
    return open_simulated_port(model, config.clock, config.baud)


class SimulatedBoardPlayer(ProtocolPlayer):
    """The simulated board as a player: a :class:`ProtocolPlayer` on its pty, which also stops
    the simulation on :meth:`close`. ``config`` and ``speed`` (clocks per second) describe it;
    ``notice`` says how it compares with a real board; ``last_search`` holds the figures of its
    last answer's search (``depth``, ``nodes``, ``clocks``), read from the simulation."""

    def __init__(self, path: str, process, config: BoardConfig, speed: float | None) -> None:
        super().__init__(SerialTransport(path, config.baud), name="board")
        self._process = process
        self.config = config
        self.speed = speed
        self.notice = None if speed is None else strength_notice(config, speed)
        self.last_search: dict | None = None
        self._reports: list[dict] = []  # one per line the board sent, in order
        self._lines = 0  # lines read from the board
        self._condition = threading.Condition()
        threading.Thread(target=self._read_reports, name="board-reports", daemon=True).start()

    def _read_reports(self) -> None:
        with contextlib.suppress(OSError, ValueError):
            for line in self._process.stdout:
                fields = dict(item.partition("=")[::2] for item in line.split()[1:])
                with self._condition:
                    self._reports.append(
                        {
                            "depth": int(fields.get("search_depth", 0)),
                            "nodes": int(fields.get("search_nodes", 0)),
                            "clocks": int(fields.get("search_cycles", 0)),
                        }
                    )
                    self._condition.notify_all()

    def team_code(self, timeout: float | None) -> str:
        code = super().team_code(timeout)
        self._lines += 1
        return code

    def wait_ready(self, timeout: float) -> None:
        super().wait_ready(timeout)
        self._lines += 1

    def answer(self, move: str | None, timeout: float | None) -> str:
        line = super().answer(move, timeout)
        self._lines += 1
        with self._condition:  # the figures of this line come a moment after it
            if self._condition.wait_for(lambda: len(self._reports) >= self._lines, timeout=0.5):
                report = self._reports[self._lines - 1]
                self.last_search = report if report["nodes"] else None
        return line

    def close(self) -> None:
        try:
            super().close()
        finally:
            stop_bridge(self._process)


def open_board_player(config: BoardConfig, *, status=None, notice=None) -> SimulatedBoardPlayer:
    """Build (if needed) and start the simulated board; return it as a player.

    This is how the application (``trax play``, ``trax web``) reaches the simulated board.
    ``status`` (a callable taking a string, or None when a step is over) hears what takes time:
    the build, the measure of the simulation's speed; ``notice`` (a callable taking a string)
    hears, in plain words and figures, how the simulated board compares with a real one.
    """
    model = build_board(config, log=status)
    speed = None
    if notice is not None:
        if status is not None:
            status("measuring the simulation's speed")
        speed = measure_speed(model)
        notice(strength_notice(config, speed))
    if status is not None:
        status("starting the simulated board")
    path, process = open_simulated_port(model, config.clock, config.baud, report=True)
    if status is not None:
        status(None)
    return SimulatedBoardPlayer(path, process, config, speed)


def _option(text: str) -> tuple[str, int]:
    import argparse

    name, _, value = text.partition("=")
    try:
        return name.strip(), int(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected NAME=INTEGER, not {text!r}") from None


def add_arguments(parser) -> None:
    """The options of ``trax sim`` (shared with ``python -m trax_fpga.sim.board``): by default
    the real board's player (:class:`BoardConfig`)."""
    defaults = BoardConfig()
    parser.add_argument(
        "--pty", action="store_true", help="join the UART to a new pty and print its path"
    )
    parser.add_argument(
        "--team", default=defaults.team, help=f"the code answered to -T ({defaults.team})"
    )
    parser.add_argument(
        "--baud",
        type=int,
        default=defaults.baud,
        help=f"the UART's baud rate ({defaults.baud}; the real board's is 19200)",
    )
    parser.add_argument(
        "--torus",
        type=int,
        default=defaults.window,
        metavar="N",
        help=f"the board's torus in block RAM, N x N cells, a power of two ({defaults.window}, "
        f"the {REAL_BOARD_TITLE}'s)",
    )
    parser.add_argument(
        "--clock",
        type=int,
        default=defaults.clock,
        metavar="HZ",
        help=f"the simulated clock frequency ({defaults.clock}, the {REAL_BOARD_TITLE}'s)",
    )
    parser.add_argument(
        "--budget",
        type=int,
        default=defaults.budget,
        metavar="NODES",
        help=f"the search's node budget per move ({defaults.budget}: none, --think alone)",
    )
    parser.add_argument(
        "--think",
        type=float,
        default=defaults.think,
        metavar="SECONDS",
        help=f"the search's clock budget per move, in simulated seconds ({defaults.think:g}; "
        f"a real board thinks {REAL_THINK:g}); whichever budget is spent first stops it",
    )
    parser.add_argument(
        "--search",
        type=_option,
        action="append",
        default=None,
        metavar="NAME=VALUE",
        help="an option of the search (default "
        + ", ".join(f"{k}={v}" for k, v in defaults.search_options)
        + "; shapes=1: the evaluation by the tracks' shapes with the board files' table, 0: by "
        "their kinds) or of every engine's board (e.g. serial_appends=1, edge_banks=4); may be "
        "repeated",
    )
    parser.add_argument(
        "--engines",
        type=int,
        default=None,
        metavar="N",
        help="the search's engines, each with its own board (default: the board file's, "
        f"{dict(defaults.search_options).get('engines', 1)}); the same as --search engines=N",
    )
    parser.add_argument(
        "--ponder",
        action=argparse.BooleanOptionalAction,
        default=defaults.ponder,
        help="think while the opponent does, or not: guess the reply and search the board's "
        "next move after it (docs/ponder.md; the simulation runs that search between moves; "
        f"default: the board file's, {'on' if defaults.ponder else 'off'})",
    )
    parser.add_argument(
        "--speed",
        type=float,
        default=None,
        metavar="X",
        help="at most X simulated seconds per second (1 = real time; default: unlimited)",
    )


def config_from(args) -> BoardConfig:
    """The :class:`BoardConfig` of parsed ``trax sim`` arguments (``ValueError`` if invalid)."""
    search = BoardConfig().search_options
    if args.search is not None:
        search = tuple(sorted({**dict(search), **dict(args.search)}.items()))
    if getattr(args, "engines", None) is not None:
        search = tuple(sorted({**dict(search), "engines": args.engines}.items()))
    config = BoardConfig(
        window=args.torus,
        team=args.team,
        baud=args.baud,
        clock=args.clock,
        budget=args.budget,
        think=args.think,
        search_options=search,
        ponder=getattr(args, "ponder", BoardConfig.ponder),
    )
    checked = config.player()  # checks every parameter (ValueError with the bad value)
    checked._MustUse__silence = True  # built only for its checks: not an unused design
    return config


def run(args) -> int:
    """Run the simulated board in the foreground (``trax sim``); return the exit status."""
    config = config_from(args)
    model = build_board(config, log=lambda text: print(f"trax: {text}", file=sys.stderr))
    options = {} if args.speed is None else {"speed": args.speed}
    if not args.pty:
        # After the input ends, wait for an answer being searched: the search's clock budget and
        # 100 frames of the serial line (the bridge's own default).
        frame = 10 * config.clock / config.baud
        options["linger"] = round(config.think * config.clock + 100 * frame)
    if args.pty:
        print(
            f"trax: the simulated board ({config.window}x{config.window} torus, team "
            f"{config.team}, {config.baud} baud) is on the pty below; close stdin or press "
            "Ctrl-C to stop",
            file=sys.stderr,
        )
    sys.stdout.flush()
    return run_bridge(model, config.clock, config.baud, pty=args.pty, **options)


def command(config: BoardConfig, *, pty: bool = False) -> list[str]:
    """The bridge's command line for ``config`` (builds if needed)."""
    return bridge_command(build_board(config), config.clock, config.baud, pty=pty)


def main(argv=None) -> int:
    """``python -m trax_fpga.sim.board``: the same as ``trax sim``."""
    import argparse

    parser = argparse.ArgumentParser(prog="python -m trax_fpga.sim.board", description=__doc__)
    add_arguments(parser)
    args = parser.parse_args(argv)
    try:
        return run(args)
    except ValueError as error:
        print(f"trax: error: {error}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
