"""Players as the referee sees them: a board or program over a link, the engine, a person.

A :class:`Player` is told a game starts (:meth:`Player.new_game`, the protocol's ``-W``/``-B``),
then is asked for each answer (:meth:`Player.answer`: it receives the opponent's last move, None
for white's first move, and returns the line it answers, unjudged). Failures of the link raise
:class:`.transport.LinkError`; a person giving up raises :class:`ResignedError`. The referee judges
every answer; players never see the verdict except through :meth:`Player.game_over`.

A :class:`ProtocolPlayer` matches answers to requests: output that arrives while the referee is not
waiting for it is *out of turn*. During a game (after its ``-W``/``-B``) it raises
:class:`OutOfTurnError` when the player is next asked, before anything is sent; between games it
is only kept. :meth:`Player.take_stray` hands what was kept to the referee's log. After a fault,
:meth:`Player.recover` restarts the program (where the referee started it) or drains the link,
and checks the player with ``-T``; a player that cannot be made ready raises
:class:`PlayerStartError`.
"""

from __future__ import annotations

import abc
import random
import re
import sys
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, TextIO

from .engine import ModelChooser, MoveChooser
from .errors import TraxError
from .notation import Move
from .position import Position, Turn
from .render import render
from .tiles import Colour
from .transport import MAX_STRAY, LinkError, MalformedLineError, Transport

if TYPE_CHECKING:
    from .gamelog import GameRecord

__all__ = [
    "EnginePlayer",
    "FreshProtocolPlayer",
    "HumanPlayer",
    "OutOfTurnError",
    "Player",
    "PlayerStartError",
    "ProtocolPlayer",
    "ResignedError",
    "search_text",
    "show_output",
]

#: What an answer to ``-T`` looks like (the contests' codes are two characters).
TEAM_CODE = re.compile(r"^[A-Za-z0-9_]{1,8}$")


class ResignedError(TraxError):
    """The player gave up (a person typing ``resign``, or the end of their input)."""


class OutOfTurnError(LinkError):
    """The player sent output during a game while nobody was waiting for it."""

    def __init__(self, name: str, lines: list[bytes]) -> None:
        self.lines = lines
        super().__init__(f"{name}: output out of turn: {show_output(lines)}")


class PlayerStartError(TraxError):
    """A player cannot be started or made ready again: the match cannot go on."""


def show_output(lines: list[bytes], limit: int = 120) -> str:
    """Lines a player sent, for a log: each as a quoted string, cut after ``limit`` characters."""
    text = " ".join(repr(line.decode("ascii", "backslashreplace")) for line in lines)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def search_text(figures: dict | None) -> str | None:
    """A player's ``last_search`` in words (``depth 6, 1,234 nodes, 20,000 clocks``: those it
    has), or None without figures."""
    if not figures:
        return None
    parts = []
    if figures.get("depth"):
        parts.append(f"depth {figures['depth']}")
    if figures.get("nodes") is not None:
        parts.append(f"{figures['nodes']:,} nodes")
    if figures.get("clocks") is not None:
        parts.append(f"{figures['clocks']:,} clocks")
    return ", ".join(parts) or None


class Player(abc.ABC):
    """One side of a match. ``name`` labels it in logs; ``timed`` players get the time limit.
    ``notice`` (None: none) says how the player compares with a real board, for a person about
    to play it; ``last_search`` (None: none) the figures of its last answer's search (``depth``,
    ``nodes``, ``clocks``: those it knows), which ``trax web`` shows."""

    timed = True
    notice: str | None = None
    last_search: dict | None = None

    def __init__(self, name: str) -> None:
        self.name = name

    def team_code(self, timeout: float | None) -> str:
        """The answer to ``-T`` (the player's two-character code)."""
        return self.name

    @abc.abstractmethod
    def new_game(self, colour: Colour) -> None:
        """A new game starts with this player as ``colour`` (``-W`` or ``-B``)."""

    @abc.abstractmethod
    def answer(self, move: str | None, timeout: float | None) -> str:
        """Receive the opponent's ``move`` (None before white's first) and return the reply."""

    def game_over(self, result: GameRecord) -> None:  # noqa: B027 (optional hook)
        """The referee's verdict; nothing is sent to protocol players."""

    def take_stray(self) -> list[bytes]:
        """Output received out of turn and not yet reported (see the module's docstring)."""
        return []

    def recover(self) -> None:  # noqa: B027 (optional hook)
        """Get ready for the next game after a fault of this player (see :class:`ProtocolPlayer`).

        Raises :class:`PlayerStartError` if the player cannot be made ready.
        """

    def prepare_game(self) -> None:  # noqa: B027 (optional hook)
        """Called by a series before each game (after :meth:`recover`, if that was due); raises
        :class:`PlayerStartError` if the player cannot be made ready for it."""

    def interrupt(self) -> None:  # noqa: B027 (optional hook)
        """End at once what the player does, from another thread (on Ctrl-C, for a series
        played by several pairs): a program is ended, so that its game ends too."""

    def reseed(self, seed: str | None) -> None:  # noqa: B027 (optional hook)
        """Vary the openings of the next game by ``seed`` (None: the player's own default)."""

    def close(self) -> None:  # noqa: B027 (optional hook)
        """Release the player's resources."""

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.name}>"


