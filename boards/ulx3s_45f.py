"""ULX3S with an ECP5 LFE5U-45F (CABGA381): the 85F's board with about half its logic.

=================  ==========================================================================
player             the 85F's player (boards/ulx3s_85f.py) with 3 search engines (``engines``)
                   sharing a table of 8,192 best moves and their values (``move_table``): a
                   64 x 64 torus, iterations up to 8 plies, the previous best's line split down to
                   ply 4, the evaluation by the tracks' shapes, the attack cut and newest first.
                   Its 108 DP16KD hold three engines (22 each) and the table (28; 16,384 would
                   need 56, room for two engines only). Built at the forty-first session (``python
                   -m trax_fpga.boards.build ulx3s_45f --engines 3 --move-table 8192
                   --shared-table``, the board file's since; commit 37d1022's gateware): 39176 of
                   43848 TRELLIS_COMB, 89%; 5693 FFs; 94 of 108 DP16KD; 30.9 MHz routed against
                   the 25 MHz clock, met, bitstream; 1013 s beside a match. With 2 engines and the
                   table of 16,384: 26138 TRELLIS_COMB, 60%; 3960 FFs; 100 of 108 DP16KD; 30.6
                   MHz, met, bitstream; 1130 s. With the board's leaf step (the default board
                   since the forty-second session, docs/architecture.md), built at the forty-third
                   session (commit c816e2e's gateware): 40673 of 43848 TRELLIS_COMB, 93%; 5732
                   FFs; 94 of 108 DP16KD; 30.8 MHz routed, met, bitstream; 2853 s beside other
                   builds and the tests. With the board's next-entry step too (the default board's
                   since the forty-third session), built at the forty-fourth (``python -m
                   trax_fpga.boards.build ulx3s_45f``, commit cbe1bef's gateware): 41072 of 43848
                   TRELLIS_COMB, 94%; 5774 FFs; 94 of 108 DP16KD; 28.2 MHz routed, met, bitstream;
                   1239 s beside other builds. With the fit step too (the default board's since
                   the forty-fifth session), built at the forty-fifth: 40929 of 43848
                   TRELLIS_COMB, 93%; 5774 FFs; 94 of 108 DP16KD; 29.0 MHz routed, met, bitstream;
                   1258 s beside other builds. With the leaf step after a ply of many tiles too
                   (the default board's since the forty-fifth session, the board files' since the
                   forty-sixth), built at the forty-sixth: 41776 of 43848 TRELLIS_COMB, 95%; 5774
                   FFs; 94 of 108 DP16KD; 30.2 MHz routed, met, bitstream; 1763 s beside other
                   builds.
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
        "search_options": {
            **ULX3S_85F.player_options["search_options"],
            "engines": 3,
            "move_table": 8192,
        }
    },
)
