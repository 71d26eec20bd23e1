"""A match referee like the contests': sends -T, -B, -W, relays moves, judges, keeps the clock.

:meth:`Referee.play_game` plays one game: optionally ``-T`` to each player (the answer is its code
in the logs), ``-B`` to black, ``-W`` to white, then relays every answer verbatim to the other
player. Each answer must arrive within ``time_limit`` seconds (players with ``timed`` false, such
as a person, have no limit). Every answer is judged with the reference engine; the game ends with
a loop or line, or with a loss of the player who answered:

- ``illegal``: a move the rules forbid;  ``malformed``: a line that is not a move (or a bad code);
- ``timeout``: no answer in time;  ``disconnect``: the link was lost;  ``resign``: a person quit.

:func:`run_series` plays a series with colours alternating (player A is white in odd games), logs
every game as it is played and records every finished game, stops at a disconnect, and skips the
games already recorded when resuming.
"""

from __future__ import annotations

import dataclasses
import logging
import re
import sys
import time
from collections.abc import Callable
from typing import TextIO

from .errors import IllegalMoveError, InvalidMoveError
from .gamelog import GameLog, GameRecord, SeriesLog
from .notation import Move
from .players import Player, ResignedError
from .position import Position, Variant
from .tiles import Colour
from .transport import LineTimeoutError, LinkError, MalformedLineError

__all__ = [
    "LOSS_REASONS",
    "Progress",
    "Referee",
    "SeriesSummary",
    "run_series",
]

log = logging.getLogger("trax.referee")

#: Reasons a player loses other than the opponent's loop or line.
LOSS_REASONS = ("illegal", "malformed", "timeout", "disconnect", "resign")
_TEAM_CODE = re.compile(r"^[A-Za-z0-9_]{1,8}$")


class _LossError(Exception):
    def __init__(self, colour: Colour, reason: str, detail: str) -> None:
        self.colour = colour
        self.reason = reason
        self.detail = detail


def _link_reason(error: BaseException) -> str:
    if isinstance(error, LineTimeoutError):
        return "timeout"
    if isinstance(error, MalformedLineError):
        return "malformed"
    if isinstance(error, ResignedError):
        return "resign"
    return "disconnect"


