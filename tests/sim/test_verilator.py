"""The Verilator harness against amaranth.sim on one small design, value by value."""

import os
import random
import threading

import pytest
from amaranth.hdl import Cat, Module, signed
from amaranth.lib import stream, wiring
from amaranth.lib.wiring import In, Out
from amaranth.sim import Simulator

from trax_fpga.sim import verilator as verilator_module
from trax_fpga.sim.verilator import SimulationError, VerilatorSim, _decode_cxx_name

WIDE = 300


class Playground(wiring.Component):
    """A counter, a 300-bit rotating register, a signed combinational port and a stream stage."""

    en: In(1)
    count: Out(16)
    load: In(1)
    wide_in: In(WIDE)
    wide: Out(WIDE)
    parity: Out(1)
    a: In(signed(8))
    b: In(8)
    difference: Out(signed(10))
    i_stream: In(stream.Signature(8))
    o_stream: Out(stream.Signature(9))
    done: Out(1)

    def elaborate(self, platform):
        m = Module()
        with m.If(self.en):
            m.d.sync += self.count.eq(self.count + 1)
        m.d.comb += self.done.eq(self.count == 1000)
        with m.If(self.load):
            m.d.sync += self.wide.eq(self.wide_in)
        with m.Else():
            m.d.sync += self.wide.eq(Cat(self.wide[-1], self.wide[:-1]))
        m.d.comb += self.parity.eq(self.wide.xor())
        m.d.comb += self.difference.eq(self.a - self.b)
        # A one-entry buffer that adds one to each payload.
        m.d.comb += self.i_stream.ready.eq(~self.o_stream.valid | self.o_stream.ready)
        with m.If(self.o_stream.valid & self.o_stream.ready):
            m.d.sync += self.o_stream.valid.eq(0)
        with m.If(self.i_stream.valid & self.i_stream.ready):
            m.d.sync += self.o_stream.payload.eq(self.i_stream.payload + 1)
            m.d.sync += self.o_stream.valid.eq(1)
        return m


INPUTS = {
    "en": 1,
    "load": 1,
    "wide_in": WIDE,
    "a": 8,
    "b": 8,
    "i_stream__valid": 1,
    "i_stream__payload": 8,
    "o_stream__ready": 1,
}
OUTPUTS = [
    "count",
    "wide",
    "parity",
    "difference",
    "i_stream__ready",
    "o_stream__valid",
    "o_stream__payload",
    "done",
]


def stimulus(seed, cycles):
    rng = random.Random(seed)
    steps = []
    for _ in range(cycles):
        step = {name: rng.getrandbits(width) for name, width in INPUTS.items()}
        step["load"] = int(rng.random() < 0.1)
        step["a"] -= 128  # a signed value
        steps.append(step)
    return steps


def signal_of(dut, name):
    value = dut
    for part in name.split("__"):
        value = getattr(value, part)
    return value


def run_amaranth(steps):
    dut = Playground()
    trace = []

    async def testbench(ctx):
        for step in steps:
            for name, value in step.items():
                ctx.set(signal_of(dut, name), value)
            trace.append([ctx.get(signal_of(dut, name)) for name in OUTPUTS])
            await ctx.tick()

    sim = Simulator(dut)
    sim.add_clock(1e-6)
    sim.add_testbench(testbench)
    sim.run()
    return trace


@pytest.fixture(scope="module")
def playground():
    dut = Playground()
    with VerilatorSim(dut) as sim:
        yield dut, sim


@pytest.mark.parametrize("seed", [1, 2])
def test_matches_amaranth_sim_cycle_by_cycle(playground, seed):
    _dut, sim = playground
    sim.reset()
    steps = stimulus(seed, 200)
    trace = []
    for step in steps:
        for name, value in step.items():
            sim.set(name, value)
        trace.append(sim.get_many(OUTPUTS))
        sim.tick()
    sim.reset()  # registers back to their init values for the amaranth run's start
    expected = run_amaranth(steps)
    for cycle, (got, want) in enumerate(zip(trace, expected, strict=True)):
        got, want = dict(zip(OUTPUTS, got, strict=True)), dict(zip(OUTPUTS, want, strict=True))
        assert got == want, f"seed {seed}, cycle {cycle}"


