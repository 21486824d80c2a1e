"""The cluster-wide slots of --max-concurrency-per-model (the actor's logic, without Ray), and the ray
extra missing."""

from __future__ import annotations

import sys

from a320bench.bridge import exitcodes
from a320bench.bridge.executors import slots
from tests.executors.executor_bed import ROOT, cli_without


def test_a_model_gets_at_most_its_limit_of_leases_and_a_released_one_comes_back():
    s = slots.ModelSlots()
    a, b = s.acquire("m", 2), s.acquire("m", 2)
    assert (a, b, s.acquire("m", 2)) == (1, 2, None)
    assert s.acquire("other", 1) == 3  # each model has its own slots
    s.release(a)
    assert s.acquire("m", 2) == 4
    assert s.held("m") == 2


def test_a_lease_its_driver_stopped_renewing_lapses_and_a_renewed_one_does_not(monkeypatch):
    now = [1000.0]
    monkeypatch.setattr(slots.time, "monotonic", lambda: now[0])
    s = slots.ModelSlots()
    kept, dropped = s.acquire("m", 2), s.acquire("m", 2)
    now[0] += slots.LEASE_S - 1
    s.renew([kept])
    now[0] += 2  # past the first expiry: only the renewed lease still holds
    assert s.acquire("m", 2) is not None
    assert s.held("m") == 2 and dropped not in s.leases["m"] and kept in s.leases["m"]


def test_the_ray_executor_without_the_extra_is_one_line_with_the_pip_command_and_exit_2(tmp_path):
    r = cli_without("ray", "run", "--executor", "ray", "--out", str(tmp_path / "out"))
    assert r.returncode == exitcodes.USAGE
    assert r.stderr.splitlines() == [f"error: --executor ray needs the ray extra (ray is not installed): "
                                     f"{sys.executable} -m pip install -e '{ROOT}[ray]'"]
    assert not (tmp_path / "out").exists()
