"""The board top: a design with ``rx``, ``tx`` and ``leds`` ports bound to a board's pins.

:func:`make_design` makes the design to put on a board: the complete player
(``trax_fpga.hdl.player.Player``, the game and its search on one block-RAM board) or the
block-RAM rules core alone behind a UART (:class:`~trax_fpga.boards.probe.TrackProbe`,
``track``), both with the same pins.
"""

from amaranth import ClockDomain, Elaboratable, Module, Signal
from amaranth.lib import io
from amaranth.lib.cdc import FFSynchronizer

from . import cslow as _cslow  # noqa: F401 (registers the C-slow's logic maker)
from .clocks import Ecp5Pll
from .probe import TrackProbe
from .spec import BoardSpec

__all__ = ["TOPS", "BoardTop", "make_design"]

#: The designs a board can be built with.
TOPS = ("player", "track")

#: How a real board searches: by the clock alone (0.8 s a move, the player's default
#: ``think_time``), no node limit, iterations up to 6 plies (the simulations keep the player's
#: small node budget so that they run fast).
BOARD_SEARCH = {"budget": 2**32 - 1, "search_options": {"max_depth": 6}}


def make_design(
    top: str,
    torus: tuple[int, int],
    clk_freq: float,
    baud: int,
    player_options: dict | None = None,
):
    """The design ``top`` (one of :data:`TOPS`) on a C x R torus (powers of two) at ``clk_freq``
    Hz. ``player_options`` are more keyword arguments of the complete player (``top="player"``);
    its ``search_options`` are added to :data:`BOARD_SEARCH`'s one by one.
    """
    from trax_fpga.hdl.track_board import check_torus

    columns, rows = check_torus(*torus)  # before the design exists (an unused one would warn)
    if top == "player":
        from trax_fpga.hdl.player import Player

        options = {**BOARD_SEARCH, **(player_options or {})}
        options["search_options"] = {
            **BOARD_SEARCH["search_options"],
            **(player_options or {}).get("search_options", {}),
        }
        return Player(columns, rows, clk_freq, baud=baud, **options)
    if top == "track":
        return TrackProbe(columns, rows, clk_freq, baud=baud)
    raise ValueError(f"top must be one of {', '.join(TOPS)}, not {top!r}")


class BoardTop(Elaboratable):
    """``design`` (ports ``rx: In(1)``, ``tx: Out(1)``, ``leds: Out(4)``) on ``spec``'s pins.

    The clock is the platform's default clock (the ``sync`` domain amaranth makes from it), or
    the PLL's made from it when the board file asks for one (``pll_hz``, :mod:`.clocks`). The
    UART receive pin passes through an :class:`FFSynchronizer` before the design (which may
    synchronise it again); LED roles the board lacks are left unconnected.
    """

    def __init__(self, design, spec: BoardSpec):
        self.design = design
        self.spec = spec

    def elaborate(self, platform):
        pll = None
        if self.spec.pll_hz:  # checked before anything is made
            if str(platform.family).lower() != "ecp5":
                raise ValueError(f"board {self.spec.name}: a PLL is only made on the ECP5 here")
            pll = Ecp5Pll(self.spec.clock_hz, self.spec.pll_hz)
        m = Module()
        m.submodules.design = design = self.design
        if pll is not None:
            m.domains.sync = ClockDomain("sync")
            m.submodules.clocks = pll

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
