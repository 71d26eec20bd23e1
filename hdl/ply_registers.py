"""A field kept for every ply of a search path, written at the node's ply and its parent's.

A depth-first search keeps a few fields for every ply of the path (a cursor, a window, a best
score, a move). In any clock it reads and writes them only at the board's ply (the node in
hand) and the ply above it (its parent), which differ in parity. So the plies below the first
``fixed`` can live in two small memories split by parity, each with one write port and one
asynchronous read port: distributed RAM on the ECP5 (``TRELLIS_DPR16X4``), where registers
with a multiplexer per ply cost about 250 LUT4 a ply for the search's 83 bits (docs/area.md).
The first ``fixed`` plies stay registers, which the search may also read and assign directly
(the root's and the split node's window and best, shared with the other engines).

The memories' read addresses follow the board's ply. Made from the ply's register, an adder and
a multiplexer stand between the register and every memory's read; :class:`PlyReadAddresses`
instead keeps each address in a register of its own, set a clock ahead from the way the board
says its ply goes (the start of the search's critical path, docs/area.md, "The clock").
"""

from amaranth import Const, Module, Mux, Signal, Value
from amaranth.lib.memory import Memory

__all__ = ["PlyReadAddresses", "PlyRegisters"]


class PlyReadAddresses:
    """The read addresses of the parity memories, in registers, for every field of a search.

    A memory of plies of parity ``q`` (from ``fixed`` on) reads at whichever of the board's
    ``ply`` and ``ply - 1`` has parity ``q``. The board's ply changes only at the end of a clock,
    and by one step: ``up`` (+1), ``down`` (-1) or ``to_zero`` (a new game), which the board
    drives in the clock it takes the step. So the address of the next clock is one of four,
    each made from the ply's register, and is chosen by those three late signals alone; the
    memory is read from a register. :meth:`address` makes one register per (parity, ``fixed``,
    width), shared by every field that asks for it.
    """

    def __init__(self, m: Module, ply: Value, *, up: Value, down: Value, to_zero: Value):
        self._m = m
        self._ply = ply
        self._up, self._down, self._to_zero = up, down, to_zero
        self._made = {}

    @staticmethod
    def _bank_ply(ply, parity: int):
        """The one of ``ply`` and ``ply - 1`` with parity ``parity``."""
        return Mux(ply[0] == parity, ply, ply - 1)

    def address(self, parity: int, fixed: int, width: int) -> Signal:
        """The registered read address of the memory of parity ``parity`` (plies from ``fixed``,
        ``(p - fixed) // 2`` for ply ``p``, ``width`` bits)."""
        key = (parity, fixed, width)
        if key in self._made:
            return self._made[key]
        m, ply = self._m, self._ply

        def of(p):
            return (p - fixed)[1:] if width else Const(0, 0)

        at_zero = ((0 if parity == 0 else -1) - fixed) >> 1 & ((1 << width) - 1)
        reg = Signal(width, init=at_zero, name=f"ply_read_{parity}_{fixed}")
        with m.If(self._to_zero):
            m.d.sync += reg.eq(at_zero)
        with m.Elif(self._up):
            m.d.sync += reg.eq(of(self._bank_ply(ply + 1, parity)))
        with m.Elif(self._down):
            m.d.sync += reg.eq(of(self._bank_ply(ply - 1, parity)))
        with m.Else():
            m.d.sync += reg.eq(of(self._bank_ply(ply, parity)))
        self._made[key] = reg
        return reg


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
    With ``reads`` (a :class:`PlyReadAddresses` of the same ``ply``), the memories read at its
    registered addresses, the same plies a clock sooner.
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
        reads: PlyReadAddresses | None = None,
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
                if reads is not None:
                    address = reads.address(parity, fixed, len(read.addr))
                else:
                    address = self._address(Mux(ply[0] == parity, ply, parent))
                m.d.comb += read.addr.eq(address)
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
