"""Board pictures in SVG: the tiles with their tracks, labelled with the notation's coordinates.

:func:`board_svg` draws a position as ``trax show --svg`` writes it and as ``trax web`` shows
it: the box and its ring of empty cells (where the next move may go), the columns ``@ A B ...``
above and the rows ``0 1 2 ...`` at the left, as the next move would name them. Every cell is a
``<g class="cell" data-cell="B1">`` (its notation coordinates); a tile inside it is a
``<g class="tile ...">``. Tiles placed by forced play, and the tiles of the last move, carry the
classes ``forced`` and ``last``; cells where a move may go carry ``playable``. The picture needs
no style sheet: colours are attributes.
"""

from __future__ import annotations

from collections.abc import Iterable
from xml.sax.saxutils import escape

from .notation import column_name
from .position import Position
from .tiles import EAST, NORTH, SOUTH, WEST, Colour, Symbol, Tile

__all__ = ["CELL", "board_svg", "cell_name", "tile_svg"]

#: The side of a cell, in SVG units.
CELL = 48
_FACE = "#1d6b48"
_RING = "#e9efe9"
_TRACK = {Colour.WHITE: "#fbfbf8", Colour.BLACK: "#151515"}
_FORCED = "#f0b400"
_LAST = "#e8452c"
_WIDTH = CELL * 0.2


def cell_name(position: Position, cell: tuple[int, int]) -> str:
    """The notation coordinates of ``cell`` in ``position``, e.g. ``@0`` or ``B1``."""
    move = position.move_at(cell, Symbol.CROSS)
    return f"{column_name(move.column)}{move.row}"


def _midpoint(direction: int, size: float) -> tuple[float, float]:
    half = size / 2
    return {NORTH: (half, 0), EAST: (size, half), SOUTH: (half, size), WEST: (0, half)}[direction]


def _tracks(tile: Tile, size: float) -> list[str]:
    """The two tracks of ``tile`` as SVG paths (the black one first, the white one over it)."""
    paths = []
    for colour in (Colour.BLACK, Colour.WHITE):
        ends = [d for d in (NORTH, EAST, SOUTH, WEST) if tile.colour(d) is colour]
        (ax, ay), (bx, by) = (_midpoint(d, size) for d in ends)
        if tile.symbol is Symbol.CROSS:
            shape = f"M{ax:g} {ay:g} L{bx:g} {by:g}"
        else:  # a curve around the corner between its two edges
            shape = f"M{ax:g} {ay:g} Q{size / 2:g} {size / 2:g} {bx:g} {by:g}"
        width = _WIDTH * size / CELL
        paths.append(
            f'<path d="{shape}" fill="none" stroke="{_TRACK[colour]}" '
            f'stroke-width="{width:g}" stroke-linecap="butt" class="track {colour.word}"/>'
        )
    return paths


def tile_svg(tile: Tile, size: int = CELL) -> str:
    """One tile as a standalone SVG (the choices ``trax web`` offers for a cell)."""
    body = "".join(_tracks(tile, size))
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{size}" height="{size}" '
        f'viewBox="0 0 {size} {size}"><rect width="{size}" height="{size}" fill="{_FACE}" '
        f'rx="{size / 12:g}"/>{body}</svg>'
    )


def board_svg(
    position: Position,
    *,
    forced: Iterable[tuple[int, int]] = (),
    last: Iterable[tuple[int, int]] = (),
    playable: Iterable[tuple[int, int]] | None = None,
) -> str:
    """``position`` as an SVG document.

    ``forced`` and ``last`` are board cells to mark (by default those of the last move: its
    tile and its forced plays); ``playable`` the empty cells to mark as places for the next move
    (by default every cell where a legal move goes).
    """
    if position.turns and not forced and not last:
        turn = position.turns[-1]
        last = [turn.placed[0][0]]
        forced = [cell for cell, _ in turn.forced]
    forced, last = set(forced), set(last)
    if playable is None:
        playable = {position.cell_of(move) for move in position.legal_moves()}
    playable = set(playable)
    if position.box is None:
        x0, y0, width, height = 0, 0, 1, 1
    else:
        box = position.box
        x0, y0, width, height = box.min_x - 1, box.min_y - 1, box.width + 2, box.height + 2
    margin = CELL * 0.6
    total_w, total_h = margin + width * CELL + 2, margin + height * CELL + 2
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="trax-board" width="{total_w:g}" '
        f'height="{total_h:g}" viewBox="0 0 {total_w:g} {total_h:g}" '
        'font-family="sans-serif" font-size="15">'
    ]
    for i in range(width):  # labels: the columns and rows as the next move names them
        x = margin + (i + 0.5) * CELL
        out.append(
            f'<text x="{x:g}" y="{margin * 0.7:g}" text-anchor="middle" fill="#444">'
            f"{escape(column_name(i))}</text>"
        )
    for j in range(height):
        y = margin + (j + 0.5) * CELL + 5
        out.append(
            f'<text x="{margin * 0.5:g}" y="{y:g}" text-anchor="middle" fill="#444">{j}</text>'
        )
    for j in range(height):
        for i in range(width):
            cell = (x0 + i, y0 + j)
            name = cell_name(position, cell)
            x, y = margin + i * CELL, margin + j * CELL
            tile = position.tiles.get(cell)
            classes = ["cell"]
            if cell in playable:
                classes.append("playable")
            out.append(
                f'<g class="{" ".join(classes)}" data-cell="{escape(name)}" '
                f'transform="translate({x:g} {y:g})">'
            )
            if tile is None:
                out.append(
                    f'<rect x="1" y="1" width="{CELL - 2}" height="{CELL - 2}" fill="{_RING}" '
                    f'stroke="#c5d2c5" rx="4"><title>{escape(name)}</title></rect>'
                )
            else:
                marks = [m for m, cells in (("last", last), ("forced", forced)) if cell in cells]
                out.append(f'<g class="{" ".join(["tile", *marks])}" data-tile="{tile.name}">')
                out.append(
                    f'<rect x="0.5" y="0.5" width="{CELL - 1}" height="{CELL - 1}" '
                    f'fill="{_FACE}" rx="4"><title>{escape(name)}</title></rect>'
                )
                out.extend(_tracks(tile, CELL))
                for mark in marks:
                    colour = _LAST if mark == "last" else _FORCED
                    dash = "" if mark == "last" else ' stroke-dasharray="6 4"'
                    out.append(
                        f'<rect x="2" y="2" width="{CELL - 4}" height="{CELL - 4}" fill="none" '
                        f'stroke="{colour}" stroke-width="3" rx="4"{dash}/>'
                    )
                out.append("</g>")
            out.append("</g>")
    out.append("</svg>")
    return "\n".join(out) + "\n"
