"""The position: tiles on an unbounded board, turns with forced play, wins, and legal moves.

This is the ground truth of the project: the gateware, the search and the host client are all
checked against it. Cells are ``(x, y)`` with x growing east and y growing south; the first tile
sits at ``(0, 0)``. The board is a dict, so it has no edge.

The position also keeps the *open tracks*: every track with two open ends, as a map from each
end to the other (an end is ``(x, y, d)``: the tile and the side the track leaves it by, into an
empty cell). ``play()`` joins a turn's tiles into it and ``pop()`` takes them out, a few entries a
tile, as the gateware's track-end table does; the evaluations read it rather than walking every
track (:func:`.evaluate.track_ends` walks them, and a test compares the two).
"""

from __future__ import annotations

import dataclasses
import enum
from collections.abc import Iterable, Iterator

from .errors import IllegalMoveError, TraxError
from .notation import Move
from .tiles import EAST, NORTH, SOUTH, STEP, WEST, Colour, Symbol, Tile

__all__ = [
    "Box",
    "Constraint",
    "End",
    "Outcome",
    "Position",
    "Turn",
    "Variant",
]


class Variant(enum.Enum):
    """Unlimited Trax (tournaments, contests) or the limited 8x8 game with its draw."""

    UNLIMITED = "unlimited"
    LIMITED_8X8 = "8x8"


LIMIT_8X8 = 8
LINE_SPAN = 8  # a line needs a box at least this many tiles across

#: An open end of a track: the tile's cell and the side the track leaves it by.
End = tuple[int, int, int]


@dataclasses.dataclass(frozen=True, slots=True)
class Box:
    """The bounding box of the tiles in play, inclusive."""

    min_x: int
    min_y: int
    max_x: int
    max_y: int

    @property
    def width(self) -> int:
        return self.max_x - self.min_x + 1

    @property
    def height(self) -> int:
        return self.max_y - self.min_y + 1


@dataclasses.dataclass(frozen=True, slots=True)
class Outcome:
    """How a game ended: ``winner`` is None for a draw; ``reason`` is 'loop', 'line' or 'draw'."""

    winner: Colour | None
    reason: str

    def __str__(self) -> str:
        if self.winner is None:
            return "draw"
        return f"{self.winner.word}-{self.reason}"


@dataclasses.dataclass(frozen=True, slots=True)
class Turn:
    """What one move did: the tile played, then the forced tiles in the order they were filled."""

    move: Move
    mover: Colour
    placed: tuple[tuple[tuple[int, int], Tile], ...]
    outcome: Outcome | None

    @property
    def forced(self) -> tuple[tuple[tuple[int, int], Tile], ...]:
        return self.placed[1:]


@dataclasses.dataclass(frozen=True, slots=True)
class Constraint:
    """What the neighbours of an empty cell demand: edges with a neighbour, and which are white."""

    known: int
    white: int

    @property
    def fitting(self) -> frozenset[Tile]:
        """The placed tiles that match every neighbour (empty when the cell is dead)."""
        return frozenset(FITTING[self.known][self.white])

    @property
    def forced(self) -> Tile | None:
        code = FORCED[self.known][self.white]
        return None if code in (0, DEAD) else Tile(code)

    @property
    def dead(self) -> bool:
        """Three or more edges of one colour enter the cell: no tile can ever go there."""
        return FORCED[self.known][self.white] == DEAD


# --- Tables over (known, white) edge masks, shared in spirit with hdl/cell_rules.py -----------

DEAD = -1


def _forced_code(known: int, white: int) -> int:
    whites = bin(white).count("1")
    blacks = bin(known & ~white).count("1")
    if whites >= 3 or blacks >= 3:
        return DEAD
    if whites == 2:
        return white
    if blacks == 2:
        return (known & ~white) ^ 0b1111
    return 0


FORCED = [[_forced_code(k, w) if w & ~k == 0 else 0 for w in range(16)] for k in range(16)]
FITTING = [
    [tuple(t for t in Tile if (t & k) == w) if w & ~k == 0 else () for w in range(16)]
    for k in range(16)
]
_FIT_SYMBOL = [
    [
        {s: next((t for t in s.variants if (t & k) == w), None) for s in Symbol}
        if w & ~k == 0
        else {}
        for w in range(16)
    ]
    for k in range(16)
]
_EXIT = {t: tuple(t.exit(d) for d in range(4)) for t in Tile}
_COLOURS = (Colour.BLACK, Colour.WHITE)
#: The two tracks of a tile, each as the pair of sides it joins.
_TRACKS = {t: ((0, t.exit(0)), tuple(d for d in range(1, 4) if d != t.exit(0))) for t in Tile}
_SYMBOL_ORDER = (Symbol.CROSS, Symbol.SLASH, Symbol.BACKSLASH)
_FIRST_MOVES = (Move(0, 0, Symbol.CROSS), Move(0, 0, Symbol.SLASH))


