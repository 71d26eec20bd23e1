"""The protocol engine on Verilator with a scripted search, driven line by line from Python.

:class:`ProtocolBench` joins a :class:`~trax_fpga.hdl.protocol.ProtocolEngine` to the real
rules of a game on the block-RAM board (:class:`~trax_fpga.hdl.track_rules.TrackRules`) and
to :class:`SearchDouble`, a stand-in for the search whose answer (a torus cell and a symbol, or
"no move") is set from the test, so that the engine can be checked without the real search.
Bytes go in and out as streams, one per clock at most (no UART). :class:`BenchDriver` hides the
simulator behind ordinary calls::

    with BenchDriver(16, 16) as bench:
        assert bench.ask(b"-T\\n") == b"FP\\n"
        bench.script(position, "B1/")      # the double answers B1/ in this position next
        answer = bench.ask(b"A1+\\n")
"""

from __future__ import annotations

from amaranth import Module, Mux, ResetInserter, Signal
from amaranth.lib import stream, wiring
from amaranth.lib.wiring import In, Out

from trax_fpga.hdl.protocol import (
    DEFAULT_GAME_LOG,
    DEFAULT_MAX_LINE,
    GameState,
    ProtocolEngine,
    SearchKind,
    search_signature,
)
from trax_fpga.hdl.track_rules import Outcome, TrackRules
from trax_fpga.hdl.types import Colour, Symbol
from trax_fpga.host.notation import Move
from trax_fpga.host.position import Position

from .symbols import gateware_symbol
from .verilator import VerilatorSim

__all__ = [
    "BenchDriver",
    "ProtocolBench",
    "SearchDouble",
    "window_cell_of",
]


class SearchDouble(wiring.Component):
    """The search as the protocol engine drives it (``search``, :func:`search_signature`),
    answering each ``start`` after ``latency`` clocks with the move set on
    ``answer_found``/``answer_x``/``answer_y``/``answer_symbol``, or for a ``GUESS`` search (a
    pondering engine's guess of the reply) with the one set on ``guess_*``; a ``rearm`` while
    busy (a re-armed clock budget) starts the latency again. ``starts`` counts starts."""

    def __init__(self, width: int, height: int):
        super().__init__(
            {
                "search": In(search_signature(width, height)),
                "nodes": Out(32),
                "cycles": Out(32),
                "answer_found": In(1),
                "answer_x": In(range(width)),
                "answer_y": In(range(height)),
                "answer_symbol": In(Symbol),
                "guess_found": In(1),
                "guess_x": In(range(width)),
                "guess_y": In(range(height)),
                "guess_symbol": In(Symbol),
                "latency": In(32),
                "starts": Out(16),
            }
        )

    def elaborate(self, platform):
        m = Module()
        search = self.search
        left = Signal(32)
        guessing = Signal()
        m.d.sync += search.done.eq(0)
        with m.If(search.start & ~search.busy):
            m.d.sync += [
                search.busy.eq(1),
                left.eq(self.latency),
                self.cycles.eq(0),
                self.starts.eq(self.starts + 1),
                guessing.eq(search.kind == SearchKind.GUESS),
            ]
        with m.Elif(search.busy & search.rearm):
            m.d.sync += left.eq(self.latency)
        with m.Elif(search.busy):
            m.d.sync += [left.eq(left - 1), self.cycles.eq(self.cycles + 1)]
            with m.If(left == 0):
                m.d.sync += [
                    search.busy.eq(0),
                    search.done.eq(1),
                    search.found.eq(Mux(guessing, self.guess_found, self.answer_found)),
                    search.move.x.eq(Mux(guessing, self.guess_x, self.answer_x)),
                    search.move.y.eq(Mux(guessing, self.guess_y, self.answer_y)),
                    search.move.symbol.eq(Mux(guessing, self.guess_symbol, self.answer_symbol)),
                    self.nodes.eq(1),
                ]
        return m


