"""Shared pytest options: long runs are marked ``slow`` and only run with ``--run-slow``."""

import pytest


def pytest_addoption(parser):
    parser.addoption("--run-slow", action="store_true", help="also run tests marked slow")


def pytest_collection_modifyitems(config, items):
    if config.getoption("--run-slow"):
        return
    skip = pytest.mark.skip(reason="slow: run with `make test-slow` (pytest --run-slow)")
    for item in items:
        if "slow" in item.keywords:
            item.add_marker(skip)
