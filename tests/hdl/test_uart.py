# amaranth: UnusedElaboratable=no
"""The 8N1 UART against a bit-level Python model of the line, in amaranth.sim."""

from __future__ import annotations

import itertools
import random

import pytest
from amaranth import Module
from amaranth.back import verilog
from amaranth.sim import Simulator

from trax_fpga.hdl.uart import (
    MIN_DIVISOR,
    UART,
    UARTReceiver,
    UARTTransmitter,
    divisor_for,
)

# --- the line model ------------------------------------------------------------------------------


def frame_bits(byte: int) -> list[int]:
    """The 10 line levels of one 8N1 frame: start, data LSB first, stop."""
    return [0, *((byte >> i) & 1 for i in range(8)), 1]


def line_levels(
    data: bytes, bit_cycles: float, *, idle_before: int = 3, idle_after: int = 0, gap_bits: int = 0
) -> list[int]:
    """Per-cycle levels of a line sending ``data``, each bit ``bit_cycles`` (maybe fractional) long.

    ``gap_bits`` idle bits follow every frame; bit edges fall at rounded multiples of the bit.
    """
    bits = []
    for byte in data:
        bits += frame_bits(byte) + [1] * gap_bits
    levels = [1] * idle_before
    for k, bit in enumerate(bits):
        length = round((k + 1) * bit_cycles) - round(k * bit_cycles)
        levels += [bit] * length
    return levels + [1] * idle_after


def decode_line(levels: list[int], divisor: int) -> list[tuple[int, int]]:
    """Model receiver: (start cycle, byte) of every frame on a line sampled once per cycle.

    Asserts that every stop bit is high.
    """
    frames = []
    t = 1
    while t < len(levels):
        if levels[t - 1] == 1 and levels[t] == 0:
            centre = t + divisor // 2
            if centre + 9 * divisor >= len(levels):
                raise AssertionError(f"truncated frame starting at cycle {t}")
            bits = [levels[centre + i * divisor] for i in range(10)]
            assert bits[0] == 0 and bits[9] == 1, f"bad frame at cycle {t}: {bits}"
            frames.append((t, sum(b << i for i, b in enumerate(bits[1:9]))))
            t = centre + 9 * divisor
        else:
            t += 1
    return frames


# --- harnesses ----------------------------------------------------------------------------------


def run_receiver(divisor: int, levels: list[int], *, ready: bool = True) -> dict[str, list]:
    """Drive the receiver's pin with ``levels`` (one per cycle); collect what it reports.

    Returns ``bytes`` (bytes taken from the stream), ``framing`` and ``overrun`` (strobe cycles),
    and ``held`` (the stream's payload at the end if still valid, else None).
    """
    dut = UARTReceiver(divisor)
    out = {"bytes": [], "framing": [], "overrun": [], "held": None}

    async def testbench(ctx):
        ctx.set(dut.o_stream.ready, int(ready))
        for cycle, level in enumerate(levels):
            ctx.set(dut.rx, level)
            if ctx.get(dut.o_stream.valid) and ready:
                out["bytes"].append(ctx.get(dut.o_stream.payload))
            if ctx.get(dut.framing_error):
                out["framing"].append(cycle)
            if ctx.get(dut.overrun):
                out["overrun"].append(cycle)
            await ctx.tick()
        if ctx.get(dut.o_stream.valid):
            out["held"] = ctx.get(dut.o_stream.payload)

    sim = Simulator(dut)
    sim.add_clock(1e-6)
    sim.add_testbench(testbench)
    sim.run()
    return out


def run_transmitter(divisor: int, data: bytes, *, pauses: dict[int, int] | None = None):
    """Offer ``data`` to the transmitter as fast as it takes it (``pauses[i]`` idle cycles before
    offering byte i); return (per-cycle tx levels, cycles at which each byte was taken)."""
    dut = UARTTransmitter(divisor)
    pauses = pauses or {}
    levels, taken = [], []

    async def testbench(ctx):
        cycle = 0
        for index, byte in enumerate(data):
            for _ in range(pauses.get(index, 0)):
                levels.append(ctx.get(dut.tx))
                await ctx.tick()
                cycle += 1
            ctx.set(dut.i_stream.valid, 1)
            ctx.set(dut.i_stream.payload, byte)
            while not ctx.get(dut.i_stream.ready):
                levels.append(ctx.get(dut.tx))
                await ctx.tick()
                cycle += 1
            taken.append(cycle)
            levels.append(ctx.get(dut.tx))
            await ctx.tick()
            cycle += 1
            ctx.set(dut.i_stream.valid, 0)
        for _ in range(11 * divisor):
            levels.append(ctx.get(dut.tx))
            await ctx.tick()

    sim = Simulator(dut)
    sim.add_clock(1e-6)
    sim.add_testbench(testbench)
    sim.run()
    return levels, taken


