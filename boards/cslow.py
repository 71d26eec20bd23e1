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

from .build import tool_environment
from .paths import free_bit

__all__ = ["cslow_module", "cslow_netlist", "cslow_verilog", "prepare_script"]


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


def cslow_netlist(doc: dict, top: str = "top", *, early: tuple[str, ...] = ()) -> dict:
    """C-slow module ``top`` of the Yosys JSON ``doc`` by two, in place; ``doc``.

    ``early`` names outputs that are registers' outputs: each gets a twin, ``early__<name>``,
    the register's first copy, which holds in a clock the value the output takes in the next
    (the other thread's, a clock early).

    Raises ValueError for what it does not take: a register other than ``$dff``, a memory port
    with an enable, a reset or wide words, more than one clock; an ``early`` output that is not
    a register's."""
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
        if kind == "$dff":
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
            for i in range(rd_ports):
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
    designs' modules never clash. Kept in the Verilator builds' cache
    (:func:`trax_fpga.sim.verilator.cache_dir`) by that digest."""
    from ..sim.verilator import cache_dir

    design = rtlil.convert(component, name="cslow_design")
    digest = hashlib.sha256(repr((_VERSION, early, design)).encode()).hexdigest()
    name = f"cslow_{digest[:12]}"
    kept = cache_dir() / "cslow" / f"{digest[:24]}.v"
    if kept.exists():
        return name, kept.read_text()
    text = _cslow_rtlil(design.replace("cslow_design", name), name, early)
    kept.parent.mkdir(parents=True, exist_ok=True)
    partial = kept.with_name(f"{kept.name}.tmp{os.getpid()}")
    partial.write_text(text)
    partial.replace(kept)
    return name, text


#: Part of :func:`cslow_module`'s cache key: bump when the transform changes.
_VERSION = "cslow 2"


def _cslow_rtlil(design: str, top: str, early: tuple[str, ...] = ()) -> str:
    """The Verilog of the RTLIL ``design`` (top module ``top``) C-slowed by two."""
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
