"""The exceptions of the reference engine, caught once at the command line."""

from __future__ import annotations

__all__ = ["IllegalMoveError", "InvalidMoveError", "TraxError"]


class TraxError(ValueError):
    """Base of every error the engine raises about moves and positions."""


class InvalidMoveError(TraxError):
    """Text that is not a move in Trax notation (malformed, whatever the position)."""

    def __init__(self, text: str, index: int, reason: str) -> None:
        self.text = text
        self.index = index
        self.reason = reason
        super().__init__(f"invalid move {text!r}: {reason} at character {index + 1}")


class IllegalMoveError(TraxError):
    """A well-formed move that the rules forbid in the position it is played in."""

    def __init__(self, move: object, reason: str) -> None:
        self.move = move
        self.reason = reason
        super().__init__(f"illegal move {move}: {reason}")