class ProtocolPlayer(Player):
    """A board or program that speaks the contest protocol over ``transport``.

    ``restart`` (None if the player cannot be restarted, e.g. a board) gives a fresh transport to
    a newly started program; ``startup`` is the time it may take to answer ``-T``. ``settle`` is
    how long to wait, after a game lost by timeout, for the late answer (kept as out-of-turn
    output of that game).
    """

    def __init__(
        self,
        transport: Transport,
        name: str | None = None,
        settle: float = 1.0,
        restart: Callable[[], Transport] | None = None,
        startup: float = 10.0,
    ) -> None:
        super().__init__(name or transport.name)
        self.transport = transport
        self.settle = settle
        self.restart = restart
        self.startup = startup
        self.colour: Colour | None = None
        self._stray: list[bytes] = []

    def take_stray(self) -> list[bytes]:
        self._keep(self.transport.take_stray())
        stray, self._stray = self._stray, []
        return stray

    def _keep(self, lines: list[bytes]) -> None:
        """Keep stray ``lines`` for the log, at most ``MAX_STRAY`` (the last one says how many
        more there were)."""
        room = MAX_STRAY - len(self._stray)
        if room > 0:
            self._stray.extend(lines[:room])
        if len(lines) > max(room, 0):
            self._stray[MAX_STRAY:] = [b"[more lines]"]

    def team_code(self, timeout: float | None) -> str:
        start = time.monotonic()
        self._keep(self.transport.take_stray())
        self.transport.send_line("-T")
        return self.transport.read_line(_remaining(start, timeout))

    def wait_ready(self, timeout: float) -> None:
        """Send ``-T`` and wait up to ``timeout`` s for an answer that looks like a team code, so
        that a program's start-up time is not charged to its first move (contest players start
        before the referee). Other lines before it (a banner, a late move) are kept as stray."""
        start = time.monotonic()
        self.transport.send_line("-T")
        while True:
            try:
                line = self.transport.read_line(_remaining(start, timeout))
            except MalformedLineError as error:
                self._keep([error.raw])
                continue
            if TEAM_CODE.match(line):
                return
            self._keep([line.encode("ascii")])

    def new_game(self, colour: Colour) -> None:
        self.colour = colour
        self._keep(self.transport.take_stray())  # between games: kept for the log, ignored
        self.transport.send_line("-W" if colour is Colour.WHITE else "-B")

    def game_over(self, result: GameRecord) -> None:
        """After losing by timeout, wait up to ``settle`` s for the late answer and keep it as
        out-of-turn output of this game."""
        if result.reason == "timeout" and result.loser is self.colour and self.settle > 0:
            try:
                self._keep([self.transport.read_line(self.settle).encode("ascii")])
            except MalformedLineError as error:
                self._keep([error.raw])
            except LinkError:
                pass

    def answer(self, move: str | None, timeout: float | None) -> str:
        """Send ``move`` and read the answer; anything that came before the request is out of
        turn (white's first request is the ``-W`` that :meth:`new_game` sent)."""
        start = time.monotonic()
        if move is not None:
            stray = self.transport.take_stray()
            if stray:
                raise OutOfTurnError(self.name, stray)
            self.transport.send_line(move)
        return self.transport.read_line(_remaining(start, timeout))

    def recover(self) -> None:
        """Restart the program (ending the old one's whole process group), or, for a link that
        cannot be restarted, drop what waits on it; then check the player answers ``-T``."""
        if self.restart is not None:
            self.transport.abort()
            try:
                self.transport = self.restart()
            except LinkError as error:
                raise PlayerStartError(f"{self.name} cannot be restarted: {error}") from None
        else:
            self._keep(self.transport.take_stray())
        try:
            self.wait_ready(self.startup)
        except LinkError as error:
            raise PlayerStartError(f"{self.name} did not answer -T: {error}") from None
        self._keep(self.transport.take_stray())

    def interrupt(self) -> None:
        self.transport.interrupt()

    def close(self) -> None:
        self.transport.close()


class FreshProtocolPlayer(ProtocolPlayer):
    """A program that plays one game per process, started afresh for every game.

    Some contest engines (KizuNa among them) exit after a game they saw end, and one that did not
    see its game end (the referee sends nothing when a game ends) takes the next ``-W``/``-B`` for
    a move. Before each game after its first (:meth:`prepare_game`), this player ends the program
    of the last game (what it sent since is kept for the log), starts a fresh one and waits up
    to ``startup`` s for its ``-T`` answer, so that no start-up is charged to a move.
    ``restart`` starts the program.
    """

    def __init__(
        self,
        transport: Transport,
        restart: Callable[[], Transport],
        name: str | None = None,
        settle: float = 1.0,
        startup: float = 10.0,
    ) -> None:
        super().__init__(transport, name, settle=settle, restart=restart, startup=startup)
        self._played = False

    def game_over(self, result: GameRecord) -> None:
        super().game_over(result)
        self._played = True

    def prepare_game(self) -> None:
        if not self._played:
            return
        self._keep(self.transport.take_stray())
        self.transport.close()
        try:
            self.transport = self.restart()
            self.wait_ready(self.startup)
        except LinkError as error:
            raise PlayerStartError(
                f"{self.name} cannot be started for the next game: {error}"
            ) from None
        self._played = False

    def recover(self) -> None:
        super().recover()
        self._played = False


