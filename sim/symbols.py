"""The one conversion between the reference engine's symbols and the gateware's.

The gateware's :class:`~trax_fpga.hdl.types.Symbol` is its own (``hdl`` imports nothing from
``host``); the simulation drivers, the benches and the tests, which speak to both, convert here.
"""

from __future__ import annotations

from trax_fpga.hdl.types import Symbol
from trax_fpga.host import tiles

__all__ = ["gateware_symbol", "host_symbol"]

#: The reference engine's symbols in the order of the gateware's values.
_HOST_ORDER = (tiles.Symbol.CROSS, tiles.Symbol.SLASH, tiles.Symbol.BACKSLASH)


def gateware_symbol(symbol: tiles.Symbol) -> Symbol:
    """The gateware's symbol for the reference engine's."""
    return Symbol(_HOST_ORDER.index(symbol))


def host_symbol(symbol: Symbol | int) -> tiles.Symbol:
    """The reference engine's symbol for the gateware's (or for its value)."""
    return _HOST_ORDER[Symbol(symbol).value]
