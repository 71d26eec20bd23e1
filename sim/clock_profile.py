"""Where the search's clocks go: per searched node, the clocks in each state of the board and of
the search (a benchmark, not a test).

``python -m trax_fpga.sim.clock_profile [--torus 64] [--positions 4] [--budget 1500] [--depth 6]
[--records FILE]``

Runs :class:`~trax_fpga.hdl.track_search.TrackSearch` in the Amaranth simulator on the mid-game
positions of the human games (those of ``track_bench``'s figures) and samples, every clock of every
search, the state of the board's FSM (``track_fsm``) and the search's (``search_fsm``). Prints, one
figure a line (``<name>: <value> <unit> (<conditions>)``), the clocks per node, then the clocks per
node spent in each board state and in each search state. The states' names are the FSMs' own, so the
figures say which step of a tile or a command the clocks go to (docs/architecture.md, "Clocks per
node").
"""

from __future__ import annotations

import argparse
import collections
import contextlib
import pathlib

from amaranth.hdl import Fragment, _dsl

from ..hdl.track_search import TrackSearch
from ..host.search_bench import figure, midgame_positions
from ..host.tiles import Colour
from .rules_driver import AmaranthSimBackend
from .track_bench import RECORDS
from .track_driver import TrackSearchSim

__all__ = ["main", "profile", "recording_fsms"]


@contextlib.contextmanager
def recording_fsms():
    """While elaborating inside this, every ``m.FSM()`` is recorded: yields a dict, name to the
    FSM (its ``state`` signal and ``decoding``), filled as the design is elaborated."""
    fsms = {}
    original = _dsl.Module.FSM

    @contextlib.contextmanager
    def fsm(self, *args, **kwargs):
        with original(self, *args, **kwargs) as made:
            yield made
        fsms[made._data["name"]] = made

    _dsl.Module.FSM = fsm
    try:
        yield fsms
    finally:
        _dsl.Module.FSM = original


class _ProfiledBackend(AmaranthSimBackend):
    """The simulator backend of the drivers, with a testbench that counts the (search state,
    board state) pairs of every clock in which the search is busy."""

    def __init__(self, component) -> None:
        with recording_fsms() as fsms:
            fragment = Fragment.get(component, None)
        self.board_fsm, self.search_fsm = fsms["track_fsm"], fsms["search_fsm"]
        self.counts: collections.Counter = collections.Counter()
        super().__init__(component, design=fragment, background=[self._sample])

    async def _sample(self, ctx) -> None:
        board, search = self.board_fsm, self.search_fsm
        async for _ in ctx.tick():
            if ctx.get(self.component.busy):
                pair = (
                    search.decoding[ctx.get(search.state)],
                    board.decoding[ctx.get(board.state)],
                )
                self.counts[pair] += 1


def profile(
    torus: int, positions: int, budget: int, depth: int, records: pathlib.Path
) -> tuple[list, collections.Counter]:
    """Search ``positions`` mid-game positions with ``budget`` nodes each: the searches' results
    and the clocks spent in each (search state, board state) pair while the search was busy."""
    component = TrackSearch(torus, torus, depth)
    backend = _ProfiledBackend(component)
    results = []
    with TrackSearchSim((torus, torus), backend, component=component) as engine:
        for position in midgame_positions(positions, torus, records):
            engine.new_game()
            for turn in position.turns:
                engine.play(turn.move)
            results.append(engine.search(int(position.turn is Colour.WHITE), budget))
    return results, backend.counts


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--torus", type=int, default=64, help="torus size (default 64)")
    parser.add_argument("--positions", type=int, default=4, help="positions (default 4)")
    parser.add_argument("--budget", type=int, default=1500, help="nodes a search (default 1500)")
    parser.add_argument("--depth", type=int, default=6, help="deepest iteration (default 6)")
    parser.add_argument(
        "--records", type=pathlib.Path, default=RECORDS, help=f"the games (default {RECORDS})"
    )
    args = parser.parse_args(argv)
    results, counts = profile(args.torus, args.positions, args.budget, args.depth, args.records)
    nodes = sum(got.nodes for got in results)
    cycles = sum(got.cycles for got in results)
    where = (
        f"TrackSearch {args.torus}x{args.torus}, Amaranth sim, {len(results)} human-game "
        f"positions, budget {args.budget} nodes, depth <= {args.depth}"
    )
    figure("clock profile, clocks per node", f"{cycles / nodes:.2f}", "clocks", where)
    for title, index in (("board", 1), ("search", 0)):
        totals: collections.Counter = collections.Counter()
        for pair, count in counts.items():
            totals[pair[index]] += count
        for name, count in totals.most_common():
            figure(
                f"clock profile, {title} state {name}",
                f"{count / nodes:.2f}",
                "clocks per node",
                where,
            )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
