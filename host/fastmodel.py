"""The board's search model, compiled: :func:`.hwsearch.hw_search` with ``board="track"``, node
for node, at C speed.

``fastmodel.c`` follows the Python model (and the rules, frontier list, evaluation and table of
best moves it plays on) statement by statement; a test compares the two on the same positions
and budgets (the move, score, depth and nodes). It exists to play a real board's nodes a move
(millions) in a series of games, which the Python model cannot.

The C file is compiled on first use with the system's C compiler (``cc``, or ``$CC``) into a
shared library cached under a hash of its source: ``$TRAX_FASTMODEL_CACHE`` if set, else
``build/fastmodel`` in the source tree (``~/.cache/trax-fpga/fastmodel`` when installed
elsewhere). :func:`available` says whether it can be built here; the callers fall back to the
Python model when it cannot.

:func:`fast_parallel_search` is :func:`.hwparallel.hw_parallel_search` the same way (every
engine a coroutine of its own, stepped a node at a time in the model's virtual time), its
helpers (model only) too. Scope: the block-RAM board's search without research tunings,
positions reached by moves from the empty board, tori up to 64 x 64. Research options of its
own (``research=``, the ``RESEARCH_*`` flags; :func:`research_weights`) are for measuring
candidates at a real board's nodes before they are written into the Python model and the
gateware; 0 is the board's search.
"""

from __future__ import annotations

import ctypes
import functools
import hashlib
import os
import shutil
import subprocess
import tempfile
from pathlib import Path

from . import caches
from .hweval import MAX_EXTENSIONS
from .hwparallel import ParallelResult, hw_parallel_search
from .hwsearch import (
    MODEL_RESEARCH,
    RESEARCH_CUT,
    RESEARCH_NEWEST,
    HwSearchResult,
    hw_search,
)
from .movetable import TAG_BITS, score_tag_bits
from .notation import Move
from .position import Position
from .tiles import Symbol
from .trackeval import ATTACK_WEIGHT, LOOP_WEIGHTS, TEMPO, ShapeTable

__all__ = [
    "BOARD_WEIGHTS",
    "RESEARCH_CUT",
    "RESEARCH_DEEPER",
    "RESEARCH_FITTED",
    "RESEARCH_HALF",
    "RESEARCH_NEWEST",
    "RESEARCH_PVS",
    "RESEARCH_REDUCE",
    "RESEARCH_SHAPES",
    "RESEARCH_THREATS",
    "RESEARCH_THREATS2",
    "RESEARCH_THREAT_DOUBLE",
    "RESEARCH_THREAT_FAR",
    "FastModelError",
    "available",
    "fast_parallel_search",
    "fast_perft",
    "fast_search",
    "library",
    "model_search",
    "order_research",
    "research_weights",
    "shape_weights",
    "track_weights",
]

SOURCE = Path(__file__).with_name("fastmodel.c")
SYMBOLS = list(Symbol)
CFLAGS = ("-O3", "-shared", "-fPIC", "-std=c99", "-Wall", "-Werror")


class FastModelError(RuntimeError):
    """The compiled model could not be built, or refused its input."""


class _Result(ctypes.Structure):
    _fields_ = [
        ("found", ctypes.c_int32),
        ("x", ctypes.c_int32),
        ("y", ctypes.c_int32),
        ("symbol", ctypes.c_int32),
        ("score", ctypes.c_int32),
        ("depth", ctypes.c_int32),
        ("nodes", ctypes.c_int64),
        ("reply", ctypes.c_int32),
    ]


MAX_PLY = 64
MAX_ENGINES = 32
#: What the C side holds (fastmodel.c's constants of the same names): tiles within REACH of the
#: first in x and y, fewer than MAX_TILES tiles and MAX_TURNS turns. A game beyond them (one
#: that outgrew every torus the model plays on) is searched by the Python model instead.
REACH = 100
MAX_TILES = 16384
MAX_TURNS = 8192

