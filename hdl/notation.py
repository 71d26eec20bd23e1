"""Trax notation in gateware: moves from and to ASCII text, and box-relative names to window cells.

A move is written as a column (``@`` = 0, then ``A``..``Z``, ``AA``.. in bijective base 26), a row
(``0``, ``1``, .. in decimal without leading zeros) and a symbol (``+``, ``/``, ``\\``), relative
to the bounding box before the move: the reference is ``trax_fpga.host.notation``.
"""

from __future__ import annotations

from amaranth import Cat, Const, Module, Mux, Signal, unsigned
from amaranth.lib import data, enum, stream, wiring
from amaranth.lib.wiring import In, Out
from amaranth.utils import bits_for

from .types import Symbol

__all__ = ["BoxMapper", "MoveDecoder", "MoveEncoder", "NotationError", "move_layout"]

_SYMBOL_CHARS = {Symbol.CROSS: "+", Symbol.SLASH: "/", Symbol.BACKSLASH: "\\"}


def _check_width(name: str, value: object) -> None:
    if not isinstance(value, int) or isinstance(value, bool) or value < 1:
        raise TypeError(f"{name} must be a positive integer, not {value!r}")


def move_layout(column_width: int, row_width: int) -> data.StructLayout:
    """The layout of one move: ``column`` and ``row`` (unsigned, box-relative) and ``symbol``."""
    _check_width("column width", column_width)
    _check_width("row width", row_width)
    return data.StructLayout(
        {"column": unsigned(column_width), "row": unsigned(row_width), "symbol": Symbol}
    )


class NotationError(enum.Enum, shape=3):
    """Why a line is not a move, in the order the reference parser checks (first one wins).

    Each member but ``TOO_BIG`` is one of the reasons ``Move.parse`` gives.
    """

    EMPTY = 0  # "empty move"
    NO_COLUMN = 1  # "expected a column": the line starts with neither '@' nor a letter A-Z
    NO_ROW = 2  # "expected a row number": no digit after the column
    LEADING_ZERO = 3  # "row number has a leading zero"
    NO_SYMBOL = 4  # "expected a symbol": the line ends after the row
    BAD_SYMBOL = 5  # "... is not a symbol": another character after the row
    TRAILING = 6  # "unexpected text after the symbol"
    TOO_BIG = 7  # well formed, but the column or row does not fit its width


class _Parse(enum.Enum, shape=3):
    START = 0  # nothing yet
    AT = 1  # '@'
    LETTERS = 2  # one or more letters A-Z
    ZERO = 3  # the row '0'
    DIGITS = 4  # a row starting with 1-9
    DONE = 5  # the symbol
    FAILED = 6  # malformed; the reason is kept


def _times(value, factor: int):
    """``value * factor`` as a sum of shifts (no multiplier inferred)."""
    terms = [value << bit for bit in range(factor.bit_length()) if factor >> bit & 1]
    total = terms[0]
    for term in terms[1:]:
        total = total + term
    return total


