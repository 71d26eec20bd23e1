"""Every recorded game judged by the reference engine to the result its record lists."""

import pytest

from trax_fpga.host.judge import game_moves, judge_game, judge_lines
from trax_fpga.host.position import Position

from .records import DATA, expected_verdict, moves_only, record_lines

HUMAN = record_lines("human_games.txt")


@pytest.mark.parametrize("row", HUMAN, ids=[row[0] for row in HUMAN])
def test_human_game(row):
    _index, result, moves = row
    assert judge_game(moves.split()) == result


def test_human_games_through_judge_lines():
    text = (DATA / "human_games.txt").read_text().splitlines()
    verdicts = list(judge_lines(text, judge_game))
    assert verdicts == [row[1] for row in HUMAN]
    assert len(verdicts) == 277


OTHER_FILES = [
    "official_referee_tests.txt",
    "engine_tests_uzumushi.txt",
    "engine_tests_kizuna.txt",
    "engine_tests_peryaudo.txt",
    "contest_logs_2015.txt",
]
OTHER = [(name, row) for name in OTHER_FILES for row in record_lines(name)]


@pytest.mark.parametrize("name,row", OTHER, ids=[f"{n}:{r[0]}" for n, r in OTHER])
def test_record(name, row):
    # The result by an independent referee is the second-last field; the moves the last.
    assert judge_game(moves_only(row[-1])) == expected_verdict(row[-2])


def test_kizuna_version17_violation_next_move_is_illegal():
    # engine_tests_kizuna.txt: "open(19 moves) ; next move F4/ is ILLEGAL: three same-colour".
    row = next(r for r in record_lines("engine_tests_kizuna.txt") if r[0] == "version17Violation")
    position = Position.from_moves(row[-1].split())
    assert position.outcome is None
    assert not position.is_legal("F4/")
    assert judge_game([*row[-1].split(), "F4/"]) == "illegal 20"


def test_peryaudo_forced_plays_c3_slash_illegal_c3_plus_legal():
    row = next(
        r for r in record_lines("engine_tests_peryaudo.txt") if r[0] == "PositionTest.ForcedPlays"
    )
    position = Position.from_moves(row[-1].split())
    assert not position.is_legal("C3/")
    assert position.is_legal("C3+")


def test_game_moves_takes_text_after_last_bar():
    assert game_moves("a | b | @0+ B1+") == ["@0+", "B1+"]
    assert game_moves("@0/ A2\\") == ["@0/", "A2\\"]
    assert game_moves("   ") is None
    assert game_moves("# comment | @0+") is None
