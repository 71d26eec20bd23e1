"""The longest paths of a synthesized ECP5 netlist, estimated before place and route.

``python -m trax_fpga.boards.paths BUILD_DIR/top.json [--top 25] [--path N] [--under NAME]
[--cut REGEX]``

nextpnr's timing report names one critical path, the worst; fixing it shows the next only after
another place and route (an hour for the ULX3S-85F's player). This reads the netlist that
synthesis gives nextpnr (``top.json`` in a build directory, :mod:`.build`) and estimates the
arrival time of every signal from the ECP5's cell delays plus a fixed routing delay a net, so it
lists, in a minute, every endpoint (a flip-flop, a block RAM's or a distributed RAM's input)
whose path is long, grouped by the register or memory port it ends in, each with the register
or memory it starts from and its depth in cells.

The delays are those of nextpnr's reports for the ULX3S (speed grade 6: a LUT4 0.24 ns, a PFU
multiplexer 0.26, a block RAM's unregistered output 5.83 after the clock, a flip-flop 0.52), a
carry chain's step 0.06, and :data:`ROUTE_NS` for every net between two cells that is not inside
one slice. Routing is two thirds of a routed path on these parts and varies from 0 to 3 ns a
net, so a figure here ranks paths and counts their cells; it is not a clock. The routed Fmax
stays the place-and-route report's (``report.json``).

``--cut REGEX`` asks what a register would give before it is built: the nets whose names match
(kept through synthesis by a ``keep`` attribute on their signals) start paths as flip-flops do
and end the paths into them, so the list shows the clock's two halves.
"""

from __future__ import annotations

import argparse
import collections
import json
import re
import sys
from dataclasses import dataclass

__all__ = [
    "ENDPOINT_PORTS",
    "ROUTE_NS",
    "Endpoint",
    "Netlist",
    "Timing",
    "comb_inputs",
    "cut_bits",
    "free_bit",
    "group_name",
    "is_endpoint",
    "longest_paths",
    "main",
]

#: The inputs of a cell that end a path: a register's, a block RAM's, a distributed RAM's write
#: (its read address, RAD, is logic: :func:`comb_inputs`).
ENDPOINT_PORTS = {
    "TRELLIS_FF": ("DI", "CE", "LSR", "M"),
    "DP16KD": (
        "ADA", "ADB", "DIA", "DIB", "WEA", "WEB", "CEA", "CEB", "OCEA", "OCEB", "RSTA", "RSTB",
        "CSA", "CSB",
    ),
    "TRELLIS_DPR16X4": ("WAD", "DI", "WRE"),
}  # fmt: skip


def is_endpoint(kind: str, port: str) -> bool:
    """Whether input ``port`` of a cell of type ``kind`` ends a path (a name of
    :data:`ENDPOINT_PORTS`, or one of its bits: a block RAM's ``ADA3``)."""
    return any(port.startswith(name) for name in ENDPOINT_PORTS.get(kind, ()))


#: The routing delay assumed for a net between two slices (ns).
ROUTE_NS = 1.0
_FF_CLK_TO_Q = 0.52
_BRAM_CLK_TO_Q = 5.83
_LUTRAM_CLK_TO_Q = 1.0  # a distributed RAM's output after its write clock (contents changed)
_MULT_NS = 4.0  # MULT18X18D without registers, inputs to product
_LUT_NS = 0.24
_WIDE_MUX_NS = 0.26
_CARRY_STEP_NS = 0.06
_CARRY_IN_NS = 0.35  # a carry cell's A/B/C/D to its carry out or sum
_CARRY_SUM_NS = 0.25  # carry in to sum


@dataclass(frozen=True)
class Endpoint:
    """A path's end: the estimated arrival (ns), the cells on the path (LUT4, multiplexers and
    carry chains, a chain counted once), the endpoint's and the start's names, and the design's
    signals its nets were named from, from the start."""

    arrival: float
    cells: int
    end: str
    start: str
    through: tuple[str, ...]


