"""The ``trax`` command: the reference engine, the simulated gateware and the board from a shell.

Every subcommand is a function ``cmd_<name>(args) -> int``; errors of the engine (``TraxError``)
are caught once in :func:`main` and printed as ``trax: error: ...`` with exit status 1; Ctrl-C
exits with 130.
"""

from __future__ import annotations

import argparse
import logging
import sys
import time

from .. import __version__
from .errors import TraxError
from .judge import judge_game, judge_lines
from .position import Position, Variant
from .render import ASCII, UNICODE, render

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


def _positive(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, not {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected a positive number, not {value}")
    return value


def cmd_perft(args: argparse.Namespace) -> int:
    """Count legal move sequences from the empty board (or after ``--moves``)."""
    if args.backend == "rtl":
        from ..sim.perft_driver import rtl_perft  # the gateware's counter, simulated

        for line in rtl_perft(args.depth, moves=args.moves):
            print(line, flush=True)
        return 0
    position = Position.from_moves(args.moves, args.variant)
    for depth in range(1, args.depth + 1):
        start = time.perf_counter()
        count = position.perft(depth)
        log.info("perft %d: %.2f s", depth, time.perf_counter() - start)
        print(f"{depth} {count}", flush=True)
    return 0


def cmd_judge(args: argparse.Namespace) -> int:
    """Judge games read from files or standard input, one verdict line per game line."""
    if args.backend == "rtl":
        from ..sim.rules_driver import judge_game as rtl_judge_game

        if args.variant is not Variant.UNLIMITED:
            raise TraxError(
                "the gateware plays unlimited Trax only: drop --variant or use --backend ref"
            )

        def judge(moves: list[str]) -> str:
            return rtl_judge_game(moves, window=(args.window, args.window))
    else:

        def judge(moves: list[str]) -> str:
            return judge_game(moves, args.variant)

    if not args.files:
        for verdict in judge_lines(sys.stdin, judge):
            print(verdict, flush=True)
    for name in args.files:
        try:
            with open(name, encoding="utf-8") as stream:
                for verdict in judge_lines(stream, judge):
                    print(verdict, flush=True)
        except OSError as error:
            raise TraxError(f"cannot read {name}: {error.strerror}") from None
    return 0


def cmd_show(args: argparse.Namespace) -> int:
    """Print the position after the given moves."""
    position = Position.from_moves(args.moves, args.variant)
    style = ASCII if args.ascii else UNICODE
    print(render(position, style, colour=args.colour))
    if position.outcome:
        print(f"game over: {position.outcome}")
    else:
        print(f"{position.turn.word} to move")
    return 0


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
        "--backend", choices=BACKENDS, default="ref", help="ref (Python) or rtl (gateware)"
    )
    add_variant(p)

    p = add("judge", cmd_judge, "judge recorded games")
    p.add_argument("files", nargs="*", help="record files (default: standard input)")
    p.add_argument(
        "--backend", choices=BACKENDS, default="ref", help="ref (Python) or rtl (gateware)"
    )
    p.add_argument("--window", type=_positive, default=24, help="gateware window size (default 24)")
    add_variant(p)

    p = add("show", cmd_show, "print the position after some moves")
    p.add_argument("moves", nargs="*", help="moves in notation, e.g. @0+ B1/")
    p.add_argument("--ascii", action="store_true", help="the ASCII diagram of old e-mail games")
    p.add_argument("--colour", "--color", action="store_true", help="colour the tracks (ANSI)")
    add_variant(p)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
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
