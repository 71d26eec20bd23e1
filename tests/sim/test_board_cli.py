"""``trax sim`` (the simulated board) through stdin/stdout and through a pty with pyserial, and
``trax play``'s board on it. The board is the real board's player with one engine (``trax sim
--engines 1``: the board file's options, pondering included, on one engine's board), built
once (or found in the cache); the real board's six engines, a build of minutes, are simulated
in ``make test-slow``."""

from __future__ import annotations

import argparse
import dataclasses
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
import serial

from trax_fpga import cli
from trax_fpga.host.players import EnginePlayer
from trax_fpga.host.position import Position
from trax_fpga.host.tiles import Colour
from trax_fpga.sim import board as simulated

TRAX = [sys.executable, "-m", "trax_fpga.cli"]
#: The simulated board of these tests: the real board's player on one engine.
SIM = [*TRAX, "sim", "--engines", "1"]


def light_config() -> simulated.BoardConfig:
    """What ``trax sim --engines 1`` simulates."""
    parser = argparse.ArgumentParser()
    simulated.add_arguments(parser)
    return simulated.config_from(parser.parse_args(SIM[4:]))


@pytest.fixture(scope="module")
def built():
    """The simulated board of these tests, built (or found in the cache) once."""
    return simulated.build_board(light_config())


def test_sim_is_the_real_boards_player_by_default():
    args = cli.build_parser().parse_args(["sim"])
    assert simulated.config_from(args) == simulated.real_board_config()
    args = cli.build_parser().parse_args(["sim", "--torus", "16", "--search", "max_depth=3"])
    config = simulated.config_from(args)
    search = (
        ("attack_cut", 1),
        ("engines", 6),
        ("max_depth", 3),
        ("move_table", 16384),
        ("newest_first", 1),
        ("pv_plies", 4),
        ("shapes", 1),
        ("shared_table", 1),
        ("table_scores", 1),
    )
    assert (config.window, config.search_options) == (16, search)
    args = cli.build_parser().parse_args(["sim", "--engines", "1"])
    one = {"engines": 1, "max_depth": 8, "pv_plies": 4, "move_table": 16384, "shared_table": 1}
    one |= {"table_scores": 1, "attack_cut": 1, "newest_first": 1, "shapes": 1}
    # (one engine splits nothing; its table is outside it, its answers registered, as the board
    # file's engines')
    assert dict(simulated.config_from(args).search_options) == one


def test_sim_on_stdin_and_stdout(built):
    result = subprocess.run(
        SIM, input=b"-T\r\n\n-W\n", capture_output=True, timeout=1200, check=False
    )
    assert result.returncode == 0, result.stderr.decode()
    assert result.stdout == b"FP\n@0+\n"


def test_sim_plays_a_legal_move_as_black(built):
    result = subprocess.run(SIM, input=b"-B\n@0+\n", capture_output=True, timeout=1200, check=False)
    assert result.returncode == 0, result.stderr.decode()
    position = Position()
    position.play("@0+")
    answer = result.stdout.decode().strip()
    position.play(answer)  # raises if illegal