# Research options of the compiled model (``research=``, flags; model only: docs/evaluation.md,
# "Where the board loses to KizuNa"). 0 is the board's search, node for node. RESEARCH_NEWEST and
# RESEARCH_CUT are the Python model's too (:mod:`.hwsearch`), node for node, and the gateware's
# (``newest_first``, ``attack_cut``, off by default); the others are the
# compiled model's alone, for measuring candidates before they are written into both.
#: A table entry's score also answers a search shallower than the one that stored it.
RESEARCH_DEEPER = 4
#: The quiet evaluation is a weighted sum set by :func:`research_weights`.
RESEARCH_FITTED = 8
#: A move after which its mover holds an attack costs half a ply of the iteration's depth
#: (KizuNa's extension), so forcing lines are searched deeper.
RESEARCH_HALF = 16
#: A move at ply 1 or deeper whose cell lies more than 2 cells (in x or in y) outside the box of
#: each of the two turns before it is searched a ply shallower (KizuNa's "old line reduction";
#: the Python model's tuning ``reduce_far=2``, node for node in one engine).
RESEARCH_REDUCE = 32
#: The moves after a node's first searched with a null window first, again with the whole
#: window only when they beat alpha (the principal variation search).
RESEARCH_PVS = 64
#: The quiet evaluation weighs the shapes of tracks and of pairs of tracks of one colour
#: (KizuNa's features; :mod:`.shapes` sets the weights and counts the features).
RESEARCH_SHAPES = 128
#: A threat search at a quiet horizon (neither side holds an attack; issue 12): the side to move
#: stands on the evaluation or makes a *threat*, a move at a target of one of its tracks whose
#: targets lie 2 apart after which it holds an attack (the opponent none); every move of the
#: opponent answers it, one node each (an answer that leaves the attack is lost: the cut), so a
#: threat no answer stops is a proved win (``host/fastmodel.c``'s ``threats``).
RESEARCH_THREATS = 256
#: After an answer a second threat (with :data:`RESEARCH_THREATS`, a second and a third).
RESEARCH_THREATS2 = 512
#: Threats also at the targets of tracks whose targets lie 3 apart.
RESEARCH_THREAT_FAR = 1024
#: Only threats after which the side holds two attacks or more (a double threat).
RESEARCH_THREAT_DOUBLE = 2048

#: The layout of :data:`RESEARCH_SHAPES`'s weights (``host/fastmodel.c``, ``shape_walk``): each
#: feature a pair, the side to move's then the other colour's, at ``2 k`` and ``2 k + 1`` past its
#: start: pseudo-threats, long tracks, the tracks' shapes, the pairs' patterns; a constant.
PSEUDO, LONG, TRACKS, PAIRS, CONSTANT = 0, 2, 4, 516, 1028
SHAPE_FEATURES = 1029

#: :func:`research_weights`'s layout holding the board's own evaluation: per kind of track
#: (index 3 (distance - 1) + relation, :func:`.trackeval.loop_kind`) the side to move's 12
#: weights and the opponent's 12, the opponent's attacks, the pseudo-threats (the side to
#: move's, the opponent's), the long tracks (targets 6 or more apart in x or y; the same two),
#: a constant.
BOARD_WEIGHTS = (
    *(w for row in LOOP_WEIGHTS for w in row),
    *(-w for row in LOOP_WEIGHTS for w in row),
    -ATTACK_WEIGHT,
    *(0, 0, 0, 0),
    TEMPO,
)


class _Parallel(ctypes.Structure):
    _fields_ = [
        ("result", _Result),
        ("n_iterations", ctypes.c_int32),
        ("iterations", ctypes.c_int32 * MAX_PLY),
        ("engine_nodes", ctypes.c_int64 * MAX_ENGINES),
        ("ticks", ctypes.c_int64),
    ]


def cache_dir() -> Path:
    """Where the built library is kept (see the module docstring)."""
    return caches.cache_dir("fastmodel", "TRAX_FASTMODEL_CACHE")


def _compiler() -> str | None:
    return shutil.which(os.environ.get("CC", "cc"))