def run_loopback(divisor: int, data: bytes) -> tuple[list[int], list[int], int]:
    """Transmitter wired to receiver, bytes offered back to back; returns (received bytes, the
    cycles at which the transmitter took each byte, total cycles run)."""
    m = Module()
    m.submodules.transmitter = tx = UARTTransmitter(divisor)
    m.submodules.receiver = rx = UARTReceiver(divisor)
    m.d.comb += rx.rx.eq(tx.tx)
    received, taken = [], []
    budget = (len(data) + 2) * 10 * divisor + 20

    async def testbench(ctx):
        queue = list(data)
        ctx.set(rx.o_stream.ready, 1)
        for cycle in range(budget):
            if queue:
                ctx.set(tx.i_stream.valid, 1)
                ctx.set(tx.i_stream.payload, queue[0])
                if ctx.get(tx.i_stream.ready):
                    taken.append(cycle)
                    queue.pop(0)
            else:
                ctx.set(tx.i_stream.valid, 0)
            if ctx.get(rx.o_stream.valid):
                received.append(ctx.get(rx.o_stream.payload))
            assert not ctx.get(rx.framing_error), f"framing error at cycle {cycle}"
            assert not ctx.get(rx.overrun), f"overrun at cycle {cycle}"
            await ctx.tick()

    sim = Simulator(m)
    sim.add_clock(1e-6)
    sim.add_testbench(testbench)
    sim.run()
    return received, taken, budget


def random_bytes(seed: int, count: int) -> bytes:
    rng = random.Random(seed)
    return bytes([0x00, 0xFF, 0x55, 0xAA] + [rng.randrange(256) for _ in range(count - 4)])


# --- tests --------------------------------------------------------------------------------------


@pytest.mark.parametrize("divisor", [4, 5, 8, 13])
def test_8n1_round_trip_at_several_rates(divisor):
    data = random_bytes(divisor, 24)
    received, _, _ = run_loopback(divisor, data)
    assert bytes(received) == data, f"divisor {divisor}"


@pytest.mark.parametrize("divisor", [4, 7, 16])
def test_receiver_decodes_model_frames(divisor):
    data = random_bytes(100 + divisor, 20)
    out = run_receiver(divisor, line_levels(data, divisor, idle_after=2 * divisor))
    assert bytes(out["bytes"]) == data
    assert out["framing"] == [] and out["overrun"] == []


@pytest.mark.parametrize("divisor", [4, 9])
def test_transmitter_sends_exact_8n1_waveform(divisor):
    data = random_bytes(200 + divisor, 12)
    levels, taken = run_transmitter(divisor, data, pauses={0: 3, 5: 7 * divisor + 1})
    assert decode_line(levels, divisor) == [(t + 1, b) for t, b in zip(taken, data, strict=True)]
    # Level by level: idle high, then each frame exactly 10 * divisor cycles from its take.
    expected = [1] * len(levels)
    for t, byte in zip(taken, data, strict=True):
        for i, bit in enumerate(frame_bits(byte)):
            expected[t + 1 + i * divisor : t + 1 + (i + 1) * divisor] = [bit] * divisor
    assert levels == expected


@pytest.mark.parametrize("divisor", [4, 6])
def test_long_continuous_stream_loses_no_byte_and_no_clock(divisor):
    data = random_bytes(300 + divisor, 200)
    received, taken, _ = run_loopback(divisor, data)
    assert bytes(received) == data
    # Back to back: each byte is taken exactly one frame after the previous one.
    gaps = {b - a for a, b in itertools.pairwise(taken)}
    assert gaps == {10 * divisor}, f"frame spacing {sorted(gaps)}, expected {10 * divisor}"


