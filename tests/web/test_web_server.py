"""The server of ``trax web`` without a browser: logs read back, replays, the person's moves
checked, and ``trax show --svg`` (the same picture as the page's)."""

from __future__ import annotations

import re
import sys
import time
from pathlib import Path

from trax_fpga.cli import main
from trax_fpga.host.players import EnginePlayer, FreshProtocolPlayer
from trax_fpga.host.position import Position
from trax_fpga.host.svg import board_svg
from trax_fpga.host.transport import ProcessTransport
from trax_fpga.web.server import PlaySession, read_log, replay


def test_read_log_takes_moves_and_keeps_other_lines_as_headers():
    text = "Trax\nalpha vs beta\n# date: 2026-11-23\n@0/\nA0/\n# result: none\n"
    game = read_log(text)
    assert (game["white"], game["black"]) == ("alpha", "beta")
    assert game["moves"] == ["@0/", "A0/"]
    assert game["headers"] == ["# date: 2026-11-23", "# result: none"]


def test_replay_has_a_picture_per_position_and_names_a_bad_move():
    data = replay("x.log", "Trax\na vs b\n@0/\nA0/\nZ9+\n")
    assert len(data["frames"]) == 3
    assert data["result"].startswith("move 3 (Z9+)")


def test_board_svg_names_every_cell_as_the_notation_does():
    position = Position.from_moves(["@0/", "A0/"])
    svg = board_svg(position)
    cells = re.findall(r'data-cell="([^"]+)"', svg)
    assert len(cells) == (position.box.width + 2) * (position.box.height + 2)
    for move in position.legal_moves():
        assert str(move)[:-1] in cells
    assert 'class="tile last"' in svg


def test_trax_show_svg_writes_the_page_picture(tmp_path, capsys):
    target = tmp_path / "game.svg"
    assert main(["show", "@0/", "A0/", "--svg", str(target)]) == 0
    assert target.read_text() == board_svg(Position.from_moves(["@0/", "A0/"]))
    assert main(["show", "--svg", "-"]) == 0
    assert 'data-cell="@0"' in capsys.readouterr().out


def test_the_person_may_only_play_legal_moves_in_turn():
    session = PlaySession(EnginePlayer(name="ref"))
    assert session.submit("@0+") == "it is not your turn"
    session.waiting(True)
    assert session.submit("B1+") == "B1+ is not a legal move here"
    assert "not a symbol" in session.submit("@0x")
    view = session.view()
    assert sorted(c["move"] for c in view["choices"]["@0"]) == ["@0+", "@0/"]
    assert session.submit("@0/") is None
    assert session.human.moves.get_nowait() == "@0/"


def test_a_resigned_game_is_over_with_its_reason_and_another_can_start():
    session = PlaySession(EnginePlayer(name="ref"))
    session.start()
    deadline = time.monotonic() + 10
    while not session.view()["your_turn"] and time.monotonic() < deadline:
        time.sleep(0.01)
    session.resign()
    while not session.view()["over"] and time.monotonic() < deadline:
        time.sleep(0.01)
    view = session.view()
    assert view["over"] and view["result"].startswith("You lose: black wins, white lost by resign")
    session.start()
    assert session.view()["number"] == 2 and not session.view()["over"]
    session.stop()


def test_a_program_of_one_game_a_process_answers_in_the_next_game_too():
    # The page's games follow one another with the same opponent: a program that plays one game
    # per process (tests/host/engines/one_game.py, as KizuNa) is started afresh for each.
    engine = Path(__file__).parent.parent / "host" / "engines" / "one_game.py"

    def start():
        return ProcessTransport([sys.executable, str(engine)])

    opponent = FreshProtocolPlayer(start(), start, name="one_game", startup=30)
    opponent.wait_ready(30)
    session = PlaySession(opponent)
    deadline = time.monotonic() + 60

    def wait_until(condition):
        while not condition(session.view()):
            assert time.monotonic() < deadline, session.view()
            time.sleep(0.01)

    try:
        for number in (1, 2):
            session.start()
            wait_until(lambda view: view["your_turn"])
            assert session.submit("@0/") is None
            wait_until(lambda view: view["your_turn"])  # the program answered
            session.resign()
            wait_until(lambda view, n=number: view["over"] and view["number"] == n)
    finally:
        session.stop()
        opponent.close()
