"""The block-RAM rules core (hdl/track_board.py, hdl/track_rules.py) against the reference engine.

Every verdict, outcome, box, tile count and tile comes from the gateware (Verilator, or
amaranth.sim for the small cases); the reference engine (``trax_fpga.host``) says what it must be.
"""

import contextlib
import random

import pytest

from trax_fpga.hdl.track_board import cell_address, cell_bank, check_torus
from trax_fpga.host.errors import IllegalMoveError, InvalidMoveError
from trax_fpga.host.notation import Move
from trax_fpga.host.position import Position
from trax_fpga.host.tiles import Colour
from trax_fpga.sim.rules_driver import RtlRules, WindowOverflow, judge_game

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


RECORD_FILES = (
    "official_referee_tests.txt",
    "engine_tests_peryaudo.txt",
    "engine_tests_kizuna.txt",
    "engine_tests_uzumushi.txt",
    "contest_logs_2015.txt",
)


@pytest.fixture(scope="module")
def rules64():
    with RtlRules((64, 64), "verilator") as rules:
        yield rules


@pytest.fixture(scope="module")
def rules16():
    with RtlRules((16, 16), "verilator") as rules:
        yield rules


# --- the memory layout ------------------------------------------------------------------------


@pytest.mark.parametrize("size", [(8, 8), (16, 8), (64, 64)])
def test_cell_banks_are_a_bijection_and_split_every_cell_s_neighbours(size):
    columns, rows = size
    seen = set()
    for y in range(rows):
        for x in range(columns):
            seen.add((cell_bank(x, y), cell_address(x, y, columns)))
            neighbours = [
                ((x + dx) % columns, (y + dy) % rows)
                for dx, dy in ((0, -1), (1, 0), (0, 1), (-1, 0))
            ]
            assert len({cell_bank(*n) for n in neighbours}) == 4, (x, y)
    assert len(seen) == columns * rows
    assert all(address < columns * rows // 4 for _, address in seen)


def test_torus_sizes_are_checked():
    assert check_torus(64, 32) == (64, 32)
    for bad in (4, 12, 0, True, 8.0):
        with pytest.raises(ValueError, match="power of two"):
            check_torus(bad, 8)


# --- whole games ------------------------------------------------------------------------------


def test_every_record_in_tests_data(rules64):
    """The 277 human games, the engine and referee test files and the 2015 contest logs, at the
    64 x 64 torus: every verdict as the reference's (the contest's widest game, 54 columns,
    fits)."""
    checked = 0
    for result, moves in human_games():
        assert judge_game(moves, rules=rules64) == result, " ".join(moves)
        checked += 1
    for name in RECORD_FILES:
        for moves in record_games(name):
            expected = expected_judgement(moves, 64, 64)
            assert expected != OVERFLOW
            assert rtl_judgement(rules64, moves) == expected, (name, " ".join(moves))
            checked += 1
    assert checked > 277 + 150


def reference_turn(position, text):
    """Play ``text`` on the reference: (legal, tiles placed)."""
    before = len(position.tiles)
    try:
        position.play(text)
    except IllegalMoveError:
        return False, 0
    return True, len(position.tiles) - before


def check_move_by_move(rules, moves, where, *, every=1):
    """Both engines move by move: legality, outcome, tiles placed, box, and the whole torus
    (every ``every`` moves, after each illegal move and at the end). Returns the verdicts seen."""
    width, height = rules.width, rules.height
    position = Position()
    rules.new_game()
    verdicts = []
    for number, text in enumerate(moves, start=1):
        here = f"{where}, move {number} {text}: {' '.join(moves)}"
        overflow = would_overflow(position, Move.parse(text), width, height)
        try:
            result = rules.play(text)
        except WindowOverflow:
            assert overflow, here
            assert rules.overflow, here
            verdicts.append("OVERFLOW")
            break
        assert not overflow, here
        legal, placed = reference_turn(position, text)
        assert result.legal == legal, (here, result)
        assert result.tiles == placed, (here, result)
        verdicts.append(result.verdict.name)
        outcome = str(position.outcome) if position.outcome else "none"
        assert result.outcome.text == outcome, here
        box = position.box
        assert rules.box == (
            box and (box.min_x % width, box.min_y % height, box.width, box.height)
        ), here
        if not legal or number % every == 0:
            assert rules.tiles() == window_tiles(position.tiles, width, height), here
    assert rules.tiles() == window_tiles(position.tiles, width, height), where
    return verdicts


def test_random_sequences_on_a_small_torus(rules16):
    """Legal moves mixed with illegal ones (occupied, far, mismatched, dead): a turn found
    illegal midway is taken back tile by tile, leaving the torus exactly as it was."""
    rng = random.Random(1611)
    counts: dict[str, int] = {}
    for _ in range(120):
        seed = rng.randrange(1 << 30)
        moves = random_sequence(random.Random(seed), 60)
        for verdict in check_move_by_move(rules16, moves, f"seed {seed}"):
            counts[verdict] = counts.get(verdict, 0) + 1
    for verdict in ("LEGAL", "OCCUPIED", "NOT_ADJACENT", "MISMATCH", "DEAD", "OVERFLOW"):
        assert counts.get(verdict, 0) > 0, counts
    assert sum(counts.values()) > 2000


def sprawling_game(rng, plies, limit):
    """A random legal game that grows its box whenever it can and avoids ending, up to a box
    plus ring of ``limit``: boxes of 40 to 62 across on a 64 x 64 torus."""
    position = Position()
    moves = []
    for _ in range(plies):
        box = position.box
        candidates = position.legal_moves()
        rng.shuffle(candidates)
        candidates.sort(
            key=lambda m: (
                box is not None
                and m.column not in (0, box.width + 1)
                and m.row not in (0, box.height + 1)
            )
        )
        for move in candidates:
            position.play(move)
            grown = position.box
            if not position.is_over and max(grown.width, grown.height) + 2 <= limit:
                moves.append(str(move))
                break
            position.pop()
        else:
            break
    return moves, position


def test_sprawling_games_across_the_seams(rules64):
    """Games that sprawl to boxes of 40 and more: every seam of the torus is crossed (the first
    tile is at (0, 0), so the box wraps at once), and the last moves bring the box plus its ring
    to the torus's size."""
    rng = random.Random(64)
    largest = []
    for _ in range(4):
        seed = rng.randrange(1 << 30)
        moves, position = sprawling_game(random.Random(seed), 140, 64)
        check_move_by_move(rules64, moves, f"sprawl seed {seed}", every=20)
        largest.append(max(position.box.width, position.box.height))
        # One step further west (the ring's column 0) does not fit: refused and flagged.
        if position.box.width + 2 >= 64:
            for move in position.legal_moves():
                if move.column == 0:
                    with pytest.raises(WindowOverflow):
                        rules64.play(str(move))
                    assert rules64.overflow
                    break
    assert min(largest) >= 40, largest


def test_winning_turns(rules64):
    """Loops (always closed by a forced tile: a cell that two ends of one colour enter is
    forced), lines by the move alone and with forced plays, both colours at once: from the human
    games, the referee's test games and random games, each kind checked at least once."""
    kinds: dict[str, int] = {}
    rng = random.Random(7)
    games = [moves for _, moves in human_games()[::2]]
    games += record_games("official_referee_tests.txt")
    games += [random_sequence(random.Random(rng.randrange(1 << 30)), 80) for _ in range(60)]
    for moves in games:
        position = Position()
        rules64.new_game()
        for text in moves:
            try:
                result = rules64.play(text)
                turn = position.play(text)
            except (IllegalMoveError, ValueError):
                continue
            assert result.legal
            if position.is_over:
                assert result.outcome.text == str(position.outcome)
                kind = position.outcome.reason + ("-forced" if turn.forced else "")
                if len(_completed(position, turn)) == 2:
                    kind = "both colours"
                kinds[kind] = kinds.get(kind, 0) + 1
                break
    for kind in ("loop-forced", "line", "line-forced", "both colours"):
        assert kinds.get(kind, 0) > 0, kinds


def _completed(position, turn) -> set:
    """The colours whose loop or line the turn completed (the reference's own track walk)."""
    done = set()
    for colour in Colour:
        seen: set = set()
        for cell, _ in turn.placed:
            if cell not in seen and position._track(cell, colour, seen):
                done.add(colour)
    return done


def test_a_game_outgrowing_the_torus_is_refused(rules16):
    """The referee's 54-column game on a 16 x 16 torus: the same verdicts until the move that
    would outgrow it, which is refused and flagged, leaving the board as it was."""
    referee = record_games("official_referee_tests.txt")
    moves = max(referee, key=len)
    position = Position()
    rules16.new_game()
    for text in moves:
        if would_overflow(position, Move.parse(text), 16, 16):
            before = rules16.tiles()
            with pytest.raises(WindowOverflow):
                rules16.play(text)
            assert rules16.overflow
            assert rules16.tiles() == before
            break
        assert rules16.play(text).legal == reference_turn(position, text)[0]
    else:
        raise AssertionError("no overflow")
    rules16.new_game()
    assert not rules16.overflow
    assert rules16.tiles() == window_tiles({}, 16, 16)


def test_the_amaranth_simulation_agrees():
    """The same core on amaranth.sim (as `trax judge` does not use it, a short check)."""
    with RtlRules((8, 8)) as rules:
        assert judge_game(["@0/", "B1\\", "A2\\", "A1+"], rules=rules) == "illegal 4"
        rules.new_game()
        assert rules.play("@0+").tiles == 1
        assert rules.play("A0/").tiles == 1
        assert rules.play("B2\\").tiles == 2  # its neighbour is forced
        assert rules.tiles() == window_tiles(_position("@0+ A0/ B2\\").tiles, 8, 8)


def _position(moves: str) -> Position:
    position = Position()
    for move in moves.split():
        position.play(move)
    return position
