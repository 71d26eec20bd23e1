"""Benchmarks of the search model (not tests): speed, depth per budget, and self-play matches.

``python -m trax_fpga.host.search_bench`` reports the nodes per second of the Python model and
the depth it completes at several node budgets, on positions from tests/data/human_games.txt
(the middle position of every 12th decided game).

``python -m trax_fpga.host.search_bench match A B --budget 2000 --pairs 12`` plays self-play
games between two players (evaluation variants from :data:`VARIANTS`, or ``greedy``: one ply
with the evaluation, or ``random``, or ``hw`` / ``hw-mate``: the window search's model with its
evaluation or without, or ``track``: the block-RAM board's search with its track evaluation,
or ``track-NAME``: the same with a candidate evaluation of :data:`.trackresearch.TUNINGS`, or
``track-parN``: N engines splitting ``track``'s search, :mod:`.hwparallel`, the
budget per engine: the board time of ``track``) at equal node budgets: each pair of games starts
from one seeded random opening (4 plies), with colours swapped in the second game.

``python -m trax_fpga.host.search_bench parallel --depth 4`` prints the virtual time (ticks: one
node per engine per tick) the parallel split's model takes to complete a depth, for N = 1, 2, 4,
8 engines, on the mid-game positions of the block-RAM board's figures
(:func:`midgame_positions`, which the gateware figures of ``make bench`` use too).

``python -m trax_fpga.host.search_bench research --flags 0,3 --depth 6`` prints, for the
compiled model's research options (:mod:`.fastmodel`), the nodes to a depth and the depth the
board file's player completes in its 0.8 s a move; with ``--kizuna-wins``, how many of the wins
KizuNa found in its games against the board the board's search proves from the same position.
"""

from __future__ import annotations

import argparse
import collections
import dataclasses
import json
import pathlib
import random
import re
import statistics
import sys
import time
from collections.abc import Callable

from .engine import (
    BOARD_CLOCK_HZ,
    BOARD_THINK_TIME,
    BOARD_TICK_CLOCKS,
    BOARD_TICKS,
    DEFAULT_ATTACK_CUT,
    DEFAULT_MODEL_DEPTH,
    DEFAULT_MODEL_TABLE,
    DEFAULT_NEWEST_FIRST,
    DEFAULT_TORUS,
)
from .errors import IllegalMoveError, TraxError
from .evaluate import DEFAULT_WEIGHTS, Weights, evaluate
from .fastmodel import fast_parallel_search, fast_search, order_research, research_weights
from .hweval import MAX_EXTENSIONS
from .hwparallel import ENGINE_STATES, hw_parallel_search
from .hwsearch import MATE_BOUND, hw_search
from .judge import game_moves
from .notation import Move
from .position import Position
from .search import search
from .shapes import chosen_table, shape_weights
from .tiles import Colour
from .trackresearch import TUNINGS

__all__ = ["VARIANTS", "main", "play_match"]

#: The human games, as a checkout holds them (``--records`` names another file): relative to the
#: working directory, since an installed package has no tests/ folder.
GAMES_FILE = pathlib.Path("tests/data/human_games.txt")
MAX_PLIES = 80

#: Evaluation variants compared by self-play (see the search module's docstring for results).
VARIANTS: dict[str, Weights] = {
    "default": DEFAULT_WEIGHTS,
    "material": Weights(loop=((0, 0, 0),) * 5, line=(0,) * 7, line_count=0, tempo=0),
    "no-line": dataclasses.replace(DEFAULT_WEIGHTS, line=(0,) * 7, line_count=0),
    "no-loop": dataclasses.replace(DEFAULT_WEIGHTS, loop=((0, 0, 0),) * 5),
    "no-tempo": dataclasses.replace(DEFAULT_WEIGHTS, tempo=0),
    "loop-x2": dataclasses.replace(
        DEFAULT_WEIGHTS, loop=tuple(tuple(2 * w for w in row) for row in DEFAULT_WEIGHTS.loop)
    ),
    "line-x2": dataclasses.replace(
        DEFAULT_WEIGHTS,
        line=tuple(2 * w for w in DEFAULT_WEIGHTS.line),
        line_count=2 * DEFAULT_WEIGHTS.line_count,
    ),
    "line-x3": dataclasses.replace(
        DEFAULT_WEIGHTS,
        line=tuple(3 * w for w in DEFAULT_WEIGHTS.line),
        line_count=3 * DEFAULT_WEIGHTS.line_count,
    ),
    "line-x2-loop-x2": dataclasses.replace(
        DEFAULT_WEIGHTS,
        loop=tuple(tuple(2 * w for w in row) for row in DEFAULT_WEIGHTS.loop),
        line=tuple(2 * w for w in DEFAULT_WEIGHTS.line),
        line_count=2 * DEFAULT_WEIGHTS.line_count,
    ),
    "line-x2-no-tempo": dataclasses.replace(
        DEFAULT_WEIGHTS,
        line=tuple(2 * w for w in DEFAULT_WEIGHTS.line),
        line_count=2 * DEFAULT_WEIGHTS.line_count,
        tempo=0,
    ),
    "line-x3-no-tempo": dataclasses.replace(
        DEFAULT_WEIGHTS,
        line=tuple(3 * w for w in DEFAULT_WEIGHTS.line),
        line_count=3 * DEFAULT_WEIGHTS.line_count,
        tempo=0,
    ),
    "corner-only": dataclasses.replace(
        DEFAULT_WEIGHTS, loop=((0, 0, 0), (30, 30, 30), (30, 30, 30), (0, 0, 0), (0, 0, 0))
    ),
}

