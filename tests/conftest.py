"""Shared pytest options: long runs are marked ``slow`` and only run with ``--run-slow``; the
longest files run first, so that ``make test``'s workers (which take whole files, in this
order: ``--dist loadfile --no-loadscope-reorder``) end together rather than one waiting for
the other's last long file."""

import pytest


def pytest_addoption(parser):
    parser.addoption("--run-slow", action="store_true", help="also run tests marked slow")


#: The files that take longest in ``make test`` (minutes each, much of it Verilator builds;
#: ``pytest -p no:xdist --junitxml=...``, the times summed by file, forty-eighth session),
#: longest first.
LONGEST_FIRST = (
    "tests/hdl/test_parallel_search.py",
    "tests/hdl/test_track_board.py",
    "tests/hdl/test_track_search.py",
    "tests/sim/test_player_pins.py",
    "tests/boards/test_boards.py",
    "tests/hdl/test_track_board_shapes.py",
    "tests/hdl/test_parallel_board_file.py",
    "tests/hdl/test_parallel_tables.py",
    "tests/hdl/test_judge_rtl.py",
    "tests/hdl/test_protocol.py",
    "tests/sim/test_board_cli.py",
    "tests/hdl/test_perft.py",
    "tests/host/test_fastmodel.py",
    "tests/hdl/test_protocol_ponder.py",
    "tests/hdl/test_track_rules.py",
    "tests/host/test_hwparallel.py",
)


def _longest_first(item) -> int:
    path = item.nodeid.split("::")[0]
    return LONGEST_FIRST.index(path) if path in LONGEST_FIRST else len(LONGEST_FIRST)


def pytest_collection_modifyitems(config, items):
    items.sort(key=_longest_first)  # (stable: the other files keep their order)
    if config.getoption("--run-slow"):
        return
    skip = pytest.mark.skip(reason="slow: run with `make test-slow` (pytest --run-slow)")
    for item in items:
        if "slow" in item.keywords:
            item.add_marker(skip)
