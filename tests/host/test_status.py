"""The status line of long waits: drawn on a terminal, nothing in a pipe."""

from __future__ import annotations

import io
import time

from trax_fpga.status import Status


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_a_terminal_sees_the_status_line_and_it_is_erased():
    stream = Terminal()
    with Status("building", stream=stream, interval=0.01) as status:
        time.sleep(0.05)
        status.say("running")
        status.note("a lasting line")
    text = stream.getvalue()
    assert "trax: building (0 s)" in text and "trax: running" in text
    assert "trax: a lasting line\n" in text
    assert text.endswith("\r\x1b[K")  # erased at the end


def test_a_pipe_sees_only_lasting_lines(capsys):
    stream = io.StringIO()
    with Status("building", stream=stream, interval=0.01) as status:
        time.sleep(0.03)
        status.say("running")
        status.out("a result")
        status.note("a lasting line")
    assert stream.getvalue() == "trax: a lasting line\n"
    assert capsys.readouterr().out == "a result\n"
