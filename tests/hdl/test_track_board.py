# amaranth: UnusedElaboratable=no
"""The block-RAM board's search commands: plies and their undo, candidates, the frontier list.

The candidates must come in the order of the software model (:mod:`trax_fpga.host.trackorder`);
plies taken back must leave the torus exactly as it was; counting the legal move sequences
through the board's own commands must give the reference engine's perft.
"""

import collections
import random

import pytest

from trax_fpga.hdl.track_board import (
    COMPACT_OPTIONS,
    KIND_WEIGHTS,
    TILES,
    TrackBoard,
    potential_bits,
    track_kind_code,
)
from trax_fpga.hdl.track_board import tile_key as hdl_tile_key
from trax_fpga.host.movetable import position_key
from trax_fpga.host.movetable import tile_key as model_tile_key
from trax_fpga.host.position import Position
from trax_fpga.host.tiles import Symbol, Tile
from trax_fpga.host.trackeval import track_features
from trax_fpga.host.trackorder import TrackOrder
from trax_fpga.sim.track_driver import TrackBoardSim

from .reference import random_game, window_tiles

SYMBOLS = list(Symbol)


#: The board as the search uses it by default, and with every option that trades clocks for
#: area (``COMPACT_OPTIONS``), and with four track-end banks and the position's key: the same
#: answers, value by value; and the compact board with the candidates from the newest cell of
#: the frontier list (the model's ``candidates(newest=True)``; the default board's newest-first
#: order is the search's, tests/hdl/test_track_search.py).
BOARD_OPTIONS = {
    "fast": {},
    "compact": COMPACT_OPTIONS,
    "four_banks": {"edge_banks": 4, "position_key": True},
    "compact_newest": {**COMPACT_OPTIONS, "newest_first": True},
}


@pytest.fixture(scope="module", params=list(BOARD_OPTIONS))
def board16(request):
    options = BOARD_OPTIONS[request.param]
    with TrackBoardSim((16, 16), "verilator", plies=8, options=options) as board:
        board.keyed = options.get("position_key", False)
        board.newest = options.get("newest_first", False)
        yield board


def board_state(board, position) -> tuple:
    """What the board keeps of a position (its counts, and its key where it keeps one), beside
    the model's."""
    got = (board.features(), board.position_key() if board.keyed else None)
    want = (
        model_features(position, 16, 16),
        position_key(position, 16, 16) if board.keyed else None,
    )
    return got, want


def model_candidates(order: TrackOrder, width: int, height: int, newest: bool) -> list[tuple]:
    return [
        (cell[0] % width, cell[1] % height, SYMBOLS.index(symbol))
        for _, cell, symbol in order.candidates(newest)
    ]


def legal_candidates(order: TrackOrder, candidates: list[tuple]) -> list[tuple]:
    """The ``candidates`` (torus x, y, symbol) whose turn is legal in the model, in order."""
    legal = []
    for x, y, s in candidates:
        cell = next(c for _, c, _ in order.candidates() if (c[0] % 16, c[1] % 16) == (x, y))
        try:
            order.play(order.position.move_at(cell, SYMBOLS[s]))
        except ValueError:
            continue
        order.pop()
        legal.append((x, y, s))
    return legal


def board_candidates(board) -> list[tuple]:
    return [(c.x, c.y, c.symbol.value) for c in board.candidates()]


def test_candidates_follow_the_model_through_plies_and_compaction(board16):
    """Random games, compacted or not, then random plies on top (legal or not) and back: at
    every step the candidates equal the model's, and after the last undo the torus equals the
    reference position."""
    rng = random.Random(2024)
    steps = 0
    for _ in range(40):
        moves = random_game(rng, rng.randrange(1, 30), 16, 16)
        board16.new_game()
        order = TrackOrder()
        for move in moves:
            assert board16.play(move).legal
            order.play(move)
        if rng.random() < 0.6:
            board16.compact()
            order.compact()
        assert board16.frontier_len == len(order.frontier)
        plies = 0
        for _ in range(rng.randrange(1, 8)):
            expected = model_candidates(order, 16, 16, board16.newest)
            assert board_candidates(board16) == expected, moves
            steps += 1
            if not expected or order.position.is_over:
                break
            if not random_ply(board16, order, rng.choice(expected)):
                continue
            plies += 1
            assert board16.ply == plies
        for _ in range(plies):
            board16.undo()
            order.pop()
        assert board16.ply == 0
        assert board16.tiles() == window_tiles(order.position.tiles, 16, 16)
        assert board_candidates(board16) == model_candidates(order, 16, 16, board16.newest)
    assert steps > 100