def _bit_names(module: dict) -> dict[int, str]:
    """A readable name for each net bit: the shortest name the design gave it (synthesis's own
    names last), with its index when the net is wider than a bit."""
    best: dict[int, tuple[int, str]] = {}
    for name, net in module["netnames"].items():
        bits = net["bits"]
        generated = net.get("hide_name", 0) or "$" in name.split(".")[-1]
        suffixes = len(re.findall(r"_(?:LUT4|PFUMX|L6MUX21|CCU2C|TRELLIS_FF|DP16KD)", name))
        for i, bit in enumerate(bits):
            if not isinstance(bit, int):
                continue
            label = name if len(bits) == 1 else f"{name}[{i}]"
            rank = (int(bool(generated)), suffixes, len(name))
            if bit not in best or rank < best[bit][0]:
                best[bit] = (rank, label)
    return {bit: label for bit, (rank, label) in best.items()}


def group_name(name: str) -> str:
    """A name without its bit index, so that a register's or a port's bits group together."""
    return re.sub(r"\[\d+\]$", "", name)


class Netlist:
    """The top module of a Yosys JSON netlist after ``synth_ecp5``, as a timing graph."""

    def __init__(self, netlist: dict, top: str | None = None):
        modules = netlist["modules"]
        if top is None:
            tops = [n for n, m in modules.items() if int(m.get("attributes", {}).get("top", 0))]
            top = tops[0] if tops else next(iter(modules))
        self.module = modules[top]
        self.names = _bit_names(self.module)

    def name(self, bit: int) -> str:
        return self.names.get(bit, f"${bit}")


def _ports(cell: dict, prefix: str) -> list[int]:
    return [
        b
        for port, bits in cell["connections"].items()
        if port.startswith(prefix) and cell["port_directions"].get(port) == "input"
        for b in bits
        if isinstance(b, int)
    ]


class Timing:
    """The estimated arrival of every net bit of a :class:`Netlist`, found on demand."""

    def __init__(self, netlist: Netlist, cuts: frozenset[int] = frozenset()):
        self.netlist = netlist
        self.cuts = cuts  # bits read as if a flip-flop drove them (and ended the path into them)
        self.cells = cells = netlist.module["cells"]
        self.driver: dict[int, tuple[str, str]] = {}  # bit -> (cell, port)
        for cname, cell in cells.items():
            for port, bits in cell["connections"].items():
                if cell["port_directions"].get(port) == "output":
                    for b in bits:
                        if isinstance(b, int):
                            self.driver[b] = (cname, port)
        # A bit's arrival at its driver's output, the input bit it came from, the cells so far.
        self.memo: dict[int, tuple[float, int | None, int]] = {}
        self._stack: list[int] = []  # the bits ``arrival`` has still to settle

    def route(self, bit: int, sink_type: str, sink_port: str) -> float:
        """The net's delay from its driver to this sink: none inside a slice."""
        if bit not in self.driver:
            return 0.0
        dcell = self.cells[self.driver[bit][0]]["type"]
        if sink_type == "CCU2C" and sink_port == "CIN":
            return 0.0
        inside = sink_type in ("PFUMX", "L6MUX21") and sink_port not in ("C0", "SD")
        if inside and dcell in ("LUT4", "PFUMX"):
            return 0.0
        return ROUTE_NS

    def arrival(self, bit: int) -> tuple[float, int | None, int]:
        """(arrival in ns, the input bit on the worst path or None at a start, cells so far)."""
        memo = self.memo
        stack = self._stack = [bit]
        while stack:
            b = stack[-1]
            if b in memo:
                stack.pop()
                continue
            start = self._start(b)
            if start is not None:
                memo[b] = (start, None, 0)
                stack.pop()
                continue
            best = self._through(b)
            if best is None:
                continue
            stack.pop()
            memo[b] = best
        return memo[bit]

    def _through(self, b: int) -> tuple[float, int | None, int] | None:
        """The arrival at a combinational cell's output from its inputs', or None (with the
        inputs not yet known pushed on ``self._stack``)."""
        cname, port = self.driver[b]
        cell = self.cells[cname]
        inputs = comb_inputs(cell, port)
        pending = [i for i, _, _ in inputs if i not in self.memo]
        if pending:
            self._stack.extend(pending)
            return None
        best = (_LUTRAM_CLK_TO_Q if cell["type"] == "TRELLIS_DPR16X4" else 0.0, None, 0)
        for i, sink_port, delay in inputs:
            t, _, n = self.memo[i]
            t += self.route(i, cell["type"], sink_port) + delay
            if t > best[0]:
                best = (t, i, n + (0 if sink_port == "CIN" else 1))
        return best

    def arrival_into(self, bit: int) -> tuple[float, int | None, int] | None:
        """A cut bit's arrival as its driver makes it (the end of the path into the cut), or
        None where no combinational cell drives it (a register, a port: nothing to cut)."""
        if bit not in self.driver:
            return None
        cname, port = self.driver[bit]
        inputs = comb_inputs(self.cells[cname], port)
        if inputs is None:
            return None
        for i, _, _ in inputs:
            self.arrival(i)
        return self._through(bit)  # (every input known: nothing pushed)

    def _start(self, bit: int) -> float | None:
        """A path's start time at this bit, or None where it is a combinational cell's output."""
        if bit not in self.driver:
            return 0.0
        if bit in self.cuts:
            return _FF_CLK_TO_Q
        cname, port = self.driver[bit]
        cell = self.cells[cname]
        if cell["type"] == "TRELLIS_FF":
            return _FF_CLK_TO_Q
        if cell["type"] == "DP16KD":
            return _BRAM_CLK_TO_Q
        if comb_inputs(cell, port) is None:  # a start we do not model (I/O, PLL)
            return 0.0
        return None

    def chain(self, bit: int, into: bool = False) -> list[int]:
        """The bits of the worst path to ``bit``, from its start (``into``: to a cut bit, as
        its driver makes it)."""
        self.arrival(bit)
        chain = []
        if into:
            chain.append(bit)
            bit = self.arrival_into(bit)[1]
        while bit is not None:
            chain.append(bit)
            bit = self.memo[bit][1]
        return chain[::-1]

    def signals(self, bit: int, into: bool = False) -> tuple[str, ...]:
        """The design's signals the worst path's nets were named from, from its start, once each
        (a synthesized net's name is its source signal's, with the cells it passed appended)."""
        readable: list[str] = []
        for x in self.chain(bit, into):
            base = re.split(
                r"_(?:LUT4|PFUMX|L6MUX21|CCU2C|TRELLIS_FF|DP16KD)", self.netlist.name(x)
            )[0]
            if not readable or readable[-1] != base:
                readable.append(base)
        return tuple(readable)


