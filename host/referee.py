"""A match referee like the contests': sends -T, -B, -W, relays moves, judges, keeps the clock.

:meth:`Referee.play_game` plays one game: optionally ``-T`` to each player (the answer is its code
in the logs), ``-B`` to black, ``-W`` to white, then relays every answer verbatim to the other
player. Each answer must arrive within ``time_limit`` seconds (players with ``timed`` false, such
as a person, have no limit). Every answer is judged with the reference engine; the game ends with
a loop or line, or with a loss of the player who answered:

- ``illegal``: a move the rules forbid;  ``malformed``: a line that is not a move (or a bad code);
- ``timeout``: no answer in time;  ``disconnect``: the link was lost (a crashed program: with its
  exit status or signal);  ``resign``: a person quit;
- ``out-of-turn``: output during the game while the referee was not waiting for that player (a
  second answer, a move before the opponent's move was sent). It is found when the player is
  next asked, before anything is sent to it. This follows the contests' rule that a malformed
  or late answer loses at once, and what the public referee does with such a line (it reads it
  as the next answer, which then loses). Output out of turn before a game's first request or
  after its last move (a banner, a late answer after a timeout) costs nothing. All of it is
  noted in the game's log and never read as an answer later.

:func:`run_series` plays a series with colours alternating (player A is white in odd games), logs
every game as it is played and records every finished game, and skips the games already recorded
when resuming. A player whose game ended with its fault is made ready again before the next game
(:meth:`.Player.recover`: a program is restarted); the series stops only when a player cannot be
made ready, or lost its link ``max_faults`` games in a row, or on Ctrl-C. Given more pairs of the
same players, it plays that many games at once, one thread a pair (``trax match --concurrency``).
"""

from __future__ import annotations

import collections
import dataclasses
import logging
import math
import sys
import threading
import time
from collections.abc import Callable, Sequence
from typing import TextIO

from .errors import IllegalMoveError, InvalidMoveError
from .gamelog import GameLog, GameRecord, SeriesLog
from .notation import Move
from .players import (
    TEAM_CODE,
    OutOfTurnError,
    Player,
    PlayerStartError,
    ResignedError,
    show_output,
)
from .position import Position, Variant
from .tiles import Colour
from .transport import LineTimeoutError, LinkError, MalformedLineError

__all__ = [
    "FAULTS",
    "LOSS_REASONS",
    "Progress",
    "Referee",
    "SeriesSummary",
    "elo",
    "run_series",
]

log = logging.getLogger("trax.referee")

#: Reasons a player loses other than the opponent's loop or line.
LOSS_REASONS = ("illegal", "malformed", "timeout", "disconnect", "out-of-turn", "resign")
#: The losses after which the loser is made ready again (restarted) before its next game.
FAULTS = ("illegal", "malformed", "timeout", "disconnect", "out-of-turn")


class _LossError(Exception):
    def __init__(self, colour: Colour, reason: str, detail: str, offending: str = "") -> None:
        self.colour = colour
        self.reason = reason
        self.detail = detail
        self.offending = offending


def _link_reason(error: BaseException) -> str:
    if isinstance(error, LineTimeoutError):
        return "timeout"
    if isinstance(error, MalformedLineError):
        return "malformed"
    if isinstance(error, OutOfTurnError):
        return "out-of-turn"
    if isinstance(error, ResignedError):
        return "resign"
    return "disconnect"


def _offending(error: BaseException) -> str:
    if isinstance(error, MalformedLineError):
        return show_output([error.raw])
    if isinstance(error, OutOfTurnError):
        return show_output(error.lines)
    if isinstance(error, LineTimeoutError) and error.partial:
        return show_output([error.partial])
    return ""


#: The contest's limit on every answer, in seconds (FPT2015: every answer within 1 second).
CONTEST_TIME_LIMIT = 1.0


