"""ULX3S with an ECP5 LFE5U-85F (CABGA381, speed 6): the flagship board.

=================  ==========================================================================
window             player 10 x 10 cells (built at commit 41ee13d: 27064 of 83640 LUTs, 32%;
                   2997 FFs; 31.2 MHz routed against the 25 MHz clock (23.2 estimated after
                   placement); about 30 min; nextpnr's placement spread with
                   ``--placer-heap-beta 0.6``, see ``overrides``; from before the search's
                   evaluation, not yet confirmed with it: 38% of the LUTs, 22.7 MHz after
                   placement, routing unfinished); the rules core alone
                   12 x 12 cells (placed at 29% of the LUTs, 26.4 MHz estimated; routing not
                   finished here; 20 x 20 places at 88% but only reaches 18.4 MHz)
clock              25 MHz oscillator on G2, used directly (no PLL)
UART               FTDI FT231X on the USB port (US1): FPGA rx M1, tx L4; 8N1, 19200 baud
LEDs               led 0 (B2) playing, led 1 (C2) thinking, led 2 (C1) colour, led 3 (D2) error
programming        ``openFPGALoader -b ulx3s build/ulx3s_85f/top.bit`` (SRAM; add ``-f`` for
                   flash)
=================  ==========================================================================
"""

from amaranth_boards.ulx3s import ULX3S_85F_Platform

from .spec import BoardSpec

__all__ = ["BOARD"]

BOARD = BoardSpec(
    name="ulx3s_85f",
    title="ULX3S (ECP5 LFE5U-85F)",
    platform=ULX3S_85F_Platform,
    window=(10, 10),
    rules_window=(12, 12),
    clock_hz=25e6,
    uart=("uart", 0),
    uart_pins={"rx": "M1", "tx": "L4"},
    leds=(("led", 0), ("led", 1), ("led", 2), ("led", 3)),
    led_pins=("B2", "C2", "C1", "D2"),
    program="openFPGALoader -b ulx3s build/ulx3s_85f/top.bit",
    # At 10 x 10 nextpnr's default placement (density 0.9) left router2 stuck at 7400 overused
    # wires after 16 iterations; spread to 0.6, router1 routed it in 28 min.
    overrides={"nextpnr_opts": "--placer-heap-beta 0.6"},
)
