"""`trax match` against engines that slip once: each slip costs its game and nothing else.

Each misbehaving engine (tests/host/engines/misbehave.py) plays a short series against the
deterministic reference player, colours alternating; its slip happens in game 2. The games before
and after it must end exactly as the same series against the well-behaved engine, the slip's game
is scored with its reason, every game's log is complete, and no process of the match is left.
"""

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from trax_fpga.cli import main
from trax_fpga.host.gamelog import RESULTS, GameRecord
from trax_fpga.host.transport import group_alive

ENGINE = Path(__file__).parent / "engines" / "misbehave.py"
GAMES = 4
SLIP = 2  # the game in which the engine slips (it is black: A is white in odd games)


def engine(fault, state, *extra):
    return " ".join([sys.executable, str(ENGINE), fault, str(state), *extra])


def match(tmp_path, command, *options, games=GAMES, name="series"):
    """Run `trax match` in this process; return (status, out, err, folder, pids folder)."""
    folder = tmp_path / name
    argv = ["match", "--engine", command, "ref", "--nodes", "200", "--games", str(games)]
    return main([*argv, "--log-dir", str(folder), *options]), folder


def results(folder):
    lines = (folder / RESULTS).read_text().splitlines()
    return [GameRecord.from_line(line) for line in lines if line and not line.startswith("#")]


def game_log(folder, number):
    (path,) = folder.glob(f"{number:04d}-*.log")
    lines = path.read_text().splitlines()
    head = dict(line[2:].split(": ", 1) for line in lines[: lines.index("Trax")])
    moves = [line for line in lines[lines.index("Trax") + 2 :] if not line.startswith("#")]
    return head, moves, lines


def assert_logs_complete(folder, records):
    for record in records:
        head, moves, _ = game_log(folder, record.number)
        assert head["result"] == record.result_text()
        assert head["termination"] == record.reason
        assert head["time control"].endswith("s per answer")
        assert {head["white"][:1], head["black"][:1]} == {"A", "B"}
        assert len(moves) == len(record.moves), record


def assert_no_process_left(pids):
    """Every process and process group the engines reported is gone (zombies count as gone)."""
    for entry in pids.iterdir():
        kind, number = entry.name.split("-")
        if kind == "pgid":
            assert not group_alive(int(number)), f"process group {number} is still alive"
        else:
            try:
                state = Path(f"/proc/{number}/stat").read_bytes().rsplit(b")", 1)[1].split()[0]
            except FileNotFoundError:
                continue
            assert state in (b"Z", b"X"), f"process {number} is still alive"


def outcome(record, moves):
    return (record.winner, record.reason, moves)


@pytest.fixture
def pids(tmp_path, monkeypatch):
    folder = tmp_path / "pids"
    folder.mkdir()
    monkeypatch.setenv("TRAX_TEST_PIDS", str(folder))
    return folder


@pytest.fixture(scope="module")
def baseline(tmp_path_factory):
    """The series against the well-behaved engine: each game's outcome and moves."""
    tmp_path = tmp_path_factory.mktemp("baseline")
    status, folder = match(tmp_path, engine("none", tmp_path / "state"), "--time-limit", "2")
    assert status == 0
    return [outcome(r, game_log(folder, r.number)[1]) for r in results(folder)]


SLIPS = {
    # fault: (extra engine arguments, time limit, the slip's reason, text in its detail)
    "duplicate": ([], "2", "out-of-turn", "output out of turn: '"),
    "two-moves": ([], "2", "malformed", "unexpected text after the symbol"),
    "oversized": ([], "2", "malformed", "line longer than 16 characters"),
    "late": (["--late", "0.7"], "0.5", "timeout", "no answer within 0.5 s"),
    "crash": ([], "2", "disconnect", "exited with status 3"),
    "close-stdout": ([], "2", "disconnect", "the peer closed the link"),
    "stop-reading": ([], "0.5", "timeout", "no answer within 0.5 s"),
}


@pytest.mark.parametrize("fault", list(SLIPS))
def test_a_slip_costs_its_game_and_nothing_else(fault, tmp_path, pids, baseline, capsys):
    extra, limit, reason, detail = SLIPS[fault]
    status, folder = match(
        tmp_path, engine(fault, tmp_path / "state", *extra), "--time-limit", limit
    )
    out, err = capsys.readouterr()
    assert status == 0, err
    assert f"{GAMES} of {GAMES} games (complete)" in out
    records = results(folder)
    assert [r.number for r in records] == list(range(1, GAMES + 1))
    slip = records[SLIP - 1]
    assert (slip.reason, slip.winner.word) == (reason, "white"), slip.describe()
    assert detail in slip.detail
    for record in records:
        if record.number != SLIP:
            moves = game_log(folder, record.number)[1]
            assert outcome(record, moves) == baseline[record.number - 1], record.number
    assert_logs_complete(folder, records)
    head, _, _ = game_log(folder, SLIP)
    if reason in ("malformed", "out-of-turn"):
        assert head["offending output"].startswith("'")
    assert_no_process_left(pids)


