"""cocotb helpers for the player at its pins: a UART driver and monitor in simulated time, and
a referee's view of the board (send a line, read the answer and the clocks it took).

Time is counted in clocks of the testbench's clock (:data:`CLOCK_NS` per clock), so that
answer times come out in clocks of the design whatever its nominal frequency.
"""

from __future__ import annotations

import cocotb
from cocotb.clock import Clock
from cocotb.queue import Queue, QueueEmpty
from cocotb.simtime import get_sim_time
from cocotb.triggers import ClockCycles, FallingEdge, Timer, with_timeout

__all__ = ["CLOCK_NS", "PinUart", "start_player"]

#: The testbench clock period, in ns.
CLOCK_NS = 10


def now_cycles() -> int:
    return int(get_sim_time(unit="ns")) // CLOCK_NS


async def start_player(dut) -> None:
    """Start the clock, hold the line idle, reset for a few clocks."""
    cocotb.start_soon(Clock(dut.clk, CLOCK_NS, unit="ns").start())
    dut.rx.value = 1
    dut.rst.value = 1
    await ClockCycles(dut.clk, 4)
    dut.rst.value = 0
    await ClockCycles(dut.clk, 4)


class PinUart:
    """8N1 at ``divisor`` clocks per bit on ``dut.rx`` (driven) and ``dut.tx`` (monitored)."""

    def __init__(self, dut, divisor: int) -> None:
        self.dut = dut
        self.divisor = divisor
        self.bit_ns = divisor * CLOCK_NS
        self.received: Queue = Queue()  # (byte, clock of its start bit's falling edge)
        self.sent_end = 0  # the clock at which the last stop bit sent ended
        self._monitor = cocotb.start_soon(self._watch())

    async def _watch(self) -> None:
        tx = self.dut.tx
        while True:
            await FallingEdge(tx)
            start = now_cycles()
            await Timer(self.bit_ns // 2, unit="ns")
            if int(tx.value) != 0:
                continue  # a glitch, not a start bit
            byte = 0
            for bit in range(8):
                await Timer(self.bit_ns, unit="ns")
                byte |= int(tx.value) << bit
            await Timer(self.bit_ns, unit="ns")
            assert int(tx.value) == 1, f"no stop bit after {byte:#04x} from tx"
            self.received.put_nowait((byte, start))

    async def send_byte(self, byte: int, *, stop: int = 1) -> None:
        """One frame; ``stop=0`` makes a framing error (the line then idles a bit)."""
        for bit in [0, *((byte >> i) & 1 for i in range(8)), stop]:
            self.dut.rx.value = bit
            await Timer(self.bit_ns, unit="ns")
        if not stop:
            self.dut.rx.value = 1
            await Timer(self.bit_ns, unit="ns")
        self.sent_end = now_cycles()

    async def send(self, data: bytes) -> None:
        for byte in data:
            await self.send_byte(byte)

    async def glitch(self, clocks: int) -> None:
        """Pull rx low for ``clocks`` clocks, then idle for a bit time."""
        self.dut.rx.value = 0
        await Timer(clocks * CLOCK_NS, unit="ns")
        self.dut.rx.value = 1
        await Timer(self.bit_ns, unit="ns")

    async def idle(self, clocks: int) -> None:
        await Timer(clocks * CLOCK_NS, unit="ns")

    def drain(self) -> bytes:
        """Whatever was received and not read yet."""
        data = bytearray()
        while True:
            try:
                data.append(self.received.get_nowait()[0])
            except QueueEmpty:
                return bytes(data)

    async def read_line(self, max_clocks: int) -> tuple[bytes, int]:
        """The next line received (up to LF) and the clock of its first start bit; raises
        ``TimeoutError`` (cocotb's ``SimTimeoutError``) if it does not end in time."""
        line, first = bytearray(), None
        deadline = now_cycles() + max_clocks
        while not line.endswith(b"\n"):
            left = max(1, deadline - now_cycles())
            byte, start = await with_timeout(self.received.get(), left * CLOCK_NS, "ns")
            first = start if first is None else first
            line.append(byte)
        return bytes(line), first

    async def ask(self, line: bytes, max_clocks: int) -> tuple[bytes, int]:
        """Send ``line``; return the answer line and its time in clocks, from the end of the
        line's last stop bit to the falling edge of the answer's first start bit."""
        await self.send(line)
        answer, first = await self.read_line(max_clocks)
        return answer, first - self.sent_end

    async def expect_silence(self, clocks: int) -> None:
        await self.idle(clocks)
        extra = self.drain()
        assert extra == b"", f"expected silence, the board sent {extra!r}"
