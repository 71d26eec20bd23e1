"""Judging recorded games: the verdict ``trax judge`` prints for each game line.

A game line holds moves separated by spaces; it may carry other fields before a last ``|`` (as in
the project's records), and only the text after the last ``|`` is the moves. The verdict is one of
``white-loop``, ``white-line``, ``black-loop``, ``black-line``, ``none`` (no win yet), ``draw``
(8x8 only), ``illegal <k>`` or ``invalid <k>`` (the 1-based number of the first illegal or
malformed move; a move after the game is over is illegal).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator

from .errors import IllegalMoveError, InvalidMoveError
from .notation import Move
from .position import Position, Variant

__all__ = ["game_moves", "judge_game", "judge_lines"]


def game_moves(line: str) -> list[str] | None:
    """The move texts of a game line, or None for a blank or comment line."""
    stripped = line.strip()
    if not stripped or stripped.startswith("#"):
        return None
    return stripped.rsplit("|", 1)[-1].split()


def judge_game(moves: Iterable[str], variant: Variant = Variant.UNLIMITED) -> str:
    """The verdict on one game given as move texts, by the reference engine."""
    position = Position(variant)
    for number, text in enumerate(moves, start=1):
        try:
            move = Move.parse(text)
        except InvalidMoveError:
            return f"invalid {number}"
        try:
            position.play(move)
        except IllegalMoveError:
            return f"illegal {number}"
    return str(position.outcome) if position.outcome else "none"


Judge = Callable[[list[str]], str]


def judge_lines(lines: Iterable[str], judge: Judge) -> Iterator[str]:
    """One verdict per game line; blank and comment lines give nothing."""
    for line in lines:
        moves = game_moves(line)
        if moves is not None:
            yield judge(moves)