def free_bit(module: dict) -> int:
    """The first net bit number above every one ``module`` (a Yosys JSON module) names."""
    return 1 + max(
        (b for net in module["netnames"].values() for b in net["bits"] if isinstance(b, int)),
        default=1,
    )


def cut_bits(netlist: Netlist, patterns: list[str]) -> frozenset[int]:
    """The bits of the nets whose names match one of ``patterns`` (regular expressions)."""
    return frozenset(
        b
        for name, net in netlist.module["netnames"].items()
        if any(re.search(p, name) for p in patterns)
        for b in net["bits"]
        if isinstance(b, int)
    )


def longest_paths(netlist: Netlist, cuts: frozenset[int] = frozenset()) -> list[Endpoint]:
    """Every endpoint's worst estimated path, the worst first; with ``cuts``, as if those bits
    were registered (each cut bit is then an endpoint too, named ``cut:<net>``)."""
    timing = Timing(netlist, cuts)
    ends = []
    for cname, cell in timing.cells.items():
        kind = cell["type"]
        if kind not in ENDPOINT_PORTS:
            continue
        sinks = [(b, p) for p in ENDPOINT_PORTS[kind] for b in _ports(cell, p)]
        label = cname
        if kind == "TRELLIS_FF":
            q = cell["connections"].get("Q", [None])[0]
            label = netlist.name(q) if isinstance(q, int) else cname
        for b, port in sinks:
            t, _, n = timing.arrival(b)
            t += timing.route(b, kind, port)
            end = label if kind == "TRELLIS_FF" else f"{label}.{port}"
            ends.append((t, n, b, end, False))
    for b in cuts:
        into = timing.arrival_into(b)
        if into is not None:
            t, _, n = into
            ends.append((t, n, b, f"cut:{netlist.name(b)}", True))
    results = []
    for t, n, b, end, into in sorted(ends, key=lambda e: -e[0]):
        chain = timing.chain(b, into)
        results.append(
            Endpoint(round(t, 2), n, end, netlist.name(chain[0]), timing.signals(b, into))
        )
    return results


