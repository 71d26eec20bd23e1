"""Verilog that a design hands to whoever builds it: a module it instantiates but does not
describe in Amaranth (the C-slowed engines of :mod:`.threaded_engines`).

A C-slowed engine's logic is made by tools the gateware does not import
(:mod:`trax_fpga.boards.cslow`, Yosys): they register their maker here (:func:`logic_maker`).

A block calls :func:`add_source` in its ``elaborate``: with a platform, the text becomes one of
the platform's files (``platform.add_file``, read by the synthesis script); without one, it goes
to the caller converting the design inside :func:`collect_sources` (the Verilator build, which
appends it to the design's Verilog). Converting such a design any other way is an error, not a
design with a module missing.
"""

from __future__ import annotations

import contextlib
import contextvars

__all__ = ["add_source", "collect_sources", "logic_maker", "set_logic_maker"]

_COLLECTED: contextvars.ContextVar[dict[str, str] | None] = contextvars.ContextVar(
    "verilog_sources", default=None
)


@contextlib.contextmanager
def collect_sources():
    """Within: the Verilog files :func:`add_source` is given without a platform, as a dict
    (file name: text), which this yields."""
    sources: dict[str, str] = {}
    token = _COLLECTED.set(sources)
    try:
        yield sources
    finally:
        _COLLECTED.reset(token)


def add_source(platform, name: str, text: str) -> None:
    """Hand the Verilog file ``name`` (``text``) to ``platform`` or to :func:`collect_sources`'
    caller."""
    if platform is not None:
        platform.add_file(name, text)
        return
    sources = _COLLECTED.get()
    if sources is None:
        raise RuntimeError(
            f"{name}: this design instantiates Verilog of its own; convert it on a platform or "
            "within hdl.verilog_sources.collect_sources() (as sim.verilator.build does)"
        )
    if sources.get(name, text) != text:
        raise RuntimeError(f"two different Verilog files named {name}")
    sources[name] = text


_LOGIC_MAKER = None


def set_logic_maker(maker) -> None:
    """Register what makes a C-slowed engine's logic (``trax_fpga.boards.cslow.make_logic``,
    registered when that module is imported: the gateware does not import the tools)."""
    global _LOGIC_MAKER
    _LOGIC_MAKER = maker


def logic_maker():
    """The registered maker of C-slowed logic (RuntimeError if none)."""
    if _LOGIC_MAKER is None:
        raise RuntimeError(
            "two engines a logic need the C-slow's tools: import trax_fpga.boards.cslow (the "
            "Verilator build and boards.build do)"
        )
    return _LOGIC_MAKER
