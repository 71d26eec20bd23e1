# amaranth: UnusedElaboratable=no
"""The notation codec and the box mapper against the reference engine, in amaranth.sim."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from amaranth import Module
from amaranth.back import verilog
from amaranth.sim import Simulator
from amaranth.utils import bits_for
from hypothesis import given, settings
from hypothesis import strategies as st

from trax_fpga.hdl.notation import BoxMapper, MoveDecoder, MoveEncoder, NotationError
from trax_fpga.hdl.types import Symbol
from trax_fpga.host.errors import InvalidMoveError
from trax_fpga.host.notation import Move, column_name
from trax_fpga.host.position import Position
from trax_fpga.sim.symbols import gateware_symbol, host_symbol

DATA = Path(__file__).resolve().parent.parent / "data"


# The reference parser's reasons (InvalidMoveError.reason), by their start and end.
REFERENCE_REASONS = [
    (lambda r: r == "empty move", NotationError.EMPTY),
    (lambda r: r.startswith("expected a column"), NotationError.NO_COLUMN),
    (lambda r: r == "expected a row number", NotationError.NO_ROW),
    (lambda r: r == "row number has a leading zero", NotationError.LEADING_ZERO),
    (lambda r: r.startswith("expected a symbol"), NotationError.NO_SYMBOL),
    (lambda r: " is not a symbol " in r, NotationError.BAD_SYMBOL),
    (lambda r: r == "unexpected text after the symbol", NotationError.TRAILING),
]


def reference_decode(text: bytes, column_width: int, row_width: int) -> tuple:
    """What the decoder must say about ``text``: ("move", column, row, Symbol) or ("error", why)."""
    try:
        move = Move.parse(text.decode("latin-1"))
    except InvalidMoveError as error:
        reasons = [why for matches, why in REFERENCE_REASONS if matches(error.reason)]
        assert len(reasons) == 1, f"unmapped reference reason {error.reason!r}"
        return ("error", reasons[0])
    if move.column >= 2**column_width or move.row >= 2**row_width:
        return ("error", NotationError.TOO_BIG)
    return ("move", move.column, move.row, gateware_symbol(move.symbol))


# --- harnesses ----------------------------------------------------------------------------------


def decode_lines(
    lines: list[bytes], column_width: int = 8, row_width: int = 8, *, seed: int = 0
) -> list[tuple]:
    """Feed ``lines`` to one MoveDecoder; return one result per line as ``reference_decode``.

    The seed picks idle cycles between bytes and whether ``end`` comes with the last byte or
    in a cycle of its own.
    """
    dut = MoveDecoder(column_width, row_width)
    rng = random.Random(seed)
    results = []

    async def testbench(ctx):
        for line in lines:
            together = bool(line) and rng.random() < 0.5
            for i, byte in enumerate(line):
                while rng.random() < 0.2:
                    ctx.set(dut.i_stream.valid, 0)
                    await ctx.tick()
                assert ctx.get(dut.i_stream.ready)
                ctx.set(dut.i_stream.valid, 1)
                ctx.set(dut.i_stream.payload, byte)
                if together and i == len(line) - 1:
                    ctx.set(dut.end, 1)
                await ctx.tick()
                assert (not ctx.get(dut.valid) and not ctx.get(dut.error)) or together
            ctx.set(dut.i_stream.valid, 0)
            if not together:
                ctx.set(dut.end, 1)
                await ctx.tick()
            ctx.set(dut.end, 0)
            valid, error = ctx.get(dut.valid), ctx.get(dut.error)
            assert valid + error == 1, f"line {line!r}: valid={valid} error={error}"
            if valid:
                move = ctx.get(dut.move)
                results.append(("move", move["column"], move["row"], move["symbol"]))
            else:
                results.append(("error", ctx.get(dut.reason)))
            await ctx.tick()
            assert not ctx.get(dut.valid) and not ctx.get(dut.error), "strobes last one cycle"

    sim = Simulator(dut)
    sim.add_clock(1e-6)
    sim.add_testbench(testbench)
    sim.run()
    return results


def check_decoder(lines: list[bytes], column_width: int = 8, row_width: int = 8, seed: int = 0):
    got = decode_lines(lines, column_width, row_width, seed=seed)
    for line, result in zip(lines, got, strict=True):
        expected = reference_decode(line, column_width, row_width)
        assert result == expected, (
            f"{line!r} (widths {column_width}/{row_width}, seed {seed}): "
            f"gateware {result}, reference {expected}"
        )


def encode_moves(
    moves: list[tuple[int, int, Symbol]],
    column_width: int = 8,
    row_width: int = 8,
    *,
    terminator: bytes = b"\n",
    seed: int | None = None,
) -> tuple[bytes, list[list[int]]]:
    """Send ``moves`` through one MoveEncoder; return the bytes out and, per move, the cycles at
    which its bytes were taken. With a seed, ``ready`` drops at random (back-pressure)."""
    dut = MoveEncoder(column_width, row_width, terminator=terminator)
    rng = random.Random(seed)
    out = bytearray()
    cycles: list[list[int]] = []

    async def testbench(ctx):
        cycle = 0
        for column, row, symbol in moves:
            ctx.set(dut.i_move.valid, 1)
            ctx.set(dut.i_move.payload, {"column": column, "row": row, "symbol": symbol})
            while not ctx.get(dut.i_move.ready):
                await ctx.tick()
                cycle += 1
            await ctx.tick()
            cycle += 1
            ctx.set(dut.i_move.valid, 0)
            taken: list[int] = []
            cycles.append(taken)
            for _ in range(10 * (column_width + row_width) + 50):
                ready = seed is None or rng.random() < 0.6
                ctx.set(dut.o_stream.ready, ready)
                if ready and ctx.get(dut.o_stream.valid):
                    out.append(ctx.get(dut.o_stream.payload))
                    taken.append(cycle)
                await ctx.tick()
                cycle += 1
                if ctx.get(dut.i_move.ready):
                    break
            else:
                raise AssertionError(f"encoder did not finish {column, row, symbol}")

    sim = Simulator(dut)
    sim.add_clock(1e-6)
    sim.add_testbench(testbench)
    sim.run()
    return bytes(out), cycles


def reference_text(column: int, row: int, symbol: Symbol) -> bytes:
    return str(Move(column, row, host_symbol(symbol))).encode()


# --- decoder ------------------------------------------------------------------------------------

EDGE_LINES = [
    b"@0+", b"@0/", b"A1/", b"Z9\\", b"AA10+", b"AZ1/", b"BA2\\", b"ZZ99+", b"@100/",
    b"B9+", b"B10+", b"C99/", b"D100\\", b"AB123/", b"IU255+", b"A255+",
    # malformed, one of each kind and the garbled contest replies
    b"", b"a1+", b"1+", b"+", b"-W", b"-B", b"-T", b" A1+", b"@", b"A", b"AB", b"@+", b"A+",
    b"@A1+", b"@@0+", b"A01+", b"A00+", b"A0", b"A1", b"A12", b"A1x", b"A2t", b"A1d", b"A0 ",
    b"A1+x", b"A1++", b"A1+\n", b"A1+\r", b"\x00", b"\xff", b"A\xb21+", b"A1 +",
    # too big for 8 bits, well formed or not (a syntax error wins)
    b"IV1+", b"ZZZ1/", b"A256+", b"A1000\\", b"ZZZZ1", b"A999",
]  # fmt: skip


def test_decoder_edge_cases_match_reference():
    check_decoder(EDGE_LINES)


def test_decoder_narrow_widths_flag_too_big():
    # 3-bit columns (up to 'G') and 2-bit rows (up to 3): no silent wrap-around.
    lines = [b"G3+", b"H3+", b"G4+", b"@3/", b"@9+", b"@10+", b"AA0+", b"A0+", b"Z0\\", b"A3"]
    check_decoder(lines, column_width=3, row_width=2)
    assert decode_lines([b"H0+"], 3, 2) == [("error", NotationError.TOO_BIG)]


def test_decoder_every_column_and_row_that_fits():
    lines = [f"{column_name(c)}{c % 300}+".encode() for c in range(0, 256)]
    lines += [f"@{r}/".encode() for r in range(0, 300, 7)]
    check_decoder(lines)


SYMBOL_CHARS = "+/\\"


def random_line(rng: random.Random) -> bytes:
    """A move, or a move with a mistake, or noise."""
    kind = rng.random()
    column = rng.choice([rng.randrange(30), rng.randrange(800), rng.randrange(20000)])
    row = rng.choice([rng.randrange(12), rng.randrange(120), rng.randrange(3000)])
    text = f"{column_name(column)}{row}{rng.choice(SYMBOL_CHARS)}"
    if kind < 0.4:
        return text.encode()
    if kind < 0.85:
        chars = list(text)
        for _ in range(rng.randint(1, 2)):
            pos = rng.randrange(len(chars) + 1)
            noise = rng.choice("@AZaz0159+/\\ -tdx\n")
            edit = rng.randrange(3)
            if edit == 0:
                chars.insert(pos, noise)
            elif chars:
                chars.pop(min(pos, len(chars) - 1))
            if edit == 2:
                chars.insert(pos, noise)
        return "".join(chars).encode("latin-1")
    return bytes(rng.randrange(256) for _ in range(rng.randrange(7)))


@pytest.mark.parametrize("seed", [1, 2])
def test_decoder_random_lines_match_reference(seed):
    rng = random.Random(seed)
    check_decoder([random_line(rng) for _ in range(600)], seed=seed)


@pytest.mark.parametrize(("column_width", "row_width"), [(5, 4), (10, 7)])
def test_decoder_random_lines_other_widths(column_width, row_width):
    rng = random.Random(column_width * 100 + row_width)
    check_decoder([random_line(rng) for _ in range(300)], column_width, row_width, seed=3)


NOTATION_CHARS = "@ABYZa0129+/\\ -x"


@settings(max_examples=15, deadline=None)
@given(st.lists(st.text(alphabet=NOTATION_CHARS, max_size=7), min_size=1, max_size=40))
def test_decoder_hypothesis_texts_match_reference(texts):
    check_decoder([text.encode("latin-1") for text in texts])


# --- encoder ------------------------------------------------------------------------------------

EDGE_MOVES = [(0, 0, Symbol.CROSS), (1, 1, Symbol.SLASH), (26, 9, Symbol.BACKSLASH),
              (27, 10, Symbol.CROSS), (52, 99, Symbol.SLASH), (53, 100, Symbol.BACKSLASH),
              (702, 255, Symbol.CROSS), (703, 1000, Symbol.SLASH), (1023, 1023, Symbol.CROSS),
              (0, 1, Symbol.SLASH), (28, 0, Symbol.CROSS)]  # fmt: skip


def test_encoder_edge_cases_match_reference():
    text, cycles = encode_moves(EDGE_MOVES, 10, 10)
    assert text == b"".join(reference_text(*move) + b"\n" for move in EDGE_MOVES)
    # The first move is taken in cycle 0; its text starts after the conversion time.
    assert cycles[0][0] == max(10, 10) + 2
    # Without back-pressure, the bytes of a move come one per clock.
    for taken in cycles:
        assert taken == list(range(taken[0], taken[0] + len(taken))), taken


def test_encoder_every_column_and_row_of_8_bits():
    moves = [(c, (c * 37) % 256, Symbol(c % 3)) for c in range(256)]
    moves += [((r * 11) % 256, r, Symbol.CROSS) for r in range(256)]
    text, _ = encode_moves(moves, terminator=b"")
    assert text == b"".join(reference_text(*move) for move in moves)


@pytest.mark.parametrize(("column_width", "row_width"), [(3, 2), (5, 9), (12, 4)])
def test_encoder_random_moves_with_back_pressure(column_width, row_width):
    seed = column_width * 100 + row_width
    rng = random.Random(seed)
    moves = [
        (rng.randrange(2**column_width), rng.randrange(2**row_width), rng.choice(list(Symbol)))
        for _ in range(60)
    ]
    moves += [(2**column_width - 1, 2**row_width - 1, Symbol.SLASH), (0, 0, Symbol.CROSS)]
    text, _ = encode_moves(moves, column_width, row_width, terminator=b"\r\n", seed=seed)
    expected = b"".join(reference_text(*move) + b"\r\n" for move in moves)
    assert text == expected, f"seed {seed}"


def test_encoder_decoder_round_trip():
    """Encoder bytes fed to the decoder, LF turned into ``end`` as the protocol engine will."""
    m = Module()
    m.submodules.encoder = encoder = MoveEncoder(9, 9)
    m.submodules.decoder = decoder = MoveDecoder(9, 9)
    byte = encoder.o_stream.payload
    m.d.comb += [
        encoder.o_stream.ready.eq(1),
        decoder.i_stream.payload.eq(byte),
        decoder.i_stream.valid.eq(encoder.o_stream.valid & (byte != ord("\n"))),
        decoder.end.eq(encoder.o_stream.valid & (byte == ord("\n"))),
    ]
    rng = random.Random(5)
    moves = [(rng.randrange(512), rng.randrange(512), rng.choice(list(Symbol))) for _ in range(80)]
    moves += [(0, 0, Symbol.CROSS), (511, 511, Symbol.BACKSLASH)]
    decoded = []

    async def feeder(ctx):
        for column, row, symbol in moves:
            ctx.set(encoder.i_move.valid, 1)
            ctx.set(encoder.i_move.payload, {"column": column, "row": row, "symbol": symbol})
            await ctx.tick().until(encoder.i_move.ready)
        ctx.set(encoder.i_move.valid, 0)
        await ctx.tick().repeat(40)

    async def monitor(ctx):
        while True:
            await ctx.tick()
            assert not ctx.get(decoder.error), f"decoder error {ctx.get(decoder.reason)}"
            if ctx.get(decoder.valid):
                move = ctx.get(decoder.move)
                decoded.append((move["column"], move["row"], move["symbol"]))

    sim = Simulator(m)
    sim.add_clock(1e-6)
    sim.add_testbench(feeder)
    sim.add_testbench(monitor, background=True)
    sim.run()
    assert decoded == moves


# --- box mapper ---------------------------------------------------------------------------------


def model_map(width, height, box, column, row):
    """The Python formula: (window_x, window_y, outside, wrapped)."""
    box_x, box_y, box_w, box_h = box
    empty = box_w == 0 or box_h == 0
    if empty:
        outside = (column, row) != (0, 0)
    else:
        outside = column > box_w + 1 or row > box_h + 1
    wrapped = not empty and (
        (column in (0, box_w + 1) and box_w + 2 > width)
        or (row in (0, box_h + 1) and box_h + 2 > height)
    )
    shift = 0 if empty else 1  # on the empty board, @0 names the box corner itself
    window = ((box_x - shift + column) % width, (box_y - shift + row) % height)
    return *window, outside, wrapped


def model_name(width, height, box, cell):
    """The Python formula of the inverse: the box-relative name of a window cell."""
    shift = 0 if box[2] == 0 or box[3] == 0 else 1
    return (cell[0] - box[0] + shift) % width, (cell[1] - box[1] + shift) % height


def run_mapper(width, height, cases, column_width=None, row_width=None):
    """For each (box, column, row, cell) case: (window_x, window_y, outside, wrapped,
    cell_column, cell_row) from the gateware (combinational: no clock)."""
    column_width = column_width or bits_for(width + 1)
    row_width = row_width or bits_for(height + 1)
    dut = BoxMapper(width, height, column_width, row_width)
    results = []

    async def testbench(ctx):
        for (box_x, box_y, box_w, box_h), column, row, (cell_x, cell_y) in cases:
            for port, value in zip(
                (dut.box_x, dut.box_y, dut.box_w, dut.box_h, dut.column, dut.row),
                (box_x, box_y, box_w, box_h, column, row),
                strict=True,
            ):
                ctx.set(port, value)
            ctx.set(dut.cell_x, cell_x)
            ctx.set(dut.cell_y, cell_y)
            results.append(
                tuple(
                    ctx.get(port)
                    for port in (
                        dut.window_x,
                        dut.window_y,
                        dut.outside,
                        dut.wrapped,
                        dut.cell_column,
                        dut.cell_row,
                    )
                )
            )

    sim = Simulator(dut)
    sim.add_testbench(testbench)
    sim.run()
    return results


@pytest.mark.parametrize(("width", "height"), [(5, 6), (8, 4), (3, 3)])
def test_box_mapper_matches_formula_exhaustively(width, height):
    """Every box, column and cell along x (rows drawn at random alongside), wrap-around too."""
    rng = random.Random(width * 10 + height)
    column_width, row_width = bits_for(width + 1), bits_for(height + 1)
    cases = []
    for box_x in range(width):
        for box_w in range(width + 1):
            for column in range(2**column_width):
                box_y, box_h = rng.randrange(height), rng.randrange(height + 1)
                row = rng.randrange(2**row_width)
                cell = (rng.randrange(width), rng.randrange(height))
                cases.append(((box_x, box_y, box_w, box_h), column, row, cell))
    got = run_mapper(width, height, cases)
    for case, result in zip(cases, got, strict=True):
        box, column, row, (cell_x, cell_y) = case
        window_x, window_y, outside, wrapped = model_map(width, height, box, column, row)
        assert result[2:4] == (outside, wrapped), f"{case}: {result}"
        if not outside:
            assert result[:2] == (window_x, window_y), f"{case}: {result}"
        assert result[4:] == model_name(width, height, box, (cell_x, cell_y)), f"{case}: {result}"


@pytest.mark.parametrize(("width", "height"), [(6, 5), (8, 8)])
def test_box_mapper_never_aliases_reachable_cells(width, height):
    """For every box the window holds with its ring, the names in reach are distinct cells, and
    mapping back gives the same names."""
    names = []
    for box_w in range(1, width - 1):
        for box_h in range(1, height - 1):
            box = (width - 2, 1, box_w, box_h)  # straddling the window's right edge
            for column in range(box_w + 2):
                for row in range(box_h + 2):
                    names.append((box, column, row))
    cases = [(box, c, r, (0, 0)) for box, c, r in names]
    got = run_mapper(width, height, cases)
    cells_by_box = {}
    back = []
    for (box, column, row), (window_x, window_y, outside, wrapped, _, _) in zip(
        names, got, strict=True
    ):
        assert not outside and not wrapped, (box, column, row)
        cells_by_box.setdefault(box, set()).add((window_x, window_y))
        back.append((box, column, row, (window_x, window_y)))
    for box, cells in cells_by_box.items():
        assert len(cells) == (box[2] + 2) * (box[3] + 2), f"aliasing in box {box}"
    inverse = run_mapper(width, height, back)
    for (_, column, row, _), result in zip(back, inverse, strict=True):
        assert result[4:] == (column, row)


def test_box_mapper_empty_board_names_the_box_corner():
    """As the board keeps it: on the empty board the box sits at (0, 0) with size 0, and @0 names
    window cell (0, 0); any other name is out of reach."""
    cases = [
        ((0, 0, 0, 0), 0, 0, (0, 0)),
        ((0, 0, 0, 0), 1, 0, (0, 0)),
        ((0, 0, 0, 0), 0, 1, (0, 0)),
    ]
    got = run_mapper(16, 16, cases, 8, 8)
    assert got[0] == (0, 0, 0, 0, 0, 0)
    assert [result[2] for result in got[1:]] == [1, 1]


def load_games(count: int) -> list[list[str]]:
    games = []
    for line in (DATA / "human_games.txt").read_text().splitlines():
        if line.startswith("#") or not line.strip():
            continue
        games.append(line.split("|")[2].split())
        if len(games) == count:
            break
    return games


def test_box_mapper_against_reference_positions():
    """Real games on a 20 x 18 torus window at an offset that makes them wrap: every move maps to
    the reference's cell, maps back to its own name, and the first names past the ring are out."""
    width, height = 20, 18
    offset_x, offset_y = 13, 11  # board (0, 0) lands near the window's far corner
    cases, expected = [], []
    for moves in load_games(40):
        position = Position()
        for text in moves:
            move = Move.parse(text)
            x, y = position.cell_of(move)
            cell = ((x + offset_x) % width, (y + offset_y) % height)
            if position.box is None:
                box = (offset_x, offset_y, 0, 0)
            else:
                b = position.box
                box = (
                    (b.min_x + offset_x) % width,
                    (b.min_y + offset_y) % height,
                    b.width,
                    b.height,
                )
            cases.append((box, move.column, move.row, cell))
            expected.append((*cell, 0, 0, move.column, move.row))
            if position.box is not None:
                for column, row in ((box[2] + 2, 0), (0, box[3] + 2)):
                    cases.append((box, column, row, cell))
                    expected.append((None, None, 1, 0, move.column, move.row))
            position.play(move)
    got = run_mapper(width, height, cases, 8, 8)
    for case, want, result in zip(cases, expected, got, strict=True):
        if want[0] is None:
            assert result[2:] == want[2:], f"{case}: {result}"
        else:
            assert result == want, f"{case}: {result}, expected {want}"


