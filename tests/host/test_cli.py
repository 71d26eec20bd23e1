"""The `trax` command's engine subcommands, in the exact forms used to check the engine."""

import io
import subprocess
import sys
from pathlib import Path

import pytest

from trax_fpga.cli import main
from trax_fpga.host.shapes import board_table


def run(argv, stdin="", monkeypatch=None, capsys=None):
    monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    status = main(argv)
    out, err = capsys.readouterr()
    return status, out, err


def test_perft_prints_depth_and_count(monkeypatch, capsys):
    status, out, _ = run(["perft", "3"], monkeypatch=monkeypatch, capsys=capsys)
    assert status == 0
    assert out.splitlines() == ["1 2", "2 24", "3 432"]


def test_judge_skips_blank_and_comment_lines_and_reads_after_the_last_bar(monkeypatch, capsys):
    games = "\n".join(
        [
            "# a comment",
            "",
            "1 | black-loop | @0/ A2\\ B1\\",
            "@0+ A1+",
            "@0+ a1+",
            "@0/ A2\\ B1\\ @1+",
            "@0+ B1+",
            "x | y | @0+ B1+ C1+ D1+ E1+ F1+ G1+ H1+",
        ]
    )
    status, out, _ = run(["judge"], games, monkeypatch, capsys)
    assert status == 0
    assert out.splitlines() == [
        "black-loop",
        "illegal 2",
        "invalid 2",
        "illegal 4",
        "none",
        "black-line",
    ]


def test_judge_8x8_draw(monkeypatch, capsys):
    game = (
        "@0+ A0/ B2\\ C1/ C0/ @2/ B4\\ D4/ E1+ A4/ @2/ G3+ D1\\ E0+ @2+ B1/ A4+ E6\\ D1+ F0+ "
        "C1/ F0+ C1+ G3/ B7/ B8+ H2+ A8+ E1\\ H1\\ H4+"
    )
    assert run(["judge", "--variant", "8x8"], game, monkeypatch, capsys)[1] == "draw\n"
    assert run(["judge"], game, monkeypatch, capsys)[1] == "none\n"


def test_show_prints_the_position(monkeypatch, capsys):
    status, out, _ = run(["show", "@0+", "B1/"], monkeypatch=monkeypatch, capsys=capsys)
    assert status == 0
    assert "╱" in out and "white to move" in out
    status, out, _ = run(["show", "--ascii", "@0/", "A2\\", "B1\\"], "", monkeypatch, capsys)
    assert "+" in out and "game over: black-loop" in out


def test_errors_are_one_line_with_exit_status_1(monkeypatch, capsys):
    status, _out, err = run(["show", "@0+", "C1+"], monkeypatch=monkeypatch, capsys=capsys)
    assert status == 1
    assert err == "trax: error: illegal move C1+: not adjacent to any tile\n"


def test_bad_arguments_exit_with_status_2(capsys):
    with pytest.raises(SystemExit) as info:
        main(["perft", "zero"])
    assert info.value.code == 2
    assert "expected a whole number" in capsys.readouterr().err


def test_the_installed_command_runs():
    result = subprocess.run(
        [sys.executable, "-m", "trax_fpga.cli", "perft", "2"],
        capture_output=True,
        text=True,
        check=True,
    )
    assert result.stdout == "1 2\n2 24\n"


def test_best_backend_model_prints_the_gateware_models_choice_last(monkeypatch, capsys):
    from trax_fpga.host.hwsearch import RESEARCH_CUT, RESEARCH_NEWEST, hw_search
    from trax_fpga.host.position import Position

    moves = ["@0+", "B1+", "A0/", "A3/", "@3/", "@3+"]
    argv = ["best", "--backend", "model", "--nodes", "2000", "--torus", "16", *moves]
    argv += ["--engines", "1", "--depth", "3"]
    position = Position.from_moves(moves)
    board = {"move_table": 16384, "table_scores": True}  # the board file's table
    cut, newest = RESEARCH_CUT, RESEARCH_NEWEST  # and its search order
    shapes = board_table()  # and its evaluation
    for options, table, research, evaluation in (
        ([], board, cut | newest, shapes),
        (["--move-table", "256", "--no-table-scores"], {"move_table": 256}, cut | newest, shapes),
        (["--move-table", "0"], {}, cut | newest, shapes),
        (["--no-attack-cut", "--no-newest-first"], board, 0, shapes),
        (["--no-newest-first"], board, cut, shapes),
        (["--shapes", "none"], board, cut | newest, None),
    ):
        status, out, _ = run([*argv, *options], monkeypatch=monkeypatch, capsys=capsys)
        assert status == 0
        expected = hw_search(
            *(position, 16, 16, 2000, 3),
            board="track",
            research=research,
            shapes=evaluation,
            **table,
        )
        assert out.splitlines()[-1] == str(expected.move)
        assert f"{expected.nodes} nodes in" in out.splitlines()[-2]
        assert ("a table of" in out) == bool(table)
        assert (", the attack cut" in out) == bool(research & cut)
        assert (", newest first" in out) == bool(research & newest)
        assert (", the tracks' shapes" in out) == (evaluation is not None)


