"""The gateware search's nodes, one by one, against its model's: where they part.

A test that compares the search with :func:`~trax_fpga.host.hwsearch.hw_search` sees the move,
score, depth and node count differ; this finds the first node at which the two searches part.
Both list the nodes they play, in order, as (plies stacked, the position's key on the torus):
the model through ``hw_search``'s ``trace``, the gateware through
:class:`~trax_fpga.hdl.track_search.TrackSearch`'s ``trace`` members on Verilator (a node is
the board's ``ply_up``; its key is read when the board is next idle). The first entry that
differs names the node, the model's line of moves to it, and the move the gateware played
there instead (found among the parent's moves by its key).

``python -m trax_fpga.sim.search_trace --game "@0+ A2/ ..." --budget 3000`` (or ``--record
FILE --index N``: a game of a record file, to its middle, or ``--plies P``); one engine, the
options as ``trax best --backend rtl``'s.
"""

from __future__ import annotations

import argparse
import dataclasses
import pathlib
import sys

from ..host.errors import TraxError
from ..host.fastmodel import order_research
from ..host.hwsearch import hw_search
from ..host.judge import game_moves
from ..host.movetable import position_key
from ..host.position import Position
from ..host.tiles import Colour
from .track_driver import TrackSearchSim

__all__ = ["Parting", "first_parting", "model_nodes", "rtl_nodes"]

#: A node: (plies stacked, the position's key).
Node = tuple[int, int]


@dataclasses.dataclass(frozen=True)
class Options:
    """The search's build options, as :class:`~.track_driver.TrackSearchSim` takes them."""

    torus: int = 64
    max_depth: int = 8
    move_table: int = 0
    table_scores: bool = False
    attack_cut: bool = True
    newest_first: bool = True

    def model(self) -> dict:
        research = order_research(self.attack_cut, self.newest_first)
        return {
            "board": "track",
            "move_table": self.move_table,
            "table_scores": self.table_scores,
            "research": research,
        }


def model_nodes(position: Position, budget: int, options: Options) -> tuple[list, object]:
    """The model's nodes (plies, key, move) and its result."""
    trace: list = []
    t = options.torus
    found = hw_search(position, t, t, budget, options.max_depth, trace=trace, **options.model())
    return trace, found


def rtl_nodes(position: Position, budget: int, options: Options, unit=None) -> tuple[list, dict]:
    """The gateware's nodes (plies, key) and its answer (``found``, ``nodes``, ``depth``,
    ``score``, ``cycles``), on ``unit`` (a traced :class:`TrackSearchSim`) or a new one."""
    own = unit is None
    if own:
        unit = traced_unit(options)
    try:
        unit.new_game()
        for turn in position.turns:
            if not unit.play(turn.move).legal:
                raise TraxError(f"{turn.move}: the gateware does not play it")
        backend = unit.backend
        backend.set("turn", int(position.turn is Colour.WHITE))
        backend.set("budget", budget)
        backend.set("cycle_budget", (1 << 32) - 1)
        backend.set("start", 1)
        backend.tick()
        backend.set("start", 0)
        nodes: list[Node] = []
        pending = False
        while not backend.get("done"):
            if pending and not backend.get("trace_busy"):
                nodes.append((backend.get("trace_ply"), backend.get("trace_key")))
                pending = False
            pending |= bool(backend.get("trace_ply_up"))
            backend.tick()
        names = ("found", "nodes", "depth", "score", "cycles")
        return nodes, {name: backend.get(name) for name in names}
    finally:
        if own:
            unit.close()


def traced_unit(options: Options) -> TrackSearchSim:
    """A Verilator build of one engine's search with its ``trace`` members."""
    return TrackSearchSim(
        (options.torus, options.torus),
        "verilator",
        max_depth=options.max_depth,
        move_table=options.move_table,
        table_scores=options.table_scores,
        attack_cut=options.attack_cut,
        newest_first=options.newest_first,
        trace=True,
    )


@dataclasses.dataclass(frozen=True)
class Parting:
    """The first node where the searches differ: its index, the model's node there (plies, key,
    move; None when the model stopped first), the line of moves from the root to its parent,
    the gateware's node (None when it stopped first) and the move the gateware played there,
    when its parent's moves hold one with its key."""

    index: int
    model: tuple | None
    line: tuple[str, ...]
    rtl: Node | None
    rtl_move: str | None


