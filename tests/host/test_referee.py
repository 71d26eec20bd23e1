"""The referee against scripted players: every way to win and lose, logs, series and resuming."""

import time

import pytest

from trax_fpga.host.engine import MoveChooser
from trax_fpga.host.errors import TraxError
from trax_fpga.host.gamelog import RESULTS, SETTINGS, SeriesLog
from trax_fpga.host.players import EnginePlayer, Player, ProtocolPlayer
from trax_fpga.host.referee import Referee, elo, run_series
from trax_fpga.host.tiles import Colour
from trax_fpga.host.transport import DISCONNECT, Garbage, Reply, ScriptedTransport

LIMIT = 0.05  # seconds: short, so that timeouts are quick to test

# A whole game: white's third move closes black's loop ("1 | black-loop | @0/ A2\ B1\").
LOOP_GAME = ["@0/", "A2\\", "B1\\"]


def body(path):
    """A game log without its ``#`` lines: the public referee's format."""
    return [line for line in path.read_text().splitlines() if not line.startswith("#")]


def header(path):
    """A game log's ``# key: value`` lines as a dict."""
    lines = path.read_text().splitlines()
    pairs = (line[2:].split(": ", 1) for line in lines if line.startswith("# ") and ": " in line)
    return dict(pairs)


def scripted(name):
    mock = ScriptedTransport(name)
    return mock, ProtocolPlayer(mock, name)


def play(white_mock, black_mock, referee=None, **kwargs):
    referee = referee or Referee(time_limit=LIMIT)
    record = referee.play_game(
        ProtocolPlayer(white_mock, white_mock.name, settle=2 * LIMIT),
        ProtocolPlayer(black_mock, black_mock.name, settle=2 * LIMIT),
        **kwargs,
    )
    white_mock.assert_done()
    black_mock.assert_done()
    return record


def loop_game_mocks():
    white = ScriptedTransport("w").expect("-W", "@0/").expect("A2\\", "B1\\")
    black = ScriptedTransport("b").expect("-B").expect("@0/", "A2\\")
    return white, black


def test_a_whole_game_is_relayed_and_won_by_the_loop():
    white, black = loop_game_mocks()
    record = play(white, black)
    assert (record.winner, record.reason, record.moves) == (Colour.BLACK, "loop", LOOP_GAME)
    assert len(record.times) == 3 and all(0 <= t < LIMIT for t in record.times)
    assert record.describe() == "black wins by loop: after 3 moves"


def test_black_is_told_to_start_before_white():
    order = []

    class Recorder(Player):
        def new_game(self, colour):
            order.append(colour)

        def answer(self, move, timeout):
            return "@0+" if move is None else "A2+"

    Referee().play_game(Recorder("w"), Recorder("b"), open_log=None)
    assert order == [Colour.BLACK, Colour.WHITE]


def test_an_illegal_move_loses():
    white = ScriptedTransport("w").expect("-W", "@0/").expect("A2\\", "C1+")
    black = ScriptedTransport("b").expect("-B").expect("@0/", "A2\\")
    record = play(white, black)
    assert (record.winner, record.reason) == (Colour.BLACK, "illegal")
    assert "illegal move C1+: not adjacent to any tile" in record.detail
    assert record.moves == ["@0/", "A2\\"]
    assert record.offending == "'C1+'"


def test_an_illegal_first_move_loses():
    white = ScriptedTransport("w").expect("-W", "A1+")
    record = play(white, ScriptedTransport("b").expect("-B"))
    assert (record.winner, record.reason) == (Colour.BLACK, "illegal")


@pytest.mark.parametrize(
    "reply",
    [
        "hello",
        "@0",
        "a1+",
        " @0+",
        Garbage(b"A2t\n"),
        Garbage(b"@0\xab\n"),
        Garbage(b"@0+@0+@0+@0+@0+@0+@0+\n"),
    ],
    ids=["word", "no-symbol", "lower-case", "space", "uart-noise", "non-ascii", "over-long"],
)
def test_a_malformed_line_loses(reply):
    white = ScriptedTransport("w").expect("-W", "@0+")
    black = ScriptedTransport("b").expect("-B").expect("@0+", reply)
    record = play(white, black)
    assert (record.winner, record.reason) == (Colour.WHITE, "malformed")


