"""The fit of the board's evaluation to KizuNa's search scores (host/distill.py): its features
against the board's evaluation, the fit itself, and the extraction from match logs."""

from __future__ import annotations

import random

from trax_fpga.host import distill
from trax_fpga.host.fastmodel import BOARD_WEIGHTS
from trax_fpga.host.position import Position
from trax_fpga.host.search_bench import midgame_positions
from trax_fpga.host.trackeval import CLAMP, track_features, track_score

from .test_fastmodel import HUMAN_GAMES, random_game


def test_the_boards_weights_on_the_features_are_the_boards_evaluation():
    """features() in BOARD_WEIGHTS's layout, weighed by BOARD_WEIGHTS, is trackeval's score
    wherever the board's leaf weighs a position (the layout the compiled model sums too)."""
    rng, compared = random.Random(5), 0
    positions = [random_game(rng, rng.randrange(2, 50)) for _ in range(60)]
    for position in positions + midgame_positions(40, 64, HUMAN_GAMES):
        row = distill.features(position)
        score = track_score(track_features(position, 64, 64), position.turn)
        if row is None:
            assert abs(score) == 500
            continue
        assert max(-CLAMP, min(CLAMP, distill.predict(BOARD_WEIGHTS, row))) == score
        compared += 1
    assert compared >= 40  # (of 100)


def test_ridge_without_a_penalty_recovers_linear_weights():
    rng = random.Random(1)
    truth = [3.0, -2.0, 0.5, 7.0]
    rows = [[rng.randrange(5), rng.randrange(5), rng.randrange(9), 1] for _ in range(50)]
    scores = [distill.predict(truth, row) for row in rows]
    found = distill.ridge(rows, scores, 0.0)
    assert all(abs(f - t) < 1e-6 for f, t in zip(found, truth, strict=True))
    shrunk = distill.ridge(rows, scores, 1000.0)
    assert abs(shrunk[0]) < abs(found[0])


def test_extract_pairs_kizunas_searches_with_the_game(tmp_path):
    """KizuNa as black: its n-th search is the position before ply 2n + 2."""
    moves = ["@0+", "A0+", "A0+", "B2\\", "@2\\"]
    log = tmp_path / "m" / "0001-trax-kizuna.log"
    log.parent.mkdir()
    header = "# white: A = engine:trax engine\n# black: B = engine:kizuna_wrap.py\n"
    log.write_text(header + "Trax\ntrax vs kizuna\n" + "\n".join(moves) + "\n")
    err = tmp_path / "r" / "kizuna-1.err"
    err.parent.mkdir()
    err.write_text("search best = -16 A0+ depth = 7\nnoise\nsearch best = 309 B2\\ depth = 6\n")
    samples = distill.extract([log.parent], [err.parent])
    assert [(s.score, s.depth, s.moves) for s in samples] == [
        (-16, 7, tuple(moves[:1])),
        (309, 6, tuple(moves[:3])),
    ]
    out = tmp_path / "data.txt"
    distill.main(
        ["extract", "--matches", str(log.parent), "--runs", str(err.parent), "--out", str(out)]
    )
    assert distill.read_samples(out) == samples


def test_the_data_file_replays_and_the_fit_beats_the_boards_evaluation():
    """Every sample of tests/data/kizuna_scores.txt is a legal game; on games it did not see,
    the fit predicts KizuNa's scores better than the board's evaluation does."""
    samples = distill.read_samples()
    assert len(samples) >= 1000
    for sample in samples[::25]:
        Position.from_moves(list(sample.moves))
    rows, scores, games = distill.quiet_rows(samples)
    folds = distill.held_out(rows, scores, games, 30.0)
    fitted = sum(f for f, _ in folds) / len(folds)
    board = sum(b for _, b in folds) / len(folds)
    assert fitted > board + 0.1
