"""Hardware perft behind an ordinary function: ``trax perft N --backend rtl``.

The gateware (:class:`trax_fpga.hdl.perft.Perft`) runs on Verilator. From the empty board the
first move is fixed by the rules (``@0+`` or ``@0/``), so depth ``d`` from the empty board is
the sum of the gateware's counts of depth ``d - 1`` from the two positions after those moves
(depth 1 is those two moves).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from ..hdl.perft import Perft
from ..host.errors import TraxError
from ..host.position import Position
from .verilator import VerilatorSim

__all__ = ["RtlPerft", "rtl_perft"]

#: A window that holds every position of depth <= 6 from the empty board with its ring.
DEFAULT_WINDOW = 9


def white_value(position: Position, width: int, height: int) -> int:
    """The board as the gateware's four white-edge planes, packed into one integer."""
    n = width * height
    planes = [0, 0, 0, 0]
    for (x, y), tile in position.tiles.items():
        bit = 1 << ((y % height) * width + x % width)
        for d in range(4):
            if (tile >> d) & 1:
                planes[d] |= bit
    return sum(plane << (d * n) for d, plane in enumerate(planes))


class RtlPerft:
    """The simulated perft unit: ``count(position, depth) -> (count, cycles)``."""

    def __init__(self, window: int = DEFAULT_WINDOW, max_depth: int = 6):
        self.width = self.height = window
        self.sim = VerilatorSim(Perft(window, window, max_depth))

    def close(self) -> None:
        self.sim.close()

    def __enter__(self) -> RtlPerft:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def count(self, position: Position, depth: int) -> tuple[int, int]:
        if position.box is None:
            raise TraxError("the gateware counts from a position with at least one tile")
        sim, box = self.sim, position.box
        sim.set("white", white_value(position, self.width, self.height))
        sim.set("box_x", box.min_x % self.width)
        sim.set("box_y", box.min_y % self.height)
        sim.set("box_w", box.width)
        sim.set("box_h", box.height)
        sim.set("depth", depth)
        sim.set("start", 1)
        sim.tick()
        sim.set("start", 0)
        sim.tick_until("done", 1, max_cycles=10**10)
        count, cycles, overflow = sim.get_many(["count", "cycles", "overflow"])
        if overflow:
            raise TraxError(f"the game outgrew the {self.width}x{self.height} window")
        return count, cycles


def rtl_perft(depth: int, moves: Sequence[str] = ()) -> Iterator[str]:
    """Lines ``<depth> <count>`` for depths 1..``depth``, then ``cycles <n>`` (all depths)."""
    start = Position.from_moves(moves)
    deepest = 6 + (start.box is None)
    if depth > deepest:
        raise TraxError(f"the simulated perft unit counts at most depth {deepest} from here")
    roots = [start] if start.box is not None else []
    if start.box is None:
        for first in ("@0+", "@0/"):
            roots.append(Position.from_moves([first]))
    total_cycles = 0
    with RtlPerft() as unit:
        for d in range(1, depth + 1):
            if start.box is None:
                if d == 1:
                    yield f"1 {len(roots)}"
                    continue
                results = [unit.count(root, d - 1) for root in roots]
            else:
                results = [unit.count(start, d)]
            total_cycles += sum(cycles for _, cycles in results)
            yield f"{d} {sum(count for count, _ in results)}"
    yield f"cycles {total_cycles}"
