"""Where the project keeps what it builds once and reuses (compiled models, Verilator builds,
C-slowed modules): one folder a kind."""

from __future__ import annotations

import os
from pathlib import Path

__all__ = ["cache_dir"]


def cache_dir(kind: str, variable: str) -> Path:
    """The folder for ``kind``: the environment's ``variable`` when set, else ``build/<kind>``
    in the source tree, or ``~/.cache/trax-fpga/<kind>`` when installed elsewhere."""
    if os.environ.get(variable):
        return Path(os.environ[variable])
    source_root = Path(__file__).resolve().parent.parent
    if (source_root / "pyproject.toml").exists():
        return source_root / "build" / kind
    return Path.home() / ".cache" / "trax-fpga" / kind
