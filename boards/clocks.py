"""The design's clock domain from a board's oscillator through the part's PLL.

Only the ECP5's ``EHXPLLL`` for now (the ULX3S). Its dividers are found by
:func:`ecp5_pll_dividers` within the part's ranges (Lattice TN1263: the phase detector at
3.125 to 400 MHz, the VCO at 400 to 800 MHz, the output at 3.125 to 400 MHz). nextpnr derives
the output clock's constraint from the dividers and the oscillator's constraint, so the timing
report is against the PLL's clock.
"""

from __future__ import annotations

from typing import NamedTuple

from amaranth import ClockSignal, Elaboratable, Instance, Module, Signal
from amaranth.lib import io
from amaranth.lib.cdc import ResetSynchronizer

__all__ = ["Ecp5Pll", "PllDividers", "ecp5_pll_dividers", "exact_ecp5_pll"]

_PFD = (3.125e6, 400e6)
_VCO = (400e6, 800e6)
_OUT = (3.125e6, 400e6)


class PllDividers(NamedTuple):
    """``EHXPLLL``'s input, feedback and output dividers, and the clock they make."""

    clki_div: int
    clkfb_div: int
    clkop_div: int
    hz: float


def ecp5_pll_dividers(input_hz: float, output_hz: float) -> PllDividers:
    """The dividers whose output is nearest ``output_hz`` (exact when it can be), preferring the
    fastest VCO among equals; ``ValueError`` when no setting comes within 1 %."""
    best = None
    for clki_div in range(1, 129):
        pfd = input_hz / clki_div
        if not _PFD[0] <= pfd <= _PFD[1]:
            continue
        for clkfb_div in range(1, 81):
            out = pfd * clkfb_div
            if not _OUT[0] <= out <= _OUT[1]:
                continue
            for clkop_div in range(1, 129):
                vco = out * clkop_div
                if not _VCO[0] <= vco <= _VCO[1]:
                    continue
                key = (abs(out - output_hz), -vco)
                if best is None or key < best[0]:
                    best = (key, PllDividers(clki_div, clkfb_div, clkop_div, out))
    if best is None or best[0][0] > output_hz / 100:
        raise ValueError(
            f"no ECP5 PLL setting makes {output_hz / 1e6:g} MHz from {input_hz / 1e6:g} MHz"
        )
    return best[1]


def exact_ecp5_pll(input_hz: float, output_hz: float) -> PllDividers:
    """:func:`ecp5_pll_dividers` of a clock the PLL makes exactly (to 1 Hz); ``ValueError``
    naming the nearest one otherwise."""
    dividers = ecp5_pll_dividers(input_hz, output_hz)
    if abs(dividers.hz - output_hz) > 1:
        raise ValueError(
            f"the PLL makes {dividers.hz / 1e6:.4f} MHz, not {output_hz / 1e6:g} "
            "(the clock must be one it makes exactly)"
        )
    return dividers


class Ecp5Pll(Elaboratable):
    """Drives the ``sync`` domain (its parent defines it) at ``output_hz`` from the platform's
    default clock (``input_hz``) through an ``EHXPLLL``, held in reset until the PLL locks.
    ``hz`` is the clock it makes (``output_hz``: ``ValueError`` unless it makes it exactly)."""

    def __init__(self, input_hz: float, output_hz: float):
        self.dividers = exact_ecp5_pll(input_hz, output_hz)
        self.input_hz = input_hz
        self.hz = self.dividers.hz

    def elaborate(self, platform):
        m = Module()
        pin = platform.request(platform.default_clk, dir="-")
        m.submodules.clock_in = clock_in = io.Buffer("i", pin)
        clock = Signal()
        locked = Signal()
        d = self.dividers
        m.submodules.pll = Instance(
            "EHXPLLL",
            a_FREQUENCY_PIN_CLKI=f"{self.input_hz / 1e6:g}",
            a_FREQUENCY_PIN_CLKOP=f"{self.hz / 1e6:g}",
            a_ICP_CURRENT="12",
            a_LPF_RESISTOR="8",
            a_MFG_ENABLE_FILTEROPAMP="1",
            a_MFG_GMCREF_SEL="2",
            p_PLLRST_ENA="DISABLED",
            p_INTFB_WAKE="DISABLED",
            p_STDBY_ENABLE="DISABLED",
            p_DPHASE_SOURCE="DISABLED",
            p_OUTDIVIDER_MUXA="DIVA",
            p_OUTDIVIDER_MUXB="DIVB",
            p_OUTDIVIDER_MUXC="DIVC",
            p_OUTDIVIDER_MUXD="DIVD",
            p_CLKI_DIV=d.clki_div,
            p_CLKOP_ENABLE="ENABLED",
            p_CLKOP_DIV=d.clkop_div,
            p_CLKOP_CPHASE=(d.clkop_div - 1) // 2,
            p_CLKOP_FPHASE=0,
            p_FEEDBK_PATH="CLKOP",
            p_CLKFB_DIV=d.clkfb_div,
            i_RST=0,
            i_STDBY=0,
            i_CLKI=clock_in.i,
            o_CLKOP=clock,
            i_CLKFB=clock,
            i_PHASESEL0=0,
            i_PHASESEL1=0,
            i_PHASEDIR=1,
            i_PHASESTEP=1,
            i_PHASELOADREG=1,
            i_PLLWAKESYNC=0,
            i_ENCLKOP=0,
            o_LOCK=locked,
        )
        m.d.comb += ClockSignal("sync").eq(clock)
        m.submodules.reset = ResetSynchronizer(~locked, domain="sync")
        return m
