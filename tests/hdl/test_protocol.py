# amaranth: UnusedElaboratable=no
"""The protocol engine: lines, commands, whole games and every defined edge case.

The engine runs on Verilator with the real rules core and a scripted search
(:mod:`trax_fpga.sim.player_bench`); the reference engine plays the opponent, chooses the
scripted answers and checks every line the engine sends. The line reader alone is compared
with a Python model in amaranth.sim.
"""

from __future__ import annotations

import random

import pytest
from amaranth.back import verilog
from amaranth.sim import Simulator

from trax_fpga.hdl.protocol import GameState, LineKind, LineReader, ProtocolEngine
from trax_fpga.hdl.types import Symbol
from trax_fpga.host.errors import InvalidMoveError
from trax_fpga.host.notation import Move
from trax_fpga.host.position import Position
from trax_fpga.sim.player_bench import BenchDriver, ProtocolBench
from trax_fpga.sim.symbols import gateware_symbol

from ..host.records import moves_only, record_lines

WINDOW = 32  # the torus: the largest human game's box is 15 x 14
#: Clocks an answer may take besides the search: the rules core judges two moves (each tile a
#: few clocks), plus the engine's own few clocks.
RULES_ALLOWANCE = 400


@pytest.fixture(scope="module")
def bench():
    with BenchDriver(WINDOW, WINDOW) as driver:
        yield driver


@pytest.fixture(scope="module")
def small():
    """An 8 x 8 torus (boxes up to 6 x 6), another team code and opening, short lines."""
    with BenchDriver(8, 8, team="KZ", opening="/", max_line=8) as driver:
        yield driver


def human_games() -> list[list[str]]:
    return [moves_only(fields[2]) for fields in record_lines("human_games.txt")]


def settle(bench: BenchDriver, cycles: int = 50) -> None:
    bench.sim.tick(cycles)


def canonical(position: Position, text: str) -> str:
    """How the board must write ``text`` (played in ``position``): the name of its cell."""
    move = Move.parse(text)
    return str(position.move_at(position.cell_of(move), move.symbol))


def start_black(bench: BenchDriver) -> None:
    bench.silent(b"-B\n", cycles=600)  # a new game empties the torus: W * H / 4 clocks
    assert bench.game is GameState.OPPONENT


def start_white(bench: BenchDriver, opening: bytes = b"@0+\n") -> None:
    assert bench.ask(b"-W\n") == opening
    settle(bench)
    assert bench.game is GameState.OPPONENT


def play_record(
    bench: BenchDriver,
    moves: list[str],
    board_white: bool,
    *,
    between=None,
    replay: int = 0,
) -> Position:
    """Play a recorded game with the board on one side (its moves scripted from the record);
    check every answer and the silence after the end. Returns the final position.

    ``between(position, ply)`` runs after each of the board's answers while the game goes on,
    in the opponent's thinking time (where a pondering engine's guess is scripted: ``position``
    is after the answer, ``ply`` the opponent's move's index); ``replay`` is the clocks an
    answer or a silence may take besides (a wrong guess's replay)."""
    position = Position()
    if board_white:
        assert moves[0] == "@0+", "the bench opens with @0+"
        start_white(bench)
        position.play("@0+")
        ply = 1
    else:
        start_black(bench)
        ply = 0
    while ply < len(moves):
        opponent = moves[ply]
        position.play(opponent)
        if position.outcome is not None:  # the opponent wins: nothing is sent
            bench.silent(f"{opponent}\n".encode(), cycles=2_000 + replay)
            settle(bench)
            assert bench.game is GameState.OVER
            return position
        if ply + 1 == len(moves):
            break
        answer = moves[ply + 1]
        expected = canonical(position, answer)
        bench.script(position, answer)
        got = bench.ask(
            f"{opponent}\n".encode(), max_cycles=bench.ANSWER_CYCLES + bench.latency + replay
        )
        assert got == f"{expected}\n".encode(), f"ply {ply + 1}: {moves[: ply + 1]}"
        assert bench.status("answer_cycles") <= bench.latency + RULES_ALLOWANCE + replay
        position.play(answer)
        ply += 2
        if between is not None and position.outcome is None and ply < len(moves):
            between(position, ply)
    settle(bench)
    if position.outcome is not None:
        assert bench.game is GameState.OVER
        bench.silent(b"@0+\n")  # nothing after a won game
    else:
        assert bench.game is GameState.OPPONENT
    return position


# --- elaboration and parameters -----------------------------------------------------------------


