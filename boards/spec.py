"""What a board file states: platform, window, clock, UART, LEDs, and how to program it.

Every ``boards/<name>.py`` defines ``BOARD``, a :class:`BoardSpec`; ``tests/boards`` check that
what it states (clock frequency, pins) is what its amaranth-boards platform says.
"""

from collections.abc import Callable
from dataclasses import dataclass, field

from amaranth.build import Platform

__all__ = ["LED_ROLES", "PLAYER_BOARDS", "BoardSpec"]

#: The player's LEDs, in the order of the bits of its ``leds`` port.
LED_ROLES = ("playing", "thinking", "colour", "error")

#: The complete player's boards: one block-RAM board (``track``), or per-cell windows (``window``,
#: the first design).
PLAYER_BOARDS = ("track", "window")


@dataclass(frozen=True)
class BoardSpec:
    """A board the player is built for.

    ``platform()`` makes a fresh amaranth-boards platform with any resources the board file adds
    (a UART on a header, an LED board). ``uart`` and ``leds`` name platform resources as
    ``(name, number)``; ``leds`` holds one entry per :data:`LED_ROLES` role, ``None`` when the
    board has no LED for it. ``uart_pins`` and ``led_pins`` are the physical pins, as stated in
    the board file's table (checked against the platform by the tests). ``toolchain`` is
    ``"open"`` (built here with YoWASP) or the vendor tool whose build plan is only generated.
    ``player_board`` is the complete player's board (the ``board`` parameter of
    :class:`~trax_fpga.hdl.player.Player`): ``"track"``, one block-RAM board for the game and the
    search on the C x R torus ``track_torus`` (powers of two), or ``"window"``, the first design
    (a rules core and a search with per-cell logic) on the W x H ``window``. ``rules_window`` is
    the rules core's alone and ``track_torus`` is also the block-RAM rules core's torus (see
    :func:`window_for`). ``player_options`` are more keyword arguments of the complete player,
    e.g. ``{"search_options": {"max_depth": 4}}``, or ``{"rules_options": {"win_serial": True}}``
    for the window player on a part short of logic.
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
    player_board: str = "window"

    def __post_init__(self):
        if len(self.leds) != len(LED_ROLES) or len(self.led_pins) != len(LED_ROLES):
            raise ValueError(f"board {self.name}: one LED entry per role {LED_ROLES} needed")
        if self.toolchain not in ("open", "vivado", "quartus"):
            raise ValueError(f"board {self.name}: unknown toolchain {self.toolchain!r}")
        if self.player_board not in PLAYER_BOARDS:
            raise ValueError(f"board {self.name}: unknown player board {self.player_board!r}")

    def window_for(self, top: str, player_board: str | None = None) -> tuple[int, int]:
        """The default window of design ``top`` (``"player"``, ``"rules"`` or ``"track"``, whose
        window is its torus) on this board; for the player, on ``player_board`` (default: the
        board file's), the torus ``track_torus`` for ``"track"``, ``window`` for ``"window"``."""
        if top == "player":
            top = "track" if (player_board or self.player_board) == "track" else "window"
        if top == "track":
            return self.track_torus
        return self.rules_window if top == "rules" else self.window

    def player_options_for(self, player_board: str | None = None) -> dict:
        """The complete player's keyword arguments on ``player_board`` (default: the board
        file's): ``player_options`` with ``board``. ``player_options`` are the board file's
        choices for its own player board: another board kind gets none of them."""
        board = player_board or self.player_board
        options = self.player_options if board == self.player_board else {}
        return {**options, "board": board}

    @property
    def plan_only(self) -> bool:
        """The vendor tools are not available here: only the build plan is generated."""
        return self.toolchain != "open"
