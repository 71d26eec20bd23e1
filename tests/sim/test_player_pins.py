# amaranth: UnusedElaboratable=no
"""The complete player at its pins, cocotb on Verilator: bits into ``rx``, bits out of ``tx``.

The reference engine is the opponent and the referee: every line the board sends must be the
expected answer or a legal move, and its time is measured in clocks (from the end of the last
stop bit sent to the start bit of the answer). The player is the board files' (one block-RAM
board for the game and its search); the edge cases give it a search of one node (they need no
move but quick answers), whole games its real budget.
"""

from __future__ import annotations

import json
import os
import random
from pathlib import Path

import cocotb
import pytest

from trax_fpga.hdl.player import Player
from trax_fpga.host.engine import MoveChooser
from trax_fpga.host.hwsearch import hw_search
from trax_fpga.host.position import Position
from trax_fpga.sim.cocotb_runner import run
from trax_fpga.sim.player_pins import PinUart, start_player

#: Edge cases: the smallest torus, and a search of one node (it answers at once).
EDGE_TORUS = 8
EDGE_CLOCK = 12_000_000
#: Whole games: a 32 x 32 torus (every game of the records fits; a game that outgrows it ends
#: there, as the policy says), a 25 MHz clock (the ULX3S's) at 115200 baud.
TRACK_TORUS = 32
GAME_CLOCK = 25_000_000
GAME_BAUD = 115200


def _env(name: str, default: str) -> str:
    return os.environ.get(f"TRAX_PINS_{name}", default)


def _uart(dut) -> PinUart:
    return PinUart(dut, int(_env("DIVISOR", "104")))


def _leds(dut) -> dict:
    value = int(dut.leds.value)
    return {
        name: value >> i & 1 for i, name in enumerate(("playing", "thinking", "white", "error"))
    }


# --- cocotb tests (run by the pytest functions below) -------------------------------------------


