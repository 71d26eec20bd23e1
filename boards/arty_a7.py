"""Arty A7-100T (Artix-7 XC7A100T, CSG324, speed -1L): build plan for Vivado (not run here).

Artix-7 is a part allowed by the FPT2016 Trax design competition. Vivado is not available on
these machines, so only the build plan (Verilog, XDC, Tcl and the script that runs Vivado) is
generated; the torus is an estimate, not a measured fit.

=================  ==========================================================================
torus              the complete player and the block-RAM rules core alone (``--top track``) on
                   64 x 64 cells (an estimate: the board's memories need about 250 kbit of the
                   part's 4.9 Mbit, unverified)
clock              100 MHz oscillator on E3, used directly (no MMCM); reset button C2
UART               FT2232HQ channel B on the USB port: FPGA rx A9, tx D10; 8N1, 19200 baud
LEDs               LD4 (H5) playing, LD5 (J5) thinking, LD6 (T9) colour, LD7 (T10) error
programming        ``openFPGALoader -b arty_a7_100t build/arty_a7/top.bit``, after running
                   ``build_top.sh`` in ``build/arty_a7/`` with Vivado on the PATH
=================  ==========================================================================
"""

from amaranth_boards.arty_a7 import ArtyA7_100Platform

from .spec import BoardSpec

__all__ = ["BOARD"]

BOARD = BoardSpec(
    name="arty_a7",
    title="Arty A7-100T (Artix-7 XC7A100T)",
    platform=ArtyA7_100Platform,
    torus=(64, 64),
    clock_hz=100e6,
    uart=("uart", 0),
    uart_pins={"rx": "A9", "tx": "D10"},
    leds=(("led", 0), ("led", 1), ("led", 2), ("led", 3)),
    led_pins=("H5", "J5", "T9", "T10"),
    program="openFPGALoader -b arty_a7_100t build/arty_a7/top.bit",
    toolchain="vivado",
)
