"""The gateware rules core behind ordinary functions: new game, play a move, judge a game.

:class:`RtlRules` drives a :class:`~trax_fpga.hdl.track_rules.TrackRules` (the rules on the
block-RAM board) through a small backend interface (``set``/``get``/``tick`` of named ports,
values as integers), so the simulator can be swapped: :class:`AmaranthSimBackend` runs
amaranth.sim in a worker thread; a Verilator harness with the same three methods can take its
place.

Every verdict (legality, forced play, wins) comes from the gateware. Only the mapping of the
notation to a torus cell is done here, from the box the gateware reports (the hardware notation
decoder is a separate block). A game that outgrows the torus raises :class:`WindowOverflow`
instead of giving a verdict.
"""

from __future__ import annotations

import dataclasses
import queue
import threading
from collections.abc import Iterable
from typing import Protocol

from amaranth import Value
from amaranth.sim import Simulator

from trax_fpga.hdl.track_rules import Command, Outcome, TrackRules
from trax_fpga.hdl.types import Symbol, Verdict
from trax_fpga.host.errors import InvalidMoveError
from trax_fpga.host.notation import Move

from .symbols import gateware_symbol

__all__ = [
    "AmaranthSimBackend",
    "Backend",
    "PlayResult",
    "RtlRules",
    "WindowOverflow",
    "WindowOverflowError",
    "judge_game",
    "window_cell",
]

#: The default torus of the block-RAM rules core: the ULX3S board's (the contest's test games
#: reach 54 columns and 40 rows).
DEFAULT_TORUS = (64, 64)


class WindowOverflowError(RuntimeError):
    """The game outgrew the gateware's torus: the move was not judged."""


#: The short name the rules-core brief uses.
WindowOverflow = WindowOverflowError


class Backend(Protocol):
    """What :class:`RtlRules` needs of a simulator: ports by name (a nested member's path joined
    by ``__``, as in the Verilog), values as integers."""

    def set(self, name: str, value: int) -> None: ...

    def get(self, name: str) -> int: ...

    def tick(self, count: int = 1) -> None: ...

    def close(self) -> None: ...


class AmaranthSimBackend:
    """amaranth.sim behind :class:`Backend`: the simulation runs in a worker thread.

    Each call is handed to an async testbench that waits for it, so simulated time advances
    only in :meth:`tick`.
    """

    def __init__(self, component, *, design=None, background=()) -> None:
        """``design``: what to simulate, if not ``component`` itself (e.g. its fragment, already
        elaborated); ``background``: more async testbenches that run beside the calls."""
        self.component = component
        self._requests: queue.Queue = queue.Queue()
        self._replies: queue.Queue = queue.Queue()
        self._ports: dict[str, Value] = {}
        simulator = Simulator(component if design is None else design)
        simulator.add_clock(1e-6)
        simulator.add_testbench(self._testbench)
        for testbench in background:
            simulator.add_testbench(testbench, background=True)
        self._thread = threading.Thread(target=self._run, args=(simulator,), daemon=True)
        self._thread.start()

    def _port(self, name: str) -> Value:
        port = self._ports.get(name)
        if port is None:
            member = self.component
            for part in name.split("__"):  # a nested member, named as in the Verilog
                member = getattr(member, part)
            port = self._ports[name] = Value.cast(member)
        return port

    def _run(self, simulator: Simulator) -> None:
        try:
            simulator.run()
        except BaseException as error:  # handed to the caller, not lost in the thread
            self._replies.put(error)

    async def _testbench(self, ctx) -> None:
        while True:
            request = self._requests.get()
            if request is None:
                return
            kind, name, value = request
            try:
                if kind == "set":
                    ctx.set(self._port(name), value)
                    reply = None
                elif kind == "get":
                    reply = ctx.get(self._port(name))
                else:
                    for _ in range(value):
                        await ctx.tick()
                    reply = None
            except Exception as error:
                reply = error
            self._replies.put(reply)

    def _call(self, kind: str, name: str = "", value: int = 0):
        if not self._thread.is_alive():
            raise RuntimeError("the simulation has stopped")
        self._requests.put((kind, name, value))
        reply = self._replies.get()
        if isinstance(reply, BaseException):
            raise reply
        return reply

    def set(self, name: str, value: int) -> None:
        self._call("set", name, int(value))

    def get(self, name: str) -> int:
        return self._call("get", name)

    def tick(self, count: int = 1) -> None:
        self._call("tick", value=count)

    def close(self) -> None:
        if self._thread.is_alive():
            self._requests.put(None)
            self._thread.join()


