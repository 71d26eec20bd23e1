"""The search: tactics from real games, legality, determinism, budgets and mate scores.

Every tactical claim of tests/data/tactics.txt is checked with the reference engine (by brute
force over all moves) before the search is asked; the search's answer is then checked the same
way, so any correct answer passes, not only the listed one.
"""

from __future__ import annotations

import dataclasses
import pathlib
import random

import pytest

from trax_fpga.host.evaluate import DEFAULT_WEIGHTS, evaluate, line_gap, loop_kind, track_ends
from trax_fpga.host.notation import Move
from trax_fpga.host.position import Box, Position, Variant
from trax_fpga.host.search import MATE_BOUND, WIN, candidates, search
from trax_fpga.host.tiles import EAST, NORTH, SOUTH, WEST, Colour

DATA = pathlib.Path(__file__).resolve().parents[1] / "data"


@dataclasses.dataclass(frozen=True)
class Tactic:
    kind: str
    budget: int
    moves: tuple[str, ...]
    solution: str
    source: str

    def position(self) -> Position:
        return Position.from_moves(self.moves)


def load_tactics() -> list[Tactic]:
    tactics = []
    for line in (DATA / "tactics.txt").read_text().splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        kind, budget, moves, solution, source = (field.strip() for field in line.split("|"))
        tactics.append(Tactic(kind, int(budget), tuple(moves.split()), solution, source))
    return tactics


TACTICS = load_tactics()


def by_kind(prefix: str) -> list:
    return [
        pytest.param(t, id=f"{t.kind}-{t.source.split(' (')[0]}")
        for t in TACTICS
        if t.kind.startswith(prefix)
    ]


# --- brute-force oracles over the reference engine ---------------------------------------------


def winning_moves(position: Position) -> list[Move]:
    """The moves that win at once for the side to move."""
    mover = position.turn
    wins = []
    for move in position.legal_moves():
        turn = position.play(move)
        position.pop()
        if turn.outcome is not None and turn.outcome.winner is mover:
            wins.append(move)
    return wins


def is_safe(position: Position, move: Move | str) -> bool:
    """After ``move`` the opponent cannot win at once (or the move itself wins)."""
    mover = position.turn
    turn = position.play(move)
    try:
        if turn.outcome is not None:
            return turn.outcome.winner is mover
        return not winning_moves(position)
    finally:
        position.pop()


def forces_win_in_two(position: Position, move: Move | str) -> bool:
    """After ``move``, every reply loses at once (or ``move`` wins by itself)."""
    mover = position.turn
    turn = position.play(move)
    try:
        if turn.outcome is not None:
            return turn.outcome.winner is mover
        for reply in position.legal_moves():
            turn = position.play(reply)
            try:
                if turn.outcome is not None:
                    if turn.outcome.winner is not mover:
                        return False
                elif not winning_moves(position):
                    return False
            finally:
                position.pop()
        return True
    finally:
        position.pop()


# --- tactics --------------------------------------------------------------------------------


def test_tactics_file_covers_every_kind():
    kinds = {t.kind for t in TACTICS}
    assert kinds == {"win1-loop", "win1-line", "defend-loop", "defend-line", "win2"}


@pytest.mark.parametrize("tactic", by_kind("win1"))
def test_win_in_one(tactic):
    position = tactic.position()
    mover = position.turn
    turn = position.play(tactic.solution)
    assert turn.outcome is not None and turn.outcome.winner is mover
    assert turn.outcome.reason == tactic.kind.removeprefix("win1-")
    position.pop()

    result = search(position, tactic.budget)
    assert result.move in winning_moves(position), result
    assert result.score == WIN - 1 and result.plies_to_win == 1
    assert result.pv == (result.move,)


@pytest.mark.parametrize("tactic", by_kind("defend"))
def test_one_move_defence(tactic):
    position = tactic.position()
    mover = position.turn
    assert not winning_moves(position)
    # How the opponent wins after each move (empty: the move is safe).
    refutations: dict[Move, set[str]] = {}
    for move in position.legal_moves():
        turn = position.play(move)
        if turn.outcome is not None:
            refutations[move] = set() if turn.outcome.winner is mover else {"at once"}
        else:
            refutations[move] = set()
            for reply in winning_moves(position):
                refutations[move].add(position.play(reply).outcome.reason)
                position.pop()
        position.pop()
    unsafe = [move for move, how in refutations.items() if how]
    assert not refutations[Move.parse(tactic.solution)]
    assert len(unsafe) * 4 >= len(refutations) * 3, "the threat should make most moves lose"
    assert any(tactic.kind.removeprefix("defend-") in how for how in refutations.values())

    result = search(position, tactic.budget)
    assert result.depth >= 1, result
    assert not refutations[result.move], result


