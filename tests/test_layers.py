"""One-way layers: the application (``trax_fpga/cli.py``, ``trax_fpga/web/``) on top; ``sim``
and ``boards`` below it; ``hdl`` below them; ``host`` (the reference engine, players, referee,
transports) at the bottom. Read from the source's imports, as text, so that a lazy import inside
a function counts as much as one at the top."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = {"host": "host", "hdl": "hdl", "sim": "sim", "boards": "boards", "app": "trax_fpga"}
#: Which layers each layer may import (itself always).
ALLOWED = {
    "host": set(),
    "hdl": set(),
    "boards": {"host", "hdl"},
    "sim": {"host", "hdl", "boards"},
    "app": {"host", "hdl", "sim", "boards"},
}


def _sources(layer: str) -> list[Path]:
    return sorted((ROOT / PACKAGES[layer]).rglob("*.py"))


def _layer_of(module: str) -> str | None:
    parts = module.split(".")
    if parts[0] != "trax_fpga":
        return None
    if len(parts) == 1 or parts[1] not in ("host", "hdl", "sim", "boards"):
        return "app"
    return parts[1]


def _imports(path: Path, layer: str) -> list[tuple[int, str]]:
    """Every module ``path`` imports, as absolute names, with its line."""
    package = ["trax_fpga"] if layer == "app" else ["trax_fpga", layer]
    relative = path.relative_to(ROOT / PACKAGES[layer]).parent.parts
    here = [*package, *relative]
    found = []
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = here[: len(here) - node.level + 1]
                module = ".".join([*base, *([node.module] if node.module else [])])
                if node.module is None:
                    found += [(node.lineno, f"{module}.{alias.name}") for alias in node.names]
                    continue
            else:
                module = node.module or ""
            found.append((node.lineno, module))
        elif (
            isinstance(node, ast.Call)
            and getattr(node.func, "attr", None) == "import_module"
            and node.args
            and isinstance(node.args[0], ast.Constant)
        ):
            found.append((node.lineno, str(node.args[0].value)))
    return found


@pytest.mark.parametrize("layer", sorted(ALLOWED))
def test_imports_only_go_down(layer):
    wrong = []
    for path in _sources(layer):
        if layer == "app" and path.parent == ROOT / "trax_fpga" and path.name == "__init__.py":
            continue
        for line, module in _imports(path, layer):
            target = _layer_of(module)
            if target is not None and target != layer and target not in ALLOWED[layer]:
                wrong.append(f"{path.relative_to(ROOT)}:{line} imports {module}")
    assert not wrong, "\n".join(wrong)


def test_the_gateware_names_no_host_module():
    """``hdl`` imports nothing from ``host`` (above, by ``ALLOWED``), not even lazily by name:
    its constants are its own (``hdl/scores.py``, held equal to the models' by a test) and the
    one conversion between the two symbol types is ``sim/symbols.py``'s."""
    for path in _sources("hdl"):
        assert not re.search(r"import_module\(.*host", path.read_text()), path


def test_host_never_names_sim():
    for path in _sources("host"):
        assert not re.search(r"\bsim\b\.|trax_fpga\.sim|\.\.sim", path.read_text()), path


def test_the_application_reaches_the_simulated_board_through_sim_board():
    for path in [ROOT / "trax_fpga" / "cli.py", *(ROOT / "trax_fpga" / "web").rglob("*.py")]:
        text = path.read_text()
        assert "uart_bridge" not in text, path
        assert "SerialTransport(path" not in text, path


def test_installed_code_does_not_read_tests_data():
    for layer in ALLOWED:
        for path in _sources(layer):
            text = path.read_text()
            assert not re.search(r'__file__\).*"tests"', text), path
            assert not re.search(r'parents?\S*\s*/\s*"tests"', text), path


def test_one_symbol_conversion_between_host_and_gateware():
    patterns = [
        r'"\+/\\\\\\\\"\.index\(',  # "+/\\".index(symbol.value)
        r'" \+/\\\\\\\\"\.index\(',
        r"list\(Symbol\)\[",
        r"tiles\.Symbol\.CROSS:\s*Symbol\.CROSS",
        r'\{"\+": Symbol\.CROSS',
    ]
    offenders = []
    for path in [*ROOT.glob("*/**/*.py")]:
        if ".venv" in path.parts or "build" in path.parts or path == ROOT / "sim" / "symbols.py":
            continue
        if path == Path(__file__).resolve():
            continue
        text = path.read_text()
        offenders += [f"{path.relative_to(ROOT)}: {p}" for p in patterns if re.search(p, text)]
    assert not offenders, "\n".join(offenders)


def test_the_conversion_round_trips():
    from trax_fpga.hdl.types import Symbol as HdlSymbol
    from trax_fpga.host.tiles import Symbol
    from trax_fpga.sim.symbols import gateware_symbol, host_symbol

    for symbol in Symbol:
        assert host_symbol(gateware_symbol(symbol)) is symbol
        assert HdlSymbol.of(symbol.value) is gateware_symbol(symbol)
        assert gateware_symbol(symbol).char == symbol.value
    for wrong in (Symbol.CROSS, "x", "", "+/"):
        with pytest.raises(ValueError):
            HdlSymbol.of(wrong)
