"""``trax web`` in a real browser: Playwright driving Debian's Chromium (``make test`` installs
it). The page is played by clicking, a log is replayed, and a match is watched as it grows."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from trax_fpga.host.position import Position

CHROMIUM = os.environ.get("TRAX_CHROMIUM", "/usr/bin/chromium")
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
TRAX = [sys.executable, "-m", "trax_fpga.cli"]


@pytest.fixture(scope="module")
def browser():
    if not Path(CHROMIUM).exists():
        if shutil.which("apt-get") is None:
            pytest.skip(f"no Chromium at {CHROMIUM} and no apt-get to install it")
        pytest.fail(
            f"no Chromium at {CHROMIUM}: `make test` installs it (apt-get install chromium)"
        )
    from playwright.sync_api import sync_playwright

    profile = tempfile.mkdtemp(prefix="trax-chromium-")
    with sync_playwright() as playwright:
        context = playwright.chromium.launch_persistent_context(
            profile, executable_path=CHROMIUM, args=ARGS, headless=True
        )
        try:
            yield context
        finally:
            context.close()
            shutil.rmtree(profile, ignore_errors=True)


def _serve(*options: str):
    process = subprocess.Popen(
        [*TRAX, "web", "--port", "0", *options],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    url = process.stdout.readline().strip()
    if not url.startswith("http://"):
        process.kill()
        raise AssertionError(f"trax web did not start: {process.stderr.read()}")
    return process, url


def _stop(process) -> None:
    process.terminate()
    process.wait(timeout=10)
    process.stdout.close()
    process.stderr.close()


@pytest.fixture
def page(browser):
    page = browser.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    yield page
    page.close()
    assert not errors, errors


def test_play_a_move_by_clicking_and_see_the_answer(page):
    process, url = _serve("--opponent", "ref", "--nodes", "60")
    try:
        page.goto(url)
        page.click('[data-cell="@0"]')
        offered = sorted(
            b.get_attribute("data-move") for b in page.query_selector_all("[data-move]")
        )
        assert offered == ["@0+", "@0/"]  # only the legal first moves
        page.click('[data-move="@0/"]')
        page.wait_for_function("document.querySelectorAll('#moves > *').length == 2")
        moves = [
            item.get_attribute("data-colour") for item in page.query_selector_all("#moves > *")
        ]
        assert moves == ["white", "black"]
        answer = page.query_selector_all("#moves > *")[1].inner_text().split()[0]
        position = Position.from_moves(["@0/", answer])  # the answer is legal
        page.wait_for_selector("#board.your-turn")
        tiles = page.query_selector_all("#board .tile")
        assert len(tiles) == len(position.tiles)  # the answer (and its forced plays) drawn
        # Every offered cell is named as the notation names it, and offers only legal tiles.
        cells = page.query_selector_all("#board .cell.playable")
        assert cells
        cells[0].click()
        for button in page.query_selector_all("[data-move]"):
            assert position.is_legal(button.get_attribute("data-move"))
        assert "white to move" in page.inner_text("#turn")
        assert page.inner_text("#black-name") == "ref"
    finally:
        _stop(process)


LOG = "Trax\nref vs board\n@0/\nA0/\nB2\\\n"


def test_replay_a_log_file(page, tmp_path):
    process, url = _serve("--opponent", "ref", "--nodes", "30")
    try:
        log = tmp_path / "0001-ref-board.log"
        log.write_text(LOG)
        page.goto(url)
        page.set_input_files("#log-file", str(log))
        page.wait_for_selector("#replay-controls:not([hidden])")
        assert page.inner_text("#ply") == "3 / 3"
        assert len(page.query_selector_all("#moves > *")) == 3
        page.click("#first")
        assert page.inner_text("#ply") == "0 / 3"
        assert page.query_selector_all("#board .tile") == []
        page.click("#next")
        assert len(page.query_selector_all("#board .tile")) == 1
        page.keyboard.press("End")
        expected = Position.from_moves(["@0/", "A0/", "B2\\"])
        assert len(page.query_selector_all("#board .tile")) == len(expected.tiles)
        assert page.inner_text("#white-name") == "ref"
    finally:
        _stop(process)


def test_watch_a_match_as_its_log_grows(page, tmp_path):
    log = tmp_path / "0001-ref-board.log"
    log.write_text("Trax\nref vs board\n@0/\n")
    process, url = _serve("--watch", str(tmp_path))
    try:
        page.goto(url)
        page.wait_for_function("document.querySelectorAll('#moves > *').length == 1")
        with open(log, "a") as stream:
            stream.write("A0/\n")
        page.wait_for_function("document.querySelectorAll('#moves > *').length == 2")
        assert "game 1: ref vs board" in page.inner_text("#status")
        assert "0001-ref-board.log" in page.inner_text("#games")
    finally:
        _stop(process)