def test_wide_port_round_trips_every_bit(playground):
    _dut, sim = playground
    rng = random.Random(3)
    for value in [0, (1 << WIDE) - 1, 1 << (WIDE - 1), 1 << 64, rng.getrandbits(WIDE)]:
        sim.set("wide_in", value)
        sim.set("load", 1)
        sim.tick()
        sim.set("load", 0)
        assert sim.get("wide") == value
        sim.tick()
        assert sim.get("wide") == ((value << 1) | (value >> (WIDE - 1))) & ((1 << WIDE) - 1)


def test_signed_port_and_signal_objects(playground):
    dut, sim = playground
    sim.set(dut.a, -100)
    sim.set(dut.b, 200)
    assert sim.get(dut.difference) == -300
    assert sim.get("difference") == -300
    sim.set("i_stream.payload", 7)  # a dotted path works too
    assert sim.get(dut.i_stream.payload) == 7


def test_tick_until_counts_cycles(playground):
    _dut, sim = playground
    sim.reset()
    sim.set("en", 1)
    start = sim.cycles
    assert sim.tick_until("done", 1, max_cycles=5000) == 1000
    assert sim.tick_until("done", 1, max_cycles=5000) == 0
    assert sim.get("count") == 1000
    assert sim.cycles == start + 1000
    assert sim.harness_cycles() == sim.cycles
    sim.set("en", 0)
    sim.tick()
    with pytest.raises(TimeoutError, match="done did not become 0 within 10 cycles"):
        sim.tick_until("done", 0, max_cycles=10)
    assert sim.harness_cycles() == sim.cycles


def test_errors_name_the_port(playground):
    _dut, sim = playground
    with pytest.raises(KeyError, match="no port 'nope'"):
        sim.get("nope")
    with pytest.raises(ValueError, match="'count' is an output"):
        sim.set("count", 1)


def test_decode_verilator_names():
    assert _decode_cxx_name("i_stream___05Fpayload") == "i_stream__payload"
    assert _decode_cxx_name("plain_name") == "plain_name"


def test_exited_harness_is_reported(playground):
    _dut, sim = playground
    other = VerilatorSim(sim.model)
    other._process.kill()
    with pytest.raises(SimulationError, match="exited with status"):
        other.get("count")
    other.close()


def run_amaranth_exchange(payloads):
    """The exchange protocol of the harness, written as an amaranth.sim testbench."""
    dut = Playground()
    result = {}

    async def testbench(ctx):
        n, sent, received, outputs, cycles = len(payloads), 0, 0, [], 0
        while sent < n or received < n:
            ctx.set(dut.i_stream.valid, sent < n)
            if sent < n:
                ctx.set(dut.i_stream.payload, payloads[sent])
            ctx.set(dut.o_stream.ready, received < n)
            in_fire = sent < n and ctx.get(dut.i_stream.ready)
            out_fire = received < n and ctx.get(dut.o_stream.valid)
            if out_fire:
                outputs.append(ctx.get(dut.o_stream.payload))
            await ctx.tick()
            cycles += 1
            sent += in_fire
            received += out_fire
        result.update(cycles=cycles, outputs=outputs)

    sim = Simulator(dut)
    sim.add_clock(1e-6)
    sim.add_testbench(testbench)
    sim.run()
    return result


def test_stream_exchange_matches_amaranth_sim(playground):
    dut, sim = playground
    sim.reset()
    payloads = random.Random(4).choices(range(256), k=40)
    exchange = sim.exchange(dut.i_stream, payloads, dut.o_stream, len(payloads), max_cycles=1000)
    expected = run_amaranth_exchange(payloads)
    assert exchange.received == [(p + 1) & 0x1FF for p in payloads] == expected["outputs"]
    assert exchange.cycles == expected["cycles"]
    assert exchange.sent == len(payloads)
    assert sim.get_many(["i_stream__valid", "o_stream__ready"]) == [0, 0]


def test_stream_send_receive_until_and_timeout(playground):
    _dut, sim = playground
    sim.reset()
    # Nobody reads the output: the one-entry buffer takes a payload, then stalls the input.
    with pytest.raises(TimeoutError, match="sent 1 of 2, received 0") as raised:
        sim.send("i_stream", [10, 20], max_cycles=50)
    assert raised.value.args[1].sent == 1
    assert sim.receive("o_stream", 1, max_cycles=10) == [11]
    assert sim.send("i_stream", [20], max_cycles=10) == 1
    assert sim.receive("o_stream", until=21, max_cycles=10) == [21]
    with pytest.raises(TimeoutError, match="received 0"):
        sim.receive("o_stream", 1, max_cycles=20)
    exchange = sim.exchange("i_stream", [1, 2, 3, 4], "o_stream", until=4, max_cycles=100)
    assert exchange.received == [2, 3, 4]
    assert exchange.sent == 4
    assert sim.receive("o_stream", 1, max_cycles=10) == [5]
    assert sim.harness_cycles() == sim.cycles