@dataclasses.dataclass
class Referee:
    """Judges games between two players; ``time_limit`` None means no clock for anybody.

    ``ask_team`` sends ``-T`` first (contests "with player code"); ``max_plies`` (None: no limit)
    ends a game without winner ('move-limit') after that many moves, a guard for unattended runs.
    """

    time_limit: float | None = 1.0
    ask_team: bool = False
    variant: Variant = Variant.UNLIMITED
    max_plies: int | None = None

    def __post_init__(self) -> None:
        if self.time_limit is not None and not self.time_limit > 0:
            raise ValueError(f"time limit must be positive or None, not {self.time_limit!r}")
        if self.max_plies is not None and self.max_plies < 1:
            raise ValueError(f"max_plies must be positive or None, not {self.max_plies!r}")

    def _limit(self, player: Player) -> float | None:
        return self.time_limit if player.timed else None

    def _ask(self, player: Player, colour: Colour, ask: Callable[[float | None], str]):
        """Call ``ask(timeout)``; return (line, seconds) or raise _LossError for ``colour``."""
        limit = self._limit(player)
        start = time.monotonic()
        try:
            line = ask(limit)
        except LineTimeoutError as error:
            got = f" (got {error.partial!r} so far)" if error.partial else ""
            detail = f"{player.name}: no answer within {limit:g} s{got}"
            raise _LossError(colour, "timeout", detail) from None
        except (LinkError, ResignedError) as error:
            raise _LossError(colour, _link_reason(error), str(error)) from None
        elapsed = time.monotonic() - start
        if limit is not None and elapsed > limit:
            raise _LossError(
                colour, "timeout", f"{player.name} answered {line!r} after {elapsed:.3f} s"
            )
        return line, elapsed

    def play_game(
        self,
        white: Player,
        black: Player,
        number: int = 1,
        open_log: Callable[[str, str], GameLog] | None = None,
    ) -> GameRecord:
        """Play one game; ``open_log(white_name, black_name)`` gives the log to write moves to."""
        players = {Colour.WHITE: white, Colour.BLACK: black}
        names = {Colour.WHITE: white.name, Colour.BLACK: black.name}
        moves: list[str] = []
        times: list[float] = []
        game_log: GameLog | None = None
        position = Position(self.variant)
        try:
            if self.ask_team:
                for colour in (Colour.WHITE, Colour.BLACK):
                    player = players[colour]
                    code, _ = self._ask(player, colour, player.team_code)
                    if not _TEAM_CODE.match(code):
                        raise _LossError(
                            colour, "malformed", f"{player.name} sent team code {code!r}"
                        )
                    names[colour] = code
            if open_log is not None:
                game_log = open_log(names[Colour.WHITE], names[Colour.BLACK])
            for colour in (Colour.BLACK, Colour.WHITE):
                try:
                    players[colour].new_game(colour)
                except LinkError as error:
                    raise _LossError(colour, _link_reason(error), str(error)) from None
            last: str | None = None
            while True:
                colour = position.turn
                player = players[colour]
                line, elapsed = self._ask(
                    player, colour, lambda limit, p=player, m=last: p.answer(m, limit)
                )
                try:
                    position.play(Move.parse(line))
                except InvalidMoveError as error:
                    raise _LossError(colour, "malformed", f"{player.name}: {error}") from None
                except IllegalMoveError as error:
                    raise _LossError(colour, "illegal", f"{player.name}: {error}") from None
                moves.append(line)
                times.append(elapsed)
                if game_log is not None:
                    game_log.write_move(line)
                log.debug("game %d: %s %s (%.3f s)", number, colour.word, line, elapsed)
                if position.outcome is not None:
                    outcome = position.outcome
                    detail = f"after {len(moves)} moves"
                    record = GameRecord(
                        number,
                        *self._names(names),
                        outcome.winner,
                        outcome.reason,
                        moves,
                        times,
                        detail,
                    )
                    break
                if self.max_plies is not None and len(moves) >= self.max_plies:
                    detail = f"stopped after {len(moves)} moves"
                    record = GameRecord(
                        number, *self._names(names), None, "move-limit", moves, times, detail
                    )
                    break
                last = line
        except _LossError as loss:
            record = GameRecord(
                number,
                *self._names(names),
                loss.colour.other,
                loss.reason,
                moves,
                times,
                loss.detail,
            )
        finally:
            if game_log is not None:
                game_log.close()
        log.info("game %d: %s", number, record.describe())
        for player in (white, black):
            player.game_over(record)
        return record

    @staticmethod
    def _names(names: dict[Colour, str]) -> tuple[str, str]:
        return names[Colour.WHITE], names[Colour.BLACK]


# --- series ------------------------------------------------------------------------------------


@dataclasses.dataclass
class _Tally:
    label: str
    games: int = 0
    wins: int = 0
    losses: int = 0
    draws: int = 0
    win_reasons: dict[str, int] = dataclasses.field(default_factory=dict)
    loss_reasons: dict[str, int] = dataclasses.field(default_factory=dict)
    times: list[float] = dataclasses.field(default_factory=list)


