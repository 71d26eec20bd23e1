"""The board top: a design with ``rx``, ``tx`` and ``leds`` ports bound to a board's pins.

:func:`make_design` makes the design to put on a board: the complete player
(``trax_fpga.hdl.player.Player``, on one block-RAM board or, the first design, on per-cell
windows: its ``board`` option), the rules core alone behind a UART
(:class:`~trax_fpga.boards.probe.RulesProbe`) or the block-RAM rules core alone behind the same
UART (:class:`~trax_fpga.boards.probe.TrackProbe`, ``track``: the window is its torus), all with
the same pins.
"""

import importlib.util

from amaranth import Elaboratable, Module, Signal
from amaranth.lib import io
from amaranth.lib.cdc import FFSynchronizer

from .probe import RulesProbe, TrackProbe
from .spec import BoardSpec

__all__ = ["TOPS", "BoardTop", "make_design", "player_available"]

#: The designs a board can be built with.
TOPS = ("player", "rules", "track")

#: How a real board searches: by the clock alone (half a second per move, the player's default
#: ``think_time``), no node limit, iterations up to 6 plies (the simulations keep the player's
#: small node budget so that they run fast).
BOARD_SEARCH = {"budget": 2**32 - 1, "search_options": {"max_depth": 6}}


def player_available() -> bool:
    """Whether the player and the search it needs (``trax_fpga.hdl.player``, ``.search``) exist."""
    return all(
        importlib.util.find_spec(f"trax_fpga.hdl.{name}") is not None
        for name in ("player", "search")
    )


def make_design(
    top: str,
    window: tuple[int, int],
    clk_freq: float,
    baud: int,
    player_options: dict | None = None,
):
    """The design ``top`` (one of :data:`TOPS`) for a W x H window at ``clk_freq`` Hz (for
    ``track``, a C x R torus: powers of two).

    ``player_options`` are more keyword arguments of the complete player (``top="player"``),
    ``board`` among them (``"track"``: the window is its torus).
    """
    width, height = window
    if top == "player":
        if not player_available():
            raise ValueError("top 'player' needs trax_fpga.hdl.player and .search: not there yet")
        from trax_fpga.hdl.player import Player
        from trax_fpga.hdl.track_board import check_torus

        if (player_options or {}).get("board") == "track":
            check_torus(width, height)  # before the player exists (an unused one would warn)
        return Player(
            width, height, clk_freq, baud=baud, **{**BOARD_SEARCH, **(player_options or {})}
        )
    if top == "rules":
        return RulesProbe(width, height, clk_freq, baud=baud)
    if top == "track":
        return TrackProbe(width, height, clk_freq, baud=baud)
    raise ValueError(f"top must be one of {', '.join(TOPS)}, not {top!r}")


class BoardTop(Elaboratable):
    """``design`` (ports ``rx: In(1)``, ``tx: Out(1)``, ``leds: Out(4)``) on ``spec``'s pins.

    The clock is the platform's default clock (the ``sync`` domain amaranth makes from it). The
    UART receive pin passes through an :class:`FFSynchronizer` before the design (which may
    synchronise it again); LED roles the board lacks are left unconnected.
    """

    def __init__(self, design, spec: BoardSpec):
        self.design = design
        self.spec = spec

    def elaborate(self, platform):
        m = Module()
        m.submodules.design = design = self.design

        uart = platform.request(*self.spec.uart, dir="-")
        m.submodules.rx_buffer = rx_buffer = io.Buffer("i", uart.rx)
        m.submodules.tx_buffer = tx_buffer = io.Buffer("o", uart.tx)
        rx = Signal(init=1)
        m.submodules.rx_sync = FFSynchronizer(rx_buffer.i, rx, init=1)
        m.d.comb += [design.rx.eq(rx), tx_buffer.o.eq(design.tx)]

        for bit, resource in enumerate(self.spec.leds):
            if resource is None:
                continue
            led = platform.request(*resource, dir="-")
            m.submodules[f"led_{bit}"] = buffer = io.Buffer("o", led)
            m.d.comb += buffer.o.eq(design.leds[bit])
        return m