def test_a_late_answer_is_logged_in_its_own_game_and_never_read_later(tmp_path, pids, capsys):
    command = engine("late", tmp_path / "state", "--late", "0.7")
    status, folder = match(tmp_path, command, "--time-limit", "0.5")
    assert status == 0, capsys.readouterr().err
    _, _, lines = game_log(folder, SLIP)
    notes = [line for line in lines if line.startswith("# out-of-turn output of black")]
    assert len(notes) == 1 and "after the game" in notes[0], lines
    assert all(record.times and max(record.times) < 0.5 for record in results(folder))


def test_a_wrapper_that_does_not_exec_is_ended_with_its_engine(tmp_path, pids, baseline, capsys):
    # bash runs the engine as its child and waits for it; the engine ignores SIGTERM when it
    # stops reading, so only ending the whole process group (SIGKILL after the grace) ends it.
    inner = engine("stop-reading", tmp_path / "state")
    status, folder = match(tmp_path, f"bash -c '{inner}; true'", "--time-limit", "0.5")
    assert status == 0, capsys.readouterr().err
    records = results(folder)
    assert records[SLIP - 1].reason == "timeout"
    for record in records:
        if record.number != SLIP:
            moves = game_log(folder, record.number)[1]
            assert outcome(record, moves) == baseline[record.number - 1]
    assert len(list(pids.glob("pgid-*"))) == 2  # started twice: the slip restarted it
    assert_no_process_left(pids)


def test_an_engine_flooding_stderr_plays_on_and_its_stderr_is_kept_bounded(
    tmp_path, pids, baseline, capsys
):
    status, folder = match(
        tmp_path, engine("stderr-flood", tmp_path / "state"), "--time-limit", "2"
    )
    _, err = capsys.readouterr()
    assert status == 0, err
    records = results(folder)
    assert [outcome(r, game_log(folder, r.number)[1]) for r in records] == baseline
    kept = (folder / "A.stderr").read_bytes()
    assert 1 << 20 <= len(kept) < (1 << 20) + 200
    assert kept.endswith(b"more bytes of standard error dropped]\n")
    assert "eeee" not in err  # on the terminal only with -v
    assert_no_process_left(pids)


def test_a_banner_is_ignored_and_logged(tmp_path, pids, baseline, capsys):
    status, folder = match(tmp_path, engine("banner", tmp_path / "state"), "--time-limit", "2")
    assert status == 0, capsys.readouterr().err
    records = results(folder)
    assert [outcome(r, game_log(folder, r.number)[1]) for r in records] == baseline
    _, _, lines = game_log(folder, 1)
    assert "# out-of-turn output of white (misbehave.py) before the game: " in "\n".join(lines)
    assert "'misbehave ready'" in "\n".join(lines)


def test_an_engine_that_cannot_restart_ends_the_match_in_one_line(tmp_path, pids, capsys):
    status, folder = match(
        tmp_path, engine("crash-restart", tmp_path / "state"), "--time-limit", "2"
    )
    out, err = capsys.readouterr()
    assert status == 1
    assert [r.reason for r in results(folder)] == ["loop", "disconnect"]
    assert "2 of 4 games (stopped early)" in out
    (line,) = [line for line in err.splitlines() if line.startswith("trax: error:")]
    assert "misbehave.py did not answer -T" in line
    assert f"continue with: trax match --resume {folder}" in line
    assert_no_process_left(pids)


def test_an_engine_that_crashes_every_game_ends_the_match_after_three(tmp_path, pids, capsys):
    command = engine("crash-every", tmp_path / "state", "--game", "1")
    status, folder = match(tmp_path, command, "--time-limit", "2", games=6)
    err = capsys.readouterr().err
    assert status == 1
    assert [r.reason for r in results(folder)] == ["disconnect"] * 3
    assert "lost its link 3 games in a row" in err
    assert_no_process_left(pids)


ONE_GAME = Path(__file__).parent / "engines" / "one_game.py"


def one_game(*extra):
    return " ".join([sys.executable, str(ONE_GAME), *extra])


