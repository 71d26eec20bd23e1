"""Reading the project's record files (tests/data, copied from the shared records)."""

from __future__ import annotations

import pathlib

DATA = pathlib.Path(__file__).resolve().parent.parent / "data"

# Result words of the records -> the verdicts `trax judge` prints.
_RESULT = {"W": "white", "R": "black"}


def record_lines(name: str) -> list[list[str]]:
    """The '|'-separated fields of every game line of a record file."""
    rows = []
    for line in (DATA / name).read_text(encoding="utf-8").splitlines():
        if line.strip() and not line.startswith("#"):
            rows.append([field.strip() for field in line.split("|")])
    return rows


def expected_verdict(result: str) -> str:
    """Translate a record's result field (``W-loop``, ``ILLEGAL@9(B3\\): ...``, ``open``...)."""
    result = result.split(";")[0].strip()
    if result.startswith("ILLEGAL@"):
        return f"illegal {result[len('ILLEGAL@') :].split('(')[0]}"
    if result.startswith("open"):
        return "none"
    colour, _, kind = result.split()[0].partition("-")
    return f"{_RESULT.get(colour, colour)}-{kind}" if colour in _RESULT else result.split()[0]


def moves_only(field: str) -> list[str]:
    """The moves of a record's last field, without the {braced} non-move tokens of contest logs."""
    return [token for token in field.split() if not token.startswith("{")]
