"""The gateware search behind an ordinary function: ``trax best --backend rtl``.

:class:`RtlSearch` runs :class:`trax_fpga.hdl.search.Search` on Verilator and answers with the
same :class:`~trax_fpga.host.hwsearch.HwSearchResult` as the software model, plus the clocks.
"""

from __future__ import annotations

import dataclasses

from ..hdl.search import Search
from ..hdl.types import Symbol as HdlSymbol
from ..host.errors import TraxError
from ..host.hwsearch import HwSearchResult
from ..host.position import Position
from ..host.tiles import Colour
from .perft_driver import white_value
from .verilator import VerilatorSim

__all__ = ["RtlSearch", "RtlSearchResult"]


@dataclasses.dataclass(frozen=True)
class RtlSearchResult(HwSearchResult):
    """The search's answer and the clock cycles it took."""

    cycles: int = 0


class RtlSearch:
    """The simulated search unit (one Verilator build per window size and depth)."""

    def __init__(self, width: int = 24, height: int = 24, max_depth: int = 3):
        self.width, self.height, self.max_depth = width, height, max_depth
        self.sim = VerilatorSim(Search(width, height, max_depth))

    def close(self) -> None:
        self.sim.close()

    def __enter__(self) -> RtlSearch:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def search(
        self, position: Position, budget: int, cycle_budget: int = 2**32 - 1
    ) -> RtlSearchResult:
        """Search ``position`` within ``budget`` nodes and ``cycle_budget`` clocks."""
        if position.outcome is not None:
            raise TraxError(f"the game is over ({position.outcome})")
        sim = self.sim
        box = position.box
        if box is not None and (box.width + 2 > self.width or box.height + 2 > self.height):
            raise TraxError(f"the game outgrew the {self.width}x{self.height} window")
        sim.set("white", white_value(position, self.width, self.height))
        sim.set("empty", int(box is None))
        if box is not None:
            sim.set("box_x", box.min_x % self.width)
            sim.set("box_y", box.min_y % self.height)
            sim.set("box_w", box.width)
            sim.set("box_h", box.height)
        sim.set("turn", int(position.turn is Colour.WHITE))
        sim.set("budget", budget)
        sim.set("cycle_budget", cycle_budget)
        sim.set("start", 1)
        sim.tick()
        sim.set("start", 0)
        sim.tick_until("done", 1, max_cycles=10**10)
        names = ["found", "x", "y", "symbol", "score", "depth", "nodes", "cycles"]
        found, x, y, symbol, score, depth, nodes, cycles = sim.get_many(names)
        if not found:
            return RtlSearchResult(None, score, depth, nodes, None, None, cycles)
        symbol = HdlSymbol(symbol).host
        cell = _board_cell(position, (x, y), self.width, self.height)
        return RtlSearchResult(
            position.move_at(cell, symbol), score, depth, nodes, (x, y), symbol, cycles
        )


def _board_cell(position: Position, window_cell, width: int, height: int) -> tuple[int, int]:
    """The board cell in the box's ring that lies at ``window_cell`` of the torus."""
    if position.box is None:
        return (0, 0)
    box = position.box
    x = box.min_x - 1 + (window_cell[0] - (box.min_x - 1)) % width
    y = box.min_y - 1 + (window_cell[1] - (box.min_y - 1)) % height
    return (x, y)
