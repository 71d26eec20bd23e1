"""Notation: bijective base-26 columns, rows without leading zeros, one error type per kind."""

import pytest

from trax_fpga.host.errors import InvalidMoveError, TraxError
from trax_fpga.host.notation import Move, column_name, parse_column
from trax_fpga.host.tiles import Symbol


@pytest.mark.parametrize(
    "column,name",
    [
        (0, "@"),
        (1, "A"),
        (2, "B"),
        (26, "Z"),
        (27, "AA"),
        (52, "AZ"),
        (53, "BA"),
        (702, "ZZ"),
        (703, "AAA"),
    ],
)
def test_column_names_are_bijective_base_26(column, name):
    assert column_name(column) == name
    assert parse_column(name) == column


@pytest.mark.parametrize(
    "text,move",
    [
        ("@0+", Move(0, 0, Symbol.CROSS)),
        ("B1\\", Move(2, 1, Symbol.BACKSLASH)),
        ("AA12/", Move(27, 12, Symbol.SLASH)),
        ("@39/", Move(0, 39, Symbol.SLASH)),
        ("BB1/", Move(54, 1, Symbol.SLASH)),
    ],
)
def test_parse_and_print(text, move):
    assert Move.parse(text) == move
    assert str(move) == text
    assert eval(repr(move)) == move


@pytest.mark.parametrize(
    "text,index,reason",
    [
        ("", 0, "empty move"),
        ("1+", 0, "expected a column"),
        ("a1+", 0, "expected a column"),
        ("A+", 1, "expected a row number"),
        ("A01+", 1, "leading zero"),
        ("A1", 2, "expected a symbol"),
        ("A2t", 2, "'t' is not a symbol"),
        ("A1d", 2, "'d' is not a symbol"),
        ("A1+x", 3, "unexpected text after the symbol"),
        ("@@0+", 1, "expected a row number"),
        ("A1 +", 2, "' ' is not a symbol"),
        ("A١+", 1, "expected a row number"),
    ],
)
def test_malformed_moves_say_what_and_where(text, index, reason):
    with pytest.raises(InvalidMoveError) as info:
        Move.parse(text)
    assert info.value.index == index
    assert reason in str(info.value)
    assert f"character {index + 1}" in str(info.value)
    assert isinstance(info.value, TraxError) and isinstance(info.value, ValueError)


def test_negative_column_is_rejected():
    with pytest.raises(ValueError, match="non-negative"):
        column_name(-1)