# --- parameters and Verilog ---------------------------------------------------------------------


def test_parameters_are_checked():
    with pytest.raises(TypeError, match=r"column width must be a positive integer, not 0"):
        MoveDecoder(0, 8)
    with pytest.raises(TypeError, match=r"row width must be a positive integer, not 'x'"):
        MoveEncoder(8, "x")
    with pytest.raises(TypeError, match=r"terminator must be bytes, not '\\n'"):
        MoveEncoder(8, 8, terminator="\n")
    with pytest.raises(ValueError, match=r"window width must be an integer of at least 3, not 2"):
        BoxMapper(2, 8)
    with pytest.raises(ValueError, match=r"column width 4 cannot name every column of a 16-wide"):
        BoxMapper(16, 16, 4, 8)
    with pytest.raises(ValueError, match=r"row width 3 cannot name every row of a 7-high"):
        BoxMapper(16, 7, 8, 3)


@pytest.mark.parametrize(
    "make",
    [
        lambda: MoveDecoder(),
        lambda: MoveDecoder(3, 2),
        lambda: MoveEncoder(),
        lambda: MoveEncoder(1, 1, terminator=b""),
        lambda: BoxMapper(16, 16),
        lambda: BoxMapper(54, 40, 8, 8),
    ],
    ids=["decoder", "decoder-narrow", "encoder", "encoder-tiny", "mapper-16", "mapper-54x40"],
)
def test_converts_to_verilog(make):
    assert "module top" in verilog.convert(make(), name="top")