@pytest.mark.parametrize("tactic", by_kind("defend"))
def test_one_move_defence_on_a_small_budget(tactic):
    """1000 nodes rarely finish depth 1: the best root move searched so far is still safe."""
    position = tactic.position()
    result = search(position, 1000)
    assert is_safe(position, result.move), result


@pytest.mark.parametrize("tactic", by_kind("win2"))
def test_win_in_two_by_double_threat(tactic):
    position = tactic.position()
    assert not winning_moves(position)
    assert forces_win_in_two(position, tactic.solution)

    result = search(position, tactic.budget)
    assert result.plies_to_win == 3, result
    if str(result.move) != tactic.solution:
        assert forces_win_in_two(position, result.move), result
    assert len(result.pv) == 3


@pytest.mark.parametrize("tactic", by_kind("win2")[:2])
def test_won_position_is_played_out(tactic):
    """Search against search from a win in two: the winner wins on its second move."""
    position = tactic.position()
    winner = position.turn
    while position.outcome is None and position.ply < len(tactic.moves) + 3:
        position.play(search(position, tactic.budget).move)
    assert position.outcome is not None and position.outcome.winner is winner
    assert position.ply == len(tactic.moves) + 3


def test_lost_position_is_defended_as_long_as_possible():
    """Game 94: only 3 moves stop the loop threat, and each loses two moves later."""
    tactic = next(t for t in TACTICS if t.source.startswith("game 94 "))
    position = tactic.position()
    result = search(position, 20_000)
    assert result.plies_to_loss == 4, result
    assert is_safe(position, result.move)


# --- contract -------------------------------------------------------------------------------


def random_position(rng: random.Random, plies: int) -> Position:
    position = Position()
    while position.ply < plies:
        moves = position.legal_moves()
        for move in rng.sample(moves, len(moves)):
            position.play(move)
            if position.outcome is None:
                break
            position.pop()
        else:
            break
    return position


@pytest.mark.parametrize("seed", range(12))
def test_random_positions_get_legal_safe_moves(seed):
    rng = random.Random(seed)
    position = random_position(rng, rng.randrange(2, 30))
    before = (dict(position.tiles), position.ply, position.box)
    result = search(position, 2500)
    assert (dict(position.tiles), position.ply, position.box) == before, f"seed {seed}"
    assert position.is_legal(result.move), f"seed {seed}: {result}"
    assert result.pv[0] == result.move and result.nodes <= 2500, f"seed {seed}"
    if result.depth >= 1:
        if winning_moves(position):
            assert result.score == WIN - 1, f"seed {seed}: {result}"
        elif any(is_safe(position, m) for m in position.legal_moves()):
            assert is_safe(position, result.move), f"seed {seed}: {result}"
    # The principal variation is a legal line.
    for move in result.pv:
        assert position.outcome is None, f"seed {seed}: {result}"
        position.play(move)


def test_deterministic():
    position = TACTICS[-1].position()
    first = search(position, 3000)
    second = search(position.copy(), 3000)
    assert first == second
    assert first.nodes == 3000


@pytest.mark.parametrize("calls", [1, 2, 50, 400])
def test_an_interrupt_inside_a_play_leaves_the_position_as_it_was(calls, monkeypatch):
    """A signal that lands inside ``Position.play`` (after its tracks were joined, before the
    turn was recorded) stops the search with the signal's exception and leaves the caller's
    position whole: the referee's Ctrl-C once surfaced as a KeyError from the search's
    unwinding instead (a clean-clone run of commit 09b0589)."""

    def state(p):
        return dict(p.tiles), dict(p._ends), list(p.turns), p.box

    position = TACTICS[-1].position()
    before = state(position)
    link, seen = Position._link, []

    def interrupted_link(self, cells):
        result = link(self, cells)
        seen.append(1)
        if len(seen) == calls:
            raise KeyboardInterrupt
        return result

    monkeypatch.setattr(Position, "_link", interrupted_link)
    with pytest.raises(KeyboardInterrupt):
        search(position, 3000)
    monkeypatch.undo()
    assert len(seen) == calls
    assert state(position) == before
    assert search(position, 300) == search(TACTICS[-1].position(), 300)


