"""The board in block RAM: a torus of cells, a table of track ends, and one turn at a time.

The position is kept in memories, not in logic per cell, so the board can be far larger than
any real game (64 x 64 costs a few block RAMs) while the logic stays that of one cell and one
tile:

- **Cells** (four banks): per cell its tile (0 = empty) and what its four sides see, ``known``
  (a tile is there) and ``white`` (that tile shows white). A cell's rules (which tiles fit, is it
  forced, is it dead) follow from its own record alone, with :func:`~.legality.cell_rules`.
  The banks are coloured like a king's move on the two chequerboard halves
  (:func:`cell_bank`), so the four neighbours of any cell lie in four different banks and are
  read, or written, in one clock. A cell is only ever written with the record read from it in
  the clock before, so each bank writes where it was read (no write address is made).
- **Track ends** (eight banks): per edge between two cells, where it is the open end of a track
  (a tile on one side, an empty cell on the other), the edge at the other end of that track,
  and the track's class for the evaluation (its kind), so that a track a tile ends is counted
  off from what was read, and only the tile's new tracks are measured. (With ``shapes``, no
  class: a track a tile ends is measured from its two ends, the one read at the tile's side and
  its partner.)
  Edges are split by direction and by the parities of their column and row, so a cell's four
  edges lie in four different banks (and a tile's four writes seldom meet in one).
- **Log**: every tile placed, in order; a turn that turns out illegal, or a search's ply, is
  taken back from it.
- **Forced cells**: a stack of the cells a placed tile made forced, waiting for their tile.
- **Frontier list**: the empty cells next to a tile, in the order they became so (a tile appends
  the cells it is the first neighbour of, side by side N, E, S, W); taking back a ply or a turn
  drops what it appended. Cells that a game's moves fill stay in the list until ``COMPACT``
  drops them (at the root of each search); the candidates are read from it
  (:meth:`TrackBoard` ``CANDIDATE``), skipping occupied cells.

A tile joins two pairs of its edges. For each pair, the track ends on the far side of the edges
(or the edges themselves, where the neighbour is empty) become the two ends of one track: if they
were already the two ends of one track, the tile closes a **loop**; if they lie on opposite
outer edges of a box at least 8 across, the track is a **line**. So wins cost nothing beyond the
placement: no flood.

A box plus its ring of empty cells must fit in the torus (``box + 2 <= C`` and ``<= R``); a move
that would outgrow it is refused (``OVERFLOW``), never misjudged, exactly as
the first design's window board did (in the git history).

The pipeline of one tile: the clock that issues the reads of its cell (its record and its four
edges), the clock that decides the tile, writes it and the new track ends and issues the reads of
its four neighbours, and the clock that updates the neighbours (and finds the cells it forced or
killed). Two track-end writes that fall in one bank cost a clock more, and so does each cell
forced beyond the first, and each two cells appended to the frontier list beyond the first two.

The software model of the order in which this board places tiles and lists the frontier (so of
the candidate order) is :mod:`trax_fpga.host.trackorder`.
"""

from amaranth import Cat, Const, Module, Mux, Signal, Value, signed
from amaranth.lib import data, enum, wiring
from amaranth.lib.memory import Memory
from amaranth.lib.wiring import In, Out
from amaranth.utils import ceil_log2

from .cell_rules import cell_rules, grow_box, placement
from .forwarded_memory import ForwardedMemory
from .scores import LOOP_WEIGHTS
from .types import Symbol, Tile, Verdict

__all__ = [
    "COMPACT_OPTIONS",
    "KEY_BITS",
    "KEY_HIGH_MULTIPLIER",
    "KEY_HIGH_SHIFT",
    "KEY_MULTIPLIER",
    "KEY_SHIFT",
    "TILES",
    "TrackBoard",
    "TrackOp",
    "board_option",
    "box_eq",
    "box_signature",
    "cell_address",
    "cell_bank",
    "check_board_options",
    "check_shapes",
    "check_torus",
    "cursor_layout",
    "edge_address",
    "edge_bank",
    "edge_layout",
    "game_port_answers",
    "game_port_commands",
    "game_port_signature",
    "member_at",
    "move_eq",
    "move_layout",
    "move_signature",
    "port_members",
    "potential_bits",
    "shape_value_bits",
    "tile_key",
    "track_kind_code",
]

NORTH, EAST, SOUTH, WEST = 0, 1, 2, 3
# Where a state that looks for a candidate goes next (``go_to``).
_GO_CELL, _GO_MOVE, _GO_IDLE, _GO_PLACE, _GO_FIT = 0, 1, 2, 3, 4
_STEP = ((0, -1), (1, 0), (0, 1), (-1, 0))

#: Relations of the directions a track's two ends leave their tiles in.
SAME, TURNED, OPPOSITE = 0, 1, 2
#: Bits of a track's kind in the track-end table.
KIND_BITS = 4
#: Bits of a track's shape (with ``shapes``: measured, not kept in the table), and the shapes.
SHAPE_BITS = 8
SHAPES = 1 << SHAPE_BITS


def track_kind_code(distance: int, relation: int) -> int:
    """The code of a track's kind as the track-end table keeps it: 0 when its targets are not 1
    to 4 apart, else ``3 (distance - 1) + relation + 1`` (1 to 3: an attack)."""
    if not 1 <= distance <= len(LOOP_WEIGHTS):
        return 0
    return 3 * (distance - 1) + relation + 1


#: A track's loop potential by its kind's code.
KIND_WEIGHTS = (0, *(w for row in LOOP_WEIGHTS for w in row))


#: The placed tiles in the order that numbers them in a tile's key.
TILES = [t for t in Tile if t is not Tile.EMPTY]
#: A tile's key (:func:`tile_key`): bits ``KEY_SHIFT`` to ``KEY_SHIFT + 31`` of its number's
#: product by ``KEY_MULTIPLIER`` (Fibonacci hashing: the high bits mix every bit of the number),
#: then the top 8 bits of its 31-bit product by ``KEY_HIGH_MULTIPLIER`` (bits 32 to 39).
KEY_MULTIPLIER = 0x9E3779B1
KEY_SHIFT = 15
KEY_HIGH_MULTIPLIER = 0x85EB
KEY_HIGH_SHIFT = 23
KEY_BITS = 40


def tile_key(x: int, y: int, tile: Tile) -> int:
    """The 40-bit key of ``tile`` at torus cell (x, y), as the board's ``position_key`` counts
    it: its number is the cell's y * 64 + x, then the tile's place in :data:`TILES` (3 bits)."""
    number = ((y * 64 + x) << 3) | TILES.index(tile)
    high = (number * KEY_HIGH_MULTIPLIER) >> KEY_HIGH_SHIFT
    return (number * KEY_MULTIPLIER) >> KEY_SHIFT | high << 32


def potential_bits(columns: int, rows: int) -> int:
    """Bits of the difference of the colours' loop potential (signed): the largest weight,
    either way, for every track the torus can hold (fewer than two a cell), so it never
    wraps."""
    return ceil_log2(max(map(abs, KIND_WEIGHTS)) * 2 * columns * rows + 1) + 1


def check_shapes(shapes) -> tuple[tuple[int, ...], tuple[int, ...], int]:
    """Validate a table of the tracks' shapes' weights, ``(mine, theirs, constant)``: 256
    integers each (by the shape, :class:`TrackBoard`'s ``shapes``) and one; the table as
    tuples."""
    if not isinstance(shapes, (tuple, list)) or len(shapes) != 3:
        raise ValueError("shapes is (mine, theirs, constant): two tables of 256 weights and one")
    mine, theirs, constant = shapes

    def integer(value):
        return isinstance(value, int) and not isinstance(value, bool)

    for name, table in (("mine", mine), ("theirs", theirs)):
        if not isinstance(table, (tuple, list)) or len(table) != SHAPES:
            raise ValueError(f"the shapes' {name} table holds {SHAPES} weights")
        if not all(integer(w) for w in table):
            raise ValueError(f"the shapes' {name} table holds integers")
    if not integer(constant):
        raise ValueError(f"the shapes' constant is an integer, not {constant!r}")
    return tuple(mine), tuple(theirs), constant


def shape_value_bits(columns: int, rows: int, shapes) -> int:
    """Bits of a colour's sum of its tracks' shapes' weights (signed; ``shapes`` as
    :func:`check_shapes` takes it): the largest weight, either way, for every track the torus
    can hold (fewer than two a cell), so it never wraps."""
    largest = max(1, *map(abs, shapes[0]), *map(abs, shapes[1]))
    return ceil_log2(largest * 2 * columns * rows + 1) + 1


class TrackOp(enum.Enum, shape=3):
    """What a ``start`` of the track board does."""

    NEW_GAME = 0  # empty the torus
    PLAY = 1  # a game's move: a turn that is not taken back
    PLY = 2  # a move of the search: a turn that UNDO takes back
    UNDO = 3  # take back the last PLY
    CANDIDATE = 4  # the first candidate move at or after ``cursor``
    COMPACT = 5  # drop the occupied cells from the frontier list (at the search's root)
    NEXT = 6  # the first legal move at or after ``cursor`` but ``skip``: found, and played
    UNDO_NEXT = 7  # UNDO, then NEXT


def move_layout(columns: int, rows: int) -> data.StructLayout:
    """A move on the board as data (a register, a memory word): a torus cell and a symbol."""
    return data.StructLayout({"x": range(columns), "y": range(rows), "symbol": Symbol})


def cursor_layout(columns: int, rows: int) -> data.StructLayout:
    """A place in the candidate order: an ``index`` into the frontier list and a ``symbol``."""
    return data.StructLayout({"index": range(columns * rows + 1), "symbol": Symbol})


def move_signature(columns: int, rows: int) -> wiring.Signature:
    """A move on a C x R torus as a port, from the side that gives it: the cell (``x``, ``y``)
    and the ``symbol``."""
    return wiring.Signature(
        {"x": Out(range(columns)), "y": Out(range(rows)), "symbol": Out(Symbol)}
    )


def box_signature(columns: int, rows: int) -> wiring.Signature:
    """The position's box as a port, from the side that holds the position: the torus cell of
    the box's min corner (``x``, ``y``) and its size (``w``, ``h``); ``empty``: no tile in play
    (then all four are 0). It is the only view of the position the rest of the design needs to
    name a move in notation."""
    c, r = columns, rows
    return wiring.Signature(
        {
            "x": Out(range(c)),
            "y": Out(range(r)),
            "w": Out(range(c + 1)),
            "h": Out(range(r + 1)),
            "empty": Out(1, init=1),
        }
    )


def move_eq(port, move) -> list:
    """The statements that give ``port`` (a move port or ``move_layout`` data) the move
    ``move`` (either too)."""
    return [port.x.eq(move.x), port.y.eq(move.y), port.symbol.eq(move.symbol)]


def box_eq(port, box) -> list:
    """The statements that give the box port ``port`` the box ``box`` (another box port)."""
    return [getattr(port, name).eq(getattr(box, name)) for name in ("x", "y", "w", "h", "empty")]


def game_port_signature(columns: int, rows: int) -> wiring.Signature:
    """The game port of a block that holds a C x R board (the board itself, the search, the
    many-engine search, perft), from the block's side: the board's command in (``start`` with
    ``op``, the ``move`` and whether it is ``outside`` the box's ring, taken while the block is
    idle), its answer (``busy``, ``done``, ``verdict``) and the position's ``box`` out. Every
    :class:`TrackBoard` has these members; a block that holds one passes them on with
    :func:`game_port_commands` and :func:`game_port_answers`."""
    c, r = columns, rows
    return wiring.Signature(
        {
            "start": In(1),
            "op": In(TrackOp),
            "move": In(move_signature(c, r)),
            "outside": In(1),
            "busy": Out(1),
            "done": Out(1),
            "verdict": Out(Verdict),
            "box": Out(box_signature(c, r)),
        }
    )


def member_at(interface, path: tuple):
    """The member of ``interface`` at ``path`` (as :meth:`wiring.Signature.flatten` gives it)."""
    for part in path:
        interface = getattr(interface, part)
    return interface


def port_members(port, flow) -> list:
    """``(path, signal)`` of each member of the interface ``port`` that flows ``flow`` (``In`` or
    ``Out``, from the side of the block whose member it is), nested members flattened."""
    return [
        (path, value) for path, member, value in port.signature.flatten(port) if member.flow == flow
    ]


def game_port_answers(m: Module, port, board) -> None:
    """Drive the game port ``port``'s outputs from ``board`` (a :class:`TrackBoard`, or another
    game port of the same size)."""
    m.d.comb += [value.eq(member_at(board, path)) for path, value in port_members(port, Out)]


def game_port_commands(m: Module, board, port) -> None:
    """Give ``board`` the game port ``port``'s command (in the control context of the call)."""
    m.d.comb += [member_at(board, path).eq(value) for path, value in port_members(port, In)]


def check_torus(columns: object, rows: object) -> tuple[int, int]:
    """Validate a torus size: powers of two, at least 8 each (the box plus its ring must fit a
    game that can be won by a line, and the bank colourings repeat every 4)."""
    for name, value in (("columns", columns), ("rows", rows)):
        if (
            not isinstance(value, int)
            or isinstance(value, bool)
            or value < 8
            or value & (value - 1)
        ):
            raise ValueError(f"torus {name} must be a power of two of at least 8, not {value!r}")
    return columns, rows


def edge_layout(columns: int, rows: int) -> data.StructLayout:
    """An edge between two cells: ``south`` 0 is the edge east of cell (x, y), 1 the edge south
    of it."""
    return data.StructLayout(
        {"x": ceil_log2(columns), "y": ceil_log2(rows), "south": 1},
    )


def cell_bank(x, y):
    """The cell bank of cell (x, y): 2 * bit 1 of (x + y) + bit 1 of (x - y).

    Works on integers (Python's ``>>`` on negatives is two's complement) and on Amaranth values.
    The four neighbours of a cell get four different banks, on a torus whose sides are multiples
    of 4.
    """
    if isinstance(x, int) and isinstance(y, int):
        return 2 * (((x + y) >> 1) & 1) + (((x - y) >> 1) & 1)
    return Cat((x - y)[1], (x + y)[1])


