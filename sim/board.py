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

    with simulated_board(window=18, team="FP") as path:     # a pty
        port = serial.Serial(path, timeout=5)
        port.write(b"-W\\n")
        port.readline()                                     # b"@0+\\n"
"""

from __future__ import annotations

import contextlib
import dataclasses
import hashlib
import json
import sys
from importlib import metadata, resources
from pathlib import Path

from .uart_bridge import bridge_command, open_simulated_port, run_bridge, stop_bridge
from .verilator import Model, Port, build, cache_dir

__all__ = [
    "DEFAULT_BAUD",
    "DEFAULT_CLOCK",
    "DEFAULT_TEAM",
    "DEFAULT_WINDOW",
    "BoardConfig",
    "build_board",
    "main",
    "open_board",
    "simulated_board",
]

#: The window of the simulated board: the largest human game's box (15 x 14) and its ring fit.
DEFAULT_WINDOW = 18
#: The simulated clock: 16 clocks per bit at 115200 baud, an exact divisor of every common rate.
DEFAULT_CLOCK = 1_843_200
DEFAULT_BAUD = 19200
DEFAULT_TEAM = "FP"
#: The search's node budget per move (``trax_fpga.hdl.player.DEFAULT_BUDGET``; kept here so
#: that ``trax --help`` need not import the gateware).
DEFAULT_BUDGET = 1000
#: The search's time per move in simulated seconds (``trax_fpga.hdl.player.DEFAULT_THINK_TIME``).
DEFAULT_THINK = 0.5


@dataclasses.dataclass(frozen=True)
class BoardConfig:
    """The build parameters of a simulated board."""

    window: int = DEFAULT_WINDOW
    team: str = DEFAULT_TEAM
    baud: int = DEFAULT_BAUD
    clock: int = DEFAULT_CLOCK
    budget: int = DEFAULT_BUDGET
    think: float = DEFAULT_THINK
    search_options: tuple[tuple[str, int], ...] = ()
    #: ``window``: the first design's window of cells; ``track``: one block-RAM board for the
    #: game and the search (``window`` is then its torus, a power of two).
    board: str = "window"

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
            search_options=dict(self.search_options),
            board=self.board,
        )

    def key(self) -> str:
        """A digest of the parameters and of every gateware source file."""
        digest = hashlib.sha256(repr(dataclasses.astuple(self)).encode())
        digest.update(metadata.version("amaranth").encode())
        hdl = resources.files("trax_fpga.hdl")
        for source in sorted(hdl.iterdir(), key=lambda item: item.name):
            if source.name.endswith(".py"):
                digest.update(source.name.encode() + b"\0" + source.read_bytes())
        return digest.hexdigest()[:24]


def _index_path(config: BoardConfig) -> Path:
    return cache_dir() / "boards" / f"{config.key()}.json"


def _load_model(directory: Path) -> Model | None:
    ports_file = directory / "ports.json"
    if not ports_file.exists() or not (directory / "obj" / "harness").exists():
        return None
    ports = [Port(**fields) for fields in json.loads(ports_file.read_text())]
    return Model(
        executable=directory / "obj" / "harness",
        ports={port.name: port for port in ports},
        verilog_path=directory / "top.v",
    )


def build_board(config: BoardConfig, *, log=None) -> Model:
    """The built simulated board for ``config`` (built now if no cached build matches).

    ``log`` (a callable taking a string) hears about a build that has to be made.
    """
    index = _index_path(config)
    if index.exists():
        model = _load_model(Path(json.loads(index.read_text())["directory"]))
        if model is not None:
            return model
    if log is not None:
        log(
            f"building the simulated board ({config.window}x{config.window} window); "
            "the first build takes a few minutes"
        )
    model = build(config.player())
    index.parent.mkdir(parents=True, exist_ok=True)
    index.write_text(json.dumps({"directory": str(model.executable.parent.parent)}))
    return model


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


def _option(text: str) -> tuple[str, int]:
    import argparse

    name, _, value = text.partition("=")
    try:
        return name.strip(), int(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected NAME=INTEGER, not {text!r}") from None


def add_arguments(parser) -> None:
    """The options of ``trax sim`` (shared with ``python -m trax_fpga.sim.board``)."""
    parser.add_argument(
        "--pty", action="store_true", help="join the UART to a new pty and print its path"
    )
    parser.add_argument(
        "--team", default=DEFAULT_TEAM, help=f"the code answered to -T ({DEFAULT_TEAM})"
    )
    parser.add_argument(
        "--baud", type=int, default=DEFAULT_BAUD, help=f"the UART's baud rate ({DEFAULT_BAUD})"
    )
    parser.add_argument(
        "--window",
        type=int,
        default=DEFAULT_WINDOW,
        metavar="N",
        help=f"the board's window, N x N cells ({DEFAULT_WINDOW})",
    )
    parser.add_argument(
        "--clock",
        type=int,
        default=DEFAULT_CLOCK,
        metavar="HZ",
        help=f"the simulated clock frequency ({DEFAULT_CLOCK})",
    )
    parser.add_argument(
        "--budget",
        type=int,
        default=DEFAULT_BUDGET,
        metavar="NODES",
        help=f"the search's node budget per move ({DEFAULT_BUDGET}; 0: none, --think alone)",
    )
    parser.add_argument(
        "--think",
        type=float,
        default=DEFAULT_THINK,
        metavar="SECONDS",
        help=f"the search's clock budget per move, in simulated seconds ({DEFAULT_THINK:g}); "
        "whichever budget is spent first stops it",
    )
    parser.add_argument(
        "--board",
        choices=("window", "track"),
        default="window",
        help="window: the first design's window of cells (default); track: one block-RAM "
        "board for the game and the search, --window N is then its torus (a power of two)",
    )
    parser.add_argument(
        "--search",
        type=_option,
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="an option of the search (e.g. max_depth=3); may be repeated",
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
    config = BoardConfig(
        window=args.window,
        team=args.team,
        baud=args.baud,
        clock=args.clock,
        budget=args.budget,
        think=args.think,
        search_options=tuple(sorted(args.search)),
        board=args.board,
    )
    checked = config.player()  # checks every parameter (ValueError with the bad value)
    checked._MustUse__silence = True  # built only for its checks: not an unused design
    return config


def run(args) -> int:
    """Run the simulated board in the foreground (``trax sim``); return the exit status."""
    config = config_from(args)
    model = build_board(config, log=lambda text: print(f"trax: {text}", file=sys.stderr))
    options = {} if args.speed is None else {"speed": args.speed}
    if args.pty:
        print(
            f"trax: the simulated board ({config.window}x{config.window}, team {config.team}, "
            f"{config.baud} baud) is on the pty below; close stdin or press Ctrl-C to stop",
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
