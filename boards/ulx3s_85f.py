"""ULX3S with an ECP5 LFE5U-85F (CABGA381, speed 6): the flagship board.

=================  ==========================================================================
player             the complete player with 6 search engines (``engines``, docs/parallel.md), each
                   on its own block-RAM board: a 64 x 64 torus (``torus``), sharing one table of
                   16,384 best moves and their values (``move_table``, ``shared_table``,
                   ``table_scores``, docs/hash-moves.md), iterations up to 8 plies, the previous
                   best's line split down to ply 4 (``pv_plies`` 4), the evaluation by the tracks'
                   shapes (``shapes``: the board files' table, ``host/shapes.py``'s
                   ``board_table``, 8-bit weights, a ROM of 3 DP16KD an engine;
                   docs/evaluation.md), a move that leaves the opponent a loop attack lost at once
                   (``attack_cut``) and the candidates newest first (``newest_first``), on
                   ``TrackBoard``'s default board (its leaf, next-entry and fit steps and the leaf
                   step after a ply of many tiles: docs/architecture.md); it ponders (``ponder``:
                   guesses the reply to its move and searches its next move behind it while the
                   opponent thinks, docs/ponder.md)
built              at the forty-eighth session (``python -m trax_fpga.boards.build ulx3s_85f``):
                   81807 of 83640 TRELLIS_COMB, 98%; 11175 FFs; 189 of 208 DP16KD; 26.27 MHz
                   routed against the 25 MHz clock, met, bitstream; 3369 s beside the tests.
                   Without pondering (forty-sixth session): 81546, 97%; 11002 FFs; 188 DP16KD;
                   27.49 MHz. The earlier builds (7 and 8 engines, other options, the first
                   design's 8 x 8 window): docs/boards.md, "The board files' builds (history)"
clock              25 MHz oscillator on G2, used directly (no PLL)
UART               FTDI FT231X on the USB port (US1): FPGA rx M1, tx L4; 8N1, 19200 baud
LEDs               led 0 (B2) playing, led 1 (C2) thinking, led 2 (C1) colour, led 3 (D2) error
programming        ``openFPGALoader -b ulx3s build/ulx3s_85f/top.bit`` (SRAM; add ``-f`` for flash)
=================  ==========================================================================
"""

import dataclasses

from amaranth_boards.ulx3s import ULX3S_85F_Platform

from ..host.shapes import board_table
from .spec import BoardSpec

__all__ = ["BOARD"]

BOARD = BoardSpec(
    name="ulx3s_85f",
    title="ULX3S (ECP5 LFE5U-85F)",
    platform=ULX3S_85F_Platform,
    torus=(64, 64),
    clock_hz=25e6,
    uart=("uart", 0),
    uart_pins={"rx": "M1", "tx": "L4"},
    leds=(("led", 0), ("led", 1), ("led", 2), ("led", 3)),
    led_pins=("B2", "C2", "C1", "D2"),
    program="openFPGALoader -b ulx3s build/ulx3s_85f/top.bit",
    # At 10 x 10 (the first design) nextpnr's default placement (density 0.9) left router2 stuck
    # at 7400 overused wires after 16 iterations; spread to 0.6, router1 routed it in 28 min.
    # The block-RAM player's builds above were made with it too.
    overrides={"nextpnr_opts": "--placer-heap-beta 0.6"},
    # 8 plies: the engines complete 6 well within the half second a move (docs/parallel.md).
    # The previous best's line split down to ply 4: in play, where the clock stops an iteration
    # at 7 or 8 plies, the 6 engines search 42% more nodes a move than with the split at ply 1
    # (the model at the board's 0.8 s: 11.0 M nodes/s against 7.7 M), for 2138 TRELLIS_COMB, and
    # complete depth 5 in 226,414 clocks against 231,383 (docs/parallel.md, thirty-ninth
    # session). With the loop potential's evaluation it had not fitted beside 8 engines (84449
    # LUTs, 101%), which is why the board files split at ply 1 from the tenth session on.
    # 7 engines sharing one table of 16,384 best moves: they reach depth 5 1.8x sooner than 8
    # engines without a table, and 8 with it do not fit (docs/hash-moves.md). With the nodes'
    # values in it too (``table_scores``), they reach depth 4 1.28x sooner in the model.
    # A move that leaves the opponent a loop attack is lost at once (``attack_cut``) and the
    # candidates go newest first (``newest_first``): with them 7 engines no longer fit (83919 of
    # 83640 TRELLIS_COMB), and 6 reach depth 5 in the model only 6% later than 7 (24,592 ticks
    # against 23,232, 12 positions), 4.1 times sooner than the 7 without them (docs/evaluation.md,
    # "The cut and the newest-first order in the board file").
    # The evaluation by the tracks' shapes (``shapes``): at equal nodes 58.8 % against the loop
    # potential's over 1,000 games in the model; in the same clocks a node; 3 DP16KD and some
    # 550 TRELLIS_COMB an engine (docs/evaluation.md, thirtieth and thirty-first sessions).
    # Pondering: a right guess's search goes on with the whole think time from the opponent's
    # move, a wrong one's is given up, so the board never searches less than without it; in the
    # model a quarter-move guess names 36 % of KizuNa's replies (docs/ponder.md). +261
    # TRELLIS_COMB and a DP16KD (the game's log); 26.27 MHz against 27.49 without.
    player_options={
        "ponder": True,
        "search_options": {
            "engines": 6,
            "max_depth": 8,
            "pv_plies": 4,
            "move_table": 16384,
            "shared_table": True,
            "table_scores": True,
            "attack_cut": True,
            "newest_first": True,
            "shapes": dataclasses.astuple(board_table()),
        },
    },
)
