"""ULX3S with an ECP5 LFE5U-45F (CABGA381): the 85F's board with about half its logic.

=================  ==========================================================================
player             the 85F's player (boards/ulx3s_85f.py) with 3 search engines (``engines``)
                   sharing a table of 8,192 best moves and their values (``move_table``): a
                   64 x 64 torus, iterations up to 8 plies, the previous best's line split down to
                   ply 4, the evaluation by the tracks' shapes, the attack cut and newest first.
                   Its 108 DP16KD hold three engines (22 each) and the table (28; 16,384 would
                   need 56, room for two engines only). It ponders, as the 85F's (``ponder``,
                   docs/ponder.md)
built              at the forty-eighth session (``python -m trax_fpga.boards.build ulx3s_45f
                   --ponder``, commit 9ea2cfc's gateware): 41243 of 43848 TRELLIS_COMB, 94%;
                   5947 FFs; 95 of 108 DP16KD; 28.7 MHz routed against the 25 MHz clock, met,
                   bitstream; 1133 s beside the tests. Without pondering (forty-sixth session):
                   41776, 95%; 5774 FFs; 94 DP16KD; 30.2 MHz. The earlier builds: docs/boards.md,
                   "The board files' builds (history)"
clock              25 MHz oscillator on G2, used directly (no PLL)
UART               FTDI FT231X on the USB port (US1): FPGA rx M1, tx L4; 8N1, 19200 baud
LEDs               led 0 (B2) playing, led 1 (C2) thinking, led 2 (C1) colour, led 3 (D2) error
programming        ``openFPGALoader -b ulx3s build/ulx3s_45f/top.bit`` (SRAM; add ``-f`` for flash)
=================  ==========================================================================
"""

import dataclasses

from amaranth_boards.ulx3s import ULX3S_45F_Platform

from .ulx3s_85f import BOARD as ULX3S_85F

__all__ = ["BOARD"]

BOARD = dataclasses.replace(
    ULX3S_85F,
    name="ulx3s_45f",
    title="ULX3S (ECP5 LFE5U-45F)",
    platform=ULX3S_45F_Platform,
    program="openFPGALoader -b ulx3s build/ulx3s_45f/top.bit",
    player_options={
        "ponder": True,  # as the 85F's (docs/ponder.md)
        "search_options": {
            **ULX3S_85F.player_options["search_options"],
            "engines": 3,
            "move_table": 8192,
        },
    },
)
