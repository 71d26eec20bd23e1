"""The gateware search behind an ordinary function: ``trax best --backend rtl``.

:class:`RtlSearch` runs :class:`trax_fpga.hdl.track_search.TrackSearch` (the search on the
block-RAM board) on Verilator: the game's moves are played on its board, the search runs from
that position, and the answer is the same :class:`~trax_fpga.host.hwsearch.HwSearchResult` as
the software model's (``hw_search(..., board="track")``), plus the clocks.
"""

from __future__ import annotations

import dataclasses

from ..hdl.track_board import check_torus
from ..host.errors import TraxError
from ..host.hwsearch import HwSearchResult
from ..host.position import Position
from ..host.tiles import Colour
from ..host.trackeval import ShapeTable
from .symbols import host_symbol
from .track_driver import TrackSearchSim

__all__ = ["RtlSearch", "RtlSearchResult", "board_cell"]


@dataclasses.dataclass(frozen=True)
class RtlSearchResult(HwSearchResult):
    """The search's answer and the clock cycles it took."""

    cycles: int = 0


class RtlSearch:
    """The simulated search on a ``torus`` x ``torus`` board (one Verilator build per torus,
    depth, number of engines and table; ``engines``: a :class:`~trax_fpga.hdl.parallel_search.
    ParallelSearch` of that many, splitting the previous best's line to ``pv_plies``, sharing
    the table; None: the single search). ``move_table``: the entries of the table of best moves
    (0: none), with ``table_scores`` their values too; ``attack_cut`` and ``newest_first``: the
    search's options of those names (:class:`~trax_fpga.hdl.track_search.TrackSearch`);
    ``shapes``: the evaluation by the tracks' shapes with this :class:`~trax_fpga.host.trackeval.
    ShapeTable` (every engine's board's ``shapes``)."""

    def __init__(
        self,
        torus: int = 64,
        max_depth: int = 3,
        engines: int | None = None,
        pv_plies: int = 1,
        move_table: int = 0,
        table_scores: bool = False,
        attack_cut: bool = False,
        newest_first: bool = False,
        shapes: ShapeTable | None = None,
    ):
        self.width, self.height = check_torus(torus, torus)
        board_options = {"shapes": dataclasses.astuple(shapes)} if shapes is not None else None
        self.max_depth = max_depth
        self.unit = TrackSearchSim(
            (torus, torus),
            "verilator",
            max_depth=max_depth,
            engines=engines,
            pv_plies=pv_plies,
            move_table=move_table,
            shared_table=engines is not None and move_table > 0,
            table_scores=table_scores,
            attack_cut=attack_cut,
            newest_first=newest_first,
            board_options=board_options,
        )

    def close(self) -> None:
        self.unit.close()

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
        unit = self.unit
        unit.new_game()
        for turn in position.turns:
            verdict = unit.play(turn.move)
            if verdict.name == "OVERFLOW":
                raise TraxError(f"the game outgrew the {self.width}x{self.height} torus")
            if not verdict.legal:
                raise TraxError(f"{turn.move}: the gateware finds it illegal")
        got = unit.search(int(position.turn is Colour.WHITE), budget, cycle_budget)
        if not got.found:
            return RtlSearchResult(None, got.score, got.depth, got.nodes, None, None, got.cycles)
        symbol = host_symbol(got.symbol)
        cell = board_cell(position, (got.x, got.y), self.width, self.height)
        return RtlSearchResult(
            position.move_at(cell, symbol),
            got.score,
            got.depth,
            got.nodes,
            (got.x, got.y),
            symbol,
            got.cycles,
        )


def board_cell(position: Position, torus_cell, width: int, height: int) -> tuple[int, int]:
    """The board cell in the box's ring that lies at ``torus_cell``."""
    if position.box is None:
        return (0, 0)
    box = position.box
    x = box.min_x - 1 + (torus_cell[0] - (box.min_x - 1)) % width
    y = box.min_y - 1 + (torus_cell[1] - (box.min_y - 1)) % height
    return (x, y)
