"""iCEBreaker with an iCE40 UP5K (SG48): the small open board.

=================  ==========================================================================
player             the complete player on one block-RAM board: a 32 x 32 torus (``torus``) with a
                   3-ply mate search (the evaluation's logic does not fit beside the board: with
                   it to 2 plies on the compact board, 6578 of 5280 logic cells at the
                   forty-first session), on the board that trades clocks for logic
                   (``board_options``: ``COMPACT_OPTIONS`` of hdl/track_board.py: one track-end
                   write and one frontier append a clock, plain take-backs, no candidate cache,
                   four track-end banks, the plies' marks in block RAM, ...), synthesized with
                   ``-dff``
built              at the forty-second session (commit be713d3, ``python -m
                   trax_fpga.boards.build icebreaker``, the compact board's RTL as before the
                   leaf step): 5211 of 5280 logic cells, 99%; 15.1 MHz routed against the 12 MHz
                   clock, met: a thin margin (at commit e59e7e2: 21 of 30 block RAMs, bitstream).
                   The earlier builds, the first design's 3 x 3 window and the rules core's:
                   docs/boards.md, "The board files' builds (history)"
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
