"""A second pipeline stage cut into a synthesized ECP5 netlist, where its estimated arrival
crosses a time: the nets the stage registers, and the netlist with those registers in it.

``python -m trax_fpga.boards.retime BUILD_DIR/top.json [--at NS] [--write OUT.json]``

The board's decision clock is one loop, from a block RAM's read through the search and the
board's control to the next read's address (docs/area.md, "Fiftieth session"): no register
can go into it without a clock more a node. A design *C-slowed* by two (every register
doubled, every memory's address with a thread bit) runs two independent searches on the same
logic, each at every other clock, and its second registers may then move forward into the
logic (retiming) without changing what either thread computes. This module finds where they
go: every cell whose output :mod:`.paths` estimates later than ``at`` is in the second stage,
with the cells that must lie with it (a carry chain is one stage; a wide LUT's multiplexer
takes its inputs from LUTs of its own stage, copied when others read them too; a distributed
RAM's write is an endpoint, its read address logic), and every net from the first stage into
the second, or into an endpoint, gets a register.

Until the engines are C-slowed (docs/cslow.md) the written netlist is a timing experiment: it
places and routes (``nextpnr-ecp5 --json OUT.json ...``), and its clock says what the
two-stage design would reach, but it does not compute what the design does.
"""

from __future__ import annotations

import argparse
import copy
import json
import sys
from dataclasses import dataclass, field

from .paths import Netlist, Timing, comb_inputs, free_bit, is_endpoint, longest_paths

__all__ = ["StageCut", "insert_registers", "main", "stage_cut"]

#: A wide LUT's multiplexer inputs that must come straight from a cell of its slice.
_INSIDE = {"PFUMX": ("ALUT", "BLUT"), "L6MUX21": ("D0", "D1")}
_SEQUENTIAL = ("TRELLIS_FF", "DP16KD")


@dataclass
class StageCut:
    """The second stage: its cells (``late``), the net bits registered at its entry with the
    cell inputs each feeds (``sinks``: bit -> [(cell, port, index)]), and the LUTs copied for a
    multiplexer of the second stage (``copies``: new cell -> (cell copied, its output bit))."""

    at: float
    late: set[str]
    sinks: dict[int, list[tuple[str, str, int]]]
    copies: dict[str, tuple[str, int]] = field(default_factory=dict)


def _outputs(cell: dict) -> list[tuple[str, int]]:
    return [
        (p, b)
        for p, bits in cell["connections"].items()
        if cell["port_directions"].get(p) == "output"
        for b in bits
        if isinstance(b, int)
    ]


def _inputs(cell: dict) -> list[tuple[str, int, int]]:
    return [
        (p, i, b)
        for p, bits in cell["connections"].items()
        if cell["port_directions"].get(p) == "input"
        for i, b in enumerate(bits)
        if isinstance(b, int)
    ]


