"""Diagrams: the 1993 e-mail ASCII style and the Unicode terminal style."""

import pytest

from trax_fpga.host.errors import TraxError
from trax_fpga.host.position import Position
from trax_fpga.host.render import ASCII, UNICODE, parse_diagram, render
from trax_fpga.host.tiles import Tile

# From the rec.games.abstract post "Re: Any Trax out there?" (1993, the e-mail seed):
# "In the above position, oh has just beaten eks." o = white, x = black.
EMAIL_POSITION = """\
+x+x+o+
x/o\\x\\o
+o+o+x+
x x\\o\\x
+o+x+o+
x\\o o/x
+x+x+x+
"""


def test_parse_the_email_seed_diagram():
    position = parse_diagram(EMAIL_POSITION)
    assert len(position.tiles) == 9
    assert position.tiles[(0, 0)] is Tile.SE  # '/', black N and W: white joins E and S
    assert position.tiles[(1, 1)] is Tile.NE  # '\', white N-E
    assert position.tiles[(0, 1)] is Tile.NS  # a cross: white N-S
    assert render(position, ASCII) == EMAIL_POSITION.rstrip("\n")


def test_unicode_diagram_labels_columns_and_rows_in_notation_terms():
    position = Position.from_moves(["@0+", "B1/"])
    text = render(position, UNICODE)
    header = text.splitlines()[0]
    assert header.split() == ["@", "A", "B", "C"]
    assert [line.split()[0] for line in text.splitlines()[1:] if line[:4].strip()] == [
        "0",
        "1",
        "2",
    ]
    assert "┼" in text and "╱" in text
    assert parse_diagram(text).tiles == {(1, 1): Tile.NS, (2, 1): Tile.SE}


def test_colour_adds_ansi_codes_that_plain_text_lacks():
    position = Position.from_moves(["@0+"])
    assert "\x1b[" in render(position, colour=True)
    assert "\x1b[" not in render(position)


@pytest.mark.parametrize(
    "text,message",
    [
        ("+o+\no/o\n+x+\n", "no Trax tile"),
        ("+o+\nx/o\n+x+\n", "centre"),
        ("+o+\nx/\n+x+\n", "lacks an edge"),
    ],
)
def test_bad_diagrams_are_rejected(text, message):
    with pytest.raises(TraxError, match=message):
        parse_diagram(text)


def test_empty_board():
    assert parse_diagram("").tiles == {}
    assert "first move" in render(Position())