def available() -> bool:
    """Whether the compiled model can be used here (a C compiler, or a library already built)."""
    try:
        library()
    except FastModelError:
        return False
    return True


@functools.cache
def library() -> ctypes.CDLL:
    """The compiled model, built first if needed; raises :class:`FastModelError` if it cannot
    be."""
    source = SOURCE.read_bytes()
    compiler = _compiler()
    digest = hashlib.sha256(source + " ".join(CFLAGS).encode()).hexdigest()[:16]
    target = cache_dir() / f"fastmodel-{digest}.so"
    if not target.exists():
        if compiler is None:
            raise FastModelError("no C compiler (cc, or $CC) to build the compiled model")
        target.parent.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryDirectory(dir=target.parent) as work:
            built = Path(work) / target.name
            run = subprocess.run(
                [compiler, *CFLAGS, "-o", str(built), str(SOURCE)],
                capture_output=True,
                text=True,
            )
            if run.returncode != 0:
                raise FastModelError(f"building {SOURCE.name} failed:\n{run.stderr}")
            os.replace(built, target)  # atomic: a concurrent build leaves one whole library
    lib = ctypes.CDLL(str(target))
    lib.fm_search.restype = ctypes.c_int
    lib.fm_search.argtypes = [
        ctypes.POINTER(ctypes.c_int32),
        ctypes.c_int,
        ctypes.c_int,
        ctypes.c_int,
        ctypes.c_int64,
        *[ctypes.c_int] * 8,
        ctypes.POINTER(_Result),
    ]
    lib.fm_parallel_search.restype = ctypes.c_int
    lib.fm_parallel_search.argtypes = [
        ctypes.POINTER(ctypes.c_int32),
        *[ctypes.c_int] * 3,
        ctypes.c_int64,
        *[ctypes.c_int] * 11,
        ctypes.c_int64,
        ctypes.c_int,
        ctypes.POINTER(_Parallel),
    ]
    lib.fm_research_weights.restype = None
    lib.fm_research_weights.argtypes = [ctypes.POINTER(ctypes.c_int32), ctypes.c_int]
    lib.fm_shape_weights.restype = None
    lib.fm_shape_weights.argtypes = [ctypes.POINTER(ctypes.c_int32), ctypes.c_int]
    lib.fm_shape_features.restype = ctypes.c_int
    lib.fm_shape_features.argtypes = [
        ctypes.POINTER(ctypes.c_int32),
        *[ctypes.c_int] * 3,
        ctypes.POINTER(ctypes.c_int32),
        ctypes.POINTER(ctypes.c_int32),
    ]
    lib.fm_exclude.restype = None
    lib.fm_exclude.argtypes = [ctypes.POINTER(ctypes.c_int32), ctypes.c_int]
    lib.fm_perft.restype = ctypes.c_int64
    lib.fm_perft.argtypes = [ctypes.POINTER(ctypes.c_int32), ctypes.c_int, ctypes.c_int]
    return lib


def _game(position: Position) -> tuple[ctypes.Array, int]:
    """The position's moves as the C side replays them: each turn's played cell and symbol."""
    from_moves = position.turns[0].placed[0][0] == (0, 0) if position.turns else not position.tiles
    if not from_moves:
        raise FastModelError("the compiled model replays games from the empty board")
    values = []
    for turn in position.turns:
        (x, y), _tile = turn.placed[0]
        values += [x, y, SYMBOLS.index(turn.move.symbol)]
    return (ctypes.c_int32 * max(1, len(values)))(*values), len(position.turns)


