"""The gateware evaluation (hdl/evaluation.py) against its model (host/hweval.py), by value."""

import random

import pytest
from amaranth.back import verilog
from amaranth.sim import Simulator

from trax_fpga.hdl.evaluation import Evaluation
from trax_fpga.host.hweval import ATTACK_WIN, features, score
from trax_fpga.host.position import Position
from trax_fpga.host.tiles import Colour, Tile
from trax_fpga.sim.perft_driver import white_value

WIDTH = HEIGHT = 8

# The Trax FAQ's shapes (C2, C3), white, the targets facing north: tile masks of white edges.
NE, NW, EW = 0b0011, 0b1001, 0b1010
NARROW = {(0, 0): NE, (1, 0): NW}
WIDE = {(0, 0): NE, (1, 0): EW, (2, 0): NW}


def rotate(tiles, times):
    """The shape turned a quarter clockwise ``times`` times."""
    for _ in range(times):
        tiles = {(-y, x): ((m << 1) | (m >> 3)) & 0xF for (x, y), m in tiles.items()}
    return tiles


def swap_colours(tiles):
    return {cell: ~m & 0xF for cell, m in tiles.items()}


def position_of(tiles, turn=Colour.WHITE):
    return Position.from_tiles({cell: Tile(m) for cell, m in tiles.items()}, turn)


def evaluate_rtl(cases, width=WIDTH, height=HEIGHT):
    """Run the gateware on ``(position, turn)`` cases; returns the outputs and the clocks."""
    dut = Evaluation(width, height)
    results = []

    async def bench(ctx):
        for position, turn in cases:
            value, n = white_value(position, width, height), width * height
            ctx.set(dut.white, [(value >> (d * n)) & ((1 << n) - 1) for d in range(4)])
            ctx.set(dut.turn, turn)
            ctx.set(dut.start, 1)
            await ctx.tick()
            ctx.set(dut.start, 0)
            clocks = 1
            while not ctx.get(dut.ready):
                await ctx.tick()
                clocks += 1
            results.append(
                {
                    "score": ctx.get(dut.score),
                    "threatened": ctx.get(dut.threatened),
                    "corners": (ctx.get(dut.corners_black), ctx.get(dut.corners_white)),
                    "attacks": (ctx.get(dut.attacks_black), ctx.get(dut.attacks_white)),
                    "clocks": clocks,
                }
            )

    sim = Simulator(dut)
    sim.add_clock(1e-6)
    sim.add_testbench(bench)
    sim.run()
    return dut, results


def expected(position, turn):
    found = features(position)
    return {
        "score": score(found, turn),
        "threatened": int(found.threatened(turn)),
        "corners": found.corners,
        "attacks": tuple(min(a, 2) for a in found.attacks),
    }


def check(cases, width=WIDTH, height=HEIGHT):
    dut, results = evaluate_rtl(cases, width, height)
    for (position, turn), got in zip(cases, results, strict=True):
        want = expected(position, turn)
        clocks = got.pop("clocks")
        assert got == want, f"{position!r} {turn.name}"
        assert clocks == dut.latency
    return results


@pytest.mark.parametrize("shape", [NARROW, WIDE], ids=["narrow", "wide"])
def test_loop_attacks_in_every_direction_and_colour(shape):
    cases = []
    for times in range(4):
        for tiles in (rotate(shape, times), swap_colours(rotate(shape, times))):
            position = position_of(tiles)
            assert sum(features(position).attacks) == 1, tiles  # the model sees exactly one
            cases += [(position, Colour.WHITE), (position, Colour.BLACK)]
    results = check(cases)
    # The side with the attack scores a win in waiting; its opponent is threatened.
    for (position, turn), got in zip(cases, results, strict=True):
        own = features(position).attacks[turn]
        assert got["score"] == (ATTACK_WIN if own else -100 + 10 * _corner_diff(position, turn))
        assert got["threatened"] == (not own)


def _corner_diff(position, turn):
    found = features(position)
    return found.corners[turn] - found.corners[turn.other]


def test_no_attack_when_a_target_is_taken():
    # The narrow attack with a tile above its left end: the track can no longer close there.
    tiles = dict(NARROW)
    tiles[(0, -1)] = 0b0101  # white N-S: it continues the white track upwards
    position = position_of(tiles)
    assert features(position).attacks == (0, 0)
    check([(position, Colour.WHITE), (position, Colour.BLACK)])


def test_single_curves_are_corners():
    position = position_of({(0, 0): NE})  # the first tile: a white and a black corner
    assert features(position).corners == (1, 1)
    check([(position, Colour.WHITE)])


def random_positions(seed, count, width=WIDTH, height=HEIGHT):
    rng = random.Random(seed)
    found = []
    while len(found) < count:
        position = Position()
        for _ in range(rng.randrange(1, 30)):
            moves = position.legal_moves()
            rng.shuffle(moves)
            for move in moves:
                position.play(move)
                box = position.box
                if position.outcome is None and box.width + 2 <= width and box.height + 2 <= height:
                    break
                position.pop()
            else:
                break
        found.append(position)
    return found


def test_equals_the_model_on_random_positions():
    seed = 20261122
    positions = random_positions(seed, 60)
    check([(p, turn) for p in positions for turn in Colour])


def test_equals_the_model_on_a_wide_window():
    check([(p, p.turn) for p in random_positions(7, 8, 12, 10)], 12, 10)


def test_converts_to_verilog():
    assert "module" in verilog.convert(Evaluation(6, 5), name="evaluation")
