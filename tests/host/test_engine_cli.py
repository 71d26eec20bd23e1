"""`trax engine`, `trax match`, `trax best`, `trax play`: the engine in the protocol, end to end."""

import io
import os
import subprocess
import sys
import threading
import tty
from pathlib import Path

from trax_fpga.cli import main
from trax_fpga.host import engine
from trax_fpga.host.engine import EngineSession, MoveChooser
from trax_fpga.host.gamelog import RESULTS, SETTINGS
from trax_fpga.host.players import EnginePlayer, ProtocolPlayer
from trax_fpga.host.position import Position
from trax_fpga.host.referee import Referee
from trax_fpga.host.tiles import Colour
from trax_fpga.host.transport import ProcessTransport, SerialTransport, TcpTransport

ENGINE = [sys.executable, "-m", "trax_fpga.cli", "engine", "--nodes", "30", "--team", "KZ"]


def session():
    return EngineSession(MoveChooser(nodes=30), team="KZ")


def test_the_session_answers_the_protocol():
    s = session()
    assert s.handle("-T") == "KZ"
    assert s.handle("-B") is None
    reply = s.handle("@0+")
    assert Position.from_moves(["@0+"]).is_legal(reply)
    first = s.handle("-W")  # a new game at any time
    assert first in ("@0+", "@0/")
    assert s.colour is Colour.WHITE and s.position.ply == 1


def test_the_session_ignores_noise_and_untimely_moves(caplog):
    s = session()
    assert s.handle("@0+") is None  # before any game
    s.handle("-W")
    assert s.handle("") is None
    assert s.handle("   ") is None
    assert s.handle("A2t") is None  # UART noise
    assert s.handle("Z9+") is None  # illegal
    assert s.position.ply == 1
    assert "no game in progress" in caplog.text and "ignored 'A2t'" in caplog.text
    s.handle("-B")
    s.handle("@0/")
    assert s.handle("A1+") is None  # the cell of the session's own answer
    assert "cell occupied" in caplog.text


def test_the_session_answers_nothing_to_a_winning_move_and_ignores_moves_after_the_end():
    s = session()
    s.handle("-B")
    s.position.play("@0/")
    s.position.play("A2\\")
    assert s.handle("B1\\") is None
    assert str(s.position.outcome) == "black-loop"
    assert s.handle("A1+") is None


def test_trax_engine_plays_a_whole_game_through_a_pipe_against_the_reference():
    program = ProtocolPlayer(ProcessTransport(ENGINE, max_line=64), "engine")
    try:
        program.wait_ready(30)
        referee = Referee(time_limit=5, ask_team=True)
        record = referee.play_game(program, EnginePlayer(MoveChooser(nodes=30)))
        assert record.reason in ("loop", "line"), record.describe()
        assert (record.white, record.black) == ("KZ", "ref")
        outcome = Position.from_moves(record.moves).outcome
        assert str(outcome) == f"{record.winner.word}-{record.reason}"
    finally:
        program.close()
    assert program.transport.process.returncode == 0


def test_trax_engine_survives_noise_on_its_input():
    with ProcessTransport(ENGINE) as link:
        link.send_line("-T")
        assert link.read_line(30) == "KZ"
        os.write(
            link.process.stdin.fileno(),
            b"A2t\n\xff\xfe\nxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx\n\r\n",
        )
        link.send_line("-W")
        assert link.read_line(5) in ("@0+", "@0/")


def test_trax_engine_connects_to_a_listening_referee_over_tcp():
    server = {}
    ready = threading.Event()

    def on_ready(port):
        server["port"] = port
        ready.set()

    thread = threading.Thread(
        target=lambda: server.setdefault(
            "link", TcpTransport.listen(0, "127.0.0.1", 30, on_ready=on_ready)
        )
    )
    thread.start()
    assert ready.wait(5)

    engine = subprocess.Popen([*ENGINE, "--connect", f"127.0.0.1:{server['port']}"])
    try:
        thread.join(30)
        player = ProtocolPlayer(server["link"], "tcp")
        player.wait_ready(30)
        record = Referee(time_limit=5, max_plies=6).play_game(
            EnginePlayer(MoveChooser(nodes=30)), player
        )
        assert len(record.moves) == 6 and record.reason == "move-limit", record.describe()
        player.close()
        assert engine.wait(10) == 0
    finally:
        engine.kill()
        engine.wait()


