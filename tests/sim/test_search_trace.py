# amaranth: UnusedElaboratable=no
"""The search trace (sim/search_trace.py): the gateware's nodes, listed through the search's
``trace`` members, are its model's node for node; a planted difference is found where it is,
with the move the gateware played there."""

from __future__ import annotations

import pytest

from trax_fpga.host.position import Position
from trax_fpga.sim import search_trace
from trax_fpga.sim.search_trace import Options, first_parting, model_nodes, rtl_nodes

from ..hdl.test_track_search import positions_from_games

OPTIONS = Options(torus=32, max_depth=4, move_table=64, table_scores=True)


@pytest.fixture(scope="module")
def unit():
    with search_trace.traced_unit(OPTIONS) as traced:
        yield traced


def test_the_gateware_plays_the_models_nodes(unit):
    compared = 0
    for position in positions_from_games(4, 12)[:4]:
        for budget in (5, 300):
            model, found = model_nodes(position, budget, OPTIONS)
            rtl, answer = rtl_nodes(position, budget, OPTIONS, unit)
            assert len(model) == found.nodes == answer["nodes"]
            assert first_parting(position, model, rtl, OPTIONS.torus) is None
            compared += len(rtl)
    assert compared > 600


def test_a_planted_difference_is_found_with_the_move_played():
    position = Position.from_moves(["@0/", "A2/", "B2+", "A0+"])
    model, _ = model_nodes(position, 200, OPTIONS)
    # node k: a root move; the "gateware" plays another root move there (the next root node's)
    roots = [i for i, node in enumerate(model) if node[0] == 1]
    k, other = roots[2], roots[3]
    rtl = [node[:2] for node in model]
    rtl[k] = model[other][:2]
    parting = first_parting(position, model, rtl, OPTIONS.torus)
    assert parting is not None and parting.index == k
    assert parting.line == () and parting.model == model[k]
    assert parting.rtl == model[other][:2] and parting.rtl_move == model[other][2]
    # one ply deeper: the line to the parent is the model's
    child = next(i for i, node in enumerate(model) if node[0] == 2)
    parent = max(i for i in roots if i < child)
    rtl = [node[:2] for node in model]
    rtl[child] = (2, 12345)
    parting = first_parting(position, model, rtl, OPTIONS.torus)
    assert parting.index == child and parting.line == (model[parent][2],)
    assert parting.rtl_move is None  # no move of the parent has that key
    # a search that stops early
    parting = first_parting(position, model, [node[:2] for node in model[:10]], OPTIONS.torus)
    assert parting.index == 10 and parting.rtl is None


def test_the_command_says_they_agree(capsys):
    argv = ["--game", "@0/ A2/ B2+ A0+", "--budget", "60", "--torus", "32", "--depth", "4"]
    argv += ["--move-table", "64", "--table-scores"]
    assert search_trace.main(argv) == 0
    out = capsys.readouterr().out
    assert "the same 60 nodes, node for node" in out


def test_a_torus_beyond_the_keys_is_a_clear_error(capsys):
    with pytest.raises(SystemExit) as exit_info:
        search_trace.main(["--game", "@0+ A2+", "--torus", "128"])
    assert exit_info.value.code == 2
    assert "at most 64 x 64" in capsys.readouterr().err
