"""A second stage cut into a netlist: every path from a start to an endpoint crosses it once,
and the estimate falls to the longer of the two stages."""

import json

import pytest

from trax_fpga.boards.paths import (
    ENDPOINT_PORTS,
    ROUTE_NS,
    Netlist,
    Timing,
    comb_inputs,
    longest_paths,
)
from trax_fpga.boards.retime import insert_registers, main, stage_cut

from .test_paths import cell

STEP = ROUTE_NS + 0.24  # a LUT4 and the net into it


def flop(d, q):
    return cell("TRELLIS_FF", {"DI": [d], "CLK": [1], "LSR": ["0"]}, {"Q": [q]})


def lut(a, z, b=3):
    return cell("LUT4", {"A": [a], "B": [b], "C": [3], "D": [3]}, {"Z": [z]})


def netlist():
    """A register through six LUT4s into a register (the long path); a register through one
    LUT4 into a register (a short path, which crosses the stage too); a wide LUT whose select
    is late, one of its LUTs also read by an early LUT; a carry chain of early inputs; a
    distributed RAM written from the late logic, whose read is early."""
    cells = {
        "start": flop(2, 10),
        "deep": flop(16, 17),
        "short_start": flop(2, 40),
        "short_lut": lut(40, 41),
        "short_end": flop(41, 42),
        # the wide LUT: its select from the long path's fourth LUT (late)
        "mux_a": lut(17, 50),
        "mux_b": lut(17, 51),
        "mux": cell("PFUMX", {"ALUT": [50], "BLUT": [51], "C0": [14]}, {"Z": [52]}),
        "mux_end": flop(52, 53),
        "also_reads_a": lut(50, 54),
        "a_end": flop(54, 55),
        # a carry chain of early inputs whose last output is after the cut's time
        "carry_0": cell(
            "CCU2C", {"A0": [12], "A1": [3], "CIN": [3]}, {"S0": [60], "S1": [61], "COUT": [62]}
        ),
        "carry_1": cell(
            "CCU2C", {"A0": [3], "A1": [3], "CIN": [62]}, {"S0": [63], "S1": [64], "COUT": [65]}
        ),
        "carry_end": flop(64, 66),
        # a distributed RAM written from the late logic, read at a register's address
        "ram": cell(
            "TRELLIS_DPR16X4",
            {"DI": [16], "WAD": [17], "WRE": [15], "RAD": [42], "WCK": [1]},
            {"DO": [70]},
        ),
        "ram_lut": lut(70, 71),
        "ram_end": flop(71, 72),
    }
    for k in range(6):
        cells[f"lut_{k}"] = lut(10 + k, 11 + k)
    bits = {b for c in cells.values() for v in c["connections"].values() for b in v}
    names = {f"n{b}": {"bits": [b], "hide_name": 0} for b in bits if isinstance(b, int)}
    return {"modules": {"top": {"attributes": {"top": "1"}, "cells": cells, "netnames": names}}}


def crossings(doc):
    """For every endpoint input that a cell drives, the set of second-stage registers counted
    on its paths from a start (a net no cell drives, a constant here, starts none)."""
    module = doc["modules"]["top"]
    cells = module["cells"]
    driver = {
        b: (n, p)
        for n, c in cells.items()
        for p, v in c["connections"].items()
        if c["port_directions"][p] == "output"
        for b in v
        if isinstance(b, int)
    }
    memo = {}

    def counts(bit):
        if not isinstance(bit, int) or bit not in driver:
            return set()
        if bit in memo:
            return memo[bit]
        name, port = driver[bit]
        c = cells[name]
        if name.startswith("second_stage_ff_"):
            found = {n + 1 for n in counts(c["connections"]["DI"][0])}
        elif c["type"] in ("TRELLIS_FF", "DP16KD"):
            found = {0}
        else:
            found = set().union(*(counts(b) for b, _, _ in comb_inputs(c, port)))
            if c["type"] == "TRELLIS_DPR16X4":
                found |= {0}  # its stored data start a path too
        memo[bit] = found
        return found

    result = {}
    for name, c in cells.items():
        if name.startswith("second_stage_ff_"):
            continue
        for port in ENDPOINT_PORTS.get(c["type"], ()):
            for b in c["connections"].get(port, []):
                if isinstance(b, int) and b in driver:
                    result[f"{name}.{port}"] = counts(b)
    return result


def test_every_path_crosses_the_second_stage_once():
    doc = netlist()
    design = Netlist(doc)
    worst = longest_paths(design)[0]
    assert worst.end == "n17" and worst.cells == 6
    cut = stage_cut(design, 4.0)
    flops = insert_registers(design, cut)
    found = crossings(doc)
    assert len(found) == 9  # every endpoint input a cell drives was checked
    assert all(counts == {1} for counts in found.values()), found
    assert flops == len(cut.sinks) > 0
    # The long path: LUTs 0-2 end by 0.52 + 3 * STEP = 4.24 ns > 4: from the third on, late.
    assert {f"lut_{k}" for k in range(2, 6)} <= cut.late
    assert not {"lut_0", "lut_1"} & cut.late
    assert 12 in cut.sinks  # lut_1's output is registered


def test_the_estimate_falls_to_the_longer_stage():
    doc = netlist()
    before = longest_paths(Netlist(doc))[0].arrival
    assert before == pytest.approx(0.52 + 6 * STEP + ROUTE_NS)
    design = Netlist(doc)
    insert_registers(design, stage_cut(design, 4.0))
    after = longest_paths(Netlist(doc))[0].arrival
    assert after < before
    # The second stage starts at a register: at most four LUTs of the long path after it.
    assert after <= 0.52 + 5 * STEP + ROUTE_NS


def test_a_wide_lut_keeps_its_luts_and_a_chain_its_stage():
    doc = netlist()
    design = Netlist(doc)
    cut = stage_cut(design, 4.0)
    cells = doc["modules"]["top"]["cells"]
    # The multiplexer's select is late, so it is; its LUTs come with it: ``mux_b`` (read by the
    # multiplexer alone) moves, ``mux_a`` (read by an early LUT too) is copied.
    assert {"mux", "mux_b"} <= cut.late
    assert "mux_a" not in cut.late and "also_reads_a" not in cut.late
    [(twin, (original, out))] = cut.copies.items()
    assert original == "mux_a" and twin in cut.late
    assert cells["mux"]["connections"]["ALUT"] == [out]
    assert cells[twin]["type"] == "LUT4"
    # The carry chain reads only early nets, but its last sum is estimated after the cut's
    # time: it goes whole to the second stage (its inputs registered), not the first.
    assert Timing(Netlist(netlist())).arrival(64)[0] > 4.0
    assert {"carry_0", "carry_1"} <= cut.late
    early_chain = stage_cut(Netlist(netlist()), 60.0)
    assert not {"carry_0", "carry_1"} & early_chain.late
    # The RAM's write is an endpoint: the late data into it leave its read early.
    assert "ram" not in cut.late and "ram_lut" not in cut.late


def test_main_writes_a_netlist_that_reads_back(tmp_path, capsys):
    path, out = tmp_path / "top.json", tmp_path / "cut.json"
    path.write_text(json.dumps(netlist()))
    assert main([str(path), "--at", "4", "--write", str(out)]) == 0
    text = capsys.readouterr().out
    assert "registers" in text and "written" in text
    again = json.loads(out.read_text())
    assert all(counts == {1} for counts in crossings(again).values())
    assert main([str(tmp_path / "missing.json")]) == 2
    assert "cannot read" in capsys.readouterr().err
