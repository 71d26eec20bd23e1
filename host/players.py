"""Players as the referee sees them: a board or program over a link, the engine, a person.

A :class:`Player` is told a game starts (:meth:`Player.new_game`, the protocol's ``-W``/``-B``),
then is asked for each answer (:meth:`Player.answer`: it receives the opponent's last move, None
for white's first move, and returns the line it answers, unjudged). Failures of the link raise
:class:`.transport.LinkError`; a person giving up raises :class:`ResignedError`. The referee judges
every answer; players never see the verdict except through :meth:`Player.game_over`.
"""

from __future__ import annotations

import abc
import contextlib
import sys
import time
from typing import TYPE_CHECKING, TextIO

from .engine import MoveChooser
from .errors import TraxError
from .notation import Move
from .position import Position, Turn
from .render import render
from .tiles import Colour
from .transport import LinkError, Transport

if TYPE_CHECKING:
    from .gamelog import GameRecord

__all__ = ["EnginePlayer", "HumanPlayer", "Player", "ProtocolPlayer", "ResignedError"]


class ResignedError(TraxError):
    """The player gave up (a person typing ``resign``, or the end of their input)."""


class Player(abc.ABC):
    """One side of a match. ``name`` labels it in logs; ``timed`` players get the time limit."""

    timed = True

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

    def close(self) -> None:  # noqa: B027 (optional hook)
        """Release the player's resources."""

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.name}>"


class ProtocolPlayer(Player):
    """A board or program that speaks the contest protocol over ``transport``."""

    def __init__(self, transport: Transport, name: str | None = None, settle: float = 1.0) -> None:
        super().__init__(name or transport.name)
        self.transport = transport
        self.settle = settle
        self.colour: Colour | None = None

    def team_code(self, timeout: float | None) -> str:
        start = time.monotonic()
        self.transport.discard_input()
        self.transport.send_line("-T")
        return self.transport.read_line(_remaining(start, timeout))

    def wait_ready(self, timeout: float) -> None:
        """Send ``-T`` and wait up to ``timeout`` s for any answer, so that a program's start-up
        time is not charged to its first move (contest players start before the referee)."""
        self.transport.send_line("-T")
        self.transport.read_line(timeout)

    def new_game(self, colour: Colour) -> None:
        self.colour = colour
        self.transport.discard_input()  # a late answer to the previous game is no answer here
        self.transport.send_line("-W" if colour is Colour.WHITE else "-B")

    def game_over(self, result: GameRecord) -> None:
        """After losing by timeout, wait up to ``settle`` s for the late answer and drop it, so
        that it is not taken for the answer to the next game's first line."""
        if result.reason == "timeout" and result.loser is self.colour and self.settle > 0:
            with contextlib.suppress(LinkError):
                self.transport.read_line(self.settle)
            self.transport.discard_input()

    def answer(self, move: str | None, timeout: float | None) -> str:
        start = time.monotonic()
        if move is not None:
            self.transport.send_line(move)
        return self.transport.read_line(_remaining(start, timeout))

    def close(self) -> None:
        self.transport.close()


def _remaining(start: float, timeout: float | None) -> float | None:
    return None if timeout is None else max(0.0, timeout - (time.monotonic() - start))


class EnginePlayer(Player):
    """The reference engine in-process: the software search at the chooser's budget."""

    def __init__(self, chooser: MoveChooser | None = None, name: str = "ref") -> None:
        super().__init__(name)
        self.chooser = chooser or MoveChooser()
        self.position = Position()

    def new_game(self, colour: Colour) -> None:
        self.position = Position()

    def answer(self, move: str | None, timeout: float | None) -> str:
        if move is not None:
            self.position.play(move)
        result = self.chooser.choose(self.position)
        self.position.play(result.move)
        return str(result.move)


HELP = """\
Enter a move in Trax notation: a column (@ A B ...), a row (0 1 2 ...) and a tile (+ / \\),
read off the labels of the diagram, e.g. @0+ (first move), B1/ or A0\\.
Commands: 'moves' lists the legal moves, 'resign' gives up, 'help' shows this."""


class HumanPlayer(Player):
    """A person at a terminal: sees the position, types moves, is told every mistake and retries.

    The diagram is coloured when ``colour`` is true (default: when ``output`` is a terminal).
    The end of ``input`` or ``resign`` raises :class:`ResignedError`. Not timed.
    """

    timed = False

    def __init__(
        self,
        name: str = "you",
        input: TextIO | None = None,
        output: TextIO | None = None,
        colour: bool | None = None,
        opponent: str = "opponent",
    ) -> None:
        super().__init__(name)
        self.input = input or sys.stdin
        self.output = output or sys.stdout
        self.colour = self.output.isatty() if colour is None else colour
        self.opponent = opponent
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
            self._show_turn(self.position.play(move), self.opponent)
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

    def _show_turn(self, turn: Turn, who: str) -> None:
        self._say(f"{who} played {turn.move}")
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
