"""The benchmark tools that measure the gateware: their counts must add up (they are not timed)."""

import pathlib

import pytest

from trax_fpga.boards.engine_area import build_parser, conditions, module_stats
from trax_fpga.sim.clock_profile import profile
from trax_fpga.sim.track_bench import search_figures

RECORDS = pathlib.Path(__file__).resolve().parent.parent / "data" / "human_games.txt"

# Yosys's `stat` of one engine (synth_ecp5 -noflatten), cut to what the parser reads.
STAT = """
=== engine.board ===

   Number of cells:               9961
      406   CCU2C
       18   DP16KD
     6402   LUT4
        4   MULT18X18D
     1269   TRELLIS_FF

=== engine ===

      129   CCU2C
     2644   LUT4
      859   TRELLIS_FF
       14   TRELLIS_DPR16X4

=== design hierarchy ===

      535   CCU2C
     9046   LUT4
"""


def test_engine_area_reads_each_module():
    stats = module_stats(STAT)
    assert list(stats) == ["engine.board", "engine", "design hierarchy"]
    assert stats["engine.board"]["LUT4"] == 6402
    assert stats["engine.board"]["MULT18X18D"] == 4
    assert stats["engine"]["TRELLIS_FF"] == 859
    assert stats["engine"]["TRELLIS_DPR16X4"] == 14
    assert stats["engine"]["DP16KD"] == 0
    assert stats["design hierarchy"]["LUT4"] == 9046


def test_engine_area_names_its_conditions():
    """The figures' conditions name the options given, the tracks' shapes by their choice."""
    plain = conditions(build_parser().parse_args([]), 1)
    assert plain == "ECP5 synth_ecp5 -noflatten, TrackSearch 64x64, depth 6"
    args = build_parser().parse_args(["--shapes", "board", "--attack-cut", "--split"])
    assert conditions(args, 1) == f"{plain}, split, the attack cut, the tracks' shapes (board)"
    cslow = conditions(build_parser().parse_args(["--cslow"]), 1)
    assert cslow == "ECP5 synth_ecp5, TrackSearch 64x64, depth 6, C-slowed by two"


def test_clock_profile_accounts_for_every_clock():
    """Every clock of every search is in one (search state, board state) pair."""
    results, counts = profile(16, 2, 60, 3, RECORDS)
    assert len(results) == 2 and all(got.found and got.nodes > 0 for got in results)
    clocks = sum(got.cycles for got in results)
    sampled = sum(counts.values())
    assert abs(sampled - clocks) <= len(results), (sampled, clocks)
    boards = {board for _, board in counts}
    assert {"MOVE", "NEIGHBOURS", "UNDO_NEIGHBOURS", "CAND_FIT"} <= boards


@pytest.mark.slow  # (two engines in the Python simulator: minutes)
def test_clock_profile_counts_every_engine_of_a_parallel_search():
    """With engines, every clock of the search is counted once an engine, and the split's
    states are among them."""
    engines = 2
    results, counts = profile(16, 1, 0, 2, RECORDS, engines=engines)
    assert len(results) == 1 and results[0].found and results[0].depth == 2
    sampled = sum(counts.values())
    assert abs(sampled - engines * results[0].cycles) <= engines, (sampled, results[0].cycles)
    assert "MERGE" in {search for search, _ in counts}


def test_search_figures_measure_the_engine_with_its_table(capsys):
    """The clocks-per-node figure of an engine with a table of best moves and their values (the
    board file's engine): every position searched, the table named in the conditions. (The
    design of tests/hdl/test_track_search.py's ``table_scores`` fixture: one build.)"""
    search_figures(32, 2, 300, 3, RECORDS, move_table=64, scores=True)
    lines = capsys.readouterr().out.splitlines()
    per_node = next(line for line in lines if line.startswith("track search, clocks per node:"))
    value = float(per_node.split(":")[1].split()[0])
    assert 3 < value < 40, per_node
    assert "2 human-game positions" in per_node
    assert "a table of 64 best moves and their values" in per_node
