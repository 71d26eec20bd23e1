"""One thread of a design C-slowed by two (:mod:`trax_fpga.boards.cslow`), behind the backend
interface the drivers use (``set``, ``get``, ``tick``), so that a driver written for the design
drives one of its threads unchanged.

Thread 0 runs in the even clocks of the C-slowed design, thread 1 in the odd ones; each thread's
inputs are held by its view and applied in its own clocks. A view's ``tick`` runs one clock of
its thread and one of the other (with the other's inputs), so two views of one simulation step
together: a driver may run one thread while the other idles, or alternate between them.

Usage::

    with VerilatorSim(build(cslow_verilog(design))) as sim:
        first, second = ThreadView(sim, 0), ThreadView(sim, 1)
        ThreadView.pair(first, second)
        first.set("start", 1); first.tick()   # thread 1 idles with its own inputs meanwhile
"""

from __future__ import annotations

__all__ = ["SlowClockView", "ThreadView"]


class ThreadView:
    """Thread ``thread`` (0 or 1) of the C-slowed design simulated by ``sim`` (a
    :class:`~trax_fpga.sim.verilator.VerilatorSim`)."""

    def __init__(self, sim, thread: int):
        if thread not in (0, 1):
            raise ValueError(f"a design C-slowed by two has threads 0 and 1, not {thread!r}")
        self.sim = sim
        self.thread = thread
        # Every input but the clock, 0 until set: the other thread never sees this one's.
        self.inputs: dict[str, int] = {
            name: 0 for name, port in sim.model.ports.items() if port.is_input and name != "clk"
        }
        self.other: ThreadView | None = None

    @staticmethod
    def pair(first: ThreadView, second: ThreadView) -> None:
        """Make two views of one simulation each other's other thread."""
        if first.sim is not second.sim or first.thread == second.thread:
            raise ValueError("a pair is the two threads of one simulation")
        first.other, second.other = second, first

    @property
    def model(self):
        return self.sim.model

    def _at_own_clock(self) -> None:
        """Bring the simulation to this thread's clock (the other thread's inputs for the
        clock between) and apply this thread's inputs."""
        if self.sim.cycles % 2 != self.thread:
            self._apply(self.other.inputs if self.other else {})
            self.sim.tick()
        self._apply(self.inputs)

    def _apply(self, inputs: dict[str, int]) -> None:
        for name, value in inputs.items():
            self.sim.set(name, value)

    def set(self, name: str, value: int) -> None:
        self.inputs[name] = value

    def get(self, name: str) -> int:
        self._at_own_clock()
        return self.sim.get(name)

    def tick(self, cycles: int = 1) -> None:
        """``cycles`` clocks of this thread (and as many of the other's, after each)."""
        for _ in range(cycles):
            self._at_own_clock()
            self.sim.tick()
            self._apply(self.other.inputs if self.other else {})
            self.sim.tick()

    def close(self) -> None:
        """Close the simulation (both threads')."""
        self.sim.close()


class SlowClockView:
    """A design whose ``sync`` domain runs in every other clock (the odd ones, from 0), such as
    :class:`~trax_fpga.hdl.parallel_search.ParallelSearch` with ``threads=2``, seen at its own
    clock: a ``tick`` runs two clocks of ``sim`` from an even one, ``get`` reads in an even
    clock, and ``reset`` holds the reset two clocks a tick. A driver written for the design with
    engines of their own drives it unchanged."""

    def __init__(self, sim):
        self.sim = sim

    @property
    def model(self):
        return self.sim.model

    def _align(self) -> None:
        if self.sim.cycles % 2:
            self.sim.tick()

    def set(self, name: str, value: int) -> None:
        self.sim.set(name, value)

    def get(self, name: str) -> int:
        self._align()
        return self.sim.get(name)

    def tick(self, cycles: int = 1) -> None:
        self._align()
        self.sim.tick(2 * cycles)

    def tick_until(self, port, value: int, max_cycles: int) -> int:
        """As :meth:`~trax_fpga.sim.verilator.VerilatorSim.tick_until`, in slow clocks."""
        self._align()
        taken = self.sim.tick_until(port, value, max_cycles=2 * max_cycles)
        self._align()  # (the outputs change in the even clocks only: never needed)
        return (taken + 1) // 2

    def reset(self, cycles: int = 1) -> None:
        self._align()
        self.sim.reset(2 * cycles)

    def close(self) -> None:
        self.sim.close()