@cocotb.test()
async def edge_cases(dut):
    """Commands, line endings, noise, framing errors, long lines, illegal moves, at the pins."""
    await start_player(dut)
    uart = _uart(dut)
    team = _env("TEAM", "T1").encode()
    limit = 40 * uart.divisor + 2_000
    quiet = 30 * uart.divisor

    for ending in (b"\n", b"\r", b"\r\n"):
        answer, _ = await uart.ask(b"-T" + ending, limit)
        assert answer == team + b"\n", f"-T{ending!r} answered {answer!r}"
    await uart.expect_silence(quiet)

    answer, clocks = await uart.ask(b"-W\n", limit)
    assert answer == b"@0+\n", answer
    assert clocks < 3 * uart.divisor, f"-W answered after {clocks} clocks"
    leds = _leds(dut)
    assert leds["playing"] and leds["white"] and not leds["error"], leds

    # A framing error inside a line spoils it.
    await uart.send(b"-")
    await uart.send_byte(0x55, stop=0)
    await uart.send(b"T\n")
    await uart.expect_silence(quiet)
    assert _leds(dut)["error"]
    # Glitches shorter than half a bit start no frame.
    for byte in b"-T\n":
        await uart.glitch(uart.divisor // 4)
        await uart.send_byte(byte)
    answer, _ = await uart.read_line(limit)
    assert answer == team + b"\n", answer
    assert not _leds(dut)["error"]  # a command clears the error LED

    # Noise between lines, then a command.
    rng = random.Random(int(_env("SEED", "1")))
    await uart.send(bytes(rng.randrange(256) for _ in range(20)) + b"\n")
    await uart.send_byte(0xFF, stop=0)
    await uart.send(b"\r\n")
    await uart.expect_silence(quiet)
    answer, _ = await uart.ask(b"-T\n", limit)
    assert answer == team + b"\n", answer

    # Over-long lines are ignored.
    await uart.send(b"A" * 40 + b"\n")
    await uart.expect_silence(quiet)

    # As black: garbled and illegal moves get no answer.
    await uart.send(b"-B\n")
    await uart.expect_silence(quiet)
    leds = _leds(dut)
    assert leds["playing"] and not leds["white"], leds
    for garbled in (b"A2t\n", b"A1d\n"):
        await uart.send(garbled)
        await uart.expect_silence(quiet)
    assert _leds(dut)["playing"]  # still waiting for a real move
    await uart.send(b"A1+\n")  # not a first move
    await uart.expect_silence(quiet)
    leds = _leds(dut)
    assert not leds["playing"] and leds["error"], leds
    await uart.send(b"@0+\n")  # halted: ignored
    await uart.expect_silence(quiet)
    answer, _ = await uart.ask(b"-W\n", limit)
    assert answer == b"@0+\n"
    assert not _leds(dut)["error"]


@cocotb.test()
async def fuzz(dut):
    """Random bytes, framing errors and glitches, then a proper game start is answered."""
    await start_player(dut)
    uart = _uart(dut)
    team = _env("TEAM", "T1").encode()
    limit = 40 * uart.divisor + 2_000
    seed = int(_env("SEED", "1"))
    rng = random.Random(seed)
    for round_ in range(int(_env("FUZZ_ROUNDS", "3"))):
        for _ in range(rng.randrange(10, 60)):
            roll = rng.random()
            if roll < 0.05:
                await uart.send_byte(rng.randrange(256), stop=0)
            elif roll < 0.1:
                await uart.glitch(rng.randrange(1, 3 * uart.divisor))
            elif roll < 0.4:
                await uart.send_byte(rng.choice(b"-TWB@AB012+/\\\r\n"))
            else:
                await uart.send_byte(rng.randrange(256))
        await uart.idle(int(_env("SETTLE", "20000")))
        uart.drain()  # whatever the noise asked for
        answer, _ = await uart.ask(b"\n-T\n", limit)
        assert answer == team + b"\n", f"seed {seed} round {round_}: -T answered {answer!r}"
        answer, _ = await uart.ask(b"-W\n", limit)
        assert answer == b"@0+\n", f"seed {seed} round {round_}: -W answered {answer!r}"
        # Then a few moves of a proper game (with a search that finds moves).
        position = Position.from_moves(["@0+"])
        for _ in range(int(_env("PLIES", "0"))):
            move = rng.choice(position.legal_moves())
            position.play(move)
            if position.outcome is not None:
                break
            answer, _ = await uart.ask(f"{move}\n".encode(), int(_env("LIMIT", "5000000")))
            position.play(answer.decode("ascii", "replace").strip())  # raises if illegal
            if position.outcome is not None:
                break


@cocotb.test()
async def whole_games(dut):
    """Games against the reference engine, the board as white and as black in turn."""
    await start_player(dut)
    uart = _uart(dut)
    window = int(_env("WINDOW", "32"))
    limit = int(_env("LIMIT", "5000000"))
    games = int(_env("GAMES", "2"))
    seed = int(_env("SEED", "1"))
    chooser = MoveChooser(nodes=int(_env("OPPONENT_NODES", "200")))
    budget, depth = int(_env("BUDGET", "1000")), int(_env("DEPTH", "3"))
    # A pondering board (docs/ponder.md): the opponent plays the board's guess (the model's
    # choice for it) half the time, and thinks up to PONDER_WAIT clocks before each move.
    ponder_wait = int(_env("PONDER_WAIT", "0"))
    rng = random.Random(seed)
    times, results = [], []
    for game in range(games):
        board_white = game % 2 == 0
        position = Position()
        label = f"game {game} (seed {seed}, board {'white' if board_white else 'black'})"
        if board_white:
            answer, clocks = await uart.ask(b"-W\n", limit)
            position.play(answer.decode().strip())
            times.append(clocks)
        else:
            await uart.send(b"-B\n")
            await uart.idle(100)
        ending = "unfinished"
        while position.outcome is None and position.ply < int(_env("MAX_PLIES", "200")):
            # The opponent: the reference engine's choice, now and then a random legal move.
            if ponder_wait and rng.random() < 0.5:
                move = hw_search(position, window, window, budget, depth, board="track").move
            elif rng.random() < 0.2:
                move = rng.choice(position.legal_moves())
            else:
                move = chooser.choose(position).move
            position.play(move)
            if ponder_wait:
                await uart.idle(rng.randrange(ponder_wait))
            if position.outcome is not None:
                await uart.expect_silence(20 * uart.divisor)
                break
            box = position.box
            near_edge = box.width + 3 > window or box.height + 3 > window
            try:
                answer, clocks = await uart.ask(f"{move}\n".encode(), limit)
            except cocotb.triggers.SimTimeoutError:
                # Silence is right only where the torus is full (the board stops there).
                assert near_edge, f"{label}: no answer to {move} at ply {position.ply}"
                ending = "overflow"
                break
            text = answer.decode("ascii", "replace").strip()
            # The gateware search's specification chooses the same move, value by value, and
            # the status outputs give that search's figures (a pondering board's too, while its
            # guess's search runs).
            model = hw_search(position, window, window, budget, depth, board="track")
            assert text == str(model.move), f"{label}: the board chose {text}, the model {model}"
            figures = int(dut.search_nodes.value), int(dut.search_depth.value)
            assert figures == (model.nodes, model.depth), f"{label}: {figures}, model {model}"
            try:
                position.play(text)
            except Exception as error:
                message = f"{label}: the board answered {move} with {text!r}: {error}"
                raise AssertionError(message) from None
            times.append(clocks)
        if position.outcome is not None:
            ending = str(position.outcome)
        results.append(ending)
        dut._log.info("%s: %s after %d plies", label, results[-1], position.ply)
    report = _env("REPORT", "")
    if report:
        Path(report).write_text(
            json.dumps(
                {
                    "answer_clocks": times,
                    "max_answer_cycles": int(dut.max_answer_cycles.value),
                    "ponder_hits": int(dut.ponder_hits.value),
                    "ponder_misses": int(dut.ponder_misses.value),
                    "results": results,
                }
            )
        )
    assert times, "no answers"


# --- pytest ---------------------------------------------------------------------------------------


#: Verilator's lint warnings are not errors here (as in :mod:`trax_fpga.sim.verilator`).
BUILD_ARGS = ("-Wno-fatal", "-Wno-lint", "-Wno-style")


def _run(design, testcase, env):
    extra_env = {f"TRAX_PINS_{key}": str(value) for key, value in env.items()}
    run(design, __name__, testcase=testcase, extra_env=extra_env, build_args=BUILD_ARGS)


@pytest.mark.parametrize(
    "baud",
    [pytest.param(115200, marks=pytest.mark.slow), 19200],  # (whole games run at 115200)
)
def test_edge_cases_at_the_pins(baud):
    player = Player(EDGE_TORUS, EDGE_TORUS, EDGE_CLOCK, baud, "T1", budget=1)
    _run(player, "edge_cases", {"DIVISOR": player.divisor, "TEAM": "T1"})


def test_fuzz_at_the_pins():
    player = Player(EDGE_TORUS, EDGE_TORUS, EDGE_CLOCK, 115200, "T1", budget=1)
    seed = random.randrange(1 << 30)
    print(f"fuzz seed {seed}")
    _run(player, "fuzz", {"DIVISOR": player.divisor, "TEAM": "T1", "SEED": seed})


def _game_player(ponder: bool = False) -> Player:
    return Player(TRACK_TORUS, TRACK_TORUS, GAME_CLOCK, GAME_BAUD, "FP", ponder=ponder)


def _games(tmp_path, games: int, seed: int, ponder_wait: int = 0) -> dict:
    player = _game_player(ponder=bool(ponder_wait))
    report = tmp_path / "games.json"
    env = {"DIVISOR": player.divisor, "WINDOW": player.width, "GAMES": games, "SEED": seed}
    env["PONDER_WAIT"] = ponder_wait
    env["BUDGET"] = player.budget
    env["DEPTH"] = player.search_options.get("max_depth", 3)
    env["LIMIT"] = GAME_CLOCK  # one second at the board's clock
    _run(player, "whole_games", {**env, "REPORT": report})
    result = json.loads(report.read_text())
    worst = max(result["answer_clocks"])
    print(
        f"{games} games (seed {seed}): {result['results']}; worst answer {worst} clocks "
        f"at the pins, {result['max_answer_cycles']} inside = "
        f"{worst / GAME_CLOCK * 1e3:.2f} ms at 25 MHz; guesses right {result['ponder_hits']}, "
        f"wrong {result['ponder_misses']}"
    )
    return result


def test_whole_games_at_the_pins(tmp_path):
    """One game with the board as white and one as black, against the reference engine: every
    answer is the model's choice, and the games run to their end on a 32 x 32 torus."""
    result = _games(tmp_path, 2, seed=3)
    assert len(result["results"]) == 2
    assert "unfinished" not in result["results"] and "overflow" not in result["results"]


def test_whole_games_pondering_at_the_pins(tmp_path):
    """A pondering board (docs/ponder.md): its guesses played or not, its moves coming
    during the guess, the ponder search or after it, every answer is still the model's choice
    in the position of the game (a right guess's search is the board's search of that
    position; a wrong one's game is replayed before the board searches)."""
    result = _games(tmp_path, 4, seed=5, ponder_wait=30_000)
    assert len(result["results"]) == 4
    assert "unfinished" not in result["results"] and "overflow" not in result["results"]
    assert result["ponder_hits"] >= 3 and result["ponder_misses"] >= 3, result


@pytest.mark.slow
def test_many_games_at_the_pins(tmp_path):
    seed = random.randrange(1 << 30)
    result = _games(tmp_path, 12, seed=seed)
    assert len(result["results"]) == 12, f"seed {seed}"


@pytest.mark.slow
def test_fuzz_with_the_real_search():
    player = _game_player()
    seed = random.randrange(1 << 30)
    print(f"fuzz seed {seed}")
    env = {"DIVISOR": player.divisor, "TEAM": "FP", "SEED": seed, "FUZZ_ROUNDS": 6}
    _run(player, "fuzz", {**env, "SETTLE": 300_000, "PLIES": 6, "LIMIT": GAME_CLOCK})
