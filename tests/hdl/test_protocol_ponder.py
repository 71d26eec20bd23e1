# amaranth: UnusedElaboratable=no
"""The protocol engine pondering (docs/ponder.md): it guesses the reply to its move, plays it,
searches its next move while the opponent thinks, and on a wrong guess replays the game to the
position before it.

As tests/hdl/test_protocol.py: the engine on Verilator with the real rules and a scripted
search (:mod:`trax_fpga.sim.player_bench`), the reference engine as the opponent. The double
answers a guess with the move set by ``script_guess`` and any other search with ``script``'s.
"""

from __future__ import annotations

import random

import pytest

from trax_fpga.hdl.protocol import GameState
from trax_fpga.host.position import Position
from trax_fpga.sim.player_bench import BenchDriver

from ..host.records import moves_only, record_lines
from .test_protocol import RULES_ALLOWANCE, canonical, play_record, settle, start_black

WINDOW = 32
LATENCY = 400
#: Clocks from the board's move to its guess being played and its ponder search started: the
#: guess's latency and the rules' turn.
GUESSED = LATENCY + 60
#: Clocks a replay may take: the torus emptied (W * H / 4) and every move of a game played.
REPLAY_ALLOWANCE = WINDOW * WINDOW // 4 + 60 * 40


@pytest.fixture(scope="module")
def bench():
    with BenchDriver(WINDOW, WINDOW, latency=LATENCY, ponder=True) as driver:
        yield driver


@pytest.fixture(scope="module")
def short_log():
    """A game log of 6 moves: a longer game stops pondering."""
    with BenchDriver(16, 16, latency=LATENCY, ponder=True, game_log=6) as driver:
        yield driver


def first_tile(position: Position, move: str) -> tuple:
    turn = position.play(move)
    position.pop()
    return turn.placed[0]


def other_move(position: Position, move: str, rng: random.Random) -> str | None:
    """A legal move of ``position`` other than ``move``, or None."""
    tile = first_tile(position, move)
    others = [str(m) for m in position.legal_moves() if first_tile(position, str(m)) != tile]
    return rng.choice(others) if others else None


def play_pondering(bench, moves, board_white, hit, wait, rng) -> dict:
    """:func:`play_record` with guesses: after each of the board's moves the double guesses the
    reply, the record's (a hit) where ``hit(ply)``, else another legal move, and the opponent's
    move comes ``wait(ply)`` clocks later. Every answer must be the record's move, and the game
    must end as the record does. Returns the counts of hits and misses played."""
    counts = {"hits": 0, "misses": 0}

    def guess(position: Position, ply: int) -> None:
        reply = moves[ply]
        guess = reply if hit(ply) else other_move(position, reply, rng)
        guess = reply if guess is None else guess
        counts["hits" if guess == reply else "misses"] += 1
        bench.script_guess(position, guess)
        position.play(guess)
        if position.outcome is None and ply + 1 < len(moves) and guess == reply:
            bench.script(position, moves[ply + 1])  # the ponder search's answer
        position.pop()
        settle(bench, wait(ply))

    play_record(bench, moves, board_white, between=guess, replay=REPLAY_ALLOWANCE)
    return counts


def human_games() -> list[list[str]]:
    return [moves_only(fields[2]) for fields in record_lines("human_games.txt")]


def first_answer(bench, game: list[str]) -> Position:
    """A new game as black: ``game``'s first move, the board's scripted answer (its second),
    and its guess of the reply (its third). Returns the position after the answer."""
    start_black(bench)
    position = Position()
    position.play(game[0])
    bench.script(position, game[1])
    assert bench.ask(f"{game[0]}\n".encode()) == f"{canonical(position, game[1])}\n".encode()
    position.play(game[1])
    bench.script_guess(position, game[2])
    return position