def stage_cut(
    netlist: Netlist,
    at: float,
    *,
    inputs_first: bool = False,
    first: frozenset[int] = frozenset(),
    exempt: frozenset[str] = frozenset(),
) -> StageCut:
    """The second stage of ``netlist`` after ``at`` ns (see the module's docstring). Copies of
    LUTs are added to ``netlist.module``'s cells and nets (the only change made here).

    For a block of a design (a C-slowed engine, :func:`.cslow.retimed_module`):
    ``inputs_first``, the module's inputs are first-stage nets (registered where they enter the
    second stage or an endpoint); ``first``, net bits made in the first stage, all the logic
    before them (its outputs, say: ValueError if one cannot be, the cut being too early for
    it); ``exempt``, cells whose endpoints take no register (a register toggling with the
    clock, whatever the stages)."""
    timing = Timing(netlist)
    module = netlist.module
    cells = module["cells"]
    driver = timing.driver
    inputs = {
        b
        for port in module.get("ports", {}).values()
        if port["direction"] == "input"
        for b in port["bits"]
        if isinstance(b, int)
    }

    def driver_cell(bit):
        return driver[bit][0] if isinstance(bit, int) and bit in driver else None

    readers: dict[int, list[tuple[str, str]]] = {}
    for cname, cell in cells.items():
        for port, _, b in _inputs(cell):
            readers.setdefault(b, []).append((cname, port))

    # The cells whose outputs reach a bit of ``first`` combinationally.
    cone: set[str] = set()
    work = list(first)
    while work:
        d = driver_cell(work.pop())
        if d is None or d in cone or cells[d]["type"] in _SEQUENTIAL:
            continue
        if all(comb_inputs(cells[d], port) is None for port, _ in _outputs(cells[d])):
            continue
        cone.add(d)
        work.extend(b for _, _, b in _inputs(cells[d]))

    late = set()
    for cname, cell in cells.items():
        if cell["type"] in _SEQUENTIAL or cname in cone:
            continue
        for port, bit in _outputs(cell):
            if comb_inputs(cell, port) is not None and timing.arrival(bit)[0] > at:
                late.add(cname)

    # A carry chain lies in one stage: the second when it reads the second stage or ends after
    # the cut (its inputs then registered: a chain left whole in the first stage made that
    # stage as long as the chain's end), else the first.
    chain_of: dict[str, str] = {}

    def find(c):
        while chain_of.get(c, c) != c:
            c = chain_of[c]
        return c

    for cname, cell in cells.items():
        if cell["type"] == "CCU2C":
            d = driver_cell(cell["connections"].get("CIN", [None])[0])
            if d is not None and cells[d]["type"] == "CCU2C" and find(d) != find(cname):
                chain_of[find(cname)] = find(d)
    chains: dict[str, list[str]] = {}
    for cname, cell in cells.items():
        if cell["type"] == "CCU2C":
            chains.setdefault(find(cname), []).append(cname)
    for members in chains.values():
        outside = [driver_cell(b) for c in members for p, _, b in _inputs(cells[c]) if p != "CIN"]
        if any(d in late for d in outside if d is not None):
            late.update(members)
        elif any(c in cone for c in members) or not any(c in late for c in members):
            late.difference_update(members)
        else:  # (a chain that ends after the cut: its inputs are registered)
            late.update(members)

    # A second-stage multiplexer's LUTs are second-stage cells: copied where others read them.
    next_bit = free_bit(module)
    copies: dict[str, tuple[str, int]] = {}
    work = [c for c in late if cells[c]["type"] in _INSIDE]
    while work:
        mux = work.pop()
        bits = [
            (p, i, b)
            for p in _INSIDE[cells[mux]["type"]]
            for i, b in enumerate(cells[mux]["connections"].get(p, []))
        ]
        for port, i, bit in bits:
            d = driver_cell(bit)
            if d is None or d in late:
                continue
            if all(r == mux for r, _ in readers.get(bit, [])):
                late.add(d)
            else:
                twin = copy.deepcopy(cells[d])
                twin["connections"] = {
                    p: [next_bit if x == bit else x for x in v]
                    if twin["port_directions"][p] == "output"
                    else list(v)
                    for p, v in twin["connections"].items()
                }
                name = f"{d}$second_stage_{len(copies)}"
                cells[name] = twin
                copies[name] = (d, next_bit)
                module["netnames"][f"{name}$out"] = {"hide_name": 1, "bits": [next_bit]}
                cells[mux]["connections"][port][i] = next_bit
                driver[next_bit] = (name, driver[bit][1])
                for p, _, b in _inputs(twin):
                    readers.setdefault(b, []).append((name, p))
                readers[next_bit] = [(mux, port)]
                next_bit += 1
                d = name
            late.add(d)
            if cells[d]["type"] in _INSIDE:
                work.append(d)

    # Whatever a second-stage cell drives is in the second stage (a path crosses once).
    work = list(late)
    while work:
        for _, bit in _outputs(cells[work.pop()]):
            for reader, port in readers.get(bit, []):
                kind = cells[reader]["type"]
                if reader in late or kind in _SEQUENTIAL or is_endpoint(kind, port):
                    continue
                group = chains.get(find(reader), [reader]) if kind == "CCU2C" else [reader]
                for member in group:  # a chain goes whole
                    if member not in late:
                        late.add(member)
                        work.append(member)

    if cone & late:
        raise ValueError(
            f"a cut at {at:.2f} ns is too early for the first stage's nets: {len(cone & late)} "
            f"cells of their logic (one is {min(cone & late)}) come after it"
        )

    def first_stage(bit):
        if inputs_first and bit in inputs:
            return True
        return bit in driver and driver[bit][0] not in late

    sinks: dict[int, list[tuple[str, str, int]]] = {}
    for cname, cell in cells.items():
        if cname in exempt:
            continue
        for port, i, bit in _inputs(cell):
            into_end = is_endpoint(cell["type"], port)
            into_late = cname in late and not into_end and port != "CIN"
            if (into_end or into_late) and first_stage(bit):
                sinks.setdefault(bit, []).append((cname, port, i))
    return StageCut(at, late, sinks, copies)


