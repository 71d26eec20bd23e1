"""The ply board against the reference engine: play, forced plays, wins and one-clock undo."""

import contextlib
import random

from amaranth.sim import Simulator

from trax_fpga.hdl.board import Verdict
from trax_fpga.hdl.ply_board import PlyBoard, PlyBoardOp
from trax_fpga.hdl.types import Symbol as HdlSymbol
from trax_fpga.host.errors import IllegalMoveError
from trax_fpga.host.position import Position
from trax_fpga.host.tiles import Colour, Symbol
from trax_fpga.sim.perft_driver import white_value

W = H = 10
DEPTH = 4


def planes_of(position):
    value, n = white_value(position, W, H), W * H
    return [(value >> (d * n)) & ((1 << n) - 1) for d in range(4)]


def run(position, script, seed):
    """Play ``script`` (("play", move) / ("undo",)) on the gateware and on the reference."""
    dut = PlyBoard(W, H, DEPTH)
    reference = position.copy()

    async def bench(ctx):
        async def op(kind, x=0, y=0, symbol=HdlSymbol.CROSS):
            ctx.set(dut.op, kind)
            ctx.set(dut.x, x)
            ctx.set(dut.y, y)
            ctx.set(dut.symbol, symbol)
            ctx.set(dut.start, 1)
            await ctx.tick()
            ctx.set(dut.start, 0)
            for _ in range(500):
                if ctx.get(dut.done):
                    return
                await ctx.tick()
            raise AssertionError(f"seed {seed}: no done")

        box = reference.box
        ctx.set(dut.load_white, planes_of(reference))
        ctx.set(dut.load_box_x, box.min_x % W)
        ctx.set(dut.load_box_y, box.min_y % H)
        ctx.set(dut.load_box_w, box.width)
        ctx.set(dut.load_box_h, box.height)
        await op(PlyBoardOp.LOAD)
        for step in script:
            label = f"seed {seed}: {' '.join(str(t.move) for t in reference.turns)} {step}"
            if step[0] == "undo":
                reference.pop()
                await op(PlyBoardOp.UNDO)
            else:
                cell, symbol = step[1], step[2]
                await op(PlyBoardOp.PLAY, cell[0] % W, cell[1] % H, HdlSymbol.of(symbol))
                try:
                    turn = reference.play(reference.move_at(cell, symbol))
                except IllegalMoveError:
                    assert ctx.get(dut.verdict) != Verdict.LEGAL, label
                    continue
                assert ctx.get(dut.verdict) == Verdict.LEGAL, label
                flags = [ctx.get(dut.white_loop), ctx.get(dut.white_line)]
                flags += [ctx.get(dut.black_loop), ctx.get(dut.black_line)]
                if turn.outcome is not None:
                    colour = 0 if turn.outcome.winner is Colour.WHITE else 2
                    kind = 0 if turn.outcome.reason == "loop" else 1
                    assert flags[colour + kind], label
                else:
                    assert not any(flags), label
            got = [int(p) for p in (ctx.get(dut.white)[d] for d in range(4))]
            assert got == planes_of(reference), label
            assert ctx.get(dut.ply) == len(reference.turns) - len(position.turns), label
            box = reference.box
            assert (ctx.get(dut.box_w), ctx.get(dut.box_h)) == (box.width, box.height), label

    sim = Simulator(dut)
    sim.add_clock(1e-6)
    sim.add_testbench(bench)
    sim.run()


def test_a_forced_tile_closes_a_loop_of_the_opponent_and_undo_restores():
    # The placed tile went only to bit 0 of the plane once (a 1-bit value ANDed with a plane).
    position = Position.from_moves(["@0/", "B1\\", "C1+"])
    run(position, [("play", (0, 1), Symbol.BACKSLASH), ("undo",)], seed=0)


def test_random_play_and_undo_sequences():
    for seed in range(4):
        rng = random.Random(seed)
        position = Position.from_moves(["@0+"])
        for _ in range(rng.randint(2, 6)):
            position.play(rng.choice(position.legal_moves()))
        if position.outcome:
            continue
        script, shadow = [], position.copy()
        for _ in range(14):
            depth = len(shadow.turns) - len(position.turns)
            if depth and (depth == DEPTH or shadow.outcome or rng.random() < 0.35):
                script.append(("undo",))
                shadow.pop()
                continue
            cell = rng.choice(shadow.frontier())
            symbol = rng.choice(list(Symbol))
            script.append(("play", cell, symbol))
            box = shadow.box
            if max(box.width, box.height) + 3 > W:
                script.pop()
                continue
            with contextlib.suppress(IllegalMoveError):
                shadow.play(shadow.move_at(cell, symbol))
        run(position, script, seed)