@dataclasses.dataclass
class SeriesSummary:
    """The games of a series (finished ones, in order) and whether it ran to the end."""

    a: str
    b: str
    games: int
    records: list[GameRecord]
    complete: bool

    def tallies(self) -> tuple[_Tally, _Tally]:
        tally = {"a": _Tally(self.a), "b": _Tally(self.b)}
        for record in self.records:
            a_colour = Colour.WHITE if record.number % 2 == 1 else Colour.BLACK
            for key, colour in (("a", a_colour), ("b", a_colour.other)):
                t = tally[key]
                t.games += 1
                start = 0 if colour is Colour.WHITE else 1
                t.times.extend(record.times[start::2])
                if record.winner is None:
                    t.draws += 1
                elif record.winner is colour:
                    t.wins += 1
                    t.win_reasons[record.reason] = t.win_reasons.get(record.reason, 0) + 1
                else:
                    t.losses += 1
                    t.loss_reasons[record.reason] = t.loss_reasons.get(record.reason, 0) + 1
        return tally["a"], tally["b"]

    def table(self) -> str:
        """The summary table: per player games, wins, losses, draws, reasons and answer times."""

        def reasons(counts: dict[str, int]) -> str:
            return ", ".join(f"{k} {v}" for k, v in sorted(counts.items())) or "-"

        rows = [
            ("player", "games", "wins", "losses", "draws", "won by", "lost by", "mean ms", "max ms")
        ]
        for t in self.tallies():
            mean = f"{1000 * sum(t.times) / len(t.times):.1f}" if t.times else "-"
            top = f"{1000 * max(t.times):.1f}" if t.times else "-"
            label = t.label if len(t.label) <= 40 else t.label[:39] + "…"
            rows.append(
                (
                    label,
                    str(t.games),
                    str(t.wins),
                    str(t.losses),
                    str(t.draws),
                    reasons(t.win_reasons),
                    reasons(t.loss_reasons),
                    mean,
                    top,
                )
            )
        widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
        lines = []
        for row in rows:
            cells = [
                cell.ljust(width) if i in (0, 5, 6) else cell.rjust(width)
                for i, (cell, width) in enumerate(zip(row, widths, strict=True))
            ]
            lines.append("  ".join(cells).rstrip())
        played = len(self.records)
        status = "complete" if self.complete else "stopped early"
        lines.append(f"{played} of {self.games} games ({status})")
        return "\n".join(lines)


class Progress:
    """A one-line progress bar on ``stream`` (standard error), drawn only on a terminal."""

    def __init__(self, total: int, stream: TextIO | None = None, enabled: bool | None = None):
        self.total = total
        self.stream = stream or sys.stderr
        self.enabled = self.stream.isatty() if enabled is None else enabled
        self.width = 30

    def update(self, done: int, text: str = "") -> None:
        if not self.enabled:
            return
        filled = self.width * done // max(self.total, 1)
        bar = "#" * filled + "-" * (self.width - filled)
        self.stream.write(f"\r[{bar}] {done}/{self.total} {text}\x1b[K")
        self.stream.flush()

    def close(self) -> None:
        if self.enabled:
            self.stream.write("\n")
            self.stream.flush()


def run_series(
    a: Player,
    b: Player,
    games: int,
    referee: Referee,
    series_log: SeriesLog | None = None,
    progress: Progress | None = None,
    a_label: str | None = None,
    b_label: str | None = None,
) -> SeriesSummary:
    """Play games 1..``games`` (A white in odd games) skipping those ``series_log`` finished.

    Stops after a game lost by disconnect (the link is gone: resume once it is back).
    """
    if not isinstance(games, int) or games < 1:
        raise ValueError(f"number of games must be a positive integer, not {games!r}")
    finished = dict(series_log.finished) if series_log is not None else {}
    summary = SeriesSummary(a_label or a.name, b_label or b.name, games, [], True)
    progress = progress or Progress(games, enabled=False)

    def status() -> str:
        ta, tb = summary.tallies()
        return f"{summary.a} {ta.wins} - {tb.wins} {summary.b}"

    for number in range(1, games + 1):
        if number in finished:
            summary.records.append(finished[number])
            continue
        progress.update(len(summary.records), status())
        white, black = (a, b) if number % 2 == 1 else (b, a)
        open_log = None
        if series_log is not None:

            def open_log(w: str, k: str, n: int = number) -> GameLog:
                return series_log.game_log(n, w, k)

        record = referee.play_game(white, black, number, open_log)
        if series_log is not None:
            series_log.record(record)
        summary.records.append(record)
        if record.reason == "disconnect":
            log.error("game %d: %s; stopping the series", number, record.describe())
            summary.complete = False
            break
    summary.records.sort(key=lambda r: r.number)
    progress.update(len(summary.records), status())
    progress.close()
    return summary
