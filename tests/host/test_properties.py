"""Property tests of the reference engine (hypothesis)."""

from hypothesis import given, settings
from hypothesis import strategies as st

from trax_fpga.host.notation import Move, column_name
from trax_fpga.host.position import Position
from trax_fpga.host.render import ASCII, UNICODE, parse_diagram, render
from trax_fpga.host.tiles import Symbol

moves = st.builds(Move, st.integers(0, 20000), st.integers(0, 10**6), st.sampled_from(list(Symbol)))


@given(moves)
def test_notation_round_trip(move):
    assert Move.parse(str(move)) == move
    assert str(Move.parse(str(move))) == str(move)


@given(st.integers(0, 10**6))
def test_column_names_use_capitals_only_and_no_at_sign_after_zero(column):
    name = column_name(column)
    assert (name == "@") == (column == 0)
    assert name == "@" or (name.isalpha() and name.isupper())


@st.composite
def games(draw, max_moves=24):
    """A random legal game: indices into the legal move list at each ply."""
    position = Position()
    played = []
    for _ in range(draw(st.integers(0, max_moves))):
        legal = position.legal_moves()
        if not legal:
            break
        move = legal[draw(st.integers(0, len(legal) - 1))]
        position.play(move)
        played.append(str(move))
    return played, position


@settings(max_examples=60, deadline=None)
@given(games())
def test_legal_moves_are_exactly_the_accepted_moves(game):
    _, position = game
    if position.box is None or position.outcome:
        return
    legal = set(position.legal_moves())
    box = position.box
    for x in range(box.min_x - 2, box.max_x + 3):
        for y in range(box.min_y - 2, box.max_y + 3):
            for symbol in Symbol:
                move = position.move_at((x, y), symbol)
                if move.column < 0 or move.row < 0:
                    continue
                assert position.is_legal(move) == (move in legal), move


@settings(max_examples=60, deadline=None)
@given(games())
def test_every_generated_move_plays_and_leaves_no_forced_cell(game):
    _, position = game
    for move in position.legal_moves():
        position.play(move)
        for cell in position.frontier():
            constraint = position.constraint(cell)
            assert constraint.forced is None and not constraint.dead, (move, cell)
        position.pop()


@settings(max_examples=60, deadline=None)
@given(games())
def test_replaying_the_notation_reproduces_the_position(game):
    played, position = game
    replay = Position.from_moves(played)
    assert replay.tiles == position.tiles
    assert replay.box == position.box
    assert replay.outcome == position.outcome


@settings(max_examples=40, deadline=None)
@given(games())
def test_forced_rounds_fill_the_same_tiles_as_play(game):
    _, position = game
    for move in position.legal_moves()[:12]:
        rounds, reason = position.forced_rounds(move)
        assert reason is None
        turn = position.play(move)
        assert sorted(c for r in rounds for c in r) == sorted(turn.placed)
        position.pop()


@settings(max_examples=40, deadline=None)
@given(games(), st.sampled_from([ASCII, UNICODE]))
def test_diagrams_parse_back_to_the_same_tiles(game, style):
    _, position = game
    if position.box is None:
        return
    parsed = parse_diagram(render(position, style))
    shift_x = min(x for x, _ in parsed.tiles) - position.box.min_x
    shift_y = min(y for _, y in parsed.tiles) - position.box.min_y
    assert parsed.tiles == {(x + shift_x, y + shift_y): t for (x, y), t in position.tiles.items()}