class Position:
    """A Trax position with move history; mutable, in the style of ``chess.Board``.

    ``play()`` applies a move with all its forced plays and raises :class:`IllegalMoveError`
    (leaving the position unchanged) when the rules forbid it; ``pop()`` takes the last move back.
    """

    def __init__(self, variant: Variant = Variant.UNLIMITED) -> None:
        self.variant = variant
        self.tiles: dict[tuple[int, int], Tile] = {}
        self.box: Box | None = None
        self.outcome: Outcome | None = None
        self.turns: list[Turn] = []
        self.first_mover = Colour.WHITE
        #: Each open end's partner: the other end of its track.
        self._ends: dict[End, End] = {}
        #: Per turn: the box and outcome before it, and what it changed in ``_ends``.
        self._undo: list[tuple[Box | None, Outcome | None, list]] = []

    # --- construction ------------------------------------------------------------------------

    @classmethod
    def from_moves(
        cls, moves: Iterable[str | Move], variant: Variant = Variant.UNLIMITED
    ) -> Position:
        """The position after ``moves`` (notation strings or :class:`Move`)."""
        position = cls(variant)
        for move in moves:
            position.play(move)
        return position

    @classmethod
    def from_tiles(
        cls,
        tiles: dict[tuple[int, int], Tile],
        turn: Colour = Colour.WHITE,
        variant: Variant = Variant.UNLIMITED,
    ) -> Position:
        """A position set up from its tiles (e.g. a diagram), with ``turn`` to move.

        Raises :class:`TraxError` unless the tiles form a position a game could reach: one
        connected group whose edges all match, with no forced or dead cell left.
        """
        position = cls(variant)
        position.first_mover = turn
        if not tiles:
            return position
        position.tiles = {cell: Tile(tile) for cell, tile in tiles.items()}
        xs = [x for x, _ in tiles]
        ys = [y for _, y in tiles]
        position.box = Box(min(xs), min(ys), max(xs), max(ys))
        for (x, y), tile in position.tiles.items():
            known, white = position._constraint(x, y)
            if (tile & known) != white:
                raise TraxError(f"the tile at {position._cell_name((x, y))} mismatches a neighbour")
        for cell in position.frontier():
            known, white = position._constraint(*cell)
            if FORCED[known][white]:
                raise TraxError(f"cell {position._cell_name(cell)} is forced but empty")
        start = next(iter(position.tiles))
        reached, todo = {start}, [start]
        while todo:
            x, y = todo.pop()
            for dx, dy in STEP:
                n = (x + dx, y + dy)
                if n in position.tiles and n not in reached:
                    reached.add(n)
                    todo.append(n)
        if len(reached) != len(position.tiles):
            raise TraxError("the tiles are not one connected group")
        position._link(list(position.tiles))
        return position

    def copy(self) -> Position:
        other = Position(self.variant)
        other.first_mover = self.first_mover
        other.tiles = dict(self.tiles)
        other.box = self.box
        other.outcome = self.outcome
        other.turns = list(self.turns)
        other._undo = list(self._undo)
        other._ends = dict(self._ends)
        return other

    # --- queries -----------------------------------------------------------------------------

    @property
    def turn(self) -> Colour:
        """The colour to move: white makes the first move of a game."""
        return self.first_mover if len(self.turns) % 2 == 0 else self.first_mover.other

    @property
    def ply(self) -> int:
        return len(self.turns)

    @property
    def is_over(self) -> bool:
        return self.outcome is not None

    def cell_of(self, move: Move) -> tuple[int, int]:
        """The board cell a move names, relative to the current box."""
        if self.box is None:
            return (move.column, move.row)
        return (self.box.min_x - 1 + move.column, self.box.min_y - 1 + move.row)

    def move_at(self, cell: tuple[int, int], symbol: Symbol) -> Move:
        """The notation of playing ``symbol`` at ``cell`` (which may be outside the box)."""
        if self.box is None:
            return Move(cell[0], cell[1], symbol)
        return Move(cell[0] - self.box.min_x + 1, cell[1] - self.box.min_y + 1, symbol)

    def constraint(self, cell: tuple[int, int]) -> Constraint:
        """The edge colours the neighbours of ``cell`` present to it."""
        return Constraint(*self._constraint(*cell))

    def frontier(self) -> list[tuple[int, int]]:
        """Empty cells sharing an edge with a tile, in row-major order (y, then x)."""
        tiles = self.tiles
        cells = set()
        for x, y in tiles:
            for dx, dy in STEP:
                c = (x + dx, y + dy)
                if c not in tiles:
                    cells.add(c)
        return sorted(cells, key=lambda c: (c[1], c[0]))

    # --- playing -----------------------------------------------------------------------------

    def play(self, move: str | Move) -> Turn:
        """Apply ``move`` with its forced plays; raise :class:`IllegalMoveError` if forbidden."""
        if isinstance(move, str):
            move = Move.parse(move)
        if self.outcome is not None:
            raise IllegalMoveError(move, f"the game is over ({self.outcome})")
        if self.box is None:
            if move not in _FIRST_MOVES:
                raise IllegalMoveError(move, "first move must be @0+ or @0/")
            x, y = 0, 0
            self.tiles[(x, y)] = move.symbol.variants[0]  # white N-S or N-W: black to the east
            result = [(x, y)]
        else:
            x, y = self.cell_of(move)
            result = self._apply(x, y, move.symbol)
        if isinstance(result, str):
            raise IllegalMoveError(move, result)
        mover = self.turn
        changes, loops = self._link(result)
        self._undo.append((self.box, self.outcome, changes))
        self.box = _grow(self.box, x, y)
        outcome = self._judge(changes, loops, mover)
        placed = tuple((c, self.tiles[c]) for c in result)
        turn = Turn(move, mover, placed, outcome)
        self.turns.append(turn)
        self.outcome = outcome
        if outcome is None and self.variant is Variant.LIMITED_8X8 and not self.legal_moves():
            self.outcome = Outcome(None, "draw")
            self.turns[-1] = dataclasses.replace(turn, outcome=self.outcome)
        return self.turns[-1]

    def pop(self) -> Turn:
        """Take back the last move."""
        turn = self.turns.pop()
        self.box, self.outcome, changes = self._undo.pop()
        ends = self._ends
        for end, partner in reversed(changes):
            if partner is None:
                del ends[end]
            else:
                ends[end] = partner
        for cell, _tile in turn.placed:
            del self.tiles[cell]
        return turn

    def open_tracks(self) -> Iterator[tuple[End, End]]:
        """Every track with two open ends, once, as its two ends (the lesser first)."""
        for end, partner in self._ends.items():
            if end < partner:
                yield end, partner

    def is_legal(self, move: str | Move) -> bool:
        if isinstance(move, str):
            move = Move.parse(move)
        if self.outcome is not None:
            return False
        if self.box is None:
            return move in _FIRST_MOVES
        x, y = self.cell_of(move)
        result = self._apply(x, y, move.symbol)
        if isinstance(result, str):
            return False
        self._remove(result)
        return True

    def legal_moves(self) -> list[Move]:
        """Every legal move, aliases included, in row-major cell order then ``+ / \\``."""
        if self.outcome is not None:
            return []
        if self.box is None:
            return list(_FIRST_MOVES)
        moves = []
        for cell in self.frontier():
            for symbol in self._legal_symbols(*cell):
                moves.append(self.move_at(cell, symbol))
        return moves

    def count_legal_moves(self) -> int:
        if self.outcome is not None:
            return 0
        if self.box is None:
            return len(_FIRST_MOVES)
        return sum(len(self._legal_symbols(*cell)) for cell in self.frontier())

    def forced_rounds(
        self, move: str | Move
    ) -> tuple[list[list[tuple[tuple[int, int], Tile]]], str | None]:
        """The turn as the gateware computes it: the placed tile, then all forced cells at once.

        Returns ``(rounds, reason)``: ``rounds[0]`` is the played tile, ``rounds[k]`` the cells
        forced in round k (row-major order), and ``reason`` is None for a legal turn or why it
        is illegal (the last round is then the one that failed). The position is not changed.
        """
        if isinstance(move, str):
            move = Move.parse(move)
        if self.box is None or self.outcome is not None:
            legal = self.is_legal(move)
            tile = move.symbol.variants[0]
            return ([[((0, 0), tile)]] if legal else []), (None if legal else "not a legal move")
        x, y = self.cell_of(move)
        result = self._apply(x, y, move.symbol)
        if isinstance(result, str) and not result.startswith("three"):
            return [], result
        if not isinstance(result, str):
            self._remove(result)
        tile = _FIT_SYMBOL[self._constraint(x, y)[0]][self._constraint(x, y)[1]][move.symbol]
        tiles = self.tiles
        tiles[(x, y)] = tile
        rounds = [[((x, y), tile)]]
        added = [(x, y)]
        reason = None
        while True:
            todo = sorted(
                {
                    (cx + dx, cy + dy)
                    for cx, cy in (cell for cell, _ in rounds[-1])
                    for dx, dy in STEP
                    if (cx + dx, cy + dy) not in tiles
                },
                key=lambda c: (c[1], c[0]),
            )
            codes = [(cell, FORCED[k][w]) for cell in todo for k, w in [self._constraint(*cell)]]
            dead = [cell for cell, code in codes if code == DEAD]
            fresh = [(cell, Tile(code)) for cell, code in codes if code not in (0, DEAD)]
            if dead:
                reason = f"three same-colour tracks would meet at {self._cell_name(dead[0])}"
                rounds.append(fresh)
                break
            if not fresh:
                break
            for cell, t in fresh:
                tiles[cell] = t
                added.append(cell)
            rounds.append(fresh)
            clash = next(
                (
                    cell
                    for cell, t in fresh
                    if (t & self._constraint(*cell)[0]) != self._constraint(*cell)[1]
                ),
                None,
            )
            if clash is not None:
                reason = f"two forced tiles disagree next to {self._cell_name(clash)}"
                break
        self._remove(added)
        return rounds, reason

    def perft(self, depth: int) -> int:
        """The number of legal move sequences of length ``depth`` (a won game has no children)."""
        if depth <= 0:
            return 1
        if depth == 1:
            return self.count_legal_moves()
        total = 0
        for move in self.legal_moves():
            self.play(move)
            total += self.perft(depth - 1)
            self.pop()
        return total

    # --- internals ---------------------------------------------------------------------------

    def _constraint(self, x: int, y: int) -> tuple[int, int]:
        tiles = self.tiles
        known = white = 0
        t = tiles.get((x, y - 1))
        if t is not None:
            known |= 1
            white |= (t >> 2) & 1
        t = tiles.get((x + 1, y))
        if t is not None:
            known |= 2
            white |= ((t >> 3) & 1) << 1
        t = tiles.get((x, y + 1))
        if t is not None:
            known |= 4
            white |= (t << 2) & 4
        t = tiles.get((x - 1, y))
        if t is not None:
            known |= 8
            white |= (t << 2) & 8
        return known, white

    def _legal_symbols(self, x: int, y: int) -> list[Symbol]:
        known, white = self._constraint(x, y)
        fits = _FIT_SYMBOL[known][white]
        symbols = []
        for symbol in _SYMBOL_ORDER:
            if fits.get(symbol) is None:
                continue
            result = self._apply(x, y, symbol)
            if not isinstance(result, str):
                self._remove(result)
                symbols.append(symbol)
        return symbols

    def _cell_name(self, cell: tuple[int, int]) -> str:
        """A cell in the notation's terms (column and row relative to the box before the move)."""
        move = self.move_at(cell, Symbol.CROSS)
        return str(move)[:-1]

    def _link(self, cells: list[tuple[int, int]]) -> tuple[list[tuple[End, End | None]], set]:
        """Join the tracks of ``cells``, tiles just placed (in any order), into the open-end map.
        Returns the changes made, as ``(end, partner before or None)`` (for :meth:`pop` and the
        judgement), and the colours of the loops the tiles closed."""
        tiles, ends = self.tiles, self._ends
        changes: list[tuple[End, End | None]] = []
        loops = set()
        pending = set(cells)
        for cell in cells:
            pending.discard(cell)
            x, y = cell
            for sides in _TRACKS[tiles[cell]]:
                far, joined = [], []
                for side in sides:
                    dx, dy = STEP[side]
                    n = (x + dx, y + dy)
                    if n in tiles and n not in pending:  # the track goes on into n
                        end = (n[0], n[1], side ^ 2)
                        partner = ends.pop(end)
                        changes.append((end, partner))
                        joined.append(end)
                        far.append(partner)
                    else:
                        far.append((x, y, side))
                first, second = far
                if first in joined:  # the track's two ends met: a loop (the game is over)
                    loops.add(_COLOURS[(tiles[cell] >> sides[0]) & 1])
                    continue
                changes.append((first, ends.get(first)))
                changes.append((second, ends.get(second)))
                ends[first] = second
                ends[second] = first
        return changes, loops

    def _remove(self, cells: list[tuple[int, int]]) -> None:
        for cell in cells:
            del self.tiles[cell]

    def _apply(self, x: int, y: int, symbol: Symbol) -> list[tuple[int, int]] | str:
        """Place a tile and fill forced cells; return the filled cells, or why it is illegal.

        On an illegal move the board is left as it was. The box is not updated here.
        """
        tiles = self.tiles
        if (x, y) in tiles:
            return "cell occupied"
        known, white = self._constraint(x, y)
        if not known:
            return "not adjacent to any tile"
        tile = _FIT_SYMBOL[known][white][symbol]
        if tile is None:
            return "colours do not match"
        if self.variant is Variant.LIMITED_8X8:
            box = _grow(self.box, x, y)
            if box.width > LIMIT_8X8 or box.height > LIMIT_8X8:
                return "outside the 8x8 area"
        tiles[(x, y)] = tile
        placed = [(x, y)]
        i = 0
        while i < len(placed):
            cx, cy = placed[i]
            i += 1
            for dx, dy in STEP:
                n = (cx + dx, cy + dy)
                if n in tiles:
                    continue
                k, w = self._constraint(*n)
                code = FORCED[k][w]
                if code == 0:
                    continue
                if code == DEAD:
                    self._remove(placed)
                    return f"three same-colour tracks would meet at {self._cell_name(n)}"
                tiles[n] = Tile(code)
                placed.append(n)
        return placed

    def _judge(self, changes: list, loops: set, mover: Colour) -> Outcome | None:
        """Loops and lines completed by a turn, from what it changed in the open-end map (only
        tracks through its tiles can be new): ``loops``, the colours of the loops it closed, and
        the open tracks it made or extended, whose ends it set last (a line when they lie on
        opposite sides of the box, at least 8 across)."""
        completed = dict.fromkeys(loops, "loop")
        ends, tiles = self._ends, self.tiles
        line_fits = self.box.width >= LINE_SPAN or self.box.height >= LINE_SPAN
        for end, _before in changes if line_fits else ():
            partner = ends.get(end)
            if partner is None or end > partner:  # taken up again, or the pair's other entry
                continue
            colour = _COLOURS[(tiles[end[:2]] >> end[2]) & 1]
            if colour not in completed and self._is_line([end, partner]):
                completed[colour] = "line"
        if mover in completed:
            return Outcome(mover, completed[mover])
        if mover.other in completed:
            return Outcome(mover.other, completed[mover.other])
        return None

    def _track(self, cell: tuple[int, int], colour: Colour, seen: set) -> str | None:
        """Follow the ``colour`` track through ``cell``: 'loop', 'line' or None (the walk the
        tests judge a turn by, against :meth:`_judge`)."""
        tiles = self.tiles
        tile = tiles[cell]
        bit = 1 if colour is Colour.WHITE else 0
        starts = [d for d in range(4) if ((tile >> d) & 1) == bit]
        ends = []
        seen.add(cell)
        for start in starts:
            (x, y), d = cell, start
            while True:
                dx, dy = STEP[d]
                nxt = (x + dx, y + dy)
                t = tiles.get(nxt)
                if t is None:
                    ends.append((x, y, d))
                    break
                if nxt == cell:
                    return "loop"
                seen.add(nxt)
                d = _EXIT[t][d ^ 2]
                x, y = nxt
        return "line" if self._is_line(ends) else None

    def _is_line(self, ends: list[tuple[int, int, int]]) -> bool:
        box = self.box
        (x1, y1, d1), (x2, y2, d2) = ends
        if box.width >= LINE_SPAN and {d1, d2} == {WEST, EAST}:
            west, east = (x1, x2) if d1 == WEST else (x2, x1)
            if west == box.min_x and east == box.max_x:
                return True
        if box.height >= LINE_SPAN and {d1, d2} == {NORTH, SOUTH}:
            north, south = (y1, y2) if d1 == NORTH else (y2, y1)
            if north == box.min_y and south == box.max_y:
                return True
        return False

    def __iter__(self) -> Iterator[tuple[tuple[int, int], Tile]]:
        return iter(self.tiles.items())

    def __repr__(self) -> str:
        moves = " ".join(str(t.move) for t in self.turns)
        return f"Position.from_moves({moves.split()!r})"


def _grow(box: Box | None, x: int, y: int) -> Box:
    if box is None:
        return Box(x, y, x, y)
    if box.min_x <= x <= box.max_x and box.min_y <= y <= box.max_y:
        return box
    return Box(min(box.min_x, x), min(box.min_y, y), max(box.max_x, x), max(box.max_y, y))
