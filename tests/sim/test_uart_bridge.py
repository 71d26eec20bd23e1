"""The UART bridge: a registered rx->tx loopback echoes long streams through stdin and a pty."""

import os
import random
import statistics
import subprocess
import time
from pathlib import Path

import pytest
import serial
from amaranth.hdl import Module, Signal
from amaranth.lib import wiring
from amaranth.lib.wiring import In, Out

from trax_fpga.hdl.uart import UART, divisor_for
from trax_fpga.sim.uart_bridge import (
    bridge_command,
    open_simulated_port,
    simulated_port,
    stop_bridge,
)
from trax_fpga.sim.verilator import Model, build

CLK_HZ = 12_000_000
BAUD = 115_200  # 104 cycles per bit


class Loopback(wiring.Component):
    """tx follows rx one clock later: every byte echoes."""

    rx: In(1, init=1)
    tx: Out(1, init=1)

    def elaborate(self, platform):
        m = Module()
        m.d.sync += self.tx.eq(self.rx)
        return m


class UARTEcho(wiring.Component):
    """The project's UART with its received bytes fed straight back to its transmitter."""

    rx: In(1, init=1)
    tx: Out(1, init=1)

    def elaborate(self, platform):
        m = Module()
        m.submodules.uart = uart = UART(divisor_for(CLK_HZ, BAUD))
        wiring.connect(m, uart.rx_stream, uart.tx_stream)
        m.d.comb += [uart.rx.eq(self.rx), self.tx.eq(uart.tx)]
        return m


@pytest.fixture(scope="module")
def loopback():
    return build(Loopback())


def random_bytes(seed, count):
    return random.Random(seed).randbytes(count)


def test_stdin_stdout_echoes_a_long_continuous_stream(loopback):
    data = random_bytes(1, 1000)
    result = subprocess.run(
        bridge_command(loopback, CLK_HZ, BAUD, stats=True),
        input=data,
        capture_output=True,
        timeout=60,
        check=True,
    )
    assert result.stdout == data, "seed 1"
    # Frames went in back to back: 10 bits of 104 cycles per byte, plus a few cycles to settle.
    stats = result.stderr.decode()
    assert "1000 bytes in, 1000 bytes out, 0 framing errors" in stats
    cycles = int(stats.split("harness: ")[1].split(" cycles")[0])
    assert 1000 * 10 * 104 <= cycles <= 1000 * 10 * 104 + 2000


def test_stdin_with_an_odd_divisor(loopback):
    data = bytes(range(256))
    # 1 MHz / 115200 baud: 9 cycles per bit (8.68 rounded), the odd half-bit sampling point.
    result = subprocess.run(
        bridge_command(loopback, 1_000_000, BAUD), input=data, capture_output=True, timeout=60
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout == data


def test_empty_input_ends_at_once(loopback):
    result = subprocess.run(
        bridge_command(loopback, CLK_HZ, BAUD), input=b"", capture_output=True, timeout=30
    )
    assert (result.returncode, result.stdout) == (0, b"")


def test_pty_echoes_a_long_stream_to_pyserial(loopback):
    data = random_bytes(2, 800)
    with simulated_port(loopback, CLK_HZ, BAUD) as path, serial.Serial(path, timeout=10) as port:
        port.write(data)
        assert port.read(len(data)) == data, "seed 2"
        # Byte by byte too.
        for byte in data[:20]:
            port.write(bytes([byte]))
            assert port.read(1) == bytes([byte])


def cpu_seconds(pid):
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def test_pty_round_trip_and_idle(loopback):
    path, process = open_simulated_port(loopback, CLK_HZ, BAUD)
    try:
        with serial.Serial(path, timeout=5) as port:
            latencies = []
            for byte in range(50):
                start = time.perf_counter()
                port.write(bytes([byte]))
                assert port.read(1) == bytes([byte])
                latencies.append(time.perf_counter() - start)
            print(f"round trip at {BAUD} baud: median {statistics.median(latencies) * 1e3:.2f} ms")
            # An idle design at a fixed point costs (almost) no CPU.
            before = cpu_seconds(process.pid)
            time.sleep(0.5)
            assert cpu_seconds(process.pid) - before < 0.1
    finally:
        assert stop_bridge(process) == 0


def test_rejects_designs_without_uart_pins(tmp_path):
    model = Model(executable=tmp_path / "harness", ports={}, verilog_path=tmp_path / "top.v")
    with pytest.raises(ValueError, match=r"needs an rx: In\(1\) and a tx: Out\(1\) port"):
        bridge_command(model, CLK_HZ, BAUD)
    with pytest.raises(ValueError, match="need clk_hz >= 2 \\* baud > 0, not clk_hz=100"):
        bridge_command(model, 100, BAUD)


def test_hdl_uart_echoes_a_long_continuous_stream():
    # Gapless frames in and out: a UART that loses a clock per frame drops bytes here.
    data = random_bytes(3, 600)
    path, process = open_simulated_port(UARTEcho(), CLK_HZ, BAUD, stats=True)
    try:
        with serial.Serial(path, timeout=10) as port:
            port.write(data)
            assert port.read(len(data)) == data, "seed 3"
            before = cpu_seconds(process.pid)
            time.sleep(0.3)
            idle_cpu = cpu_seconds(process.pid) - before
    finally:
        stop_bridge(process)
    assert idle_cpu < 0.1, "the UART should settle to a fixed point when idle"


class NeverSettles(Loopback):
    """A loopback with a free-running counter: its state changes every cycle."""

    heartbeat: Out(1)

    def elaborate(self, platform):
        m = super().elaborate(platform)
        counter = Signal(20)
        m.d.sync += counter.eq(counter + 1)
        m.d.comb += self.heartbeat.eq(counter[-1])
        return m


@pytest.fixture(scope="module")
def never_settles():
    return build(NeverSettles())


def test_stdin_ends_after_linger_when_the_design_never_settles(never_settles, tmp_path):
    """The input from a file, so that it is all there at the first clock: through a pipe, a
    loaded machine wrote it some thousands of clocks late, while the design ran on (CI at
    3f2dba9: 66,574 cycles, over the bound)."""
    data = random_bytes(5, 50)
    path = tmp_path / "input"
    path.write_bytes(data)
    with path.open("rb") as stdin:
        result = subprocess.run(
            bridge_command(never_settles, CLK_HZ, BAUD, linger=5000, stats=True),
            stdin=stdin,
            capture_output=True,
            timeout=60,
        )
    assert result.stdout == data, "seed 5"
    cycles = int(result.stderr.decode().split("harness: ")[1].split(" cycles")[0])
    assert 50 * 10 * 104 + 5000 <= cycles <= 50 * 10 * 104 + 5000 + 2048


def test_speed_limit_keeps_simulated_time_to_real_time(never_settles):
    # 100 kHz, 10 kbaud: 100 bytes are 10,000 cycles, a tenth of a simulated second.
    data = bytes(range(100))
    start = time.perf_counter()
    result = subprocess.run(
        bridge_command(never_settles, 100_000, 10_000, linger=10, speed=1.0),
        input=data,
        capture_output=True,
        timeout=60,
    )
    elapsed = time.perf_counter() - start
    assert result.stdout == data
    assert elapsed >= 0.095  # no faster than real time
    with pytest.raises(ValueError, match="speed must be positive, not 0"):
        bridge_command(never_settles, 100_000, 10_000, speed=0)
