"""What a board file states: platform, window, clock, UART, LEDs, and how to program it.

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
    ``window`` is the complete player's window, ``rules_window`` the rules core's alone and
    ``track_torus`` the block-RAM rules core's torus (see :func:`window_for`).
    ``player_options`` are keyword arguments of the complete player
    (:class:`~trax_fpga.hdl.player.Player`), e.g. ``{"rules_options": {"win_serial": True}}``
    on a part short of logic.
    """

    name: str
    title: str
    platform: Callable[[], Platform]
    window: tuple[int, int]
    rules_window: tuple[int, int]
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
    track_torus: tuple[int, int] = (32, 32)

    def __post_init__(self):
        if len(self.leds) != len(LED_ROLES) or len(self.led_pins) != len(LED_ROLES):
            raise ValueError(f"board {self.name}: one LED entry per role {LED_ROLES} needed")
        if self.toolchain not in ("open", "vivado", "quartus"):
            raise ValueError(f"board {self.name}: unknown toolchain {self.toolchain!r}")

    def window_for(self, top: str) -> tuple[int, int]:
        """The default window of design ``top`` (``"player"``, ``"rules"`` or ``"track"``, whose
        window is its torus) on this board."""
        if top == "track":
            return self.track_torus
        return self.rules_window if top == "rules" else self.window

    @property
    def plan_only(self) -> bool:
        """The vendor tools are not available here: only the build plan is generated."""
        return self.toolchain != "open"