def fast_search(
    position: Position,
    width: int,
    height: int,
    budget: int,
    max_depth: int,
    *,
    evaluation: bool = True,
    move_table: int = 0,
    table_scores: bool = False,
    extensions: int = MAX_EXTENSIONS,
    research: int = 0,
    shapes: ShapeTable | None = None,
) -> HwSearchResult:
    """:func:`.hwsearch.hw_search` with ``board="track"`` and the same arguments, compiled.

    ``extensions`` (research, model only: the gateware's is ``MAX_EXTENSIONS``) is the plies a
    threatened side may be searched beyond the horizon: :func:`.hw_search` with the tuning
    ``sw-loops`` and that ``extensions`` (:mod:`.trackresearch`), node for node while the game's
    targets lie less than half the torus apart. ``research`` (model only): the ``RESEARCH_*``
    flags."""
    if move_table and (width > 64 or height > 64):
        raise ValueError("the positions' keys are for tori of at most 64 x 64")
    if table_scores and not move_table:
        raise ValueError("scores in the table need the table (move_table)")
    if position.box is None:  # the first move of a game: the search is not needed
        return HwSearchResult(Move(0, 0, Symbol.CROSS), 0, 0, 0, (0, 0), Symbol.CROSS)
    if _beyond_reach(position, extensions, research):
        table = {"move_table": move_table, "table_scores": table_scores, "research": research}
        arguments = (position, width, height, budget, max_depth)
        return hw_search(*arguments, evaluation=evaluation, board="track", shapes=shapes, **table)
    research = _shapes(research, shapes)
    game, count = _game(position)
    tag_bits = score_tag_bits(move_table) if table_scores else TAG_BITS
    out = _Result()
    status = library().fm_search(
        *(game, count, width, height, budget, max_depth, int(evaluation)),
        *(move_table, tag_bits, 1, int(table_scores), extensions, research),
        ctypes.byref(out),
    )
    _check(status)
    return _result(position, width, height, out)


def research_weights(weights: tuple[int, ...] | list[int]) -> None:
    """Set the weights :data:`RESEARCH_FITTED` searches with (30, laid out as
    :data:`BOARD_WEIGHTS`), for every search of this process until set again (research)."""
    if len(weights) != len(BOARD_WEIGHTS) or not all(isinstance(w, int) for w in weights):
        raise ValueError(f"research weights are {len(BOARD_WEIGHTS)} integers")
    library().fm_research_weights((ctypes.c_int32 * len(weights))(*weights), len(weights))


MAX_EXCLUDED = 64  # host/fastmodel.c: MAX_EXCLUDED


def root_key(cell: tuple[int, int], symbol: Symbol, width: int, height: int) -> int:
    """A root move's key as the compiled model's table and killers hold it: its cell on the
    ``width`` x ``height`` torus and its symbol (a result's ``window_cell`` and ``symbol``)."""
    x, y = cell
    return ((y % height) << 8 | (x % width)) << 2 | SYMBOLS.index(symbol)


def exclude(keys: list[int] | tuple[int, ...]) -> None:
    """Leave the root moves of ``keys`` (:func:`root_key`) out of every compiled search of this
    process until set again (research: a player searching again without a move that a deeper
    search refuted); ``()`` clears them."""
    if len(keys) > MAX_EXCLUDED:
        raise ValueError(f"at most {MAX_EXCLUDED} excluded root moves")
    library().fm_exclude((ctypes.c_int32 * max(1, len(keys)))(*keys), len(keys))


def track_weights(table: ShapeTable) -> list[int]:
    """A :class:`.trackeval.ShapeTable` (the tracks' shapes, the board's) in the layout of
    :data:`RESEARCH_SHAPES`'s weights, every other weight 0."""
    weights = [0] * SHAPE_FEATURES
    weights[TRACKS:PAIRS:2] = table.mine
    weights[TRACKS + 1 : PAIRS : 2] = table.theirs
    weights[CONSTANT] = table.constant
    return weights


def shape_weights(weights: list[int] | tuple[int, ...]) -> None:
    """Set the weights :data:`RESEARCH_SHAPES` searches with (:data:`SHAPE_FEATURES`, its
    layout), for every search of this process until set again."""
    if len(weights) != SHAPE_FEATURES or not all(isinstance(w, int) for w in weights):
        raise ValueError(f"shape weights are {SHAPE_FEATURES} integers")
    library().fm_shape_weights((ctypes.c_int32 * SHAPE_FEATURES)(*weights), SHAPE_FEATURES)


