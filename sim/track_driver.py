"""The block-RAM board (``hdl/track_board.py``) behind ordinary methods, on any simulator.

:class:`TrackBoardSim` drives a :class:`~trax_fpga.hdl.track_board.TrackBoard` through the
same small backend interface as :class:`~.rules_driver.RtlRules` (``set``/``get``/``tick`` of
named ports): games, plies and their undo, candidates, the frontier list's compaction. Tests
compare what it returns with the reference engine and with :mod:`trax_fpga.host.trackorder`.
"""

from __future__ import annotations

import dataclasses

from trax_fpga.hdl.track_board import TrackBoard, TrackOp
from trax_fpga.hdl.types import Symbol, Verdict
from trax_fpga.host.notation import Move

from .rules_driver import AmaranthSimBackend, Backend, window_cell
from .symbols import gateware_symbol

__all__ = ["Candidate", "SearchResult", "TrackBoardSim", "TrackSearchSim", "Turn"]

_MAX_CYCLES = 1 << 20


@dataclasses.dataclass(frozen=True, slots=True)
class Turn:
    """A PLAY or PLY: the verdict, the tiles placed, what it completed, the clocks it took."""

    verdict: Verdict
    tiles: int
    wins: tuple[bool, bool, bool, bool]  # white loop, white line, black loop, black line
    cycles: int

    @property
    def legal(self) -> bool:
        return self.verdict is Verdict.LEGAL


@dataclasses.dataclass(frozen=True, slots=True)
class Candidate:
    """A candidate move: its torus cell and symbol, and the cursor just after it."""

    x: int
    y: int
    symbol: Symbol
    next_index: int
    next_symbol: int


