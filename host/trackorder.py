"""The order in which the block-RAM board (``hdl/track_board.py``) places tiles and lists moves.

The gateware's candidate order is not a window order: it is the order of its *frontier list*,
the empty cells next to a tile in the order they became so. This module is the software model
of that list, so that a search's model can try the candidates in the gateware's order, and a
test can compare the two value by value.

Specification
-------------
*Tile order.* A turn places the move's tile, then the forced tiles, one at a time, from a stack:
after each tile, its neighbours across its sides N, E, S, W that were empty and have just become
forced (two edges of one colour now enter them, and none did before) are pushed in that order;
the next tile is the top of the stack (the last pushed).

*Frontier list.* After each tile, its empty neighbours that had no tile beside them before are
appended, in the order N, E, S, W. Taking back a ply (or an illegal turn) drops what it
appended. Cells filled later stay in the list (they are skipped) until :meth:`compact` drops
them, keeping the order.

*Candidates* are read in list order, and at each cell the symbols ``+ / \\`` one of whose two
colour variants fits the cell's neighbours.
"""

from __future__ import annotations

from collections.abc import Iterator

from .position import Position
from .tiles import STEP, Symbol

__all__ = ["TrackOrder"]

SYMBOLS = list(Symbol)


class TrackOrder:
    """A position (:attr:`position`) with the gateware's frontier list beside it.

    Play and take back moves through :meth:`play` and :meth:`pop` (not on the position itself),
    so that the list follows. ``position`` may hold a game already: its moves are replayed.
    """

    def __init__(self, position: Position | None = None) -> None:
        self.position = Position()
        self.frontier: list[tuple[int, int]] = []
        self._marks: list[int] = []
        if position is not None:
            for turn in position.turns:
                self.play(turn.move)
            self._marks.clear()

    # --- turns -------------------------------------------------------------------------------

    def play(self, move):
        """Play ``move`` (raises ``IllegalMoveError`` as the position does, changing nothing);
        the position's :class:`~.position.Turn`."""
        turn = self.position.play(move)
        self._marks.append(len(self.frontier))
        self._follow(turn)
        return turn

    def pop(self):
        """Take back the last move played here."""
        del self.frontier[self._marks.pop() :]
        return self.position.pop()

    def compact(self) -> None:
        """Drop the filled cells from the list, keeping the order (at a search's root)."""
        tiles = self.position.tiles
        self.frontier = [cell for cell in self.frontier if cell not in tiles]

    def _follow(self, turn) -> None:
        """The gateware's tile order for ``turn``, appending to the list as it goes."""
        tiles = self.position.tiles  # (after the turn: its tiles not yet reached are waiting)
        waiting = {cell for cell, _tile in turn.placed}
        stack = [turn.placed[0][0]]
        while stack:
            cell = stack.pop()
            waiting.discard(cell)
            x, y = cell
            pushes = []
            for d, (dx, dy) in enumerate(STEP):
                n = (x + dx, y + dy)
                if n in tiles and n not in waiting:
                    continue
                known, white = _sides(tiles, n, waiting)
                facing = ~(1 << (d ^ 2))  # n's side toward cell: what it had before cell
                if not known & facing:
                    self.frontier.append(n)
                if _forced(known, white) and not _forced(known & facing, white & facing):
                    pushes.append(n)
            stack.extend(pushes)

    # --- candidates ----------------------------------------------------------------------------

    def candidates(self, newest: bool = False) -> Iterator[tuple[int, tuple[int, int], Symbol]]:
        """``(list index, cell, symbol)`` in the gateware's candidate order; with ``newest``
        (research) from the list's newest cell to its oldest."""
        position = self.position
        tiles = position.tiles
        cells = list(enumerate(self.frontier))
        for index, cell in reversed(cells) if newest else cells:
            if cell in tiles:
                continue
            fitting = position.constraint(cell).fitting
            for symbol in SYMBOLS:
                if any(v in fitting for v in symbol.variants):
                    yield index, cell, symbol


def _sides(tiles: dict, cell: tuple[int, int], waiting: set) -> tuple[int, int]:
    """(known, white): the masks of the sides of ``cell`` that have a tile, and that show white
    (ignoring the tiles ``waiting`` to be placed)."""
    known = white = 0
    x, y = cell
    for d, (dx, dy) in enumerate(STEP):
        n = (x + dx, y + dy)
        tile = tiles.get(n)
        if tile is None or n in waiting:
            continue
        known |= 1 << d
        if (tile >> (d ^ 2)) & 1:
            white |= 1 << d
    return known, white


def _forced(known: int, white: int) -> bool:
    whites = bin(known & white).count("1")
    blacks = bin(known & ~white).count("1")
    return whites == 2 or blacks == 2 or whites > 2 or blacks > 2