def random_ply(board, order: TrackOrder, candidate: tuple) -> bool:
    """Play ``candidate`` (torus x, y, symbol) as a ply on the board and on the model: whether
    it was legal (both must say the same, and place the same number of tiles)."""
    x, y, s = candidate
    cell = next(c for _, c, _ in order.candidates() if (c[0] % 16, c[1] % 16) == (x, y))
    turn = board.play_cell(x, y, board_symbol(s), ply=True)
    try:
        order.play(order.position.move_at(cell, SYMBOLS[s]))
    except ValueError:
        assert not turn.legal
        return False
    assert turn.legal and turn.tiles == len(order.position.turns[-1].placed)
    return True


def board_symbol(index: int):
    from trax_fpga.hdl.types import Symbol as HdlSymbol

    return HdlSymbol(index)


def board_perft(board, depth: int) -> int:
    """The legal move sequences of ``depth`` plies, through CANDIDATE, PLY and UNDO."""
    if depth == 0:
        return 1
    total = 0
    for candidate in board.candidates():
        turn = board.play_cell(candidate.x, candidate.y, candidate.symbol, ply=True)
        if not turn.legal:
            continue
        won = any(turn.wins)
        total += 0 if won and depth > 1 else board_perft(board, depth - 1)
        board.undo()
    return total


@pytest.mark.parametrize("opening", ["@0+", "@0/ @1+", "@0+ B1\\ A2/"])
def test_perft_through_the_board_commands(board16, opening):
    position = Position.from_moves(opening.split())
    board16.new_game()
    for move in opening.split():
        board16.play(move)
    board16.compact()
    for depth in (1, 2, 3):
        assert board_perft(board16, depth) == position.perft(depth), (opening, depth)
    assert board16.ply == 0


def step_perft(board, depth: int) -> int:
    """The legal move sequences of ``depth`` plies, through NEXT and UNDO_NEXT alone (as the
    search walks the tree): each command plays the next legal move, passing over illegal ones."""
    if depth == 0:
        return 1
    total = 0
    played = board.step()
    while played is not None:
        won = any(board.wins)
        total += 0 if won and depth > 1 else step_perft(board, depth - 1)
        played = board.step(played.next_index, played.next_symbol, undo=True)
    return total


@pytest.mark.parametrize("opening", ["@0+", "@0/ @1+", "@0+ B1\\ A2/"])
def test_perft_through_next_and_undo_next(board16, opening):
    position = Position.from_moves(opening.split())
    board16.new_game()
    for move in opening.split():
        board16.play(move)
    board16.compact()
    for depth in (1, 2, 3):
        assert step_perft(board16, depth) == position.perft(depth), (opening, depth)
    assert board16.ply == 0


class PlyStepWatch:
    """A backend that ticks one clock at a time and checks, every clock, that the board's ply
    went where ``ply_up``, ``ply_down`` and ``ply_to_zero`` said it would (the search sets its
    per-ply memories' read addresses from them a clock ahead)."""

    def __init__(self, inner) -> None:
        self.inner = inner
        self.steps = collections.Counter()

    def set(self, name: str, value: int) -> None:
        self.inner.set(name, value)

    def get(self, name: str) -> int:
        return self.inner.get(name)

    def tick(self, count: int = 1) -> None:
        for _ in range(count):
            before = self.inner.get("ply")
            up, down, to_zero = (self.inner.get(f"ply_{way}") for way in ("up", "down", "to_zero"))
            self.inner.tick()
            after = self.inner.get("ply")
            assert up + down + to_zero <= 1
            assert after == (0 if to_zero else before + up - down), (before, up, down, to_zero)
            self.steps["up" if up else "down" if down else "to_zero" if to_zero else "stay"] += 1

    def close(self) -> None:
        self.inner.close()