def test_a_player_that_never_answers_loses_by_timeout():
    white = ScriptedTransport("w").expect("-W", "@0+")
    black = ScriptedTransport("b").expect("-B").expect("@0+")
    start = time.monotonic()
    record = play(white, black)
    assert (record.winner, record.reason) == (Colour.WHITE, "timeout")
    assert record.detail == "b: no answer within 0.05 s"
    assert time.monotonic() - start < 1


def test_a_late_answer_loses_by_timeout():
    white = ScriptedTransport("w").expect("-W", Reply("@0+", delay=2 * LIMIT))
    record = play(white, ScriptedTransport("b").expect("-B"))
    assert (record.winner, record.reason) == (Colour.BLACK, "timeout")


def test_a_slow_in_process_player_loses_by_timeout():
    class Slow(EnginePlayer):
        def answer(self, move, timeout):
            time.sleep(2 * LIMIT)
            return super().answer(move, timeout)

    fast = EnginePlayer(MoveChooser(nodes=20), "fast")
    record = Referee(time_limit=LIMIT).play_game(fast, Slow(MoveChooser(nodes=20), "slow"))
    assert (record.winner, record.reason) == (Colour.WHITE, "timeout")
    assert "slow answered" in record.detail


def test_a_disconnect_in_the_middle_of_a_game_loses():
    white = ScriptedTransport("w").expect("-W", "@0/").expect("A2\\", DISCONNECT)
    black = ScriptedTransport("b").expect("-B").expect("@0/", "A2\\")
    record = play(white, black)
    assert (record.winner, record.reason, record.moves) == (
        Colour.BLACK,
        "disconnect",
        LOOP_GAME[:2],
    )


def test_a_player_gone_before_the_game_loses_by_disconnect():
    white = ScriptedTransport("w")
    white.push(DISCONNECT)
    record = play(white, ScriptedTransport("b").expect("-B"))
    assert (record.winner, record.reason) == (Colour.BLACK, "disconnect")


def test_a_late_answer_to_the_last_game_is_not_taken_for_the_next():
    white = ScriptedTransport("w").expect("-W", "@0+")
    black = ScriptedTransport("b").expect("-B").expect("@0+", Reply("A1+", delay=2 * LIMIT))
    assert play(white, black).reason == "timeout"
    time.sleep(3 * LIMIT)
    white, black = loop_game_mocks()
    black.push("B2/")  # stale bytes waiting on black's line when the game starts
    assert play(white, black).reason == "loop"


def test_team_codes_are_asked_and_name_the_log(tmp_path):
    white, black = loop_game_mocks()
    white.steps.appendleft(("-T", ("KZ",)))
    black.steps.appendleft(("-T", ("01",)))
    series = SeriesLog(tmp_path, "w", "b")
    referee = Referee(time_limit=LIMIT, ask_team=True)
    record = play(white, black, referee, open_log=lambda w, b: series.game_log(1, w, b))
    assert (record.white, record.black) == ("KZ", "01")
    log = tmp_path / "0001-KZ-01.log"
    assert body(log) == ["Trax", "KZ vs 01", "@0/", "A2\\", "B1\\"]
    assert header(log) == {
        "result": "black wins",
        "termination": "loop",
        "detail": "after 3 moves",
    }


def test_a_bad_team_code_is_malformed():
    white = ScriptedTransport("w").expect("-T", "K Z")
    record = play(white, ScriptedTransport("b"), Referee(time_limit=LIMIT, ask_team=True))
    assert (record.winner, record.reason) == (Colour.BLACK, "malformed")


def test_the_move_limit_ends_a_game_without_winner():
    a, b = EnginePlayer(MoveChooser(nodes=20), "a"), EnginePlayer(MoveChooser(nodes=20), "b")
    record = Referee(time_limit=None, max_plies=4).play_game(a, b)
    assert (record.winner, record.reason, len(record.moves)) == (None, "move-limit", 4)


def test_the_log_holds_every_move_as_soon_as_it_is_played(tmp_path):
    series = SeriesLog(tmp_path, "w", "b")
    seen = []

    class Peek(Player):
        def new_game(self, colour):
            pass

        def answer(self, move, timeout):
            seen.append(body(tmp_path / "0001-w-b.log"))
            return {None: "@0/", "A2\\": "B1\\"}[move]

    class Black(Player):
        def new_game(self, colour):
            pass

        def answer(self, move, timeout):
            return "A2\\"

    Referee().play_game(Peek("w"), Black("b"), 1, lambda w, b: series.game_log(1, w, b))
    assert seen == [["Trax", "w vs b"], ["Trax", "w vs b", "@0/", "A2\\"]]