@dataclasses.dataclass
class Referee:
    """Judges games between two players; ``time_limit`` None means no clock for anybody.

    ``ask_team`` sends ``-T`` first (contests "with player code"); ``max_plies`` (None: no limit)
    ends a game without winner ('move-limit') after that many moves, a guard for unattended runs.
    """

    time_limit: float | None = CONTEST_TIME_LIMIT
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
            raise _LossError(colour, "timeout", detail, _offending(error)) from None
        except (LinkError, ResignedError) as error:
            raise _LossError(colour, _link_reason(error), str(error), _offending(error)) from None
        elapsed = time.monotonic() - start
        if limit is not None and elapsed > limit:
            raise _LossError(
                colour,
                "timeout",
                f"{player.name} answered {line!r} after {elapsed:.3f} s",
                show_output([line.encode("ascii")]),
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
        notes = _stray_notes(players, "before the game")
        try:
            if self.ask_team:
                for colour in (Colour.WHITE, Colour.BLACK):
                    player = players[colour]
                    code, _ = self._ask(player, colour, player.team_code)
                    if not TEAM_CODE.match(code):
                        raise _LossError(
                            colour,
                            "malformed",
                            f"{player.name} sent team code {code!r}",
                            show_output([code.encode("ascii")]),
                        )
                    names[colour] = code
            if open_log is not None:
                game_log = open_log(names[Colour.WHITE], names[Colour.BLACK])
                for note in notes:
                    game_log.write_note(note)
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
                    raise _LossError(
                        colour, "malformed", f"{player.name}: {error}", show_output([line.encode()])
                    ) from None
                except IllegalMoveError as error:
                    raise _LossError(
                        colour, "illegal", f"{player.name}: {error}", show_output([line.encode()])
                    ) from None
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
                loss.offending,
            )
        except BaseException:  # Ctrl-C: the game is unfinished, its partial log stays
            if game_log is not None:
                game_log.close()
            raise
        log.info("game %d: %s", number, record.describe())
        for player in (white, black):
            player.game_over(record)
        if game_log is not None:
            for note in _stray_notes(players, "between its turns or after the game"):
                game_log.write_note(note)
            game_log.finish(record)
        return record

    @staticmethod
    def _names(names: dict[Colour, str]) -> tuple[str, str]:
        return names[Colour.WHITE], names[Colour.BLACK]


def _stray_notes(players: dict[Colour, Player], when: str) -> list[str]:
    """The out-of-turn output each player sent, as notes for the game's log."""
    notes = []
    for colour in (Colour.WHITE, Colour.BLACK):
        player = players[colour]
        stray = player.take_stray()
        if stray:
            log.warning("%s sent out of turn %s: %s", player.name, when, show_output(stray))
            notes.append(
                f"out-of-turn output of {colour.word} ({player.name}) {when}: {show_output(stray)}"
            )
    return notes


# --- series ------------------------------------------------------------------------------------


def _phi_inverse(p: float) -> float:
    """The normal quantile through the approximation of the inverse error function that
    cutechess-cli uses (so that the margins printed are the same)."""
    x = 2 * p - 1
    a = 8 * (math.pi - 3) / (3 * math.pi * (4 - math.pi))
    y = math.log(1 - x * x)
    z = 2 / (math.pi * a) + y / 2
    return math.sqrt(2) * math.copysign(math.sqrt(math.sqrt(z * z - y / a) - z), x)


def elo(wins: int, losses: int, draws: int) -> tuple[float, float]:
    """The Elo difference a score implies and its 95 % error margin, as cutechess-cli computes
    them (``projects/lib/src/elo.cpp``): the mean score per game, its standard error, and the
    half-width of the interval of Elo differences that the normal interval of the mean maps to.
    A score of 0 or 1 gives an infinite difference; a margin that cannot be computed is NaN."""
    games = wins + losses + draws
    if games == 0:
        return math.nan, math.nan
    mu = (wins + draws / 2) / games

    def diff(p: float) -> float:
        if p <= 0:
            return -math.inf
        if p >= 1:
            return math.inf
        return -400 * math.log10(1 / p - 1) + 0.0  # no -0.0

    deviation = (
        wins / games * (1 - mu) ** 2 + losses / games * mu**2 + draws / games * (0.5 - mu) ** 2
    )
    stdev = math.sqrt(deviation) / math.sqrt(games)
    z = _phi_inverse(0.975)
    low, high = diff(mu - z * stdev), diff(mu + z * stdev)
    margin = (high - low) / 2 if math.isfinite(low) and math.isfinite(high) else math.nan
    return diff(mu), margin


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
    #: Wins, losses and draws with each colour (``Colour.WHITE``, ``Colour.BLACK``).
    by_colour: dict[Colour, list[int]] = dataclasses.field(
        default_factory=lambda: {Colour.WHITE: [0, 0, 0], Colour.BLACK: [0, 0, 0]}
    )

    def record(self, colour: Colour) -> str:
        """Wins-losses-draws with ``colour``."""
        return "-".join(map(str, self.by_colour[colour]))