def test_a_board_on_a_pty_plays_through_pyserial():
    """The simulated board's path: a pseudo-terminal reached with pyserial (here a Python peer)."""
    master, slave = os.openpty()
    tty.setraw(slave)
    board = session()
    stop = threading.Event()

    def serve():
        buffer = b""
        while not stop.is_set():
            try:
                data = os.read(master, 256)
            except OSError:
                return
            buffer += data
            while b"\n" in buffer:
                line, buffer = buffer.split(b"\n", 1)
                answer = board.handle(line.decode("ascii", "replace"))
                if answer is not None:
                    os.write(master, answer.encode() + b"\n")

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    link = SerialTransport(os.ttyname(slave), baud=115200)
    try:
        player = ProtocolPlayer(link, "board")
        record = Referee(time_limit=5, max_plies=8).play_game(
            player, EnginePlayer(MoveChooser(nodes=30))
        )
        assert record.reason in ("loop", "line", "move-limit"), record.describe()
        assert record.moves[0] in ("@0+", "@0/")
    finally:
        stop.set()
        link.close()
        os.close(slave)
        os.close(master)


def test_trax_match_runs_and_resumes_a_series(tmp_path, capsys):
    engine = " ".join(ENGINE)
    argv = ["match", "--engine", engine, "ref", "--nodes", "30", "--time-limit", "5"]
    status = main([*argv, "--games", "2", "--log-dir", str(tmp_path)])
    out, err = capsys.readouterr()
    assert status == 0, err
    assert "2 of 2 games (complete)" in out
    assert f"logging the games in {tmp_path}" in err
    name = Path(sys.executable).name
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        f"0001-{name}-ref.log",
        f"0002-ref-{name}.log",
        "A.stderr",
        RESULTS,
        SETTINGS,
    ]
    assert main([*argv, "--games", "2", "--log-dir", str(tmp_path)]) == 1
    assert "already holds a series" in capsys.readouterr().err
    assert main([*argv, "--games", "3", "--resume", str(tmp_path)]) == 0
    out, _ = capsys.readouterr()
    assert "3 of 3 games (complete)" in out
    results = (tmp_path / RESULTS).read_text().splitlines()
    assert [line[:4] for line in results[2:]] == ["0001", "0002", "0003"]


def test_a_program_is_named_by_what_it_runs():
    """A player's name in tables and logs: the program's file, through the commands that run
    another one (KizuNa matched at a raised priority was named "nice")."""
    from trax_fpga.cli import _program_name

    assert _program_name("nice -n -10 build/kizuna/out/release/kizuna_engine") == "kizuna_engine"
    assert _program_name("nice -5 taskset -c 0 ./engine --x") == "engine"
    assert _program_name("env A=1 python3 wrap.py k") == "wrap.py"
    assert _program_name("timeout -s KILL 10 ./eng") == "eng"
    assert _program_name("trax engine --nodes 30") == "trax"


def test_trax_match_needs_two_known_players(capsys):
    assert main(["match", "ref", "--log-dir", ""]) == 1
    assert "a match needs two players, not 1" in capsys.readouterr().err
    assert main(["match", "ref", "robot", "--log-dir", ""]) == 1
    assert "unknown player 'robot'" in capsys.readouterr().err


