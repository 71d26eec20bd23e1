"""`trax judge --backend rtl`: record verdicts from the gateware rules core (Verilator), the
board in block RAM at its 64 x 64 torus by default (``--torus``).
"""

import io
import sys

from trax_fpga.cli import main
from trax_fpga.host.judge import judge_game

from ..host.records import DATA, moves_only, record_lines


def run_judge(text, monkeypatch, capsys, *extra):
    monkeypatch.setattr(sys, "stdin", io.StringIO(text))
    status = main(["judge", "--backend", "rtl", *extra])
    out, err = capsys.readouterr()
    return status, out.splitlines(), err


def test_every_record_file_judged_by_the_default_core(monkeypatch, capsys):
    """Every game of every record file in tests/data, at the default size: the reference's
    verdicts, none outgrowing the torus."""
    files = [str(f) for f in sorted(DATA.glob("*.txt"))]
    assert main(["judge", *files]) == 0
    expected = capsys.readouterr().out.splitlines()
    status, out, err = run_judge("", monkeypatch, capsys, *files)
    assert status == 0, err
    assert len(out) == len(expected) > 277 + 150
    assert out == expected


def test_illegal_records_and_an_overflowing_game(monkeypatch, capsys):
    games = [moves_only(row[-1]) for row in record_lines("engine_tests_uzumushi.txt")]
    referee = {row[0]: moves_only(row[-1]) for row in record_lines("official_referee_tests.txt")}
    horizontal = referee["horizontal"]
    text = "\n".join(" ".join(g) for g in [*games, horizontal])
    status, out, err = run_judge(text, monkeypatch, capsys, "--torus", "32")
    assert out[:-1] == [judge_game(g) for g in games]
    assert out[-1] == "window-overflow"  # 54 columns do not fit a 32-wide torus
    assert status == 1 and "outgrew the 32x32 torus" in err


def test_a_status_line_on_a_terminal_and_silence_in_a_pipe(tmp_path):
    """While it builds or simulates, a status line on a terminal; in a pipe, the verdicts alone."""
    import os
    import pty
    import subprocess

    games = tmp_path / "games.txt"
    games.write_text("@0/ A2\\ B1\\\n" * 40)
    command = [sys.executable, "-m", "trax_fpga.cli", "judge", "--backend", "rtl", str(games)]
    piped = subprocess.run(command, capture_output=True, text=True, timeout=600, check=True)
    assert piped.stdout == "black-loop\n" * 40
    assert piped.stderr == ""
    leader, follower = pty.openpty()
    try:
        result = subprocess.run(
            command, stdout=subprocess.PIPE, stderr=follower, text=True, timeout=600, check=True
        )
        os.close(follower)
        follower = None
        seen = b""
        while True:
            try:
                chunk = os.read(leader, 4096)
            except OSError:
                break
            if not chunk:
                break
            seen += chunk
    finally:
        if follower is not None:
            os.close(follower)
        os.close(leader)
    assert result.stdout == "black-loop\n" * 40
    assert b"trax: judging with the gateware rules core (simulated)" in seen
    assert seen.endswith(b"\r\x1b[K")  # erased at the end
