"""The reference engine's view of a position, laid out as the gateware's torus window.

Shared by the rules-core tests: board cell (x, y) of the reference lives in window cell
(x mod W, y mod H); these helpers build the expected per-cell values and random games.
"""

from __future__ import annotations

import random
from pathlib import Path

from trax_fpga.host.errors import InvalidMoveError
from trax_fpga.host.judge import game_moves
from trax_fpga.host.notation import Move
from trax_fpga.host.position import FORCED, Box, Position
from trax_fpga.host.tiles import STEP, Symbol, Tile

DATA = Path(__file__).resolve().parent.parent / "data"

#: Fit-mask bit i is this tile (the gateware's FIT_ORDER).
TILE_ORDER = list(Tile)


def human_games() -> list[tuple[str, list[str]]]:
    """(result, moves) of every human game in the project's records."""
    games = []
    for line in (DATA / "human_games.txt").read_text().splitlines():
        moves = game_moves(line)
        if moves is not None:
            games.append((line.split("|")[1].strip(), moves))
    return games


def record_games(name: str) -> list[list[str]]:
    """The move lists of a record file in tests/data (comment lines skipped)."""
    return [
        moves
        for line in (DATA / name).read_text().splitlines()
        if (moves := game_moves(line)) is not None
    ]


def window_tiles(tiles: dict[tuple[int, int], int], width: int, height: int) -> list[list[int]]:
    """The board as ``[y][x]`` of 4-bit tile values (0 = empty), torus-mapped."""
    grid = [[0] * width for _ in range(height)]
    for (x, y), tile in tiles.items():
        assert grid[y % height][x % width] == 0, "two board cells share a window cell"
        grid[y % height][x % width] = int(tile)
    return grid


def planes_value(grid: list[list[int]]) -> int:
    """The four white-edge planes of a ``[y][x]`` grid, packed as the gateware's ``white`` port."""
    height, width = len(grid), len(grid[0])
    n = width * height
    value = 0
    for y in range(height):
        for x in range(width):
            for d in range(4):
                value |= ((grid[y][x] >> d) & 1) << (d * n + y * width + x)
    return value


def plane_bits(value: int, width: int, height: int, count: int = 1) -> list[list[list[int]]]:
    """Unpack ``count`` planes of W*H bits into ``[plane][y][x]``."""
    n = width * height
    return [
        [[(value >> (p * n + y * width + x)) & 1 for x in range(width)] for y in range(height)]
        for p in range(count)
    ]


def constraint(tiles: dict[tuple[int, int], int], x: int, y: int) -> tuple[int, int]:
    """(known, white) edge masks an empty board cell sees (as ``Position._constraint``)."""
    known = white = 0
    for d, (dx, dy) in enumerate(STEP):
        t = tiles.get((x + dx, y + dy))
        if t is not None:
            known |= 1 << d
            white |= ((int(t) >> (d ^ 2)) & 1) << d
    return known, white


def expected_cells(tiles: dict[tuple[int, int], int], box, width: int, height: int):
    """Per window cell: (fit mask, forced tile or 0, dead, frontier) for cells in box + ring.

    Cells outside the box and its ring have no neighbour in a game that fits the window.
    """
    expected = {}
    for x in range(box.min_x - 1, box.max_x + 2):
        for y in range(box.min_y - 1, box.max_y + 2):
            if (x, y) in tiles:
                expected[(x % width, y % height)] = (0, 0, 0, 0)
                continue
            known, white = constraint(tiles, x, y)
            fit = sum(1 << i for i, t in enumerate(TILE_ORDER) if (t & known) == white)
            code = FORCED[known][white]
            forced = code if code > 0 else 0
            dead = int(code < 0)
            expected[(x % width, y % height)] = (fit, forced, dead, int(known != 0))
    return expected


def fits_window(position: Position, width: int, height: int) -> bool:
    box = position.box
    return box is None or (box.width + 2 <= width and box.height + 2 <= height)


def random_game(rng: random.Random, plies: int, width: int, height: int) -> list[str]:
    """A random legal game of up to ``plies`` moves whose box plus ring fits the window."""
    position = Position()
    moves = []
    for _ in range(plies):
        if position.is_over:
            break
        candidates = position.legal_moves()
        rng.shuffle(candidates)
        for move in candidates:
            position.play(move)
            if fits_window(position, width, height):
                moves.append(str(move))
                break
            position.pop()
        else:
            break
    return moves


def random_move(rng: random.Random, position: Position) -> Move:
    """A random move near the box: often illegal (occupied, far, mismatched, dead)."""
    if position.box is None:
        return Move(rng.randrange(2), rng.randrange(2), rng.choice(list(Symbol)))
    box = position.box
    return Move(
        rng.randrange(box.width + 2), rng.randrange(box.height + 2), rng.choice(list(Symbol))
    )


def placed_unforced(position: Position, rng: random.Random):
    """The tiles after putting one fitting tile at a random frontier cell, without forced play.

    Such a board has forced (and sometimes dead or conflicting) cells, as in mid-turn.
    Returns (tiles, box) or None when no tile fits anywhere.
    """
    frontier = position.frontier()
    rng.shuffle(frontier)
    for x, y in frontier:
        c = position.constraint((x, y))
        if c.fitting:
            tiles = dict(position.tiles)
            tiles[(x, y)] = rng.choice(sorted(c.fitting))
            box = position.box
            box = Box(min(box.min_x, x), min(box.min_y, y), max(box.max_x, x), max(box.max_y, y))
            return tiles, box
    return None


def parse_or_none(text: str) -> Move | None:
    try:
        return Move.parse(text)
    except InvalidMoveError:
        return None
