"""`a320-bench run` with the built-in providers: the catalogue, determinism, replay, resume."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from a320bench.bridge import exitcodes
from a320bench.bridge.cli import main
from a320bench.bridge.score.scorecard import score_file

ROOT = Path(__file__).resolve().parents[2]
CATALOGUE = sorted((ROOT / "scenarios").rglob("*.yaml"))
N_ELEC = len(list((ROOT / "scenarios" / "elec").glob("*.yaml")))
VOLATILE = {"ts", "wall_ms", "latency_ms", "versions"}


def events(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines()]


def stable(evs: list[dict]) -> list[dict]:
    return [{k: v for k, v in e.items() if k not in VOLATILE} for e in evs]


@pytest.mark.parametrize("path", CATALOGUE, ids=lambda p: p.stem)
def test_the_scripted_provider_flies_every_catalogue_scenario_to_compliant_success(path, tmp_path):
    assert main(["run", "--scenario", str(path), "--out", str(tmp_path), "--no-progress"]) == exitcodes.OK
    (traj,) = tmp_path.rglob("*.jsonl")
    card = score_file(traj)
    assert (card.status, card.outcome, card.completion, card.in_order, card.dangerous, card.compliant_success) == (
        "valid", True, 1.0, True, 0, True)


def test_same_scenario_and_actions_give_the_same_trajectory_timestamps_aside(tmp_path):
    for out in ("a", "b"):
        assert main(["run", "--provider", "random", "--seed", "7", "--runs", "2",
                     "--scenario", "scenarios/elec", "--out", str(tmp_path / out), "--no-progress"]) == 0
    files = sorted((tmp_path / "a").rglob("*.jsonl"))
    assert len(files) == 2 * len(list((ROOT / "scenarios" / "elec").glob("*.yaml")))
    for fa in files:
        fb = tmp_path / "b" / fa.relative_to(tmp_path / "a")
        assert stable(events(fa)) == stable(events(fb)), fa.name


def test_random_runs_differ_between_run_indices(tmp_path):
    assert main(["run", "--provider", "random", "--runs", "2", "--scenario", "scenarios/elec/tr1_fault_cruise.yaml",
                 "--out", str(tmp_path), "--no-progress"]) == 0
    a, b = sorted(tmp_path.rglob("*.jsonl"))
    calls = lambda p: [e["arguments"] for e in events(p) if e["type"] == "tool_call"]  # noqa: E731
    assert calls(a) != calls(b)


def test_replay_reapplies_recorded_calls_and_reaches_the_same_state(tmp_path, capsys):
    src = tmp_path / "src"
    assert main(["run", "--provider", "random", "--scenario", "scenarios/elec", "--out", str(src), "--no-progress"]) == 0
    assert main(["run", "--provider", "replay", "--replay-from", str(src), "--scenario", "scenarios/elec",
                 "--out", str(tmp_path / "replayed"), "--no-progress"]) == 0
    checks = [e for p in (tmp_path / "replayed").rglob("*.jsonl") for e in events(p) if e["type"] == "replay_check"]
    assert len(checks) == N_ELEC and all(c["same"] for c in checks)


def test_noop_is_a_floor_that_never_acts(tmp_path):
    assert main(["run", "--provider", "noop", "--scenario", "scenarios/elec/gen1_fault_reset_fails.yaml",
                 "--out", str(tmp_path), "--no-progress"]) == 0
    (traj,) = tmp_path.rglob("*.jsonl")
    card = score_file(traj)
    assert [e["name"] for e in events(traj) if e["type"] == "tool_call"] == ["read_ecam", "report_done"]
    assert (card.outcome, card.compliant_success, card.completion) == (False, False, 0.0)


def test_rerunning_into_the_same_folder_skips_complete_episodes(tmp_path, capsys):
    args = ["run", "--scenario", "scenarios/elec/tr1_fault_cruise.yaml", "--runs", "2", "--out", str(tmp_path),
            "--no-progress"]
    assert main(args) == 0
    first = {p: p.stat().st_mtime_ns for p in tmp_path.rglob("*.jsonl")}
    capsys.readouterr()
    assert main(args) == 0
    assert "2 episode(s) already complete" in capsys.readouterr().err
    assert {p: p.stat().st_mtime_ns for p in tmp_path.rglob("*.jsonl")} == first
    assert main([*args, "--force"]) == 0
    assert all(p.stat().st_mtime_ns != t for p, t in first.items())


def test_the_run_record_describes_the_run(tmp_path):
    assert main(["run", "--scenario", "scenarios/elec/tr1_fault_cruise.yaml", "--out", str(tmp_path),
                 "--no-progress"]) == 0
    (rec_path,) = tmp_path.glob("run-*.json")
    rec = json.loads(rec_path.read_text())
    assert rec["scenarios"] == ["elec_tr1_fault_cruise"]
    assert rec["provider"] == "scripted" and rec["profile"] == "benchmark"
    assert rec["counts"] == {"agent_done": 1}
    assert (rec["sampling"], rec["seed"], rec["interrupted"], rec["not_started"]) == ({}, 0, None, 0)
    assert len(rec["selection_sha256"]) == 64 and len(rec["instructions_sha256"]) == 64
    assert rec["command"].startswith("a320-bench run --scenario scenarios/elec/tr1_fault_cruise.yaml")


def test_the_run_record_names_the_seed_the_agent_was_given(tmp_path):
    assert main(["run", "--scenario", "scenarios/elec/tr1_fault_cruise.yaml", "--provider", "random", "--seed", "7",
                 "--out", str(tmp_path), "--no-progress"]) == 0
    (rec_path,) = tmp_path.glob("run-*.json")
    assert json.loads(rec_path.read_text())["seed"] == 7


@pytest.mark.slow
def test_a_run_killed_with_sigkill_and_rerun_loses_and_duplicates_nothing(tmp_path):
    out = tmp_path / "out"
    cmd = [sys.executable, "-m", "a320bench", "run", "--scenario", "scenarios/elec", "--runs", "12",
           "--workers", "2", "--out", str(out), "--no-progress"]
    proc = subprocess.Popen(cmd, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                            start_new_session=True)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and len(list(out.rglob("*.jsonl"))) < 20:
        time.sleep(0.05)
    os.killpg(proc.pid, signal.SIGKILL)
    proc.wait()
    partial = list(out.rglob("*.jsonl"))
    assert 20 <= len(partial) < N_ELEC * 12, "the kill should land mid-run"
    assert subprocess.run(cmd, cwd=ROOT, capture_output=True).returncode == 0
    files = sorted(out.rglob("*.jsonl"))
    assert len(files) == N_ELEC * 12
    for f in files:
        evs = events(f)
        assert [e["type"] for e in evs].count("final") == 1, f
        assert [e["type"] for e in evs].count("meta") == 1, f
        assert evs[-1]["type"] == "final" and evs[-1]["reason"] == "agent_done"
