"""The weight fit (host/tune.py) and the research options of the model (host/trackresearch.py).

The research options must leave the model alone when not asked for: ``tuning=TrackTuning()``
(the gateware's weights, no extra feature) is the gateware's model node for node.
"""

import math
import pathlib
import random

import pytest

from trax_fpga.host.evaluate import DEFAULT_WEIGHTS, evaluate
from trax_fpga.host.hwsearch import INFINITY, _Searcher, hw_search
from trax_fpga.host.position import Position
from trax_fpga.host.trackeval import track_features
from trax_fpga.host.trackresearch import (
    NO_LINES,
    TUNINGS,
    TrackTuning,
    research_features,
    research_score,
)
from trax_fpga.host.tune import fit_logistic, load_samples, read_games, shift_add

from .test_search import TACTICS, random_position


def test_shift_add_rounds_to_two_bits_at_most():
    assert [shift_add(v) for v in (9.0, 68.8, 60, 150, 0.2, -7.4, 100)] == [
        9,
        68,
        64,
        144,
        0,
        -8,
        96,
    ]
    for value in range(1, 3000):
        assert bin(shift_add(value)).count("1") <= 2


def test_the_fit_recovers_known_coefficients():
    rng = random.Random(12)
    true = [0.8, -1.5, 0.3]
    rows, labels = [], []
    for _ in range(4000):
        x = [rng.randint(-3, 3), rng.randint(0, 1), 1.0]
        p = 1 / (1 + math.exp(-sum(b * v for b, v in zip(true, x, strict=True))))
        rows.append(x)
        labels.append(rng.random() < p)
    beta, errors, _ = fit_logistic(rows, labels)
    assert len(rows) == 4000
    for b, e, t in zip(beta, errors, true, strict=True):
        assert abs(b - t) < 4 * e, (beta, errors)


def test_samples_are_labelled_by_the_side_to_move(tmp_path):
    records = tmp_path / "games.txt"
    records.write_text(
        "# three games, two decided\n1 | black-loop | @0/ A2\\ B1\\\n2 | none | @0+ A2+\n"
        "x.log | AA vs BB | W-loop | @0/ @1/ A2+ A0/\n"
    )
    games = read_games(records)
    assert [len(moves) for moves, _ in games] == [3, 4]
    samples = load_samples([records])
    assert len(samples) == 2 + 3  # every position before the last move of the decided games
    # Game 1: after @0/ black is to move and wins; after A2\ white is to move and loses.
    assert [(s.white, s.won) for s in samples[:2]] == [(False, True), (True, False)]
    # Game 2: white wins, so each position is won exactly when white is to move.
    assert [(s.white, s.won) for s in samples[2:]] == [(False, False), (True, True), (False, False)]


def test_research_features_count_attacks_as_the_gateware():
    rng = random.Random(5)
    checked = 0
    positions = [t.position() for t in TACTICS]
    positions += [random_position(rng, rng.randrange(4, 30)) for _ in range(30)]
    for position in positions:
        spec = track_features(position, 64, 64)
        found = research_features(position, 64, 64)
        assert found.attacks == spec.attacks
        assert len(found.near_targets[0]) <= 2 * found.near[0]
        checked += 1
    assert checked == len(TACTICS) + 30


def test_research_score_adds_its_features():
    position = Position.from_moves(["@0/", "A2\\"])
    found = research_features(position, 64, 64)
    turn = position.turn
    base = research_score(found, turn, TrackTuning())
    far = research_score(found, turn, TrackTuning(far=10))
    assert far - base == 10 * (found.far[turn] - found.far[turn.other])


def test_the_software_loops_tuning_is_the_gateware_model_node_for_node():
    """``sw-loops`` (the software player's loop potential and tempo at the horizon) is what the
    board's evaluation became: while the games are small beside the torus, node for node."""
    rng = random.Random(7)
    checked = 0
    for _ in range(12):
        position = random_position(rng, rng.randrange(3, 30))
        if position.outcome is not None:
            continue
        for budget in (1, 40, 600):
            want = hw_search(position, 64, 64, budget, 6, board="track")
            got = hw_search(position, 64, 64, budget, 6, board="track", tuning=TUNINGS["sw-loops"])
            assert got == want
            checked += 1
    assert checked >= 24


def test_every_research_variant_plays_legal_moves():
    position = Position.from_moves(["@0/", "A2\\", "B1+"])
    for name, tuning in TUNINGS.items():
        result = hw_search(position, 64, 64, 300, 6, board="track", tuning=tuning)
        assert position.is_legal(result.move), name
        assert result.nodes <= 300, name
    assert len(TUNINGS) >= 8


def test_a_tuning_needs_the_track_board():
    with pytest.raises(ValueError, match="block-RAM board"):
        hw_search(Position.from_moves(["@0/"]), 16, 16, 10, 2, tuning=TrackTuning())


def test_the_software_tuning_scores_the_horizon_with_the_software_evaluation():
    """``software``: at a quiet horizon (no attack of the side to move, at most one of the
    opponent's) the score is the software player's evaluation less the opponent's attacks,
    clamped; without ``software_lines``, its line progress is left out."""
    rng = random.Random(11)
    checked = differs = 0
    while checked < 20:
        position = random_position(rng, rng.randrange(6, 30))
        if position.outcome is not None:
            continue
        found = research_features(position, 64, 64)
        side = position.turn
        if found.attacks[side] or found.attacks[side.other] > 1:
            continue
        for tuning, weights in ((TUNINGS["sw"], DEFAULT_WEIGHTS), (TUNINGS["sw-loops"], NO_LINES)):
            searcher = _Searcher(position.copy(), 64, 64, 10**6, True, "track", tuning)
            value = evaluate(searcher.position, weights) - 150 * found.attacks[side.other]
            # the move just played (at ply 1 of an iteration of 1: no extension), from its
            # mover's side: the negation
            assert searcher.tuned_value(1, 1, -INFINITY, INFINITY) == -max(-400, min(400, value))
        differs += evaluate(position) != evaluate(position, NO_LINES)
        checked += 1
    assert differs >= 3


def test_the_table_of_best_moves_changes_the_order_not_the_scores():
    """``hash_moves``: every completed iteration scores as without the table (alpha-beta's
    value does not depend on move order), and over these positions the searches to depth 3
    take fewer nodes with it."""
    rng = random.Random(23)
    checked = without = with_table = 0
    while checked < 8:
        position = random_position(rng, rng.randrange(8, 30))
        if position.outcome is not None:
            continue
        for depth in (2, 3):
            want = hw_search(position, 64, 64, 10**9, depth, board="track")
            got = hw_search(
                position, 64, 64, 10**9, depth, board="track", tuning=TUNINGS["sw-loops-hash"]
            )
            assert (got.score, got.depth) == (want.score, want.depth)
            assert position.is_legal(got.move)
        without += want.nodes
        with_table += got.nodes
        checked += 1
    assert with_table < without


def test_the_depth_figure_prints_one_line_per_tuning(capsys, monkeypatch):
    """``search_bench depth``: a figure per tuning, its scores listed, the same for a tuning
    that orders moves only."""
    from trax_fpga.host import search_bench

    monkeypatch.chdir(pathlib.Path(__file__).parents[2])
    search_bench.main(["depth", "--depth", "2", "--positions", "2"])
    lines = capsys.readouterr().out.splitlines()
    assert [line.split(":")[0] for line in lines] == [
        "sequential search, depth 2, the gateware",
        "sequential search, depth 2, sw-loops-hash",
    ]
    scores = [line.split("; scores ")[1] for line in lines]
    assert scores[0] == scores[1] and len(scores[0].split()) == 2