class TrackBoardSim:
    """A :class:`TrackBoard` of C x R (``torus``) with ``plies`` and the board's ``options``
    (its counts kept unless they say ``counts=False``), on ``backend`` (``"amaranth"``,
    ``"verilator"`` or a :class:`~.rules_driver.Backend`)."""

    def __init__(
        self, torus=(16, 16), backend="amaranth", *, plies: int = 8, options: dict | None = None
    ) -> None:
        self.width, self.height = torus
        options = {"counts": True, **(options or {})}
        self.component = TrackBoard(self.width, self.height, plies, **options)
        if backend == "amaranth":
            backend = AmaranthSimBackend(self.component)
        elif backend == "verilator":
            from .verilator import VerilatorSim

            backend = VerilatorSim(self.component)
        self.backend: Backend = backend
        self.backend.set("start", 0)
        self.last_cycles = 0  # the clocks the last command took

    def __enter__(self) -> TrackBoardSim:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def close(self) -> None:
        self.backend.close()

    def _run(self, op: TrackOp, **inputs) -> int:
        """Start ``op``; the clocks until ``done`` (kept in :attr:`last_cycles`)."""
        self.last_cycles = self._clocks(op, inputs)
        return self.last_cycles

    def _clocks(self, op: TrackOp, inputs: dict) -> int:
        backend = self.backend
        backend.set("op", op.value)
        for name, value in inputs.items():
            backend.set(name, int(value))
        backend.set("start", 1)
        backend.tick()
        backend.set("start", 0)
        tick_until = getattr(backend, "tick_until", None)
        if tick_until is not None:
            return 1 + tick_until("done", 1, max_cycles=_MAX_CYCLES)
        for cycles in range(1, _MAX_CYCLES):
            if backend.get("done"):
                return cycles
            backend.tick()
        raise TimeoutError(f"the board gave no answer in {_MAX_CYCLES} clocks")

    def _get(self, *names: str) -> list[int]:
        get_many = getattr(self.backend, "get_many", None)
        return get_many(names) if get_many else [self.backend.get(n) for n in names]

    # --- commands ------------------------------------------------------------------------------

    def new_game(self) -> None:
        self._run(TrackOp.NEW_GAME)

    def play_cell(self, x: int, y: int, symbol: Symbol, *, ply=False, outside=False) -> Turn:
        op = TrackOp.PLY if ply else TrackOp.PLAY
        cycles = self._run(op, move__x=x, move__y=y, move__symbol=symbol.value, outside=outside)
        verdict, tiles, *wins = self._get(
            "verdict", "tiles", "white_loop", "white_line", "black_loop", "black_line"
        )
        return Turn(Verdict(verdict), tiles, tuple(bool(w) for w in wins), cycles)

    def play(self, move: str | Move, *, ply=False) -> Turn:
        """A move in notation, relative to the box the board reports."""
        if isinstance(move, str):
            move = Move.parse(move)
        x, y, outside = window_cell(self.box, move.column, move.row, self.width, self.height)
        return self.play_cell(x, y, gateware_symbol(move.symbol), ply=ply, outside=outside)

    def undo(self) -> int:
        """Take back the last ply; the clocks it took."""
        return self._run(TrackOp.UNDO)

    def compact(self) -> int:
        return self._run(TrackOp.COMPACT)

    def candidate(self, index: int = 0, symbol: int = 0) -> Candidate | None:
        """The first candidate at or after (index, symbol)."""
        self._run(TrackOp.CANDIDATE, cursor=index | symbol << self._index_bits)
        found, x, y, s, cursor = self._get(
            "found", "cand__x", "cand__y", "cand__symbol", "next_cursor"
        )
        if not found:
            return None
        mask = (1 << self._index_bits) - 1
        return Candidate(x, y, Symbol(s), cursor & mask, cursor >> self._index_bits)

    def step(
        self,
        index: int = 0,
        symbol: int = 0,
        *,
        skip: tuple[int, int, Symbol] | None = None,
        play: bool = True,
        undo: bool = False,
    ) -> Candidate | None:
        """``NEXT`` (or, with ``undo``, ``UNDO_NEXT``) from (index, symbol): the legal move it
        played (or, without ``play``, the candidate it found), passing over ``skip`` (torus x,
        y, symbol); None when there is none. The move's wins are in :attr:`wins`."""
        skip_x, skip_y, skip_symbol = skip or (0, 0, Symbol.CROSS)
        self._run(
            TrackOp.UNDO_NEXT if undo else TrackOp.NEXT,
            cursor=index | symbol << self._index_bits,
            play=play,
            proceed=undo,
            skip_valid=skip is not None,
            skip__x=skip_x,
            skip__y=skip_y,
            skip__symbol=skip_symbol.value,
        )
        found, x, y, s, cursor = self._get(
            "found", "cand__x", "cand__y", "cand__symbol", "next_cursor"
        )
        if not found:
            return None
        mask = (1 << self._index_bits) - 1
        return Candidate(x, y, Symbol(s), cursor & mask, cursor >> self._index_bits)

    @property
    def wins(self) -> tuple[bool, bool, bool, bool]:
        """What the last turn completed: white loop, white line, black loop, black line."""
        names = ("white_loop", "white_line", "black_loop", "black_line")
        return tuple(bool(w) for w in self._get(*names))

    def candidates(self) -> list[Candidate]:
        """Every candidate, in the board's order."""
        found, index, symbol = [], 0, 0
        while (candidate := self.candidate(index, symbol)) is not None:
            found.append(candidate)
            index, symbol = candidate.next_index, candidate.next_symbol
        return found

    @property
    def _index_bits(self) -> int:
        return (self.width * self.height).bit_length()

    # --- state ---------------------------------------------------------------------------------

    @property
    def box(self) -> tuple[int, int, int, int] | None:
        if self.backend.get("box__empty"):
            return None
        return tuple(self._get("box__x", "box__y", "box__w", "box__h"))

    @property
    def ply(self) -> int:
        return self.backend.get("ply")

    @property
    def frontier_len(self) -> int:
        return self.backend.get("frontier_len")

    def features(self) -> tuple[tuple[int, int], tuple[int, int]]:
        """(attacks indexed by colour (black 0, white 1), white's loop potential less black's),
        as the board keeps them."""
        ba, wa, lead = self._get("black_attacks", "white_attacks", "potential_lead")
        return (ba, wa), lead

    def position_key(self) -> int:
        """The position's Zobrist key as the board keeps it (0 without ``position_key``)."""
        return self.backend.get("position_key")

    def tile(self, x: int, y: int) -> int:
        self.backend.set("peek_x", x)
        self.backend.set("peek_y", y)
        self.backend.tick()
        return self.backend.get("peek_tile")

    def tiles(self) -> list[list[int]]:
        return [[self.tile(x, y) for x in range(self.width)] for y in range(self.height)]


