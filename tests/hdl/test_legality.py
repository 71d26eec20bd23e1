"""Per-cell rules in gateware against the reference engine: fit masks, forced tiles, dead cells."""

import random
import re

import pytest
from amaranth import Value
from amaranth.back import verilog
from amaranth.sim import Simulator

from trax_fpga.hdl.legality import FIT_ORDER, ArrayLegality, CellLegality, Tile, check_window
from trax_fpga.host.position import FITTING, FORCED, Position
from trax_fpga.host.tiles import Tile as RefTile

from .reference import (
    TILE_ORDER,
    expected_cells,
    fits_window,
    placed_unforced,
    plane_bits,
    planes_value,
    random_game,
    window_tiles,
)


def run(dut, testbench):
    sim = Simulator(dut)
    sim.add_testbench(testbench)
    sim.run()


def test_tile_values_match_the_reference():
    assert [t.value for t in FIT_ORDER] == [int(t) for t in TILE_ORDER]
    assert {t.name for t in Tile} - {"EMPTY"} == {t.name for t in RefTile}
    assert all(Tile[t.name].value == int(t) for t in RefTile)


def test_cell_all_81_cases():
    dut = CellLegality()
    cases = []
    for known in range(16):
        for white in range(16):
            if white & ~known == 0:
                cases.append((known, white))
    assert len(cases) == 81

    async def testbench(ctx):
        for known, white in cases:
            ctx.set(dut.known, known)
            ctx.set(dut.white, white)
            fit = ctx.get(dut.fit)
            expected_fit = sum(
                1 << i for i, t in enumerate(TILE_ORDER) if t in FITTING[known][white]
            )
            assert fit == expected_fit, (known, white)
            code = FORCED[known][white]
            assert ctx.get(dut.dead) == (code < 0), (known, white)
            assert ctx.get(dut.forced) == (code > 0), (known, white)
            if code > 0:
                assert ctx.get(dut.tile).value == code, (known, white)

    run(dut, testbench)


def read_cells(ctx, dut, width, height):
    """Per cell (fit, forced tile or 0, dead) and the frontier and occupied planes."""
    fit = plane_bits(ctx.get(Value.cast(dut.fit)), width, height, 6)
    tile = plane_bits(ctx.get(Value.cast(dut.tile)), width, height, 4)
    forced = plane_bits(ctx.get(dut.forced), width, height)[0]
    dead = plane_bits(ctx.get(dut.dead), width, height)[0]
    cells = [
        [
            (
                sum(fit[i][y][x] << i for i in range(6)),
                sum(tile[d][y][x] << d for d in range(4)) if forced[y][x] else 0,
                dead[y][x],
            )
            for x in range(width)
        ]
        for y in range(height)
    ]
    frontier = plane_bits(ctx.get(dut.frontier), width, height)[0]
    occupied = plane_bits(ctx.get(dut.occupied), width, height)[0]
    return cells, frontier, occupied


def check_array(width, height, boards):
    """Compare every cell of ArrayLegality with the reference on (tiles, box) boards."""
    dut = ArrayLegality(width, height)

    async def testbench(ctx):
        for tiles, box in boards:
            grid = window_tiles(tiles, width, height)
            ctx.set(Value.cast(dut.white), planes_value(grid))
            cells, frontier, occupied = read_cells(ctx, dut, width, height)
            any_forced = any_dead = False
            for (wx, wy), (fit, forced, dead, front) in expected_cells(
                tiles, box, width, height
            ).items():
                assert cells[wy][wx] == (fit, forced, dead), ((wx, wy), tiles)
                assert frontier[wy][wx] == front
                assert occupied[wy][wx] == (grid[wy][wx] != 0)
                any_forced |= forced != 0
                any_dead |= dead
            assert ctx.get(dut.any_forced) == any_forced
            assert ctx.get(dut.any_dead) == any_dead
            assert ctx.get(dut.conflict) == reference_conflict(tiles, box)

    run(dut, testbench)


def reference_conflict(tiles, box):
    """Two adjacent forced cells whose forced tiles disagree on the shared edge."""
    from .reference import constraint

    forced = {}
    for x in range(box.min_x - 1, box.max_x + 2):
        for y in range(box.min_y - 1, box.max_y + 2):
            if (x, y) not in tiles:
                code = FORCED[constraint(tiles, x, y)[0]][constraint(tiles, x, y)[1]]
                if code > 0:
                    forced[(x, y)] = code
    for (x, y), t in forced.items():
        east = forced.get((x + 1, y))
        if east is not None and ((t >> 1) & 1) != ((east >> 3) & 1):
            return True
        south = forced.get((x, y + 1))
        if south is not None and ((t >> 2) & 1) != (south & 1):
            return True
    return False