@dataclasses.dataclass
class SeriesSummary:
    """The games of a series (finished ones, in order) and whether it ran to the end.

    ``stopped`` says why a series that is not complete stopped (one line), ``interrupted`` that
    it was Ctrl-C.
    """

    a: str
    b: str
    games: int
    records: list[GameRecord]
    complete: bool
    stopped: str = ""
    interrupted: bool = False

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
                    t.by_colour[colour][2] += 1
                elif record.winner is colour:
                    t.wins += 1
                    t.win_reasons[record.reason] = t.win_reasons.get(record.reason, 0) + 1
                    t.by_colour[colour][0] += 1
                else:
                    t.losses += 1
                    t.loss_reasons[record.reason] = t.loss_reasons.get(record.reason, 0) + 1
                    t.by_colour[colour][1] += 1
        return tally["a"], tally["b"]

    def table(self) -> str:
        """The summary table: per player games, wins, losses, draws, the wins-losses-draws as
        white and as black, reasons and answer times."""

        def reasons(counts: dict[str, int]) -> str:
            return ", ".join(f"{k} {v}" for k, v in sorted(counts.items())) or "-"

        rows = [
            (
                *("player", "games", "wins", "losses", "draws", "as white", "as black"),
                *("won by", "lost by", "mean ms", "max ms"),
            )
        ]
        for t in self.tallies():
            mean = f"{1000 * sum(t.times) / len(t.times):.1f}" if t.times else "-"
            top = f"{1000 * max(t.times):.1f}" if t.times else "-"
            label = t.label
            rows.append(
                (
                    label,
                    str(t.games),
                    str(t.wins),
                    str(t.losses),
                    str(t.draws),
                    t.record(Colour.WHITE),
                    t.record(Colour.BLACK),
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
                cell.ljust(width) if i in (0, 7, 8) else cell.rjust(width)
                for i, (cell, width) in enumerate(zip(row, widths, strict=True))
            ]
            lines.append("  ".join(cells).rstrip())
        played = len(self.records)
        status = "complete" if self.complete else "stopped early"
        lines.append(f"{played} of {self.games} games ({status})")
        return "\n".join(lines)

    def score_line(self) -> str:
        """The running score as cutechess-cli prints it: A's wins, losses and draws, A's score
        per game, the games, and the Elo difference with its 95 % error margin."""
        ta, _ = self.tallies()
        games = ta.wins + ta.losses + ta.draws
        share = (ta.wins + ta.draws / 2) / games if games else math.nan
        diff, margin = elo(ta.wins, ta.losses, ta.draws)
        return (
            f"score of {self.a} vs {self.b}: {ta.wins} - {ta.losses} - {ta.draws} "
            f"[{share:.3f}] {games}, Elo difference {diff:.1f} +/- {margin:.1f}"
        )


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
    *,
    seed: int | None = None,
    max_faults: int = 3,
    header: Callable[[int, Colour], dict[str, str]] | None = None,
    report: Callable[[str], None] | None = None,
    more_pairs: Sequence[tuple[Player, Player]] = (),
) -> SeriesSummary:
    """Play games 1..``games`` (A white in odd games) skipping those ``series_log`` finished.

    After a game lost by a fault (:data:`FAULTS`) the loser is made ready again
    (:meth:`.Player.recover`) before the next game. The series stops early, with the reason in
    :attr:`SeriesSummary.stopped`, when a player cannot be made ready or lost its link
    ``max_faults`` games in a row; on Ctrl-C it returns what was played, ``interrupted``.

    ``seed`` (None: none) reseeds the players before each game, the same seed for the two games
    of a pair (games 1-2, 3-4, ...), so that each opening is played with both colours.
    ``header(number, a_colour)`` gives the first lines of each game's log; ``report(text)`` is
    told each game's result and the running score.

    ``more_pairs``: other instances of A and B (programs started again), each pair playing games
    of the series at the same time as ``a`` and ``b``, in a thread of its own: every pair takes
    the next game not yet begun, so games end out of order, and each game is the same whichever
    pair plays it. A stop lets the games in progress end (they are recorded); on Ctrl-C the other
    pairs' programs are ended (:meth:`.Player.interrupt`) and their games, cut short, are not
    recorded: a resumed series plays them again.
    """
    if not isinstance(games, int) or games < 1:
        raise ValueError(f"number of games must be a positive integer, not {games!r}")
    finished = dict(series_log.finished) if series_log is not None else {}
    summary = SeriesSummary(a_label or a.name, b_label or b.name, games, [], True)
    summary.records = [finished[number] for number in range(1, games + 1) if number in finished]
    progress = progress or Progress(games, enabled=False)
    to_play = collections.deque(n for n in range(1, games + 1) if n not in finished)
    lock = threading.RLock()  # the summary, the log, the queue, the reports
    stopping = threading.Event()  # no game is begun after it
    interrupted = threading.Event()

    def status() -> str:
        ta, tb = summary.tallies()
        return f"{summary.a} {ta.wins} - {tb.wins} {summary.b}"

    def stop(reason: str) -> None:
        with lock:
            if summary.complete:
                summary.complete = False
                summary.stopped = reason
            stopping.set()

    def play_pair(a: Player, b: Player) -> None:
        to_recover: list[Player] = []
        lost_links = {id(a): 0, id(b): 0}
        while True:
            with lock:
                if stopping.is_set() or not to_play:
                    return
                number = to_play.popleft()
                progress.update(len(summary.records), status())
            try:
                for player in to_recover:
                    log.info("restarting %s after its fault", player.name)
                    player.recover()
                for player in (a, b):
                    player.prepare_game()
            except PlayerStartError as error:
                stop(str(error))
                return
            to_recover = []
            white, black = (a, b) if number % 2 == 1 else (b, a)
            for player in (a, b):
                player.reseed(None if seed is None else f"{seed}:{(number + 1) // 2}")
            open_log = None
            if series_log is not None:
                a_colour = Colour.WHITE if white is a else Colour.BLACK
                lines = header(number, a_colour) if header is not None else None

                def open_log(w: str, k: str, n: int = number, h=lines) -> GameLog:
                    with lock:
                        return series_log.game_log(n, w, k, h)

            record = referee.play_game(white, black, number, open_log)
            with lock:
                if interrupted.is_set():  # cut short by Ctrl-C: played again on resume
                    return
                if series_log is not None:
                    series_log.record(record)
                summary.records.append(record)
                if report is not None:
                    report(f"game {number} ({record.white} vs {record.black}): {record.describe()}")
                    report(summary.score_line())
            if record.reason in FAULTS and record.loser is not None:
                loser = white if record.loser is Colour.WHITE else black
                to_recover.append(loser)
                if record.reason == "disconnect":
                    lost_links[id(loser)] += 1
                    if lost_links[id(loser)] >= max_faults:
                        stop(
                            f"{loser.name} lost its link {max_faults} games in a row "
                            f"(last: {record.detail})"
                        )
                        return
                else:
                    lost_links[id(loser)] = 0
            for player in (white, black):
                if player not in to_recover:
                    lost_links[id(player)] = 0

    failures: list[BaseException] = []

    def play_pair_in_thread(a: Player, b: Player) -> None:
        try:
            play_pair(a, b)
        except BaseException as error:  # (told to the main thread)
            if not interrupted.is_set():
                failures.append(error)
            stopping.set()

    threads = [
        threading.Thread(target=play_pair_in_thread, args=pair, daemon=True) for pair in more_pairs
    ]
    try:
        for thread in threads:
            thread.start()
        play_pair(a, b)
        for thread in threads:
            thread.join()
    except KeyboardInterrupt:
        interrupted.set()
        stopping.set()
        with lock:
            summary.complete = False
            summary.interrupted = True
            summary.stopped = "interrupted"
        for pair in more_pairs:
            for player in pair:
                player.interrupt()
        for thread in threads:
            thread.join()
        if series_log is not None:  # Ctrl-C may have come while a game was being recorded
            summary.records = [series_log.finished[n] for n in sorted(series_log.finished)]
    if failures:
        raise failures[0]
    summary.records.sort(key=lambda r: r.number)
    if summary.complete and len(summary.records) < games:  # pragma: no cover (defensive)
        summary.complete = False
    progress.update(len(summary.records), status())
    progress.close()
    return summary