def test_engine_converts_to_verilog():
    verilog.convert(ProtocolEngine(6, 5), name="top", emit_src=False)


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"team": "ABC"}, "team code must be two printable ASCII characters other than space, "
         "not 'ABC'"),
        ({"team": "A "}, "not 'A '"),
        ({"team": 12}, "not 12"),
        ({"opening": "\\"}, "the opening move must be '+' or '/' (@0+ or @0/), not '\\\\'"),
        ({"max_line": 1}, "max_line must be an integer of at least 2, not 1"),
    ],
)  # fmt: skip
def test_engine_parameter_errors(options, message):
    with pytest.raises(ValueError, match=None) as info:
        ProtocolEngine(8, 8, **options)
    assert message in str(info.value)


# --- the line reader against a model ------------------------------------------------------------


def model_lines(data: list, max_line: int, column_width: int, row_width: int):
    """What the line reader must report for ``data`` (bytes, or None for a framing error)."""
    lines, current, noisy = [], b"", False
    for item in data:
        if item is None:
            noisy = True
        elif item in (0x0A, 0x0D):
            if current or noisy:
                lines.append(classify(current, noisy, max_line, column_width, row_width))
            current, noisy = b"", False
        else:
            current += bytes([item])
            noisy |= not 0x20 <= item <= 0x7E
    return lines


def classify(line: bytes, noisy: bool, max_line: int, cw: int, rw: int):
    if noisy:
        return (LineKind.NOISY, None)
    if len(line) > max_line:
        return (LineKind.OVERLONG, None)
    commands = {b"-T": LineKind.TEAM, b"-W": LineKind.WHITE, b"-B": LineKind.BLACK}
    if line in commands:
        return (commands[line], None)
    try:
        move = Move.parse(line.decode("ascii"))
    except InvalidMoveError:
        return (LineKind.MALFORMED, None)
    if move.column >= 2**cw or move.row >= 2**rw:
        return (LineKind.FAR_MOVE, None)
    return (LineKind.MOVE, (move.column, move.row, gateware_symbol(move.symbol).value))


def rtl_lines(data: list, max_line: int, cw: int, rw: int, gap: int):
    reader = LineReader(cw, rw, max_line=max_line)
    seen = []

    async def testbench(ctx):
        for item in data:
            if item is None:
                ctx.set(reader.framing_error, 1)
                await ctx.tick()
                ctx.set(reader.framing_error, 0)
            else:
                ctx.set(reader.i_stream.valid, 1)
                ctx.set(reader.i_stream.payload, item)
                await ctx.tick()
                ctx.set(reader.i_stream.valid, 0)
            for _ in range(gap):
                await ctx.tick()
        await ctx.tick().repeat(3)

    async def monitor(ctx):
        async for _clk, _rst, valid, kind, move in ctx.tick().sample(
            reader.o_line.valid, reader.o_line.payload.kind, reader.o_line.payload.move
        ):
            if valid:
                kind = LineKind(kind)
                value = None
                if kind is LineKind.MOVE:
                    value = (move.column, move.row, move.symbol.value)
                seen.append((kind, value))

    simulator = Simulator(reader)
    simulator.add_clock(1e-6)
    simulator.add_testbench(testbench)
    simulator.add_process(monitor)
    simulator.run()
    return seen


LINE_CASES = [
    b"-T\n", b"-W\r", b"-B\r\n", b"\n\r\n\r", b"-t\n", b"-T \n", b"-TT\n", b"--\n", b"-\n",
    b"@0+\n", b"A2t\n", b"A1d\n", b"B12\\\n", b"ZZ9/\n", b"@01+\n", b"A0+x\n",
    b"AAAAAAAAAAAAAA1+\n", b"AAAAAAAAAAAAAAA1+\n", b"x" * 40 + b"\n", b"\x00-T\n", b"A1\xff+\n",
]  # fmt: skip


@pytest.mark.parametrize("line", LINE_CASES, ids=repr)
def test_line_reader_cases(line):
    data = list(line)
    assert rtl_lines(data, 16, 5, 5, gap=0) == model_lines(data, 16, 5, 5)


def test_line_reader_framing_errors():
    data = [ord("-"), None, ord("T"), 0x0A, None, 0x0A, ord("-"), ord("T"), 0x0A]
    assert rtl_lines(data, 16, 5, 5, gap=2) == [(LineKind.NOISY, None)] * 2 + [
        (LineKind.TEAM, None)
    ]
    assert model_lines(data, 16, 5, 5) == rtl_lines(data, 16, 5, 5, gap=2)


