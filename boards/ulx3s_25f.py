"""ULX3S with an ECP5 LFE5U-25F (CABGA381): the 85F's board with about a quarter of its logic.

=================  ==========================================================================
player             the 85F's player (boards/ulx3s_85f.py) with two search engines on one
                   engine's logic (``engines`` 2, ``threads`` 2: the logic C-slowed by two and
                   cut in two stages, ``retime``; docs/cslow.md) and a table of 4,096 best moves
                   and their values (``move_table``; the part's 56 DP16KD hold the two engines'
                   39 and the table's 14): a 64 x 64 torus, iterations up to 8 plies, the
                   evaluation by the tracks' shapes, the attack cut and newest first; the table
                   sits outside the engines (``shared_table``), its answers registered on
                   arrival. Each engine searches as one of the 85F's, clock for clock at half
                   the design's clock; the two complete depth 6 in 0.60 of one engine's ticks
                   (the model: 328,838 against 545,100 with the table of 8,192 the one engine
                   had), 1.33 times as soon as the one engine at 30 MHz did. It ponders, as the
                   85F's (``ponder``, docs/ponder.md)
built              at the fifty-fourth session (``python -m trax_fpga.boards.build ulx3s_25f``):
                   16534 of 24288 TRELLIS_COMB, 68%; 6506 FFs; 54 of 56 DP16KD; 48.36 MHz
                   routed against the 48 MHz clock, met, bitstream; 335 s (at 50 MHz four
                   seeds routed at 48.5 to 49.1 MHz, so the file asks for 48). At 45 MHz
                   (fifty-third session): 16512, 68%; 46.93 MHz. The one engine before
                   (fifty-first session, at 30 MHz from the PLL): 15779, 65%; 30.93 MHz. The
                   earlier builds: docs/boards.md, "The board files' builds (history)"
clock              25 MHz oscillator on G2, through the ECP5's PLL (EHXPLLL) at 48 MHz: each
                   engine at 24 MHz (:mod:`.clocks`; 6.0 M nodes a second at their peak,
                   against the one engine's 3.8 M at 30 MHz)
UART               FTDI FT231X on the USB port (US1): FPGA rx M1, tx L4; 8N1, 19200 baud
LEDs               led 0 (B2) playing, led 1 (C2) thinking, led 2 (C1) colour, led 3 (D2) error
programming        ``openFPGALoader -b ulx3s build/ulx3s_25f/top.bit`` (SRAM; add ``-f`` for flash)
=================  ==========================================================================
"""

import dataclasses

from amaranth_boards.ulx3s import ULX3S_25F_Platform

from .ulx3s_85f import BOARD as ULX3S_85F

__all__ = ["BOARD"]

BOARD = dataclasses.replace(
    ULX3S_85F,
    name="ulx3s_25f",
    title="ULX3S (ECP5 LFE5U-25F)",
    platform=ULX3S_25F_Platform,
    program="openFPGALoader -b ulx3s build/ulx3s_25f/top.bit",
    pll_hz=48e6,
    player_options={
        "ponder": True,  # as the 85F's (docs/ponder.md)
        "search_options": {
            **ULX3S_85F.player_options["search_options"],
            "engines": 2,
            "threads": 2,
            "retime": True,
            "move_table": 4096,
        },
    },
)
