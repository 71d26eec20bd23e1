"""Players: the person at the terminal (errors explained, retries, results) and the engine."""

import io

import pytest

from trax_fpga.host.engine import MoveChooser
from trax_fpga.host.gamelog import GameRecord
from trax_fpga.host.players import EnginePlayer, HumanPlayer, ResignedError
from trax_fpga.host.position import Position
from trax_fpga.host.tiles import Colour


def human(text):
    out = io.StringIO()
    return HumanPlayer(input=io.StringIO(text), output=out, colour=False, opponent="board"), out


def test_a_person_is_told_each_mistake_and_retries():
    player, out = human("\nhelp\nZ9\n@5+\nmoves\n@0/\n")
    player.new_game(Colour.WHITE)
    assert player.answer(None, None) == "@0/"
    text = out.getvalue()
    assert "you play white (you move first)" in text
    assert "Enter a move in Trax notation" in text
    assert "invalid move 'Z9': expected a symbol" in text
    assert "illegal move @5+: first move must be @0+ or @0/; try again" in text
    assert "@0+ @0/" in text
    assert text.rstrip().endswith("you played @0/")


def test_a_person_sees_the_opponent_move_and_the_result():
    player, out = human("A2\\\n")
    player.new_game(Colour.BLACK)
    assert player.answer("@0/", None) == "A2\\"
    # the opponent's next move ends the game: nothing is sent, the person learns it here
    record = GameRecord(1, "board", "you", Colour.BLACK, "loop", ["@0/", "A2\\", "B1\\"], [])
    player.game_over(record)
    assert player.position.outcome is not None and player.position.outcome.winner is Colour.BLACK
    text = out.getvalue()
    assert "board played @0/" in text and "board played B1\\" in text
    assert "Game over: black wins by loop" in text and "You win!" in text


def test_forced_plays_are_listed():
    player, out = human("@1/\n")
    player.new_game(Colour.WHITE)
    player.position = Position.from_moves(["@0/", "A2\\"])
    player.answer(None, None)
    assert "forced plays (in the diagram's coordinates): " in out.getvalue()


def test_the_end_of_input_and_resign_give_up():
    player, _ = human("")
    player.new_game(Colour.WHITE)
    with pytest.raises(ResignedError, match="end of input"):
        player.answer(None, None)
    player, _ = human("resign\n")
    player.new_game(Colour.WHITE)
    with pytest.raises(ResignedError, match="resigned"):
        player.answer(None, None)


def test_the_engine_player_answers_legal_moves_and_starts_afresh():
    player = EnginePlayer(MoveChooser(nodes=40))
    player.new_game(Colour.WHITE)
    first = player.answer(None, 1)
    assert first in ("@0+", "@0/")
    player.new_game(Colour.BLACK)
    reply = player.answer("@0+", 1)
    assert Position.from_moves(["@0+"]).is_legal(reply)


def test_a_board_that_cannot_be_restarted_is_drained_and_asked_for_its_code():
    from trax_fpga.host.players import PlayerStartError, ProtocolPlayer
    from trax_fpga.host.transport import Reply, ScriptedTransport

    # After its fault the board still sends a late move; then it answers -T.
    mock = ScriptedTransport("board").expect("-T", Reply("B4/"), Reply("KZ"))
    mock.push("A1+")
    player = ProtocolPlayer(mock, "board", startup=1)
    player.recover()
    mock.assert_done()
    assert player.take_stray() == [b"A1+", b"B4/"]
    silent = ProtocolPlayer(ScriptedTransport("gone").expect("-T"), "gone", startup=0.05)
    with pytest.raises(PlayerStartError, match="gone did not answer -T"):
        silent.recover()


def test_a_program_is_restarted_after_its_fault():
    import sys

    from trax_fpga.host.players import ProtocolPlayer
    from trax_fpga.host.transport import ProcessTransport

    command = [sys.executable, "-m", "trax_fpga.cli", "engine", "--team", "KZ"]
    started = []

    def start():
        started.append(ProcessTransport(command))
        return started[-1]

    player = ProtocolPlayer(start(), "engine", restart=start, startup=30)
    try:
        player.recover()
        assert len(started) == 2 and player.transport is started[1]
        assert started[0].closed and started[0].process.returncode is not None
    finally:
        player.close()


def test_stray_output_kept_for_the_log_is_bounded():
    from trax_fpga.host.players import ProtocolPlayer
    from trax_fpga.host.transport import MAX_STRAY, Garbage, ScriptedTransport

    mock = ScriptedTransport("chatty").expect("-W").expect("-W").expect("-W")
    player = ProtocolPlayer(mock, "chatty")
    for _ in range(3):  # a flood before each of three games, each more than is kept
        mock.push(Garbage(b"hello\n" * (MAX_STRAY + 5)))
        player.new_game(Colour.WHITE)
    stray = player.take_stray()
    assert len(stray) == MAX_STRAY + 1 and stray[-1] == b"[more lines]"
    assert player.take_stray() == []


def test_a_person_sees_the_opponents_search_figures_beside_its_move():
    """``trax play`` shows the board's search figures of each answer (its ``last_search``)."""
    figures = {"depth": 6, "nodes": 1234567, "clocks": 20000000}
    out = io.StringIO()
    player = HumanPlayer(
        input=io.StringIO("A2\\\n"), output=out, colour=False, opponent="board",
        opponent_search=lambda: figures,
    )  # fmt: skip
    player.new_game(Colour.BLACK)
    assert player.answer("@0/", None) == "A2\\"
    assert "board played @0/ (depth 6, 1,234,567 nodes, 20,000,000 clocks)" in out.getvalue()
    player, out = human("A2\\\n")  # an opponent without figures: the move alone
    player.new_game(Colour.BLACK)
    player.answer("@0/", None)
    assert "board played @0/\n" in out.getvalue()