def engines():
    return EnginePlayer(MoveChooser(nodes=30), "a"), EnginePlayer(MoveChooser(nodes=60), "b")


def test_a_series_alternates_colours_and_tallies(tmp_path):
    series = SeriesLog(tmp_path, "a", "b")
    a, b = engines()
    summary = run_series(a, b, 2, Referee(time_limit=None), series)
    first, second = summary.records
    assert (first.white, first.black, second.white, second.black) == ("a", "b", "b", "a")
    ta, tb = summary.tallies()
    assert ta.games == tb.games == 2
    assert ta.wins == tb.losses and tb.wins == ta.losses
    assert len(ta.times) + len(tb.times) == len(first.moves) + len(second.moves)
    # a was white in game 1 and black in game 2, b the other way round.
    for t, first_colour in ((ta, Colour.WHITE), (tb, Colour.BLACK)):
        won_first = first.winner is first_colour
        won_second = second.winner is first_colour.other
        assert t.by_colour[first_colour] == [int(won_first), int(not won_first), 0]
        assert t.by_colour[first_colour.other] == [int(won_second), int(not won_second), 0]
    table = summary.table()
    header = ["player", "games", "wins", "losses", "draws", "as", "white", "as", "black"]
    assert table.splitlines()[0].split()[:9] == header
    assert table.splitlines()[1].split()[5:7] == [ta.record(Colour.WHITE), ta.record(Colour.BLACK)]
    assert "2 of 2 games (complete)" in table
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "0001-a-b.log",
        "0002-b-a.log",
        RESULTS,
        SETTINGS,
    ]
    lines = (tmp_path / RESULTS).read_text().splitlines()
    assert lines[0] == "# trax match: A=a B=b" and len(lines) == 4
    assert lines[2].split("\t")[:3] == ["0001", "a", "b"]


def test_a_disconnect_stops_the_series_and_resuming_plays_the_rest(tmp_path):
    a_mock = ScriptedTransport("a").expect("-W", "@0/").expect("A2\\", "B1\\")
    a_mock.expect("-B").expect("@0+", DISCONNECT)  # game 2: the cable goes
    b_mock = ScriptedTransport("b").expect("-B").expect("@0/", "A2\\").expect("-W", "@0+")
    series = SeriesLog(tmp_path, "a", "b")
    summary = run_series(
        ProtocolPlayer(a_mock, "a"), ProtocolPlayer(b_mock, "b"), 4, Referee(LIMIT), series
    )
    assert not summary.complete
    assert [(r.number, r.reason) for r in summary.records] == [(1, "loop"), (2, "disconnect")]
    assert "2 of 4 games (stopped early)" in summary.table()

    # The cable is back: games 3 and 4 are played, 1 and 2 are read from the results file.
    resumed = SeriesLog(tmp_path, "a", "b", resume=True)
    assert sorted(resumed.finished) == [1, 2]
    a_mock, b_mock = loop_game_mocks()  # game 3: a white
    a_mock.expect("-B").expect("@0/", "A2\\")  # game 4: a black
    b_mock.expect("-W", "@0/").expect("A2\\", "B1\\")
    summary = run_series(
        ProtocolPlayer(a_mock, "a"), ProtocolPlayer(b_mock, "b"), 4, Referee(LIMIT), resumed
    )
    a_mock.assert_done()
    b_mock.assert_done()
    assert summary.complete
    assert [(r.number, r.winner) for r in summary.records] == [
        (1, Colour.BLACK),
        (2, Colour.WHITE),
        (3, Colour.BLACK),
        (4, Colour.BLACK),
    ]
    ta, tb = summary.tallies()
    assert (ta.wins, tb.wins) == (1, 3)
    assert ta.loss_reasons == {"loop": 2, "disconnect": 1}
    assert tb.win_reasons == {"loop": 2, "disconnect": 1}


