"""The self-play tuner (host/spsa.py): its start is the board's evaluation, it climbs toward
the side that wins, a resumed run repeats an uninterrupted one, and its games are real."""

from __future__ import annotations

import json

from trax_fpga.host import spsa
from trax_fpga.host.fastmodel import BOARD_WEIGHTS

START = [p.start for p in spsa.PARAMETERS]
MINE_LONG = [p.name for p in spsa.PARAMETERS].index("mine long")


def test_the_start_is_the_boards_evaluation():
    assert spsa.weights_of(START) == list(BOARD_WEIGHTS)


def test_each_parameter_moves_its_weights():
    for i, parameter in enumerate(spsa.PARAMETERS):
        theta = list(START)
        theta[i] += 1.0 if parameter.start == 1.0 else 10.0
        changed = [a != b for a, b in zip(spsa.weights_of(theta), BOARD_WEIGHTS, strict=True)]
        assert any(changed), parameter.name


def _prefers_long_tracks(first, second, seed, budget):
    """A stand-in for a pair of games: the evaluation valuing its long tracks more wins both."""
    return 2 * ((first[27] > second[27]) - (first[27] < second[27]))


def test_the_tuner_climbs_toward_the_winner():
    tuner = spsa.Tuner(iterations=60, budget=1)
    while tuner.done < tuner.iterations:
        tuner.batch(4, _prefers_long_tracks)
    assert tuner.done == 60
    # every pair moved it up: 60 steps of at least 2 * rate * c_end each
    assert tuner.theta[MINE_LONG] > 60 * 2 * tuner.rate * spsa.PARAMETERS[MINE_LONG].c_end


def test_a_resumed_run_repeats_an_uninterrupted_one():
    whole = spsa.Tuner(iterations=20, budget=1, seed=5)
    whole.batch(20, _prefers_long_tracks)
    first = spsa.Tuner(iterations=20, budget=1, seed=5)
    first.batch(8, _prefers_long_tracks)
    resumed = spsa.Tuner.from_state(json.loads(json.dumps(first.state())))
    resumed.batch(12, _prefers_long_tracks)
    assert resumed.done == whole.done == 20
    assert resumed.theta == whole.theta


def test_equal_evaluations_split_a_pair():
    """Two games of the same evaluation with colours swapped: one each, so the pair is 0 (a
    search that carried anything from one player's game to the other's would not be)."""
    weights = list(BOARD_WEIGHTS)
    assert [spsa.play_pair(weights, weights, seed, 3000) for seed in (1, 2)] == [0, 0]


def test_a_pair_between_a_strong_and_a_blind_evaluation_is_played_out():
    blind = [0] * len(BOARD_WEIGHTS)
    results = [spsa.play_pair(list(BOARD_WEIGHTS), blind, seed, 3000) for seed in range(4)]
    assert all(-2 <= r <= 2 for r in results)
    assert sum(results) > 0  # the board's evaluation beats none at all


def test_the_command_writes_weights_and_resumes(tmp_path, capsys):
    out = tmp_path / "w.json"
    assert spsa.main(["--iterations", "2", "--budget", "2000", "--out", str(out), "-q"]) == 0
    weights = json.loads(out.read_text())
    assert len(weights) == len(BOARD_WEIGHTS) and all(isinstance(w, int) for w in weights)
    state = json.loads((tmp_path / "w.json.state").read_text())
    assert state["done"] == 2 and state["budget"] == 2000
    assert spsa.main(["--out", str(out), "--resume", "-q"]) == 0  # nothing left: the same
    assert json.loads(out.read_text()) == weights
    assert "weights:" in capsys.readouterr().out