class MoveDecoder(wiring.Component):
    """Parses the bytes of one line into a move, one byte per clock.

    Parameters
    ----------
    column_width, row_width : int
        Widths of the decoded column and row; larger values are reported as ``TOO_BIG``.

    Members
    -------
    i_stream : In(stream.Signature(8))
        The characters of the line, without its terminator (CR/LF are not notation). Always
        ready.
    end : In(1)
        Strobe: the line is complete. A byte offered in the same cycle is its last character.
        The decoder then starts afresh with the next byte.
    valid : Out(1)
        Strobe, the cycle after ``end``: the line was a move, now in ``move``.
    error : Out(1)
        Strobe, the cycle after ``end``: the line was not a move (or too big), ``reason`` says why.
    move : Out(move_layout(column_width, row_width))
        The last decoded move; holds until the next ``end``.
    reason : Out(NotationError)
        Why the last line was rejected; holds until the next ``end``.
    """

    def __init__(self, column_width: int = 8, row_width: int = 8) -> None:
        self._layout = move_layout(column_width, row_width)
        self._column_width = column_width
        self._row_width = row_width
        super().__init__(
            {
                "i_stream": In(stream.Signature(8)),
                "end": In(1),
                "valid": Out(1),
                "error": Out(1),
                "move": Out(self._layout),
                "reason": Out(NotationError),
            }
        )

    def elaborate(self, platform):
        m = Module()
        cw, rw = self._column_width, self._row_width

        # The line so far, and the same after the byte offered in this cycle.
        state = Signal(_Parse)
        column = Signal(cw)
        row = Signal(rw)
        symbol = Signal(Symbol)
        too_big = Signal()
        failure = Signal(NotationError)
        next_state = Signal(_Parse)
        next_column = Signal(cw)
        next_row = Signal(rw)
        next_symbol = Signal(Symbol)
        next_too_big = Signal()
        next_failure = Signal(NotationError)

        byte = self.i_stream.payload
        is_at = byte == ord("@")
        is_letter = (byte >= ord("A")) & (byte <= ord("Z"))
        is_digit = (byte >= ord("0")) & (byte <= ord("9"))
        is_symbol = (byte == ord("+")) | (byte == ord("/")) | (byte == ord("\\"))
        letter = (byte - ord("@"))[:5]  # 'A' = 1 .. 'Z' = 26
        digit = (byte - ord("0"))[:4]
        # A first letter or digit may already be too big for a narrow column or row.
        letter_too_big = letter[cw:] != 0 if cw < 5 else Const(0)
        digit_too_big = digit[rw:] != 0 if rw < 4 else Const(0)
        appended_letter = Signal(cw + 5)  # column * 26 + letter
        appended_digit = Signal(rw + 4)  # row * 10 + digit
        m.d.comb += [
            appended_letter.eq(_times(column, 26) + letter),
            appended_digit.eq(_times(row, 10) + digit),
            self.i_stream.ready.eq(1),
        ]

        m.d.comb += [
            next_state.eq(state),
            next_column.eq(column),
            next_row.eq(row),
            next_symbol.eq(symbol),
            next_too_big.eq(too_big),
            next_failure.eq(failure),
        ]

        def fail(reason):
            m.d.comb += [next_state.eq(_Parse.FAILED), next_failure.eq(reason)]

        def first_digit():
            m.d.comb += [next_row.eq(digit), next_too_big.eq(too_big | digit_too_big)]
            with m.If(byte == ord("0")):
                m.d.comb += next_state.eq(_Parse.ZERO)
            with m.Else():
                m.d.comb += next_state.eq(_Parse.DIGITS)

        def symbol_char():
            m.d.comb += next_state.eq(_Parse.DONE)
            with m.Switch(byte):
                with m.Case(ord("+")):
                    m.d.comb += next_symbol.eq(Symbol.CROSS)
                with m.Case(ord("/")):
                    m.d.comb += next_symbol.eq(Symbol.SLASH)
                with m.Default():
                    m.d.comb += next_symbol.eq(Symbol.BACKSLASH)

        with m.If(self.i_stream.valid), m.Switch(state):
            with m.Case(_Parse.START):
                with m.If(is_at):
                    m.d.comb += [next_state.eq(_Parse.AT), next_column.eq(0)]
                with m.Elif(is_letter):
                    m.d.comb += [
                        next_state.eq(_Parse.LETTERS),
                        next_column.eq(letter),
                        next_too_big.eq(letter_too_big),
                    ]
                with m.Else():
                    fail(NotationError.NO_COLUMN)
            with m.Case(_Parse.AT):
                with m.If(is_digit):
                    first_digit()
                with m.Else():
                    fail(NotationError.NO_ROW)
            with m.Case(_Parse.LETTERS):
                with m.If(is_letter):
                    m.d.comb += next_column.eq(appended_letter)
                    with m.If(appended_letter[cw:] != 0):
                        m.d.comb += next_too_big.eq(1)
                with m.Elif(is_digit):
                    first_digit()
                with m.Else():
                    fail(NotationError.NO_ROW)
            with m.Case(_Parse.ZERO):
                with m.If(is_digit):
                    fail(NotationError.LEADING_ZERO)
                with m.Elif(is_symbol):
                    symbol_char()
                with m.Else():
                    fail(NotationError.BAD_SYMBOL)
            with m.Case(_Parse.DIGITS):
                with m.If(is_digit):
                    m.d.comb += next_row.eq(appended_digit)
                    with m.If(appended_digit[rw:] != 0):
                        m.d.comb += next_too_big.eq(1)
                with m.Elif(is_symbol):
                    symbol_char()
                with m.Else():
                    fail(NotationError.BAD_SYMBOL)
            with m.Case(_Parse.DONE):
                fail(NotationError.TRAILING)

        m.d.sync += [self.valid.eq(0), self.error.eq(0)]
        with m.If(self.end):
            m.d.sync += [state.eq(_Parse.START), too_big.eq(0)]
            with m.Switch(next_state):
                with m.Case(_Parse.DONE):
                    with m.If(next_too_big):
                        m.d.sync += [self.error.eq(1), self.reason.eq(NotationError.TOO_BIG)]
                    with m.Else():
                        m.d.sync += [
                            self.valid.eq(1),
                            self.move.column.eq(next_column),
                            self.move.row.eq(next_row),
                            self.move.symbol.eq(next_symbol),
                        ]
                with m.Case(_Parse.START):
                    m.d.sync += [self.error.eq(1), self.reason.eq(NotationError.EMPTY)]
                with m.Case(_Parse.AT, _Parse.LETTERS):
                    m.d.sync += [self.error.eq(1), self.reason.eq(NotationError.NO_ROW)]
                with m.Case(_Parse.ZERO, _Parse.DIGITS):
                    m.d.sync += [self.error.eq(1), self.reason.eq(NotationError.NO_SYMBOL)]
                with m.Default():
                    m.d.sync += [self.error.eq(1), self.reason.eq(next_failure)]
        with m.Else():
            m.d.sync += [
                state.eq(next_state),
                column.eq(next_column),
                row.eq(next_row),
                symbol.eq(next_symbol),
                too_big.eq(next_too_big),
                failure.eq(next_failure),
            ]

        return m