def test_resuming_replays_a_game_cut_short_and_a_torn_results_line(tmp_path):
    series = SeriesLog(tmp_path, "a", "b")
    a, b = engines()
    run_series(a, b, 1, Referee(time_limit=None), series)
    (tmp_path / "0002-b-a.log").write_text("Trax\nb vs a\n@0+\n")  # game 2 was cut short
    with open(tmp_path / RESULTS, "a") as stream:
        stream.write("0002\tb\ta\twh")  # ...while its result was being written
    resumed = SeriesLog(tmp_path, "a", "b", resume=True)
    assert sorted(resumed.finished) == [1]
    summary = run_series(*engines(), 2, Referee(time_limit=None), resumed)
    assert [r.number for r in summary.records] == [1, 2]
    again = SeriesLog(tmp_path, "a", "b", resume=True)
    assert sorted(again.finished) == [1, 2]
    assert again.finished[2].times == pytest.approx(summary.records[1].times, abs=1e-4)
    log = body(tmp_path / "0002-b-a.log")
    assert log[:2] == ["Trax", "b vs a"] and log[2:] == summary.records[1].moves


def test_a_series_directory_is_not_overwritten_or_mixed_up(tmp_path):
    SeriesLog(tmp_path, "a", "b")
    with pytest.raises(TraxError, match="already holds a series"):
        SeriesLog(tmp_path, "a", "b")
    with pytest.raises(TraxError, match="a series between a and b, not a and c"):
        SeriesLog(tmp_path, "a", "c", resume=True)
    with pytest.raises(TraxError, match="no series to resume"):
        SeriesLog(tmp_path / "missing", "a", "b", resume=True)


def test_a_late_answer_after_a_timeout_is_not_taken_for_the_next_team_code():
    # Found in a real series: an engine's answer after its timeout came back as the next -T answer.
    white_mock = ScriptedTransport("w").expect("-W", "@0+")
    black_mock = ScriptedTransport("b").expect("-B").expect("@0+", Reply("A1+", delay=3 * LIMIT))
    white, black = ProtocolPlayer(white_mock, "w"), ProtocolPlayer(black_mock, "b")
    assert Referee(time_limit=LIMIT).play_game(white, black).reason == "timeout"
    white_mock.expect("-T", "KZ").expect("-W", "@0/").expect("A2\\", "B1\\")
    black_mock.expect("-T", "01").expect("-B").expect("@0/", "A2\\")
    record = Referee(time_limit=LIMIT, ask_team=True).play_game(white, black)
    assert (record.white, record.black, record.reason) == ("KZ", "01", "loop")


def test_a_second_answer_loses_the_game_when_the_player_is_next_asked():
    white = ScriptedTransport("w").expect("-W", "@0/", "@0/")  # the answer twice
    black = ScriptedTransport("b").expect("-B").expect("@0/", "A2\\")
    record = play(white, black)
    assert (record.winner, record.reason, record.moves) == (
        Colour.BLACK,
        "out-of-turn",
        ["@0/", "A2\\"],
    )
    assert record.detail == "w: output out of turn: '@0/'" and record.offending == "'@0/'"
    # ...and black's move was never sent to white: the referee stopped before asking


def test_a_move_sent_before_the_opponents_move_is_out_of_turn():
    white = ScriptedTransport("w").expect("-W", "@0/")
    black = ScriptedTransport("b").expect("-B", "A2\\")  # answers -B at once
    record = play(white, black)  # nothing is sent to black after -B
    assert (record.winner, record.reason) == (Colour.WHITE, "out-of-turn")
    assert record.moves == ["@0/"]


def test_output_between_games_is_logged_and_ignored(tmp_path):
    white, black = loop_game_mocks()
    white.push("hello")  # a banner before the first request
    series = SeriesLog(tmp_path, "w", "b")
    record = play(white, black, open_log=lambda w, b: series.game_log(1, w, b))
    assert record.reason == "loop"
    lines = (tmp_path / "0001-w-b.log").read_text().splitlines()
    assert "# out-of-turn output of white (w) before the game: 'hello'" in lines


def test_elo_and_its_margin_are_cutechess_clis():
    # cutechess-cli printed "Score of ...: 45 - 37 - 18 [0.540] 100" and
    # "Elo difference: 27.9 +/- 62.4" for this score.
    diff, margin = elo(45, 37, 18)
    assert (round(diff, 1), round(margin, 1)) == (27.9, 62.4)
    diff, margin = elo(99, 97, 104)  # "Elo difference: 2.3 +/- 31.8"
    assert (round(diff, 1), round(margin, 1)) == (2.3, 31.8)
    assert elo(3, 0, 0)[0] == float("inf")