def test_sim_on_a_pty_with_pyserial(built):
    process = subprocess.Popen(
        [*SIM, "--pty"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
    )
    try:
        path = process.stdout.readline().strip()
        assert path.startswith("/dev/"), path
        with serial.Serial(path, 19200, timeout=60) as port:
            port.write(b"-T\n")
            assert port.readline() == b"FP\n"
            port.write(b"-W\n")
            assert port.readline() == b"@0+\n"
            position = Position.from_moves(["@0+", "B1/"])
            port.write(b"B1/\n")
            answer = port.readline().decode().strip()
            position.play(answer)
    finally:
        process.stdin.close()
        assert process.wait(timeout=30) == 0
        process.stdout.close()


@pytest.mark.slow  # (six engines: a build of some four minutes)
def test_the_real_board_answers():
    """``trax sim`` with no options, the real board's six engines pondering: a legal answer,
    and the answer's search figures at the pins."""
    config = simulated.real_board_config()
    board = simulated.open_board_player(config)
    try:
        board.new_game(Colour.BLACK)
        position = Position.from_moves(["@0+"])
        position.play(board.answer("@0+", 600))
        assert board.last_search["nodes"] > 0 and board.last_search["depth"] >= 1
    finally:
        board.close()
    result = subprocess.run(
        [*TRAX, "sim"], input=b"-B\n@0+\n", capture_output=True, timeout=1200, check=False
    )
    assert result.returncode == 0, result.stderr.decode()
    position = Position.from_moves(["@0+"])
    position.play(result.stdout.decode().strip())  # raises if illegal


def test_sim_option_errors():
    result = subprocess.run(
        [*TRAX, "sim", "--team", "ABC"], capture_output=True, text=True, timeout=120, check=False
    )
    assert result.returncode == 1
    assert "team code must be two printable ASCII characters" in result.stderr
    result = subprocess.run(
        [*TRAX, "sim", "--clock", "1843200", "--baud", "1000000"], capture_output=True,
        text=True, timeout=120,
        check=False,
    )  # fmt: skip
    assert result.returncode == 1
    assert "too fast" in result.stderr
    result = subprocess.run(
        [*TRAX, "sim", "--search", "bogus=1"], capture_output=True, text=True, timeout=120,
        check=False,
    )  # fmt: skip
    assert result.returncode == 1  # (a traceback at the build until the twenty-eighth session)
    assert "no search option 'bogus'" in result.stderr and "Traceback" not in result.stderr


def _play_args(**overrides) -> argparse.Namespace:
    args = cli.build_parser().parse_args(["play"])
    for key, value in overrides.items():
        setattr(args, key, value)
    return args


def test_board_player_is_the_simulated_board(built, capsys, monkeypatch):
    """``trax play``'s board with no port is the simulated board (here on one engine: the
    real board's is :func:`test_the_real_board_answers`'s), and its status reaches the host."""
    light = light_config()
    monkeypatch.setattr(
        simulated, "real_board_config", lambda **kw: dataclasses.replace(light, **kw)
    )
    args = _play_args()
    board = cli.board_player(None, 19200, args)
    try:
        assert isinstance(board, simulated.SimulatedBoardPlayer)
        assert not args.time_limit  # lifted for the simulated board
        assert board.team_code(60) == "FP"
        board.new_game(Colour.BLACK)
        position = Position.from_moves(["@0+"])
        position.play(board.answer("@0+", 60))
        # The search's own figures of that answer, reported by the simulation.
        assert board.last_search["nodes"] > 0
        assert board.last_search["clocks"] > 0 and board.last_search["depth"] >= 1
    finally:
        board.close()
    err = capsys.readouterr().err
    assert "no time limit for the simulated board" in err
    assert "M clocks per second here" in err  # how it compares with a real board


def test_an_idle_simulated_board_costs_no_cpu(built):
    """``trax sim --pty`` waiting for a byte sleeps (the harness blocks in poll()), then
    answers as soon as one comes."""
    process = subprocess.Popen(
        [*SIM, "--pty"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
    )
    try:
        path = process.stdout.readline().strip()
        children = Path(f"/proc/{process.pid}/task/{process.pid}/children").read_text().split()
        assert len(children) == 1
        stat = Path(f"/proc/{children[0]}/stat")

        def cpu_seconds() -> float:
            fields = stat.read_text().rsplit(")", 1)[1].split()
            return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

        with serial.Serial(path, 19200, timeout=60) as port:
            port.write(b"-T\n")
            assert port.readline() == b"FP\n"
            before = cpu_seconds()
            time.sleep(2)
            assert cpu_seconds() - before < 0.1  # a busy loop would be about 2 s
            port.write(b"-W\n")
            assert port.readline() == b"@0+\n"
    finally:
        process.stdin.close()
        assert process.wait(timeout=30) == 0
        process.stdout.close()


def test_sim_ponders_when_asked():
    import argparse

    parser = argparse.ArgumentParser()
    simulated.add_arguments(parser)
    default = simulated.config_from(parser.parse_args([]))
    assert default.ponder == simulated.BoardConfig().ponder  # (the board file's)
    assert not simulated.config_from(parser.parse_args(["--no-ponder"])).ponder
    config = simulated.config_from(parser.parse_args(["--ponder"]))
    player = config.player()
    player._MustUse__silence = True  # made only to read its parameter: not an unused design
    assert config.ponder and player.ponder
    off = simulated.config_from(parser.parse_args(["--no-ponder"]))
    assert config.key() != off.key()  # its own build


def test_the_real_board_parameters_are_the_board_files():
    from trax_fpga.boards.build import load_board
    from trax_fpga.boards.top import BOARD_SEARCH
    from trax_fpga.hdl.player import DEFAULT_THINK_TIME

    spec = load_board(simulated.REAL_BOARD)
    assert spec.design_hz == simulated.REAL_CLOCK
    assert spec.title.startswith(simulated.REAL_BOARD_TITLE)
    assert simulated.REAL_THINK == DEFAULT_THINK_TIME
    board_search = {**BOARD_SEARCH["search_options"], **spec.player_options["search_options"]}
    assert simulated.player_search_options(simulated.REAL_SEARCH) == board_search
    config = simulated.real_board_config()
    assert (config.clock, config.budget) == (spec.design_hz, 0)  # no node limit, as the board
    assert (config.window, config.window) == spec.torus == (simulated.REAL_TORUS,) * 2
    assert config.ponder == spec.player_options.get("ponder", False)  # (docs/ponder.md)
    # The model's defaults (`trax engine --search model`, `trax best --backend model`) too.
    from trax_fpga.host import engine

    assert spec.torus == (engine.DEFAULT_TORUS,) * 2
    assert board_search["max_depth"] == engine.DEFAULT_MODEL_DEPTH
    assert board_search["engines"] == engine.DEFAULT_MODEL_ENGINES
    assert board_search["pv_plies"] == engine.DEFAULT_MODEL_PV_PLIES
    assert board_search["move_table"] == engine.DEFAULT_MODEL_TABLE
    assert board_search["table_scores"]  # (the chooser's default)
    assert board_search["attack_cut"] == engine.DEFAULT_ATTACK_CUT
    assert board_search["newest_first"] == engine.DEFAULT_NEWEST_FIRST
    # And its think time and clock (the `model` player's, and the benches': search_bench
    # think, research).
    assert engine.BOARD_THINK_TIME == DEFAULT_THINK_TIME
    assert spec.design_hz == engine.BOARD_CLOCK_HZ
    assert engine.board_model().ticks == engine.BOARD_TICKS


def test_sim_search_options_name_the_boards_options_too():
    """``trax sim --search serial_appends=1`` (a TrackBoard option) reaches every engine's
    board."""
    options = (("edge_banks", 4), ("engines", 2), ("serial_appends", 1), ("plain_undo", 0))
    assert simulated.player_search_options(options) == {
        "engines": 2,
        "board_options": {"edge_banks": 4, "serial_appends": True, "plain_undo": False},
    }
    assert simulated.player_search_options((("engines", 2),)) == {"engines": 2}
    config = simulated.BoardConfig(search_options=(("engines", 2), ("serial_appends", 1)))
    player = config.player()
    player._MustUse__silence = True
    assert player.search_options["board_options"] == {"serial_appends": True}
    with pytest.raises(ValueError, match=r"^no search option 'bogus'; the options: attack_cut, "):
        simulated.player_search_options((("bogus", 1),))
    with pytest.raises(ValueError, match=r"^edge_banks must be 4 or 8, not 5$"):
        simulated.player_search_options((("edge_banks", 5),))


def test_the_strength_notice_says_how_much_weaker_in_figures():
    config = simulated.real_board_config()
    text = simulated.strength_notice(config, speed=1_250_000)
    assert "20 times slower than the ULX3S's 25 MHz clock" in text
    assert "on a 64x64 torus in block RAM, as a real ULX3S" in text
    assert "75,000 clocks a move (about 0.1 s here, within the contest's 1 s)" in text
    assert "about 267 times fewer nodes" in text and "much weaker than a real board" in text
    full = simulated.strength_notice(simulated.real_board_config(think=0.8), speed=1_250_000)
    assert "is as strong, but each answer takes about 16 s here" in full


def test_board_player_falls_back_with_a_notice(monkeypatch, capsys):
    def broken(*args, **kwargs):
        raise RuntimeError("verilator is missing")

    monkeypatch.setattr(simulated, "open_board_player", broken)
    board = cli.board_player(None, 19200, _play_args())
    assert isinstance(board, EnginePlayer)
    err = capsys.readouterr().err
    assert "the simulated board cannot be started (RuntimeError: verilator is missing)" in err
    assert "you play the reference engine instead" in err