@dataclasses.dataclass(frozen=True, slots=True)
class SearchResult:
    """What the gateware search chose (torus cell and symbol), and its figures."""

    found: bool
    x: int
    y: int
    symbol: Symbol
    score: int
    depth: int
    nodes: int
    cycles: int


class TrackSearchSim:
    """A :class:`~trax_fpga.hdl.track_search.TrackSearch` (a game on the block-RAM board and its
    search) behind ordinary methods, on ``backend`` as :class:`TrackBoardSim`; with ``engines``,
    a :class:`~trax_fpga.hdl.parallel_search.ParallelSearch` of that many (splitting the
    previous best's line to ``pv_plies``); with ``component``, that search (of the same members)
    on ``torus``. ``board_options`` are every engine's
    :class:`~trax_fpga.hdl.track_board.TrackBoard` options, ``move_table`` the entries of
    every engine's table of best moves (with ``shared_table``, of the one table of them all;
    with ``table_scores``, holding the nodes' values too; ``trace``: the search's ``trace``
    members, for :mod:`.search_trace`). On Verilator, a design built before
    is found by these parameters and run without being made again (``component`` stays None)."""

    def __init__(
        self,
        torus=(16, 16),
        backend="amaranth",
        *,
        max_depth: int = 3,
        evaluation: bool = True,
        engines: int | None = None,
        pv_plies: int = 1,
        component=None,
        board_options: dict | None = None,
        move_table: int = 0,
        shared_table: bool = False,
        table_scores: bool = False,
        attack_cut: bool = False,
        newest_first: bool = False,
        trace: bool = False,
        threads: int = 1,
        retime: bool = False,
    ) -> None:
        self.width, self.height = torus
        if trace and engines is not None:
            raise ValueError("the trace is of one engine's search (engines None)")
        if threads != 1 and (engines is None or backend != "verilator"):
            raise ValueError("two threads a logic are a parallel search's, on Verilator")

        def make():
            from trax_fpga.hdl.parallel_search import ParallelSearch
            from trax_fpga.hdl.track_search import TrackSearch

            if engines is None:
                return TrackSearch(
                    self.width,
                    self.height,
                    max_depth,
                    evaluation=evaluation,
                    board_options=board_options,
                    move_table=move_table,
                    table_scores=table_scores,
                    attack_cut=attack_cut,
                    newest_first=newest_first,
                    trace=trace,
                )
            return ParallelSearch(
                self.width,
                self.height,
                max_depth,
                engines=engines,
                evaluation=evaluation,
                pv_plies=pv_plies,
                move_table=move_table,
                shared_table=shared_table,
                table_scores=table_scores,
                attack_cut=attack_cut,
                newest_first=newest_first,
                board_options=board_options,
                threads=threads,
                retime=retime,
            )

        if component is not None:  # a search built by the caller
            evaluation = component.evaluation
            move_table = getattr(component, "move_table", 0)
            table_scores = getattr(component, "table_scores", False)
            attack_cut = getattr(component, "attack_cut", False)
            newest_first = getattr(component, "newest_first", False)
        self.evaluation, self.move_table, self.table_scores = evaluation, move_table, table_scores
        self.attack_cut, self.newest_first = attack_cut, newest_first
        # The component, when one was made: a Verilator build found by the design's parameters
        # is run without making it (an Amaranth design made and never elaborated is a warning).
        self.component = component
        if backend == "verilator" and component is None:
            from .verilator import VerilatorSim, build_by_parameters, gateware_key

            parameters = (torus, max_depth, evaluation, engines, pv_plies, board_options)
            options = (move_table, shared_table, table_scores)
            if attack_cut or newest_first:  # (the keys of the builds without stay as they were)
                options += (attack_cut, newest_first)
            if trace:
                options += ("trace",)
            if threads != 1:
                options += (("threads", threads, "retimed" if retime else "c-slowed"),)
            key = gateware_key(repr(("TrackSearchSim", *parameters, *options)))
            backend = VerilatorSim(build_by_parameters(key, make))
        else:
            if self.component is None:
                self.component = make()
            if backend == "amaranth":
                backend = AmaranthSimBackend(self.component)
            elif backend == "verilator":
                from .verilator import VerilatorSim

                backend = VerilatorSim(self.component)
        if getattr(self.component, "threads", threads) == 2:
            from .threads import SlowClockView

            backend = SlowClockView(backend)  # (the design runs every other clock)
        self.backend: Backend = backend
        self.backend.set("game__start", 0)
        self.backend.set("start", 0)

    def __enter__(self) -> TrackSearchSim:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def close(self) -> None:
        self.backend.close()

    def _has_port(self, name: str) -> bool:
        if self.component is None:
            return name in self.backend.model.ports
        return name in self.component.signature.members

    def _port_width(self, name: str) -> int:
        if self.component is None:
            return self.backend.model.ports[name].width
        return len(getattr(self.component, name))

    def _wait(self, port: str) -> int:
        backend = self.backend
        tick_until = getattr(backend, "tick_until", None)
        if tick_until is not None:
            return 1 + tick_until(port, 1, max_cycles=1 << 30)
        cycles = 1
        while not backend.get(port):
            backend.tick()
            cycles += 1
        return cycles

    def _game(self, op: TrackOp, x=0, y=0, symbol=Symbol.CROSS, outside=False) -> Verdict:
        backend = self.backend
        for name, value in (("game__op", op.value), ("game__move__x", x), ("game__move__y", y)):
            backend.set(name, value)
        backend.set("game__move__symbol", symbol.value)
        backend.set("game__outside", int(outside))
        backend.set("game__start", 1)
        backend.tick()
        backend.set("game__start", 0)
        self._wait("game__done")
        return Verdict(backend.get("game__verdict"))

    def new_game(self) -> None:
        self._game(TrackOp.NEW_GAME)

    def play(self, move: str | Move) -> Verdict:
        """A game move in notation, relative to the box the board reports."""
        if isinstance(move, str):
            move = Move.parse(move)
        box = None
        if not self.backend.get("game__box__empty"):
            names = ("game__box__x", "game__box__y", "game__box__w", "game__box__h")
            box = tuple(self.backend.get(n) for n in names)
        x, y, outside = window_cell(box, move.column, move.row, self.width, self.height)
        return self._game(TrackOp.PLAY, x, y, gateware_symbol(move.symbol), outside)

    def idle(self, clocks: int) -> None:
        """Let ``clocks`` clocks pass with nothing asked: as a player's do while the serial line
        carries the moves (a table of best moves is emptied after a search then; a search
        started before that waits for it, and its clocks count)."""
        self.backend.tick(clocks)

    def search(
        self, turn: int, budget: int, cycle_budget: int = (1 << 32) - 1, depth: int = 0
    ) -> SearchResult:
        """Choose a move for ``turn`` (1 white, 0 black) within the budgets; ``depth``: the
        deepest iteration, if not 0 (a parallel search only; the others search to their
        ``max_depth``)."""
        backend = self.backend
        if self._has_port("depth_limit"):
            backend.set("depth_limit", depth)
        elif depth:
            raise ValueError("only a parallel search takes a depth limit")
        backend.set("turn", turn)
        backend.set("budget", budget)
        backend.set("cycle_budget", cycle_budget)
        backend.set("start", 1)
        backend.tick()
        backend.set("start", 0)
        self._wait("done")
        names = ("found", "move__x", "move__y", "move__symbol", "score", "depth", "nodes", "cycles")
        get_many = getattr(backend, "get_many", None)
        values = dict(
            zip(names, get_many(names) if get_many else map(backend.get, names), strict=True)
        )
        score = values["score"]
        bits = self._port_width("score")
        if score >= 1 << (bits - 1):
            score -= 1 << bits
        return SearchResult(
            found=bool(values["found"]),
            x=values["move__x"],
            y=values["move__y"],
            symbol=Symbol(values["move__symbol"]),
            score=score,
            depth=values["depth"],
            nodes=values["nodes"],
            cycles=values["cycles"],
        )
