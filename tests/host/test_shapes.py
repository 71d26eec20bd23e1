"""The shapes evaluation (research, issue 12): the compiled model's feature counts against the
Python reference, its score against the weights, its search against the board's, and the
self-play fit of its weights (host/shapes.py, host/shapefit.py, host/fastmodel.c's shape_walk).

A random test asserts how many cases it compared, so that it cannot pass having compared none.
"""

from __future__ import annotations

import json
import math
import pathlib
import random

import pytest

from trax_fpga.host import fastmodel, shapes
from trax_fpga.host.fastmodel import fast_parallel_search, fast_search
from trax_fpga.host.position import Position
from trax_fpga.host.search_bench import make_player, midgame_positions, with_shape_weights
from trax_fpga.host.shapefit import fit, load_records, load_samples, teach, write_records
from trax_fpga.host.shapefit import main as shapefit_main
from trax_fpga.host.shapes import (
    CONSTANT,
    LONG,
    PAIRS,
    PSEUDO,
    SHAPE_FEATURES,
    TRACKS,
    kizuna_weights,
    pair_pattern,
    reference_features,
    shape_features,
    shape_weights,
)

HUMAN_GAMES = pathlib.Path(__file__).parent.parent / "data" / "human_games.txt"
SHAPES = fastmodel.RESEARCH_SHAPES
ORDER = fastmodel.RESEARCH_CUT | fastmodel.RESEARCH_NEWEST
#: search_bench's ``board1-r131``: the board file's table and order, the shapes evaluation.
BOARD = {"move_table": 16384, "table_scores": True, "shared_table": True}
BOARD["research"] = ORDER | SHAPES


@pytest.fixture
def zero_weights():
    """The shapes weights set to zero after the test (the library is the process's)."""
    yield
    shape_weights([0] * SHAPE_FEATURES)


def random_positions(seed: int, games: int):
    rng = random.Random(seed)
    for _ in range(games):
        position = Position()
        for _ in range(rng.randrange(2, 70)):
            position.play(rng.choice(position.legal_moves()))
            if position.outcome is not None:
                break
            yield position.copy()


