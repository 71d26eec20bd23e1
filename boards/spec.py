"""What a board file states: platform, torus, clock, UART, LEDs, and how to program it.

Every ``boards/<name>.py`` defines ``BOARD``, a :class:`BoardSpec`; ``tests/boards`` check that
what it states (clock frequency, pins) is what its amaranth-boards platform says.
"""

from collections.abc import Callable
from dataclasses import dataclass, field

from amaranth.build import Platform

__all__ = ["LED_ROLES", "BoardSpec"]

#: The player's LEDs, in the order of the bits of its ``leds`` port.
LED_ROLES = ("playing", "thinking", "colour", "error")


@dataclass(frozen=True)
class BoardSpec:
    """A board the player is built for.

    ``platform()`` makes a fresh amaranth-boards platform with any resources the board file adds
    (a UART on a header, an LED board). ``uart`` and ``leds`` name platform resources as
    ``(name, number)``; ``leds`` holds one entry per :data:`LED_ROLES` role, ``None`` when the
    board has no LED for it. ``uart_pins`` and ``led_pins`` are the physical pins, as stated in
    the board file's table (checked against the platform by the tests). ``toolchain`` is
    ``"open"`` (built here with YoWASP) or the vendor tool whose build plan is only generated.
    ``torus`` is the C x R torus (powers of two) of the block-RAM board of the complete player
    (:class:`~trax_fpga.hdl.player.Player`, one board for the game and the search) and of the
    rules core alone (``--top track``). ``player_options`` are more keyword arguments of the
    complete player, e.g. ``{"search_options": {"max_depth": 3, "evaluation": False}}``.
    ``clock_hz`` is the oscillator's; ``pll_hz``, when given, is the design's clock, made from
    it by the part's PLL (:mod:`.clocks`), else the design runs on the oscillator's clock.
    """

    name: str
    title: str
    platform: Callable[[], Platform]
    torus: tuple[int, int]
    clock_hz: float
    uart: tuple[str, int]
    uart_pins: dict[str, str]
    leds: tuple[tuple[str, int] | None, ...]
    led_pins: tuple[str | None, ...]
    program: str
    toolchain: str = "open"
    baud: int = 19200
    overrides: dict[str, str] = field(default_factory=dict)
    player_options: dict = field(default_factory=dict)
    pll_hz: float | None = None

    def __post_init__(self):
        if len(self.leds) != len(LED_ROLES) or len(self.led_pins) != len(LED_ROLES):
            raise ValueError(f"board {self.name}: one LED entry per role {LED_ROLES} needed")
        if self.toolchain not in ("open", "vivado", "quartus"):
            raise ValueError(f"board {self.name}: unknown toolchain {self.toolchain!r}")

    @property
    def design_hz(self) -> float:
        """The clock the design runs on: the PLL's output, or the oscillator's."""
        return self.pll_hz or self.clock_hz

    @property
    def plan_only(self) -> bool:
        """The vendor tools are not available here: only the build plan is generated."""
        return self.toolchain != "open"