def test_trax_best_prints_its_analysis_and_the_move_last(capsys):
    assert main(["best", "--nodes", "200", "@0/", "A2\\"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "white to move after 2 moves"
    assert Position.from_moves(["@0/", "A2\\"]).is_legal(lines[-1])
    # `--backend rtl` (the gateware search) is tested in tests/hdl/test_search.py.


def test_trax_play_falls_back_to_the_reference_engine(monkeypatch, capsys):
    # The person's side of `trax play`, quickly: the simulated board (tested at the pins and in
    # tests/sim/test_board_cli.py) is made unavailable, so the reference engine plays instead.
    from trax_fpga.sim import board as simulated

    def unavailable(*args, **kwargs):
        raise RuntimeError("no simulator in this test")

    monkeypatch.setattr(simulated, "open_board_player", unavailable)
    monkeypatch.setattr(sys, "stdin", io.StringIO("Z9+\n@0+\nresign\n"))
    assert main(["play", "--nodes", "30"]) == 0
    out, err = capsys.readouterr()
    assert "the simulated board cannot be started" in err
    assert "illegal move Z9+" in out or "invalid move" in out
    assert "you played @0+" in out and "ref played" in out
    assert "Game over: black wins, white lost by resign" in out


def test_trax_play_against_the_board_file_model(monkeypatch, capsys):
    """``--opponent model``: the board file's player through its compiled model (its engines,
    table, order and evaluation), stopped by its clock; here a short one, to be quick."""
    from trax_fpga.host import engine

    monkeypatch.setattr(engine, "BOARD_TICKS", 3_000)
    monkeypatch.setattr(sys, "stdin", io.StringIO("@0+\nresign\n"))
    assert main(["play", "--opponent", "model"]) == 0
    out, err = capsys.readouterr()
    assert "The model plays the ULX3S board file's search (6 engines" in err
    assert "no time limit for the model" in err  # (the contest's 1 s is play's default)
    expected = engine.ModelChooser(nodes=10**9, engines=6, ticks=3_000)
    move = expected.choose(Position.from_moves(["@0+"])).move
    assert f"model played {move}" in out
    assert "Game over: black wins, white lost by resign" in out


def test_the_model_player_answers_with_its_search_figures():
    player = EnginePlayer(engine.board_model(), name="model")
    player.chooser.ticks = 2_000
    player.new_game(Colour.BLACK)
    reply = player.answer("@0/", None)
    assert Position.from_moves(["@0/"]).is_legal(reply)
    assert player.last_search["depth"] >= 1 and player.last_search["nodes"] > 2_000


def test_the_model_player_is_refused_where_it_cannot_play(monkeypatch, capsys):
    # Its moves take seconds: a match with a time limit below a minute is refused at once.
    assert main(["match", "model", "ref", "--time-limit", "1", "--log-dir", ""]) == 1
    assert "give --time-limit 0" in capsys.readouterr().err
    # --port names a real board: not beside another opponent.
    assert main(["play", "--opponent", "model", "--port", "/dev/null"]) == 1
    assert "--port is the board's" in capsys.readouterr().err
    assert main(["play", "--opponent", "human"]) == 1
    assert "not 'human'" in capsys.readouterr().err
    # Without a C compiler the Python model would take many minutes a move.
    from trax_fpga.host import fastmodel

    monkeypatch.setattr(fastmodel, "available", lambda: False)
    assert main(["match", "model", "ref", "--time-limit", "0", "--log-dir", ""]) == 1
    assert "needs the compiled model" in capsys.readouterr().err


TRAX = f"{sys.executable} -m trax_fpga.cli"


def shell(command, **kwargs):
    return subprocess.run(
        ["bash", "-c", command], capture_output=True, text=True, timeout=60, **kwargs
    )


def test_trax_engine_reads_a_file_or_dev_null_on_its_input(tmp_path):
    moves = tmp_path / "moves.txt"
    moves.write_text("-T\n-B\n@0+\n")
    result = shell(f"{TRAX} engine --nodes 30 --team KZ < {moves}")
    assert result.returncode == 0, result.stderr
    code, reply = result.stdout.splitlines()
    assert code == "KZ" and Position.from_moves(["@0+"]).is_legal(reply)
    result = shell(f"{TRAX} engine < /dev/null")
    assert (result.returncode, result.stdout, result.stderr) == (0, "", "")


def test_trax_engine_ends_quietly_when_its_pipes_are_closed():
    for command, message in [
        (f"printf -- '-W\\n' | {TRAX} engine >&-", "standard output is closed"),
        (f"{TRAX} engine <&-", "standard input is closed"),
    ]:
        result = shell(command)
        assert "Traceback" not in result.stderr, command
        assert result.stderr.count("\n") == 1 and message in result.stderr, result.stderr
    # The reader of its output goes away before it answers: its write fails (EPIPE).
    engine = subprocess.Popen(
        [*ENGINE], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE
    )
    engine.stdout.close()
    _, err = engine.communicate(b"-W\n", timeout=60)
    assert engine.returncode == 1
    assert err.decode() == "trax: the output was closed; the engine stops\n"


def test_moves_with_spaces_around_them_are_refused_by_the_referee_and_the_engine(caplog):
    # One parser for both sides (the board refuses them too, docs/protocol-policy.md).
    s = session()
    s.handle("-B")
    assert s.handle("@0+ ") is None and s.position.ply == 0
    assert s.handle(" @0+") is None and s.position.ply == 0
    assert s.handle("-W ") is None and s.colour is Colour.BLACK
    assert "ignored '@0+ '" in caplog.text


def test_a_seed_varies_the_openings_and_repeats_them():
    def opening(seed):
        s = EngineSession(MoveChooser(nodes=50), seed=seed)
        moves = [s.handle("-W")]
        for _ in range(3):
            s.position.play(s.position.legal_moves()[0])  # the opponent: always its first move
            moves.append(s._play())
        return moves

    assert opening(None) == opening(None)
    assert opening(3) == opening(3)
    assert len({tuple(opening(seed)) for seed in range(6)}) > 1
