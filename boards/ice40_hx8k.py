"""iCE40-HX8K Breakout Board (iCE40HX8K-B-EVN, CT256): the larger iCE40.

=================  ==========================================================================
player             the complete player on one block-RAM board: a 32 x 32 torus (``torus``) with the
                   search the ULX3S's engines play, to 6 plies (``max_depth: 6``, the evaluation,
                   its threat extension and killers), on the board that trades clocks for logic
                   (``board_options``: ``COMPACT_OPTIONS``, as the iCEBreaker's), evaluating by
                   the tracks' shapes with the board files' table in 8-bit weights (``shapes``:
                   ``board_table``; an SB_RAM40_4K is 16 bits wide and has one read port, so
                   the ROM's six reads take 6 block RAMs with 8-bit weights and 12 with 9-bit
                   ones, one more than the part has)
built              at the thirty-first session (commit f62f735's gateware, ``python -m
                   trax_fpga.boards.build ice40_hx8k``): 7485 of 7680 logic cells, 97%; 1696 FFs;
                   27 of 32 block RAMs; 35.0 MHz routed against the 12 MHz clock, met, bitstream;
                   97 s beside a match (``make test`` builds the rules core alone, ``--top
                   track``). The earlier builds, the first design's 4 x 4 window and the rules
                   core's: docs/boards.md, "The board files' builds (history)"
clock              12 MHz oscillator on J3, used directly (no PLL)
UART               FT2232H channel B on the USB port: FPGA rx B10, tx B12; 8N1, 19200 baud
LEDs               D2 (C3) playing, D3 (B3) thinking, D4 (C4) colour, D5 (C5) error
programming        ``iceprog -S build/ice40_hx8k/top.bin`` (SRAM; jumpers J6 2-4 and 1-3, see the
                   board's user guide) or ``iceprog build/ice40_hx8k/top.bin`` (flash)
=================  ==========================================================================
"""

import dataclasses

from amaranth_boards.ice40_hx8k_b_evn import ICE40HX8KBEVNPlatform

from ..hdl.track_board import COMPACT_OPTIONS
from ..host.shapes import board_table
from .spec import BoardSpec

__all__ = ["BOARD"]

BOARD = BoardSpec(
    name="ice40_hx8k",
    title="iCE40-HX8K Breakout (iCE40 HX8K)",
    platform=ICE40HX8KBEVNPlatform,
    torus=(32, 32),
    clock_hz=12e6,
    # The evaluation's search to 6 plies on the board that trades clocks for logic, by the tracks'
    # shapes with 8-bit weights (6 block RAMs for the weights' ROM; 9 bits would take 12).
    player_options={
        "search_options": {
            "max_depth": 6,
            "evaluation": True,
            "board_options": COMPACT_OPTIONS,
            "shapes": dataclasses.astuple(board_table()),
        }
    },
    uart=("uart", 0),
    uart_pins={"rx": "B10", "tx": "B12"},
    leds=(("led", 0), ("led", 1), ("led", 2), ("led", 3)),
    led_pins=("C3", "B3", "C4", "C5"),
    program="iceprog -S build/ice40_hx8k/top.bin",
)
