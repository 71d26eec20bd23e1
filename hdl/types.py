"""Small enums shared by the gateware blocks, so that every block names things the same way."""

from amaranth.lib import enum

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
