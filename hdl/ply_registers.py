"""A field kept for every ply of a search path, written at the node's ply and its parent's.

A depth-first search keeps a few fields for every ply of the path (a cursor, a window, a best
score, a move). In any clock it reads and writes them only at the board's ply (the node in
hand) and the ply above it (its parent), which differ in parity. So the plies below the first
``fixed`` can live in two small memories split by parity, each with one write port and one
asynchronous read port: distributed RAM on the ECP5 (``TRELLIS_DPR16X4``), where registers
with a multiplexer per ply cost about 250 LUT4 a ply for the search's 83 bits (docs/area.md).
The first ``fixed`` plies stay registers, which the search may also read and assign directly
(the root's and the split node's window and best, shared with the other engines).
"""

from amaranth import Module, Mux, Signal, Value
from amaranth.lib.memory import Memory

__all__ = ["PlyRegisters"]


class PlyRegisters:
    """One value of ``shape`` per ply (``depth`` plies) in module ``m``.

    ``ply`` is the node's ply and ``parent`` its parent's (``ply - 1``; its value at ply 0 is
    never used). ``here`` and ``parent`` read the field at those plies in this clock.
    ``set_here(value)`` and ``set_parent(value)``, called in any control context of ``m``,
    write at the end of the clock; each takes one value a clock (a later call in the same clock
    wins, as for any signal). The plies from ``fixed`` on are held in memory (all of them
    registers when ``fixed`` >= ``depth``); ``regs[i]`` is the register of ply i < ``fixed``,
    which may also be assigned directly: a port's write to it in the same clock wins, because
    :meth:`finish` (called once, after every such assignment) adds the ports' writes last.
    """

    def __init__(
        self,
        m: Module,
        name: str,
        shape,
        depth: int,
        ply: Value,
        parent: Value,
        *,
        fixed: int = 2,
    ):
        self._m = m
        self._ply = ply
        self._parent_ply = parent
        self._shape = shape
        fixed = min(fixed, depth)
        self.regs = [Signal(shape, name=f"{name}_{p}") for p in range(fixed)]
        self._here_en = Signal(name=f"{name}_here_en")
        self._here_data = Signal(shape, name=f"{name}_here_data")
        self._parent_en = Signal(name=f"{name}_parent_en")
        self._parent_data = Signal(shape, name=f"{name}_parent_data")
        self._banks = []  # (write port, read port) of the even plies' memory, the odd plies'
        stored = depth - fixed
        if stored > 0:
            for parity in (0, 1):
                plies = [p for p in range(fixed, depth) if p % 2 == parity]
                mem = Memory(shape=shape, depth=max(1, len(plies)), init=[])
                m.submodules[f"{name}_plies{parity}"] = mem
                self._banks.append((mem.write_port(), mem.read_port(domain="comb")))
        self._fixed = fixed
        self.here = Signal(shape, name=f"{name}_here")
        self.parent = Signal(shape, name=f"{name}_parent")
        if self._banks:
            # Each memory reads at whichever of the two plies has its parity.
            for parity, (_, read) in enumerate(self._banks):
                p = Mux(ply[0] == parity, ply, parent)
                m.d.comb += read.addr.eq(self._address(p))
        self._read(ply, self.here)
        self._read(parent, self.parent)
        self._finished = False

    def __getitem__(self, index: int) -> Signal:
        return self.regs[index]

    def __iter__(self):
        return iter(self.regs)

    def _address(self, p: Value) -> Value:
        """A ply's address in its parity's memory (plies ``fixed`` on)."""
        return (p - self._fixed)[1:]

    def _read(self, p: Value, out: Signal) -> None:
        m = self._m
        if self._banks:
            m.d.comb += out.eq(Mux(p[0], self._banks[1][1].data, self._banks[0][1].data))
        for i, reg in enumerate(self.regs):
            with m.If(p == i):
                m.d.comb += out.eq(reg)

    def set_here(self, value) -> None:
        """Write ``value`` at ``ply`` at the end of this clock."""
        self._m.d.comb += [self._here_en.eq(1), self._here_data.eq(value)]

    def set_parent(self, value) -> None:
        """Write ``value`` at the parent's ply at the end of this clock."""
        self._m.d.comb += [self._parent_en.eq(1), self._parent_data.eq(value)]

    def finish(self) -> None:
        """Add the ports' writes (after every direct assignment to a register)."""
        if self._finished:
            raise RuntimeError("PlyRegisters.finish called twice")
        self._finished = True
        m, fixed = self._m, self._fixed
        ply, parent = self._ply, self._parent_ply
        for i, reg in enumerate(self.regs):
            with m.If(self._here_en & (ply == i)):
                m.d.sync += reg.eq(self._here_data)
            with m.If(self._parent_en & (parent == i)):
                m.d.sync += reg.eq(self._parent_data)
        for parity, (write, _) in enumerate(self._banks):
            here_mine = ply[0] == parity  # else the parent's ply has this parity
            p = Mux(here_mine, ply, parent)
            m.d.comb += [
                write.addr.eq(self._address(p)),
                write.data.eq(Mux(here_mine, self._here_data, self._parent_data)),
                write.en.eq(Mux(here_mine, self._here_en, self._parent_en) & (p >= fixed)),
            ]
