"""The board's evaluation specification (host/trackeval.py) against the software player's."""

import random

from trax_fpga.host.evaluate import evaluate
from trax_fpga.host.position import Position
from trax_fpga.host.trackeval import LOOP_WEIGHTS, TEMPO, track_features, track_score
from trax_fpga.host.trackresearch import NO_LINES

from .test_search import random_position


def test_the_loop_potential_is_the_software_players():
    """Potential and tempo are :func:`.evaluate.evaluate` without its line progress, on games
    small beside the torus (where its distances are the torus's)."""
    rng = random.Random(3)
    checked = 0
    for _ in range(200):
        position = random_position(rng, rng.randrange(2, 40))
        if position.outcome is not None:
            continue
        found, turn = track_features(position, 64, 64), position.turn
        own, other = found.potential[turn], found.potential[turn.other]
        assert evaluate(position, NO_LINES) == own - other + TEMPO
        checked += 1
    assert checked >= 150


def test_kinds_of_tracks_counted_by_hand():
    """One cross: each colour's track runs straight through, its targets 2 apart, its ends
    leaving in opposite directions (8). One curve: targets 2 apart, ends turned (30 each)."""
    cross = track_features(Position.from_moves(["@0+"]), 64, 64)
    assert cross.attacks == (0, 0) and cross.potential == (8, 8)
    curve = track_features(Position.from_moves(["@0/"]), 64, 64)
    assert curve.attacks == (0, 0) and curve.potential == (30, 30)
    assert LOOP_WEIGHTS[1] == (40, 30, 8)


def test_an_attack_of_the_same_direction_and_the_score_against_it():
    """Two curves one above the other: black's track leaves both east, targets 1 apart (an
    attack, 60); white keeps two curves (30 each). White to move: 60 - 60 + 20 - 150."""
    position = Position.from_moves(["@0/", "A2\\"])
    found = track_features(position, 64, 64)
    black, white = 0, 1
    assert found.attacks == (1, 0)
    assert found.potential[black] == 60 and found.potential[white] == 60
    assert int(position.turn) == white and found.threatened(position.turn)
    assert track_score(found, position.turn) == -130
    assert track_score(found, position.turn.other) == 500  # black would close its loop