def test_the_compiled_counts_are_the_references():
    """Every feature of seeded random games' and human games' positions, counted by the
    compiled model and by the Python reference, on the 64 x 64 torus and on a small one whose
    seams the tracks cross."""
    compared, seen = 0, [0] * SHAPE_FEATURES
    positions = list(random_positions(7, 40)) + midgame_positions(40, 64, HUMAN_GAMES)
    for position in positions:
        for size in (64, 12):
            box = position.box
            if size < 64 and max(box.width, box.height) + 2 > size:
                continue
            found = shape_features(position, size)
            assert found.counts == reference_features(position, size), repr(position)
            seen = [s + (c > 0) for s, c in zip(seen, found.counts, strict=True)]
            compared += 1
    assert compared >= 700
    for start, count in ((PSEUDO, 2), (LONG, 2), (TRACKS, 512), (PAIRS, 512)):
        assert all(any(seen[start + k :: 2][: count // 2]) for k in (0, 1)), start
    assert seen[CONSTANT] == compared


def test_a_pseudo_threat_by_hand():
    """@0+ @1/ B0/ B0/ leaves two white NW curves with both ends open, at (-1, 0) and (0, -2): the
    same tile a knight's move apart, KizuNa's pseudo-threat, white's; white is to move. Both are
    1-1 corners (shape: fronts 1 apart in x and in y, one back cell)."""
    position = Position.from_moves(["@0+", "@1/", "B0/", "B0/"])
    assert position.turn.name == "WHITE"
    counts = shape_features(position).counts
    assert counts[PSEUDO : PSEUDO + 2] == (1, 0)
    assert counts[TRACKS + 2 * shapes.CORNER_SHAPE] == 2  # the side to move's corners


def test_the_score_is_the_weighted_count(zero_weights):
    """The evaluation's score is the weights' sum over the counts, less 150 an opponent's
    attack, clamped to +-400; +500 with an attack of the side to move, -500 against two."""
    rng = random.Random(3)
    weights = [rng.randrange(-40, 41) for _ in range(SHAPE_FEATURES)]
    shape_weights(weights)
    compared = {"sum": 0, "own attack": 0, "two attacks": 0}
    for position in random_positions(11, 30):
        found = shape_features(position)
        mine, theirs = found.attacks
        if mine:
            assert found.score == 500
            compared["own attack"] += 1
        elif theirs >= 2:
            assert found.score == -500
            compared["two attacks"] += 1
        else:
            total = sum(w * c for w, c in zip(weights, found.counts, strict=True))
            assert found.score == max(-400, min(400, total - 150 * theirs))
            compared["sum"] += 1
    assert compared["sum"] >= 200 and min(compared.values()) >= 10, compared


def test_the_constant_alone_is_the_fitted_evaluations_tempo(zero_weights):
    """RESEARCH_SHAPES with only its constant (20) searches node for node as RESEARCH_FITTED
    with only the tempo (20) and the opponent's attacks (-150): the evaluation's plumbing in
    the search, one engine and three. Other weights change the searches."""
    shape_weights([0] * CONSTANT + [20])
    fastmodel.research_weights([0] * 24 + [-150, 0, 0, 0, 0, 20])
    table = {"move_table": 16384, "table_scores": True}
    positions = midgame_positions(6, 64, HUMAN_GAMES)
    try:
        for position in positions:
            for research in (0, ORDER):
                fitted = fast_search(position, 64, 64, 3000, 8, research=research | 8, **table)
                found = fast_search(position, 64, 64, 3000, 8, research=research | SHAPES, **table)
                assert found == fitted
            shared = dict(table, shared_table=True)
            expected = fast_parallel_search(position, 64, 64, 800, 8, 3, research=8, **shared)
            assert fast_parallel_search(position, 64, 64, 800, 8, 3, research=SHAPES, **shared) == (
                expected
            )
        shape_weights(kizuna_like())
        changed = sum(
            fast_search(p, 64, 64, 3000, 8, research=SHAPES, **table)
            != fast_search(p, 64, 64, 3000, 8, research=8, **table)
            for p in positions
        )
        assert changed >= 3
    finally:
        fastmodel.research_weights(fastmodel.BOARD_WEIGHTS)


def kizuna_like() -> list[int]:
    """Weights with the signs KizuNa's give: the side to move's pseudo-threats and near pairs
    good, the opponent's bad (a test input, not a tuning)."""
    weights = [0] * SHAPE_FEATURES
    weights[PSEUDO], weights[PSEUDO + 1] = 300, -300
    for q in range(256):
        near = 4 - min(4, (q & 3) + (q >> 2 & 3))
        weights[PAIRS + 2 * q], weights[PAIRS + 2 * q + 1] = 10 * near, -10 * near
    return weights


def test_each_player_of_a_match_searches_with_its_own_shape_weights(zero_weights):
    """`search_bench match --shape-weights A --shape-weights-b B`: the players' moves, taken in
    turn, are those of the search with each one's weights alone, and the two differ."""
    mine, other = kizuna_like(), [-w for w in kizuna_like()]
    first = with_shape_weights(make_player("board1-r131", 2000), mine)
    second = with_shape_weights(make_player("board1-r131", 2000), other)
    moves = {"same": 0, "differ": 0}
    for position in midgame_positions(6, 64, HUMAN_GAMES):
        found = (first(position), second(position), first(position))
        expected = []
        for weights in (mine, other, mine):
            shape_weights(weights)
            expected.append(fast_parallel_search(position, 64, 64, 2000, 8, 1, **BOARD).move)
        assert list(found) == expected
        moves["same" if found[0] == found[1] else "differ"] += 1
    assert moves["differ"] >= 2, moves


def test_a_match_refuses_player_bs_weights_without_player_as(tmp_path, capsys):
    from trax_fpga.host.search_bench import main

    path = tmp_path / "w.json"
    path.write_text(json.dumps([0] * SHAPE_FEATURES))
    with pytest.raises(SystemExit) as refused:
        main(["match", "board1-r131", "board1-r131", "--shape-weights-b", str(path)])
    assert refused.value.code == 2
    assert "--shape-weights-b needs --shape-weights" in capsys.readouterr().err


def test_a_pair_pattern_does_not_depend_on_the_order_of_the_ends():
    assert pair_pattern(5, 2) == pair_pattern(2, 5) == 2 | 5 << 4


def test_kizunas_layout_is_read_and_its_pairs_made_symmetric():
    numbers = list(range(SHAPE_FEATURES))
    source = "constexpr int eval_params[] = {\n" + ",\n".join(map(str, numbers)) + "};\n"
    weights = kizuna_weights(source, scale=2)
    assert weights[:PAIRS] == [2 * n for n in numbers[:PAIRS]]
    q, swapped = 0x12, 0x21
    for other in (0, 1):
        a, b = PAIRS + 2 * q + other, PAIRS + 2 * swapped + other
        assert weights[a] == weights[b] == a + b
    assert weights[CONSTANT] == 2 * CONSTANT
    with pytest.raises(ValueError, match="1029"):
        kizuna_weights("int eval_params[] = {1, 2, 3};")
    with pytest.raises(ValueError):
        shape_weights([1, 2, 3])


def test_the_samples_are_labelled_by_the_side_to_move(tmp_path):
    """Records round-trip; every sample's label says whether its side to move (white at even
    plies) won; positions with an attack of the side to move, or two of the opponent's, and the
    opening's, are left out."""
    games = [line for line in HUMAN_GAMES.read_text().splitlines() if not line.startswith("#")]
    lines = [line for line in games if "white-loop" in line][:3]
    lines += [line for line in games if "black-line" in line][:3]
    records = [(line.split("|")[1].strip(), line.rsplit("|", 1)[1].split()) for line in lines]
    path = tmp_path / "games.txt"
    write_records(path, records)
    assert load_records(path) == records
    samples = load_samples(records)
    assert len(samples) >= 60
    assert {s[1] for s in samples} == {0, 1}
    for counts, label, theirs, index, ply in samples:
        result, moves = records[index]
        assert label == int((ply % 2 == 0) == result.startswith("white"))
        features = shape_features(Position.from_moves(moves[:ply]))
        assert features.counts == counts and features.attacks == (0, theirs) and theirs <= 1
        assert ply >= 4


def test_the_teacher_mixes_the_searchs_judgement_into_the_labels():
    """With ``--teacher`` a label is the result mixed with the board file's search's judgement
    of the position (its score for the side to move, as a probability): mix 0 leaves the
    results, mix 1 is the judgement alone, the same with one job and two."""
    games = [line for line in HUMAN_GAMES.read_text().splitlines() if not line.startswith("#")]
    records = [(line.split("|")[1].strip(), line.rsplit("|", 1)[1].split()) for line in games[:2]]
    samples = load_samples(records)[:12]
    assert teach(samples, records, 300, 0.0) == samples
    judged = teach(samples, records, 300, 1.0)
    reports = []
    assert teach(samples, records, 300, 1.0, jobs=2, progress=lambda *r: reports.append(r)) == (
        judged
    )
    games = len({sample[3] for sample in samples})
    assert reports == [(done, games) for done in range(1, games + 1)]
    for sample, taught in zip(samples, judged, strict=True):
        score = fast_search(
            Position.from_moves(records[sample[3]][1][: sample[4]]),
            *(64, 64, 300, 8),
            research=ORDER,
            move_table=16384,
            table_scores=True,
        ).score
        assert taught[1] == pytest.approx(1 / (1 + math.exp(-score / 100)))
        assert taught[0] == sample[0] and taught[2:] == sample[2:]
    assert len({round(t[1], 6) for t in judged}) >= 3


def test_the_fit_finds_a_planted_weight():
    """Synthetic positions whose result follows one feature: the fit gives it the weight that
    made the labels, within the noise, and the others near nothing."""
    rng = random.Random(5)
    samples = []
    for k in range(4000):
        counts = [0] * SHAPE_FEATURES
        counts[CONSTANT] = 1
        counts[TRACKS + 10] = rng.randrange(0, 3)
        counts[TRACKS + 20] = rng.randrange(0, 3)
        logit = counts[TRACKS + 10] * 80 / 100
        label = int(rng.random() < 1 / (1 + 2.718281828**-logit))
        samples.append((tuple(counts), label, 0, k, 4))
    weights = fit(samples, l2=0, iterations=800, min_count=5, held_out=0, report=lambda _: None)
    assert 55 <= weights[TRACKS + 10] <= 110
    assert abs(weights[TRACKS + 20]) <= 25


@pytest.mark.parametrize("name", ["shape_weights_round1.json", "shape_weights_round2.json"])
def test_the_kept_weights_fit_the_layout(name, zero_weights):
    """The two rounds' weights (docs/evaluation.md, "The shapes evaluation") are 1,029 integers
    that the model takes; features never seen in the fit (the rarest) are 0."""
    weights = json.loads((HUMAN_GAMES.parent / name).read_text())
    shape_weights(weights)
    assert len(weights) == SHAPE_FEATURES and all(isinstance(w, int) for w in weights)
    assert 300 <= sum(w == 0 for w in weights) < SHAPE_FEATURES - 300


def _near(index: int, reach: int) -> bool:
    """A pair feature's four front distances (|dx|, |dy| of each matched pair) within ``reach``."""
    q = (index - PAIRS) // 2
    return max(q & 3, q >> 2 & 3, q >> 4 & 3, q >> 6 & 3) <= reach


@pytest.mark.parametrize("reach, patterns", [(1, 16), (2, 81), (None, 256)])
def test_the_keep_command_sets_the_other_groups_and_the_far_pairs_to_0(tmp_path, reach, patterns):
    """`shapes keep FILE --groups pseudo,tracks,pairs --pairs-within R`: the chosen groups'
    weights as they were, of the pairs only those whose fronts lie within R, the long tracks 0,
    the constant kept (the files of docs/evaluation.md's table of what the pairs are worth)."""
    weights = [i + 1 for i in range(SHAPE_FEATURES)]
    source, out = tmp_path / "w.json", tmp_path / "kept.json"
    source.write_text(json.dumps(weights))
    argv = ["keep", str(source), "--groups", "pseudo,tracks,pairs", "--out", str(out)]
    assert shapes.main(argv + ([] if reach is None else ["--pairs-within", str(reach)])) == 0
    kept = json.loads(out.read_text())
    for i, weight in enumerate(kept):
        if PAIRS <= i < CONSTANT:
            expected = weights[i] if reach is None or _near(i, reach) else 0
        else:
            expected = 0 if LONG <= i < TRACKS else weights[i]
        assert weight == expected, i
    assert sum(w != 0 for w in kept[PAIRS:CONSTANT]) == 2 * patterns
    assert shapes.chosen_features(("tracks",), 2)[CONSTANT]


def test_the_keep_command_refuses_unknown_groups_and_wrong_files(tmp_path, capsys):
    source = tmp_path / "w.json"
    source.write_text(json.dumps([1, 2, 3]))
    for argv, reason in (
        (["--groups", "tracks,corners"], "unknown groups corners"),
        (["--groups", "tracks"], f"expected a JSON list of {SHAPE_FEATURES} weights"),
        (["--groups", "pairs", "--pairs-within", "4"], "pairs within 0 to 3 only"),
    ):
        with pytest.raises(SystemExit) as refused:
            shapes.main(["keep", str(source), *argv])
        assert refused.value.code == 2
        assert reason in capsys.readouterr().err
    source.write_text("[1, 2,")
    with pytest.raises(SystemExit):
        shapes.main(["keep", str(source), "--groups", "tracks"])
    assert str(source) in capsys.readouterr().err
    records = tmp_path / "games.txt"
    write_records(records, [])
    fit_argv = ["fit", str(records), "--out", str(tmp_path / "fit.json")]
    for argv, reason in (
        (["--groups", "tracks,corners"], "unknown groups corners"),
        (["--pairs-within", "4"], "pairs within 0 to 3 only"),
    ):
        with pytest.raises(SystemExit) as refused:
            shapefit_main(fit_argv + argv)
        assert refused.value.code == 2
        assert reason in capsys.readouterr().err
    assert not (tmp_path / "fit.json").exists()


def test_the_fit_leaves_the_far_pairs_at_0_within_a_reach():
    """``fit(pairs_within=1)``: a planted near pair's weight is found, a far pair that follows
    the result as well is left at 0 (``shapefit fit --pairs-within 1``)."""
    near, far = PAIRS + 2 * (1 | 1 << 4), PAIRS + 2 * (3 | 2 << 2 | 1 << 4)
    assert _near(near, 1) and not _near(far, 2)
    rng = random.Random(7)
    samples = []
    for k in range(3000):
        counts = [0] * SHAPE_FEATURES
        counts[CONSTANT] = 1
        counts[near] = counts[far] = rng.randrange(0, 3)
        logit = counts[near] * 80 / 100
        label = int(rng.random() < 1 / (1 + math.exp(-logit)))
        samples.append((tuple(counts), label, 0, k, 4))
    quiet = {"l2": 0, "iterations": 800, "min_count": 5, "held_out": 0, "report": lambda _: None}
    weights = fit(samples, pairs_within=1, **quiet)
    assert weights[far] == 0 and 55 <= weights[near] <= 110
    both = fit(samples, **quiet)
    assert both[far] != 0


def test_a_match_gives_player_b_its_own_budget(monkeypatch):
    """`search_bench match --budget 100 --budget-b 300`: player b searches 300 nodes a move
    (a player whose node costs more clocks, matched at equal time), player a 100."""
    from trax_fpga.host import search_bench

    made = []
    monkeypatch.setattr(
        search_bench, "make_player", lambda name, budget: made.append((name, budget)) or name
    )
    monkeypatch.setattr(search_bench, "play_game", lambda opening, white, black: "white-loop")
    tally = search_bench.play_match("hw", "track", 100, 2, budget_b=300)
    assert made == [("hw", 100), ("track", 300)]
    assert (tally["wins"], tally["losses"], tally["score"]) == (2, 2, 0.5)
    made.clear()
    search_bench.play_match("hw", "track", 100, 1)
    assert made == [("hw", 100), ("track", 100)]


def test_the_tracks_a_move_changes_by_hand():
    """`search_bench tracks`: after the first tile (two tracks, four open ends) every second
    tile places itself alone, joins one of the first tile's tracks (ending it) and makes two:
    the joined one and its own other track."""
    from trax_fpga.host.search_bench import track_changes

    first = Position.from_moves(["@0+"])
    found = track_changes([first])
    assert found == {
        "positions": 1,
        "moves": len(first.legal_moves()),
        "tiles a move": 1.0,
        "tracks changed a move": 3.0,
        "tracks made a move": 2.0,
        "open tracks a position": 2.0,
    }
    assert found["moves"] >= 8
    assert first.tiles == Position.from_moves(["@0+"]).tiles  # every move taken back
    later = track_changes(midgame_positions(4, 64, HUMAN_GAMES))
    assert later["tiles a move"] > 1
    assert later["tracks changed a move"] > later["tracks made a move"]