def test_line_reader_random_streams():
    seed = random.randrange(1 << 30)
    rng = random.Random(seed)
    alphabet = b"@AZB019+/\\-TWB\r\n x\x00"
    for _ in range(5):
        data = []
        for _ in range(rng.randrange(50, 200)):
            roll = rng.random()
            if roll < 0.03:
                data.append(None)
            elif roll < 0.1:
                data.append(rng.randrange(256))
            else:
                data.append(rng.choice(alphabet))
        max_line = rng.choice([2, 4, 16])
        expected = model_lines(data, max_line, 4, 3)
        assert rtl_lines(data, max_line, 4, 3, gap=rng.choice([0, 1])) == expected, f"seed {seed}"


# --- commands -----------------------------------------------------------------------------------


@pytest.mark.parametrize("ending", [b"\n", b"\r", b"\r\n"], ids=["LF", "CR", "CRLF"])
def test_team_code_with_every_line_ending(bench, ending):
    assert bench.ask(b"-T" + ending) == b"FP\n"
    bench.silent(b"", cycles=300)  # the LF after CR is an empty line: nothing more
    assert bench.game is GameState.NONE


def test_empty_lines_are_ignored(bench):
    bench.silent(b"\n\r\n\r\r\n\n", cycles=300)
    assert bench.ask(b"\n\n-T\n") == b"FP\n"
    assert bench.status("error") == 0


def test_team_then_black_then_white(bench):
    assert bench.ask(b"-T\n") == b"FP\n"
    start_black(bench)
    assert bench.status("colour") == 0
    assert bench.ask(b"-T\n") == b"FP\n"
    start_white(bench)
    assert bench.status("colour") == 1


def test_new_white_game_in_the_middle_of_a_game(bench):
    game = human_games()[1]  # @0+ B1+ A0/ ...
    play_record(bench, game[:5], board_white=True)
    start_white(bench)  # a new -W: @0+ again, and the new game goes on from the empty board
    play_record(bench, game[:7], board_white=True)


def test_new_black_game_and_team_in_the_middle_of_a_game(bench):
    game = human_games()[0]
    play_record(bench, game[:6], board_white=False)
    start_black(bench)
    play_record(bench, game[:4], board_white=False)
    assert bench.ask(b"-T\n") == b"FP\n"
    settle(bench)
    assert bench.game is GameState.NONE
    bench.silent(b"@0+\n")  # no game: moves are ignored


def test_commands_abort_the_search(bench):
    start_black(bench)
    bench.set_latency(1_000_000)
    aborts = bench.status("aborts")
    position = Position()
    position.play("@0+")
    bench.script(position, "B1+")
    bench.silent(b"@0+\n", cycles=500)  # thinking
    assert bench.status("thinking") == 1
    assert bench.ask(b"-W\n") == b"@0+\n"  # at once, and not the abandoned search's move
    assert bench.status("aborts") == aborts + 1
    bench.silent(b"", cycles=2_000)
    bench.set_latency(50)
    play_record(bench, ["@0+", "B1+", "A0/", "A3/"], board_white=True)
    assert bench.status("starts") == 1  # the abort reset the search; it searched once since
    # and -T while thinking
    start_black(bench)
    bench.set_latency(1_000_000)
    bench.silent(b"@0+\n", cycles=500)
    assert bench.ask(b"-T\n") == b"FP\n"
    bench.set_latency(50)
    bench.silent(b"", cycles=2_000)
    assert bench.game is GameState.NONE


# --- whole games --------------------------------------------------------------------------------


def test_whole_games_as_white_and_black(bench):
    games = human_games()
    white_games = [g for g in games if g[0] == "@0+"][:3]
    for game in white_games:
        play_record(bench, game, board_white=True)
    for game in games[:3]:
        play_record(bench, game, board_white=False)
    assert bench.status("max_answer_cycles") <= bench.latency + RULES_ALLOWANCE


@pytest.mark.slow
def test_all_human_games(bench):
    for index, game in enumerate(human_games()):
        if game[0] == "@0+":
            play_record(bench, game, board_white=True)
        try:
            play_record(bench, game, board_white=False)
        except AssertionError as error:
            raise AssertionError(f"game {index + 1}: {error}") from None
    print(f"worst answer: {bench.status('max_answer_cycles') - bench.latency} clocks + search")