@dataclasses.dataclass(frozen=True, slots=True)
class PlayResult:
    """What the gateware said about one command, and how many clocks each part took."""

    verdict: Verdict
    outcome: Outcome
    cycles: int  # from the command to ``done``
    tiles: int = 0  # tiles placed: the move and its forced plays

    @property
    def legal(self) -> bool:
        return self.verdict is Verdict.LEGAL


def window_cell(box, column: int, row: int, width: int, height: int) -> tuple[int, int, bool]:
    """(x, y, outside): the window cell a move at notation (column, row) names.

    ``box`` is (x, y, w, h) as the gateware reports it (window cell of the min corner and size),
    or None on the empty board. Column 0 / row 0 is the ring just west / north of the box. A cell
    beyond the ring (or, on the empty board, any cell but @0) touches no tile and has no window
    cell of its own (it would alias onto another cell of the torus): ``outside`` is then true and
    the cell is (0, 0). This is what the notation decoder (``hdl.notation.BoxMapper``) computes.
    """
    if box is None:
        return (0, 0, False) if (column, row) == (0, 0) else (0, 0, True)
    x, y, w, h = box
    if column > w + 1 or row > h + 1:
        return 0, 0, True
    return (x - 1 + column) % width, (y - 1 + row) % height, False


#: No command takes this long (a move takes at most about W*H + 10 clocks).
_MAX_CYCLES = 1 << 16