def test_an_engine_of_one_game_a_process_plays_a_whole_series_afresh_each_game(
    tmp_path, pids, baseline, capsys
):
    # It takes 1.2 s to start, more than the 1 s an answer: the start is never charged to a move.
    command = one_game("--startup", "1.2")
    folder = tmp_path / "series"
    argv = ["match", "--engine-per-game", command, "ref", "--nodes", "200", "--games", str(GAMES)]
    status = main([*argv, "--log-dir", str(folder), "--time-limit", "1"])
    out, err = capsys.readouterr()
    assert status == 0, err
    assert f"{GAMES} of {GAMES} games (complete)" in out
    records = results(folder)
    assert [outcome(r, game_log(folder, r.number)[1]) for r in records] == baseline
    assert all(max(r.times) < 1 for r in records)
    assert_logs_complete(folder, records)
    assert len(list(pids.glob("pgid-*"))) == GAMES  # a program for each game
    assert_no_process_left(pids)


def test_the_same_engine_as_a_plain_program_loses_the_games_after_its_first(tmp_path, pids, capsys):
    # The test above could fail: kept as one process, the engine cannot play a second game.
    status, folder = match(tmp_path, one_game(), "--time-limit", "1")
    assert status == 0, capsys.readouterr().err
    reasons = [r.reason for r in results(folder)]
    assert reasons[0] in ("loop", "line") and reasons[1] in ("disconnect", "timeout"), reasons
    assert_no_process_left(pids)


def test_an_engine_of_one_game_a_process_that_cannot_restart_ends_the_match(tmp_path, capsys):
    # A program that starts once and never again: a file marks the first start.
    mark = tmp_path / "started"
    command = f"bash -c 'test -e {mark} && exit 5; touch {mark}; exec {one_game()}'"
    folder = tmp_path / "series"
    argv = ["match", "--engine-per-game", command, "ref", "--nodes", "200", "--games", "4"]
    status = main([*argv, "--log-dir", str(folder), "--time-limit", "1"])
    out, err = capsys.readouterr()
    assert status == 1
    assert len(results(folder)) == 1
    assert "1 of 4 games (stopped early)" in out
    (line,) = [line for line in err.splitlines() if line.startswith("trax: error:")]
    assert "bash cannot be started for the next game" in line, line
    assert "(exited with status 5)" in line
    assert f"continue with: trax match --resume {folder}" in line


def test_a_match_that_fails_to_start_leaves_no_folder(tmp_path, capsys):
    folder = tmp_path / "series"
    assert main(["match", "ref", "robot", "--log-dir", str(folder)]) == 1
    assert not folder.exists()
    assert main(["match", "ref", "--engine", "false", "--log-dir", str(folder)]) == 1
    assert "did not answer -T" in capsys.readouterr().err
    assert not folder.exists()
    argv = ["match", "ref", "ref", "--nodes", "30", "--games", "1", "--log-dir", str(folder)]
    assert main(argv) == 0
    assert "ref (A)" in capsys.readouterr().out  # two players of the same name told apart