def test_best_backend_model_defaults_to_the_board_files_search(monkeypatch, capsys):
    """Without options, the ULX3S board file's search: 6 engines sharing a table of 16,384
    best moves and their values, iterations to 8 plies, the attack cut and newest first, the
    evaluation by the tracks' shapes with the board files' table."""
    from trax_fpga.host.hwparallel import hw_parallel_search
    from trax_fpga.host.position import Position

    moves = ["@0+", "B1+", "A0/", "A3/", "@3/", "@3+"]
    argv = ["best", "--backend", "model", "--nodes", "300", "--torus", "16", *moves]
    status, out, _ = run(argv, monkeypatch=monkeypatch, capsys=capsys)
    assert status == 0
    table = {"move_table": 16384, "table_scores": True, "shared_table": True, "research": 3}
    table["shapes"] = board_table()
    expected = hw_parallel_search(Position.from_moves(moves), 16, 16, 300, 8, 6, **table)
    assert out.splitlines()[-1] == str(expected.move)
    assert "16x16 torus, depth <= 8, 6 engines, a table of 16384 best moves" in out
    assert f"depth {expected.depth}, {expected.nodes} nodes in" in out.splitlines()[-2]


def test_best_backend_model_with_engines_prints_the_parallel_models_choice(monkeypatch, capsys):
    from trax_fpga.host.hwparallel import hw_parallel_search
    from trax_fpga.host.position import Position

    moves = ["@0+", "B1+", "A0/", "A3/", "@3/", "@3+"]
    argv = ["best", "--backend", "model", "--nodes", "500", "--torus", "16", "--depth", "5"]
    status, out, _ = run([*argv, "--engines", "3", *moves], monkeypatch=monkeypatch, capsys=capsys)
    assert status == 0
    table = {"move_table": 16384, "table_scores": True, "shared_table": True, "research": 3}
    table["shapes"] = board_table()
    expected = hw_parallel_search(Position.from_moves(moves), 16, 16, 500, 5, 3, **table)
    assert out.splitlines()[-1] == str(expected.move)
    label = "3 engines, a table of 16384 best moves and their values, the attack cut, newest first"
    label += ", the tracks' shapes"
    assert f"{label}; compiled" in out
    assert f"depth {expected.depth}, {expected.nodes} nodes in" in out.splitlines()[-2]


def test_judge_names_the_line_that_is_not_text(tmp_path):
    """Binary input: a one-line error naming the line, no traceback (stdin and files)."""
    data = b"@0+ B1+\n\x89PNG\r\n\x1a\n\xff\xfe\x00\n"
    path = tmp_path / "picture.png"
    path.write_bytes(data)
    command = [sys.executable, "-m", "trax_fpga.cli", "judge"]
    for args, stdin, name in ((["-"], data, "standard input"), ([str(path)], b"", str(path))):
        args = [] if args == ["-"] else args
        result = subprocess.run([*command, *args], input=stdin, capture_output=True, check=False)
        assert result.returncode == 1
        assert result.stdout == b"none\n"  # the text line before it was judged
        assert result.stderr.decode() == (
            f"trax: error: {name}: line 2 is not text (not UTF-8); "
            "trax judge reads game records, one game per line\n"
        )


def test_the_readme_states_the_exit_codes():
    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text()
    section = readme.split("## Exit status", 1)[1].split("\n## ", 1)[0]
    for code in ("0", "1", "2", "130"):
        assert f"| {code} |" in section


def test_an_engine_command_runs_this_same_trax_without_it_on_path(tmp_path):
    """The README's example works with the virtual environment's bin not on PATH."""
    command = [sys.executable, "-m", "trax_fpga.cli", "match", "ref", "--engine"]
    command += ["trax engine --nodes 30", "--games", "1", "--nodes", "30", "--log-dir", ""]
    result = subprocess.run(
        command,
        env={"PATH": "/usr/bin:/bin", "HOME": str(tmp_path)},
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    assert "1 of 1 games (complete)" in result.stdout