class ProtocolBench(wiring.Component):
    """The engine, the rules on a W x H block-RAM torus and the search double; streams and status
    at the top."""

    def __init__(self, width: int, height: int, *, team: str = "FP", opening: str = "+",
                 max_line: int = DEFAULT_MAX_LINE, ponder: bool = False,
                 game_log: int = DEFAULT_GAME_LOG):  # fmt: skip
        self.width, self.height = width, height
        self._options = {"team": team, "opening": opening, "max_line": max_line,
                         "ponder": ponder, "game_log": game_log}  # fmt: skip
        super().__init__(
            {
                "rx_stream": In(stream.Signature(8)),
                "tx_stream": Out(stream.Signature(8)),
                "framing_error": In(1),
                "answer_found": In(1),
                "answer_x": In(range(width)),
                "answer_y": In(range(height)),
                "answer_symbol": In(Symbol),
                "guess_found": In(1),
                "guess_x": In(range(width)),
                "guess_y": In(range(height)),
                "guess_symbol": In(Symbol),
                "latency": In(32),
                "starts": Out(16),
                "guesses": Out(16),
                "rearms": Out(16),
                "aborts": Out(16),
                "game": Out(GameState),
                "colour": Out(Colour),
                "thinking": Out(1),
                "error": Out(1),
                "overflow": Out(1),
                "outcome": Out(Outcome),
                "answer_cycles": Out(32),
                "max_answer_cycles": Out(32),
                "rejected_lines": Out(16),
            }
        )

    def elaborate(self, platform):
        m = Module()
        w, h = self.width, self.height
        m.submodules.engine = engine = ProtocolEngine(w, h, **self._options)
        m.submodules.rules = rules = TrackRules(w, h)
        double = SearchDouble(w, h)
        m.submodules.search = ResetInserter(engine.search_abort)(double)
        wiring.connect(m, wiring.flipped(self.rx_stream), engine.rx_stream)
        wiring.connect(m, engine.tx_stream, wiring.flipped(self.tx_stream))
        wiring.connect(m, engine.rules, rules.rules)
        wiring.connect(m, engine.search, double.search)
        m.d.comb += [
            engine.framing_error.eq(self.framing_error),
            double.answer_found.eq(self.answer_found),
            double.answer_x.eq(self.answer_x),
            double.answer_y.eq(self.answer_y),
            double.answer_symbol.eq(self.answer_symbol),
            double.guess_found.eq(self.guess_found),
            double.guess_x.eq(self.guess_x),
            double.guess_y.eq(self.guess_y),
            double.guess_symbol.eq(self.guess_symbol),
            double.latency.eq(self.latency),
            self.starts.eq(double.starts),
        ]
        # Counted here, not in the double (an abort resets it): the guesses started, and the
        # re-armed searches (a right guess while its search ran).
        with m.If(engine.search.start & ~double.search.busy):
            with m.If(engine.search.kind == SearchKind.GUESS):
                m.d.sync += self.guesses.eq(self.guesses + 1)
        with m.If(engine.search.rearm & double.search.busy):
            m.d.sync += self.rearms.eq(self.rearms + 1)
        with m.If(engine.search_abort):
            m.d.sync += self.aborts.eq(self.aborts + 1)
        for name in ("game", "colour", "thinking", "error", "overflow", "answer_cycles",
                     "max_answer_cycles", "rejected_lines"):  # fmt: skip
            m.d.comb += getattr(self, name).eq(getattr(engine, name))
        m.d.comb += self.outcome.eq(rules.rules.outcome)
        return m


def window_cell_of(position: Position, move: Move | str, width: int, height: int):
    """The window cell (x mod W, y mod H) of the board cell ``move`` names in ``position``."""
    if isinstance(move, str):
        move = Move.parse(move)
    x, y = position.cell_of(move)
    return x % width, y % height


class BenchDriver:
    """A :class:`ProtocolBench` on Verilator behind line-level calls (a context manager)."""

    #: Clocks allowed for an answer (the double's latency is added).
    ANSWER_CYCLES = 5_000

    def __init__(self, width: int, height: int, *, latency: int = 50, **options):
        self.width, self.height = width, height
        self.bench = ProtocolBench(width, height, **options)
        self.sim = VerilatorSim(self.bench)
        self.latency = latency
        self.sim.set("latency", latency)

    def __enter__(self) -> BenchDriver:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def close(self) -> None:
        self.sim.close()

    def status(self, name: str) -> int:
        return self.sim.get(name)

    @property
    def game(self) -> GameState:
        return GameState(self.sim.get("game"))

    def send(self, data: bytes, *, gap: int = 0) -> None:
        """Send bytes, one per clock (``gap`` idle clocks after each)."""
        if gap:
            for byte in data:
                self.sim.send("rx_stream", [byte], max_cycles=10)
                self.sim.tick(gap)
        elif data:
            self.sim.send("rx_stream", list(data), max_cycles=len(data) + 10)

    def ask(self, data: bytes, *, max_cycles: int | None = None) -> bytes:
        """Send ``data`` and return the answer line (up to its LF) or what came before a
        time-out (``b""`` if nothing)."""
        if max_cycles is None:
            max_cycles = self.ANSWER_CYCLES + self.latency
        try:
            result = self.sim.exchange(
                "rx_stream", list(data), "tx_stream", until=0x0A, max_cycles=max_cycles
            )
        except TimeoutError as error:
            return bytes(error.args[1].received)
        return bytes(result.received)

    def silent(self, data: bytes, *, cycles: int = 2_000) -> None:
        """Send ``data``, run ``cycles`` clocks and check that nothing was sent."""
        answer = self.ask(data, max_cycles=cycles)
        assert answer == b"", f"{data!r} was answered with {answer!r}, expected nothing"

    def framing_error(self) -> None:
        """One framing-error strobe from the UART."""
        self.sim.set("framing_error", 1)
        self.sim.tick()
        self.sim.set("framing_error", 0)

    def script(self, position: Position | None, move: Move | str | None) -> None:
        """The double's next answer: ``move`` in ``position``, or "no move" (``None``)."""
        self._set_answer("answer", position, move)

    def script_guess(self, position: Position, move: Move | str | None) -> None:
        """The double's answer to the next guess (a pondering engine's search of the reply to
        its move): ``move`` in ``position`` (the position after the board's move), or no move."""
        self._set_answer("guess", position, move)

    def _set_answer(self, prefix: str, position: Position | None, move) -> None:
        if move is None:
            self.sim.set(f"{prefix}_found", 0)
            return
        if isinstance(move, str):
            move = Move.parse(move)
        x, y = window_cell_of(position, move, self.width, self.height)
        self.sim.set(f"{prefix}_found", 1)
        self.sim.set(f"{prefix}_x", x)
        self.sim.set(f"{prefix}_y", y)
        self.sim.set(f"{prefix}_symbol", gateware_symbol(move.symbol).value)

    def script_cell(self, x: int, y: int, symbol: Symbol) -> None:
        """The double's next answer as a window cell."""
        self.sim.set("answer_found", 1)
        self.sim.set("answer_x", x)
        self.sim.set("answer_y", y)
        self.sim.set("answer_symbol", symbol.value)

    def set_latency(self, latency: int) -> None:
        self.latency = latency
        self.sim.set("latency", latency)
