"""Match logs on disk, written as the games are played so that no finished game is ever lost.

A series lives in one directory:

- ``NNNN-<white>-<black>.log`` per game: a header of ``# key: value`` lines (event, date, the
  players' full commands and colours, the time control, then the result, the termination and
  its detail, and the offending output of a fault), then the game in the public referee's
  format: ``Trax``, ``<white> vs <black>``, one move per line. Every line is flushed and synced
  as it is played (the result reads ``*`` until the game ends, when the file is rewritten with
  it). Output a player sent out of turn is noted between the moves as ``# out-of-turn ...``
  lines; ``grep -v '^#'`` gives the public referee's log.
- ``results.txt``: a header naming the two players of the series, then one tab-separated line
  per finished game (number, white, black, winner, reason, plies, answer times in ms, detail),
  also synced. A series resumes from it: games listed there are finished, any other is replayed.
- ``series.json``: how the series was started (the players' commands, the number of games and
  every option that shapes the games), so that ``--resume DIR`` alone continues it as started.
- ``A.stderr``, ``B.stderr``: each program's standard error, cut at a bounded size.
"""

from __future__ import annotations

import contextlib
import dataclasses
import json
import os
import re
from pathlib import Path

from .errors import TraxError
from .tiles import Colour

__all__ = ["RESULTS", "SETTINGS", "GameLog", "GameRecord", "SeriesLog", "safe_name"]

RESULTS = "results.txt"
SETTINGS = "series.json"
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
    """The log of one game (see the module's docstring), synced after every line.

    ``header`` gives the first ``# key: value`` lines; :meth:`finish` adds the result.
    """

    def __init__(
        self, path: Path, white: str, black: str, header: dict[str, str] | None = None
    ) -> None:
        self.path = Path(path)
        self.header = dict(header or {})
        self.header.setdefault("result", "*")
        self.body = [_one_line(f"{white} vs {black}")]
        self._stream = open(self.path, "w", encoding="ascii", newline="\n")  # noqa: SIM115
        self._stream.write(self._text())
        _sync(self._stream)

    def _text(self) -> str:
        lines = [f"# {key}: {_one_line(value)}" for key, value in self.header.items()]
        return "\n".join([*lines, "Trax", *self.body]) + "\n"

    def write_move(self, move: str) -> None:
        self._write(move)

    def write_note(self, text: str) -> None:
        """A ``# `` line between the moves (output out of turn)."""
        self._write(f"# {_one_line(text)}")

    def _write(self, line: str) -> None:
        self.body.append(line)
        self._stream.write(f"{line}\n")
        _sync(self._stream)

    def finish(self, record: GameRecord) -> None:
        """Rewrite the log with the game's result in its header, then close it."""
        self.close()
        self.header.pop("result", None)
        self.header["result"] = record.result_text()
        self.header["termination"] = record.reason
        self.header["detail"] = record.detail or "-"
        if record.offending:
            self.header["offending output"] = record.offending
        temporary = self.path.with_suffix(".tmp")
        with open(temporary, "w", encoding="ascii", newline="\n") as stream:
            stream.write(self._text())
            _sync(stream)
        os.replace(temporary, self.path)

    def close(self) -> None:
        if not self._stream.closed:
            self._stream.close()

    def __enter__(self) -> GameLog:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _one_line(text: str) -> str:
    return re.sub(r"\s+", " ", str(text)).strip().encode("ascii", "backslashreplace").decode()


