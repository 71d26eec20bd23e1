"""Board diagrams for people: Unicode tiles for the terminal, ASCII as in old e-mail games.

Both styles draw the same grid: a corner mark between tiles, the colour of every edge a tile
has (white or black), and the tile's shape at its centre. The ASCII style is the one of the 1993
rec.games.abstract post: ``+`` corners, ``o`` for white edges, ``x`` for black edges, ``/`` and
``\\`` curves, a blank centre for a cross::

    +x+x+o+
    x/o\\x\\o
    +o+o+x+

The Unicode style uses ``·`` corners, ``○`` white and ``●`` black edges and ``┼ ╱ ╲`` centres,
and by default labels columns and rows in the notation's terms (``@``/``0`` are the empty column
and row before the box, so a move can be read off the diagram). Both parse back with
:func:`parse_diagram`.
"""

from __future__ import annotations

import dataclasses

from .errors import TraxError
from .notation import column_name
from .position import Position
from .tiles import EAST, NORTH, SOUTH, WEST, Colour, Symbol, Tile

__all__ = ["ASCII", "UNICODE", "Style", "parse_diagram", "render"]


@dataclasses.dataclass(frozen=True)
class Style:
    """The characters of one diagram style."""

    corner: str
    white: str
    black: str
    centres: dict[Symbol, str]

    def edge(self, colour: Colour) -> str:
        return self.white if colour is Colour.WHITE else self.black


ASCII = Style("+", "o", "x", {Symbol.CROSS: " ", Symbol.SLASH: "/", Symbol.BACKSLASH: "\\"})
UNICODE = Style("·", "○", "●", {Symbol.CROSS: "┼", Symbol.SLASH: "╱", Symbol.BACKSLASH: "╲"})
_LABEL_WIDTH = 4
_ANSI = {"white": "\x1b[1;97m", "black": "\x1b[1;31m", "reset": "\x1b[0m"}


def render(
    position: Position,
    style: Style = UNICODE,
    labels: bool | None = None,
    colour: bool = False,
) -> str:
    """Draw ``position``; ``labels`` (default: on for Unicode) adds notation coordinates.

    With labels the drawing also shows the empty ring around the box (column ``@``, row ``0``,
    and the column and row after the box), where the next move may go.
    """
    if labels is None:
        labels = style is UNICODE
    tiles = position.tiles
    if position.box is None:
        return "(empty board: the first move is @0+ or @0/)" if labels else ""
    box = position.box
    ring = 1 if labels else 0
    x0, y0 = box.min_x - ring, box.min_y - ring
    width, height = box.width + 2 * ring, box.height + 2 * ring
    grid = [[" "] * (2 * width + 1) for _ in range(2 * height + 1)]

    def paint(char: str, which: str | None) -> str:
        return f"{_ANSI[which]}{char}{_ANSI['reset']}" if colour and which else char

    for (x, y), tile in tiles.items():
        r, c = 2 * (y - y0) + 1, 2 * (x - x0) + 1
        grid[r][c] = style.centres[tile.symbol]
        for direction, (dr, dc) in (
            (NORTH, (-1, 0)),
            (EAST, (0, 1)),
            (SOUTH, (1, 0)),
            (WEST, (0, -1)),
        ):
            edge_colour = tile.colour(direction)
            grid[r + dr][c + dc] = paint(style.edge(edge_colour), edge_colour.word)
        for dr in (-1, 1):
            for dc in (-1, 1):
                grid[r + dr][c + dc] = style.corner
    lines = ["".join(row).rstrip() for row in grid]
    if not labels:
        return "\n".join(lines)
    header = " " * _LABEL_WIDTH + "".join(
        f" {column_name(col):<1}" if len(column_name(col)) == 1 else column_name(col)[-2:]
        for col in range(width)
    )
    out = [header.rstrip()]
    for i, line in enumerate(lines):
        label = f"{(i - 1) // 2:>3} " if i % 2 else " " * _LABEL_WIDTH
        out.append((label + line).rstrip())
    return "\n".join(out)


def parse_diagram(text: str, turn: Colour = Colour.WHITE) -> Position:
    """The position a diagram (either style, labelled or not) shows, with ``turn`` to move.

    The top-left cell of the drawing becomes board cell (0, 0) (or the cell before the box when
    labelled). Raises :class:`TraxError` when the drawing is not a reachable position.
    """
    lines = [line.rstrip("\n") for line in text.splitlines()]
    while lines and not lines[0].strip():
        lines.pop(0)
    while lines and not lines[-1].strip():
        lines.pop()
    if not lines:
        return Position()
    if lines[0].lstrip().startswith("@"):  # labelled: a header, then a label field on every line
        lines = [line[_LABEL_WIDTH:] for line in lines[1:]]
    marks = {
        ASCII.white: Colour.WHITE,
        UNICODE.white: Colour.WHITE,
        ASCII.black: Colour.BLACK,
        UNICODE.black: Colour.BLACK,
    }
    shapes = {char: symbol for s in (ASCII, UNICODE) for symbol, char in s.centres.items()}
    width = max(len(line) for line in lines)
    grid = [line.ljust(width) for line in lines]

    def at(r: int, c: int) -> str:
        return grid[r][c] if 0 <= r < len(grid) and 0 <= c < width else " "

    tiles: dict[tuple[int, int], Tile] = {}
    for r in range(1, len(grid), 2):
        for c in range(1, width, 2):
            edges = [at(r - 1, c), at(r, c + 1), at(r + 1, c), at(r, c - 1)]
            if not all(e in marks for e in edges):
                if at(r, c).strip() and at(r, c) in shapes:
                    raise TraxError(
                        f"diagram line {r + 1}: the tile at column {c + 1} lacks an edge"
                    )
                continue
            mask = sum(1 << d for d, e in enumerate(edges) if marks[e] is Colour.WHITE)
            try:
                tile = Tile(mask)
            except ValueError:
                raise TraxError(
                    f"diagram line {r + 1}: the edges at column {c + 1} are no Trax tile"
                ) from None
            if at(r, c) not in shapes or shapes[at(r, c)] is not tile.symbol:
                raise TraxError(
                    f"diagram line {r + 1}: the centre at column {c + 1} should be "
                    f"{ASCII.centres[tile.symbol]!r} for those edges"
                )
            tiles[((c - 1) // 2, (r - 1) // 2)] = tile
    return Position.from_tiles(tiles, turn=turn)
