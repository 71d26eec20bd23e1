"""Whole games, reference engine vs gateware, move by move and verdict by verdict.

Every verdict here comes from the gateware through :mod:`trax_fpga.sim.rules_driver`; the
reference engine (``trax_fpga.host``) says what it must be.
"""

import contextlib
import random

import pytest

from trax_fpga.host.errors import IllegalMoveError, InvalidMoveError
from trax_fpga.host.judge import judge_game as reference_judge
from trax_fpga.host.notation import Move
from trax_fpga.host.position import Position
from trax_fpga.sim.rules_driver import RtlRules, WindowOverflow, judge_game, window_cell

from .reference import human_games, random_move, record_games, window_tiles

OVERFLOW = "overflow"


def would_overflow(position, move, width, height):
    """The gateware cannot judge ``move`` in its window: it would grow the box plus its ring
    beyond the window."""
    box = position.box
    if box is None or position.is_over:
        return False
    x, y = position.cell_of(move)
    constraint = position.constraint((x, y))
    fits = constraint.fitting & set(move.symbol.variants)
    if (x, y) in position.tiles or not constraint.known or not fits:
        return False  # judged illegal before the box matters
    grown_w = max(box.max_x, x) - min(box.min_x, x) + 1
    grown_h = max(box.max_y, y) - min(box.min_y, y) + 1
    return grown_w + 2 > width or grown_h + 2 > height


def expected_judgement(moves, width, height):
    """What the gateware must answer for a game: the reference's verdict, or OVERFLOW."""
    position = Position()
    for number, text in enumerate(moves, start=1):
        try:
            move = Move.parse(text)
        except InvalidMoveError:
            return f"invalid {number}"
        if position.is_over:
            return f"illegal {number}"
        if would_overflow(position, move, width, height):
            return OVERFLOW
        try:
            position.play(move)
        except IllegalMoveError:
            return f"illegal {number}"
    return str(position.outcome) if position.outcome else "none"


def rtl_judgement(rules, moves):
    try:
        return judge_game(moves, rules=rules)
    except WindowOverflow:
        return OVERFLOW


@pytest.fixture(scope="module")
def rules18():
    with RtlRules((18, 18)) as rules:
        yield rules


def check_games(rules, games):
    for moves in games:
        expected = expected_judgement(moves, rules.width, rules.height)
        assert rtl_judgement(rules, moves) == expected, " ".join(moves)


def test_human_games_sample(rules18):
    """Every 20th human game (the whole set runs in the slow test)."""
    games = human_games()[::20]
    for result, moves in games:
        assert judge_game(moves, rules=rules18) == result == reference_judge(moves)


@pytest.mark.slow
def test_all_human_games(rules18):
    for result, moves in human_games():
        assert judge_game(moves, rules=rules18) == result, " ".join(moves)


@pytest.mark.slow
def test_all_games_on_verilator():
    """The same gateware built with Verilator (the backend swapped under the same driver)."""
    with RtlRules((18, 18), backend="verilator") as rules:
        for result, moves in human_games():
            assert judge_game(moves, rules=rules) == result, " ".join(moves)
        check_games(rules, record_games("contest_logs_2015.txt"))
        for name in ("official_referee_tests.txt", "engine_tests_kizuna.txt"):
            check_games(rules, record_games(name))


def test_window_cell_mapping():
    """Notation beyond the box's ring must not alias onto a real cell of the torus window."""
    assert window_cell(None, 0, 0, 8, 8) == (0, 0, False)
    assert window_cell(None, 8, 0, 8, 8) == (0, 0, True)  # would alias onto the origin
    # Box at window (6, 5), 3 x 2: the ring is columns 5..9 (mod 8) and rows 4..7.
    box = (6, 5, 3, 2)
    assert window_cell(box, 0, 0, 8, 8) == (5, 4, False)
    assert window_cell(box, 4, 3, 8, 8) == (1, 7, False)
    assert window_cell(box, 13, 1, 8, 8)[2]  # column 13 would alias onto column 18 mod 8 = 2
    assert window_cell(box, 1, 4, 8, 8)[2]


def test_far_moves_are_not_adjacent_even_when_the_ring_fills_the_window():
    """A 6x6 box in an 8x8 window: every window cell is in the box or its ring."""
    with RtlRules((8, 8)) as rules:
        rules.new_game()
        for text in ["@0/", "A2/", "A3/", "A4/", "A5/", "A6/"]:  # a column 6 tall
            assert rules.play(text).legal
        assert rules.box[3] == 6
        result = rules.play("A9+")  # row 9 would alias onto row 9 - 8 = 1, inside the box
        assert result.verdict.name == "NOT_ADJACENT"