@dataclasses.dataclass
class GameRecord:
    """One finished game as the results file holds it.

    ``winner`` is None for a game without winner; ``times`` are the answer times in seconds, in
    the order of the moves (white's first); ``detail`` explains the reason in words;
    ``offending`` is the output that lost the game (in the game's log, not in the results file).
    """

    number: int
    white: str
    black: str
    winner: Colour | None
    reason: str
    moves: list[str]
    times: list[float]
    detail: str = ""
    offending: str = ""

    def result_text(self) -> str:
        """``white wins``, ``black wins`` or ``no winner``."""
        return "no winner" if self.winner is None else f"{self.winner.word} wins"

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

    ``resume`` continues the series already there (``finished`` holds its games, ``settings``
    how it was started); without it the directory must not hold a series yet, and ``settings``
    are written to it. Raises :class:`TraxError` on any mismatch. :meth:`discard` removes a
    series that never finished a game, so that it does not stand in the way of the next try.
    """

    def __init__(
        self,
        directory: str | Path,
        a: str,
        b: str,
        resume: bool = False,
        settings: dict | None = None,
    ) -> None:
        self.directory = Path(directory)
        self.finished: dict[int, GameRecord] = {}
        self.settings: dict = dict(settings or {})
        self.created = False  # this object created the directory
        self.fresh = False  # this object started the series
        results = self.directory / RESULTS
        if results.exists():
            if not resume:
                raise TraxError(
                    f"{self.directory} already holds a series: resume it (--resume "
                    f"{self.directory}) or choose another"
                )
            self._load(results, a, b)
            self.settings = self.read_settings(self.directory) or self.settings
        else:
            if resume and not self.directory.is_dir():
                raise TraxError(f"no series to resume in {self.directory}")
            self.created = not self.directory.exists()
            try:
                self.directory.mkdir(parents=True, exist_ok=True)
            except OSError as error:
                raise TraxError(f"cannot create {self.directory}: {error.strerror}") from None
            with open(results, "w", encoding="utf-8") as stream:
                stream.write(_HEADER.format(a=a, b=b) + "\n" + _COLUMNS + "\n")
                _sync(stream)
            self.fresh = True
            self.save_settings(self.settings)

    @staticmethod
    def read_players(directory: str | Path) -> tuple[str, str]:
        """The two players (A and B) named by the results file of the series in ``directory``."""
        results = Path(directory) / RESULTS
        try:
            with open(results, encoding="utf-8") as stream:
                first = stream.readline().rstrip("\n")
        except OSError as error:
            raise TraxError(f"cannot read {results}: {error.strerror}") from None
        match = _HEADER_RE.match(first)
        if match is None:
            raise TraxError(f"{results} is not a trax match results file")
        return match["a"], match["b"]

    @staticmethod
    def read_settings(directory: str | Path) -> dict | None:
        """The settings a series in ``directory`` was started with (None if not recorded)."""
        path = Path(directory) / SETTINGS
        try:
            with open(path, encoding="utf-8") as stream:
                settings = json.load(stream)
        except FileNotFoundError:
            return None
        except (OSError, ValueError) as error:
            raise TraxError(f"cannot read {path}: {error}") from None
        if not isinstance(settings, dict):
            raise TraxError(f"{path} does not hold a series' settings")
        return settings

    def save_settings(self, settings: dict) -> None:
        """Record how the series is played (atomically)."""
        self.settings = dict(settings)
        path = self.directory / SETTINGS
        temporary = path.with_suffix(".tmp")
        with open(temporary, "w", encoding="utf-8") as stream:
            json.dump(self.settings, stream, indent=1, sort_keys=True)
            stream.write("\n")
            _sync(stream)
        os.replace(temporary, path)

    def discard(self) -> None:
        """Remove what this object wrote for a series that finished no game (and the directory,
        if it created it and nothing else is in it)."""
        if not self.fresh or self.finished:
            return
        with contextlib.suppress(OSError), open(self.directory / RESULTS, encoding="utf-8") as f:
            if any(line.strip() and not line.startswith("#") for line in f):
                return  # a game was recorded after all (Ctrl-C while it was being written)
        for pattern in (RESULTS, SETTINGS, "*.stderr", "[0-9][0-9][0-9][0-9]-*.log", "*.tmp"):
            for path in self.directory.glob(pattern):
                path.unlink(missing_ok=True)
        if self.created:
            with contextlib.suppress(OSError):
                self.directory.rmdir()

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

    def game_log(
        self, number: int, white: str, black: str, header: dict[str, str] | None = None
    ) -> GameLog:
        """A fresh log for game ``number`` (the log of an unfinished earlier try is removed)."""
        for stale in self.directory.glob(f"{number:04d}-*.log"):
            stale.unlink()
        name = f"{number:04d}-{safe_name(white)}-{safe_name(black)}.log"
        return GameLog(self.directory / name, white, black, header)

    def record(self, record: GameRecord) -> None:
        """Append a finished game to the results file."""
        self.finished[record.number] = record
        with open(self.directory / RESULTS, "a", encoding="utf-8") as stream:
            stream.write(record.to_line() + "\n")
            _sync(stream)