def insert_registers(netlist: Netlist, cut: StageCut) -> int:
    """Put a flip-flop (clocked as the design's first plain one) on every net bit of
    ``cut.sinks``, read by those sinks instead; the number of flip-flops."""
    module = netlist.module
    cells = module["cells"]
    plain = next(
        c
        for c in cells.values()
        if c["type"] == "TRELLIS_FF" and "CE" not in c["connections"] and "LSR" in c["connections"]
    )
    next_bit = free_bit(module)
    for n, (bit, sinks) in enumerate(sorted(cut.sinks.items())):
        flop = copy.deepcopy(plain)
        flop["attributes"] = {}
        flop["connections"] = {
            "CLK": list(plain["connections"]["CLK"]),
            "DI": [bit],
            "LSR": ["0"],
            "Q": [next_bit],
        }
        flop["port_directions"] = {"CLK": "input", "DI": "input", "LSR": "input", "Q": "output"}
        cells[f"second_stage_ff_{n}"] = flop
        module["netnames"][f"second_stage_q_{n}"] = {"hide_name": 0, "bits": [next_bit]}
        for cname, port, i in sinks:
            cells[cname]["connections"][port][i] = next_bit
        next_bit += 1
    return len(cut.sinks)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m trax_fpga.boards.retime",
        description=(
            "Cut a second pipeline stage into a synthesized ECP5 netlist where the estimated "
            "arrival passes a time: the registers it takes and the two stages' estimates "
            "(a timing experiment until the engines are C-slowed: docs/cslow.md)."
        ),
    )
    parser.add_argument("netlist", help="Yosys JSON after synth_ecp5 (BUILD_DIR/top.json)")
    parser.add_argument(
        "--at", type=float, help="the cut's time in ns (half the worst estimate by default)"
    )
    parser.add_argument("--write", metavar="OUT", help="write the netlist with the registers")
    args = parser.parse_args(argv)
    try:
        with open(args.netlist) as f:
            doc = json.load(f)
    except (OSError, ValueError) as e:
        print(f"retime: cannot read {args.netlist}: {e}", file=sys.stderr)
        return 2
    netlist = Netlist(doc)
    before = longest_paths(netlist)
    if not before:
        print("retime: no paths in this netlist", file=sys.stderr)
        return 2
    at = args.at if args.at is not None else before[0].arrival / 2
    cut = stage_cut(netlist, at)
    flops = insert_registers(netlist, cut)
    after = longest_paths(Netlist(doc))
    print(
        f"cut at {at:.2f} ns: {flops} registers, {len(cut.late)} cells in the second stage, "
        f"{len(cut.copies)} LUTs copied; the worst estimate {before[0].arrival:.2f} -> "
        f"{after[0].arrival:.2f} ns ({after[0].end}, from {after[0].start})"
    )
    if args.write:
        with open(args.write, "w") as f:
            json.dump(doc, f)
        print(f"written: {args.write} (place and route it against the faster clock)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