@pytest.mark.parametrize("budget", [1, 5, 40, 300])
def test_tiny_budgets_still_give_a_legal_move(budget):
    position = TACTICS[0].position()
    result = search(position, budget)
    assert result.nodes <= budget
    assert position.is_legal(result.move)


def test_max_depth_limits_the_iterations():
    position = random_position(random.Random(7), 12)
    result = search(position, 1_000_000, max_depth=1)
    assert result.depth == 1 or abs(result.score) >= MATE_BOUND


def test_opening_moves():
    position = Position()
    result = search(position, 100)
    assert str(result.move) in ("@0+", "@0/")
    assert [position.move_at(*c) for c in candidates(position)] == position.legal_moves()


@pytest.mark.parametrize("seed", range(5))
def test_candidates_follow_the_generator_order(seed):
    position = random_position(random.Random(seed), 20)
    legal = position.legal_moves()
    generated = [position.move_at(*c) for c in candidates(position)]
    assert [m for m in generated if m in legal] == legal, f"seed {seed}"


@pytest.mark.parametrize(("nodes", "max_depth"), [(0, None), (-3, None), (2.5, None), (10, 0)])
def test_bad_arguments(nodes, max_depth):
    with pytest.raises(ValueError, match="must be a positive integer"):
        search(Position(), nodes, max_depth)


def test_finished_game_is_refused():
    tactic = TACTICS[0]
    position = tactic.position()
    position.play(tactic.solution)
    with pytest.raises(ValueError, match="the game is over"):
        search(position, 100)


# --- evaluation -----------------------------------------------------------------------------


def test_track_ends_of_the_first_tile():
    position = Position.from_moves(["@0/"])  # white N-W, black S-E
    ends = track_ends(position.tiles)
    assert ends[Colour.WHITE] == [((0, 0, NORTH), (0, 0, WEST))]
    assert ends[Colour.BLACK] == [((0, 0, EAST), (0, 0, SOUTH))]


def test_a_curve_is_a_corner_and_a_narrow_attack_is_adjacent():
    assert loop_kind((0, 0, NORTH), (0, 0, WEST)) == (2, 1)
    assert loop_kind((0, 0, NORTH), (1, 0, NORTH)) == (1, 0)
    assert loop_kind((0, 0, NORTH), (2, 0, NORTH)) == (2, 0)
    assert loop_kind((0, 0, NORTH), (9, 0, NORTH)) is None


def test_line_gap_counts_missing_tiles():
    box = Box(0, 0, 6, 3)  # 7 wide
    assert line_gap((0, 1, WEST), (6, 2, EAST), box) == 1
    assert line_gap((1, 1, WEST), (6, 2, EAST), box) == 2
    assert line_gap((1, 1, EAST), (6, 2, WEST), box) is None
    assert line_gap((0, 0, NORTH), (0, 3, SOUTH), box) == 4


def test_evaluation_is_symmetric_on_the_first_tile():
    """After @0/ each colour has one curve (a corner): only the tempo is left."""
    assert evaluate(Position.from_moves(["@0/"])) == DEFAULT_WEIGHTS.tempo
    assert evaluate(Position.from_moves(["@0+"])) == DEFAULT_WEIGHTS.tempo


@pytest.mark.parametrize(("budget", "max_depth"), [(50, None), (2000, 1), (8000, 2)])
def test_nodes_count_every_play_exactly(budget, max_depth, monkeypatch):
    tactic = next(t for t in TACTICS if t.kind == "defend-loop")
    position = Position.from_moves(tactic.moves)
    play, plays = Position.play, []

    def counted(self, move):
        turn = play(self, move)
        plays.append(move)
        return turn

    monkeypatch.setattr(Position, "play", counted)
    result = search(position, budget, max_depth)
    assert result.nodes == len(plays)
    assert result.nodes <= budget


@pytest.mark.parametrize("seed", range(3))
def test_limited_8x8_game_is_searched_within_its_rules(seed):
    rng = random.Random(seed)
    position = Position(Variant.LIMITED_8X8)
    while position.outcome is None and position.ply < 200:
        if rng.random() < 0.2:
            move = search(position, 300).move
        else:
            move = rng.choice(position.legal_moves())
        assert position.is_legal(move), f"seed {seed}"
        position.play(move)
    assert position.outcome is not None, f"seed {seed}"
