"""Match logs: the public referee's game log format and the results file's lines."""

import pytest

from trax_fpga.host.gamelog import GameLog, GameRecord, safe_name
from trax_fpga.host.tiles import Colour


def test_a_game_log_is_in_the_public_referees_format_after_its_header(tmp_path):
    path = tmp_path / "0007-KZ-01.log"
    log = GameLog(path, "KZ", "01", {"event": "trax match x", "white": "A = ref"})
    log.write_move("@0/")
    assert path.read_bytes() == (
        b"# event: trax match x\n# white: A = ref\n# result: *\nTrax\nKZ vs 01\n@0/\n"
    )
    log.write_note("out-of-turn output of black (b) between its turns: 'A1+'")
    log.write_move("A2\\")
    log.finish(
        GameRecord(
            7, "KZ", "01", Colour.WHITE, "illegal", ["@0/", "A2\\"], [0.1, 0.1], "b: x", "Z9+"
        )
    )
    assert path.read_text().splitlines() == [
        "# event: trax match x",
        "# white: A = ref",
        "# result: white wins",
        "# termination: illegal",
        "# detail: b: x",
        "# offending output: Z9+",
        "Trax",
        "KZ vs 01",
        "@0/",
        "# out-of-turn output of black (b) between its turns: 'A1+'",
        "A2\\",
    ]
    assert not list(tmp_path.glob("*.tmp"))


@pytest.mark.parametrize(
    "record",
    [
        GameRecord(
            1, "KZ", "01", Colour.BLACK, "loop", ["@0/", "A2\\", "B1\\"], [0.0123, 0.5, 1.0]
        ),
        GameRecord(12, "a", "b", Colour.WHITE, "timeout", ["@0+"], [0.001], "b: no\tanswer\n"),
        GameRecord(3, "a", "b", None, "move-limit", [], [], ""),
    ],
    ids=["loop", "timeout", "no-moves"],
)
def test_a_results_line_round_trips(record):
    line = record.to_line()
    assert "\n" not in line and line.count("\t") == 7
    back = GameRecord.from_line(line)
    assert (back.number, back.white, back.black, back.winner, back.reason) == (
        record.number,
        record.white,
        record.black,
        record.winner,
        record.reason,
    )
    assert len(back.moves) == len(record.moves)
    assert back.times == pytest.approx(record.times, abs=1e-4)
    assert back.detail == " ".join(record.detail.split())


def test_results_lines_are_read_strictly():
    with pytest.raises(ValueError, match="8 tab-separated fields"):
        GameRecord.from_line("0001\ta\tb")
    with pytest.raises(KeyError):
        GameRecord.from_line("0001\ta\tb\tgrey\tloop\t1\t1.0\t")


def test_names_are_made_safe_for_file_names():
    assert safe_name("KZ") == "KZ"
    assert safe_name("engine:/usr/bin/x --fast") == "engine_usr_bin_x_fast"
    assert safe_name("a-b") == "a_b"  # '-' separates the names in a log's file name
    assert safe_name("///") == "player"


def test_a_series_score_counts_player_as_games_by_colour(tmp_path, capsys):
    """``search_bench series``: A's wins, losses and undecided games as white and as black over
    several series' logs, the distinct games, a game still being played left out."""
    from trax_fpga.host.search_bench import series_figures, series_score

    games = [  # (series, A's colour, result, moves)
        ("s1", "white", Colour.WHITE, ["@0/", "A2+"]),
        ("s1", "black", Colour.WHITE, ["@0/", "A2\\"]),
        ("s1", "white", None, ["@0+", "B1+"]),
        ("s2", "black", Colour.BLACK, ["@0+", "A1/"]),
        ("s2", "white", Colour.WHITE, ["@0/", "A2+"]),  # the same game as s1's first
    ]
    for number, (series, colour, winner, moves) in enumerate(games, 1):
        directory = tmp_path / series
        directory.mkdir(exist_ok=True)
        white, black = ("a", "b") if colour == "white" else ("b", "a")
        header = {colour: "A = engine:a", "black" if colour == "white" else "white": "B = b"}
        log = GameLog(directory / f"{number:04d}-{white}-{black}.log", white, black, header)
        for move in moves:
            log.write_move(move)
        reason = "loop" if winner is not None else "max plies"
        log.finish(GameRecord(number, white, black, winner, reason, moves, [0.1] * len(moves)))
    with GameLog(tmp_path / "s2" / "0009-a-b.log", "a", "b", {"white": "A = a"}) as log:
        log.write_move("@0/")  # being played: result "*"
    score = series_score([tmp_path / "s1", tmp_path / "s2"])
    assert (score.wins, score.losses, score.draws) == (
        {"white": 2, "black": 1},
        {"black": 1},
        {"white": 1},
    )
    assert score.games == 5 and len(score.distinct) == 4
    assert score.score == 3.5 / 5
    series_figures([tmp_path / "s1", tmp_path / "s2"])
    line = capsys.readouterr().out
    assert line.startswith("series score: 3-1-1 (70.0 %, +0.9 standard errors)"), line
    assert "5 games, 4 distinct, as white 2-0-1, as black 1-1, 2 series" in line
    # Against s2 alone (2 wins of 2: variance 0): s1's 1.5 of 3 (variance 1/6 a game).
    series_figures([tmp_path / "s1"], against=[tmp_path / "s2"])
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("series score: 1-1-1 (50.0 %"), lines
    assert lines[1].startswith("against: 2-0-0 (100.0 %"), lines
    assert lines[2].startswith("series difference: -50.0 points (-2.1 standard errors)"), lines