@pytest.mark.parametrize(
    ("name", "wait"),
    [
        ("during the guess", lambda ply: 10),
        ("during the ponder search", lambda ply: GUESSED + LATENCY // 2),
        ("after the ponder search", lambda ply: GUESSED + 2 * LATENCY),
        ("mixed", lambda ply: (10, GUESSED + LATENCY // 2, GUESSED + 2 * LATENCY)[ply % 3]),
    ],
)
def test_whole_games_with_right_and_wrong_guesses(bench, name, wait):
    """Every answer is the record's, whatever the guesses and whenever the moves come: a
    right guess's search becomes the board's (re-armed while it runs), a wrong one's game is
    replayed from its log first."""
    rng = random.Random(name)
    games = human_games()
    rearms, guesses = bench.status("rearms"), bench.status("guesses")
    counts = {"hits": 0, "misses": 0}
    for index, game in enumerate(games[:4]):
        board_white = game[0] == "@0+" and index % 2 == 0
        played = play_pondering(bench, game, board_white, lambda ply: ply % 4 < 2, wait, rng)
        for key in counts:
            counts[key] += played[key]
    assert counts["hits"] >= 10 and counts["misses"] >= 10, counts
    guessed = bench.status("guesses") - guesses
    if name == "during the guess":  # every move came before the guess was played
        assert bench.status("rearms") == rearms
    else:
        assert guessed >= counts["hits"] + counts["misses"] - 4  # (a game's last guess)
    if name == "during the ponder search":  # every right guess was re-armed
        assert bench.status("rearms") - rearms >= counts["hits"] - 4
    if name == "after the ponder search":  # the search had ended: no re-arm
        assert bench.status("rearms") == rearms


def test_a_right_guess_answers_with_the_ponder_search(bench):
    """After a right guess whose search has ended, the answer comes without another search."""
    game = human_games()[0]
    position = first_answer(bench, game)
    position.play(game[2])
    bench.script(position, game[3])
    settle(bench, GUESSED + 3 * LATENCY)
    starts = bench.status("starts")
    assert bench.game is GameState.OPPONENT
    got = bench.ask(f"{game[2]}\n".encode())
    assert got == f"{canonical(position, game[3])}\n".encode()
    assert bench.status("starts") == starts  # no search after the move came
    assert bench.status("answer_cycles") <= RULES_ALLOWANCE


def test_a_guess_that_ends_the_game_is_taken_back(bench):
    """A guess that wins (for the opponent) is replayed away: the game waits as it was, and the
    winning move, when it comes, ends it with nothing sent."""
    games = human_games()
    # A game the second player wins on its last move, with the board as the first.
    game = next(g for g in games if len(g) % 2 == 0 and g[0] == "@0+" and len(g) < 40)
    position = Position.from_moves(game)
    assert position.outcome is not None
    played = play_pondering(bench, game, True, lambda ply: True, lambda ply: 500, random.Random(1))
    assert played["hits"] >= 1
    assert bench.game is GameState.OVER


def test_commands_during_pondering(bench):
    """-W, -B and -T start afresh while the board guesses or ponders, as in every state."""
    game = human_games()[0]
    for wait, command, answer in (
        (10, b"-W\n", b"@0+\n"),
        (GUESSED + LATENCY // 2, b"-W\n", b"@0+\n"),
        (GUESSED + LATENCY // 2, b"-T\n", b"FP\n"),
    ):
        first_answer(bench, game)
        settle(bench, wait)
        assert bench.ask(command) == answer
        settle(bench, 2_000)
    assert bench.game is GameState.NONE
    # The board plays on afterwards as ever.
    play_pondering(bench, game[:9], False, lambda ply: True, lambda ply: 500, random.Random(2))


def test_an_illegal_move_while_pondering_halts_the_game(bench):
    first_answer(bench, human_games()[0])
    settle(bench, GUESSED + LATENCY // 2)
    bench.silent(b"@0+\n", cycles=REPLAY_ALLOWANCE)  # occupied: illegal
    assert bench.game is GameState.HALTED
    assert bench.status("error") == 1


def test_a_full_log_stops_pondering(short_log):
    """With a log of 6 moves, the board guesses after its first moves only, and plays on."""
    game = next(g for g in human_games() if len(g) >= 14)
    guesses = short_log.status("guesses")
    play_pondering(short_log, game[:14], False, lambda ply: True, lambda ply: 500, random.Random(3))
    # The log holds moves 1 to 6 (the right guesses, 3 and 5, logged as the opponent's): the
    # board guesses after its moves 2 and 4, not after 6 and later (a guess needs room).
    assert short_log.status("guesses") - guesses == 2
