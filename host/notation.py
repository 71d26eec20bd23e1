"""Trax notation: a move is a column, a row and a symbol, relative to the box before the move.

Columns are ``@`` (the empty column left of the leftmost tile, 0), then ``A``..``Z``, ``AA``..
(bijective base 26, 1, 2, ...); rows are ``0`` (the empty row above the top tile row), then ``1``,
``2``, ... without leading zeros.
"""

from __future__ import annotations

import dataclasses

from .errors import InvalidMoveError
from .tiles import Symbol

__all__ = ["Move", "column_name", "parse_column"]

_SYMBOLS = {symbol.value: symbol for symbol in Symbol}


def column_name(column: int) -> str:
    """``0 -> '@'``, ``1 -> 'A'``, ``26 -> 'Z'``, ``27 -> 'AA'`` (bijective base 26)."""
    if column < 0:
        raise ValueError(f"column must be non-negative, not {column!r}")
    if column == 0:
        return "@"
    letters = []
    while column > 0:
        column, digit = divmod(column - 1, 26)
        letters.append(chr(ord("A") + digit))
    return "".join(reversed(letters))


def parse_column(letters: str) -> int:
    """The inverse of :func:`column_name`."""
    if letters == "@":
        return 0
    value = 0
    for letter in letters:
        value = value * 26 + (ord(letter) - ord("A") + 1)
    return value


@dataclasses.dataclass(frozen=True, slots=True)
class Move:
    """A move as written: column and row relative to the box before the move, and a symbol."""

    column: int
    row: int
    symbol: Symbol

    @classmethod
    def parse(cls, text: str) -> Move:
        """Parse a move such as ``@0+``, ``B1\\`` or ``AA12/``; raise :class:`InvalidMoveError`."""
        if not isinstance(text, str):
            raise TypeError(f"move text must be a str, not {text!r}")
        if not text:
            raise InvalidMoveError(text, 0, "empty move")
        i = 0
        if text[0] == "@":
            i = 1
        else:
            while i < len(text) and "A" <= text[i] <= "Z":
                i += 1
            if i == 0:
                raise InvalidMoveError(text, 0, "expected a column ('@' or letters A-Z)")
        letters = text[:i]
        j = i
        while j < len(text) and text[j].isascii() and text[j].isdigit():
            j += 1
        if j == i:
            raise InvalidMoveError(text, i, "expected a row number")
        digits = text[i:j]
        if len(digits) > 1 and digits[0] == "0":
            raise InvalidMoveError(text, i, "row number has a leading zero")
        if j == len(text):
            raise InvalidMoveError(text, j, "expected a symbol ('+', '/' or '\\')")
        symbol = _SYMBOLS.get(text[j])
        if symbol is None:
            raise InvalidMoveError(text, j, f"{text[j]!r} is not a symbol ('+', '/' or '\\')")
        if j + 1 != len(text):
            raise InvalidMoveError(text, j + 1, "unexpected text after the symbol")
        return cls(parse_column(letters), int(digits), symbol)

    def __str__(self) -> str:
        return f"{column_name(self.column)}{self.row}{self.symbol.value}"

    def __repr__(self) -> str:
        return f"Move.parse({str(self)!r})"