def _bijective_offsets(width: int) -> list[int]:
    """``R_k = 1 + 26 + .. + 26**(k-1)``, the smallest column written with k letters, for every
    k that a ``width``-bit column reaches (``R_0 = 0``: the column ``@``)."""
    offsets, k = [0], 1
    while (26**k - 1) // 25 < 2**width:
        offsets.append((26**k - 1) // 25)
        k += 1
    return offsets


def _digits_needed(width: int, base: int) -> int:
    value, count = 2**width - 1, 1
    while value >= base:
        value //= base
        count += 1
    return count


class MoveEncoder(wiring.Component):
    """Writes a move as notation bytes, then ``terminator``.

    Parameters
    ----------
    column_width, row_width : int
        Widths of the column and row to encode.
    terminator : bytes
        Bytes sent after the symbol (``b"\\n"`` by default; ``b""`` for none).

    Members
    -------
    i_move : In(stream.Signature(move_layout(column_width, row_width)))
        Moves to write; taken only when the previous one has been sent whole.
    o_stream : Out(stream.Signature(8))
        The characters, one per clock while ``ready``. The first is offered
        ``max(column_width, row_width) + 2`` cycles after the cycle the move is taken in (the
        time of the decimal and base-26 conversions).
    """

    def __init__(self, column_width: int = 8, row_width: int = 8, *, terminator: bytes = b"\n"):
        self._layout = move_layout(column_width, row_width)
        if not isinstance(terminator, bytes):
            raise TypeError(f"terminator must be bytes, not {terminator!r}")
        self._column_width = column_width
        self._row_width = row_width
        self._terminator = terminator
        super().__init__(
            {
                "i_move": In(stream.Signature(self._layout)),
                "o_stream": Out(stream.Signature(8)),
            }
        )

    def elaborate(self, platform):
        m = Module()
        cw, rw = self._column_width, self._row_width
        steps = max(cw, rw)

        offsets = _bijective_offsets(cw)
        max_letters = len(offsets) - 1
        row_digits_max = _digits_needed(rw, 10)
        row_powers = [10**k for k in range(1, row_digits_max)]

        # Digit registers, least significant first, filled by shift-and-add conversion.
        letters = Signal(data.ArrayLayout(5, max_letters))  # 0 = 'A' .. 25 = 'Z'
        digits = Signal(data.ArrayLayout(4, row_digits_max))
        letter_count = Signal(range(max_letters + 1))
        digit_count = Signal(range(1, row_digits_max + 1))
        column_bits = Signal(steps)  # column - R_k, shifted out most significant first
        row_bits = Signal(steps)
        symbol = Signal(Symbol)
        step = Signal(range(steps + 1))
        index = Signal(range(max(max_letters, row_digits_max, len(self._terminator), 1)))

        # Letters and digits of the accepted move's column and row.
        move = self.i_move.payload
        k_letters = sum((move.column >= r).as_unsigned() for r in offsets[1:])
        k_digits = 1 + sum((move.row >= p).as_unsigned() for p in row_powers)
        offset = Signal(cw)
        with m.Switch(k_letters):
            for k, r in enumerate(offsets):
                with m.Case(k):
                    m.d.comb += offset.eq(r)

        def shift_in(digit_array, count, base, bit):
            """One shift-and-add step: digits = digits * 2 + bit, in base ``base``."""
            carry = bit
            for i in range(count):
                doubled = Cat(carry, digit_array[i])
                over = doubled >= base
                m.d.sync += digit_array[i].eq(Mux(over, doubled - base, doubled))
                carry = over

        o = self.o_stream
        with m.FSM():
            with m.State("IDLE"):
                m.d.comb += self.i_move.ready.eq(1)
                with m.If(self.i_move.valid):
                    m.d.sync += [
                        letters.eq(0),
                        digits.eq(0),
                        letter_count.eq(k_letters),
                        digit_count.eq(k_digits),
                        column_bits.eq(move.column - offset),
                        row_bits.eq(move.row),
                        symbol.eq(move.symbol),
                        step.eq(steps),
                    ]
                    m.next = "CONVERT"
            with m.State("CONVERT"):
                with m.If(step != 0):
                    shift_in(letters, max_letters, 26, column_bits[-1])
                    shift_in(digits, row_digits_max, 10, row_bits[-1])
                    m.d.sync += [
                        column_bits.eq(column_bits << 1),
                        row_bits.eq(row_bits << 1),
                        step.eq(step - 1),
                    ]
                with m.Else():
                    m.d.sync += index.eq(Mux(letter_count == 0, 0, letter_count - 1))
                    m.next = "COLUMN"
            with m.State("COLUMN"):
                m.d.comb += o.valid.eq(1)
                m.d.comb += o.payload.eq(
                    Mux(letter_count == 0, ord("@"), ord("A") + letters[index])
                )
                with m.If(o.ready):
                    with m.If(index == 0):
                        m.d.sync += index.eq(digit_count - 1)
                        m.next = "ROW"
                    with m.Else():
                        m.d.sync += index.eq(index - 1)
            with m.State("ROW"):
                m.d.comb += [o.valid.eq(1), o.payload.eq(ord("0") + digits[index])]
                with m.If(o.ready):
                    with m.If(index == 0):
                        m.next = "SYMBOL"
                    with m.Else():
                        m.d.sync += index.eq(index - 1)
            with m.State("SYMBOL"):
                m.d.comb += o.valid.eq(1)
                with m.Switch(symbol):
                    for member, char in _SYMBOL_CHARS.items():
                        with m.Case(member):
                            m.d.comb += o.payload.eq(ord(char))
                with m.If(o.ready):
                    m.d.sync += index.eq(0)
                    m.next = "TERMINATOR" if self._terminator else "IDLE"
            if self._terminator:
                with m.State("TERMINATOR"):
                    m.d.comb += o.valid.eq(1)
                    with m.Switch(index):
                        for i, char in enumerate(self._terminator):
                            with m.Case(i):
                                m.d.comb += o.payload.eq(char)
                    with m.If(o.ready):
                        m.d.sync += index.eq(index + 1)
                        with m.If(index == len(self._terminator) - 1):
                            m.next = "IDLE"

        return m


def _mod(m: Module, value, modulus: int, multiples: int, name: str):
    """``value mod modulus`` for ``0 <= value < multiples * modulus`` (conditional subtraction)."""
    result = Signal(range(modulus), name=name)
    if modulus & (modulus - 1) == 0:
        m.d.comb += result.eq(value)
        return result
    m.d.comb += result.eq(value)
    for k in range(1, multiples):  # the largest multiple that fits wins
        with m.If(value >= k * modulus):
            m.d.comb += result.eq(value - k * modulus)
    return result


class BoxMapper(wiring.Component):
    """Box-relative names (column, row) to cells of a ``width`` x ``height`` torus window, and back.

    The box is given in window coordinates: ``box_x``, ``box_y`` are its min corner, ``box_w``,
    ``box_h`` its size. Column ``c`` names window column ``(box_x - 1 + c) mod width``; rows
    likewise. An empty board is a box of size 0 (``box_w`` or ``box_h`` zero): its only move,
    ``@0``, names ``(box_x, box_y)``, the cell the first tile goes to (as in the reference,
    where the first tile lands at board (0, 0); the board keeps the box at (0, 0) then).

    Parameters
    ----------
    width, height : int
        Size of the window, at least 3.
    column_width, row_width : int
        Widths of the columns and rows named; every cell of the ring around a box that fills
        the window must be nameable (``column_width >= bits_for(width + 1)``).

    Members
    -------
    box_x, box_y, box_w, box_h : In
        The box (see above).
    column, row : In
        A move's box-relative column and row.
    window_x, window_y : Out
        The window cell the move names; meaningless when ``outside`` or ``wrapped``.
    outside : Out(1)
        The move names a cell beyond the ring around the box (``column > box_w + 1`` or
        ``row > box_h + 1``; on an empty board, anything but ``@0``): it touches no tile.
    wrapped : Out(1)
        The move names a ring cell that the window cannot hold apart from the box's opposite
        edge (``box_w + 2 > width`` or ``box_h + 2 > height``): the window is too small.
    cell_x, cell_y : In
        A window cell, for the inverse mapping.
    cell_column, cell_row : Out
        The box-relative name of ``(cell_x, cell_y)``: ``(cell_x - box_x + 1) mod width``, and
        likewise for rows (meaningful for cells of the box and its ring; on the empty board,
        ``(cell_x - box_x) mod width``).
    """

    def __init__(self, width: int, height: int, column_width: int = 8, row_width: int = 8):
        for name, value in (("width", width), ("height", height)):
            if not isinstance(value, int) or isinstance(value, bool) or value < 3:
                raise ValueError(f"window {name} must be an integer of at least 3, not {value!r}")
        _check_width("column width", column_width)
        _check_width("row width", row_width)
        if column_width < bits_for(width + 1):
            raise ValueError(
                f"column width {column_width} cannot name every column of a {width}-wide window "
                f"and its ring (at least {bits_for(width + 1)} bits needed)"
            )
        if row_width < bits_for(height + 1):
            raise ValueError(
                f"row width {row_width} cannot name every row of a {height}-high window "
                f"and its ring (at least {bits_for(height + 1)} bits needed)"
            )
        self._width, self._height = width, height
        super().__init__(
            {
                "box_x": In(range(width)),
                "box_y": In(range(height)),
                "box_w": In(range(width + 1)),
                "box_h": In(range(height + 1)),
                "column": In(column_width),
                "row": In(row_width),
                "window_x": Out(range(width)),
                "window_y": Out(range(height)),
                "outside": Out(1),
                "wrapped": Out(1),
                "cell_x": In(range(width)),
                "cell_y": In(range(height)),
                "cell_column": Out(column_width),
                "cell_row": Out(row_width),
            }
        )

    def elaborate(self, platform):
        m = Module()
        w, h = self._width, self._height

        empty = (self.box_w == 0) | (self.box_h == 0)
        beyond = (self.column > self.box_w + 1) | (self.row > self.box_h + 1)
        not_origin = (self.column != 0) | (self.row != 0)
        m.d.comb += self.outside.eq(Mux(empty, not_origin, beyond))

        on_ring_x = (self.column == 0) | (self.column == self.box_w + 1)
        on_ring_y = (self.row == 0) | (self.row == self.box_h + 1)
        m.d.comb += self.wrapped.eq(
            ~empty & ((on_ring_x & (self.box_w + 2 > w)) | (on_ring_y & (self.box_h + 2 > h)))
        )

        # Shifted by one window so that nothing goes negative: box_x - 1 + column + width
        # (box_x + column + width on the empty board).
        sum_x = Signal(range(3 * w + 2 ** len(self.column)))
        sum_y = Signal(range(3 * h + 2 ** len(self.row)))
        m.d.comb += [
            sum_x.eq(self.box_x + self.column + (w - 1) + empty),
            sum_y.eq(self.box_y + self.row + (h - 1) + empty),
        ]
        m.d.comb += [
            self.window_x.eq(_mod(m, sum_x, w, 3, "window_x_mod")),
            self.window_y.eq(_mod(m, sum_y, h, 3, "window_y_mod")),
        ]

        # cell - box + 1 + width (cell - box + width on the empty board), in [1, 2 * width].
        diff_x = Signal(range(2 * w + 1))
        diff_y = Signal(range(2 * h + 1))
        m.d.comb += [
            diff_x.eq(self.cell_x + (w + 1) - self.box_x - empty),
            diff_y.eq(self.cell_y + (h + 1) - self.box_y - empty),
        ]
        m.d.comb += [
            self.cell_column.eq(_mod(m, diff_x, w, 3, "cell_column_mod")),
            self.cell_row.eq(_mod(m, diff_y, h, 3, "cell_row_mod")),
        ]

        return m