def test_the_ply_goes_where_the_board_says_it_will(board16):
    watch = board16.backend = PlyStepWatch(board16.backend)
    try:
        board16.new_game()
        for move in ("@0/", "@1+"):
            board16.play(move)
        board16.compact()
        assert step_perft(board16, 3) == Position.from_moves(["@0/", "@1+"]).perft(3)
        assert board16.play("B2+", ply=True).legal
        board16.undo()
        board16.new_game()
    finally:
        board16.backend = watch.inner
    # Every kind of step was seen, many times each, so the check could fail.
    assert min(watch.steps[way] for way in ("up", "down", "stay")) > 1000
    assert watch.steps["to_zero"] == 2


def test_next_passes_over_its_skip_and_plays_only_when_told(board16):
    """On random positions: NEXT without play finds the first candidate at or after the cursor
    that is not the skip move, and plays nothing; with play, it plays the first such candidate
    whose turn is legal (the model's first legal one), and the board's ply goes up by one."""
    rng = random.Random(77)
    checked = 0
    for _ in range(12):
        moves = random_game(rng, rng.randrange(2, 25), 16, 16)
        board16.new_game()
        order = TrackOrder()
        for move in moves:
            assert board16.play(move).legal
            order.play(move)
        board16.compact()
        order.compact()
        expected = model_candidates(order, 16, 16, board16.newest)
        if order.position.is_over or len(expected) < 2:
            continue
        skip = expected[rng.randrange(len(expected))]
        rest = [c for c in expected if c != skip]
        found = board16.step(skip=(skip[0], skip[1], board_symbol(skip[2])), play=False)
        assert (found.x, found.y, found.symbol.value) == rest[0]
        assert board16.ply == 0
        legal = legal_candidates(order, rest)
        played = board16.step(skip=(skip[0], skip[1], board_symbol(skip[2])))
        if not legal:
            assert played is None and board16.ply == 0
            continue
        assert (played.x, played.y, played.symbol.value) == legal[0]
        assert board16.ply == 1
        board16.undo()
        checked += 1
    assert checked >= 6


#: A position whose first candidate (the oldest cell of the compacted frontier list, its first
#: fitting symbol) is illegal: it brings three edges of one colour into a cell. A seeded random
#: game (tests/hdl/reference.py's ``random_game``; 3 of 7,086 positions of 3,000 such games,
#: at their root or a few plies on, are like it). NEXT's first candidate used to end the command
#: with ``found`` and the verdict DEAD, no ply stacked: the search then took it for a node and
#: never completed an iteration here (100,000 nodes at depth 0 where the model proves a win in
#: 300).
DEAD_FIRST = (
    "@0+ B1+ @1/ @1\\ E1\\ @1\\ F0\\ C3/ A1/ F3/ E0/ G3+ C5\\ A5+ H3+ A1/ @3\\ B6\\ F0/ H5+ C8\\ "
    "I2/ F0+ @3/ F7+ K4/ F2/ I1+ E1\\ L4\\ @3\\ I0\\ A3+ N5/"
)


def test_next_passes_over_an_illegal_first_candidate(board16):
    """NEXT from the start of the list plays the first legal candidate, passing over illegal
    ones, its first included; UNDO_NEXT takes it back and plays the next legal one."""
    board16.new_game()
    order = TrackOrder()
    for move in DEAD_FIRST.split():
        assert board16.play(move).legal
        order.play(move)
    board16.compact()
    order.compact()
    legal = legal_candidates(order, model_candidates(order, 16, 16, board16.newest))
    if not board16.newest:  # (the newest cell's first candidate is legal)
        assert legal[0] != model_candidates(order, 16, 16, False)[0]
    played = board16.step()
    assert (played.x, played.y, played.symbol.value) == legal[0]
    assert board16.ply == 1
    again = board16.step(played.next_index, played.next_symbol, undo=True)
    assert (again.x, again.y, again.symbol.value) == legal[1]
    assert board16.ply == 1
    board16.undo()
    assert board16.ply == 0


def horizon_sweep(board, order: TrackOrder) -> list[tuple]:
    """Every legal move of the position played and taken back as a search's horizon does it
    (``NEXT``, then ``UNDO_NEXT`` on from each): per move, what the board says after it (the
    move, its wins, its counts) and the clocks it took."""
    seen = []
    found = board.step()
    while found is not None:
        move = (found.x, found.y, found.symbol.value)
        seen.append((move, board.wins, board.features(), board.last_cycles))
        found = board.step(found.next_index, found.next_symbol, undo=True)
    assert board.ply == 0
    return seen


