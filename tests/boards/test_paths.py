"""The path estimator ranks a netlist's endpoints by their longest path, from its start."""

import json

import pytest

from trax_fpga.boards.paths import ROUTE_NS, Netlist, cut_bits, group_name, longest_paths, main


def cell(kind, inputs, outputs):
    """A cell of a Yosys JSON netlist: ``inputs`` and ``outputs`` map ports to bit lists."""
    return {
        "type": kind,
        "parameters": {},
        "attributes": {},
        "port_directions": {**dict.fromkeys(inputs, "input"), **dict.fromkeys(outputs, "output")},
        "connections": {**inputs, **outputs},
    }


def netlist():
    """Three paths into flip-flops: from a register through three LUT4s, from a block RAM's
    output through one LUT4, and from a register through a three-cell carry chain."""
    cells = {
        "start": cell("TRELLIS_FF", {"DI": [2], "CLK": [1]}, {"Q": [10]}),
        "lut_a": cell("LUT4", {"A": [10], "B": [3], "C": [3], "D": [3]}, {"Z": [11]}),
        "lut_b": cell("LUT4", {"A": [11], "B": [3], "C": [3], "D": [3]}, {"Z": [12]}),
        "lut_c": cell("LUT4", {"A": [12], "B": [10], "C": [3], "D": [3]}, {"Z": [13]}),
        "deep": cell("TRELLIS_FF", {"DI": [13], "CLK": [1]}, {"Q": [14]}),
        "ram": cell("DP16KD", {"ADA0": [14], "CLKA": [1]}, {"DOA0": [20]}),
        "lut_r": cell("LUT4", {"A": [20], "B": [3], "C": [3], "D": [3]}, {"Z": [21]}),
        "after_ram": cell("TRELLIS_FF", {"DI": [21], "CLK": [1]}, {"Q": [22]}),
        "carry_0": cell(
            "CCU2C", {"A0": [22], "A1": [3], "CIN": [3]}, {"S0": [30], "S1": [31], "COUT": [32]}
        ),
        "carry_1": cell(
            "CCU2C", {"A0": [3], "A1": [3], "CIN": [32]}, {"S0": [33], "S1": [34], "COUT": [35]}
        ),
        "carry_2": cell(
            "CCU2C", {"A0": [3], "A1": [3], "CIN": [35]}, {"S0": [36], "S1": [37], "COUT": [38]}
        ),
        "sum": cell("TRELLIS_FF", {"DI": [37], "CLK": [1]}, {"Q": [39]}),
    }
    names = {
        "clk": [1],
        "state": [10],
        "deep_q": [14],
        "ram_out": [20],
        "after_ram_q": [22],
        "total": [36, 37],
        "sum_q": [39],
        "tmp_LUT4_Z": [11],
    }
    return {
        "modules": {
            "top": {
                "attributes": {"top": "1"},
                "cells": cells,
                "netnames": {n: {"bits": b, "hide_name": 0} for n, b in names.items()},
            }
        }
    }


def test_longest_paths_rank_endpoints_by_arrival():
    ends = {e.end: e for e in longest_paths(Netlist(netlist()))}
    deep, ram, total = ends["deep_q"], ends["after_ram_q"], ends["sum_q"]
    assert (deep.cells, deep.start) == (3, "state")
    assert deep.arrival == pytest.approx(0.52 + 3 * (ROUTE_NS + 0.24) + ROUTE_NS)
    # A block RAM's unregistered output starts late: one LUT4 after it is later than three
    # after a flip-flop.
    assert (ram.cells, ram.start) == (1, "ram_out")
    assert ram.arrival > deep.arrival
    # A carry chain is not routed inside: it counts as one cell, its carries cost little.
    assert total.start == "after_ram_q"
    assert total.cells == 1
    assert total.arrival < deep.arrival
    # The worst first; the RAM's address is an endpoint too.
    ordered = longest_paths(Netlist(netlist()))
    assert ordered[0].end == "after_ram_q"
    assert [e.arrival for e in ordered] == sorted((e.arrival for e in ordered), reverse=True)
    assert "ram.ADA" in ends  # (by port: ADA, ADB, DIA, ...)


def test_group_name_drops_the_bit_index():
    assert group_name("engine.board.pending_0[12]") == "engine.board.pending_0"
    assert group_name("engine.board.ply") == "engine.board.ply"


def test_main_lists_groups(tmp_path, capsys):
    path = tmp_path / "top.json"
    path.write_text(json.dumps(netlist()))
    assert main([str(path), "--top", "2", "--path", "1"]) == 0
    lines = capsys.readouterr().out.splitlines()
    firsts = [line for line in lines if " ns " in line]
    assert len(firsts) == 2
    assert "after_ram_q" in firsts[0] and "from ram_out" in firsts[0]


def test_a_cut_splits_the_path_in_two():
    """A net read as registered (``--cut``) ends the path into it and starts the one after."""
    design = Netlist(netlist())
    cuts = cut_bits(design, [r"^tmp_LUT4_Z$"])
    assert cuts == {11}
    ends = {e.end: e for e in longest_paths(design, cuts)}
    into, deep = ends["cut:tmp_LUT4_Z"], ends["deep_q"]
    assert (into.cells, into.start) == (1, "state")
    assert into.arrival == pytest.approx(0.52 + ROUTE_NS + 0.24)
    assert (deep.cells, deep.start) == (2, "tmp_LUT4_Z")
    assert deep.arrival == pytest.approx(0.52 + 2 * (ROUTE_NS + 0.24) + ROUTE_NS)
    # Without the cut, the path is whole (three cells from the register).
    assert {e.end: e for e in longest_paths(design)}["deep_q"].cells == 3


def test_main_cut_needs_a_net(tmp_path, capsys):
    path = tmp_path / "top.json"
    path.write_text(json.dumps(netlist()))
    with pytest.raises(SystemExit):
        main([str(path), "--cut", "no_such_net"])
    assert "no net matches" in capsys.readouterr().err
    assert main([str(path), "--cut", "tmp_LUT4_Z", "--top", "1", "--path", "0"]) == 0
    assert "deep_q" not in capsys.readouterr().out  # the RAM's path is the worst now
