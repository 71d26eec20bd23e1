"""The design's clock domain from a board's oscillator through the part's PLL.

Only the ECP5's ``EHXPLLL`` for now (the ULX3S). Its dividers are found by
:func:`ecp5_pll_dividers` within the part's ranges (Lattice TN1263: the phase detector at
3.125 to 400 MHz, the VCO at 400 to 800 MHz, the outputs at 3.125 to 400 MHz). The primary
output ``CLKOP`` is the feedback, so it makes ``input x CLKFB_DIV / CLKI_DIV``; with the phase
detector at 3.125 MHz or more that is a coarse set of clocks (from 25 MHz: 25, 28.125, 29.17,
30 ... MHz). Where the design's clock is not among them, it is the secondary output ``CLKOS``,
the VCO divided by ``CLKOS_DIV`` (from 25 MHz: 26, 26.5, 27 MHz ...). nextpnr derives each
output's constraint from the dividers and the oscillator's constraint, so the timing report
is against the PLL's clock.
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
    """``EHXPLLL``'s input, feedback and output dividers, and the clock they make: ``CLKOP``'s,
    or, when ``clkos_div`` is set, ``CLKOS``'s (the VCO divided by it; ``CLKOP`` then only
    closes the feedback loop)."""

    clki_div: int
    clkfb_div: int
    clkop_div: int
    hz: float
    clkos_div: int | None = None

    @property
    def vco_hz(self) -> float:
        """The VCO's frequency."""
        return self.hz * (self.clkos_div or self.clkop_div)


def _feedback_settings(input_hz: float):
    """Every (clki_div, clkfb_div, clkop_div, CLKOP's Hz, VCO's Hz) within the part's ranges."""
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
                if _VCO[0] <= vco <= _VCO[1]:
                    yield clki_div, clkfb_div, clkop_div, out, vco


def ecp5_pll_dividers(input_hz: float, output_hz: float) -> PllDividers:
    """The dividers whose clock is nearest ``output_hz`` (exact when it can be): ``CLKOP``'s
    where it comes as near as ``CLKOS``'s can, else ``CLKOS``'s; the fastest VCO among equals.
    ``ValueError`` when no setting comes within 1 %."""
    best = None
    for clki_div, clkfb_div, clkop_div, out, vco in _feedback_settings(input_hz):
        key = (abs(out - output_hz), 0, -vco)
        if best is None or key < best[0]:
            best = (key, PllDividers(clki_div, clkfb_div, clkop_div, out))
        near = max(1, round(vco / output_hz))
        for clkos_div in {near - 1, near, near + 1}:
            if not 1 <= clkos_div <= 128:
                continue
            secondary = vco / clkos_div
            if not _OUT[0] <= secondary <= _OUT[1]:
                continue
            key = (abs(secondary - output_hz), 1, -vco)
            if key < best[0]:
                best = (key, PllDividers(clki_div, clkfb_div, clkop_div, secondary, clkos_div))
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
        locked = Signal()
        d = self.dividers
        feedback = Signal()  # CLKOP, the feedback: the design's clock too, without CLKOS
        clock = feedback if d.clkos_div is None else Signal()
        cphase = (d.clkop_div - 1) // 2  # as nextpnr's ecppll sets it (CLKOS: in phase)
        secondary = {}
        if d.clkos_div is not None:
            secondary = {
                "a_FREQUENCY_PIN_CLKOS": f"{self.hz / 1e6:g}",
                "p_CLKOS_ENABLE": "ENABLED",
                "p_CLKOS_DIV": d.clkos_div,
                "p_CLKOS_CPHASE": cphase,
                "p_CLKOS_FPHASE": 0,
                "o_CLKOS": clock,
            }
        m.submodules.pll = Instance(
            "EHXPLLL",
            a_FREQUENCY_PIN_CLKI=f"{self.input_hz / 1e6:g}",
            a_FREQUENCY_PIN_CLKOP=f"{self.input_hz / d.clki_div * d.clkfb_div / 1e6:g}",
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
            p_CLKOP_CPHASE=cphase,
            p_CLKOP_FPHASE=0,
            p_FEEDBK_PATH="CLKOP",
            p_CLKFB_DIV=d.clkfb_div,
            i_RST=0,
            i_STDBY=0,
            i_CLKI=clock_in.i,
            o_CLKOP=feedback,
            i_CLKFB=feedback,
            i_PHASESEL0=0,
            i_PHASESEL1=0,
            i_PHASEDIR=1,
            i_PHASESTEP=1,
            i_PHASELOADREG=1,
            i_PLLWAKESYNC=0,
            i_ENCLKOP=0,
            o_LOCK=locked,
            **secondary,
        )
        m.d.comb += ClockSignal("sync").eq(clock)
        m.submodules.reset = ResetSynchronizer(~locked, domain="sync")
        return m