def model_after(order: TrackOrder, move: tuple) -> tuple:
    """The model's counts after ``move`` (torus x, y, symbol), and whether it won the game."""
    x, y, s = move
    cell = next(c for _, c, _ in order.candidates() if (c[0] % 16, c[1] % 16) == (x, y))
    order.play(order.position.move_at(cell, SYMBOLS[s]))
    features = model_features(order.position, 16, 16)
    over = order.position.outcome is not None
    order.pop()
    return features, over


def sweep_with_and_without(step_options: dict, plain_options: dict, seed: int) -> tuple:
    """Every legal move of 12 seeded random positions swept as a search's horizon does
    (:func:`horizon_sweep`) on a board with ``step_options`` and one with ``plain_options``:
    both play the model's legal moves in its order (newest first with ``newest_first`` in
    both) with the model's counts and wins, and the first never takes more clocks than the
    second, nor fewer by more than one. (The clocks the step saved, the moves seen.)"""
    rng = random.Random(seed)
    newest = step_options.get("newest_first", False)
    step_board = TrackBoardSim((16, 16), "verilator", plies=8, options=step_options)
    plain_board = TrackBoardSim((16, 16), "verilator", plies=8, options=plain_options)
    saved = moves_seen = 0
    with step_board, plain_board:
        for _ in range(12):
            moves = random_game(rng, rng.randrange(1, 30), 16, 16)
            order = TrackOrder()
            for board in (step_board, plain_board):
                board.new_game()
            for move in moves:
                for board in (step_board, plain_board):
                    board.play(move)
                order.play(move)
            if order.position.is_over:
                continue
            legal = legal_candidates(order, model_candidates(order, 16, 16, newest))
            with_step = horizon_sweep(step_board, order)
            without = horizon_sweep(plain_board, order)
            assert [seen[0] for seen in with_step] == legal == [seen[0] for seen in without]
            for (move, wins, features, clocks), (_, wins_0, features_0, clocks_0) in zip(
                with_step, without, strict=True
            ):
                want_features, over = model_after(order, move)
                assert features == features_0 == want_features, (moves, move)
                assert wins == wins_0 and any(wins) == over, (moves, move)
                assert clocks in (clocks_0, clocks_0 - 1), (moves, move)
                saved += clocks_0 - clocks
            moves_seen += len(legal)
    assert moves_seen > 100
    return saved, moves_seen


def test_the_leaf_step_saves_a_clock_and_changes_nothing():
    """The leaf step (a one-tile ply's next symbol at the same cell placed in the take-back's
    last clock), against ``plain_leaf``: the same moves, counts and wins, a clock saved at each
    move that follows a one-tile move at the same cell, none lost anywhere."""
    saved, moves_seen = sweep_with_and_without({}, {"plain_leaf": True}, 4242)
    assert saved > moves_seen // 4  # most moves follow another symbol of their cell


#: The candidate orders of the steps' sweeps: newest first (the board files') in ``make test``,
#: oldest first (the other order, a design of its own) in ``make test-slow``.
ORDERS = [
    pytest.param(False, id="oldest_first", marks=pytest.mark.slow),
    pytest.param(True, id="newest_first"),
]


@pytest.mark.parametrize("newest", ORDERS)
def test_the_next_entry_step_saves_a_clock_and_changes_nothing(newest):
    """The next-entry step (``NEXT`` going on past the cached cell reads the next listed cell's
    record at once, from the entry read ahead when the cache was filled), against
    ``plain_next_entry``: the same moves, counts and wins, a clock saved at each move that is
    the first at a new cell after a take-back, none lost anywhere."""
    order = {"newest_first": newest}
    saved, moves_seen = sweep_with_and_without(order, {**order, "plain_next_entry": True}, 4343)
    assert saved > moves_seen // 5  # a cell fits two or three symbols: then the next cell


def test_the_leaf_step_after_a_ply_of_many_tiles_saves_a_clock_and_changes_nothing():
    """The leaf step after a ply with forced tiles too (its move's tile, the last to come off,
    at the cached cell), against ``one_tile_leaf``: the same moves, counts and wins, a clock
    saved at some moves (those after a ply of many tiles at the same cell), none lost."""
    saved, moves_seen = sweep_with_and_without({}, {"one_tile_leaf": True}, 4545)
    assert saved > moves_seen // 5  # (137 of 364 when written: forced tiles are common)


