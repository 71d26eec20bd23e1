"""`trax judge --backend rtl`: record verdicts from the gateware rules core (Verilator)."""

import io
import sys

from trax_fpga.cli import main
from trax_fpga.host.judge import judge_game

from ..host.records import DATA, moves_only, record_lines


def run_judge(text, monkeypatch, capsys, *extra):
    monkeypatch.setattr(sys, "stdin", io.StringIO(text))
    status = main(["judge", "--backend", "rtl", "--window", "18", *extra])
    out, err = capsys.readouterr()
    return status, out.splitlines(), err


def test_human_games_judged_by_the_gateware(monkeypatch, capsys):
    lines = (DATA / "human_games.txt").read_text().splitlines()[:60]
    status, out, _ = run_judge("\n".join(lines), monkeypatch, capsys)
    expected = [row[1] for row in record_lines("human_games.txt")][: len(out)]
    assert status == 0
    assert len(out) > 50
    assert out == expected


def test_illegal_records_and_an_overflowing_game(monkeypatch, capsys):
    games = [moves_only(row[-1]) for row in record_lines("engine_tests_uzumushi.txt")]
    referee = {row[0]: moves_only(row[-1]) for row in record_lines("official_referee_tests.txt")}
    horizontal = referee["horizontal"]
    text = "\n".join(" ".join(g) for g in [*games, horizontal])
    status, out, err = run_judge(text, monkeypatch, capsys)
    assert out[:-1] == [judge_game(g) for g in games]
    assert out[-1] == "window-overflow"  # 54 columns do not fit an 18-wide window
    assert status == 1 and "outgrew the 18x18 window" in err