@pytest.mark.parametrize(
    "name",
    [
        "official_referee_tests.txt",
        "engine_tests_peryaudo.txt",
        "engine_tests_kizuna.txt",
        "engine_tests_uzumushi.txt",
    ],
)
def test_record_files(rules18, name):
    """Double wins, opponent wins, lines, illegal forced play; games wider than the window
    (54 columns, 40 rows) must end in WindowOverflow, not a verdict."""
    check_games(rules18, record_games(name))


def test_contest_logs_sample(rules18):
    """Real contest logs: timeouts, garbled replies and illegal moves among the moves."""
    check_games(rules18, record_games("contest_logs_2015.txt")[::12])


@pytest.mark.slow
def test_all_contest_logs(rules18):
    check_games(rules18, record_games("contest_logs_2015.txt"))


def test_malformed_and_illegal_lines(rules18):
    cases = [
        ["A1+"],
        ["@0\\"],
        ["@0+", "Z"],
        ["@0+", "B1x"],
        ["@0+", "B01+"],
        ["@0+", "A1/"],
        ["@0+", "ZZ99+"],
        ["@0/", "B1\\", "A2\\", "A1+"],  # a move after black's loop
    ]
    for moves in cases:
        assert judge_game(moves, rules=rules18) == reference_judge(moves), moves


def random_sequence(rng, plies):
    """Random legal moves mixed with random (mostly illegal) moves near the box, and far ones."""
    position = Position()
    moves = []
    for _ in range(plies):
        if position.is_over:
            break
        roll = rng.random()
        if position.box is None or roll < 0.55:
            legal = position.legal_moves()
            move = rng.choice(legal)
        elif roll < 0.95:
            move = random_move(rng, position)
        else:
            move = Move(
                rng.randrange(60),
                rng.randrange(60),
                rng.choice(list(Move.parse("@0+").symbol.__class__)),
            )
        moves.append(str(move))
        with contextlib.suppress(IllegalMoveError):
            position.play(move)
    return moves


def check_move_by_move(rules, moves, seed):
    """Both engines move by move: legality, outcome, board, box; OVERFLOW where expected."""
    width, height = rules.width, rules.height
    position = Position()
    rules.new_game()
    for number, text in enumerate(moves, start=1):
        where = f"seed {seed}, window {width}x{height}, move {number} {text}: {' '.join(moves)}"
        overflow = would_overflow(position, Move.parse(text), width, height)
        try:
            result = rules.play(text)
        except WindowOverflow:
            assert overflow, where
            assert rules.overflow or rules.box is not None, where
            assert rules.tiles() == window_tiles(position.tiles, width, height), where
            return
        assert not overflow, where
        try:
            position.play(text)
        except IllegalMoveError:
            assert not result.legal, (where, result)
        else:
            assert result.legal, (where, result)
            assert result.outcome.text == (str(position.outcome) if position.outcome else "none")
        assert rules.tiles() == window_tiles(position.tiles, width, height), where
        box = position.box
        assert rules.box == (
            box and (box.min_x % width, box.min_y % height, box.width, box.height)
        ), where


@pytest.mark.parametrize("window", [(7, 7), (10, 9), (12, 12)])
def test_random_sequences(window):
    rng = random.Random(hash(window) & 0xFFFF)
    with RtlRules(window) as rules:
        for _ in range(6):
            seed = rng.randrange(1 << 30)
            moves = random_sequence(random.Random(seed), 40)
            check_move_by_move(rules, moves, seed)


@pytest.mark.slow
@pytest.mark.parametrize("window", [(6, 6), (9, 8), (12, 12), (16, 16)])
def test_many_random_sequences(window):
    rng = random.Random(window[0] * 100 + window[1])
    with RtlRules(window) as rules:
        for _ in range(60):
            seed = rng.randrange(1 << 30)
            check_move_by_move(rules, random_sequence(random.Random(seed), 60), seed)


def test_a_game_outgrowing_a_small_window_raises_overflow():
    """A human game in a 9x9 window: the same verdicts until the move that would outgrow it,
    which raises WindowOverflow, raises the flag and leaves the board as it was."""
    _, moves = next((r, m) for r, m in human_games() if len(m) > 20)
    expected = expected_judgement(moves, 9, 9)
    assert expected == OVERFLOW
    with RtlRules((9, 9)) as rules:
        rules.new_game()
        position = Position()
        for text in moves:
            before = rules.tiles()
            try:
                result = rules.play(text)
            except WindowOverflow:
                assert rules.overflow
                assert rules.tiles() == before
                break
            position.play(text)
            assert result.legal
            assert result.outcome.text == (str(position.outcome) if position.outcome else "none")
        else:
            raise AssertionError("no overflow")
        # The flag stays up and every further move that would grow the box is refused too.
        assert rules.overflow
        rules.new_game()
        assert not rules.overflow
