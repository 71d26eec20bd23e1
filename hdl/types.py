"""Small enums shared by the gateware blocks, so that every block names things the same way."""

from __future__ import annotations

from amaranth.lib import enum

from ..host import tiles

__all__ = ["Symbol"]


class Symbol(enum.Enum, shape=2):
    """The tile shape written in notation (``+``, ``/``, ``\\``), as in ``trax_fpga.host.tiles``.

    The members come in the order of the reference engine's ``Symbol``; the value 3 is unused.
    """

    CROSS = 0
    SLASH = 1
    BACKSLASH = 2

    @property
    def char(self) -> str:
        """The notation character of this symbol."""
        return "+/\\"[self.value]

    # The one conversion between the reference engine's symbols and the gateware's.

    @classmethod
    def of(cls, symbol: tiles.Symbol | str) -> Symbol:
        """The gateware's symbol for the reference engine's (or for its character)."""
        if isinstance(symbol, str):
            symbol = tiles.Symbol(symbol)
        return cls(_HOST_ORDER.index(symbol))

    @property
    def host(self) -> tiles.Symbol:
        """The reference engine's symbol for this one."""
        return _HOST_ORDER[self.value]


_HOST_ORDER = (tiles.Symbol.CROSS, tiles.Symbol.SLASH, tiles.Symbol.BACKSLASH)