def test_winning_move_is_sent_then_silence(bench):
    games = human_games()
    # The board makes the last, winning move of a game (as the side that won).
    game = next(g for g in games if len(g) % 2 == 0 and g[0] == "@0+" and len(g) < 30)
    final = play_record(bench, game, board_white=True)
    assert final.outcome is not None
    assert bench.game is GameState.OVER
    bench.silent(b"-X\n")
    assert bench.status("error") == 1  # a rejected line lights the error LED
    # The opponent's winning move: nothing is sent.
    game = next(g for g in games if len(g) % 2 == 1 and len(g) < 30)
    play_record(bench, game, board_white=False)


# --- malformed and illegal input ----------------------------------------------------------------


def waiting_after(bench: BenchDriver, moves: list[str]) -> Position:
    """A game with the board as black, waiting for the opponent after ``moves``."""
    play_record(bench, moves, board_white=False)
    return Position.from_moves(moves)


@pytest.mark.parametrize(
    "garbage",
    [b"A2t\n", b"A1d\n", b"xyz\n", b"-X\n", b"\x00\x01\x02\n", b"a1+\n", b"B2 /\n", b"0A+\n"],
    ids=repr,
)
def test_garbled_lines_are_ignored(bench, garbage):
    moves = ["@0+", "B1+", "A0/", "A3/"]  # the board (black) played B1+ and A3/
    position = waiting_after(bench, moves)
    rejected = bench.status("rejected_lines")
    bench.silent(garbage)
    assert bench.status("error") == 1
    assert bench.status("rejected_lines") == rejected + 1
    assert bench.game is GameState.OPPONENT
    # the real move still gets its answer
    position.play("@3/")
    bench.script(position, "@3+")
    assert bench.ask(b"@3/\n") == f"{canonical(position, '@3+')}\n".encode()


def test_framing_error_spoils_the_line(bench):
    position = waiting_after(bench, ["@0+", "B1+"])
    bench.send(b"A0")
    bench.framing_error()
    bench.silent(b"/\n")
    assert bench.game is GameState.OPPONENT
    bench.framing_error()  # between lines: the next line is spoiled too
    bench.silent(b"A0/\n")
    position.play("A0/")
    bench.script(position, "A3/")
    assert bench.ask(b"A0/\n") == f"{canonical(position, 'A3/')}\n".encode()


def test_overlong_lines_are_ignored(bench):
    position = waiting_after(bench, ["@0+", "B1+"])
    bench.silent(b"A0/" + b" " * 14 + b"\n")  # 17 characters
    bench.silent(b"Q" * 1000 + b"\n")
    bench.silent(b"-T" + b"x" * 100 + b"\n")
    assert bench.game is GameState.OPPONENT
    position.play("A0/")
    bench.script(position, "A3/")
    assert bench.ask(b"A0/\n") == f"{canonical(position, 'A3/')}\n".encode()
    # 16 characters is not too long: a move naming a column far beyond the box is illegal
    waiting_after(bench, ["@0+", "B1+"])
    bench.silent(b"AAAAAAAAAAAAA11+\n")
    assert bench.game is GameState.HALTED


def test_noise_then_commands(bench):
    bench.silent(b"\xff\xfe garbage \x00\n")
    assert bench.status("error") == 1
    assert bench.ask(b"-T\n") == b"FP\n"
    assert bench.status("error") == 0  # a command clears the error LED


def illegal_moves(position: Position, count: int, rng: random.Random) -> list[str]:
    """Well-formed moves that the reference refuses in ``position``: occupied, not adjacent,
    mismatching or dead cells, near the box."""
    box = position.box
    candidates = []
    for column in range(box.width + 3):
        for row in range(box.height + 3):
            for symbol in "+/\\":
                text = f"{Move(column, row, Move.parse('@0' + symbol).symbol)}"
                if not position.is_legal(text):
                    candidates.append(text)
    rng.shuffle(candidates)
    return candidates[:count]


def test_illegal_opponent_moves_halt_the_game(bench):
    seed = random.randrange(1 << 30)
    rng = random.Random(seed)
    game = human_games()[2]
    for plies in (2, 6, 10):
        moves = game[:plies]
        for text in illegal_moves(Position.from_moves(moves), 4, rng):
            waiting_after(bench, moves)
            bench.silent(f"{text}\n".encode())
            settle(bench)
            assert bench.game is GameState.HALTED, f"{moves} {text} (seed {seed})"
            assert bench.status("error") == 1
            bench.silent(f"{moves[0]}\n".encode(), cycles=300)  # halted: nothing more
    start_white(bench)  # a new game after all that
    assert bench.status("error") == 0


@pytest.mark.parametrize("first", ["@0\\", "A1+", "@1/", "B0+"])
def test_illegal_first_moves(bench, first):
    start_black(bench)
    bench.silent(f"{first}\n".encode())
    settle(bench)
    assert bench.game is GameState.HALTED