#: The gateware search's model: (board, evaluation). ``hw`` and ``hw-mate`` search the window
#: of cells (the first design's ``hdl/search.py``, removed from the gateware; its model remains)
#: with its local-shape evaluation or none; ``track`` the block-RAM board
#: (``hdl/track_search.py``) with the evaluation of whole tracks.
HW_PLAYERS = {"hw": ("window", True), "hw-mate": ("window", False), "track": ("track", True)}
HW_WINDOW = 64
HW_MAX_DEPTH = 8
#: ``board``: the ULX3S board file's search (its engines sharing its table of best moves and
#: their values, depth 8, the attack cut and newest first), compiled (:mod:`.fastmodel`), the
#: budget per engine; ``board1`` with one engine; ``-xN`` (research) with N plies of extension
#: instead of ``MAX_EXTENSIONS``; ``-rF`` with the research flags F in place of the board
#: file's :data:`BOARD_RESEARCH` (``-r0``: without the cut and the order); ``-tN`` (research) with
#: a table of N best moves and their values in place of the board file's.
BOARD_ENGINES = 6  # (boards/ulx3s_85f.py)
#: The board file's search order in the model's research flags (``attack_cut``,
#: ``newest_first``).
BOARD_RESEARCH = order_research(DEFAULT_ATTACK_CUT, DEFAULT_NEWEST_FIRST)
#: An engine's nodes in the 0.8 s a move of the ULX3S board file's player (the player's
#: ``DEFAULT_THINK_TIME``): 11.7 M nodes a second for its six engines at 25 MHz (README,
#: ``track_bench --engines 6 ... --attack-cut --newest-first``). 975,000 in the 0.5 s the board
#: files thought until the thirty-eighth session; 807,000 for the seven of the board file before
#: the cut, 11.3 M nodes a second.
BOARD_NODES = 1_560_000
#: The series of tests/data/kizuna_scores.tsv in which KizuNa played the board file's player
#: without research options (twenty-third session).
BOARD_SERIES = ("fm7-kizuna", "fm7-kizuna-first", "fm7-25M-kizuna", "fm7-kizuna75")
#: ``track`` with N engines splitting its root (:mod:`.hwparallel`), the budget per engine.
PARALLEL_PLAYERS = {"track-par2": 2, "track-par4": 4, "track-par8": 8}

Player = Callable[[Position], Move]