def cell_address(x, y, columns: int):
    """The address of cell (x, y) in its bank: the cell's coordinates without bit 1 of x and
    bit 0 of y (the four cells that share an address lie in four banks)."""
    if isinstance(x, int) and isinstance(y, int):
        return (y >> 1) * (columns // 2) + ((x >> 2) << 1 | (x & 1))
    return Cat(x[0], x[2:], y[1:])


EDGE_BANKS = 8  # the track-end banks (4 with ``edge_banks=4``)

#: The :class:`TrackBoard` options that trade clocks (or block RAM) for logic, all on (the
#: small parts' board).
COMPACT_OPTIONS = {
    "serial_writes": True,
    "serial_appends": True,
    "plain_undo": True,
    "reread_candidates": True,
    "forced_via_stack": True,
    "edge_banks": 4,
    "marks_in_block_ram": True,
    "deferred_appends": True,
    "listed_in_hand": True,
    "plain_leaf": True,
    "plain_next_entry": True,
    "plain_fit": True,
    "one_tile_leaf": True,
}


def check_board_options(options: dict) -> None:
    """ValueError unless ``options`` are :class:`TrackBoard` options of :data:`COMPACT_OPTIONS`
    with values it takes (``edge_banks`` 4 or 8; ``listed_in_hand`` with ``plain_undo``)."""
    for name in options:
        if name not in COMPACT_OPTIONS:
            options_list = ", ".join(COMPACT_OPTIONS)
            raise ValueError(f"no board option {name!r}; the options: {options_list}")
    edge_banks = options.get("edge_banks", EDGE_BANKS)
    if edge_banks not in (4, 8):
        raise ValueError(f"edge_banks must be 4 or 8, not {edge_banks!r}")
    if options.get("listed_in_hand") and not options.get("plain_undo"):
        raise ValueError("listed_in_hand needs plain_undo (the cell in hand is kept for UNDO)")


def board_option(text: str) -> tuple[str, bool | int]:
    """A command line's ``NAME`` or ``NAME=VALUE`` as one of the :class:`TrackBoard` options of
    :data:`COMPACT_OPTIONS` (a flag alone is on; ``edge_banks=4``); ValueError names the
    options."""
    name, _, value = text.partition("=")
    name = name.strip().replace("-", "_")
    if name not in COMPACT_OPTIONS:
        check_board_options({name: True})  # (the error naming the options)
    if name == "edge_banks":
        if value.strip() not in ("4", "8"):
            raise ValueError("edge_banks takes 4 or 8, as edge_banks=4")
        return name, int(value)
    if value.strip().lower() not in ("", "1", "true", "on"):
        raise ValueError(f"{name} is a flag: name it alone to turn it on")
    return name, True


def edge_bank(edge, banks: int = EDGE_BANKS):
    """The track-end bank of an edge: its direction and the parities of its column and row
    (east edges 0-3, south edges 4-7). A cell's four edges lie in four banks, and the eight banks
    make it rarer that a tile's four track-end writes meet in one bank. With four ``banks``: its
    direction and the parity across it (of the column for an east edge, of the row for a south
    one; east edges 0-1, south edges 2-3), which still puts a cell's four edges in four."""
    if banks == 4:
        return Cat(Mux(edge.south, edge.y[0], edge.x[0]), edge.south)
    return Cat(edge.x[0], edge.y[0], edge.south)


def edge_address(edge, banks: int = EDGE_BANKS):
    """The address of an edge in its bank: its column and row without their lowest bits (with
    four ``banks``, without the lowest bit of the one its bank stands for)."""
    if banks == 4:
        return Mux(edge.south, Cat(edge.x, edge.y[1:]), Cat(edge.x[1:], edge.y))
    return Cat(edge.x[1:], edge.y[1:])


class TrackBoard(wiring.Component):
    """A C x R torus in block RAM: a game, and a stack of plies on it for a search.

    ``start`` with ``op`` = ``PLAY`` (or ``PLY``) puts the tile for ``symbol`` at torus cell
    (``x``, ``y``) (the variant chosen from the neighbours), then every tile it forces, one at a
    time; a cell that gets three edges of one colour makes the whole turn illegal (``DEAD``) and
    every tile of it is taken back. A legal ``PLY`` is pushed on the ply stack and ``UNDO`` takes
    it back (tiles, track ends, frontier list and box). ``NEW_GAME`` empties the torus
    (C * R / 4 clocks). The first tile must be ``+`` or ``/`` at (0, 0), white-first.

    ``CANDIDATE`` finds the first candidate move at or after ``cursor`` in the candidate order
    (the frontier list's order, then the symbols ``+ / \\``): an empty cell of the list with a
    symbol one of whose variants fits its neighbours. Whether its forced plays are legal is found
    by playing it. ``COMPACT`` drops the occupied cells from the frontier list, keeping the order
    (no plies may be stacked).

    ``NEXT`` is a search's step in one command: from ``cursor``, the first candidate that is not
    the ``skip`` move (when ``skip_valid``); with ``play`` it is played as a ``PLY``, and a
    candidate whose turn is illegal is passed over for the next one, so that ``found`` means a
    legal ply was stacked (``cand_*`` is its move, ``next_cursor`` the place after it); without
    ``play`` nothing is played (``found``: there is such a candidate). ``UNDO_NEXT`` takes back
    the last ply and then, with ``proceed``, does ``NEXT`` from ``cursor`` (the parent's place).
    With ``plies``
    stacked, ``NEXT`` plays nothing: ``found`` 0, verdict ``OVERFLOW``.

    Parameters
    ----------
    columns, rows : int
        The torus C x R (powers of two, at least 8).
    plies : int
        The most plies that can be stacked.
    weights : dict or None
        The score's weights (see ``white_mover_score``); None: no score.
    counts : bool or None
        Keep the evaluation's counts and sums (``white_attacks``, ``white_potential`` ...) and
        the tracks' kinds they are kept from. None (the default): when there are ``weights``;
        without, they stay 0.
    shapes : tuple or None
        With ``weights``: the evaluation weighs each track by its *shape* instead of its loop
        potential (:func:`~trax_fpga.host.trackeval.track_shape`: the sizes of the differences
        of its targets' and its ends' tiles' columns and rows, capped at 3; 8 bits, not kept:
        a track's shape is measured from its two ends, so the track-end table keeps only the
        partners), by the table ``(mine, theirs, constant)`` (:func:`check_shapes`: 256 weights
        for a track of the side to move, 256 for one of the other side, and a constant; a
        ``ShapeTable``'s fields), in block RAM (a ROM of six read ports). ``potential_lead``
        then stays 0, and ``white_shape_value`` and ``black_shape_value`` are kept instead. The
        clocks a command takes are unchanged. None (the default): the loop potential.
    newest_first : bool
        The candidate order reads the frontier list from its newest entry to its oldest (the
        cells the last plies opened first: ``TrackOrder.candidates(newest=True)``). A cursor's
        ``index`` then counts entries from the list's end in the position it is used in (the
        same whenever the board is back at a ply); ``COMPACT`` is unchanged.

    The options below trade clocks (or block RAM) for logic, for the small parts. Each leaves
    every answer (verdicts, tiles, wins, candidates, counts, box, frontier list) exactly as it
    is without it; only the clocks a command takes grow. All are off by default
    (:data:`COMPACT_OPTIONS` turns them all on).

    serial_writes : bool
        One track-end write a clock (the first pending one, on one address and data for all
        banks), instead of one a bank: a tile's four writes take up to four clocks.
    serial_appends : bool
        One frontier-list entry appended a clock (the list in one memory), instead of two.
    plain_undo : bool
        A take-back reads each tile from the log and its record after the last tile's
        neighbours are updated: no read of the ply's last tile ahead at the end of a turn, no
        chain of take-backs one tile a clock.
    reread_candidates : bool
        ``NEXT`` going on reads the frontier list's entry and its cell again, instead of
        taking the last looked-at cell's fitting symbols from a cache.
    forced_via_stack : bool
        Every forced cell goes through the forced stack, read after the writes drain; none is
        read as the next tile in its forcing tile's last clock.
    edge_banks : int
        The track-end table's banks: 8 (the default), or 4, the fewest that hold a cell's four
        edges apart for one read; more of a tile's writes then meet in a bank, each a clock
        more (with ``serial_writes``, no clock more: the writes go one a clock anyway).
    marks_in_block_ram : bool
        The plies' marks (what ``UNDO`` restores) in block RAM, read in the clock the ply
        changes, instead of in registers or distributed RAM with a multiplexer (for parts
        without distributed RAM, where they are registers: no clock more, more block RAMs).
    deferred_appends : bool
        A tile's new frontier cells are all appended after its neighbours' update, none in
        that clock (a clock more for a tile that makes one).
    listed_in_hand : bool
        ``CANDIDATE``, ``NEXT`` and ``COMPACT`` read a frontier-list entry's cell as the cell in
        hand (one record, one set of its rules), which the board then no longer keeps after a
        turn; needs ``plain_undo``, which does not use it. No clock more.
    plain_leaf : bool
        A ply that ``UNDO_NEXT`` takes back and whose next candidate is the next symbol at the
        same cell (its move's) has that symbol placed by ``MOVE`` after the take-back (for a ply
        of one tile: the take-back, the neighbours' update, the move, its neighbours), instead
        of in the take-back's last clock (the *leaf step*: the cell's record is the one read
        before its tile came off, its edges are read beside its neighbours, and the neighbours'
        update of the take-back is left to the new tile's). Without the candidate cache or with
        ``plain_undo``, always.
    plain_next_entry : bool
        ``NEXT`` going on past the cached cell (its fitting symbols all tried) reads the
        frontier list's next entry and then that entry's cell (``CAND_CELL``, a clock), instead
        of reading the cell at once from the entry read ahead when the cache was filled (the
        *next-entry step*: the entry after the cached one, read in ``CAND_FIT``'s clock and
        kept, is the same whenever the board is back at that ply). Without the candidate cache
        or with ``listed_in_hand``, always.
    plain_fit : bool
        ``NEXT``'s candidate at a listed cell is placed in the clock after the one its fitting
        symbols are found in (``CAND_FIT``, then ``MOVE``), instead of in that clock (the *fit
        step*: the clock that reads a listed cell's record reads its edges too, and makes it
        the cell in hand and its box the turn's, so ``CAND_FIT`` places the first fitting
        symbol as ``MOVE`` would). With ``plain_leaf`` (which it builds on), always.
    one_tile_leaf : bool
        The leaf step only after a ply of one tile, taken back from ``IDLE``, instead of after
        any ply whose move (its first tile, the last to come off) lies at the cached cell: a
        ply with forced tiles then has its next symbol placed by ``MOVE``, a clock later.

    Members
    -------
    start, op, move, outside :
        The command: ``op`` of ``move`` (a :func:`move_signature`: the cell and symbol);
        ``outside``: the move's cell is beyond the ring of the box. These and the answer and
        ``box`` below are the :func:`game_port_signature`.
    busy, done, verdict :
        ``busy`` while a command runs; ``done`` pulses with the ``verdict`` when it ends.
        ``CONFLICT`` is never given: one tile at a time, two
        disagreeing forced tiles show as a cell with three edges of one colour (``DEAD``).
        ``PLY`` beyond ``plies`` is refused with ``OVERFLOW``.
    white_loop, black_loop, white_line, black_line : Out(1)
        What the last legal turn completed (both colours may).
    tiles : Out(range(C * R + 1))
        Tiles placed by the last turn (the move and its forced plays; 0 if illegal).
    box : Out(box_signature(C, R))
        The box of the tiles in play (``empty``: none).
    overflow : Out(1)
        Sticky until ``NEW_GAME``: a turn was refused because its box and ring outgrew the
        torus.
    ply : Out(range(plies + 1))
        Plies stacked.
    ply_up, ply_down, ply_to_zero : Out(1)
        The way ``ply`` goes at the end of this clock: one more, one less, back to 0 (a new
        game); none, it stays. (So a reader of per-ply memories may set their addresses a clock
        ahead.)
    cursor : In(cursor_layout)
        Where ``CANDIDATE``, ``NEXT`` and ``UNDO_NEXT`` start.
    play, skip_valid, skip : In(...)
        For ``NEXT`` and ``UNDO_NEXT``: play the candidate found; a move to pass over.
    proceed : In(1)
        For ``UNDO_NEXT``: go on to ``NEXT`` (else stop as ``UNDO`` does). ``UNDO_NEXT`` takes
        ``proceed`` when its ply is taken back, not when it starts, so it may be settled in the
        clocks after the command (its ``cursor``, ``play`` and skip move come with it).
    found : Out(1)
        After ``CANDIDATE``: a candidate was found, ``cand`` (a :func:`move_signature`);
        ``next_cursor`` is the place just after it.
    frontier_len : Out(range(C * R + 1))
        Entries in the frontier list.
    white_attacks, black_attacks : Out(8)
        The evaluation's counts of attacks of the position (:mod:`trax_fpga.host.trackeval`),
        kept up to date tile by tile (0 without ``counts``).
    potential_lead : Out(signed(potential_bits(C, R)))
        White's loop potential less black's (the sums over each colour's tracks), kept the
        same way (it never wraps: the bits hold the largest weight for every track the torus
        can hold).
    white_shape_value, black_shape_value : Out(signed(shape_value_bits(C, R, shapes)))
        Only with ``shapes``: the sums of the tracks' shapes' weights for white, or black, as
        the side to move (its tracks weighed by ``mine``, the other colour's by ``theirs``), kept
        as the counts are and settled with them (the weights of a tile's new tracks are read
        from the ROM a clock after the counts take them, and added on the way out).
    white_mover_score, black_mover_score : Out(signed(12))
        With ``weights`` (a dict: ``tempo``, ``attack``, ``own_attack``, ``lost``, ``clamp``; the
        loop potential's table is :data:`~.scores.LOOP_WEIGHTS`), the score of the position
        for white, or black, as the side that has just moved: minus the score for the other
        side to move (:func:`~trax_fpga.host.trackeval.track_score`; with ``shapes``, by the
        shape values and the table's ``constant`` in place of the tempo), one clock after the
        counts; 0 without.
    position_key : Out(KEY_BITS)
        With ``position_key`` (on tori of at most 64 x 64), the position's Zobrist key: the XOR
        over its tiles of :func:`tile_key`, kept tile by tile as the counts are (one clock
        behind the tile); 0 without.
    peek_x, peek_y : In(...)
        While idle, a cell to read: ``peek_tile`` is its tile on the next clock.
    peek_tile : Out(Tile)
    """

    def __init__(
        self,
        columns: int,
        rows: int,
        plies: int = 16,
        *,
        weights=None,
        counts: bool | None = None,
        shapes=None,
        serial_writes: bool = False,
        serial_appends: bool = False,
        plain_undo: bool = False,
        reread_candidates: bool = False,
        forced_via_stack: bool = False,
        edge_banks: int = EDGE_BANKS,
        marks_in_block_ram: bool = False,
        deferred_appends: bool = False,
        listed_in_hand: bool = False,
        plain_leaf: bool = False,
        plain_next_entry: bool = False,
        plain_fit: bool = False,
        one_tile_leaf: bool = False,
        position_key: bool = False,
        newest_first: bool = False,
    ):
        self.columns, self.rows = check_torus(columns, rows)
        if not isinstance(plies, int) or isinstance(plies, bool) or plies < 1:
            raise ValueError(f"plies must be a positive integer, not {plies!r}")
        if counts is None:
            counts = weights is not None
        if weights is not None and not counts:
            raise ValueError("a score needs the counts: weights without counts")
        if shapes is not None:
            shapes = check_shapes(shapes)
            if weights is None:
                raise ValueError("the tracks' shapes weigh the score: shapes need weights")
        self.shapes = shapes
        self.plies = plies
        self.weights = weights
        self.counts = bool(counts)
        self.serial_writes = bool(serial_writes)
        self.serial_appends = bool(serial_appends)
        self.plain_undo = bool(plain_undo)
        self.reread_candidates = bool(reread_candidates)
        self.forced_via_stack = bool(forced_via_stack)
        check_board_options(
            {"edge_banks": edge_banks, "listed_in_hand": listed_in_hand, "plain_undo": plain_undo}
        )
        self.edge_banks = edge_banks
        self.marks_in_block_ram = bool(marks_in_block_ram)
        self.deferred_appends = bool(deferred_appends)
        self.listed_in_hand = bool(listed_in_hand)
        self.plain_leaf = bool(plain_leaf)
        self.plain_next_entry = bool(plain_next_entry)
        self.plain_fit = bool(plain_fit)
        self.one_tile_leaf = bool(one_tile_leaf)
        if position_key and (columns > 64 or rows > 64):
            raise ValueError("the position key numbers the cells of a torus of at most 64 x 64")
        self.position_key_kept = bool(position_key)
        self.newest_first = bool(newest_first)
        c, r = columns, rows
        shape_members = {}
        if shapes is not None:
            value_shape = signed(shape_value_bits(c, r, shapes))
            shape_members = {
                "white_shape_value": Out(value_shape),
                "black_shape_value": Out(value_shape),
            }
        super().__init__(
            {
                **game_port_signature(c, r).members,
                "white_loop": Out(1),
                "black_loop": Out(1),
                "white_line": Out(1),
                "black_line": Out(1),
                "tiles": Out(range(c * r + 1)),
                "overflow": Out(1),
                "ply": Out(range(plies + 1)),
                "ply_up": Out(1),
                "ply_down": Out(1),
                "ply_to_zero": Out(1),
                "cursor": In(cursor_layout(c, r)),
                "play": In(1),
                "proceed": In(1),
                "skip_valid": In(1),
                "skip": In(move_signature(c, r)),
                "found": Out(1),
                "cand": Out(move_signature(c, r)),
                "next_cursor": Out(cursor_layout(c, r)),
                "frontier_len": Out(range(c * r + 1)),
                "white_attacks": Out(8),
                "black_attacks": Out(8),
                "potential_lead": Out(signed(potential_bits(c, r))),
                "white_mover_score": Out(signed(12)),
                "black_mover_score": Out(signed(12)),
                **shape_members,
                "position_key": Out(KEY_BITS),
                "peek_x": In(range(c)),
                "peek_y": In(range(r)),
                "peek_tile": Out(Tile),
            }
        )

    def elaborate(self, platform):
        m = Module()
        c, r = self.columns, self.rows
        cx, ry = ceil_log2(c), ceil_log2(r)
        edge = edge_layout(c, r)
        cell = data.StructLayout({"tile": Tile, "known": 4, "white": 4})
        point = data.StructLayout({"x": cx, "y": ry})
        # A track end: its edge, and which of the edge's two cells is the empty one it points
        # into (``out`` 1: the cell east or south of the edge; 0: the cell (x, y) itself).
        end_layout = data.StructLayout({"edge": edge, "out": 1})
        # What the table keeps at an open track end: the other end, and the track's kind for
        # the evaluation (:func:`track_kind`), so that a track a tile ends is counted off
        # without measuring it again. Without the counts, only the partner.
        # With ``shapes``, a track's "kind" is its shape, and it is not kept: the shape of a track
        # a tile ends is measured from its ends (the one at the tile's side and its partner).
        counts = self.counts
        shapes = self.shapes
        kind_bits = SHAPE_BITS if shapes else KIND_BITS
        kept_kind = counts and not shapes
        entry_fields = {"partner": end_layout}
        if kept_kind:
            entry_fields.update(kind=KIND_BITS)
        entry_layout = data.StructLayout(entry_fields)

        # --- memories ---------------------------------------------------------------------------
        cell_depth = c * r // 4
        cell_address_bits = ceil_log2(cell_depth)
        edge_banks = self.edge_banks
        edge_depth = c * r * 2 // edge_banks
        cell_rd, cell_wr, edge_rd, edge_wr = [], [], [], []
        # Reads see the writes of their own clock (transparent), so that a tile can be read
        # in the clock its neighbour's updates and track ends are written. The cell banks find
        # it a clock late, off their read address's path (:class:`.ForwardedMemory`); the edge
        # banks as synthesis does for a transparent port (their addresses are not the latest,
        # and forwarding the eight costs some 250 logic cells an engine: docs/area.md).
        for bank in range(4):
            mem = ForwardedMemory(shape=cell, depth=cell_depth)
            m.submodules[f"cells{bank}"] = mem
            cell_wr.append(mem.write)
            cell_rd.append(mem.read)
        for bank in range(edge_banks):
            mem = Memory(shape=entry_layout, depth=edge_depth, init=[])
            m.submodules[f"ends{bank}"] = mem
            edge_wr.append(mem.write_port())
            edge_rd.append(mem.read_port(transparent_for=(edge_wr[-1],)))
        # The log counts up from address 0, the forced stack down from the top: the log holds
        # cells with a tile, the stack empty cells made forced, each once, so together they never
        # hold more than C * R. They are written and read in different clocks.
        m.submodules.log = log_mem = Memory(shape=point, depth=c * r, init=[])
        log_wr, log_rd = log_mem.write_port(), log_mem.read_port()
        stack_wr, stack_rd = log_wr, log_rd
        # The frontier list: entry i in bank i % 2 at address i // 2, so that two entries that
        # follow each other are written in one clock (with ``serial_appends``, one bank).
        front_banks = 1 if self.serial_appends else 2
        front_wr, front_rd = [], []

        def front_place(index):
            """The bank (a value, or 0) and the address of frontier entry ``index``."""
            index = Value.cast(index)
            return (index[0], index[1:]) if front_banks == 2 else (0, index)

        for bank in range(front_banks):
            mem = Memory(shape=point, depth=c * r // front_banks, init=[])
            m.submodules[f"frontier{bank}"] = mem
            front_wr.append(mem.write_port())
            front_rd.append(mem.read_port())

        def wrap(value, bits):
            return value[:bits]

        def neighbour(x, y, d):
            dx, dy = _STEP[d]
            return wrap(x + dx, cx) if dx else x, wrap(y + dy, ry) if dy else y

        def side_edge(x, y, d):
            """The edge on side d of cell (x, y), as a value of ``edge``."""
            if d == NORTH:
                return Cat(x, wrap(y - 1, ry), Const(1, 1))
            if d == EAST:
                return Cat(x, y, Const(0, 1))
            if d == SOUTH:
                return Cat(x, y, Const(1, 1))
            return Cat(wrap(x - 1, cx), y, Const(0, 1))

        # One read of a cell's record and its four edges a clock, at (read_x, read_y): the
        # addresses are made once, whichever state reads. A state that reads the neighbours of a
        # cell, or a listed cell, sets the cell banks' addresses after this, and so wins.
        read_x, read_y = Signal(cx), Signal(ry)
        for bank in range(4):
            m.d.comb += cell_rd[bank].addr.eq(cell_address(read_x, read_y, c))
        for d in range(4):
            e = data.View(edge, side_edge(read_x, read_y, d))
            for bank in range(edge_banks):
                with m.If(edge_bank(e, edge_banks) == bank):
                    m.d.comb += edge_rd[bank].addr.eq(edge_address(e, edge_banks))

        # Where each cell bank was read in the last clock: a cell is written only with the
        # record read from it in the clock before (a tile placed or taken back, a neighbour
        # updated), so its write address is this, not made again.
        read_at = [Signal(cell_address_bits, name=f"read_at_{bank}") for bank in range(4)]
        for bank in range(4):
            m.d.sync += read_at[bank].eq(cell_rd[bank].addr)

        def read_cell_edges(x, y):
            """Read cell (x, y)'s record and its four edges (out in the next clock)."""
            m.d.comb += [read_x.eq(x), read_y.eq(y)]

        # --- the cell in hand, and what its reads returned -------------------------------------
        qx = Signal(cx)
        qy = Signal(ry)
        q_bank = cell_bank(qx, qy)
        record = Signal(cell)
        with m.Switch(q_bank):
            for bank in range(4):
                with m.Case(bank):
                    m.d.comb += record.eq(cell_rd[bank].data)
        # The leaf step (``plain_leaf`` off): in the take-back's last clock of a one-tile ply
        # (UNDO_NEIGHBOURS, ``leaf_state``), the next symbol of the same cell may be placed. The
        # cell's bank then gives a neighbour's record, so the cell's own comes from a register,
        # kept when the tile was taken back (an occupied cell's record does not change: only an
        # empty cell's sides are updated), and its symbol from the candidate found then.
        leaf_enabled = not (self.reread_candidates or self.plain_undo or self.plain_leaf)
        # The fit step (``plain_fit`` off): NEXT's candidate at a listed cell is placed in
        # CAND_FIT, the clock its fitting symbols are found in, as the leaf step places its
        # tile (the symbol found then, the turn's first tile in the clock the turn begins).
        fit_enabled = leaf_enabled and not self.plain_fit
        # (and with ``one_tile_leaf`` off, after a ply of many tiles too: its move's tile is the
        # last to come off, in UNDO_TILE or UNDO_CHAIN)
        many_tile_leaf = leaf_enabled and not self.one_tile_leaf
        fit_state = Signal()  # CAND_FIT
        leaf_ready = Signal()  # the last clock took back a ply's last tile at the cached cell
        leaf_record = Signal(cell)
        leaf_state = Signal()  # UNDO_NEIGHBOURS after such a take-back
        leaf_symbol = Signal(Symbol)  # the candidate found in it, whether it is played or not
        if leaf_enabled:
            m.d.sync += leaf_ready.eq(0)
            with m.If(leaf_state):
                m.d.comb += record.eq(leaf_record)
        own_edges = [data.View(edge, side_edge(qx, qy, d)) for d in range(4)]
        own_ends = [
            data.View(end_layout, Cat(side_edge(qx, qy, d), Const(d in (EAST, SOUTH), 1)))
            for d in range(4)
        ]

        def capped(diff, delta, bits, name):
            """min(3, |diff + delta|), ``diff`` read on the torus as signed (``bits`` wide) and
            ``delta`` a small constant: a table of the five values of ``diff`` that give less
            than 3 (no adder after the subtraction that makes ``diff``)."""
            size = Signal(2, name=name, init=3)
            cases = {}
            for j in range(-2, 3):
                at = (j - delta) % (1 << bits)
                near = (at + delta) % (1 << bits)
                cases[at] = min(3, abs(near - (1 << bits) if near >> (bits - 1) else near))
            with m.Switch(diff):
                for at, value in cases.items():
                    with m.Case(at):
                        m.d.comb += size.eq(value)
            return size

        def old_shape(d, partner):
            """The shape of the track that ends at side ``d`` of the cell in hand (pointing into
            it) and at ``partner`` (:func:`~trax_fpga.host.trackeval.track_shape`): its targets
            are the cell in hand and the partner's, its ends' tiles the neighbour at side ``d``
            and the partner's edge's other cell. Each difference is that of the cell in hand's
            column (row) and the partner's edge's, less 1 where the partner's target (or tile)
            is the cell beyond its edge on the edge's axis, plus the side's step: one
            subtraction an axis, then small tables (at most three an axis)."""
            south, out = partner.edge.south, partner.out
            sizes = []
            for axis, q, e, bits, step, along in (
                ("x", qx, partner.edge.x, cx, _STEP[d][0], ~south),
                ("y", qy, partner.edge.y, ry, _STEP[d][1], south),
            ):
                diff = Signal(bits, name=f"old_d{axis}_{d}")
                m.d.comb += diff.eq(q - e)
                tables = {}

                def size(delta, axis=axis, diff=diff, bits=bits, tables=tables):
                    if delta not in tables:
                        tables[delta] = capped(diff, delta, bits, f"old_{axis}_{delta + 2}_{d}")
                    return tables[delta]

                sizes.append(Mux(out & along, size(-1), size(0)))  # the fronts
                sizes.append(Mux(~out & along, size(step - 1), size(step)))  # the backs
            front_x, back_x, front_y, back_y = sizes
            shape = Signal(SHAPE_BITS, name=f"old_shape_{d}")
            m.d.comb += shape.eq(Cat(front_x, front_y, back_x, back_y))
            return shape

        ends = []  # the partner stored at each side's edge
        kinds = []  # and the kind of the track that ends there (with ``shapes``: its shape)
        for d in range(4):
            entry = Signal(entry_layout, name=f"entry_{d}")
            with m.Switch(edge_bank(own_edges[d], edge_banks)):
                for bank in range(edge_banks):
                    with m.Case(bank):
                        m.d.comb += entry.eq(edge_rd[bank].data)
            ends.append(entry.partner)
            if shapes:
                kinds.append(old_shape(d, entry.partner))
            else:
                kinds.append(entry.kind if counts else Const(0, kind_bits))
        rules = cell_rules(list(record.known), list(record.white))
        fit = Cat(rules["fit"])

        # The tile to place: the move's variant (state MOVE) or the forced tile (state FORCE).
        symbol = Signal(Symbol)
        tile = Signal(4)
        place_symbol = symbol
        if leaf_enabled:
            place_symbol = Signal(Symbol)
            m.d.comb += place_symbol.eq(Mux(leaf_state | fit_state, leaf_symbol, symbol))
        white_first, black_first, move_tile = placement(m, fit, place_symbol, self.box.empty)
        forced_tile = Cat(rules["tile"])

        # --- the box of the turn and its outer edges -------------------------------------------
        pend_x = Signal.like(self.box.x)
        pend_y = Signal.like(self.box.y)
        pend_w = Signal.like(self.box.w)
        pend_h = Signal.like(self.box.h)
        west = wrap(pend_x - 1, cx)
        east = wrap(pend_x + pend_w - 1, cx)
        north = wrap(pend_y - 1, ry)
        south = wrap(pend_y + pend_h - 1, ry)

        outer_layout = data.StructLayout({"west": 1, "east": 1, "north": 1, "south": 1})

        def outer(e):
            """Which outer edges of the turn's box edge e lies on."""
            return Cat(
                ~e.south & (e.x == west),
                ~e.south & (e.x == east),
                e.south & (e.y == north),
                e.south & (e.y == south),
            )

        def line(a, b):
            """A track whose ends lie on the outer edges ``a`` and ``b`` (of ``outer_layout``)
            is a line of the turn's box."""
            across = (a.west & b.east) | (a.east & b.west)
            down = (a.north & b.south) | (a.south & b.north)
            return (across & (pend_w >= 8)) | (down & (pend_h >= 8))

        # --- the two tracks of the tile: ends, loops and the track-end writes -----------------
        # For the colour-k track joining sides d1 < d2: A and B are its new ends (the far end of
        # the track behind a side with a neighbour, else the side's own edge). Writes: A <- B and
        # B <- A, unless the tile closes a loop (A was already B's partner). Whether A and B
        # make a line is judged in the clock after (below, from the ends registered).
        write_fields = {"valid": 1, "target": edge, "partner": end_layout}
        if not shapes:
            write_fields.update(kind=KIND_BITS)
        write_layout = data.StructLayout(write_fields)
        writes = [Signal(write_layout, name=f"write_{i}") for i in range(4)]
        pending = [Signal(write_layout, name=f"pending_{i}") for i in range(4)]
        loops = [Signal(name=f"loop_{k}") for k in range(2)]  # black, white
        pairs = [(d1, d2) for d1 in range(4) for d2 in range(d1 + 1, 4)]
        new_ends = [
            [Signal(end_layout, name=f"new_end_{k}_{i}") for i in range(2)] for k in range(2)
        ]
        old_kinds = [
            [Signal(kind_bits, name=f"old_kind_{k}_{i}") for i in range(2)] for k in range(2)
        ]
        old_known = [Signal(2, name=f"old_known_{k}") for k in range(2)]
        # A side's end of the new track: the far end behind it, or its own edge.
        side_ends = [
            data.View(end_layout, Mux(record.known[d], ends[d].as_value(), own_ends[d].as_value()))
            for d in range(4)
        ]
        for k in range(2):
            mask = tile if k else ~tile[:4]
            a, b = new_ends[k]
            closes = Signal(name=f"closes_{k}")
            for d1, d2 in pairs:
                with m.If(mask[:4] == (1 << d1) | (1 << d2)):
                    known1, known2 = record.known[d1], record.known[d2]
                    m.d.comb += [
                        a.eq(side_ends[d1]),
                        b.eq(side_ends[d2]),
                        closes.eq(
                            known1 & known2 & (ends[d1].edge.as_value() == own_edges[d2].as_value())
                        ),
                        writes[2 * k].valid.eq(1),
                        writes[2 * k + 1].valid.eq(1),
                        # The evaluation: the old tracks through our sides.
                        old_known[k].eq(Cat(known1, known2)),
                        old_kinds[k][0].eq(kinds[d1]),
                        old_kinds[k][1].eq(kinds[d2]),
                    ]
            m.d.comb += [
                loops[k].eq(closes),
                writes[2 * k].target.eq(a.edge),
                writes[2 * k].partner.eq(b),
                writes[2 * k + 1].target.eq(b.edge),
                writes[2 * k + 1].partner.eq(a),
            ]
            with m.If(closes):
                m.d.comb += [writes[2 * k].valid.eq(0), writes[2 * k + 1].valid.eq(0)]

        # Undo of the tile in hand: each side that had a neighbour gets its far end back (its own
        # edge's partner field still holds it: a closed edge is never written), and that far end's
        # partner is again our side's edge, as an end that points into our cell.
        restores = [Signal(write_layout, name=f"restore_{d}") for d in range(4)]
        for d in range(4):
            own = Cat([ends[d].edge.as_value() == own_edges[e].as_value() for e in range(4)]).any()
            m.d.comb += [
                restores[d].valid.eq(record.known[d] & ~own),
                restores[d].target.eq(ends[d].edge),
                restores[d].partner.eq(Cat(own_edges[d], Const(d in (NORTH, WEST), 1))),
            ]
            if not shapes:  # the track is the old one again: its kind is the one kept at our side
                m.d.comb += restores[d].kind.eq(kinds[d])

        # --- the evaluation: attacks and loop potential of each colour -----------------------
        # (host/trackeval.py). A tile changes only the tracks through it: the old tracks behind
        # its sides with a neighbour go (their kinds are kept at those sides' edges), the new
        # one comes (unless it is a loop: its kind is measured here, and written with its ends).
        # Taking the tile back does the opposite.
        def target(end):
            x, y = end.edge.x, end.edge.y
            tx = Mux(end.out & ~end.edge.south, wrap(x + 1, cx), x)
            ty = Mux(end.out & end.edge.south, wrap(y + 1, ry), y)
            return tx, ty

        def track_kind(a, b):
            """The kind of the track with ends ``a`` and ``b`` (:func:`track_kind_code`), and
            its distance and relation: the distance of their targets on the torus, and the
            relation of the directions the ends leave their tiles in (an end's axis is its
            edge's, its sign its ``out``)."""
            (ax_, ay_), (bx_, by_) = target(a), target(b)
            dx = Signal(signed(cx), name="dx")
            dy = Signal(signed(ry), name="dy")
            m.d.comb += [dx.eq(ax_ - bx_), dy.eq(ay_ - by_)]
            ax = Mux(dx < 0, -dx, dx)
            ay = Mux(dy < 0, -dy, dy)
            dist = Signal(max(cx, ry) + 1, name="dist")
            m.d.comb += dist.eq(ax.as_unsigned() + ay.as_unsigned())
            same_axis = a.edge.south == b.edge.south
            relation = Mux(same_axis, Mux(a.out == b.out, SAME, OPPOSITE), TURNED)
            kind = Signal(KIND_BITS, name="kind")
            with m.If((dist != 0) & (dist <= len(LOOP_WEIGHTS))):
                m.d.comb += kind.eq(dist * 3 - 2 + relation)
            return kind, dist, relation

        def tile_of(end):
            """The cell of the tile an end leaves (the edge's other cell than its target)."""
            x, y = end.edge.x, end.edge.y
            tx = Mux(~end.out & ~end.edge.south, wrap(x + 1, cx), x)
            ty = Mux(~end.out & end.edge.south, wrap(y + 1, ry), y)
            return tx, ty

        def track_shape(a, b):
            """The shape of the track with ends ``a`` and ``b``
            (:func:`~trax_fpga.host.trackeval.track_shape`): the sizes of the differences of
            their targets' columns and rows and of their tiles' columns and rows, each read on
            the torus as signed and capped at 3, two bits each from bit 0."""
            (ax_, ay_), (bx_, by_) = target(a), target(b)
            (px, py), (qx_, qy_) = tile_of(a), tile_of(b)
            sizes = []
            for name, u, v, bits in (
                ("front_x", ax_, bx_, cx),
                ("front_y", ay_, by_, ry),
                ("back_x", px, qx_, cx),
                ("back_y", py, qy_, ry),
            ):
                diff = Signal(signed(bits), name=name)
                m.d.comb += diff.eq(u - v)
                size = Signal(2, name=f"{name}_size")
                with m.If((diff >= 3) | (diff <= -3)):
                    m.d.comb += size.eq(3)
                with m.Else():
                    m.d.comb += size.eq(Mux(diff < 0, -diff, diff))
                sizes.append(size)
            shape = Signal(SHAPE_BITS, name="shape")
            m.d.comb += shape.eq(Cat(*sizes))
            return shape

        def is_attack(kind):
            if shapes:  # targets 1 apart: one front size 1, the other 0
                return (kind[:4] == 1) | (kind[:4] == 4)
            return (kind != 0) & (kind <= 3)  # distance 1

        largest = max(map(abs, KIND_WEIGHTS))

        def signed_potential(kind, negate, name):
            """A track's loop potential by its kind's code, negated with ``negate`` (a table)."""
            value = Signal(range(-largest, largest + 1), name=name)
            with m.Switch(Cat(kind, negate)):
                for code, weight in enumerate(KIND_WEIGHTS):
                    for sign in (0, 1) if weight else ():
                        with m.Case(code | sign << KIND_BITS):
                            m.d.comb += value.eq(-weight if sign else weight)
            return value

        def signed_potential_at(dist, relation, negate, name):
            """The same by the distance and relation (a table: no code to make first, so the
            track just measured reaches the lead sooner)."""
            value = Signal(range(-largest, largest + 1), name=name)
            with m.If(dist[3:] == 0):
                with m.Switch(Cat(relation, dist[:3], negate)):
                    for d, row in enumerate(LOOP_WEIGHTS, start=1):
                        for rel, weight in enumerate(row):
                            for sign in (0, 1) if weight else ():
                                with m.Case(rel | d << 2 | sign << 5):
                                    m.d.comb += value.eq(-weight if sign else weight)
            return value

        # The tile's tracks are registered in its decision clock and counted in the next one,
        # so that no block RAM read lies on the path of the counts (without ``counts``, the
        # tracks' kinds are neither measured nor kept, and the counts stay 0).
        count_place = Signal()
        count_undo = Signal()
        new_kinds = [Const(0, kind_bits)] * 2  # of the tile's new track of each colour
        attacks = [self.black_attacks, self.white_attacks]
        lead = self.potential_lead
        shape_sums = []  # with ``shapes``: the registers of the sums, by colour (black, white)
        shape_values = []  # and the sums as they are out (the new tracks' terms added)
        if counts:
            ev_new = [
                [Signal(end_layout, name=f"ev_new_{k}_{i}") for i in range(2)] for k in range(2)
            ]
            ev_old = [
                [Signal(kind_bits, name=f"ev_old_{k}_{i}") for i in range(2)] for k in range(2)
            ]
            ev_known = [Signal(2, name=f"ev_known_{k}") for k in range(2)]
            ev_add = [Signal(name=f"ev_add_{k}") for k in range(2)]
            ev_sign = Signal()  # 0: add the deltas (a tile placed), 1: subtract them (taken back)
            ev_valid = Signal()
            m.d.sync += ev_valid.eq(count_place | count_undo)
            with m.If(count_place | count_undo):
                m.d.sync += ev_sign.eq(count_undo)
                for k in range(2):
                    m.d.sync += [
                        ev_add[k].eq(~loops[k]),
                        ev_known[k].eq(old_known[k]),
                        *[ev_new[k][i].eq(new_ends[k][i]) for i in range(2)],
                        *[ev_old[k][i].eq(old_kinds[k][i]) for i in range(2)],
                    ]
            delta_attacks = [Signal(signed(4), name=f"delta_attacks_{k}") for k in range(2)]
            # The lead's change, each term's sign folded into its table (white's tracks count
            # up, black's down; a new track up, an old one down; a take-back the opposite): the
            # old tracks' terms come from registers, the new track's as soon as it is measured.
            gone_terms, new_terms = [], []
            for k in range(2):
                gone = ev_old[k]
                add = ev_add[k]
                known = ev_known[k]
                if shapes:
                    new_kind = track_shape(ev_new[k][0], ev_new[k][1])
                else:
                    new_kind, dist, relation = track_kind(ev_new[k][0], ev_new[k][1])
                    down = ev_sign ^ (k == 0)  # this colour's new track lowers the lead
                    new_terms.append(
                        Mux(add, signed_potential_at(dist, relation, down, f"new_term_{k}"), 0)
                    )
                    gone_terms += [
                        Mux(known[i], signed_potential(gone[i], ~down, f"gone_term_{k}_{i}"), 0)
                        for i in range(2)
                    ]
                new_kinds[k] = new_kind
                m.d.comb += delta_attacks[k].eq(
                    (add & is_attack(new_kind))
                    - (known[0] & is_attack(gone[0]))
                    - (known[1] & is_attack(gone[1]))
                )
            if not shapes:
                gone_sum = Signal(range(-4 * largest, 4 * largest + 1))
                new_sum = Signal(range(-2 * largest, 2 * largest + 1))
                m.d.comb += [
                    gone_sum.eq(sum(gone_terms)),
                    new_sum.eq(new_terms[0] + new_terms[1]),
                ]
            next_attacks = [Signal(8, name=f"next_attacks_{k}") for k in range(2)]
            for k in range(2):
                m.d.comb += next_attacks[k].eq(attacks[k])
                with m.If(ev_valid & ~ev_sign):
                    m.d.comb += next_attacks[k].eq(attacks[k] + delta_attacks[k])
                with m.If(ev_valid & ev_sign):
                    m.d.comb += next_attacks[k].eq(attacks[k] - delta_attacks[k])
                m.d.sync += attacks[k].eq(next_attacks[k])
            if not shapes:
                with m.If(ev_valid):
                    m.d.sync += lead.eq(lead + (gone_sum + new_sum))

        # The tracks' shapes' sums (with ``shapes``): colour j's is its tracks' ``mine`` weights
        # and the other colour's tracks' ``theirs``. The weights are in block RAM (a ROM of both
        # weights by the shape): the gone tracks' are read in the tile's decision clock (their
        # shapes measured from the ends read at its sides) and summed in the next, with the
        # counts; the new track's is read in that next clock (its shape is measured then) and
        # summed in the one after, where it is also added to the sums on their way out, so that
        # the sums (and the score made from them) are settled in the clock the counts are, as
        # the lead is.
        if counts and shapes:
            mine_table, theirs_table, _ = shapes
            weight_bits = max(2, *(w.bit_length() + 1 for w in (*mine_table, *theirs_table)))
            pair = data.StructLayout({"mine": signed(weight_bits), "theirs": signed(weight_bits)})
            init = [
                {"mine": w_mine, "theirs": w_theirs}
                for w_mine, w_theirs in zip(mine_table, theirs_table, strict=True)
            ]
            attrs = {"ram_style": "block"}
            rom = Memory(shape=pair, depth=SHAPES, init=init, attrs=attrs)
            m.submodules.shape_weights = rom
            gone_rd = [[rom.read_port() for _ in range(2)] for _ in range(2)]
            new_rd = [rom.read_port() for _ in range(2)]
            for k in range(2):
                for i in range(2):
                    m.d.comb += gone_rd[k][i].addr.eq(old_kinds[k][i])
                m.d.comb += new_rd[k].addr.eq(new_kinds[k])
            sh_valid = Signal()  # the new tracks' weights are out (the tile counted last clock)
            sh_sign = Signal()
            sh_add = [Signal(name=f"sh_add_{k}") for k in range(2)]
            m.d.sync += sh_valid.eq(ev_valid)
            with m.If(ev_valid):
                m.d.sync += [sh_sign.eq(ev_sign), *[sh_add[k].eq(ev_add[k]) for k in range(2)]]

            def weighed(port, colour, j):
                """A track of ``colour``'s weight in colour ``j``'s sum."""
                return port.data.mine if colour == j else port.data.theirs

            value_shape = self.white_shape_value.shape()
            # A tile that closes a loop has one old track at both its sides (its ends' targets
            # are the tile's cell): taken off once.
            gone_known = [Cat(ev_known[k][0], ev_known[k][1] & ev_add[k]) for k in range(2)]
            for j, out in ((0, self.black_shape_value), (1, self.white_shape_value)):
                gone_delta = sum(
                    Mux(gone_known[k][i], weighed(gone_rd[k][i], k, j), 0)
                    for k in range(2)
                    for i in range(2)
                )
                new_delta = sum(Mux(sh_add[k], weighed(new_rd[k], k, j), 0) for k in range(2))
                gone_term = Signal(value_shape, name=f"shape_gone_{j}")
                new_term = Signal(value_shape, name=f"shape_new_{j}")
                with m.If(ev_valid):  # a tile placed takes its old tracks off, a take-back
                    m.d.comb += gone_term.eq(Mux(ev_sign, gone_delta, -gone_delta))
                with m.If(sh_valid):  # its new track on, a take-back off
                    m.d.comb += new_term.eq(Mux(sh_sign, -new_delta, new_delta))
                total = Signal(value_shape, name=f"shape_sum_{j}")
                m.d.sync += total.eq(total + gone_term + new_term)
                m.d.comb += out.eq(total + new_term)
                shape_sums.append(total)
                shape_values.append(out)

        # --- what a placed tile completes, judged in the clock after it ---------------------
        # (off the tile's decision clock, whose control comes late: docs/area.md, "Fiftieth
        # session"). The clock after a placement never places (a tile's neighbours are updated
        # then) and never ends a turn, whose ``done`` is registered: the flags, accumulated
        # here, are settled when the turn is, as the counts are (a clock after the tile).
        judged = Signal()  # a tile was placed in the last clock
        m.d.sync += judged.eq(count_place)
        if counts:  # the evaluation keeps the tile's new ends already
            judged_ends, judged_open = ev_new, ev_add
        else:
            judged_ends = [
                [Signal(end_layout, name=f"judged_end_{k}_{i}") for i in range(2)] for k in range(2)
            ]
            judged_open = [Signal(name=f"judged_open_{k}") for k in range(2)]
            with m.If(count_place):
                for k in range(2):
                    m.d.sync += [
                        judged_open[k].eq(~loops[k]),
                        *[judged_ends[k][i].eq(new_ends[k][i]) for i in range(2)],
                    ]
        for k, (loop_flag, line_flag) in enumerate(
            ((self.black_loop, self.black_line), (self.white_loop, self.white_line))
        ):
            a, b = (data.View(outer_layout, outer(end.edge)) for end in judged_ends[k])
            with m.If(judged):
                m.d.sync += [
                    loop_flag.eq(loop_flag | ~judged_open[k]),
                    line_flag.eq(line_flag | (judged_open[k] & line(a, b))),
                ]

        # The position's key: a tile's key XORed in when it is placed and again when it is
        # taken back, from the tile's number registered in its clock (the product after it).
        if self.position_key_kept:
            tile_number = Signal(3)
            with m.Switch(tile):
                for number, placed_tile in enumerate(TILES):
                    with m.Case(placed_tile):
                        m.d.comb += tile_number.eq(number)
            key_number = Signal(15)
            key_valid = Signal()
            m.d.sync += [
                key_valid.eq(count_place | count_undo),
                key_number.eq(Cat(tile_number, qx, Const(0, 6 - cx), qy, Const(0, 6 - ry))),
            ]
            product = Signal(15 + 32)
            product_high = Signal(15 + 16)
            m.d.comb += [
                product.eq(key_number * KEY_MULTIPLIER),
                product_high.eq(key_number * KEY_HIGH_MULTIPLIER),
            ]
            tile_key_bits = Cat(product[KEY_SHIFT:], product_high[KEY_HIGH_SHIFT:])
            with m.If(key_valid):
                m.d.sync += self.position_key.eq(self.position_key ^ tile_key_bits)

        # The score of the position for either side to move, from the counts, registered: it
        # is that of the position one clock after the counts change. Each is kept negated, as
        # the side that just moved sees it (the search's leaf), so no negation follows them.
        if self.weights is not None:
            w = self.weights
            clamp = w["clamp"]
            # The mover's lead is +lead for white, -lead for black; the rest of the formula is
            # a constant of two values (the opponent has an attack or not: where the formula
            # counts, it has at most one). So the clamp is two compares of ``lead`` with
            # constants, and a value within it is exact in the low bits alone (a narrow add).
            narrow = ceil_log2(clamp + 1) + 1
            for k, out, sign in ((0, self.white_mover_score, -1), (1, self.black_mover_score, 1)):
                mine, theirs = k, 1 - k
                threatened = attacks[theirs] != 0
                over, under = Signal(name=f"over_{k}"), Signal(name=f"under_{k}")
                plain = Signal(signed(narrow), name=f"plain_{k}")
                for attacked in (0, 1):
                    rest = w["tempo"] - attacked * w["attack"]
                    # The side to move's score, sign * lead + rest, > clamp, < -clamp; its
                    # negation is the value. (With ``shapes``: its shape value + rest.)
                    if shapes:
                        rest = shapes[2] - attacked * w["attack"]
                        own = shape_values[k]
                        is_over, is_under = own > clamp - rest, own < -clamp - rest
                        value = -rest - own[:narrow].as_signed()
                    elif sign > 0:
                        is_over, is_under = lead > clamp - rest, lead < -clamp - rest
                        value = -rest - lead[:narrow].as_signed()
                    else:
                        is_over, is_under = lead < rest - clamp, lead > rest + clamp
                        value = lead[:narrow].as_signed() - rest
                    with m.If(threatened == attacked):
                        m.d.comb += [over.eq(is_over), under.eq(is_under), plain.eq(value)]
                with m.If(attacks[mine] != 0):
                    m.d.sync += out.eq(-w["own_attack"])
                with m.Elif(attacks[theirs] >= 2):
                    m.d.sync += out.eq(-w["lost"])
                with m.Elif(over):
                    m.d.sync += out.eq(-clamp)
                with m.Elif(under):
                    m.d.sync += out.eq(clamp)
                with m.Else():
                    m.d.sync += out.eq(plain)

        # The track-end write buffer: each clock, each bank takes its first pending write (with
        # ``serial_writes``, the first pending write goes out, whatever its bank).
        load_writes = Signal()
        load_restores = Signal()
        taken = [Signal(name=f"taken_{i}") for i in range(4)]
        # A placed tile's writes take their track's kind from the evaluation, measured in the
        # clock after the decision (the first the writes go out in; the next tile's decision
        # reloads both); a take-back's restores carry the kind they read. (With ``shapes``, no
        # kind is kept.)
        pending_new = Signal()
        pending_entries = []
        for i in range(4):
            entry = Signal(entry_layout, name=f"pending_entry_{i}")
            m.d.comb += entry.partner.eq(pending[i].partner)
            if kept_kind:
                m.d.comb += entry.kind.eq(Mux(pending_new, new_kinds[i // 2], pending[i].kind))
            pending_entries.append(entry)
        if self.serial_writes:
            # One write a clock: the first pending one, on one address and data for all banks.
            write_at = Signal(edge)
            write_entry = Signal(entry_layout)
            claimed = Const(0, 1)
            for i in range(4):
                with m.If(pending[i].valid & ~claimed):
                    m.d.comb += [
                        write_at.eq(pending[i].target),
                        write_entry.eq(pending_entries[i]),
                        taken[i].eq(1),
                    ]
                claimed = claimed | pending[i].valid
            for bank in range(edge_banks):
                m.d.comb += [
                    edge_wr[bank].en.eq(claimed & (edge_bank(write_at, edge_banks) == bank)),
                    edge_wr[bank].addr.eq(edge_address(write_at, edge_banks)),
                    edge_wr[bank].data.eq(write_entry),
                ]
        else:
            for bank in range(edge_banks):
                claimed = Const(0, 1)
                for i in range(4):
                    here = pending[i].valid & (edge_bank(pending[i].target, edge_banks) == bank)
                    with m.If(here & ~claimed):
                        m.d.comb += [
                            edge_wr[bank].en.eq(1),
                            edge_wr[bank].addr.eq(edge_address(pending[i].target, edge_banks)),
                            edge_wr[bank].data.eq(pending_entries[i]),
                            taken[i].eq(1),
                        ]
                    claimed = claimed | here
        with m.If(load_writes | load_restores):
            m.d.sync += pending_new.eq(load_writes)
        for i in range(4):
            with m.If(load_writes):
                m.d.sync += pending[i].eq(writes[i])
            with m.Elif(load_restores):
                m.d.sync += pending[i].eq(restores[i])
            with m.Elif(taken[i]):
                m.d.sync += pending[i].valid.eq(0)
        writes_busy = Cat([p.valid for p in pending]).any()
        writes_done_now = Cat([~p.valid | t for p, t in zip(pending, taken, strict=True)]).all()
        # What this clock leaves goes out in the next one: no bank keeps two writes. A turn may
        # end so: the next tile is read in the next clock at the soonest (the reads see that
        # clock's writes), and an UNDO at once takes back the tile from its prefetched record
        # and ends, of which it uses only the sides with a neighbour, never written by the
        # tile (a write goes to the far end of a track, or to the tile's own edge where the
        # side has no neighbour).
        left = [p.valid & ~t for p, t in zip(pending, taken, strict=True)]
        if self.serial_writes:  # at most one write left
            pairs_left = [left[i] & left[j] for i in range(4) for j in range(i + 1, 4)]
        else:  # at most one write left in each bank
            banks = [edge_bank(p.target, edge_banks) for p in pending]
            pairs_left = [
                left[i] & left[j] & (banks[i] == banks[j])
                for i in range(4)
                for j in range(i + 1, 4)
            ]
        writes_done_next = ~Cat(pairs_left).any()

        # --- the neighbours of the tile in hand ----------------------------------------------
        placed = Signal(4)  # the tile just placed (or taken back), for its neighbours
        placed_known = Signal(4)  # the sides of it that had a neighbour
        undoing = Signal()
        # The tile whose neighbours were read in the last clock (``read_neighbours``), and are
        # updated in this one: the cell in hand then, which a chain of take-backs has left.
        nq_x, nq_y = Signal(cx), Signal(ry)

        def read_neighbours():
            m.d.sync += [nq_x.eq(qx), nq_y.eq(qy)]
            for d in range(4):
                nx, ny = neighbour(qx, qy, d)
                for bank in range(4):
                    with m.If(cell_bank(nx, ny) == bank):
                        m.d.comb += cell_rd[bank].addr.eq(cell_address(nx, ny, c))

        # The update of each neighbour across a side that had no tile: its side facing us gets
        # (or, undoing, loses) our colour; a cell that now has two edges of a colour is forced,
        # three is dead; a cell that had no side before joins the frontier list. The four
        # neighbours lie in the four cell banks: each bank's record is updated where it was read
        # (``read_at``), and ``sides[bank]`` says which side of the tile it lies on.
        newly_forced = Signal(4)
        newly_frontier = Signal(4)
        kills = Signal(4)
        update_neighbours = Signal()
        nbr_banks = [cell_bank(*neighbour(nq_x, nq_y, d)) for d in range(4)]
        forced_here, frontier_here, kills_here = [], [], []  # by bank, as masks of sides
        write_q = Signal()  # the cell in hand is written (with its own record, read last clock)
        q_tile = Signal(4)  # with this tile (0: taken back)
        for bank in range(4):
            side = Cat([nbr_banks[d] == bank for d in range(4)])  # one-hot: the side it lies on
            rec = cell_rd[bank].data
            facing = Cat(side[2], side[3], side[0], side[1])  # its side facing the tile
            placed_there = (side & placed).any()
            created = (side & ~placed_known).any()
            known = Signal(4, name=f"nbr_known_{bank}")
            white = Signal(4, name=f"nbr_white_{bank}")
            m.d.comb += [
                known.eq(Mux(undoing, rec.known & ~facing, rec.known | facing)),
                white.eq(Mux(undoing | ~placed_there, rec.white & ~facing, rec.white | facing)),
            ]
            if leaf_enabled:
                # Before the tile, our side of the cell is unknown: after the leaf step it still
                # shows the tile taken back in the same clock (its update was left to this one).
                before_known, before_white = rec.known & ~facing, rec.white & ~facing
            else:
                before_known, before_white = rec.known, rec.white
            before = cell_rules(list(before_known), list(before_white))
            after = cell_rules(list(known), list(white))
            fresh = created & ~undoing
            forced_here.append(Mux(fresh & after["forced"] & ~before["forced"], side, 0))
            frontier_here.append(Mux(fresh & (before_known == 0), side, 0))
            kills_here.append(Mux(fresh & after["dead"], side, 0))
            # The cell in hand (its tile placed or taken back) wins over a neighbour's update
            # (in UNDO_CHAIN, the tile taken back is a neighbour, but one with a tile).
            mine = write_q & (q_bank == bank)
            own, at = rec, read_at[bank]
            if leaf_enabled:  # the leaf step writes the cell in hand where it lies, as kept
                own = data.View(cell, Mux(leaf_state, leaf_record, rec))
                at = Mux(mine & leaf_state, cell_address(qx, qy, c), read_at[bank])
            m.d.comb += [
                cell_wr[bank].en.eq(mine | (update_neighbours & created)),
                cell_wr[bank].addr.eq(at),
                cell_wr[bank].data.eq(
                    Mux(mine, Cat(q_tile, own.known, own.white), Cat(Const(0, 4), known, white))
                ),
            ]
        m.d.comb += [
            newly_forced.eq(forced_here[0] | forced_here[1] | forced_here[2] | forced_here[3]),
            newly_frontier.eq(
                frontier_here[0] | frontier_here[1] | frontier_here[2] | frontier_here[3]
            ),
            kills.eq(kills_here[0] | kills_here[1] | kills_here[2] | kills_here[3]),
        ]

        # --- what a tile leaves to do, one per clock: cells to push, cells to append -----------
        to_push = Signal(4)  # the forced neighbours (by side) still to push
        to_append = Signal(4)  # the new frontier cells (by side) still to append
        if self.forced_via_stack:
            # The tile they are neighbours of: the tile in hand until they are done (no tile is
            # read before).
            from_x, from_y = nq_x, nq_y
        else:
            from_x, from_y = Signal(cx), Signal(ry)  # the tile they are neighbours of

        def first_of(mask, name, x=from_x, y=from_y):
            """The first side set in ``mask`` (N, E, S, W), and the neighbour of (x, y) there."""
            first = Signal(4, name=name)
            for d in reversed(range(4)):
                with m.If(mask[d]):
                    m.d.comb += first.eq(1 << d)
            where = Signal(point, name=f"{name}_cell")
            for d in range(4):
                with m.If(first[d]):
                    m.d.comb += where.eq(Cat(*neighbour(x, y, d)))
            return first, where

        first_push, push_cell = first_of(to_push, "first_push")
        first_append, append_cell = first_of(to_append, "first_append")
        if self.serial_appends:  # one append a clock
            second_append, append_cell_2 = Const(0, 4), None
        else:
            second_append, append_cell_2 = first_of(to_append & ~first_append, "second_append")
        appends_left = to_append & ~first_append & ~second_append  # after this clock's two
        # The tile in hand's first two new frontier cells are appended in its NEIGHBOURS clock
        # (with ``deferred_appends``, none: all of them after it).
        if self.deferred_appends:
            first_new, new_cell = Const(0, 4), None
        else:
            first_new, new_cell = first_of(newly_frontier, "first_new", nq_x, nq_y)
        if self.serial_appends or self.deferred_appends:
            second_new, new_cell_2 = Const(0, 4), None
        else:
            second_new, new_cell_2 = first_of(newly_frontier & ~first_new, "second_new", nq_x, nq_y)
        # The tile in hand's one forced neighbour, read in its NEIGHBOURS clock.
        _, forced_cell = first_of(newly_forced, "first_forced", nq_x, nq_y)

        # The forced stack: its top in a register, the rest in memory.
        sp = Signal(range(c * r + 1))
        top = Signal(point)
        top_valid = Signal()
        top_address = c * r - 1  # the stack's entry i is at top_address - i
        bypass = Signal()  # NEXT takes the one cell to push as the next tile instead
        with m.If(to_push.any() & ~bypass):
            with m.If(top_valid):
                m.d.comb += [
                    stack_wr.en.eq(1),
                    stack_wr.addr.eq(top_address - sp),
                    stack_wr.data.eq(top),
                ]
                m.d.sync += sp.eq(sp + 1)
            m.d.sync += [top.eq(push_cell), top_valid.eq(1), to_push.eq(to_push & ~first_push)]

        # The frontier list: at most two entries written a clock, at ``f_len`` and after it.
        f_len = self.frontier_len

        def write_frontier(index, cell, second=None):
            """Write ``cell`` at entry ``index`` and, if given, ``second`` at ``index + 1``."""
            lanes = [(index, cell)] + ([(index + 1, second)] if second is not None else [])
            for at, value in lanes:
                at_bank, address = front_place(at)
                for bank in range(front_banks):
                    with m.If(at_bank == bank):
                        m.d.comb += [
                            front_wr[bank].en.eq(1),
                            front_wr[bank].addr.eq(address),
                            front_wr[bank].data.eq(value),
                        ]

        def append(first_mask, cell, second_mask, cell_2):
            """Append the cells of the first side and, if any, of the second one."""
            with m.If(second_mask.any()):
                if cell_2 is not None:
                    write_frontier(f_len, cell, cell_2)
                    m.d.sync += f_len.eq(f_len + 2)
            with m.Elif(first_mask.any()):
                write_frontier(f_len, cell)
                m.d.sync += f_len.eq(f_len + 1)

        append(first_append, append_cell, second_append, append_cell_2)
        m.d.sync += to_append.eq(appends_left)

        # --- the log of placed tiles, the ply stack --------------------------------------------
        log_sp = Signal(range(c * r + 1))
        turn_mark = Signal.like(log_sp)
        # The cell in hand (qx, qy) is the log's last entry: a legal turn has just ended on it,
        # so UNDO can read it at once instead of reading the log first.
        top_known = Signal()
        # The turn's end read the cell in hand and its edges: in the clock after it, their
        # record and ends are out, so an UNDO takes the tile back at once.
        prefetched = Signal()
        m.d.sync += prefetched.eq(0)
        turn_f_mark = Signal.like(f_len)
        # The read port: the log's last entry while taking tiles back, else the stack's top.
        undo_read_now = Signal()  # an UNDO command reads the log at once (from IDLE)
        m.d.comb += log_rd.addr.eq(Mux(undoing | undo_read_now, log_sp - 1, top_address - (sp - 1)))
        ply_layout = data.StructLayout(
            {
                "log": range(c * r + 1),
                "frontier": range(c * r + 1),
                "box_x": range(c),
                "box_y": range(r),
                "box_w": range(c + 1),
                "box_h": range(r + 1),
                "empty": 1,
            }
        )
        # The plies' marks: a small memory (distributed RAM where the part has it), written at
        # the board's ply and read at the ply below it, at once. In block RAM, it is read at the
        # ply below the one the board goes to (``ply_next``), so that it is out when it is there.
        ply_next = Signal.like(self.ply)  # the board's ply after this clock
        m.d.comb += ply_next.eq(self.ply)
        m.d.sync += self.ply.eq(ply_next)

        def step_ply(value, *, up=0, down=0, to_zero=0):
            """The board's ply after this clock (``ply_next``), and which way it goes."""
            m.d.comb += [
                ply_next.eq(value),
                self.ply_up.eq(up),
                self.ply_down.eq(down),
                self.ply_to_zero.eq(to_zero),
            ]

        if self.marks_in_block_ram:
            attrs = {"ram_style": "block"}
            marks = Memory(shape=ply_layout, depth=self.plies, init=[], attrs=attrs)
            m.submodules.marks = marks
            marks_wr = marks.write_port()
            marks_rd = marks.read_port()
            m.d.comb += marks_rd.addr.eq(ply_next - 1)
        else:
            m.submodules.marks = marks = Memory(shape=ply_layout, depth=self.plies, init=[])
            marks_wr = marks.write_port()
            marks_rd = marks.read_port(domain="comb")
            m.d.comb += marks_rd.addr.eq(self.ply - 1)
        is_ply = Signal()  # the turn in progress is a PLY
        last = marks_rd.data

        # --- the sequence ----------------------------------------------------------------------
        dead = Signal()
        clear_addr = Signal(range(cell_depth + 1))
        # The cell a turn starts at: the command's, or (NEXT) the candidate found.
        move_x = Signal(cx)
        move_y = Signal(ry)
        m.d.comb += [move_x.eq(self.move.x), move_y.eq(self.move.y)]
        # The box it grows: the board's, or (a candidate played as a ply is taken back) the
        # one being restored in this clock.
        base_x, base_y = Signal.like(self.box.x), Signal.like(self.box.y)
        base_w, base_h = Signal.like(self.box.w), Signal.like(self.box.h)
        m.d.comb += [
            base_x.eq(self.box.x),
            base_y.eq(self.box.y),
            base_w.eq(self.box.w),
            base_h.eq(self.box.h),
        ]
        grown_x, grown_w = grow_box(m, move_x, base_x, base_w, c)
        grown_y, grown_h = grow_box(m, move_y, base_y, base_h, r)
        too_big = (pend_w + 2 > c) | (pend_h + 2 > r)
        peek_bank = Signal(2)
        with m.Switch(peek_bank):
            for bank in range(4):
                with m.Case(bank):
                    m.d.comb += self.peek_tile.eq(cell_rd[bank].data.tile)

        # The frontier list's reader (CANDIDATE, COMPACT): entry ``f_index`` of the candidate
        # order, at ``listed(f_index, length)`` in the list (``f_odd``: that place is odd).
        f_index = Signal.like(f_len)
        f_odd = Signal()

        def listed(index, length):
            """The place in the frontier list of the candidate order's entry ``index``, in a list
            of ``length`` entries (from its end with ``newest_first``; wraps past its start)."""
            if not self.newest_first:
                return Value.cast(index)
            place = Signal.like(f_len, name="listed_place")
            m.d.comb += place.eq(length - 1 - index)
            return place

        f_symbol = Signal(Symbol)  # CANDIDATE: the first symbol to try at f_index
        f_out = Signal.like(f_len)  # COMPACT: where the next kept cell goes
        if self.listed_in_hand:  # the listed cell is read as the cell in hand
            fx, fy, f_record, f_rules = qx, qy, record, rules
        else:
            fx, fy = Signal(cx), Signal(ry)
            f_bank = cell_bank(fx, fy)
            f_record = Signal(cell)
            with m.Switch(f_bank):
                for bank in range(4):
                    with m.Case(bank):
                        m.d.comb += f_record.eq(cell_rd[bank].data)
            f_rules = cell_rules(list(f_record.known), list(f_record.white))
        f_open = (f_record.tile == Tile.EMPTY) & (f_record.known != 0)
        # The symbols (+ / \\) that fit the listed cell: it is empty and one of their tiles fits.
        f_fits = Cat(
            [f_open & (f_rules["fit"][2 * s] | f_rules["fit"][2 * s + 1]) for s in range(3)]
        )
        # The last cell CAND_FIT looked at, with the board's ply then, and the symbols that fit
        # it: NEXT going on at that same entry at that ply (the next symbol, after a leaf was
        # taken back) finds its candidate from here in the clock it goes on (the one that ends
        # the take-back), without reading the list and the cell again. The position at a ply is
        # the same every time the board is back at it, until an UNDO goes below it or a game
        # command.
        # With ``reread_candidates``, no cell is cached: NEXT goes on at the listed entry.
        cached = not self.reread_candidates
        c_valid = Signal()
        c_level = Signal.like(self.ply)
        c_index = Signal.like(f_len)
        c_x, c_y = Signal(cx), Signal(ry)
        c_fits = Signal(3)
        # The next-entry step (``plain_next_entry`` off): the frontier entry after the cached
        # one, read in CAND_FIT's clock (its place made in the same position) and kept in the
        # next, so that NEXT going on past the cached cell after a take-back reads that entry's
        # cell at once and goes to CAND_FIT.
        ahead_enabled = cached and not (self.plain_next_entry or self.listed_in_hand)
        a_x, a_y = Signal(cx), Signal(ry)  # the entry's cell
        a_load = Signal()  # the entry read in the last clock is out now
        a_odd = Signal()  # its place is odd (the frontier list's second bank)
        if ahead_enabled:
            m.d.sync += a_load.eq(0)
            with m.If(a_load):
                ahead_entry = front_rd[0].data
                if front_banks == 2:
                    ahead_entry = data.View(point, Mux(a_odd, front_rd[1].data, front_rd[0].data))
                m.d.sync += [a_x.eq(ahead_entry.x), a_y.eq(ahead_entry.y)]

        m.d.sync += self.done.eq(0)

        # NEXT and UNDO_NEXT: the command's terms, and where the candidate loop goes on.
        stepping = Signal()  # a NEXT is in progress: an illegal turn goes on to the next candidate
        then_next = Signal()  # an UNDO_NEXT is taking back its ply
        n_play = Signal()
        n_skip_valid = Signal()
        n_skip = Signal(data.StructLayout({"x": cx, "y": ry, "symbol": Symbol}))
        n_cursor = Signal(cursor_layout(c, r))

        def finish(verdict):
            m.d.sync += [self.verdict.eq(verdict), self.done.eq(1), self.busy.eq(0)]

        def write_mark(enable, log_mark, f_mark):
            """The mark of a ply at the board's ply (what UNDO restores): the log's and the
            frontier list's lengths before it, and the box."""
            m.d.comb += [
                marks_wr.en.eq(enable),
                marks_wr.addr.eq(self.ply),
                marks_wr.data.log.eq(log_mark),
                marks_wr.data.frontier.eq(f_mark),
                marks_wr.data.box_x.eq(self.box.x),
                marks_wr.data.box_y.eq(self.box.y),
                marks_wr.data.box_w.eq(self.box.w),
                marks_wr.data.box_h.eq(self.box.h),
                marks_wr.data.empty.eq(self.box.empty),
            ]

        def place(tile_value, *, first=False):
            """The decision clock of a tile: write it, its track ends, the log; read its
            neighbours. A ply's mark is written with every tile, into the slot above the stack,
            which only a legal end of the turn makes the top. With ``first`` (the leaf and fit
            steps), the turn's first tile in the clock the turn begins: nothing won before it,
            and its mark is left to the caller (the leaf step's is the one already written, of
            the same position)."""
            m.d.comb += [tile.eq(tile_value), load_writes.eq(1), count_place.eq(1)]
            if not first:
                write_mark(is_ply, turn_mark, turn_f_mark)
            m.d.comb += [write_q.eq(1), q_tile.eq(tile_value)]
            m.d.comb += [log_wr.en.eq(1), log_wr.addr.eq(log_sp), log_wr.data.eq(Cat(qx, qy))]
            m.d.sync += [
                log_sp.eq(log_sp + 1),
                placed.eq(tile_value),
                placed_known.eq(record.known),
                self.tiles.eq(1 if first else self.tiles + 1),
            ]
            read_neighbours()

        def issue(x, y):
            m.d.sync += [qx.eq(x), qy.eq(y)]
            read_cell_edges(x, y)

        def read_frontier(index, length=None):
            """Read entry ``index`` of the candidate order in a list of ``length`` (None: the
            list's own place ``index``, as COMPACT reads it)."""
            index = Value.cast(index)
            place = index if length is None else listed(index, length)
            for bank in range(front_banks):
                m.d.comb += front_rd[bank].addr.eq(front_place(place)[1])
            m.d.sync += [f_index.eq(index), f_odd.eq(place[0])]

        def read_listed_cell():
            """The frontier list's entry is out: keep its cell and read its record."""
            entry = front_rd[0].data
            if front_banks == 2:
                entry = data.View(point, Mux(f_odd, front_rd[1].data, front_rd[0].data))
            m.d.sync += [fx.eq(entry.x), fy.eq(entry.y)]
            for bank in range(4):
                m.d.comb += cell_rd[bank].addr.eq(cell_address(entry.x, entry.y, c))
            return entry

        def hold_listed(x, y):
            """The fit step: the listed cell (x, y), whose record and edges are read in this
            clock, becomes the cell in hand (when NEXT may play), with the box its tile would
            grow as the turn's, so that CAND_FIT can place the tile as MOVE would."""
            with m.If(n_play):
                m.d.sync += [
                    qx.eq(x),
                    qy.eq(y),
                    pend_x.eq(grown_x),
                    pend_y.eq(grown_y),
                    pend_w.eq(grown_w),
                    pend_h.eq(grown_h),
                ]

        def begin_undo(log_mark, f_mark):
            m.d.sync += [
                undoing.eq(1),
                top_valid.eq(0),
                sp.eq(0),
                turn_mark.eq(log_mark),
                turn_f_mark.eq(f_mark),
            ]
            m.next = "UNDO"

        # Finding a candidate, one instance of the logic whichever state does it: NEXT going on
        # (``next_candidate``: after a take-back, an illegal turn or a refused move) and a
        # listed cell whose fitting symbols are known (CAND_FIT, or the cached cell when NEXT
        # goes on at it). Its inputs follow the state (``going_on``, set by the states that may
        # go on, and CAND_FIT), so that only whether it acts (``resume``, ``fit``) waits for an
        # UNDO_NEXT's ``proceed``, which the search settles late; the reads it may need are
        # issued whatever it decides. The states follow ``go_to``; the logic, after the FSM,
        # writes its registers last, so they win over the states'.
        # where the state goes next: CAND_CELL, MOVE, IDLE, (leaf) NEIGHBOURS or (ahead) CAND_FIT
        go_to = Signal(range(_GO_FIT + 1) if ahead_enabled else 2)
        going_on = Signal()  # a state that may go on with NEXT's candidates (its inputs:)
        resume_limit = Signal.like(f_len)  # the frontier's length after this clock,
        resume_level = Signal.like(self.ply)  # the board's ply after it,
        resume_restored = Signal()  # the box is being restored from the marks in this clock
        resume_undone = Signal()  # a take-back ends in this clock (no other cell read in it)
        resume = Signal()  # NEXT goes on in this clock
        fit = Signal()  # a listed cell is looked at in this clock

        def follow():
            """The state goes where the candidate logic says."""
            with m.Switch(go_to):
                with m.Case(_GO_MOVE):
                    m.next = "MOVE"
                if leaf_enabled:
                    with m.Case(_GO_PLACE):  # the leaf step: the tile is placed in this clock
                        m.next = "NEIGHBOURS"
                with m.Case(_GO_IDLE):
                    m.next = "IDLE"
                if ahead_enabled:
                    with m.Case(_GO_FIT):  # the next-entry step: its cell is being read
                        m.next = "CAND_FIT"
                with m.Default():
                    m.next = "CAND_CELL"

        def may_go_on(limit, level, restored=False):
            """This state may go on with NEXT's candidates (``limit``: the frontier's length
            after this clock; ``level``: the board's ply after it; ``restored``: the box is the
            one restored from the marks in this clock)."""
            m.d.comb += [
                going_on.eq(1),
                resume_limit.eq(limit),
                resume_level.eq(level),
                resume_restored.eq(restored),
            ]

        def next_candidate():
            """Go on with NEXT's candidates at ``n_cursor`` (the state said ``may_go_on``)."""
            m.d.comb += resume.eq(1)
            follow()

        def refuse(verdict):
            """The turn is illegal (nothing was placed): its verdict, or NEXT's next candidate."""
            with m.If(stepping):
                next_candidate()
            with m.Else():
                finish(verdict)
                m.next = "IDLE"

        def end_undo():
            """The turn or ply is taken back: back to idle with its verdict (or, in NEXT and
            UNDO_NEXT, on to the next candidate)."""
            if cached:
                read_cell_edges(c_x, c_y)  # the cached cell, in case NEXT goes on there
            # NEXT goes on (if it does) in the position before the ply, or (an illegal turn)
            # in the one the turn started from.
            may_go_on(turn_f_mark, Mux(dead, self.ply, self.ply - 1), restored=~dead)
            if ahead_enabled:
                m.d.comb += resume_undone.eq(1)
            m.d.sync += [undoing.eq(0), f_len.eq(turn_f_mark)]
            with m.If(dead):
                m.d.sync += self.tiles.eq(0)
                with m.If(stepping):
                    next_candidate()
                with m.Else():
                    finish(Verdict.DEAD)
                    m.next = "IDLE"
            with m.Else():
                m.d.sync += [
                    self.box.x.eq(last.box_x),
                    self.box.y.eq(last.box_y),
                    self.box.w.eq(last.box_w),
                    self.box.h.eq(last.box_h),
                    self.box.empty.eq(last.empty),
                ]
                step_ply(self.ply - 1, down=1)
                if cached:
                    with m.If(c_level >= self.ply):  # the position it was read in is gone
                        m.d.sync += c_valid.eq(0)
                with m.If(then_next & self.proceed):
                    # UNDO_NEXT goes on (``proceed`` is taken now: the search may settle it while
                    # the ply is being taken back; the other terms came with the command).
                    next_candidate()
                with m.Else():
                    finish(Verdict.LEGAL)
                    m.next = "IDLE"

        def keep_for_leaf(last_of_ply, *, read=True):
            """The leaf step: the tile taken back in this clock is the last of UNDO_NEXT's ply
            to come off (``last_of_ply``: the ply's first tile, the move's) and lies at the
            cached cell: keep its record, and (``read``) read its edges again (no chain reads
            another tile's), so that UNDO_NEIGHBOURS can place its next symbol there."""
            at_cache = c_valid & (c_x == qx) & (c_y == qy)
            m.d.sync += [leaf_ready.eq(last_of_ply & at_cache), leaf_record.eq(record)]
            if read:
                with m.If(last_of_ply):
                    read_cell_edges(qx, qy)

        def take_back_tile():
            """The tile in hand's record and edges are out: empty its cell, give its tracks'
            far ends their old partners back, read its neighbours."""
            m.d.comb += [load_restores.eq(1), tile.eq(record.tile), count_undo.eq(1)]
            m.d.comb += write_q.eq(1)
            m.d.sync += [placed.eq(record.tile), placed_known.eq(record.known)]
            read_neighbours()
            m.next = "UNDO_NEIGHBOURS"

        # A chain of take-backs, one tile a clock: the log's entry before the tile in hand is
        # read ahead, and when it is a neighbour of that tile (as a forced tile is of the one
        # that forced it), its record is among the neighbours read by ``take_back_tile``, so
        # only its edges are read beside them, and it is taken back in the next clock
        # (``UNDO_CHAIN``), beside the update of this tile's neighbours.
        # Every way into UNDO_TILE reads that entry ahead (the log's entry out in UNDO_TILE is
        # the one before the tile in hand).
        chain = Signal()  # a tile is taken back in this clock, and the next one may follow:
        chain_index = Signal.like(log_sp)  # the log's entry of the tile in hand,
        chain_mark = Signal.like(log_sp)  # the ply's first entry
        nxt = log_rd.data
        sides = [neighbour(qx, qy, d) for d in range(4)]
        chain_go = Signal()  # it follows in the next clock (UNDO_CHAIN)
        if not self.plain_undo:  # (else never: each tile is read after the last one's update)
            m.d.comb += chain_go.eq(
                chain
                & (chain_index > chain_mark)
                & Cat([(nxt.x == nx) & (nxt.y == ny) for nx, ny in sides]).any()
            )

        def may_chain(index, mark):
            """This state may take back the tile in hand, at log entry ``index``, of a ply or
            turn whose first tile is at ``mark`` (set whatever the state decides, so that the
            comparisons do not wait for its decision)."""
            m.d.comb += [chain_index.eq(index), chain_mark.eq(mark)]

        def chain_undo():
            """After ``take_back_tile`` (the state said ``may_chain``): when the log's entry out
            now, the next to take back, is a neighbour of the tile in hand, it is taken back in
            the next clock."""
            m.d.comb += chain.eq(1)
            with m.If(chain_go):
                m.next = "UNDO_CHAIN"

        def begin_turn(symbol_value, ply_value, f_mark=f_len):
            """A turn starts: its symbol, whether it is a ply, and nothing placed or won yet
            (``f_mark``: the frontier's length, where it is not yet ``f_len``)."""
            m.d.sync += [
                symbol.eq(symbol_value),
                self.tiles.eq(0),
                self.white_loop.eq(0),
                self.black_loop.eq(0),
                self.white_line.eq(0),
                self.black_line.eq(0),
                turn_mark.eq(log_sp),
                turn_f_mark.eq(f_mark),
                sp.eq(0),
                top_valid.eq(0),
                is_ply.eq(ply_value),
            ]

        def end_turn():
            """The turn is legal and complete: its box becomes the board's, a ply is stacked."""
            m.d.sync += [
                self.box.x.eq(pend_x),
                self.box.y.eq(pend_y),
                self.box.w.eq(pend_w),
                self.box.h.eq(pend_h),
                self.box.empty.eq(0),
            ]
            if not self.plain_undo:  # (else an UNDO always reads the ply's last tile from the log)
                m.d.sync += [
                    top_known.eq(1),
                    prefetched.eq(is_ply),  # read by NEIGHBOURS and NEXT in this clock
                ]
            if not self.plain_undo:
                m.d.comb += log_rd.addr.eq(log_sp - 2)  # the tile before the last, for UNDO_CHAIN
            with m.If(is_ply):
                step_ply(self.ply + 1, up=1)
            finish(Verdict.LEGAL)
            m.next = "IDLE"

        with m.FSM(name="track_fsm") as fsm:
            with m.State("IDLE"):
                read_cell_edges(self.peek_x, self.peek_y)
                m.d.sync += peek_bank.eq(cell_bank(self.peek_x, self.peek_y))
                # Right after a ply, an UNDO may take its last tile back at once and the one
                # before it in the next clock: that one's edges are read now, whatever comes.
                may_chain(log_sp - 1, last.log)
                one_tile = log_sp - 1 == last.log  # the ply in hand placed one tile
                with m.If(prefetched):
                    read_cell_edges(nxt.x, nxt.y)
                    if leaf_enabled:  # no chain: the tile's own edges, for the leaf step
                        with m.If(one_tile):
                            read_cell_edges(qx, qy)
                with m.If(self.start):
                    m.d.sync += [
                        self.busy.eq(1),
                        dead.eq(0),
                        undoing.eq(0),
                        # NEXT passes over an illegal turn from its first candidate on
                        # (UNDO_NEXT from the first it goes on to: ``resume``).
                        stepping.eq(self.op == TrackOp.NEXT),
                        then_next.eq(0),
                        n_cursor.eq(self.cursor),
                        n_play.eq(self.play & (self.op != TrackOp.CANDIDATE)),
                        n_skip_valid.eq(self.skip_valid & (self.op != TrackOp.CANDIDATE)),
                        n_skip.eq(Cat(self.skip.x, self.skip.y, self.skip.symbol)),
                    ]
                    with m.If(self.op != TrackOp.CANDIDATE):
                        m.d.sync += top_known.eq(0)
                    with m.If(
                        (self.op == TrackOp.PLAY)
                        | (self.op == TrackOp.NEW_GAME)
                        | (self.op == TrackOp.COMPACT)
                    ):
                        m.d.sync += c_valid.eq(0)
                    with m.Switch(self.op):
                        with m.Case(TrackOp.NEW_GAME):
                            m.d.sync += [
                                clear_addr.eq(0),
                                self.box.empty.eq(1),
                                self.overflow.eq(0),
                                self.box.x.eq(0),
                                self.box.y.eq(0),
                                self.box.w.eq(0),
                                self.box.h.eq(0),
                                log_sp.eq(0),
                                f_len.eq(0),
                                self.white_attacks.eq(0),
                                self.black_attacks.eq(0),
                                self.potential_lead.eq(0),
                                self.position_key.eq(0),
                                *[total.eq(0) for total in shape_sums],
                            ]
                            step_ply(0, to_zero=1)
                            m.next = "CLEAR"
                        with m.Case(TrackOp.PLAY, TrackOp.PLY):
                            begin_turn(self.move.symbol, self.op == TrackOp.PLY)
                            with m.If((self.op == TrackOp.PLY) & (self.ply == self.plies)):
                                finish(Verdict.OVERFLOW)
                            with m.Elif(self.box.empty):
                                first_ok = (
                                    ~self.outside
                                    & (self.move.x == 0)
                                    & (self.move.y == 0)
                                    & (
                                        (self.move.symbol == Symbol.CROSS)
                                        | (self.move.symbol == Symbol.SLASH)
                                    )
                                )
                                with m.If(first_ok):
                                    issue(Const(0, cx), Const(0, ry))
                                    m.d.sync += [
                                        pend_x.eq(0),
                                        pend_y.eq(0),
                                        pend_w.eq(1),
                                        pend_h.eq(1),
                                    ]
                                    m.next = "MOVE"
                                with m.Else():
                                    finish(Verdict.FIRST_MOVE)
                            with m.Elif(self.outside):
                                finish(Verdict.NOT_ADJACENT)
                            with m.Else():
                                issue(self.move.x, self.move.y)
                                m.d.sync += [
                                    pend_x.eq(grown_x),
                                    pend_y.eq(grown_y),
                                    pend_w.eq(grown_w),
                                    pend_h.eq(grown_h),
                                ]
                                m.next = "MOVE"
                        with m.Case(TrackOp.UNDO, TrackOp.UNDO_NEXT):
                            with m.If(self.ply == 0):
                                finish(Verdict.LEGAL)
                            with m.Elif(top_known):
                                # The ply's last tile is the cell in hand: taken back now if
                                # the turn's end read it in the last clock, else read now.
                                begin_undo(last.log, last.frontier)
                                m.d.sync += then_next.eq(self.op == TrackOp.UNDO_NEXT)
                                m.d.sync += log_sp.eq(log_sp - 1)
                                # The log's next entry, as UNDO_TILE would read it.
                                m.d.comb += log_rd.addr.eq(log_sp - 2)
                                with m.If(prefetched & writes_done_now):
                                    take_back_tile()
                                    # The log's entry out is the one the turn's end read.
                                    chain_undo()
                                    if leaf_enabled:  # (its edges were read in this clock)
                                        keep_for_leaf(
                                            one_tile & (self.op == TrackOp.UNDO_NEXT), read=False
                                        )
                                with m.Else():
                                    read_cell_edges(qx, qy)
                                    m.next = "UNDO_TILE"
                            with m.Else():
                                # A ply placed a tile at least: its last one is read now.
                                begin_undo(last.log, last.frontier)
                                m.d.sync += then_next.eq(self.op == TrackOp.UNDO_NEXT)
                                m.d.comb += undo_read_now.eq(1)
                                m.d.sync += log_sp.eq(log_sp - 1)
                                m.next = "UNDO_READ"
                        with m.Case(TrackOp.CANDIDATE, TrackOp.NEXT):
                            m.d.sync += f_symbol.eq(self.cursor.symbol)
                            read_frontier(self.cursor.index, f_len)
                            with m.If(self.cursor.index >= f_len):
                                m.d.sync += self.found.eq(0)
                                finish(Verdict.LEGAL)
                            with m.Else():
                                m.next = "CAND_CELL"
                        with m.Case(TrackOp.COMPACT):
                            m.d.sync += f_out.eq(0)
                            read_frontier(0)
                            with m.If(f_len == 0):
                                finish(Verdict.LEGAL)
                            with m.Else():
                                m.next = "COMPACT_CELL"
                        with m.Default():
                            finish(Verdict.LEGAL)

            with m.State("CLEAR"):
                for bank in range(4):
                    m.d.comb += [
                        cell_wr[bank].en.eq(1),
                        cell_wr[bank].addr.eq(clear_addr),
                        cell_wr[bank].data.eq(0),
                    ]
                m.d.sync += clear_addr.eq(clear_addr + 1)
                with m.If(clear_addr == cell_depth - 1):
                    finish(Verdict.LEGAL)
                    m.next = "IDLE"

            with m.State("MOVE"):  # the move's own tile: the checks, then as a forced tile
                if cached:
                    read_cell_edges(c_x, c_y)  # the cached cell, in case NEXT goes on there
                may_go_on(f_len, self.ply)  # a refused move
                with m.If(self.box.empty):
                    place(move_tile)
                    m.next = "NEIGHBOURS"
                with m.Elif(record.tile != Tile.EMPTY):
                    refuse(Verdict.OCCUPIED)
                with m.Elif(record.known == 0):
                    refuse(Verdict.NOT_ADJACENT)
                with m.Elif(~(white_first | black_first)):
                    refuse(Verdict.MISMATCH)
                with m.Elif(too_big):
                    m.d.sync += self.overflow.eq(self.overflow | ~is_ply)  # the game's flag
                    refuse(Verdict.OVERFLOW)
                with m.Else():
                    place(move_tile)
                    m.next = "NEIGHBOURS"

            with m.State("FORCE"):  # a forced tile; also refill the stack's top register
                with m.If(~top_valid & (sp != 0)):
                    m.d.sync += [top.eq(stack_rd.data), top_valid.eq(1), sp.eq(sp - 1)]
                place(forced_tile)
                m.next = "NEIGHBOURS"

            with m.State("NEIGHBOURS"):
                m.d.comb += update_neighbours.eq(1)
                # The cell in hand is read again, for an UNDO right after the turn (unless the
                # next tile is read instead): whether the turn ends is not on the read's path.
                read_cell_edges(qx, qy)
                if new_cell is not None:
                    append(first_new, new_cell, second_new, new_cell_2)  # the first two, at once
                rest = newly_frontier & ~first_new & ~second_new
                m.d.sync += [
                    to_push.eq(newly_forced),
                    to_append.eq(rest),
                    dead.eq(dead | kills.any()),
                ]
                if not self.forced_via_stack:
                    m.d.sync += [from_x.eq(nq_x), from_y.eq(nq_y)]
                # A tile that forced nothing, killed nothing, left no forced cell waiting and made
                # at most two new frontier cells ends the turn now.
                clean = (
                    ~dead
                    & ~kills.any()
                    & ~newly_forced.any()
                    & ~top_valid
                    & (sp == 0)
                    & writes_done_next
                    & ~rest.any()
                )
                single_forced = newly_forced.any() & ((newly_forced & (newly_forced - 1)) == 0)
                with m.If(clean):
                    end_turn()
                with m.Elif(
                    ~dead
                    & ~kills.any()
                    & single_forced
                    & ~top_valid
                    & (sp == 0)
                    & writes_done_now
                    & (not self.forced_via_stack)
                ):
                    # One cell forced and nothing else waiting (the two appends left, if any, go
                    # in the next clock): it is the next tile, read now (beside the writes of
                    # this clock, which the reads see).
                    m.d.sync += to_push.eq(0)
                    issue(forced_cell.x, forced_cell.y)
                    m.next = "FORCE"
                with m.Else():
                    m.next = "NEXT"

            with m.State("NEXT"):  # drain the writes, pushes and appends, then the next tile
                read_cell_edges(qx, qy)  # as in NEIGHBOURS
                one_push = to_push.any() & ((to_push & (to_push - 1)) == 0)
                one_append = ~appends_left.any()  # the appends left are done now
                with m.If(
                    writes_done_now & ~dead & one_push & one_append & (not self.forced_via_stack)
                ):
                    # The stack would give back the one cell just pushed: take it at once.
                    m.d.comb += bypass.eq(1)
                    m.d.sync += to_push.eq(0)
                    issue(push_cell.x, push_cell.y)
                    m.next = "FORCE"
                with m.Elif(writes_done_next & ~to_push.any() & one_append & ~dead & ~top_valid):
                    end_turn()
                with m.Elif(writes_done_now & ~to_push.any() & one_append):  # appends: done now
                    with m.If(dead):
                        begin_undo(turn_mark, turn_f_mark)
                    with m.Elif(top_valid):
                        issue(top.x, top.y)
                        m.d.sync += top_valid.eq(0)
                        m.next = "FORCE"
                    with m.Else():
                        end_turn()

            # Taking back a turn or a ply: the last logged tile first.
            with m.State("UNDO"):
                with m.If(~writes_busy):
                    with m.If(log_sp == turn_mark):
                        end_undo()
                    with m.Else():
                        m.d.sync += log_sp.eq(log_sp - 1)
                        m.next = "UNDO_READ"
            with m.State("UNDO_READ"):  # the log's entry is out: read its cell and edges
                m.d.sync += [qx.eq(log_rd.data.x), qy.eq(log_rd.data.y)]
                read_cell_edges(log_rd.data.x, log_rd.data.y)
                m.next = "UNDO_TILE"
            with m.State("UNDO_TILE"):
                may_chain(log_sp, turn_mark)
                with m.If(writes_busy):  # the last tile's far ends are still being written
                    read_cell_edges(qx, qy)
                with m.Else():
                    take_back_tile()
                    chain_undo()
                    if many_tile_leaf:
                        keep_for_leaf((log_sp == turn_mark) & then_next)
            with m.State("UNDO_CHAIN"):  # the last tile's neighbours; the tile in hand's turn
                may_chain(log_sp, turn_mark)
                m.d.comb += update_neighbours.eq(1)
                with m.If(writes_done_now):
                    take_back_tile()
                    chain_undo()
                    if many_tile_leaf:
                        keep_for_leaf((log_sp == turn_mark) & then_next)
                with m.Else():  # the last tile's far ends take longer: read the tile again
                    read_cell_edges(qx, qy)
                    m.next = "UNDO_TILE"
            with m.State("UNDO_NEIGHBOURS"):
                m.d.comb += [update_neighbours.eq(1), leaf_state.eq(leaf_ready)]
                with m.If((log_sp == turn_mark) & writes_done_now):
                    end_undo()
                with m.Elif(log_sp == turn_mark):
                    m.next = "UNDO"
                with m.Else():
                    # The next tile to take back (the log's entry, read in UNDO_TILE) is read
                    # now, beside this tile's last writes: those go to empty cells and open track
                    # ends, never to an occupied cell or a closed edge, which is all it needs.
                    m.d.sync += [
                        log_sp.eq(log_sp - 1),
                        qx.eq(log_rd.data.x),
                        qy.eq(log_rd.data.y),
                    ]
                    if not self.plain_undo:  # (for UNDO_CHAIN)
                        m.d.comb += log_rd.addr.eq(log_sp - 2)  # the entry after it, ahead
                    read_cell_edges(log_rd.data.x, log_rd.data.y)
                    m.next = "UNDO_TILE"

            # CANDIDATE: entry f_index of the frontier list is out: read its cell.
            with m.State("CAND_CELL"):
                entry = read_listed_cell()
                if fit_enabled:
                    read_cell_edges(entry.x, entry.y)
                    m.d.comb += [move_x.eq(entry.x), move_y.eq(entry.y)]  # (its box)
                    hold_listed(entry.x, entry.y)
                m.next = "CAND_FIT"
            with m.State("CAND_FIT"):  # its record is out: the first fitting symbol, if any
                if fit_enabled:
                    m.d.comb += fit_state.eq(1)
                read_cell_edges(fx, fy)  # in case it is played
                if cached:
                    m.d.sync += [
                        c_valid.eq(1),
                        c_level.eq(self.ply),
                        c_index.eq(f_index),
                        c_x.eq(fx),
                        c_y.eq(fy),
                        c_fits.eq(f_fits),
                    ]
                m.d.comb += fit.eq(1)
                if ahead_enabled:  # the entry after this one, for the next-entry step
                    ahead_place = listed(f_index + 1, f_len)
                    for bank in range(front_banks):
                        m.d.comb += front_rd[bank].addr.eq(front_place(ahead_place)[1])
                    m.d.sync += [a_load.eq(1), a_odd.eq(ahead_place[0])]
                follow()

            # COMPACT: keep the open cells, in order.
            with m.State("COMPACT_CELL"):
                read_listed_cell()
                m.next = "COMPACT_KEEP"
            with m.State("COMPACT_KEEP"):
                with m.If(f_open):
                    write_frontier(f_out, Cat(fx, fy))
                    m.d.sync += f_out.eq(f_out + 1)
                with m.If(f_index + 1 >= f_len):
                    m.d.sync += f_len.eq(f_out + f_open)
                    finish(Verdict.LEGAL)
                    m.next = "IDLE"
                with m.Else():
                    read_frontier(f_index + 1)
                    m.next = "COMPACT_CELL"

        # --- the shared logic of the states (see ``next_candidate`` and ``chain_undo``) --------
        with m.If(chain_go & ~fsm.ongoing("IDLE")):  # (IDLE read them already)
            read_cell_edges(nxt.x, nxt.y)
        with m.If(chain_go):
            m.d.sync += [qx.eq(nxt.x), qy.eq(nxt.y), log_sp.eq(chain_index - 1)]
            m.d.comb += log_rd.addr.eq(chain_index - 2)  # the one after it, ahead

        def symbols_left(name, x, y, fits, first):
            """The symbols of ``fits`` (a mask) from ``first`` on at cell ``x, y``, the
            search's skipped move passed over: the ones NEXT may still try there."""
            left = Signal(3, name=name)
            skip_here = n_skip_valid & (x == n_skip.x) & (y == n_skip.y)
            for s in range(3):
                passed = skip_here & (n_skip.symbol.as_value() == s)
                m.d.comb += left[s].eq(fits[s] & (first.as_value() <= s) & ~passed)
            return left

        m.d.comb += go_to.eq(_GO_CELL)
        # NEXT going on: at the cached cell (the next symbol after a leaf), or at the listed
        # entry, which is read now whatever is decided (the entry after the cached cell's, or
        # the cursor's own).
        in_fit = fsm.ongoing("CAND_FIT")
        cache_match = c_valid & (c_level == resume_level) & (n_cursor.index == c_index)
        if not cached:
            cache_match = Const(0, 1)
        resume_entry = Signal.like(f_len)
        m.d.comb += resume_entry.eq(Mux(cache_match, n_cursor.index + 1, n_cursor.index))
        # The next-entry step: after a take-back, NEXT goes on at the entry after the cached
        # one (the cursor is past the cached cell, or none of its fitting symbols is left), whose
        # cell was kept: its record is read now (from registers alone), for CAND_FIT.
        ahead = Const(0, 1)
        if ahead_enabled:
            ahead = Signal()
            # (a symbol of the cached cell left from the cursor's on?)
            cached_left = symbols_left("cached_left", c_x, c_y, c_fits, n_cursor.symbol).any()
            past = (n_cursor.index == c_index + 1) | ((n_cursor.index == c_index) & ~cached_left)
            m.d.comb += ahead.eq(
                resume_undone
                & c_valid
                & (c_level == resume_level)
                & past
                & (c_index + 1 < resume_limit)
            )
            with m.If(ahead):
                for bank in range(4):
                    m.d.comb += cell_rd[bank].addr.eq(cell_address(a_x, a_y, c))
                if fit_enabled:  # and its edges, for the fit step
                    read_cell_edges(a_x, a_y)
        resume_place = listed(resume_entry, resume_limit)
        with m.If(going_on):
            for bank in range(front_banks):
                m.d.comb += front_rd[bank].addr.eq(front_place(resume_place)[1])
        with m.If(resume):
            m.d.sync += [
                f_symbol.eq(Mux(cache_match, 0, n_cursor.symbol)),
                f_index.eq(resume_entry),
                f_odd.eq(resume_place[0]),
                stepping.eq(1),
                then_next.eq(0),
            ]
            with m.If(n_cursor.index >= resume_limit):
                m.d.sync += self.found.eq(0)
                finish(Verdict.LEGAL)
                m.d.comb += go_to.eq(_GO_IDLE)
            with m.Elif(cache_match):
                m.d.comb += fit.eq(1)
            if ahead_enabled:
                with m.If(ahead):
                    m.d.sync += [fx.eq(a_x), fy.eq(a_y)]
                    if fit_enabled:
                        hold_listed(a_x, a_y)
        with m.If(going_on & resume_restored & cached):
            m.d.comb += [
                base_x.eq(last.box_x),
                base_y.eq(last.box_y),
                base_w.eq(last.box_w),
                base_h.eq(last.box_h),
            ]
        # The listed cell looked at: CAND_FIT's (just read), else the cached one (only CAND_FIT
        # looks at one without the cache).
        from_fit = in_fit if cached else Const(1, 1)
        fit_x, fit_y = Signal(cx), Signal(ry)
        fit_fits = Signal(3)  # the symbols that fit it,
        fit_index = Signal.like(f_len)  # its entry,
        fit_first = Signal(Symbol)  # the first symbol to try,
        fit_limit = Signal.like(f_len)  # the frontier's length after this clock,
        fit_level = Signal.like(self.ply)  # the board's ply after it
        m.d.comb += [
            fit_x.eq(Mux(from_fit, fx, c_x)),
            fit_y.eq(Mux(from_fit, fy, c_y)),
            fit_fits.eq(Mux(from_fit, f_fits, c_fits)),
            fit_index.eq(Mux(from_fit, f_index, n_cursor.index)),
            fit_first.eq(Mux(from_fit, f_symbol, n_cursor.symbol)),
            fit_limit.eq(Mux(from_fit, f_len, resume_limit)),
            fit_level.eq(Mux(from_fit, self.ply, resume_level)),
        ]
        with m.If(in_fit | (going_on & cached)):  # the box it would grow (``pend``, if played)
            m.d.comb += [move_x.eq(fit_x), move_y.eq(fit_y)]
        if fit_enabled and ahead_enabled:
            with m.If(ahead):  # (then no symbol of the cached cell is played: the entry's box)
                m.d.comb += [move_x.eq(a_x), move_y.eq(a_y)]
        # The first symbol that fits it from ``fit_first`` on (with the leaf step, made whatever
        # is decided: the step places it in the clock the search's ``proceed`` settles).
        hit = Signal(Symbol)
        any_hit = Signal()

        fit_left = symbols_left("fit_left", fit_x, fit_y, fit_fits, fit_first)

        def first_hit():
            for s in reversed(range(3)):
                with m.If(fit_left[s]):
                    m.d.comb += [hit.eq(s), any_hit.eq(1)]

        if leaf_enabled:
            first_hit()
            m.d.comb += leaf_symbol.eq(hit)
        with m.If(fit):
            if not leaf_enabled:
                first_hit()
            with m.If(any_hit):
                last_symbol = hit == Symbol.BACKSLASH
                after = Signal(cursor_layout(c, r))
                m.d.comb += [
                    after.index.eq(fit_index + last_symbol),
                    after.symbol.eq(Mux(last_symbol, 0, hit.as_value() + 1)),
                ]
                m.d.sync += [
                    self.found.eq(1),
                    self.cand.x.eq(fit_x),
                    self.cand.y.eq(fit_y),
                    self.cand.symbol.eq(hit),
                    self.next_cursor.eq(after),
                    n_cursor.eq(after),
                ]
                with m.If(n_play & (fit_level == self.plies)):  # no room for a ply
                    m.d.sync += self.found.eq(0)
                    finish(Verdict.OVERFLOW)
                    m.d.comb += go_to.eq(_GO_IDLE)
                with m.Elif(n_play):
                    # NEXT: play it as a PLY (an illegal turn goes on at ``after``).
                    begin_turn(hit, 1, fit_limit)
                    m.d.sync += [
                        top_known.eq(0),
                        dead.eq(0),
                        pend_x.eq(grown_x),
                        pend_y.eq(grown_y),
                        pend_w.eq(grown_w),
                        pend_h.eq(grown_h),
                    ]
                    # Its cell and edges were read in this clock by the state, whatever the
                    # decision (which may wait for the search's ``proceed``).
                    m.d.sync += [qx.eq(fit_x), qy.eq(fit_y)]
                    m.d.comb += go_to.eq(_GO_MOVE)
                    if leaf_enabled:
                        with m.If(leaf_state):  # the leaf step: the tile is placed now
                            m.d.comb += go_to.eq(_GO_PLACE)
                    if fit_enabled:
                        # The fit step: the listed cell is the cell in hand, its edges out, its
                        # box the turn's (``hold_listed``): placed now, unless MOVE refuses it.
                        with m.If(in_fit & ~too_big):
                            m.d.comb += go_to.eq(_GO_PLACE)
                with m.Else():
                    finish(Verdict.LEGAL)
                    m.d.comb += go_to.eq(_GO_IDLE)
            with m.Elif(fit_index + 1 >= fit_limit):
                m.d.sync += self.found.eq(0)
                finish(Verdict.LEGAL)
                m.d.comb += go_to.eq(_GO_IDLE)
            with m.Elif(in_fit):  # the next entry (NEXT going on read it already)
                m.d.sync += f_symbol.eq(0)
                read_frontier(fit_index + 1, fit_limit)
        if ahead_enabled:
            with m.If(resume & ahead):  # (the cached cell's symbols are all tried: no hit)
                m.d.comb += go_to.eq(_GO_FIT)

        # The leaf step: the next symbol of the one-tile ply just taken back goes at the same
        # cell in this clock, as MOVE would place it (the checks MOVE makes held for the tile
        # taken back, in the same box and the same record). Its ply's mark is the one already
        # written (the same position); the neighbours' update of the take-back is the new
        # tile's in NEIGHBOURS (``before_known``).
        # The fit step places the tile the same way in CAND_FIT, and writes the ply's mark: the
        # log and the frontier list as they are (the turn begins in this clock), and the box.
        if leaf_enabled:
            with m.If(go_to == _GO_PLACE):
                m.d.comb += update_neighbours.eq(0)
                place(move_tile, first=True)
                if fit_enabled:
                    with m.If(in_fit):
                        write_mark(1, log_sp, f_len)
        return m
