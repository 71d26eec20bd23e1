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
                   (``attack_cut``) and the candidates newest first (``newest_first``), on the
                   board with the leaf, next-entry and fit steps and the leaf step after a ply of
                   many tiles (``TrackBoard``'s default since the forty-second, forty-third and
                   forty-fifth sessions: docs/architecture.md). Built so at the forty-sixth
                   session (``python -m trax_fpga.boards.build ulx3s_85f``, this session's
                   gateware): 81546 of 83640 TRELLIS_COMB, 97%; 11002 FFs; 188 of 208 DP16KD;
                   27.49 MHz routed against the 25 MHz clock, met, bitstream; 4076 s beside other
                   builds. With the leaf step after a ply of one tile only (``one_tile_leaf``),
                   built at the forty-fifth session (``python -m trax_fpga.boards.build
                   ulx3s_85f``, that session's gateware): 81397 of 83640 TRELLIS_COMB, 97%; 11002
                   FFs; 188 of 208 DP16KD; 26.23 MHz routed against the 25 MHz clock, met,
                   bitstream; 4763 s beside other builds and simulations. Without the fit step,
                   built at the forty-fourth session (commit cbe1bef's gateware): 81890 of 83640
                   TRELLIS_COMB, 98%; 11002 FFs; 25.83 MHz routed, met, bitstream; 3467 s beside
                   other builds. With the leaf step alone (``plain_next_entry``), built at the
                   forty-second session (commit 5d56c72): 79297 of 83640 TRELLIS_COMB, 95%; 10918
                   FFs; 188 of 208 DP16KD; 26.66 MHz routed, met, bitstream; 3059 s beside
                   simulations. Without the leaf step, built at the thirty-ninth session (commit
                   2bcfa79 with ``python -m trax_fpga.boards.build ulx3s_85f --pv-plies 4``, the
                   board file's since): 75967 of 83640 TRELLIS_COMB, 91%; 10840 FFs; 188 of 208
                   DP16KD; 28.32 MHz routed against the 25 MHz clock, met, bitstream; 4777 s
                   beside simulations and a match. With the split at ply 1 (``pv_plies`` 1, the
                   board file's from the tenth session to the thirty-eighth), built at the
                   thirty-first session (commit 9f42a00): 73829 of 83640 TRELLIS_COMB, 88%; 10084
                   FFs; 188 of 208 DP16KD; 18 MULT18X18D; 27.44 MHz routed, met, bitstream; 2994 s
                   beside the tests. With 9-bit weights (commit f62f735): 74427, 89%; 188 DP16KD;
                   27.62 MHz, met. With the loop potential's evaluation instead (the board file's
                   from the twenty-sixth session to the thirtieth; ``--shapes none``): 71136 of
                   83640 TRELLIS_COMB, 85%; 10222 FFs; 170 of 208 DP16KD; 30 MULT18X18D; 28.50 MHz
                   routed against the 25 MHz clock, met, bitstream; 3162 s beside a simulation and
                   a match. 7 engines with the cut and newest first did not fit (83919 of 83640
                   TRELLIS_COMB, no legal placement). 7 engines without them, the board file's
                   from the fourteenth session to the twenty-fifth: with the values (since commit
                   840430b): synthesized and packed at 82501 of 83640 TRELLIS_COMB, 98%; 189 of
                   208 DP16KD; 35 MULT18X18D; built at ca52588 (each engine its own register of
                   the table's answer): 82405 of 83640 TRELLIS_COMB, 99%; 11837 FFs; 189 of 208
                   DP16KD; 26.78 MHz routed against the 25 MHz clock, met, bitstream; 6463 s
                   beside simulations. At e0ce095 (the shared table's answer in a clock, one
                   answer register for all 7 after Yosys merged them): 82044, 11477 FFs, 25.39
                   MHz, met; the first version did not fit (84230, 100.7%). Without the values
                   (built at commit a48107a: 78521 of 83640 LUTs, 94%; 10783 FFs; 157 of 208
                   DP16KD; 26.21 MHz routed against the 25 MHz clock; 4241 s beside a simulation;
                   27.35 MHz at aeb6b30, the same logic but for the per-ply memories' read
                   addresses; at ee90faa, before the budget's comparison from registers, 77092
                   LUTs, 26.04 MHz; 0.531 nodes per clock, depth 5 1.73x sooner than 8 engines
                   without a table). 8 engines without a table, the board file's before (built at
                   commit 0db27d0: 81362 of 83640 LUTs, 97%; 10897 FFs; 152 of 208 DP16KD; 25.15
                   MHz routed against the 25 MHz clock; 2288 s with other jobs running; 0.526
                   nodes per clock. With the recursive PV split to ply 4 it did not fit: 84449
                   LUTs at 0141db0). With the near-track counts and the split down to ply 4
                   (``pv_plies`` 4, built at commit 55bc8ac: 80892 of 83640 LUTs, 97%; 11617 FFs;
                   152 of 208 DP16KD; 26.0 MHz routed against the 25 MHz clock; 3980 s with other
                   jobs running; 0.601 nodes per clock. At f752fbc, before the engines' abort was
                   registered: 82098 LUTs, 24.3 MHz, FAILING the clock). Split at ply 1 only
                   (commit 882ced6): 74676 LUTs, 89%; 10606 FFs; 27.8 MHz routed; 2583 s with the
                   tests running; 0.559 nodes per clock. With 6 plies at commit 84773ec: 74087
                   LUTs; 10565 FFs; 152 of 208 DP16KD; 28.5 MHz routed against the 25 MHz clock;
                   1982 s with other jobs running; 0.526 nodes per clock. It failed the clock
                   before the engines' shared bests were merged by a tree with a register halfway:
                   23.1 MHz at 3c277e8, 24.2 MHz at 9669195. 7 engines at 9669195: 65191 LUTs,
                   78%, 26.0 MHz, 0.507 nodes per clock. 6 engines at commit 80f9e82: 61984 of
                   83640 LUTs, 74%; 8063 FFs; 114 of 208 DP16KD; 27.6 MHz routed against the 25
                   MHz clock; 25 min with other jobs running; 0.492 nodes per clock; at fff08ea
                   64281 LUTs, 27.7 MHz, 0.417 nodes per clock). 8 engines no longer meet the 25
                   MHz clock since the board's speed-ups: at fff08ea 80925 LUTs, 97%, 24.0 MHz
                   routed (FAILED); at f9d72e3 (13.2 clocks per node) 75758 LUTs, 91%, 26.3 MHz,
                   met. 6 engines search 0.417 nodes per clock, 8 engines 0.425
                   (docs/parallel.md). 4 engines at d369dc9: 41478 LUTs, 35.3 MHz. With one engine
                   at commit 585628d: 10409 LUTs, 18 DP16KD, 42.0 MHz; at a70917e (the slower
                   board): 7429 LUTs, 44.1 MHz. 128 x 128 routed at e58bda6 (8051 LUTs, 72 DP16KD,
                   26.1 MHz) the first design (per-cell rules core and search, removed since; in
                   the git history) 8 x 8 cells (built at commit 0f2e67c, with the evaluation,
                   killers and the 6-ply clock-budget search: 20987 of 83640 LUTs, 25%; 3121 FFs;
                   35.9 MHz routed against the 25 MHz clock; 1502 s, placement spread with
                   ``--placer-heap-beta 0.6``, see ``overrides``). 10 x 10 routed before the
                   evaluation (commit 41ee13d: 32%, 31.2 MHz, 30 min) but with it did not finish
                   routing in 21.5 min here (38%, 22.7 MHz after placement). The rules core alone
                   12 x 12 cells (placed at 29% of the LUTs, 26.4 MHz estimated; routing not
                   finished here; 20 x 20 places at 88% but only reaches 18.4 MHz) the block-RAM
                   rules core alone (``--top track``) on the same torus (built at commit 4465484:
                   3901 of 83640 LUTs, 5%; 18 of 208 DP16KD; 52.2 MHz routed; 61 s). 128 x 128
                   routed too (4028 LUTs, 72 DP16KD, 45.0 MHz)
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
    player_options={
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
        }
    },
)
