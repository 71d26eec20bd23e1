"""A block RAM whose read sees the write of its own clock, with no comparison after the read's
address.

Amaranth's ``read_port(transparent_for=(write,))`` gives a read the data written at its address
in the same clock. A block RAM does not (the ECP5's DP16KD leaves a collision between its two
ports undefined), so synthesis emulates it: a flip-flop takes ``write.en & (write.addr ==
read.addr)`` and a multiplexer after the RAM picks the registered write data. The comparison
follows the read address, which in the track board is the last thing its decision clock settles
(docs/area.md, "Fiftieth session"): the emulation's flag is one of the latest endpoints of the
ULX3S players.

:class:`ForwardedMemory` reads the same values, but finds the collision in the clock after it,
from registers alone: the read address, the write address and enable, the write data. Its memory
says ``no_rw_check`` (Yosys then adds no emulation of its own), and the multiplexer's select is
settled before the RAM's data are out.
"""

from __future__ import annotations

from amaranth import Module, Mux, Signal
from amaranth.lib import wiring
from amaranth.lib.memory import Memory
from amaranth.lib.wiring import In, Out

__all__ = ["ForwardedMemory"]


class ForwardedMemory(wiring.Component):
    """``depth`` words of ``shape`` in block RAM, one write port and one read port in the sync
    domain. A read's data are out in the clock after its address, and are the data written at
    that address in the address's clock, if any (new data on a collision), else the memory's.

    Members
    -------
    write : In(addr, data, en)
        A write of ``data`` at ``addr`` in every clock ``en`` is 1.
    read : In(addr) and Out(data)
        ``data`` in the clock after ``addr``.
    """

    def __init__(self, *, shape, depth: int):
        self._shape = shape
        self._depth = depth
        super().__init__(
            {
                "write": In(
                    wiring.Signature({"addr": Out(range(depth)), "data": Out(shape), "en": Out(1)})
                ),
                "read": In(wiring.Signature({"addr": Out(range(depth)), "data": In(shape)})),
            }
        )

    def elaborate(self, platform):
        m = Module()
        attrs = {"no_rw_check": 1}  # a collision's data are never used: the bypass gives them
        m.submodules.memory = memory = Memory(
            shape=self._shape, depth=self._depth, init=[], attrs=attrs
        )
        # The read is an asynchronous port and a register after it, which synthesis merges
        # into the block RAM's synchronous read; only then does it take ``no_rw_check`` (Yosys's
        # memory_dff). The data are the same a clock later: those of the address's clock.
        write, read = memory.write_port(), memory.read_port(domain="comb")
        m.d.comb += [
            write.addr.eq(self.write.addr),
            write.data.eq(self.write.data),
            write.en.eq(self.write.en),
            read.addr.eq(self.read.addr),
        ]
        read_data = Signal.like(read.data, name="read_data_q")
        m.d.sync += read_data.eq(read.data)
        read_addr = Signal.like(read.addr, name="read_addr_q")
        written = Signal(name="written_q")
        write_addr = Signal.like(write.addr, name="write_addr_q")
        write_data = Signal.like(write.data, name="write_data_q")
        m.d.sync += [
            read_addr.eq(read.addr),
            written.eq(write.en),
            write_addr.eq(write.addr),
            write_data.eq(write.data),
        ]
        collided = Signal()
        m.d.comb += [
            collided.eq(written & (write_addr == read_addr)),
            self.read.data.eq(Mux(collided, write_data, read_data)),
        ]
        return m
