"""The rules of one cell (hdl/cell_rules.py) against the reference engine: all 81 cases."""

from amaranth import Module, Signal
from amaranth.lib import wiring
from amaranth.lib.wiring import In, Out
from amaranth.sim import Simulator

from trax_fpga.hdl.cell_rules import FIT_ORDER, cell_rules
from trax_fpga.hdl.types import Tile
from trax_fpga.host.position import FITTING, FORCED
from trax_fpga.host.tiles import Tile as RefTile

from .reference import TILE_ORDER


class OneCell(wiring.Component):
    """:func:`cell_rules` on one cell (a test top)."""

    known: In(4)
    white: In(4)
    fit: Out(6)
    forced: Out(1)
    tile: Out(4)
    dead: Out(1)

    def elaborate(self, platform):
        m = Module()
        rules = cell_rules([self.known[d] for d in range(4)], [self.white[d] for d in range(4)])
        tile = Signal(4)
        m.d.comb += [
            self.fit.eq(sum(bit << i for i, bit in enumerate(rules["fit"]))),
            self.forced.eq(rules["forced"]),
            self.dead.eq(rules["dead"]),
            tile.eq(sum(bit << d for d, bit in enumerate(rules["tile"]))),
            self.tile.eq(tile),
        ]
        return m


def test_tile_values_match_the_reference():
    assert [t.value for t in FIT_ORDER] == [int(t) for t in TILE_ORDER]
    assert {t.name for t in Tile} - {"EMPTY"} == {t.name for t in RefTile}
    assert all(Tile[t.name].value == int(t) for t in RefTile)


def test_all_81_cases():
    dut = OneCell()
    cases = [(k, w) for k in range(16) for w in range(16) if w & ~k == 0]
    assert len(cases) == 81
    checked = []

    async def testbench(ctx):
        for known, white in cases:
            ctx.set(dut.known, known)
            ctx.set(dut.white, white)
            expected = sum(1 << i for i, t in enumerate(TILE_ORDER) if t in FITTING[known][white])
            assert ctx.get(dut.fit) == expected, (known, white)
            code = FORCED[known][white]
            assert ctx.get(dut.dead) == (code < 0), (known, white)
            assert ctx.get(dut.forced) == (code > 0), (known, white)
            if code > 0:
                assert ctx.get(dut.tile) == code, (known, white)
            checked.append((known, white))

    sim = Simulator(dut)
    sim.add_testbench(testbench)
    sim.run()
    assert len(checked) == 81
