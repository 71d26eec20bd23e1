"""iCEBreaker with an iCE40 UP5K (SG48): the small open board.

=================  ==========================================================================
player             the complete player on one block-RAM board: a 32 x 32 torus (``torus``) with a
                   3-ply mate search (the evaluation's logic does not fit beside the board: with it,
                   6792 of 5280 logic cells at commit e58bda6; with it to 2 plies on the compact
                   board, 6578 at the forty-first session, without ``-dff``, with which Yosys's
                   ABC9 did not finish), on the board that trades clocks for
                   logic (``board_options``: ``COMPACT_OPTIONS`` of hdl/track_board.py: one
                   track-end write and one frontier append a clock, plain take-backs, no candidate
                   cache, four track-end banks, the plies' marks in block RAM, ...), synthesized
                   with ``-dff``. Built at commit 22b40ec (``python -m trax_fpga.boards.build
                   icebreaker``): 5197 of 5280 logic cells, 98%; 1276 FFs; 21 of 30 block RAMs;
                   13.0 MHz routed against the 12 MHz clock; 210 s. Again at commit e59e7e2 (the
                   merge with the nested game port): 5222 cells, 99%; 12.8 MHz, met; bitstream;
                   191 s: a thin margin. Again at the forty-second session (commit be713d3 with
                   the compact board's RTL as before the leaf step): 5211 cells; 15.1 MHz, met.
                   Without the compact board it
                   did not fit since the board's speed-ups: 7518 cells (142%) at commit edc2494,
                   6918 (131%) at 2557a4b; 5089 (96%) at a70917e, before them
window (history)   the first design (per-cell, removed since; in the git history) 3 x 3 cells (built
                   at commit 0f2e67c, with the evaluation, killers and the boards' 6-ply
                   clock-budget search: 5116 of 5280 logic cells, 97%; 1136 FFs; 18.8 MHz routed
                   against the 12 MHz clock; 79 s). A 3 x 3 window holds only the first move (box
                   plus one ring): the board plays nothing longer. 4 x 4 routed before the search's
                   evaluation (commit 41ee13d: 95%, 19.0 MHz) but needs 117% since (112% with the
                   serial win flood). The rules core alone 4 x 4 cells (built: 40% of the cells,
                   24.1 MHz; 6 x 6 places at 79% but did not route in the time tried)
track torus        the block-RAM rules core alone (``--top track``) on the same torus (built at
                   commit 4465484: 2800 of 5280 logic cells, 53%; 18 of 30 block RAMs; 19.3 MHz
                   routed; 53 s). 64 x 32 needs 32 block RAMs
clock              12 MHz oscillator on pin 35, used directly (no PLL)
UART               FT2232H channel B on the USB port: FPGA rx pin 6, tx pin 9; 8N1, 19200 baud
LEDs               green LED (37) playing, break-off PMOD LED2 (pin 26 via PMOD2) thinking, LED3
                   (27) colour, red LED (11) error
programming        ``iceprog build/icebreaker/top.bin``
=================  ==========================================================================

The thinking and colour LEDs are on the break-off LED board (PMOD2): keep it attached or plug it
into PMOD2.
"""

from amaranth_boards.icebreaker import ICEBreakerPlatform

from ..hdl.track_board import COMPACT_OPTIONS
from .spec import BoardSpec

__all__ = ["BOARD"]


def _platform() -> ICEBreakerPlatform:
    platform = ICEBreakerPlatform()
    platform.add_resources(platform.break_off_pmod)
    return platform


BOARD = BoardSpec(
    name="icebreaker",
    title="iCEBreaker (iCE40 UP5K)",
    platform=_platform,
    torus=(32, 32),
    clock_hz=12e6,
    uart=("uart", 0),
    uart_pins={"rx": "6", "tx": "9"},
    leds=(("led", 1), ("led", 2), ("led", 3), ("led", 0)),
    led_pins=("37", "26", "27", "11"),
    # The evaluation's logic does not fit the UP5K beside the board: a 3-ply mate searcher, on
    # the board that trades clocks for logic (COMPACT_OPTIONS), synthesized with ABC on the
    # flip-flops too (-dff: about 100 logic cells fewer).
    player_options={
        "search_options": {
            "max_depth": 3,
            "evaluation": False,
            "board_options": COMPACT_OPTIONS,
        }
    },
    overrides={"synth_opts": "-dff"},
    program="iceprog build/icebreaker/top.bin",
)
