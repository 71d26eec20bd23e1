"""ULX3S with an ECP5 LFE5U-25F (CABGA381): the 85F's board with about a quarter of its logic.

=================  ==========================================================================
player             the 85F's player (boards/ulx3s_85f.py) with one search engine and a table of
                   8,192 best moves and their values (``move_table``; the part's 56 DP16KD hold
                   the engine's 22 and the table's 28, where 16,384 would need 56): a 64 x 64
                   torus, iterations up to 8 plies, the evaluation by the tracks' shapes, the
                   attack cut and newest first. The table sits outside the engine
                   (``shared_table``), its answers registered on arrival, as the 85F's engines
                   have it: with the table read straight into the search's decision, one engine
                   failed the 25 MHz clock (docs/area.md). Built at the forty-first session
                   (``python -m trax_fpga.boards.build ulx3s_25f``, commit b7c8825's gateware):
                   13940 of 24288 TRELLIS_COMB, 57%; 2251 FFs; 50 of 56 DP16KD; 32.1 MHz routed
                   against the 25 MHz clock, met, bitstream; 783 s beside another build and a
                   match. It searches as one of the 85F's engines, about a sixth of its nodes.
                   With the board's leaf step (the default board's since the forty-second
                   session), built at the forty-third session (``python -m trax_fpga.boards.build
                   ulx3s_25f``, without the next-entry step, as the 85F's board file opts out of
                   it): 14386 of 24288 TRELLIS_COMB, 59%; 2264 FFs; 50 of 56 DP16KD; 30.5 MHz
                   routed, met, bitstream; 632 s beside the tests. With the next-entry step too
                   (the default board's since the forty-third session; one engine 8.6 clocks a
                   node instead of 8.9), built at the forty-fourth: 14824 of 24288 TRELLIS_COMB,
                   61%; 2278 FFs; 50 of 56 DP16KD; 31.9 MHz routed, met, bitstream; 290 s beside
                   another build. With the fit step too (the default board's since the forty-fifth
                   session; one engine 8.2 clocks a node instead of 8.6), built at the
                   forty-fifth: 14889 of 24288 TRELLIS_COMB, 61%; 2278 FFs; 50 of 56 DP16KD; 32.6
                   MHz routed, met, bitstream; 327 s beside other builds. With the leaf step after
                   a ply of many tiles too (the default board's since the forty-fifth session, the
                   board files' since the forty-sixth; one engine 7.9 clocks a node instead of
                   8.2), built at the forty-sixth: 14634 of 24288 TRELLIS_COMB, 60%; 2278 FFs; 50
                   of 56 DP16KD; 27.8 MHz routed, met, bitstream; 242 s beside other builds.
clock              25 MHz oscillator on G2, used directly (no PLL)
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
    player_options={
        "search_options": {
            **ULX3S_85F.player_options["search_options"],
            "engines": 1,
            "move_table": 8192,
        }
    },
)