def test_cache_keeps_the_most_recent_builds(tmp_path, monkeypatch):
    """The oldest builds go, and unfinished ones a day old; the index folders of builds found
    by their parameters (``boards``, ``designs``) are no builds, however old, and stay."""
    monkeypatch.setattr(verilator_module, "CACHE_SIZE", 3)
    for age, name in enumerate(["e", "d", "c", "b", "a"]):
        (tmp_path / name).mkdir()
        (tmp_path / name / "ports.json").write_text("[]")
        os.utime(tmp_path / name, (1000 - age, 1000 - age))
    for name in ("x.tmp123", "boards", "designs"):
        (tmp_path / name).mkdir()
        os.utime(tmp_path / name, (900, 900))
    verilator_module._prune(tmp_path)
    # Room for the build about to be made: the two most recent stay.
    assert sorted(entry.name for entry in tmp_path.iterdir()) == ["boards", "d", "designs", "e"]


COUNTER = """module top(input clk, input rst, output reg [7:0] count);
  always @(posedge clk) count <= rst ? 8'd0 : count + 8'd1;
endmodule
"""


def test_a_build_under_way_is_waited_for_not_made_twice(tmp_path):
    """Two builds of one design at once (two test workers, two ``trax sim``): the second waits
    for the first's and takes it from the cache."""
    started = threading.Event()
    said = {"first": [], "second": []}
    built = {}

    def run(name: str) -> None:
        def report(text):
            if text is not None:
                said[name].append(text)
                started.set()

        with verilator_module.reporting(report):
            built[name] = verilator_module.build(COUNTER, cache=tmp_path)

    first = threading.Thread(target=run, args=("first",))
    first.start()
    assert started.wait(60)
    second = threading.Thread(target=run, args=("second",))
    second.start()
    first.join(600)
    second.join(600)
    assert [text.split()[0] for text in said["first"]] == ["building"]
    assert [text.split()[0] for text in said["second"]] == ["waiting"]
    assert built["first"].executable == built["second"].executable
    builds = [e.name for e in tmp_path.iterdir() if e.is_dir() and e.name != "runtime"]
    assert builds == [built["first"].executable.parent.parent.name]


def test_verilators_runtime_is_compiled_once_for_all_designs(tmp_path):
    """The first build keeps Verilator's runtime objects in the cache's ``runtime`` folder; a
    build of another design copies them and compiles only its own code, and runs."""
    first = verilator_module.build(COUNTER, cache=tmp_path)
    kept = [e for e in (tmp_path / "runtime").iterdir() if ".tmp" not in e.name]
    assert len(kept) == 1
    assert sorted(f.name for f in kept[0].iterdir()) == sorted(verilator_module.RUNTIME_OBJECTS)
    assert "verilated.cpp" in (first.executable.parent.parent / "build.log").read_text()
    down = COUNTER.replace("count + 8'd1", "count - 8'd1")
    second = verilator_module.build(down, cache=tmp_path)
    assert second.executable != first.executable
    log = (second.executable.parent.parent / "build.log").read_text()
    assert "verilated.cpp" not in log and "verilated_threads.cpp" not in log
    with VerilatorSim(second) as sim:
        sim.set("rst", 1)
        sim.tick(1)
        sim.set("rst", 0)
        sim.tick(3)
        assert sim.get("count") == 253


def test_a_build_is_found_by_its_parameters_without_converting_the_design(tmp_path, monkeypatch):
    """``build_by_parameters``: the first start makes the design and builds it; a second start
    with the same key takes the build without making the design; another key (other
    parameters, or gateware sources that changed) makes it again, and finds the Verilog's
    build when the Verilog is the same."""
    monkeypatch.setenv("TRAX_VERILATOR_CACHE", str(tmp_path))
    made = []

    def make():
        made.append(1)
        return COUNTER

    key = verilator_module.gateware_key("counter, 8 bits")
    first = verilator_module.build_by_parameters(key, make)
    second = verilator_module.build_by_parameters(key, make)
    assert len(made) == 1
    assert second.executable == first.executable and second.executable.exists()
    assert verilator_module.gateware_key("counter, 9 bits") != key
    other = verilator_module.build_by_parameters(verilator_module.gateware_key("other"), make)
    assert len(made) == 2 and other.executable == first.executable