def _shapes(research: int, shapes: ShapeTable | None) -> int:
    """With ``shapes``, set them as the compiled shapes evaluation's weights and add its flag.
    ValueError with a research evaluation of its own (``RESEARCH_FITTED``, ``RESEARCH_SHAPES``),
    whose weights the table would overwrite."""
    if shapes is None:
        return research
    if research & (RESEARCH_FITTED | RESEARCH_SHAPES):
        raise ValueError("a research evaluation (research 8 or 128) has weights of its own")
    shape_weights(track_weights(shapes))
    return research | RESEARCH_SHAPES


def _beyond_reach(position: Position, extensions: int, research: int) -> bool:
    """Whether the game is beyond what the C side holds (see :data:`REACH`), so that the Python
    model must search it (which has neither research extensions nor the compiled model's own
    research options: :class:`FastModelError` for those)."""
    box = position.box
    reach = max(abs(box.min_x), abs(box.max_x), abs(box.min_y), abs(box.max_y))
    held = reach <= REACH and len(position.tiles) < MAX_TILES - 1 and position.ply < MAX_TURNS - 1
    if not held and (extensions != MAX_EXTENSIONS or research & ~MODEL_RESEARCH):
        raise FastModelError("research options are for games the compiled model holds")
    return not held


def _check(status: int) -> None:
    if status != 0:
        reasons = {-1: "the game cannot be replayed", -2: "out of memory", -3: "bad parameters"}
        raise FastModelError(f"the compiled model refused the search: {reasons[status]}")


def _result(position: Position, width: int, height: int, out: _Result) -> HwSearchResult:
    if not out.found:
        return HwSearchResult(None, 0, 0, out.nodes, None, None)
    cell, symbol = (out.x, out.y), SYMBOLS[out.symbol]
    return HwSearchResult(
        position.move_at(cell, symbol),
        out.score,
        out.depth,
        out.nodes,
        (cell[0] % width, cell[1] % height),
        symbol,
        reply=_reply(out.reply),
    )


def _reply(key: int) -> tuple[tuple[int, int], Symbol] | None:
    """A reply's key (``move_key``: the torus cell and symbol) as a window cell and symbol."""
    if key < 0:
        return None
    return ((key >> 2) & 255, key >> 10), SYMBOLS[key & 3]


def fast_parallel_search(
    position: Position,
    width: int,
    height: int,
    budget: int,
    max_depth: int,
    engines: int,
    *,
    evaluation: bool = True,
    pv_plies: int = 1,
    helpers: bool = False,
    move_table: int = 0,
    shared_table: bool = False,
    table_scores: bool = False,
    extensions: int = MAX_EXTENSIONS,
    research: int = 0,
    shapes: ShapeTable | None = None,
    ticks_budget: int | None = None,
) -> ParallelResult:
    """:func:`.hwparallel.hw_parallel_search` with the same arguments, compiled; ``extensions``
    as :func:`fast_search`'s (research; with ``helpers``, only the Python model's flags)."""
    if not 1 <= engines <= MAX_ENGINES:
        raise ValueError(f"engines must be 1 to {MAX_ENGINES}, not {engines}")
    if pv_plies < 1:
        raise ValueError(f"pv_plies must be at least 1, not {pv_plies}")
    if table_scores and not move_table:
        raise ValueError("scores in the table need the table (move_table)")
    if ticks_budget is not None and ticks_budget < 0:
        raise ValueError(f"the ticks' budget must be at least 0, not {ticks_budget}")
    if helpers and (research & ~MODEL_RESEARCH or extensions != MAX_EXTENSIONS):
        raise ValueError("helpers search with the Python model's research flags only")
    if position.box is None:  # the first move of a game: the search is not needed
        move = Move(0, 0, Symbol.CROSS)
        return ParallelResult(move, 0, 0, 0, (0, 0), Symbol.CROSS, [], (0,) * engines, 0)
    if _beyond_reach(position, extensions, research):
        return hw_parallel_search(
            *(position, width, height, budget, max_depth, engines),
            evaluation=evaluation,
            pv_plies=pv_plies,
            helpers=helpers,
            move_table=move_table,
            shared_table=shared_table,
            table_scores=table_scores,
            research=research,
            shapes=shapes,
            ticks_budget=ticks_budget,
        )
    research = _shapes(research, shapes)
    game, count = _game(position)
    tag_bits = score_tag_bits(move_table) if table_scores else TAG_BITS
    out = _Parallel()
    status = library().fm_parallel_search(
        *(game, count, width, height, budget, max_depth, engines, pv_plies, int(evaluation)),
        *(move_table, tag_bits, 1, int(table_scores), int(shared_table), extensions, research),
        -1 if ticks_budget is None else ticks_budget,
        int(helpers),
        ctypes.byref(out),
    )
    _check(status)
    one = _result(position, width, height, out.result)
    return ParallelResult(
        *(one.move, one.score, one.depth, one.nodes, one.window_cell, one.symbol),
        list(out.iterations[: out.n_iterations]),
        tuple(out.engine_nodes[:engines]),
        out.ticks,
        reply=one.reply,
    )