@pytest.mark.parametrize("newest", ORDERS)
def test_the_fit_step_saves_a_clock_and_changes_nothing(newest):
    """The fit step (``NEXT``'s candidate at a listed cell placed in the clock its fitting
    symbols are found in), against ``plain_fit``: the same moves, counts and wins, a clock
    saved at each move that is the first at a cell, none lost anywhere."""
    order = {"newest_first": newest}
    saved, moves_seen = sweep_with_and_without(order, {**order, "plain_fit": True}, 4444)
    assert saved > moves_seen // 5  # a cell fits two or three symbols: then the next cell


@pytest.mark.parametrize("options", list(BOARD_OPTIONS))
def test_plies_beyond_the_stack_are_refused(options):
    with TrackBoardSim((8, 8), plies=2, options=BOARD_OPTIONS[options]) as board:
        board.new_game()
        board.play("@0+")
        position = Position.from_moves(["@0+"])
        for _ in range(2):
            move = position.legal_moves()[0]
            position.play(move)
            assert board.play(move, ply=True).legal
        assert board.play(position.legal_moves()[0], ply=True).verdict.name == "OVERFLOW"
        assert board.ply == 2
        board.undo()
        board.undo()
        assert board.ply == 0
        board.undo()  # nothing to take back: no change
        assert board.ply == 0
        assert board.tiles() == window_tiles(Position.from_moves(["@0+"]).tiles, 8, 8)


def random_walk(board, rng, games: int, newest: bool = False):
    """Seeded random games on a 16 x 16 ``board`` and on its model: each game played move by
    move, then a few random plies (legal or not) searched into, then taken back. Yields
    (``"move"``, ``"ply"`` or ``"undo"``, the model's position, the game's moves) after each
    step, with the board on the same position."""
    for _ in range(games):
        moves = random_game(rng, rng.randrange(1, 40), 16, 16)
        board.new_game()
        order = TrackOrder()
        for move in moves:
            board.play(move)
            order.play(move)
            yield "move", order.position, moves
        plies = 0
        for _ in range(rng.randrange(1, 6)):
            expected = model_candidates(order, 16, 16, newest)
            if not expected or order.position.is_over:
                break
            plies += random_ply(board, order, rng.choice(expected))
            yield "ply", order.position, moves
        for _ in range(plies):
            board.undo()
            order.pop()
            yield "undo", order.position, moves


def model_features(position, width, height):
    found = track_features(position, width, height)
    return found.attacks, found.potential[1] - found.potential[0]


def test_track_counts_follow_every_tile(board16):
    """The evaluation's counts and sums (attacks and loop potential of each colour), and the
    position's key where the board keeps one, kept by the board tile by tile, equal a count
    from scratch (host/trackeval.py, host/trackresearch.py) after every game move, every ply
    (legal or not) and every undo."""
    checked = 0
    for step, position, moves in random_walk(board16, random.Random(77), 40, board16.newest):
        got, want = board_state(board16, position)
        assert got == want, moves
        checked += step != "undo"
    assert checked > 500
    if board16.keyed:
        board16.new_game()
        assert board16.position_key() == 0


def test_the_board_numbers_tiles_keys_as_the_model():
    for x, y in ((0, 0), (5, 9), (63, 63)):
        for hdl_tile, host_tile in zip(TILES, Tile, strict=True):
            assert hdl_tile.value == host_tile.value
            assert hdl_tile_key(x, y, hdl_tile) == model_tile_key(x, y, host_tile)
    with pytest.raises(ValueError, match="64 x 64"):
        TrackBoard(128, 64, position_key=True)


def test_a_ply_after_plies_taken_back_is_counted_right(board16):
    """A bug found once: taking a ply back gave the far ends of its tracks the wrong direction,
    so a later ply through them counted an attack that is not there."""
    opening = ["@0/", "A2+", "A3/", "A0+"]
    board16.new_game()
    for move in opening:
        board16.play(move)
    for move in ["B2+", "B2/", "B2\\"]:
        assert board16.play(move, ply=True).legal
        board16.undo()
    position = Position.from_moves([*opening, "@2+"])
    assert board16.play("@2+", ply=True).legal
    assert board16.features() == model_features(position, 16, 16) == ((0, 0), 73 - 7)
    board16.undo()


