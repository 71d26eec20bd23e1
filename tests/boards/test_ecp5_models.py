"""The ECP5 cells' simulation models (boards/cslow.py: Yosys's, and the block RAM's and the
multiplier's, which Yosys has only as black boxes) simulate what Yosys's ECP5 mapping makes
of a design as the design itself: memories in DP16KD of every width (their initial contents,
writes, reads, a read port transparent to the write) and a multiplier in MULT18X18D, checked
in Verilator against the Amaranth design on random inputs."""

import os
import random
import subprocess
import tempfile
from pathlib import Path

import pytest
from amaranth import Module, Signal
from amaranth.back import rtlil
from amaranth.lib import wiring
from amaranth.lib.memory import Memory
from amaranth.lib.wiring import In, Out

from trax_fpga.boards.build import tool_environment
from trax_fpga.boards.ecp5_models import ecp5_simulation_models
from trax_fpga.sim.verilator import VerilatorSim, build


class Block(wiring.Component):
    """A memory of ``width`` x ``depth`` (initial contents, a write port, a read port,
    transparent to it or not) and a product of two inputs."""

    def __init__(self, width: int, depth: int, transparent: bool):
        self.width, self.depth, self.transparent = width, depth, transparent
        super().__init__(
            {
                "read_at": In(range(depth)),
                "write_at": In(range(depth)),
                "data": In(width),
                "write": In(1),
                "read": Out(width),
                "a": In(12),
                "b": In(10),
                "product": Out(22),
            }
        )

    def elaborate(self, platform):
        m = Module()
        init = [(i * 7 + 3) % (1 << self.width) for i in range(self.depth)]
        m.submodules.memory = memory = Memory(shape=self.width, depth=self.depth, init=init)
        write = memory.write_port()
        read = memory.read_port(transparent_for=(write,) if self.transparent else ())
        product = Signal(22)
        m.d.sync += product.eq(self.a * self.b)
        m.d.comb += [
            write.addr.eq(self.write_at),
            write.data.eq(self.data),
            write.en.eq(self.write),
            read.addr.eq(self.read_at),
            self.read.eq(read.data),
            self.product.eq(product),
        ]
        return m


def mapped_verilog(design) -> str:
    """``design`` through Yosys's ``synth_ecp5``, as Verilog of the ECP5's cells, with the
    cells' models."""
    tool_environment()
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        (work / "design.il").write_text(rtlil.convert(design, name="top"))
        subprocess.run(
            [os.environ["YOSYS"], "-q", "-p", "read_rtlil design.il; synth_ecp5 -top top; "
             "write_verilog -noattr mapped.v"],
            cwd=work, check=True, capture_output=True,
        )  # fmt: skip
        return (work / "mapped.v").read_text() + ecp5_simulation_models()


def run(sim, design, steps):
    rng = random.Random(design.width * 1000 + design.depth + design.transparent)
    seen = []
    for _ in range(steps):
        sim.set("read_at", rng.randrange(design.depth))
        sim.set("write_at", rng.randrange(design.depth))
        sim.set("data", rng.randrange(1 << design.width))
        sim.set("write", int(rng.random() < 0.5))
        sim.set("a", rng.randrange(1 << 12))
        sim.set("b", rng.randrange(1 << 10))
        sim.tick()
        seen.append((sim.get("read"), sim.get("product")))
    return seen


@pytest.mark.parametrize(
    ("width", "depth", "transparent"),
    [
        (1, 16384, False),
        pytest.param(2, 8192, False, marks=pytest.mark.slow),
        pytest.param(4, 4096, True, marks=pytest.mark.slow),
        (9, 2048, False),
        (18, 1024, True),
        pytest.param(16, 2048, False, marks=pytest.mark.slow),
    ],
)
def test_the_models_simulate_the_mapped_design_as_the_design(width, depth, transparent):
    design = Block(width, depth, transparent)
    text = mapped_verilog(design)
    assert "DP16KD" in text.split("module DP16KD(")[0]  # (the memory is in block RAM)
    assert "MULT18X18D" in text.split("module MULT18X18D(")[0]
    with VerilatorSim(Block(width, depth, transparent)) as sim:
        expected = run(sim, design, 3000)
    with VerilatorSim(build(text)) as sim:
        got = run(sim, design, 3000)
    assert len({read for read, _ in expected}) > 1
    assert got == expected