def random_boards(seed, width, height, count):
    rng = random.Random(seed)
    boards = []
    while len(boards) < count:
        moves = random_game(rng, rng.randrange(1, 25), width - 1, height - 1)
        position = Position.from_moves(moves)
        if fits_window(position, width, height):
            boards.append((dict(position.tiles), position.box))
        mid = placed_unforced(position, rng)
        if mid is not None and mid[1].width + 2 <= width and mid[1].height + 2 <= height:
            boards.append(mid)
    return boards


@pytest.mark.parametrize(("width", "height", "seed"), [(8, 8, 1), (7, 9, 2)])
def test_array_against_reference(width, height, seed):
    """Settled positions and mid-turn boards (forced, dead and conflicting cells)."""
    check_array(width, height, random_boards(seed, width, height, 40))


def torus_expected(grid, width, height):
    """Per window cell (fit, forced tile or 0, dead, frontier), neighbours wrapping around."""
    tiles = {(x, y): grid[y][x] for y in range(height) for x in range(width) if grid[y][x]}
    expected = {}
    for y in range(height):
        for x in range(width):
            if grid[y][x]:
                expected[(x, y)] = (0, 0, 0, 0)
                continue
            known = white = 0
            for d, (dx, dy) in enumerate(((0, -1), (1, 0), (0, 1), (-1, 0))):
                t = tiles.get(((x + dx) % width, (y + dy) % height))
                if t is not None:
                    known |= 1 << d
                    white |= ((t >> (d ^ 2)) & 1) << d
            fit = sum(1 << i for i, t in enumerate(TILE_ORDER) if (t & known) == white)
            code = FORCED[known][white]
            expected[(x, y)] = (fit, max(code, 0), int(code < 0), int(known != 0))
    return expected


def torus_conflict(expected, width, height):
    for (x, y), (_, t, _, _) in expected.items():
        if not t:
            continue
        east = expected[((x + 1) % width, y)][1]
        south = expected[(x, (y + 1) % height)][1]
        if east and ((t >> 1) & 1) != ((east >> 3) & 1):
            return True
        if south and ((t >> 2) & 1) != (south & 1):
            return True
    return False


@pytest.mark.parametrize(("width", "height", "seed"), [(5, 4, 4), (6, 7, 5)])
def test_array_on_random_fillings(width, height, seed):
    """Arbitrary boards (not reachable in play) exercise every case, the torus wrap included."""
    rng = random.Random(seed)
    dut = ArrayLegality(width, height)
    counts = {"forced": 0, "dead": 0, "conflict": 0}

    async def testbench(ctx):
        for _ in range(200):
            density = rng.random()
            grid = [
                [rng.choice(TILE_ORDER) if rng.random() < density else 0 for _ in range(width)]
                for _ in range(height)
            ]
            grid = [[int(t) for t in row] for row in grid]
            ctx.set(Value.cast(dut.white), planes_value(grid))
            cells, frontier, _ = read_cells(ctx, dut, width, height)
            expected = torus_expected(grid, width, height)
            for (x, y), (fit, forced, dead, front) in expected.items():
                assert cells[y][x] == (fit, forced, dead), ((x, y), grid)
                assert frontier[y][x] == front
            any_forced = any(v[1] for v in expected.values())
            any_dead = any(v[2] for v in expected.values())
            conflict = torus_conflict(expected, width, height)
            assert ctx.get(dut.any_forced) == any_forced
            assert ctx.get(dut.any_dead) == any_dead
            assert ctx.get(dut.conflict) == conflict
            counts["forced"] += any_forced
            counts["dead"] += any_dead
            counts["conflict"] += conflict

    run(dut, testbench)
    assert min(counts.values()) > 10, counts


@pytest.mark.parametrize("size", [(3, 3), (5, 4), (12, 9)])
def test_array_converts_to_verilog(size):
    verilog.convert(ArrayLegality(*size))


def test_cell_converts_to_verilog():
    verilog.convert(CellLegality())


@pytest.mark.parametrize("bad", [2, 0, -1, 4.0, "8", True])
def test_window_size_checked(bad):
    message = f"window width must be an integer of at least 3, not {bad!r}"
    with pytest.raises(ValueError, match=re.escape(message)):
        check_window(bad, 8)
