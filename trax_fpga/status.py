"""A status line on the terminal for long waits (a build, a simulation), quiet in a pipe.

:class:`Status` draws one line on standard error, ``trax: <what> (<seconds> s)``, redrawn every
quarter second while it lasts, and erases it at the end. When standard error is not a
terminal it draws nothing (:meth:`Status.note` lines, which are meant to stay, are printed in
any case)::

    with Status("judging with the gateware rules core") as status:
        ...
        status.say("building the simulation")   # a step of its own, timed from now
        status.say(None)                        # back to the first text
"""

from __future__ import annotations

import sys
import threading
import time
from typing import TextIO

__all__ = ["Status"]

_SPINNER = "|/-\\"


class Status:
    """A one-line status on ``stream`` (default standard error), drawn only on a terminal."""

    def __init__(
        self,
        text: str | None = None,
        stream: TextIO | None = None,
        enabled: bool | None = None,
        interval: float = 0.25,
    ) -> None:
        self.stream = stream or sys.stderr
        if enabled is None:
            isatty = getattr(self.stream, "isatty", None)
            enabled = bool(isatty and isatty())
        self.enabled = enabled
        self.interval = interval
        self._base = text
        self._text = text
        self._since = time.monotonic()
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._frame = 0
        self._drawn = False

    def __enter__(self) -> Status:
        if self.enabled:
            with self._lock:
                self._draw()
            self._thread = threading.Thread(target=self._run, name="status", daemon=True)
            self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def say(self, text: str | None) -> None:
        """Show ``text`` from now on (None: the text the status started with)."""
        with self._lock:
            self._text = self._base if text is None else text
            self._since = time.monotonic()
            self._draw()

    def note(self, text: str) -> None:
        """Print ``text`` as lasting lines (also in a pipe), above the status line."""
        with self._lock:
            self._erase()
            for line in text.splitlines():
                self.stream.write(f"trax: {line}\n")
            self.stream.flush()
            self._draw()

    def out(self, text: str) -> None:
        """Print ``text`` on standard output (a result), keeping the status line below it."""
        with self._lock:
            self._erase()
            print(text, flush=True)
            self._draw()

    def close(self) -> None:
        """Stop drawing and erase the line."""
        self._stop.set()
        if self._thread is not None:
            self._thread.join()
            self._thread = None
        with self._lock:
            self._erase()

    def _run(self) -> None:
        while not self._stop.wait(self.interval):
            with self._lock:
                self._frame += 1
                self._draw()

    def _draw(self) -> None:
        if not self.enabled or not self._text or self._stop.is_set():
            return
        seconds = time.monotonic() - self._since
        spin = _SPINNER[self._frame % len(_SPINNER)]
        self.stream.write(f"\r{spin} trax: {self._text} ({seconds:.0f} s)\x1b[K")
        self.stream.flush()
        self._drawn = True

    def _erase(self) -> None:
        if self._drawn:
            self.stream.write("\r\x1b[K")
            self.stream.flush()
            self._drawn = False