def fast_perft(position: Position, depth: int) -> int:
    """:meth:`.Position.perft`, compiled (on the frontier list of :mod:`.trackorder`)."""
    game, count = _game(position)
    total = library().fm_perft(game, count, depth)
    if total < 0:
        raise FastModelError("the game cannot be replayed")
    return total


def order_research(attack_cut: bool, newest_first: bool) -> int:
    """The research flags of the gateware search's order options (``attack_cut``,
    ``newest_first``): :data:`RESEARCH_CUT` and :data:`RESEARCH_NEWEST`."""
    return RESEARCH_CUT * bool(attack_cut) | RESEARCH_NEWEST * bool(newest_first)


def model_search(
    position: Position,
    torus: int,
    budget: int,
    max_depth: int,
    engines: int = 1,
    *,
    pv_plies: int = 1,
    helpers: bool = False,
    move_table: int = 0,
    table_scores: bool = False,
    attack_cut: bool = False,
    newest_first: bool = False,
    research: int = 0,
    shapes: ShapeTable | None = None,
    ticks: int | None = None,
) -> tuple[HwSearchResult, bool]:
    """The board's search through its model, as ``trax engine --search model`` and ``trax best
    --backend model`` run it: ``engines`` engines (the table, if any, shared by them) on a
    ``torus`` x ``torus`` torus, compiled when it can be here, else the Python model (node for
    node the same). The result, and whether the compiled model ran. ``attack_cut`` and
    ``newest_first`` are the gateware search's options of those names (:data:`RESEARCH_CUT`,
    :data:`RESEARCH_NEWEST`); ``research``: more ``RESEARCH_*`` flags (the compiled model's own
    need it: :class:`FastModelError` without); ``shapes``: the evaluation weighs the tracks'
    shapes (:class:`.trackeval.ShapeTable`), in both models. ``ticks`` (None: none) is the
    clock budget in the model's virtual time (:func:`.hwparallel.hw_parallel_search`'s
    ``ticks_budget``; with one engine a tick is a node, so it is a node budget). ``helpers``
    (model only, with engines): engines whose root moves ran out help the others'."""
    research |= order_research(attack_cut, newest_first)
    table = {
        "move_table": move_table,
        "table_scores": table_scores,
        "research": research,
        "shapes": shapes,
    }
    compiled = torus <= 64 and engines <= MAX_ENGINES and available()
    if research & ~MODEL_RESEARCH and not compiled:
        raise FastModelError("these research options need the compiled model (a C compiler)")
    arguments = (position, torus, torus, budget, max_depth)
    split = {"pv_plies": pv_plies, "helpers": helpers, "shared_table": move_table > 0}
    if engines == 1:
        if ticks is not None:
            arguments = (position, torus, torus, min(budget, ticks), max_depth)
        search = fast_search if compiled else functools.partial(hw_search, board="track")
        return search(*arguments, **table), compiled
    search = fast_parallel_search if compiled else hw_parallel_search
    return search(*arguments, engines, **split, **table, ticks_budget=ticks), compiled
