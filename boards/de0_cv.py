"""Terasic DE0-CV (Cyclone V 5CEBA4F23C7): build plan for Quartus (not run here).

Cyclone is a family allowed by the FPT2016 Trax design competition. Quartus is not available on
these machines, so only the build plan (Verilog, QSF, SDC and the script that runs Quartus) is
generated; the torus is an estimate, not a measured fit.

The DE0-CV has no USB-serial bridge: the UART is on the GPIO 0 header (JP1), for a 3.3 V
USB-serial adapter (its TXD to pin 1, its RXD to pin 2, GND to pin 12).

=================  ==========================================================================
torus              the complete player and the block-RAM rules core alone (``--top track``) on
                   64 x 64 cells (an estimate: the board's memories need about 250 kbit of the
                   part's 3 Mbit, unverified)
clock              50 MHz oscillator CLOCK_50 on M9, used directly (no PLL)
UART               GPIO 0 (JP1) pin 1 = GPIO_0[0] (N16) rx, pin 2 = GPIO_0[1] (B16) tx; 3.3-V LVTTL,
                   8N1, 19200 baud
LEDs               LEDR0 (AA2) playing, LEDR1 (AA1) thinking, LEDR2 (W2) colour, LEDR3 (Y3) error
programming        ``quartus_pgm --mode JTAG --operation "P;build/de0_cv/top.sof"``, after running
                   ``build_top.sh`` in ``build/de0_cv/`` with Quartus on the PATH
=================  ==========================================================================
"""

from amaranth.build import Attrs, Pins, Resource, Subsignal
from amaranth_boards.de0_cv import DE0CVPlatform

from .spec import BoardSpec

__all__ = ["BOARD"]

#: The UART on the GPIO 0 header, for a 3.3 V USB-serial adapter.
GPIO_UART = Resource(
    "gpio_uart",
    0,
    Subsignal("rx", Pins("1", dir="i", conn=("j", 1))),
    Subsignal("tx", Pins("2", dir="o", conn=("j", 1))),
    Attrs(io_standard="3.3-V LVTTL"),
)


def _platform() -> DE0CVPlatform:
    platform = DE0CVPlatform()
    platform.add_resources([GPIO_UART])
    return platform


BOARD = BoardSpec(
    name="de0_cv",
    title="DE0-CV (Cyclone V 5CEBA4)",
    platform=_platform,
    torus=(64, 64),
    clock_hz=50e6,
    uart=("gpio_uart", 0),
    uart_pins={"rx": "N16", "tx": "B16"},
    leds=(("led", 0), ("led", 1), ("led", 2), ("led", 3)),
    led_pins=("AA2", "AA1", "W2", "Y3"),
    program='quartus_pgm --mode JTAG --operation "P;build/de0_cv/top.sof"',
    toolchain="quartus",
)