def test_moves_out_of_turn_are_ignored(bench):
    assert bench.ask(b"-T\n") == b"FP\n"
    bench.silent(b"@0+\n")  # no game
    assert bench.game is GameState.NONE
    assert bench.status("error") == 0


def test_search_without_a_move_halts(bench):
    start_black(bench)
    bench.script(None, None)
    bench.silent(b"@0+\n")
    settle(bench)
    assert bench.game is GameState.HALTED


def test_illegal_search_answer_is_never_sent(bench):
    start_black(bench)
    bench.script_cell(0, 0, Symbol.CROSS)  # the opponent's tile is there
    bench.silent(b"@0+\n")
    settle(bench)
    assert bench.game is GameState.HALTED
    assert bench.status("error") == 1


# --- a small window: options and overflow --------------------------------------------------------


def test_small_window_options(small):
    assert small.ask(b"-T\n") == b"KZ\n"
    assert small.ask(b"-W\n") == b"@0/\n"
    small.silent(b"-T" + b" " * 7 + b"\n")  # 9 characters: longer than max_line 8
    assert small.status("rejected_lines") == 1


def growing_game(opening: str, width: int) -> list[str]:
    """Legal moves without a win, from ``opening``, each making the one-row box a column wider,
    until it is ``width`` columns wide."""
    position = Position()
    moves = [opening]
    position.play(opening)
    while position.box.width < width:
        for move in position.legal_moves():
            if move.column == position.box.width + 1 and move.row == 1:
                position.play(move)
                if position.outcome is None and position.box.height == 1:
                    moves.append(str(move))
                    break
                position.pop()
        else:
            raise AssertionError("no widening move")
    return moves


def test_overflow_of_an_opponent_move(small):
    moves = growing_game("@0+", 7)  # 7 columns and the ring do not fit an 8-wide torus
    small.silent(b"-B\n", cycles=200)
    for i in (0, 2, 4):
        small.script(Position.from_moves(moves[: i + 1]), moves[i + 1])
        assert small.ask(f"{moves[i]}\n".encode()) == f"{moves[i + 1]}\n".encode()
    small.silent(f"{moves[6]}\n".encode())
    settle(small)
    assert small.game is GameState.HALTED
    assert small.status("overflow") == 1
    assert small.status("error") == 1
    assert small.ask(b"-T\n") == b"KZ\n"
    assert small.status("overflow") == 0


def test_overflow_of_the_boards_own_move(small):
    moves = growing_game("@0/", 7)
    assert small.ask(b"-W\n") == b"@0/\n"
    for i in (1, 3):
        small.script(Position.from_moves(moves[: i + 1]), moves[i + 1])
        assert small.ask(f"{moves[i]}\n".encode()) == f"{moves[i + 1]}\n".encode()
    small.script(Position.from_moves(moves[:6]), moves[6])  # 7 wide: refused, never sent
    small.silent(f"{moves[5]}\n".encode())
    settle(small)
    assert small.game is GameState.HALTED
    assert small.status("overflow") == 1
    small.silent(b"B1+\n")
    assert small.ask(b"-W\n") == b"@0/\n"
    assert small.status("overflow") == 0


def test_bench_converts(small):
    verilog.convert(ProtocolBench(8, 8), name="top", emit_src=False)


# --- the player top -----------------------------------------------------------------------------


def test_player_converts_to_verilog():
    from trax_fpga.hdl.player import Player

    player = Player(8, 8, 12_000_000, 115200, "AB")
    assert player.divisor == 104
    verilog.convert(player, name="top", emit_src=False)


@pytest.mark.parametrize(
    ("args", "options", "message"),
    [
        ((8, 8, 0), {}, "clock frequency must be a positive number, not 0"),
        ((8, 8, 12e6, 4_000_000), {}, "baud rate 4000000 is too fast for a 12000000.0 Hz clock"),
        ((8, 8, 12e6, 19200, "ABC"), {}, "team code must be two printable ASCII characters"),
        ((6, 8, 12e6), {}, "torus columns must be a power of two of at least 8, not 6"),
        (
            (8, 8, 12e6),
            {"budget": 0},
            "search budget must be a positive integer below 2**32, not 0",
        ),
        ((8, 8, 12e6), {"opening": "+/"}, "the opening move must be '+' or '/'"),
    ],
)
def test_player_parameter_errors(args, options, message):
    from trax_fpga.hdl.player import Player

    with pytest.raises(ValueError) as info:
        Player(*args, **options)
    assert message in str(info.value)
