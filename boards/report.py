"""The figures of a build, from nextpnr's JSON report and Yosys's log.

nextpnr (run with ``--report top.report.json``) gives the utilisation of each cell type and the
achieved Fmax of each clock against its constraint; Yosys's log (``top.rpt``) gives the cell
counts after synthesis, where flip-flops are counted separately (an iCE40 logic cell holds a LUT
and a flip-flop, so nextpnr counts only cells).
"""

import json
import re
from dataclasses import asdict, dataclass, field

__all__ = ["BuildReport", "Usage", "parse_nextpnr_report", "parse_yosys_cells", "summarise"]

#: nextpnr cell types, per family: (logic, flip-flops, block RAM, PLL).
CELL_TYPES = {
    "ice40": ("ICESTORM_LC", None, "ICESTORM_RAM", "ICESTORM_PLL"),
    "ecp5": ("TRELLIS_COMB", "TRELLIS_FF", "DP16KD", "EHXPLLL"),
}


@dataclass(frozen=True)
class Usage:
    """Cells of one type used, out of those available."""

    used: int
    available: int

    @property
    def percent(self) -> float:
        return 100.0 * self.used / self.available if self.available else 0.0

    def __str__(self) -> str:
        return f"{self.used}/{self.available} ({self.percent:.0f}%)"


def parse_nextpnr_report(text: str) -> tuple[dict[str, Usage], dict[str, tuple[float, float]]]:
    """Utilisation per cell type, and (achieved, constraint) MHz per clock, from the JSON report."""
    report = json.loads(text)
    usage = {
        kind: Usage(int(entry["used"]), int(entry["available"]))
        for kind, entry in report.get("utilization", {}).items()
    }
    fmax = {
        clock: (float(entry["achieved"]), float(entry["constraint"]))
        for clock, entry in report.get("fmax", {}).items()
    }
    return usage, fmax


_CELL_LINE = re.compile(r"^\s+(?:(\d+)\s+(?:[\d.]+\s+)?(\S+)|(\S+)\s+(\d+))\s*$")
_CELL_PREFIXES = ("SB_", "TRELLIS_", "LUT", "CCU2", "DP16KD", "PFU", "MULT", "L6MUX", "EHXPLL")


def parse_yosys_cells(text: str) -> dict[str, int]:
    """Primitive cell counts of the last statistics block of a Yosys log (as ``synth_*`` prints).

    Counts include submodules when Yosys printed a design hierarchy. Handles both layouts Yosys
    has used: ``     123   SB_DFF`` (count first, recent versions, optionally with an area
    column) and ``     SB_DFF   123`` (name first, older ones).
    """
    blocks = text.split("Printing statistics.")
    if len(blocks) < 2:
        return {}
    last = blocks[-1].split("design hierarchy ===")[-1]
    cells: dict[str, int] = {}
    for line in last.splitlines():
        if line.startswith(("End of script", "Yosys ")):
            break
        match = _CELL_LINE.match(line)
        if match is None:
            continue
        count, name = (match[1], match[2]) if match[1] else (match[4], match[3])
        if name.startswith(_CELL_PREFIXES):
            cells[name] = int(count)
    return cells


@dataclass(frozen=True)
class BuildReport:
    """The figures of one build, as written to ``build/<board>/report.json``."""

    board: str
    top: str
    window: tuple[int, int]
    clock_mhz: float
    family: str
    logic: Usage
    flip_flops: int
    bram: Usage | None
    fmax_mhz: float
    seconds: float
    usage: dict[str, Usage]
    yosys_cells: dict[str, int]
    commit: str = ""
    player_options: dict = field(default_factory=dict)

    @property
    def meets_timing(self) -> bool:
        return self.fmax_mhz >= self.clock_mhz

    def to_json(self) -> str:
        data = asdict(self)
        data["meets_timing"] = self.meets_timing
        return json.dumps(data, indent=2, sort_keys=True) + "\n"

    HEADER = (
        "| board | top | window | logic (LUT4 / LC) | FFs | BRAM | Fmax / clock | timing | time |\n"
        "|---|---|---|---|---|---|---|---|---|"
    )

    @property
    def design(self) -> str:
        """The top, with the complete player's board: ``player (track)``, ``player (window)``."""
        if self.top != "player":
            return self.top
        return f"player ({self.player_options.get('board', 'window')})"

    def row(self) -> str:
        """One row of the table in docs/boards.md (:attr:`HEADER`)."""
        w, h = self.window
        bram = str(self.bram) if self.bram else "-"
        met = "met" if self.meets_timing else "FAILED"
        return (
            f"| {self.board} | {self.design} | {w}x{h} | {self.logic} | {self.flip_flops} | "
            f"{bram} | {self.fmax_mhz:.1f} / {self.clock_mhz:g} MHz | {met} | "
            f"{self.seconds:.0f} s |"
        )


def summarise(
    *,
    board: str,
    top: str,
    window: tuple[int, int],
    clock_hz: float,
    family: str,
    nextpnr_report: str,
    yosys_log: str,
    seconds: float,
    commit: str = "",
    player_options: dict | None = None,
) -> BuildReport:
    """The :class:`BuildReport` of a finished build, from the texts of its two reports."""
    if family not in CELL_TYPES:
        raise ValueError(f"family must be one of {', '.join(CELL_TYPES)}, not {family!r}")
    usage, fmax = parse_nextpnr_report(nextpnr_report)
    logic_type, ff_type, bram_type, _ = CELL_TYPES[family]
    cells = parse_yosys_cells(yosys_log)
    if ff_type is not None and ff_type in usage:
        flip_flops = usage[ff_type].used
    else:
        flip_flops = sum(n for name, n in cells.items() if "DFF" in name or name == "TRELLIS_FF")
    if not fmax:
        raise ValueError("nextpnr's report has no Fmax (no constrained clock?)")
    # The design's clock: the one with the lowest constraint margin (there is one clock here).
    achieved = min(a for a, _ in fmax.values())
    return BuildReport(
        board=board,
        top=top,
        window=window,
        clock_mhz=clock_hz / 1e6,
        family=family,
        logic=usage[logic_type],
        flip_flops=flip_flops,
        bram=usage.get(bram_type),
        fmax_mhz=achieved,
        seconds=seconds,
        usage=usage,
        yosys_cells=cells,
        commit=commit,
        player_options=dict(player_options or {}),
    )
