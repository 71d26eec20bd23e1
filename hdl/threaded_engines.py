"""Two search engines on one engine's logic: the engine C-slowed by two (docs/cslow.md).

:class:`ThreadedEngines` instantiates ``logics`` copies of a search engine (a
:class:`~.track_search.TrackSearch`) C-slowed by two (:func:`trax_fpga.boards.cslow.cslow_module`:
every register doubled, every memory twice as deep with a thread bit), and presents them as
``2 * logics`` engines with the engine's members (``units``), as
:class:`~.parallel_search.ParallelSearch` uses its engines. A logic computes its thread 0 in the
even clocks and its thread 1 in the odd ones (``phase`` 0 and 1). Engine ``k`` is logic ``k``'s
thread 0 and engine ``logics + k`` its thread 1, so every thread-0 engine is numbered below
every thread-1 engine.

The units keep the *slow clock*: two clocks, the even one then the odd one. The logic around
them must run its ``sync`` domain in the odd clocks only (``EnableInserter({"sync": phase})``),
so that their inputs are the same in both clocks, and their reset be held two clocks or more (a
thread is reset in its own clock). A unit's outputs are its engine's in both clocks: a thread-0
engine's come from its logic in the even clock and from a register of them in the odd one, a
thread-1 engine's from its logic in the odd clock. Inputs may depend on outputs in the same
slow clock (combinationally), but a thread-0 engine's inputs only on thread-0 engines' outputs
(ParallelSearch grants a ticket to the lowest-numbered engine asking) and on the ``early``
outputs, which are registers' (a thread-1 engine's, in the even clock, are its register's first
copy: its value for the slow clock, a clock before its logic shows it). With that, the units
and the logic around them are, slow clock by slow clock, the same design with ``2 * logics``
engines of their own; a thread-1 engine's other outputs are not its own in the even clock.

The C-slowed logic is a Verilog module made by the C-slow's tools
(:mod:`trax_fpga.boards.cslow`, registered with :mod:`.verilog_sources`; Yosys) when this block
is elaborated, handed to the platform or to the Verilator build.
"""

from amaranth import ClockDomain, ClockSignal, Module, Mux, ResetSignal, Signal, Value
from amaranth.hdl import Instance
from amaranth.lib import wiring
from amaranth.lib.wiring import In, Out

from .track_board import member_at
from .verilog_sources import add_source, logic_maker

__all__ = ["ThreadedEngines"]


class ThreadedEngines(wiring.Component):
    """``2 * logics`` engines on ``logics`` copies of ``engine``'s logic C-slowed by two.

    Parameters
    ----------
    engine : wiring.Component
        The engine to C-slow (converted once at elaboration; its logic is instantiated
        ``logics`` times). Its ``sync`` domain is the only one it may use.
    logics : int
        How many copies of its logic (at least 1).
    early : tuple of str
        The outputs (top-level members, registers' outputs in the engine) that a thread-0
        engine's inputs may depend on combinationally, through the logic around.
    captured : tuple of str
        Outputs (by port name, ``table__probe``: registers' outputs in the engine) that the
        logic around takes only into its registers: every engine's, thread 0's and thread 1's
        (its early twin), is taken into a register at the even clock's end and given from it,
        so that the paths from the engines to that logic start at registers of the odd clock
        (not the engines' own, across the chip). In the even clock they are the slow clock
        before's.
    retime : bool
        The logic synthesized for the ECP5 and cut in two stages
        (:func:`~trax_fpga.boards.cslow.retimed_module`, ``cut_at`` ns of the estimate; by
        default where the worst stage is shortest): the same computation at up to twice the
        clock. Without a platform (the Verilator build), with the ECP5 cells' simulation models.

    Members
    -------
    units : Out(engine.signature).array(2 * logics)
        The engines, each with ``engine``'s members.
    phase : Out(1)
        The thread of the clock: 0 in the even clocks, 1 in the odd ones (from power-up; no
        reset changes it).
    """

    def __init__(
        self,
        engine,
        logics: int,
        *,
        early: tuple[str, ...] = (),
        captured: tuple[str, ...] = (),
        retime: bool = False,
        cut_at: float | None = None,
    ):
        if not isinstance(logics, int) or isinstance(logics, bool) or logics < 1:
            raise ValueError(f"logics must be a positive integer, not {logics!r}")
        for name in early:
            member = engine.signature.members.get(name)
            if member is None or member.flow != Out or not member.is_port:
                raise ValueError(f"{name!r} is not one of the engine's outputs")
        outputs = {
            "__".join(str(part) for part in path)
            for path, member, _ in engine.signature.flatten(engine)
            if member.flow == Out
        }
        for name in captured:
            if name not in outputs:
                raise ValueError(f"{name!r} is not one of the engine's outputs")
        self.engine, self.logics, self.early = engine, logics, tuple(early)
        self.captured = tuple(captured)
        self.retime, self.cut_at = bool(retime), cut_at
        super().__init__({"units": Out(engine.signature).array(2 * logics), "phase": Out(1)})

    def elaborate(self, platform):
        m = Module()
        # The thread registers' clock: the sync domain's, never gated nor reset.
        m.domains.cslow = ClockDomain("cslow", reset_less=True, local=True)
        m.d.comb += ClockSignal("cslow").eq(ClockSignal("sync"))
        if self.retime:
            family = str(getattr(platform, "family", "ecp5")).lower()
            if family != "ecp5":
                raise ValueError(f"the retimed logic is the ECP5's, not the {family}'s")
        # (the C-slow's tools make the logic, with Yosys, at elaboration)
        name, sources = logic_maker()(
            self.engine,
            early=self.early,
            captured=self.captured,
            retime=self.retime,
            cut_at=self.cut_at,
            simulation=platform is None,
        )
        for file, text in sources.items():
            add_source(platform, file, text)
        members = list(self.engine.signature.flatten(self.engine))
        for k in range(self.logics):
            first, second = self.units[k], self.units[self.logics + k]
            thread = Signal(name=f"logic{k}_thread")
            ports = [
                ("i", "clk", ClockSignal("sync")),
                ("i", "rst", ResetSignal("sync")),
                ("o", "cslow_thread", thread),
            ]
            for path, member, _ in members:
                port = "__".join(str(part) for part in path)
                mine, theirs = (Value.cast(member_at(u, path)) for u in (first, second))
                if member.flow == In:
                    ports.append(("i", port, Mux(thread, theirs, mine)))
                    continue
                out = Signal(len(mine), name=f"logic{k}_{port}")
                held = Signal(len(mine), name=f"logic{k}_{port}_held")
                ports.append(("o", port, out))
                with m.If(~thread):
                    m.d.cslow += held.eq(out)
                if port in self.captured:  # (both from registers of the even clock's end)
                    early = Signal(len(mine), name=f"logic{k}_{port}_early")
                    held_early = Signal(len(mine), name=f"logic{k}_{port}_held_early")
                    ports.append(("o", f"early__{port}", early))
                    with m.If(~thread):
                        m.d.cslow += held_early.eq(early)
                    m.d.comb += [mine.eq(held), theirs.eq(held_early)]
                    continue
                m.d.comb += mine.eq(Mux(thread, held, out))
                if port in self.early:
                    early = Signal(len(mine), name=f"logic{k}_{port}_early")
                    ports.append(("o", f"early__{port}", early))
                    m.d.comb += theirs.eq(Mux(thread, out, early))
                else:
                    m.d.comb += theirs.eq(out)
            m.submodules[f"logic{k}"] = Instance(name, *ports)
            if k == 0:
                m.d.comb += self.phase.eq(thread)
        return m
