"""The reference engine's view of a position, laid out as the gateware's torus window.

Shared by the rules-core tests: board cell (x, y) of the reference lives in window cell
(x mod W, y mod H); these helpers build the expected per-cell values and random games.
"""

from __future__ import annotations

import random
from pathlib import Path

from trax_fpga.host.judge import game_moves
from trax_fpga.host.notation import Move
from trax_fpga.host.position import Position
from trax_fpga.host.tiles import Symbol, Tile

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