def _remaining(start: float, timeout: float | None) -> float | None:
    return None if timeout is None else max(0.0, timeout - (time.monotonic() - start))


class EnginePlayer(Player):
    """An engine in-process: the software search at the chooser's budget, or the board's
    search through its model (a :class:`.engine.ModelChooser`)."""

    def __init__(
        self, chooser: MoveChooser | ModelChooser | None = None, name: str = "ref"
    ) -> None:
        super().__init__(name)
        self.chooser = chooser or MoveChooser()
        self.position = Position()

    def reseed(self, seed: str | None) -> None:
        self.chooser.random = None if seed is None else random.Random(seed)

    def new_game(self, colour: Colour) -> None:
        self.position = Position()

    def answer(self, move: str | None, timeout: float | None) -> str:
        if move is not None:
            self.position.play(move)
        result = self.chooser.choose(self.position)
        self.position.play(result.move)
        self.last_search = {"depth": result.depth, "nodes": result.nodes}
        return str(result.move)


HELP = """\
Enter a move in Trax notation: a column (@ A B ...), a row (0 1 2 ...) and a tile (+ / \\),
read off the labels of the diagram, e.g. @0+ (first move), B1/ or A0\\.
Commands: 'moves' lists the legal moves, 'resign' gives up, 'help' shows this."""


class HumanPlayer(Player):
    """A person at a terminal: sees the position, types moves, is told every mistake and retries.

    The diagram is coloured when ``colour`` is true (default: when ``output`` is a terminal).
    The end of ``input`` or ``resign`` raises :class:`ResignedError`. Not timed.
    ``opponent_search`` (None: none) gives the opponent's ``last_search`` figures, shown beside
    each of its moves (``board played B1/ (depth 6, 1,234 nodes)``).
    """

    timed = False

    def __init__(
        self,
        name: str = "you",
        input: TextIO | None = None,
        output: TextIO | None = None,
        colour: bool | None = None,
        opponent: str = "opponent",
        opponent_search: Callable[[], dict | None] | None = None,
    ) -> None:
        super().__init__(name)
        self.input = input or sys.stdin
        self.output = output or sys.stdout
        self.colour = self.output.isatty() if colour is None else colour
        self.opponent = opponent
        self.opponent_search = opponent_search
        self.position = Position()
        self.side = Colour.WHITE

    def _say(self, text: str = "") -> None:
        print(text, file=self.output, flush=True)

    def new_game(self, colour: Colour) -> None:
        self.position = Position()
        self.side = colour
        first = "you move first" if colour is Colour.WHITE else f"{self.opponent} moves first"
        self._say(f"New game: you play {colour.word} ({first}).")

    def answer(self, move: str | None, timeout: float | None) -> str:
        if move is not None:
            figures = search_text(self.opponent_search()) if self.opponent_search else None
            self._show_turn(self.position.play(move), self.opponent, figures)
        self._say(render(self.position, colour=self.colour))
        while True:
            self.output.write(f"{self.side.word} to move> ")
            self.output.flush()
            text = self.input.readline()
            if not text:
                raise ResignedError(f"{self.name} left the game (end of input)")
            text = text.strip()
            if not text:
                continue
            if text.lower() in ("help", "?"):
                self._say(HELP)
                continue
            if text.lower() == "moves":
                self._say(" ".join(str(m) for m in self.position.legal_moves()))
                continue
            if text.lower() in ("resign", "quit"):
                raise ResignedError(f"{self.name} resigned")
            try:
                turn = self.position.play(Move.parse(text))
            except TraxError as error:
                self._say(f"{error}; try again ('help' explains moves)")
                continue
            self._show_turn(turn, "you")
            return text

    def _show_turn(self, turn: Turn, who: str, figures: str | None = None) -> None:
        self._say(f"{who} played {turn.move}" + (f" ({figures})" if figures else ""))
        if turn.forced:
            cells = " ".join(
                str(self.position.move_at(cell, tile.symbol)) for cell, tile in turn.forced
            )
            self._say(f"  forced plays (in the diagram's coordinates): {cells}")

    def game_over(self, result: GameRecord) -> None:
        for move in result.moves[self.position.ply :]:
            self._show_turn(self.position.play(move), self.opponent)
        self._say(render(self.position, colour=self.colour))
        self._say(f"Game over: {result.describe()}")
        if result.winner is self.side:
            self._say("You win!")
        elif result.winner is not None:
            self._say("You lose.")