def _ctrl_c_as_in_a_terminal():
    """A shell's background job (``make test &``, ``nohup``) inherits SIGINT ignored, and Python
    then leaves it ignored: the referee gets Ctrl-C's default, as in a terminal."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def referee(folder, *options, **kwargs):
    argv = [sys.executable, "-m", "trax_fpga.cli", "match", "--log-dir", str(folder)]
    return subprocess.Popen(
        [*argv, *options],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=_ctrl_c_as_in_a_terminal,
        **kwargs,
    )


def resume(folder):
    """`trax match --resume folder` in a process of its own, to its end."""
    argv = [sys.executable, "-m", "trax_fpga.cli", "match", "--resume", str(folder)]
    return subprocess.run(argv, capture_output=True, text=True, timeout=120)


def wait_for_games(folder, count, timeout=60):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if (folder / RESULTS).exists() and len(results(folder)) >= count:
            return
        time.sleep(0.02)
    raise AssertionError(f"{count} games not finished in {timeout} s")


def wait_gone(pids, timeout=10):
    deadline = time.monotonic() + timeout
    while True:
        try:
            assert_no_process_left(pids)
            return
        except AssertionError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.02)


def test_a_series_killed_after_its_first_game_resumes_with_resume_dir_alone(tmp_path, pids):
    folder = tmp_path / "series"
    slow = engine("none", tmp_path / "state", "--delay", "0.05")
    options = ["--engine", slow, "ref", "--nodes", "200", "--games", "3", "--time-limit", "3"]
    process = referee(folder, *options)
    wait_for_games(folder, 1)
    process.kill()
    process.communicate()
    first = (folder / RESULTS).read_text().splitlines()[2]
    wait_gone(pids)  # the engine ends at the end of its input

    result = resume(folder)
    assert result.returncode == 0, result.stderr
    assert "3 of 3 games (complete)" in result.stdout
    records = results(folder)
    assert [r.number for r in records] == [1, 2, 3]
    assert (folder / RESULTS).read_text().splitlines()[2] == first
    assert_logs_complete(folder, records)
    assert_no_process_left(pids)


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM], ids=["ctrl-c", "sigterm"])
def test_ctrl_c_prints_the_score_and_the_resume_command_and_ends_the_engines(sig, tmp_path, pids):
    folder = tmp_path / "series"
    slow = engine("none", tmp_path / "state", "--delay", "0.05")
    process = referee(folder, "--engine", slow, "ref", "--games", "4", "--time-limit", "3")
    wait_for_games(folder, 1)
    process.send_signal(sig)
    out, err = process.communicate(timeout=30)
    assert process.returncode == 130, err
    assert "of 4 games (stopped early)" in out
    assert "trax: interrupted; score of " in err
    assert f"trax: continue with: trax match --resume {folder}" in err
    assert "Traceback" not in err
    assert_no_process_left(pids)


def test_games_played_at_once_end_as_the_same_games_played_one_by_one(
    tmp_path, pids, baseline, capsys
):
    status, folder = match(
        tmp_path, engine("none", tmp_path / "state"), "--time-limit", "2", "--concurrency", "2"
    )
    out, err = capsys.readouterr()
    assert status == 0, err
    assert f"{GAMES} of {GAMES} games (complete)" in out
    records = sorted(results(folder), key=lambda r: r.number)  # (in the order they ended)
    assert [r.number for r in records] == list(range(1, GAMES + 1))
    assert [outcome(r, game_log(folder, r.number)[1]) for r in records] == baseline
    assert_logs_complete(folder, records)
    assert (folder / "A2.stderr").exists()  # the second pair's engine
    assert len(list(pids.glob("pgid-*"))) == 2
    assert_no_process_left(pids)


def test_ctrl_c_with_games_at_once_records_only_whole_games_and_resumes(tmp_path, pids, baseline):
    folder = tmp_path / "series"
    slow = engine("none", tmp_path / "state", "--delay", "0.1")
    options = ["--engine", slow, "ref", "--nodes", "200", "--games", str(GAMES)]
    process = referee(folder, *options, "--time-limit", "3", "--concurrency", "2")
    wait_for_games(folder, 1)
    process.send_signal(signal.SIGINT)
    out, err = process.communicate(timeout=30)
    assert process.returncode == 130, err
    assert "Traceback" not in err
    assert f"trax: continue with: trax match --resume {folder}" in err
    played = results(folder)
    assert 1 <= len(played) < GAMES, out
    assert all(r.reason in ("loop", "line") for r in played)  # none cut short and recorded
    assert_no_process_left(pids)
    resumed = resume(folder)
    assert resumed.returncode == 0, resumed.stderr
    records = sorted(results(folder), key=lambda r: r.number)
    assert [outcome(r, game_log(folder, r.number)[1]) for r in records] == baseline
    assert_logs_complete(folder, records)


def test_concurrency_refuses_a_player_that_cannot_be_started_twice(tmp_path, capsys):
    argv = ["match", "ref", "port:/dev/null", "--concurrency", "2", "--log-dir", ""]
    assert main(argv) == 1
    err = capsys.readouterr().err
    assert "'port:/dev/null' cannot be started more than once" in err
    assert err.count("\n") == 1


def test_resume_refuses_options_that_contradict_the_series(tmp_path, capsys):
    folder = tmp_path / "series"
    argv = ["match", "ref", "ref", "--nodes", "30", "--games", "1", "--log-dir", str(folder)]
    assert main(argv) == 0
    capsys.readouterr()
    assert main(["match", "--resume", str(folder), "--nodes", "40"]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "--nodes 40 contradicts the series" in err
    assert main(["match", "--resume", str(folder), "--games", "2"]) == 0
    assert "2 of 2 games (complete)" in capsys.readouterr().out
    assert main(["match", "--resume", str(folder)]) == 0
    assert "2 of 2 games (complete)" in capsys.readouterr().out


def test_engines_run_in_their_own_session(tmp_path, pids, capsys):
    status, _ = match(tmp_path, engine("none", tmp_path / "state"), games=1)
    assert status == 0
    (entry,) = pids.glob("pgid-*")
    assert int(entry.name.split("-")[1]) != os.getpgid(0)


def test_an_older_series_without_its_settings_resumes_with_its_players(tmp_path, capsys):
    folder = tmp_path / "series"
    argv = ["match", "ref", "--engine", engine("none", tmp_path / "state"), "--nodes", "200"]
    assert main([*argv, "--games", "1", "--log-dir", str(folder)]) == 0
    (folder / "series.json").unlink()  # as a series started before the settings were kept
    assert main(["match", "--resume", str(folder), "--nodes", "200", "--games", "2"]) == 0
    assert "2 of 2 games (complete)" in capsys.readouterr().out
    assert [r.number for r in results(folder)] == [1, 2]
