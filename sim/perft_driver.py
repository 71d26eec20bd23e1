"""Hardware perft behind an ordinary function: ``trax perft N --backend rtl``.

The gateware (:class:`trax_fpga.hdl.track_perft.TrackPerft`, a walker over the block-RAM
board's commands) runs on Verilator. The position is played on its board move by move; from the
empty board the first move is fixed by the rules (``@0+`` or ``@0/``), so depth ``d`` from the
empty board is the sum of the gateware's counts of depth ``d - 1`` from the two positions after
those moves (depth 1 is those two moves).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from ..hdl.track_board import TrackOp, check_torus
from ..hdl.track_perft import TrackPerft
from ..hdl.types import Symbol, Verdict
from ..host.errors import TraxError
from ..host.notation import Move
from ..host.position import Position
from .rules_driver import window_cell
from .symbols import gateware_symbol
from .verilator import VerilatorSim

__all__ = ["DEFAULT_TORUS", "MAX_DEPTH", "RtlPerft", "rtl_perft"]

#: The torus of the simulated perft unit: holds every position of depth <= 7 from the empty
#: board with its ring (a box grows by one row or column a move), and is cheap to clear.
DEFAULT_TORUS = 16

#: The deepest count the unit is built for (its board stacks that many plies).
MAX_DEPTH = 6

_MAX_CYCLES = 1 << 16


class RtlPerft:
    """The simulated perft unit on a ``torus`` x ``torus`` board: ``count(moves, depth) ->
    (count, cycles)``."""

    def __init__(self, torus: int = DEFAULT_TORUS, max_depth: int = MAX_DEPTH):
        self.width, self.height = check_torus(torus, torus)
        self.max_depth = max_depth
        self.sim = VerilatorSim(TrackPerft(torus, torus, max_depth))
        self.sim.set("start", 0)
        self.sim.set("game__start", 0)

    def close(self) -> None:
        self.sim.close()

    def __enter__(self) -> RtlPerft:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def _game(self, op: TrackOp, x=0, y=0, symbol=Symbol.CROSS, outside=False) -> Verdict:
        sim = self.sim
        for name, value in (("game__op", op.value), ("game__move__x", x), ("game__move__y", y)):
            sim.set(name, value)
        sim.set("game__move__symbol", symbol.value)
        sim.set("game__outside", int(outside))
        sim.set("game__start", 1)
        sim.tick()
        sim.set("game__start", 0)
        sim.tick_until("game__done", 1, max_cycles=_MAX_CYCLES)
        return Verdict(sim.get("game__verdict"))

    def load(self, moves: Sequence[str | Move]) -> None:
        """A new game on the unit's board, then ``moves`` (legal, in notation)."""
        self._game(TrackOp.NEW_GAME)
        for text in moves:
            move = Move.parse(text) if isinstance(text, str) else text
            box = None
            if not self.sim.get("game__box__empty"):
                names = ["game__box__x", "game__box__y", "game__box__w", "game__box__h"]
                box = tuple(self.sim.get_many(names))
            x, y, outside = window_cell(box, move.column, move.row, self.width, self.height)
            verdict = self._game(TrackOp.PLAY, x, y, gateware_symbol(move.symbol), outside)
            if verdict is Verdict.OVERFLOW:
                raise TraxError(self._outgrew())
            if verdict is not Verdict.LEGAL:
                raise TraxError(f"{move}: the gateware finds it illegal ({verdict.name.lower()})")

    def count(self, depth: int) -> tuple[int, int]:
        """The legal move sequences of ``depth`` plies from the loaded position (not the empty
        board), and the clocks the unit took."""
        if not 1 <= depth <= self.max_depth:
            raise TraxError(f"the simulated perft unit counts depths 1 to {self.max_depth}")
        sim = self.sim
        if sim.get("game__box__empty"):
            raise TraxError("the gateware counts from a position with at least one tile")
        sim.set("depth", depth)
        sim.set("start", 1)
        sim.tick()
        sim.set("start", 0)
        sim.tick_until("done", 1, max_cycles=10**12)
        count, cycles, overflow = sim.get_many(["count", "cycles", "overflow"])
        if overflow:
            raise TraxError(self._outgrew())
        return count, cycles

    def _outgrew(self) -> str:
        return (
            f"the game outgrew the {self.width}x{self.height} torus "
            "(its box plus a ring must fit: use a larger --torus)"
        )


def rtl_perft(depth: int, moves: Sequence[str] = (), torus: int = DEFAULT_TORUS) -> Iterator[str]:
    """Lines ``<depth> <count>`` for depths 1..``depth``, then ``cycles <n>`` (all depths)."""
    start = Position.from_moves(moves)  # the reference engine checks the moves first
    empty = start.box is None
    deepest = MAX_DEPTH + empty
    if depth > deepest:
        raise TraxError(f"the simulated perft unit counts at most depth {deepest} from here")
    roots = [["@0+"], ["@0/"]] if empty else [list(moves)]
    total_cycles = 0
    with RtlPerft(torus) as unit:
        for d in range(1, depth + 1):
            if empty and d == 1:
                yield f"1 {len(roots)}"
                continue
            total = 0
            for root in roots:
                unit.load(root)
                count, cycles = unit.count(d - 1 if empty else d)
                total += count
                total_cycles += cycles
            yield f"{d} {total}"
    yield f"cycles {total_cycles}"
