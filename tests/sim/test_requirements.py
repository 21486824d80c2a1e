"""server/sim/README.md lists what the simulator must do; every requirement there is checked by a test that
names it (first line of its docstring), and every requirement a test names is listed there."""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
REQUIREMENT_ROW = re.compile(r"^\|\s*([A-Z]+-\d\d)\s*\|", re.M)
NAMED = re.compile(r"\b([A-Z]+-\d\d)\b")


def listed() -> set[str]:
    return set(REQUIREMENT_ROW.findall((ROOT / "server" / "sim" / "README.md").read_text(encoding="utf-8")))


def named_by_tests() -> dict[str, list[str]]:
    """Requirement id -> the tests whose docstring's first line names it (tests/sim and tests/surface)."""
    out: dict[str, list[str]] = {}
    for path in sorted((ROOT / "tests").glob("s*/test_*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node.name.startswith("test_"):
                first = (ast.get_docstring(node) or "").split("\n", 1)[0]
                for rid in NAMED.findall(first.split(":", 1)[0]):
                    out.setdefault(rid, []).append(f"{path.name}::{node.name}")
    return out


def test_every_listed_requirement_is_checked_by_a_test():
    assert sorted(listed() - set(named_by_tests())) == []


def test_every_requirement_a_test_names_is_listed():
    assert sorted(set(named_by_tests()) - listed()) == []


def test_the_requirement_list_is_not_empty_and_ids_are_unique():
    rows = REQUIREMENT_ROW.findall((ROOT / "server" / "sim" / "README.md").read_text(encoding="utf-8"))
    assert len(rows) >= 60 and len(rows) == len(set(rows))
