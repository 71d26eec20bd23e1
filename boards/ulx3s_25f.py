"""ULX3S with an ECP5 LFE5U-25F (CABGA381): the 85F's board with about a quarter of its logic.

=================  ==========================================================================
player             the 85F's player (boards/ulx3s_85f.py) with one search engine and a table of
                   8,192 best moves and their values (``move_table``; the part's 56 DP16KD hold
                   the engine's 22 and the table's 28, where 16,384 would need 56): a 64 x 64
                   torus, iterations up to 8 plies, the evaluation by the tracks' shapes, the
                   attack cut and newest first. The table sits outside the engine
                   (``shared_table``), its answers registered on arrival, as the 85F's engines
                   have it: with the table read straight into the search's decision, one engine
                   failed the 25 MHz clock (docs/area.md). It searches as one of the 85F's
                   engines, about a sixth of its nodes; it ponders, as the 85F's (``ponder``,
                   docs/ponder.md)
built              at the fifty-first session (``python -m trax_fpga.boards.build ulx3s_25f``,
                   commit b74ce09's gateware, the PLL at 30 MHz): 15779 of 24288 TRELLIS_COMB,
                   65%; 2492 FFs; 51 of 56 DP16KD; 30.93 MHz routed against the 30 MHz clock,
                   met, bitstream; 290 s. On the oscillator's 25 MHz (fiftieth session): 15332,
                   63%; 32.47 MHz routed. The earlier builds: docs/boards.md, "The board files'
                   builds (history)"
clock              25 MHz oscillator on G2, through the ECP5's PLL (EHXPLLL) at 30 MHz: the
                   one engine routes faster than the 25 MHz the 85F's six run at
                   (:mod:`.clocks`; 20 % more nodes a second than on the oscillator's clock)
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
    pll_hz=30e6,
    player_options={
        "ponder": True,  # as the 85F's (docs/ponder.md)
        "search_options": {
            **ULX3S_85F.player_options["search_options"],
            "engines": 1,
            "move_table": 8192,
        },
    },
)