def test_framing_error_drops_the_byte_and_is_flagged():
    divisor = 8
    bad = [1] * 3
    for bit in [0, 1, 0, 1, 0, 1, 1, 0, 0, 0]:  # stop bit low
        bad += [bit] * divisor
    levels = bad + [1] * (2 * divisor) + line_levels(b"Z", divisor, idle_after=2 * divisor)
    out = run_receiver(divisor, levels)
    assert len(out["framing"]) == 1
    assert bytes(out["bytes"]) == b"Z"


def test_glitch_shorter_than_half_a_bit_is_ignored():
    divisor = 16
    for width in range(1, divisor // 2 - 1):
        levels = [1] * 5 + [0] * width + [1] * (12 * divisor)
        levels += line_levels(b"\x42", divisor, idle_after=2 * divisor)
        out = run_receiver(divisor, levels)
        assert bytes(out["bytes"]) == b"\x42", f"glitch of {width} cycles"
        assert out["framing"] == [], f"glitch of {width} cycles"


def test_recovers_after_a_break():
    divisor = 8
    levels = [1] * 5 + [0] * (30 * 10 * divisor) + [1] * (2 * divisor)
    levels += line_levels(b"ok", divisor, idle_after=2 * divisor)
    out = run_receiver(divisor, levels)
    assert len(out["framing"]) == 1, "one framing error per break, not one per frame time"
    assert bytes(out["bytes"]) == b"ok"


def test_recovers_after_noise():
    divisor = 8
    rng = random.Random(7)
    for trial in range(6):
        noise = [rng.randrange(2) for _ in range(rng.randrange(20, 200))]
        levels = [1] * 3 + noise + [1] * (11 * divisor)
        levels += line_levels(b"T\n", divisor, idle_after=2 * divisor)
        out = run_receiver(divisor, levels)
        assert bytes(out["bytes"][-2:]) == b"T\n", f"seed 7 trial {trial}: {out}"


@pytest.mark.parametrize("scale", [0.98, 1.02])
@pytest.mark.parametrize("divisor", [8, 16])
def test_baud_rate_tolerance_two_percent(divisor, scale):
    data = random_bytes(400 + divisor, 30)
    out = run_receiver(divisor, line_levels(data, divisor * scale, idle_after=2 * divisor))
    assert bytes(out["bytes"]) == data, f"divisor {divisor}, bit length x{scale}"
    assert out["framing"] == []


def test_overrun_keeps_the_first_byte_and_flags_the_second():
    divisor = 4
    out = run_receiver(divisor, line_levels(b"ab", divisor, idle_after=2 * divisor), ready=False)
    assert out["held"] == ord("a")
    assert len(out["overrun"]) == 1


def test_realistic_rate_12mhz_19200_baud():
    divisor = divisor_for(12_000_000, 19200)
    assert divisor == 625
    received, taken, _ = run_loopback(divisor, b"A1")
    assert bytes(received) == b"A1"
    assert taken[1] - taken[0] == 10 * divisor


@pytest.mark.parametrize("clk_freq", [12_000_000, 25_000_000, 48_000_000])
@pytest.mark.parametrize("baud", [9600, 19200, 38400, 57600, 115200])
def test_divisor_for_common_rates(clk_freq, baud):
    divisor = divisor_for(clk_freq, baud)
    assert abs(clk_freq / divisor - baud) / baud <= 0.01
    assert divisor >= MIN_DIVISOR


def test_divisor_for_rejects_bad_rates():
    with pytest.raises(ValueError, match=r"baud rate 4000000 is too fast for a 12000000 Hz clock"):
        divisor_for(12_000_000, 4_000_000)
    with pytest.raises(ValueError, match=r"is off by"):
        divisor_for(1_000_000, 115200)
    with pytest.raises(ValueError, match=r"baud rate must be a positive integer, not 0"):
        divisor_for(12_000_000, 0)
    with pytest.raises(ValueError, match=r"clock frequency must be a positive number, not -1"):
        divisor_for(-1, 19200)


@pytest.mark.parametrize("cls", [UARTReceiver, UARTTransmitter, UART])
def test_rejects_bad_divisor(cls):
    with pytest.raises(ValueError, match=r"divisor must be an integer of at least 4, not 3"):
        cls(3)
    with pytest.raises(ValueError, match=r"not 8\.5"):
        cls(8.5)


@pytest.mark.parametrize("cls", [UARTReceiver, UARTTransmitter, UART])
def test_converts_to_verilog(cls):
    text = verilog.convert(cls(divisor_for(12_000_000, 19200)), name="uart")
    assert "module uart" in text