def first_parting(position: Position, model: list, rtl: list[Node], torus: int) -> Parting | None:
    """Where the lists of nodes part, or None when they are the same."""
    for index in range(max(len(model), len(rtl))):
        ours = model[index] if index < len(model) else None
        theirs = rtl[index] if index < len(rtl) else None
        if ours is not None and theirs is not None and ours[:2] == theirs:
            continue
        line = _line(model[:index], (ours or theirs)[0] - 1)
        rtl_move = None
        if theirs is not None:
            rtl_move = _move_with_key(position, _line(model[:index], theirs[0] - 1), theirs, torus)
        return Parting(index, ours, line, theirs, rtl_move)
    return None


def _line(nodes: list, plies: int) -> tuple[str, ...]:
    """The moves from the root to the last node of ``plies`` plies in ``nodes`` (in order)."""
    line: list[str] = []
    for ply, _key, move in nodes:
        if ply <= plies:
            del line[ply - 1 :]
            line.append(move)
    return tuple(line[:plies])


def _move_with_key(position: Position, line, node: Node, torus: int) -> str | None:
    """The move of the gateware's ``node``: one of its parent's (the position after ``line``)
    whose position has its key."""
    parent = position.copy()
    for move in line:
        parent.play(move)
    for move in parent.legal_moves():
        parent.play(move)
        key = position_key(parent, torus, torus)
        parent.pop()
        if key == node[1]:
            return str(move)
    return None


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m trax_fpga.sim.search_trace",
        description="Run the gateware search (one engine, Verilator) and its model on one "
        "position and show the first node where they part.",
    )
    where = parser.add_mutually_exclusive_group(required=True)
    where.add_argument("--game", help="the moves to the position, in notation")
    where.add_argument("--record", type=pathlib.Path, help="a file of game records")
    parser.add_argument("--index", type=int, default=0, help="with --record: the game (0)")
    parser.add_argument("--plies", type=int, help="with --record: plies in (default: half)")
    parser.add_argument("--budget", type=int, default=3000, help="nodes (default 3000)")
    parser.add_argument("--depth", type=int, default=8, help="deepest iteration (default 8)")
    parser.add_argument("--torus", type=int, default=64, help="the torus, N x N (default 64)")
    parser.add_argument("--move-table", type=int, default=0, help="table entries (default 0)")
    parser.add_argument("--table-scores", action="store_true", help="values in the table too")
    parser.add_argument(
        "--attack-cut", action=argparse.BooleanOptionalAction, default=True, help="(default on)"
    )
    parser.add_argument(
        "--newest-first", action=argparse.BooleanOptionalAction, default=True, help="(default on)"
    )
    args = parser.parse_args(argv)
    if args.torus > 64:  # (the nodes are told apart by the position keys)
        parser.error("--torus: the position keys number the cells of tori of at most 64 x 64")
    if args.game is not None:
        moves = args.game.split()
    else:
        lines = args.record.read_text().splitlines()
        games = [moves for moves in map(game_moves, lines) if moves]
        if not 0 <= args.index < len(games):
            parser.error(f"--index: {args.record} holds {len(games)} games")
        moves = games[args.index]
        moves = moves[: len(moves) // 2 if args.plies is None else args.plies]
    try:
        position = Position.from_moves(moves)
    except TraxError as error:
        parser.error(str(error))
    if position.outcome is not None:
        parser.error(f"the game is over ({position.outcome})")
    options = Options(
        args.torus, args.depth, args.move_table, args.table_scores, args.attack_cut,
        args.newest_first,
    )  # fmt: skip
    model, found = model_nodes(position, args.budget, options)
    rtl, answer = rtl_nodes(position, args.budget, options)
    print(f"model: {len(model)} nodes, depth {found.depth}, score {found.score}")
    print(
        f"gateware: {len(rtl)} nodes ({answer['nodes']} counted), depth {answer['depth']}, "
        f"{answer['cycles']} clocks"
    )
    parting = first_parting(position, model, rtl, args.torus)
    if parting is None:
        print(f"the same {len(model)} nodes, node for node")
        return 0
    print(f"they part at node {parting.index}, after the line: {' '.join(parting.line)}")
    if parting.model is not None:
        print(f"  model: ply {parting.model[0]}, {parting.model[2]}, key {parting.model[1]:#x}")
    else:
        print("  model: stopped")
    if parting.rtl is not None:
        move = parting.rtl_move or "a move the model's line does not give"
        print(f"  gateware: ply {parting.rtl[0]}, {move}, key {parting.rtl[1]:#x}")
    else:
        print("  gateware: stopped")
    return 1


if __name__ == "__main__":
    sys.exit(main())
