"""A results folder from another machine re-simulates here: the catalogue flown with another maths library
(every exp, sin and pow result an ulp away) and another Python's float sum() records the golden trajectories
and scorecards (tests/golden/foreign_platform.py says how)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.golden.catalogue_golden import CATALOGUE, GOLDEN

ROOT = Path(__file__).resolve().parents[2]
SHARDS = 8  # processes of about a dozen scenarios each, so the workers share them
EXPECTED = json.loads(GOLDEN.read_text(encoding="utf-8"))


@pytest.mark.slow
@pytest.mark.parametrize("shard", range(SHARDS))
def test_the_catalogue_flown_on_another_maths_library_and_python_records_the_golden(shard):
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"} | {"PYTHONPATH": str(ROOT.parent)}
    p = subprocess.run([sys.executable, "-m", "tests.golden.foreign_platform", f"{shard}/{SHARDS}", str(shard)],
                       cwd=ROOT, capture_output=True, text=True, env=env, timeout=280)
    assert p.returncode == 0, p.stderr[-2000:]
    out = json.loads(p.stdout)
    assert out["moved"] > 10_000  # the library's results were moved (a hook that took no effect moves none)
    assert sorted(out["digests"]) == sorted(k for k in EXPECTED if k.split("/")[0] + "/" + k.split("/")[1]
                                            in {f"{f.parent.name}/{f.stem}" for f in CATALOGUE[shard::SHARDS]})
    differ = sorted(k for k, d in out["digests"].items() if d != EXPECTED[k])
    assert differ == [], "these trajectories hang on the last bit of the maths library or on sum()'s rounding"