def test_the_kind_codes_and_their_weights():
    """The table's codes (4 bits, 0 for none) name each kind once and carry the specification's
    weight; the lead's bits hold the largest weight for two tracks a cell."""
    from trax_fpga.host.trackeval import LOOP_WEIGHTS

    codes = {}
    for distance in range(0, 7):
        for relation in range(3):
            code = track_kind_code(distance, relation)
            assert 0 <= code < 16
            if 1 <= distance <= 4:
                assert KIND_WEIGHTS[code] == LOOP_WEIGHTS[distance - 1][relation]
                assert codes.setdefault(code, (distance, relation)) == (distance, relation)
            else:
                assert code == 0
    assert len(codes) == 12 and 0 not in codes
    assert (1 << (potential_bits(64, 64) - 1)) > 60 * 2 * 64 * 64


def test_a_score_needs_the_counts():
    weights = {"tempo": 1, "attack": 1, "own_attack": 1, "lost": 1, "clamp": 1}
    assert TrackBoard(16, 16, weights=weights).counts
    assert not TrackBoard(16, 16).counts  # nothing reads them without a score
    with pytest.raises(ValueError, match=r"^a score needs the counts: weights without counts$"):
        TrackBoard(16, 16, weights=weights, counts=False)


def test_board_options_reach_every_engine():
    from trax_fpga.hdl.parallel_search import ParallelSearch
    from trax_fpga.hdl.track_game import TrackGame

    game = TrackGame(16, 16, board_options=COMPACT_OPTIONS)
    assert game.board_options == COMPACT_OPTIONS
    assert TrackGame(16, 16, engines=2, board_options=COMPACT_OPTIONS).board_options == (
        COMPACT_OPTIONS
    )
    search = ParallelSearch(16, 16, 3, engines=2, board_options={"serial_appends": True})
    built = search.elaborate(None)  # (one level: the engines are made, not elaborated)
    built._MustUse__silence = True
    for name in ("engine_0", "engine_1"):
        engine = built.submodules[name]
        engine._MustUse__silence = True
        assert engine.board_options == {"serial_appends": True}


def test_one_engine_with_a_shared_table_registers_its_answers():
    """``TrackGame(engines=1, shared_table=True)`` is a ParallelSearch of one engine, whose
    table's answers are registered on arrival (the one-engine ULX3S player with its own table,
    read straight into the search's decision, failed its 25 MHz at 22.6 to 24.4 MHz, four
    builds; as a ParallelSearch of one it routed at 32.6 MHz)."""
    from trax_fpga.hdl.parallel_search import ParallelSearch
    from trax_fpga.hdl.track_game import TrackGame
    from trax_fpga.hdl.track_search import TrackSearch

    for shared, kind in ((False, TrackSearch), (True, ParallelSearch)):
        built = TrackGame(16, 16, move_table=64, shared_table=shared).elaborate(None)
        built._MustUse__silence = True
        core = built.submodules["core"]
        core._MustUse__silence = True
        assert type(core) is kind


def test_board_option_from_the_command_line():
    from trax_fpga.hdl.track_board import board_option

    assert board_option("serial_appends") == ("serial_appends", True)
    assert board_option("serial-appends=on") == ("serial_appends", True)
    assert board_option("edge_banks=4") == ("edge_banks", 4)
    for text, message in (
        ("no_such", r"^no board option 'no_such'; the options: serial_writes, "),
        ("edge_banks", r"^edge_banks takes 4 or 8, as edge_banks=4$"),
        ("plain_undo=7", r"^plain_undo is a flag: name it alone to turn it on$"),
    ):
        with pytest.raises(ValueError, match=message):
            board_option(text)


def test_the_listed_cell_in_hand_needs_the_plain_undo():
    with pytest.raises(ValueError, match=r"^listed_in_hand needs plain_undo"):
        TrackBoard(16, 16, listed_in_hand=True)
    with pytest.raises(ValueError, match=r"^edge_banks must be 4 or 8, not 2$"):
        TrackBoard(16, 16, edge_banks=2)