def load_positions(every: int = 12, records: pathlib.Path | None = None) -> list[Position]:
    """The middle position of every ``every``-th decided human game (of ``records``)."""
    positions = []
    decided = 0
    path = records or GAMES_FILE
    if not path.exists():
        raise SystemExit(f"error: {path} not found (give --records FILE, or run from a checkout)")
    for line in path.read_text().splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        _, result, moves = (field.strip() for field in line.split("|"))
        if result == "none":
            continue
        if decided % every == 0:
            moves = moves.split()
            positions.append(Position.from_moves(moves[: len(moves) // 2]))
        decided += 1
    return positions


def bench(budgets: list[int]) -> None:
    positions = load_positions()
    print(f"{len(positions)} positions (middle of every 12th decided human game)")
    print("nodes/s and s/move in CPU time of this process (wall clock in brackets)")
    print(
        f"{'budget':>8} {'nodes/s':>9} {'s/move':>7} {'(wall)':>7} "
        f"{'depth mean':>10} {'min':>4} {'max':>4}"
    )
    for budget in budgets:
        depths = []
        nodes = 0
        start, cpu_start = time.perf_counter(), time.process_time()
        for position in positions:
            result = search(position, budget)
            depths.append(result.depth)
            nodes += result.nodes
        elapsed = time.perf_counter() - start
        cpu = time.process_time() - cpu_start
        print(
            f"{budget:>8} {nodes / cpu:>9.0f} {cpu / len(positions):>7.3f} "
            f"{elapsed / len(positions):>7.3f} "
            f"{statistics.mean(depths):>10.2f} {min(depths):>4} {max(depths):>4}"
        )


def make_player(name: str, budget: int) -> Player:
    if name == "random":
        rng = random.Random(0)
        return lambda position: rng.choice(position.legal_moves())
    if name == "greedy":
        return lambda position: _greedy(position, VARIANTS["default"])
    # The gateware's search, through its model, on a large window. A game that outgrows it
    # (the model finds no move) goes on with the first legal move, as `trax engine` does.
    compiled = re.fullmatch(r"board(1?)(?:-x(\d+))?(?:-r(\d+))?(?:-t(\d+))?", name)
    if compiled:  # the board file's search, compiled (a real board's nodes a move in seconds)
        engines = 1 if compiled[1] else BOARD_ENGINES
        entries = int(compiled[4] or DEFAULT_MODEL_TABLE)
        options = {"move_table": entries, "table_scores": True, "shared_table": True}
        options["extensions"] = int(compiled[2] or MAX_EXTENSIONS)
        options["research"] = BOARD_RESEARCH if compiled[3] is None else int(compiled[3])
        size, depth = DEFAULT_TORUS, DEFAULT_MODEL_DEPTH
        return lambda position: (
            fast_parallel_search(position, size, size, budget, depth, engines, **options).move
            or position.legal_moves()[0]
        )
    if name in PARALLEL_PLAYERS:
        engines = PARALLEL_PLAYERS[name]
        return lambda position: (
            hw_parallel_search(position, HW_WINDOW, HW_WINDOW, budget, HW_MAX_DEPTH, engines).move
            or position.legal_moves()[0]
        )
    if name.startswith("track-") and name[6:] in TUNINGS:  # research: a candidate evaluation
        tuning = TUNINGS[name[6:]]
        return lambda position: (
            hw_search(
                position, HW_WINDOW, HW_WINDOW, budget, HW_MAX_DEPTH, board="track", tuning=tuning
            ).move
            or position.legal_moves()[0]
        )
    if name in HW_PLAYERS:
        board, evaluation = HW_PLAYERS[name]
        return lambda position: (
            hw_search(
                position,
                HW_WINDOW,
                HW_WINDOW,
                budget,
                HW_MAX_DEPTH,
                evaluation=evaluation,
                board=board,
            ).move
            or position.legal_moves()[0]
        )
    weights = VARIANTS[name]
    return lambda position: search(position, budget, weights=weights).move


def _greedy(position: Position, weights: Weights) -> Move:
    """One ply: a winning move if any, else the best static evaluation of the child."""
    mover = position.turn
    best = None
    for move in position.legal_moves():
        turn = position.play(move)
        if turn.outcome is None:
            score = -evaluate(position, weights)
        else:
            score = 10**9 if turn.outcome.winner is mover else -(10**9)
        position.pop()
        if best is None or score > best[0]:
            best = (score, move)
    return best[1]


def play_game(opening: list[Move], white: Player, black: Player, max_plies: int = MAX_PLIES) -> str:
    position = Position.from_moves(opening)
    while position.outcome is None and position.ply < max_plies:
        player = white if position.ply % 2 == 0 else black
        position.play(player(position))
    return str(position.outcome) if position.outcome else "unfinished"


def random_opening(seed: int, plies: int = 4) -> list[Move]:
    rng = random.Random(seed)
    position = Position()
    while position.ply < plies:
        moves = position.legal_moves()
        rng.shuffle(moves)
        for move in moves:
            position.play(move)
            if position.outcome is None:
                break
            position.pop()
    return [turn.move for turn in position.turns]


def with_shape_weights(player: Player, weights: list[int]) -> Player:
    """``player`` searching with its own shapes weights (:func:`.shapes.shape_weights`, set
    before each of its moves: the compiled model holds one set for the process)."""

    def play(position: Position) -> Move:
        shape_weights(weights)
        return player(position)

    return play


def play_match(
    a: str,
    b: str,
    budget: int,
    pairs: int,
    seed: int = 1,
    weights_a: list[int] | None = None,
    weights_b: list[int] | None = None,
    budget_b: int | None = None,
) -> dict[str, float]:
    """Games between players ``a`` and ``b``; returns a's wins, losses, unfinished, score.
    ``weights_a``, ``weights_b``: each player's own shapes weights (research 128), if any;
    ``budget_b``: player b's nodes a move where they differ from a's ``budget`` (a player whose
    node costs more clocks, matched at equal time)."""
    player_a = make_player(a, budget)
    player_b = make_player(b, budget if budget_b is None else budget_b)
    if weights_a is not None:
        player_a = with_shape_weights(player_a, weights_a)
    if weights_b is not None:
        player_b = with_shape_weights(player_b, weights_b)
    tally = {"wins": 0, "losses": 0, "unfinished": 0}
    for pair in range(pairs):
        opening = random_opening(seed + pair)
        for a_is_white in (True, False):
            white, black = (player_a, player_b) if a_is_white else (player_b, player_a)
            result = play_game(opening, white, black)
            if result == "unfinished":
                tally["unfinished"] += 1
            elif result.startswith("white") == a_is_white:
                tally["wins"] += 1
            else:
                tally["losses"] += 1
            print(
                f"  pair {pair} {a if a_is_white else b} (white) vs "
                f"{b if a_is_white else a}: {result}",
                flush=True,
            )
    games = 2 * pairs
    tally["score"] = (tally["wins"] + 0.5 * tally["unfinished"]) / games
    return tally


def figure(name: str, value, unit: str, where: str) -> None:
    """Print a figure as ``<name>: <value> <unit> (<board or model>, <conditions>)``."""
    print(f"{name}: {value} {unit} ({where})", flush=True)


def midgame_positions(count: int, torus: int, records: pathlib.Path) -> list[Position]:
    """Mid-game positions of the human games in ``records`` (every 4th ply from the 8th) that
    fit a ``torus`` x ``torus`` torus: the positions of the block-RAM board's figures."""
    if not records.exists():
        raise SystemExit(
            f"error: {records} not found (give --records FILE, or run from a checkout)"
        )
    found = []
    for line in records.read_text().splitlines():
        moves = game_moves(line)
        if not moves:
            continue
        position = Position()
        for i, move in enumerate(moves[:-1]):
            position.play(move)
            box = position.box
            if box.width + 2 > torus or box.height + 2 > torus:
                break
            if i % 4 == 3 and i >= 7:
                found.append(position.copy())
        if len(found) >= count:
            break
    return found[:count]


def track_changes(positions: list[Position]) -> dict[str, float]:
    """Over every legal move of ``positions``: the tiles a move places (with its forced ones),
    the open tracks it changes (ended or made) and makes, and the open tracks a position holds:
    what an evaluation kept track by track must update (docs/evaluation.md, "The near pairs
    at equal time")."""
    moves = tiles = changed = made = held = 0
    for position in positions:
        before = set(position.open_tracks())
        held += len(before)
        for move in position.legal_moves():
            try:
                turn = position.play(move)
            except IllegalMoveError:
                continue  # a move whose forced plays bring three ends of a colour into a cell
            after = set(position.open_tracks())
            position.pop()
            moves += 1
            tiles += len(turn.placed)
            changed += len(before ^ after)
            made += len(after - before)
    return {
        "positions": len(positions),
        "moves": moves,
        "tiles a move": tiles / moves,
        "tracks changed a move": changed / moves,
        "tracks made a move": made / moves,
        "open tracks a position": held / len(positions),
    }


#: The ULX3S board file's search in the model (:data:`.trackresearch.TUNINGS`).
BOARD_SEARCH = TUNINGS["sw-loops-hash16k-scores"]


def rates(budget: int = 3000, count: int = 6) -> None:
    """Figures: the nodes a second (this process's CPU time) of the software player, of the
    search model playing the ULX3S board file's search, and of the gateware's own model in
    Python and compiled (one engine at 100 times the budget, a real board's nodes a move, and
    the board file's engines at 30 times, also with its evaluation by the tracks' shapes), over
    the block-RAM figures' positions."""
    positions = midgame_positions(count, HW_WINDOW, GAMES_FILE)
    size, depth = HW_WINDOW, HW_MAX_DEPTH
    gateware = {"move_table": DEFAULT_MODEL_TABLE, "table_scores": True}
    shared = {"shared_table": True, "research": BOARD_RESEARCH, **gateware}
    board_shapes = chosen_table("board")
    players = (
        ("software player speed", "host/search.py", budget, lambda p, n: search(p, n)),
        (
            "search model speed",
            "host/hwsearch.py, the ULX3S board file's search",
            budget,
            lambda p, n: hw_search(p, size, size, n, depth, board="track", tuning=BOARD_SEARCH),
        ),
        (
            "gateware model speed",
            "host/hwsearch.py, the gateware's search, 1 engine",
            budget,
            lambda p, n: hw_search(p, size, size, n, depth, board="track", **gateware),
        ),
        (
            "compiled gateware model speed",
            "host/fastmodel.c, the gateware's search, 1 engine",
            budget * 100,
            lambda p, n: fast_search(p, size, size, n, depth, **gateware),
        ),
        (
            "compiled many-engine model speed",
            f"host/fastmodel.c, the ULX3S board file's {BOARD_ENGINES} engines sharing the table",
            budget * 30,
            lambda p, n: fast_parallel_search(p, size, size, n, depth, BOARD_ENGINES, **shared),
        ),
        (
            "compiled board-file player speed",
            f"host/fastmodel.c, the ULX3S board file's {BOARD_ENGINES} engines sharing the "
            "table, with the board table's tracks' shapes (trax engine --search model)",
            budget * 30,
            lambda p, n: fast_parallel_search(
                p, size, size, n, depth, BOARD_ENGINES, shapes=board_shapes, **shared
            ),
        ),
    )
    for name, model, nodes_each, play in players:
        start = time.process_time()
        nodes = sum(play(position, nodes_each).nodes for position in positions)
        rate = nodes / (time.process_time() - start)
        where = f"{len(positions)} positions, {nodes_each:,} nodes an engine"
        figure(name, f"{rate:,.0f}", "nodes/s", f"{model}, {where}")


def parallel(
    depth: int,
    count: int = 12,
    torus: int = HW_WINDOW,
    pv_plies: int = 1,
    helpers: bool = False,
    engine_counts: tuple[int, ...] = (1, 2, 4, 8),
    move_table: int = 0,
    shared_table: bool = False,
    table_scores: bool = False,
    states: bool = False,
    research: int = 0,
) -> None:
    """The virtual time (ticks) the parallel split's model takes to complete ``depth`` (or the
    win or loss that ends the deepening before it), for each of ``engine_counts``; the speedup
    is the first count's mean ticks over N engines' mean ticks. ``pv_plies`` and ``helpers``:
    as :func:`.hwparallel.hw_parallel_search` (1 and no helpers: the gateware's split), and so
    are ``move_table``, ``shared_table`` and ``table_scores``. With ``states``, also where the
    engines' ticks of the last iteration go (:data:`.hwparallel.ENGINE_STATES`), over all the
    positions. ``research``: the search's order flags (:func:`.fastmodel.order_research`; 0:
    neither the cut nor newest first) or, without ``helpers`` and ``states``, any of the compiled
    model's research flags. ``states`` measures in the Python model, the rest in the compiled
    one."""
    found = midgame_positions(count, torus, GAMES_FILE)
    where = (
        ("host/hwparallel.py" if states else "host/fastmodel.c (host/hwparallel.py)")
        + f", mean over {len(found)} mid-game positions of sim/track_bench.py, "
        f"{torus}x{torus} torus, no node budget"
        + (f", the previous best's line split to ply {pv_plies}" if pv_plies > 1 else "")
        + (", idle engines helping the root moves still searched" if helpers else "")
        + (f", a table of {move_table} best moves" if move_table else "")
        + (" shared by the engines" if move_table and shared_table else "")
        + (" an engine" if move_table and not shared_table else "")
        + (", holding the nodes' values too" if move_table and table_scores else "")
        + (f", research flags {research}" if research else "")
    )
    single = None
    for engines in engine_counts:
        ticks, nodes = [], []
        spent: collections.Counter = collections.Counter()
        for position in found:
            iterations: dict = {}
            table = {"move_table": move_table, "shared_table": shared_table}
            table["table_scores"] = table_scores
            table["research"] = research
            if states:  # (the model's own: the compiled one does not count them)
                result = hw_parallel_search(
                    *(position, torus, torus, 10**9, depth, engines),
                    pv_plies=pv_plies,
                    helpers=helpers,
                    states=iterations if states else None,
                    **table,
                )
            else:  # the same search, node for node, compiled
                result = fast_parallel_search(
                    *(position, torus, torus, 10**9, depth, engines),
                    pv_plies=pv_plies,
                    helpers=helpers,
                    **table,
                )
            ticks.append(result.ticks)
            nodes.append(result.nodes)
            if iterations:
                spent.update(iterations[max(iterations)])
        mean = statistics.mean(ticks)
        single = single or mean
        name = f"parallel split, {engines} engine{'s' if engines > 1 else ''}, depth {depth}"
        figure(f"{name}, ticks", f"{mean:.0f}", "ticks", where)
        figure(f"{name}, nodes", f"{statistics.mean(nodes):.0f}", "nodes (all engines)", where)
        first = engine_counts[0]
        of = f"x the ticks of {first} engine{'s' if first > 1 else ''}"
        figure(f"{name}, speedup", f"{single / mean:.2f}", of, where)
        total = sum(spent.values())
        for state, what in ENGINE_STATES.items():
            if total and spent[state]:
                share = f"{100 * spent[state] / total:.1f}"
                figure(f"{name}, the last iteration's engine-ticks {what}", share, "%", where)


def depth_nodes(depth: int, count: int = 12, tunings: tuple[str, ...] = ("",)) -> None:
    """The nodes the sequential model (one engine, no node budget) plays to complete ``depth``
    on the mid-game positions of the figures, with each of ``tunings`` ("": the gateware's
    search; else a name of :data:`.trackresearch.TUNINGS`), and the scores it completes with
    (the same for every tuning that orders moves only)."""
    found = midgame_positions(count, HW_WINDOW, GAMES_FILE)
    where = f"host/hwsearch.py, mean over {len(found)} mid-game positions, 64x64, no node budget"
    for name in tunings:
        tuning = TUNINGS[name] if name else None
        results = [
            hw_search(p, HW_WINDOW, HW_WINDOW, 10**9, depth, board="track", tuning=tuning)
            for p in found
        ]
        mean = statistics.mean(r.nodes for r in results)
        scores = " ".join(str(r.score) for r in results)
        figure(
            f"sequential search, depth {depth}, {name or 'the gateware'}",
            f"{mean:.0f}",
            "nodes",
            f"{where}; scores {scores}",
        )


def research_figures(flags: tuple[int, ...], depth: int, count: int = 12) -> None:
    """Per research flags of the compiled model (:mod:`.fastmodel`'s ``RESEARCH_*``; 0: the
    board's search before the cut, 3: the board file's now): the nodes one engine with the
    board file's table plays to complete ``depth`` on the figures' mid-game positions, and the
    depths the board file's player
    (:data:`BOARD_ENGINES` engines, :data:`BOARD_NODES` nodes each: its 0.8 s a move at 25 MHz)
    completes."""
    found = midgame_positions(count, DEFAULT_TORUS, GAMES_FILE)
    table = {"move_table": DEFAULT_MODEL_TABLE, "table_scores": True}
    where = f"compiled model, {len(found)} mid-game positions, 64x64, the board file's table"
    for research in flags:
        results = [
            fast_search(p, DEFAULT_TORUS, DEFAULT_TORUS, 10**10, depth, research=research, **table)
            for p in found
        ]
        total = sum(r.nodes for r in results)
        figure(f"nodes to depth {depth}, research {research}", f"{total}", "nodes", where)
        depths = [
            fast_parallel_search(
                *(p, DEFAULT_TORUS, DEFAULT_TORUS, BOARD_NODES, 12, BOARD_ENGINES),
                shared_table=True,
                research=research,
                **table,
            ).depth
            for p in found
        ]
        figure(
            f"depth in the board's {BOARD_THINK_TIME:g} s, research {research}",
            f"{statistics.mean(depths):.2f}",
            "plies",
            f"{where}, {BOARD_ENGINES} engines x {BOARD_NODES} nodes; depths {depths}",
        )


def think_figures(
    ticks: int, pv_plies: tuple[int, ...], count: int = 12, helpers: bool = False
) -> None:
    """Figures: what the ULX3S board file's player (:data:`BOARD_ENGINES` engines, its table,
    order and shapes) searches in ``ticks`` of virtual time a move (its clock budget: by default
    :data:`BOARD_TICKS`, its 0.8 s at 25 MHz) on the figures' mid-game positions, with the
    previous best's line split to each of ``pv_plies`` (and with ``helpers``, each of them
    with the idle engines helping too, the model's only): the nodes of all engines a tick and
    a second (at :data:`BOARD_TICK_CLOCKS` clocks a tick), the depth completed, and how many
    positions were searched to the budget (the others ended sooner, a win or loss proved)."""
    found = midgame_positions(count, DEFAULT_TORUS, GAMES_FILE)
    options = {"move_table": DEFAULT_MODEL_TABLE, "table_scores": True, "shared_table": True}
    shapes = chosen_table("board")
    seconds = ticks * BOARD_TICK_CLOCKS / BOARD_CLOCK_HZ
    searched = {
        (plies, helped): [
            fast_parallel_search(
                *(p, DEFAULT_TORUS, DEFAULT_TORUS, 2**62, HW_MAX_DEPTH, BOARD_ENGINES),
                pv_plies=plies,
                helpers=helped,
                research=BOARD_RESEARCH,
                shapes=shapes,
                ticks_budget=ticks,
                **options,
            )
            for p in found
        ]
        for plies in pv_plies
        for helped in ((False, True) if helpers else (False,))
    }
    # The positions every setting searched to the budget (in the others a win or loss was
    # proved sooner, by some setting at least).
    full = [i for i in range(len(found)) if all(r[i].ticks == ticks for r in searched.values())]
    for (plies, helped), results in searched.items():
        name = f"pv_plies {plies}" + (", helpers" if helped else "")
        where = (
            f"compiled model, the ULX3S board file's {BOARD_ENGINES} engines, {name}, "
            f"{ticks:,} ticks a move ({seconds:.2f} s at {BOARD_CLOCK_HZ / 1e6:g} MHz and "
            f"{BOARD_TICK_CLOCKS} clocks a "
            f"tick), the {len(full)} of {len(found)} mid-game positions searched to the budget"
        )
        nodes = [results[i].nodes for i in full]
        mean = statistics.mean(nodes) if nodes else 0
        figure(f"nodes a tick in play, {name}", f"{mean / ticks:.2f}", "nodes", where)
        figure(
            f"nodes a second in play, {name}",
            f"{mean / seconds / 1e6:.1f}",
            "M nodes/s",
            where,
        )
        depths = [results[i].depth for i in full]
        figure(
            f"depth in play, {name}",
            f"{statistics.mean(depths) if depths else 0:.2f}",
            "plies",
            f"{where}; depths {depths}",
        )


def kizuna_wins(flags: tuple[int, ...], nodes: int = BOARD_NODES) -> None:
    """Where KizuNa, playing the board file's player (tests/data/kizuna_scores.tsv, the series
    :data:`BOARD_SERIES`), first reported a win it had found: whether the board file's player
    (:data:`BOARD_ENGINES` engines, ``nodes`` each: :data:`BOARD_NODES`, its 0.8 s a move) with
    each research flags proves a win from the same position."""
    from .distill import read_samples

    first: dict[str, object] = {}
    for sample in read_samples():
        earlier = sample.game not in first or len(sample.moves) < len(first[sample.game].moves)
        if sample.score >= 20000 and sample.game.split("/")[0] in BOARD_SERIES and earlier:
            first[sample.game] = sample
    table = {"move_table": DEFAULT_MODEL_TABLE, "table_scores": True, "shared_table": True}
    for research in flags:
        proved = 0
        for sample in first.values():
            position = Position.from_moves(list(sample.moves))
            result = fast_parallel_search(
                *(position, DEFAULT_TORUS, DEFAULT_TORUS, nodes, 12, BOARD_ENGINES),
                research=research,
                **table,
            )
            proved += result.score >= MATE_BOUND
        figure(
            f"KizuNa's wins proved, research {research}",
            f"{proved} of {len(first)}",
            "positions",
            f"the board file's player, {BOARD_ENGINES} engines x {nodes} nodes",
        )


def read_match_log(path: pathlib.Path) -> tuple[dict[str, str], list[str]]:
    """A ``trax match`` game log: its header (``# key: value`` lines, e.g. ``white``,
    ``black``, ``result``) and its moves, one a line."""
    header, moves = {}, []
    for line in path.read_text().splitlines():
        if line.startswith("# "):
            key, _, value = line[2:].partition(": ")
            header.setdefault(key, value)
        elif line:
            try:
                moves.append(str(Move.parse(line)))
            except TraxError:
                continue  # the title lines
    return header, moves


def match_log_games(path: pathlib.Path, side: str) -> tuple[list[str], Colour] | None:
    """A game of a ``trax match`` log (its header's ``# white:`` and ``# black:`` lines, then its
    moves one a line): its moves, and the colour of the player whose header names ``side``
    (None when neither or both do)."""
    header, moves = read_match_log(path)
    colours = [c for c in (Colour.WHITE, Colour.BLACK) if side in header.get(c.word, "")]
    return (moves, colours[0]) if len(colours) == 1 else None


@dataclasses.dataclass
class SeriesScore:
    """Player A's results over ``trax match`` series: wins, losses and games without a winner,
    each as white and as black, and how many of the games are distinct (their moves)."""

    wins: collections.Counter = dataclasses.field(default_factory=collections.Counter)
    losses: collections.Counter = dataclasses.field(default_factory=collections.Counter)
    draws: collections.Counter = dataclasses.field(default_factory=collections.Counter)
    distinct: set = dataclasses.field(default_factory=set)

    @property
    def games(self) -> int:
        return sum(self.wins.values()) + sum(self.losses.values()) + sum(self.draws.values())

    @property
    def score(self) -> float:
        """A's share of the points (a game without a winner half a point)."""
        points = sum(self.wins.values()) + sum(self.draws.values()) / 2
        return points / self.games if self.games else 0.0

    def variance(self) -> float:
        """The variance of one game's points (1, 1/2 or 0) over these games."""
        if not self.games:
            return 0.0
        wins, draws = sum(self.wins.values()), sum(self.draws.values())
        return (wins + draws / 4) / self.games - self.score**2

    def errors_from_half(self) -> float:
        """How many standard errors A's score lies above half (below: negative), the error of
        a fair coin's share over as many games."""
        return (self.score - 0.5) / (0.5 / self.games**0.5) if self.games else 0.0


def series_score(directories: list[pathlib.Path]) -> SeriesScore:
    """Player A's results over the series in ``directories`` (each a ``trax match --log-dir``),
    read from their games' logs (``NNNN-*.log``: A's colour in the header's ``# white: A`` or
    ``# black: A`` line, the ``# result:`` line, the moves)."""
    total = SeriesScore()
    for directory in directories:
        logs = sorted(directory.glob("[0-9][0-9][0-9][0-9]-*.log"))
        if not logs:
            raise SystemExit(f"error: no game logs in {directory}")
        for path in logs:
            header, moves = read_match_log(path)
            colour = next(
                (c for c in ("white", "black") if header.get(c, "").startswith("A ")), None
            )
            result = header.get("result")
            if colour is None or result in (None, "*"):
                continue  # a game being played or cut short (a resumed series plays it again)
            if result == f"{colour} wins":
                total.wins[colour] += 1
            elif result.endswith(" wins"):
                total.losses[colour] += 1
            else:
                total.draws[colour] += 1
            total.distinct.add((colour, tuple(moves)))
    return total


def series_figures(
    directories: list[pathlib.Path], against: list[pathlib.Path] | None = None
) -> None:
    """Print player A's score over the series in ``directories`` (a figure line); with
    ``against``, its score over those too and the difference of the two, in points and in
    standard errors (each score's error that of its own games)."""
    scores = []
    for name, group in (("series score", directories), ("against", against or [])):
        if not group:
            continue
        total = series_score(group)
        scores.append(total)
        won, lost, none = (sum(c.values()) for c in (total.wins, total.losses, total.draws))
        by_colour = ", ".join(
            f"as {c} {total.wins[c]}-{total.losses[c]}"
            + (f"-{total.draws[c]}" if total.draws[c] else "")
            for c in ("white", "black")
        )
        figure(
            name,
            f"{won}-{lost}-{none} ({100 * total.score:.1f} %, "
            f"{total.errors_from_half():+.1f} standard errors)",
            "games won-lost-undecided by player A",
            f"{total.games} games, {len(total.distinct)} distinct, {by_colour}, "
            f"{len(group)} series",
        )
    if len(scores) == 2:
        first, second = scores
        error = (first.variance() / first.games + second.variance() / second.games) ** 0.5
        difference = first.score - second.score
        figure(
            "series difference",
            f"{100 * difference:+.1f} points ({difference / error if error else 0:+.1f} "
            "standard errors)",
            "of player A's score",
            f"{first.games} games against {second.games}",
        )


def ponder_hits(
    logs: list[pathlib.Path], side: str, ticks: int, share: int, free: bool = False
) -> None:
    """How often a pondering board would have pondered the right position: in each game of the
    match logs ``logs`` that the player named ``side`` played, after each of its moves, whether
    the board file's player (its model, no variation) predicts the reply the opponent played,
    searching the position after the move with ``ticks // share`` ticks. With ``free``, also
    whether the *free guess* does: the reply the board's own search of the move expects
    (:class:`.hwsearch.HwSearchResult`'s ``reply``, the move searched again with ``ticks``; a
    move the search does not choose again, as in a log of a pondering board's, has none), and
    the free guess with the searched one where it has none."""
    from .engine import board_model
    from .hwsearch import reply_move

    chooser = board_model()
    hits = replies = games = 0
    free_hits = free_guesses = either_hits = 0
    for path in logs:
        game = match_log_games(path, side)
        if game is None:
            continue
        moves, colour = game
        games += 1
        position = Position()
        predicted = guess = None
        for move in moves:
            if predicted is not None:  # the opponent's reply to the player's move
                replies += 1
                tile = position.play(move).placed[0]
                hits += tile == predicted[1]
                free_guesses += guess is not None
                free_hits += guess == tile
                either_hits += (guess if guess is not None else predicted[1]) == tile
                predicted = guess = None
                continue
            if position.turn is colour:
                if free and position.box is not None:
                    searched, _ = chooser._search(
                        position, chooser.nodes, chooser.depth, chooser.research, ticks
                    )
                    if searched.move is not None and str(searched.move) == move:
                        position.play(move)
                        reply = reply_move(position, chooser.torus, chooser.torus, searched.reply)
                        if reply is not None and position.outcome is None:
                            guess = position.play(reply).placed[0]
                            position.pop()
                        position.pop()
                chooser.predict(position, Move.parse(move), max(1, ticks // share))
                predicted = chooser.predicted  # (None: the move ended the game)
            position.play(move)
        print(
            f"{path}: {hits} of {replies} so far"
            + (f"; free {free_hits} of {free_guesses}, with it {either_hits}" if free else ""),
            file=sys.stderr,
            flush=True,
        )
    figure(
        "ponder hits",
        f"{hits} of {replies} ({100 * hits / max(1, replies):.1f} %)",
        "replies",
        f"the board file's player's model predicting with {ticks // share:,} ticks, "
        f"{games} games of {side!r} in {len(logs)} match logs",
    )
    if free:
        figure(
            "ponder hits, free guess",
            f"{free_hits} of {replies} ({100 * free_hits / max(1, replies):.1f} %)",
            "replies",
            f"the reply the board file's player's search of its move expects ({ticks:,} ticks); "
            f"{free_guesses} guesses, {games} games of {side!r}",
        )
        figure(
            "ponder hits, free guess else searched",
            f"{either_hits} of {replies} ({100 * either_hits / max(1, replies):.1f} %)",
            "replies",
            f"the free guess, or without one the search of {ticks // share:,} ticks, "
            f"{games} games of {side!r}",
        )


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m trax_fpga.host.search_bench")
    sub = parser.add_subparsers(dest="command")
    speed = sub.add_parser("speed", help="nodes per second and depth per budget (default)")
    speed.add_argument("--budgets", type=int, nargs="+", default=[2000, 5000, 20000])
    rate = sub.add_parser("rates", help="nodes per second of the software player and the model")
    rate.add_argument("--budget", type=int, default=3000, help="nodes a search (default 3000)")
    rate.add_argument("--positions", type=int, default=6, help="positions (default 6)")
    match = sub.add_parser("match", help="self-play games between two players")
    match.add_argument(
        "a",
        help=f"one of {', '.join(VARIANTS)}, greedy, random, {', '.join(HW_PLAYERS)}, "
        f"track-NAME (NAME: {', '.join(TUNINGS)}), {', '.join(PARALLEL_PLAYERS)}, board, "
        "board1, board-xN, board1-xN, ...-rF (compiled; budget per engine; F: research flags, "
        "default 3, the board file's; -tN: a table of N entries)",
    )
    match.add_argument("b")
    match.add_argument("--budget", type=int, default=2000, help="nodes per move (default 2000)")
    match.add_argument(
        "--budget-b",
        type=int,
        metavar="N",
        help="player b's nodes per move (default: --budget), to match at equal time a player "
        "whose node costs more clocks",
    )
    match.add_argument("--pairs", type=int, default=12, help="opening pairs (default 12)")
    match.add_argument("--seed", type=int, default=1, help="first opening seed (default 1)")
    match.add_argument(
        "--research-weights",
        type=pathlib.Path,
        metavar="FILE",
        help="the fitted evaluation's weights (a JSON list, RESEARCH_FITTED: -r with 8), as "
        "`python -m trax_fpga.host.spsa` and `distill fit` write them",
    )
    match.add_argument(
        "--shape-weights",
        type=pathlib.Path,
        metavar="FILE",
        help="the shapes evaluation's weights (a JSON list, RESEARCH_SHAPES: -r with 128), as "
        "`python -m trax_fpga.host.shapefit` (or `shapes kizuna`) writes them",
    )
    match.add_argument(
        "--shape-weights-b",
        type=pathlib.Path,
        metavar="FILE",
        help="player b's own shapes weights, with --shape-weights then player a's alone (two "
        "weights of the shapes evaluation played against each other)",
    )
    split = sub.add_parser("parallel", help="virtual time of the parallel split to a depth")
    split.add_argument("--depth", type=int, default=4, help="depth to complete (default 4)")
    split.add_argument("--positions", type=int, default=12, help="positions (default 12)")
    split.add_argument(
        "--pv-plies",
        type=int,
        default=1,
        help="split the previous best's line to this ply (default 1; more: the recursive PV "
        "split, the gateware's pv_plies)",
    )
    split.add_argument(
        "--helpers",
        action="store_true",
        help="engines whose root moves ran out help the root moves still searched (model only)",
    )
    split.add_argument(
        "--engines",
        default="1,2,4,8",
        help="engine counts, comma-separated (default 1,2,4,8)",
    )
    split.add_argument(
        "--move-table",
        type=int,
        default=0,
        help="every engine's table of best moves, its entries (default 0: none)",
    )
    split.add_argument(
        "--shared-table",
        action="store_true",
        help="with --move-table: one table for all engines (model only)",
    )
    split.add_argument(
        "--table-scores",
        action="store_true",
        help="with --move-table: the nodes' values in the table too (the gateware's table_scores)",
    )
    split.add_argument(
        "--states",
        action="store_true",
        help="also where the engines' ticks of the last iteration go (playing, waiting, done)",
    )
    split.add_argument(
        "--research",
        type=int,
        default=0,
        metavar="F",
        help="research flags (1 newest first, 2 the cut: 3 the board file's; default 0)",
    )
    nodes = sub.add_parser("depth", help="nodes the sequential model plays to complete a depth")
    nodes.add_argument("--depth", type=int, default=4, help="depth to complete (default 4)")
    nodes.add_argument("--positions", type=int, default=12, help="positions (default 12)")
    nodes.add_argument(
        "--tunings",
        default=",sw-loops-hash",
        help="comma-separated research tunings (NAME of track-NAME; empty: the gateware's "
        "search; default ',sw-loops-hash')",
    )
    churn = sub.add_parser(
        "tracks", help="tiles and open tracks a move changes, over every legal move (figures)"
    )
    churn.add_argument("--positions", type=int, default=200, help="positions (default 200)")
    study = sub.add_parser("research", help="the compiled model's research options: figures")
    study.add_argument("--flags", default="0,3", help="comma-separated research flags (0,3)")
    study.add_argument("--depth", type=int, default=6, help="depth to complete (default 6)")
    study.add_argument(
        "--kizuna-wins", action="store_true", help="the wins KizuNa found against the board"
    )
    study.add_argument(
        "--nodes", type=int, default=BOARD_NODES, help="with --kizuna-wins: nodes an engine"
    )
    ponder = sub.add_parser(
        "ponder", help="how often the board would ponder the reply played (match logs)"
    )
    ponder.add_argument("logs", nargs="+", type=pathlib.Path, help="trax match game logs")
    ponder.add_argument(
        "--side", default="trax engine", help="the board's player in the logs' headers"
    )
    ponder.add_argument(
        "--ticks", type=int, default=BOARD_TICKS, help=f"a move's time ({BOARD_TICKS:,})"
    )
    ponder.add_argument(
        "--share", type=int, default=4, help="the prediction's share of a move's time: 1/N (4)"
    )
    ponder.add_argument(
        "--free",
        action="store_true",
        help="also the free guess: the reply the search of the move expects (a search a move)",
    )
    series = sub.add_parser("series", help="player A's score over trax match series (their logs)")
    series.add_argument("directories", nargs="+", type=pathlib.Path, help="trax match --log-dir")
    series.add_argument(
        "--against",
        nargs="+",
        type=pathlib.Path,
        metavar="DIR",
        help="other series to compare with: their score and the difference of the two",
    )
    think = sub.add_parser(
        "think", help="what the board file's player searches in its think time (figures)"
    )
    think.add_argument(
        "--ticks",
        type=int,
        default=BOARD_TICKS,
        help=f"virtual time a move (default {BOARD_TICKS:,}: 0.8 s at 25 MHz)",
    )
    think.add_argument("--pv-plies", default="1,4", help="comma-separated pv_plies (1,4)")
    think.add_argument("--positions", type=int, default=12, help="positions (default 12)")
    think.add_argument(
        "--helpers",
        action="store_true",
        help="each split also with the idle engines helping the others' root moves (model only)",
    )
    args = parser.parse_args(argv)
    if args.command == "series":
        series_figures(args.directories, args.against)
    elif args.command == "ponder":
        ponder_hits(args.logs, args.side, args.ticks, args.share, args.free)
    elif args.command == "think":
        plies = tuple(int(p) for p in args.pv_plies.split(","))
        think_figures(args.ticks, plies, args.positions, args.helpers)
    elif args.command == "tracks":
        found = track_changes(midgame_positions(args.positions, 64, GAMES_FILE))
        where = f"host/position.py, every legal move of {found['positions']} human-game positions"
        for name, key, unit in (
            ("placed a move", "tiles a move", "tiles"),
            ("changed a move", "tracks changed a move", "open tracks"),
            ("made a move", "tracks made a move", "open tracks"),
        ):
            figure(name, f"{found[key]:.2f}", unit, f"{where}, {found['moves']} moves")
        figure("open a position", f"{found['open tracks a position']:.1f}", "tracks", where)
    elif args.command == "research":
        flags = tuple(int(f) for f in args.flags.split(","))
        if args.kizuna_wins:
            kizuna_wins(flags, args.nodes)
        else:
            research_figures(flags, args.depth)
    elif args.command == "rates":
        rates(args.budget, args.positions)
    elif args.command == "depth":
        depth_nodes(args.depth, args.positions, tuple(args.tunings.split(",")))
    elif args.command == "match":
        if args.research_weights:
            research_weights(json.loads(args.research_weights.read_text()))
        weights_a = weights_b = None
        if args.shape_weights_b:
            if not args.shape_weights:
                parser.error("--shape-weights-b needs --shape-weights (player a's weights)")
            weights_a = json.loads(args.shape_weights.read_text())
            weights_b = json.loads(args.shape_weights_b.read_text())
        elif args.shape_weights:
            shape_weights(json.loads(args.shape_weights.read_text()))
        tally = play_match(
            args.a, args.b, args.budget, args.pairs, args.seed, weights_a, weights_b, args.budget_b
        )
        nodes = f"{args.budget}" if args.budget_b is None else f"{args.budget} and {args.budget_b}"
        print(f"{args.a} vs {args.b} at {nodes} nodes: {tally}")
    elif args.command == "parallel":
        counts = tuple(int(n) for n in args.engines.split(","))
        parallel(
            args.depth,
            args.positions,
            pv_plies=args.pv_plies,
            helpers=args.helpers,
            engine_counts=counts,
            move_table=args.move_table,
            shared_table=args.shared_table,
            table_scores=args.table_scores,
            states=args.states,
            research=args.research,
        )
    else:
        bench(getattr(args, "budgets", [2000, 5000, 20000]))


if __name__ == "__main__":
    main()
