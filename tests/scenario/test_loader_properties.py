"""Property tests of the scenario loader: any edit of a valid scenario loads or is refused in a few lines.

A file that loads has finite numbers only (its JSON goes into every trajectory) and
sets up without a crash; a file that does not is a bounded list of problems that name it.
Never an exception.
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from a320bench.server.scenario.harness import prepare
from a320bench.server.scenario.loader import MAX_PROBLEMS, parse

ROOT = Path(__file__).resolve().parents[2]
BASE = yaml.safe_load((ROOT / "scenarios/elec/gen1_fault_reset_fails.yaml").read_text())


def leaf_paths(node: Any, path: tuple = ()) -> list[tuple]:
    if isinstance(node, dict):
        return [path] + [p for k, v in node.items() for p in leaf_paths(v, (*path, k))]
    if isinstance(node, list):
        return [path] + [p for i, v in enumerate(node) for p in leaf_paths(v, (*path, i))]
    return [path]


PATHS = [p for p in leaf_paths(BASE) if p]
odd = (st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=30)
       | st.sampled_from([float("nan"), float("inf"), "maybe", "x" * 300, "cruise", "GEN 1", "OFF", -1, 10**9]))
values = st.recursive(odd, lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner,
                                                                                       max_size=3), max_leaves=5)
edits = st.lists(st.tuples(st.sampled_from(["set", "delete", "add"]), st.sampled_from(PATHS), values,
                           st.text(min_size=1, max_size=12)), min_size=1, max_size=3)


def apply(data: Any, edit: tuple) -> None:
    kind, path, value, key = edit
    parent = data
    for part in path[:-1]:
        try:
            parent = parent[part]
        except (KeyError, IndexError, TypeError):
            return  # an earlier edit removed the way there
    last = path[-1]
    try:
        if kind == "set":
            parent[last] = value
        elif kind == "delete":
            del parent[last]
        elif isinstance(parent, dict):
            parent[key] = value
    except (KeyError, IndexError, TypeError):
        pass


def finite(node: Any) -> bool:
    if isinstance(node, float):
        return math.isfinite(node)
    if isinstance(node, dict):
        return all(finite(v) for v in node.values())
    if isinstance(node, list):
        return all(finite(v) for v in node)
    return True


@settings(max_examples=60, deadline=None, database=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow,
                                                                 HealthCheck.function_scoped_fixture])
@given(edit_list=edits)
def test_any_edit_of_a_scenario_loads_cleanly_or_is_a_bounded_list_of_problems(tmp_path, edit_list):
    data = json.loads(json.dumps(BASE))
    for edit in edit_list:
        apply(data, edit)
    f = tmp_path / "edited.yaml"
    f.write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
    sc, problems = parse(f)
    if problems:
        assert len(problems) <= MAX_PROBLEMS + 1
        assert all(str(p).startswith(f"{f}: ") and "\n" not in str(p) for p in problems)
        return
    assert sc is not None
    dumped = sc.model_dump(mode="json")
    assert finite(dumped)
    json.dumps(dumped, allow_nan=False)
    prepare(sc)  # sets up (or reports an invalid gate) without a crash
