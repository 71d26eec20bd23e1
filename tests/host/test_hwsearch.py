"""The gateware search's model (host/hwsearch.py) with the first design's evaluation
(host/hweval.py, ``board="window"``, kept as the opponent of the strength comparison in
host/search_bench.py): tactics.

The same tactical positions as the software player's (tests/data/tactics.txt), each answer
checked by brute force with the reference engine. Budgets are the model's nodes; the board
plays about a million nodes a second (``python -m trax_fpga.sim.track_bench``), the model in
Python a few thousand, so the larger budgets run in ``make test-slow``; the gateware on the
block-RAM board solves them in ``make test`` (tests/hdl/test_track_search.py).
"""

from __future__ import annotations

import pathlib

import pytest

from trax_fpga.host import search_bench
from trax_fpga.host.hwsearch import WIN, hw_search

from .test_search import TACTICS, forces_win_in_two, is_safe, winning_moves

WINDOW = 14
MAX_DEPTH = 3
#: Nodes the model is given per kind of tactic.
BUDGETS = {"win1": 2_000, "defend": 20_000, "win2": 100_000}


def fitting(prefix: str, window: int = WINDOW) -> list:
    found = []
    for tactic in TACTICS:
        box = tactic.position().box
        if tactic.kind.startswith(prefix) and max(box.width, box.height) + 2 <= window:
            found.append(pytest.param(tactic, id=f"{tactic.kind}-{tactic.source.split(' (')[0]}"))
    return found


def solves(tactic, move) -> bool:
    """``move`` answers the tactic: it wins at once, stops every win at once, or wins in two."""
    position = tactic.position()
    if tactic.kind.startswith("win1"):
        return move in winning_moves(position)
    if tactic.kind.startswith("defend"):
        return is_safe(position, move)
    return forces_win_in_two(position, move)


def budget_of(tactic) -> int:
    return BUDGETS[tactic.kind.split("-")[0]]


@pytest.mark.parametrize("tactic", fitting("win1"))
def test_win_in_one(tactic):
    result = hw_search(tactic.position(), WINDOW, WINDOW, budget_of(tactic), MAX_DEPTH)
    assert solves(tactic, result.move), result
    assert result.score == WIN - 1 and result.depth == 1


@pytest.mark.slow
@pytest.mark.parametrize("tactic", fitting("defend"))
def test_one_move_defence(tactic):
    result = hw_search(tactic.position(), WINDOW, WINDOW, budget_of(tactic), MAX_DEPTH)
    assert solves(tactic, result.move), result


@pytest.mark.slow
@pytest.mark.parametrize("tactic", fitting("win2"))
def test_win_in_two_by_double_threat(tactic):
    result = hw_search(tactic.position(), WINDOW, WINDOW, budget_of(tactic), MAX_DEPTH)
    assert solves(tactic, result.move), result
    assert result.score >= WIN - 3, result


def test_rates_prints_one_figure_line_for_each_search(capsys, monkeypatch):
    """``search_bench rates`` (in ``make bench``): the software player's and the model's nodes
    a second, each a figure line ``<name>: <value> nodes/s (<model>, <conditions>)``."""
    monkeypatch.chdir(pathlib.Path(__file__).resolve().parent.parent.parent)
    search_bench.main(["rates", "--budget", "200", "--positions", "2"])
    lines = capsys.readouterr().out.splitlines()
    names = ["software player speed", "search model speed", "gateware model speed"]
    compiled = ["compiled gateware model speed", "compiled many-engine model speed"]
    compiled.append("compiled board-file player speed")
    assert [line.split(":")[0] for line in lines] == [*names, *compiled]
    for line, budget in zip(lines, ["200"] * 3 + ["20,000", "6,000", "6,000"], strict=True):
        value = line.split(": ")[1].split(" nodes/s (")[0]
        assert int(value.replace(",", "")) > 0 and f"2 positions, {budget} nodes an engine)" in line