class RtlRules:
    """The gateware rules core as a Python object.

    :class:`~trax_fpga.hdl.track_rules.TrackRules` on a C x R ``torus`` (powers of two).
    ``backend`` is ``"amaranth"`` (amaranth.sim, the default), ``"verilator"``
    (:class:`trax_fpga.sim.verilator.VerilatorSim`: built once, then much faster) or any object
    with the :class:`Backend` methods, made for ``self.component``.

    >>> with RtlRules((8, 8)) as rules:
    ...     rules.new_game()
    ...     rules.play("@0+").verdict
    <Verdict.LEGAL: 0>
    """

    def __init__(self, torus: tuple[int, int] = DEFAULT_TORUS, backend="amaranth") -> None:
        self.width, self.height = torus
        self.component = TrackRules(self.width, self.height)
        if backend == "amaranth":
            backend = AmaranthSimBackend(self.component)
        elif backend == "verilator":
            from .verilator import VerilatorSim

            backend = VerilatorSim(self.component)
        elif isinstance(backend, str):
            raise ValueError(
                f"backend must be 'amaranth', 'verilator' or an object, not {backend!r}"
            )
        self.backend: Backend = backend
        self.backend.set("rules__cmd_valid", 0)

    def __enter__(self) -> RtlRules:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def close(self) -> None:
        self.backend.close()

    # --- commands ------------------------------------------------------------------------------

    def _command(
        self, command: Command, x: int = 0, y: int = 0, symbol=Symbol.CROSS, outside=False
    ):
        backend = self.backend
        backend.set("rules__cmd", command.value)
        backend.set("rules__move__x", x)
        backend.set("rules__move__y", y)
        backend.set("rules__move__symbol", symbol.value)
        backend.set("outside", int(outside))
        backend.set("rules__cmd_valid", 1)
        backend.tick()
        backend.set("rules__cmd_valid", 0)
        tick_until = getattr(backend, "tick_until", None)
        if tick_until is not None:
            tick_until("rules__done", 1, max_cycles=_MAX_CYCLES)
        else:
            for _ in range(_MAX_CYCLES):
                if backend.get("rules__done"):
                    break
                backend.tick()
            else:
                raise TimeoutError(f"the rules core gave no verdict in {_MAX_CYCLES} clocks")
        names = ("rules__verdict", "rules__outcome", "cycles", "tiles")
        get_many = getattr(backend, "get_many", None)
        values = dict(
            zip(
                names, get_many(names) if get_many else [backend.get(n) for n in names], strict=True
            )
        )
        verdict = Verdict(values.pop("rules__verdict"))
        outcome = Outcome(values.pop("rules__outcome"))
        return PlayResult(verdict=verdict, outcome=outcome, **values)

    def new_game(self) -> PlayResult:
        return self._command(Command.NEW_GAME)

    def play_cell(self, x: int, y: int, symbol: Symbol, outside: bool = False) -> PlayResult:
        """Play ``symbol`` at torus cell (x, y) (or beyond the box's ring, if ``outside``)."""
        return self._command(Command.PLAY, x, y, symbol, outside)

    def play(self, move: str | Move) -> PlayResult:
        """Play a move in notation (relative to the box the gateware reports).

        Raises :class:`InvalidMoveError` for malformed text and :class:`WindowOverflow` when the
        gateware cannot judge the move on its torus.
        """
        if isinstance(move, str):
            move = Move.parse(move)
        x, y, outside = window_cell(self.box, move.column, move.row, self.width, self.height)
        result = self.play_cell(x, y, gateware_symbol(move.symbol), outside)
        if result.verdict is Verdict.OVERFLOW:
            raise WindowOverflow(f"move {move} outgrows a {self.width}x{self.height} torus")
        return result

    # --- state ---------------------------------------------------------------------------------

    @property
    def box(self) -> tuple[int, int, int, int] | None:
        """(x, y, w, h) of the box in torus cells, or None when the board is empty."""
        if self.backend.get("rules__box__empty"):
            return None
        return tuple(self.backend.get(f"rules__box__{name}") for name in "xywh")

    @property
    def outcome(self) -> Outcome:
        return Outcome(self.backend.get("rules__outcome"))

    @property
    def overflow(self) -> bool:
        return bool(self.backend.get("overflow"))

    def tile(self, x: int, y: int) -> int:
        """The tile at torus cell (x, y): its white-edge mask, 0 = empty."""
        self.backend.set("peek_x", x)
        self.backend.set("peek_y", y)
        self.backend.tick()
        return self.backend.get("peek_tile")

    def tiles(self) -> list[list[int]]:
        """The torus as ``[y][x]`` of tile values (white-edge masks, 0 = empty)."""
        return [[self.tile(x, y) for x in range(self.width)] for y in range(self.height)]


def judge_game(
    moves: Iterable[str],
    torus: tuple[int, int] = DEFAULT_TORUS,
    *,
    rules: RtlRules | None = None,
    backend: str = "amaranth",
) -> str:
    """What ``trax judge`` prints for a game, with every verdict from the gateware.

    ``white-loop``, ``white-line``, ``black-loop``, ``black-line``, ``none``, ``illegal <k>`` or
    ``invalid <k>`` (the 1-based number of the first malformed or illegal move; a move after a
    won game is illegal). Raises :class:`WindowOverflow` if the game outgrows the torus. Pass
    ``rules`` to reuse a running simulation (its torus is then the one used).
    """
    own = rules is None
    if own:
        rules = RtlRules(torus, backend)
    try:
        rules.new_game()
        for number, text in enumerate(moves, start=1):
            try:
                move = Move.parse(text)
            except InvalidMoveError:
                return f"invalid {number}"
            if not rules.play(move).legal:
                return f"illegal {number}"
        return rules.outcome.text
    finally:
        if own:
            rules.close()