def comb_inputs(cell: dict, port: str) -> list[tuple[int, str, float]] | None:
    """The inputs an output of a combinational cell depends on, with the cell's delay (None:
    the output of no combinational cell we model: a register, a block RAM, an I/O)."""
    kind, conn = cell["type"], cell["connections"]

    def bits(*ports, delay):
        return [(b, p, delay) for p in ports for b in conn.get(p, []) if isinstance(b, int)]

    if kind == "LUT4":
        return bits("A", "B", "C", "D", delay=_LUT_NS)
    if kind == "PFUMX":
        return bits("ALUT", "BLUT", "C0", delay=_WIDE_MUX_NS)
    if kind == "L6MUX21":
        return bits("D0", "D1", "SD", delay=_LUT_NS)
    if kind == "CCU2C":
        logic0 = ("A0", "B0", "C0", "D0")
        logic1 = ("A1", "B1", "C1", "D1")
        if port == "S0":
            return bits(*logic0, delay=_CARRY_IN_NS) + bits("CIN", delay=_CARRY_SUM_NS)
        if port == "S1":
            return bits(*logic0, *logic1, delay=_CARRY_IN_NS) + bits("CIN", delay=_CARRY_SUM_NS)
        return bits(*logic0, *logic1, delay=_CARRY_IN_NS) + bits("CIN", delay=2 * _CARRY_STEP_NS)
    if kind == "TRELLIS_DPR16X4":
        return bits("RAD", delay=_LUT_NS)
    if kind == "MULT18X18D":
        return bits("A", delay=_MULT_NS) + [
            (b, p, _MULT_NS)
            for p, v in conn.items()
            if re.fullmatch(r"[AB]\d+", p)
            for b in v
            if isinstance(b, int)
        ]
    return None


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m trax_fpga.boards.paths",
        description=(
            "The longest paths of a synthesized ECP5 netlist (a build's top.json), estimated "
            "from cell delays and a fixed routing delay a net: one line an endpoint group."
        ),
    )
    parser.add_argument("netlist", help="Yosys JSON after synth_ecp5 (BUILD_DIR/top.json)")
    parser.add_argument("--top", type=int, default=25, help="endpoint groups to list (25)")
    parser.add_argument("--path", type=int, default=3, help="show the nets of the N worst (3)")
    parser.add_argument("--under", default="", help="only endpoints whose name contains this")
    parser.add_argument(
        "--at",
        action="append",
        default=[],
        metavar="REGEX",
        help="also print the arrival at the nets whose names match REGEX (repeatable)",
    )
    parser.add_argument(
        "--cut",
        action="append",
        default=[],
        metavar="REGEX",
        help="read the nets whose names match REGEX as registered: what a register there would "
        "give (keep the signals through synthesis with a keep attribute; repeatable)",
    )
    parser.add_argument(
        "--over",
        type=float,
        action="append",
        default=[],
        metavar="NS",
        help="also count the endpoints (bits and groups) estimated later than NS (repeatable)",
    )
    args = parser.parse_args(argv)
    with open(args.netlist) as f:
        netlist = Netlist(json.load(f))
    groups: dict[str, Endpoint] = {}
    counts: collections.Counter[str] = collections.Counter()
    cuts = cut_bits(netlist, args.cut)
    if args.cut and not cuts:
        parser.error(f"no net matches {args.cut}")
    for e in longest_paths(netlist, cuts):
        if args.under not in e.end:
            continue
        key = group_name(e.end)
        counts[key] += 1
        groups.setdefault(key, e)
    if args.at:
        timing = Timing(netlist, cuts)
        for name, net in netlist.module["netnames"].items():
            if not any(re.search(r, name) for r in args.at):
                continue
            bits = [b for b in net["bits"] if isinstance(b, int)]
            if bits:
                worst = max(bits, key=lambda b: timing.arrival(b)[0])
                t, _, n = timing.arrival(worst)
                print(
                    f"at {name}: {t:.2f} ns, {n} cells, from {netlist.name(timing.chain(worst)[0])}"
                )
    for limit in args.over:
        late = [e for e in groups.values() if e.arrival > limit]
        bits = sum(counts[group_name(e.end)] for e in late)
        print(f"over {limit:g} ns: {len(late)} endpoint groups, {bits} bits")
    shown = sorted(groups.values(), key=lambda e: -e.arrival)[: args.top]
    for i, e in enumerate(shown):
        print(
            f"{e.arrival:6.2f} ns {e.cells:3d} cells  {group_name(e.end)} "
            f"({counts[group_name(e.end)]} bits)  from {group_name(e.start)}"
        )
        if i < args.path:
            for name in e.through:
                print(f"{'':18}{name}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
