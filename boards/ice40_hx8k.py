"""iCE40-HX8K Breakout Board (iCE40HX8K-B-EVN, CT256): the larger iCE40.

=================  ==========================================================================
player             the complete player on one block-RAM board: a 32 x 32 torus (``torus``) with a
                   3-ply mate search (``max_depth: 3, evaluation: False``) on the board that
                   trades clocks for logic (``board_options``: ``COMPACT_OPTIONS``, as the
                   iCEBreaker's). Built at commit 22b40ec: 5309 of 7680 logic cells, 69%; 1308
                   FFs; 21 of 32 block RAMs; 33.1 MHz routed against the 12 MHz clock; 72 s; this
                   is ``make test``'s build. Before, on the fast board: since the board's
                   speed-ups (13.2 clocks per node, was 21.2) the evaluation no longer fits beside
                   it, not even with 4 plies (not tried on the compact board). Built at commit
                   80f9e82: 7461 of 7680 logic cells,
                   97%; 1508 FFs; 19 of 32 block RAMs (every memory but the plies' marks and the
                   search's per-ply fields, a few registers); 29.6 MHz routed against the 12 MHz
                   clock; 104 s with other jobs running. At commit
                   fff08ea: 7149 cells, 93%, 29.3 MHz. At commit e662001: 6824 cells, 89%,
                   39.8 MHz. (Until commit e600b93 this file asked only for ``evaluation:
                   False`` and the docs said 6 plies, but the build's option merge dropped the
                   boards' 6, so 3 was built; 6 plies need 7772 cells, more than the part has.)
                   With the evaluation at commit a70917e (the slower board): 6868 cells, 48.2 MHz
window (history)   the first design (per-cell rules core and search, removed since; in the git
                   history) 4 x 4 cells (built at commit 0f2e67c, with the evaluation, killers and
                   the boards' 6-ply clock-budget search: 6940 of 7680 logic cells, 90%; 1388 FFs;
                   43.5 MHz routed against the 12 MHz clock; 132 s). 5 x 5 routed before the
                   search's evaluation (commit 41ee13d: 93%, 41.7 MHz) but needs 7834 LUT4 since,
                   even with the serial win flood. The rules core alone 7 x 7 cells (an estimate
                   from synthesis: 8 x 8 needs 7236 LUT4 of 7680)
track torus        the block-RAM rules core alone (``--top track``) on the same torus (built at
                   commit 4465484: 2796 of 7680 logic cells, 36%; 18 of 32 block RAMs; 55.9 MHz
                   routed; 41 s; ``make test`` builds it). 64 x 32 routed with all 32 block RAMs
                   (50.0 MHz); 64 x 64 needs 64, twice the part's
clock              12 MHz oscillator on J3, used directly (no PLL)
UART               FT2232H channel B on the USB port: FPGA rx B10, tx B12; 8N1, 19200 baud
LEDs               D2 (C3) playing, D3 (B3) thinking, D4 (C4) colour, D5 (C5) error
programming        ``iceprog -S build/ice40_hx8k/top.bin`` (SRAM; jumpers J6 2-4 and 1-3, see the
                   board's user guide) or ``iceprog build/ice40_hx8k/top.bin`` (flash)
=================  ==========================================================================
"""

from amaranth_boards.ice40_hx8k_b_evn import ICE40HX8KBEVNPlatform

from ..hdl.track_board import COMPACT_OPTIONS
from .spec import BoardSpec

__all__ = ["BOARD"]

BOARD = BoardSpec(
    name="ice40_hx8k",
    title="iCE40-HX8K Breakout (iCE40 HX8K)",
    platform=ICE40HX8KBEVNPlatform,
    torus=(32, 32),
    clock_hz=12e6,
    # A 3-ply mate searcher on the board that trades clocks for logic (COMPACT_OPTIONS).
    player_options={
        "search_options": {
            "max_depth": 3,
            "evaluation": False,
            "board_options": COMPACT_OPTIONS,
        }
    },
    uart=("uart", 0),
    uart_pins={"rx": "B10", "tx": "B12"},
    leds=(("led", 0), ("led", 1), ("led", 2), ("led", 3)),
    led_pins=("C3", "B3", "C4", "C5"),
    program="iceprog -S build/ice40_hx8k/top.bin",
)
