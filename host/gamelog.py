"""Match logs on disk, written as the games are played so that no finished game is ever lost.

A series lives in one directory:

- ``NNNN-<white>-<black>.log`` per game, in the public referee's format: ``Trax``, then
  ``<white> vs <black>``, then one move per line, each line flushed and synced as it is played;
- ``results.txt``: a header naming the two players of the series, then one tab-separated line
  per finished game (number, white, black, winner, reason, plies, answer times in ms, detail),
  also synced. A series resumes from it: games listed there are finished, any other is replayed.
"""

from __future__ import annotations

import dataclasses
import os
import re
from pathlib import Path

from .errors import TraxError
from .tiles import Colour

__all__ = ["RESULTS", "GameLog", "GameRecord", "SeriesLog", "safe_name"]

RESULTS = "results.txt"
_HEADER = "# trax match: A={a} B={b}"
_COLUMNS = "# game\twhite\tblack\twinner\treason\tplies\ttimes_ms\tdetail"
_HEADER_RE = re.compile(r"^# trax match: A=(?P<a>.*) B=(?P<b>.*)$")


def safe_name(text: str) -> str:
    """``text`` made safe for a file name and a log header: letters, digits, ``_ . +`` only."""
    cleaned = re.sub(r"[^A-Za-z0-9_.+]+", "_", text).strip("_.")
    return cleaned[:24] or "player"


def _sync(stream) -> None:
    stream.flush()
    os.fsync(stream.fileno())


class GameLog:
    """The log of one game in the public referee's format, synced after every line."""

    def __init__(self, path: Path, white: str, black: str) -> None:
        self.path = Path(path)
        self._stream = open(self.path, "w", encoding="ascii", newline="\n")  # noqa: SIM115
        self._stream.write(f"Trax\n{white} vs {black}\n")
        _sync(self._stream)

    def write_move(self, move: str) -> None:
        self._stream.write(f"{move}\n")
        _sync(self._stream)

    def close(self) -> None:
        if not self._stream.closed:
            self._stream.close()

    def __enter__(self) -> GameLog:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


@dataclasses.dataclass
class GameRecord:
    """One finished game as the results file holds it.

    ``winner`` is None for a game without winner; ``times`` are the answer times in seconds, in
    the order of the moves (white's first); ``detail`` explains the reason in words.
    """

    number: int
    white: str
    black: str
    winner: Colour | None
    reason: str
    moves: list[str]
    times: list[float]
    detail: str = ""

    @property
    def loser(self) -> Colour | None:
        return None if self.winner is None else self.winner.other

    def describe(self) -> str:
        """The result in words, e.g. ``white wins by loop`` or ``black wins: white timeout``."""
        if self.winner is None:
            text = f"no winner ({self.reason})"
        elif self.reason in ("loop", "line"):
            text = f"{self.winner.word} wins by {self.reason}"
        else:
            text = f"{self.winner.word} wins, {self.winner.other.word} lost by {self.reason}"
        return f"{text}: {self.detail}" if self.detail else text

    def to_line(self) -> str:
        winner = self.winner.word if self.winner is not None else "none"
        times = ",".join(f"{t * 1000:.1f}" for t in self.times) or "-"
        detail = re.sub(r"\s+", " ", self.detail).strip()
        fields = [f"{self.number:04d}", self.white, self.black, winner, self.reason]
        return "\t".join([*fields, str(len(self.moves)), times, detail])

    @classmethod
    def from_line(cls, line: str) -> GameRecord:
        fields = line.rstrip("\n").split("\t")
        if len(fields) != 8:
            raise ValueError(f"expected 8 tab-separated fields, got {len(fields)}")
        number, white, black, winner, reason, plies, times, detail = fields
        parsed_winner = None if winner == "none" else Colour[winner.upper()]
        parsed_times = [] if times == "-" else [float(t) / 1000 for t in times.split(",")]
        # The moves themselves are in the game's log; the record keeps their count.
        return cls(
            int(number),
            white,
            black,
            parsed_winner,
            reason,
            [""] * int(plies),
            parsed_times,
            detail,
        )


class SeriesLog:
    """The directory of a series between players labelled ``a`` and ``b``.

    ``resume`` continues the series already there (``finished`` holds its games); without it the
    directory must not hold a series yet. Raises :class:`TraxError` on any mismatch.
    """

    def __init__(self, directory: str | Path, a: str, b: str, resume: bool = False) -> None:
        self.directory = Path(directory)
        self.finished: dict[int, GameRecord] = {}
        results = self.directory / RESULTS
        if results.exists():
            if not resume:
                raise TraxError(
                    f"{self.directory} already holds a series: resume it or choose another"
                )
            self._load(results, a, b)
        else:
            if resume and not self.directory.is_dir():
                raise TraxError(f"no series to resume in {self.directory}")
            try:
                self.directory.mkdir(parents=True, exist_ok=True)
            except OSError as error:
                raise TraxError(f"cannot create {self.directory}: {error.strerror}") from None
            with open(results, "w", encoding="utf-8") as stream:
                stream.write(_HEADER.format(a=a, b=b) + "\n" + _COLUMNS + "\n")
                _sync(stream)

    def _load(self, results: Path, a: str, b: str) -> None:
        with open(results, encoding="utf-8") as stream:
            lines = stream.read().split("\n")
        match = _HEADER_RE.match(lines[0])
        if match is None:
            raise TraxError(f"{results} is not a trax match results file")
        if (match["a"], match["b"]) != (a, b):
            raise TraxError(
                f"{results} is a series between {match['a']} and {match['b']}, not {a} and {b}"
            )
        kept = []
        for number, line in enumerate(lines, 1):
            if not line or line.startswith("#"):
                kept.append(line)
                continue
            try:
                record = GameRecord.from_line(line)
            except (ValueError, KeyError) as error:
                if number == len(lines):  # a last line cut short by a crash: replay that game
                    continue
                raise TraxError(f"{results}:{number}: bad line ({error})") from None
            self.finished[record.number] = record
            kept.append(line)
        if lines[-1]:  # the file did not end with a whole line: rewrite it without the torn one
            temporary = results.with_suffix(".tmp")
            with open(temporary, "w", encoding="utf-8") as stream:
                stream.write("\n".join(line for line in kept if line) + "\n")
                _sync(stream)
            os.replace(temporary, results)

    def game_log(self, number: int, white: str, black: str) -> GameLog:
        """A fresh log for game ``number`` (the log of an unfinished earlier try is removed)."""
        for stale in self.directory.glob(f"{number:04d}-*.log"):
            stale.unlink()
        name = f"{number:04d}-{safe_name(white)}-{safe_name(black)}.log"
        return GameLog(self.directory / name, white, black)

    def record(self, record: GameRecord) -> None:
        """Append a finished game to the results file."""
        with open(self.directory / RESULTS, "a", encoding="utf-8") as stream:
            stream.write(record.to_line() + "\n")
            _sync(stream)
        self.finished[record.number] = record
