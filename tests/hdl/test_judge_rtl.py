"""`trax judge --backend rtl`: record verdicts from the gateware rules cores (Verilator).

By default the board in block RAM at its 64 x 64 torus (``--core track``); ``--core window`` is
the first design's window of cells.
"""

import io
import sys

from trax_fpga.host.cli import main
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


def test_human_games_judged_by_the_window_core(monkeypatch, capsys):
    lines = (DATA / "human_games.txt").read_text().splitlines()[:60]
    status, out, _ = run_judge(
        "\n".join(lines), monkeypatch, capsys, "--core", "window", "--window", "18"
    )
    expected = [row[1] for row in record_lines("human_games.txt")][: len(out)]
    assert status == 0
    assert len(out) > 50
    assert out == expected


def test_illegal_records_and_an_overflowing_game(monkeypatch, capsys):
    games = [moves_only(row[-1]) for row in record_lines("engine_tests_uzumushi.txt")]
    referee = {row[0]: moves_only(row[-1]) for row in record_lines("official_referee_tests.txt")}
    horizontal = referee["horizontal"]
    text = "\n".join(" ".join(g) for g in [*games, horizontal])
    status, out, err = run_judge(text, monkeypatch, capsys, "--window", "32")
    assert out[:-1] == [judge_game(g) for g in games]
    assert out[-1] == "window-overflow"  # 54 columns do not fit a 32-wide torus
    assert status == 1 and "outgrew the 32x32 torus" in err
