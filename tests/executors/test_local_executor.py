"""The local executor: worker processes change nothing in what a run writes, die with the run, and a
worker that dies mid-episode loses and duplicates nothing."""

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
from tests.clients.client_bed import processes_with
from tests.executors.executor_bed import ROOT, record, scores, trajectories
from tests.fakes.openai_server import HANG, FakeOpenAI, tool_call

SCENARIO = "scenarios/elec/gen1_fault_reset_fails.yaml"
OTHER = "scenarios/elec/tr1_fault_cruise.yaml"
KEY = "sk-test-SECRET-0123456789abcdef"
DONE = {"tool_calls": [tool_call("report_done", {"diagnosis": "GEN 1", "actions_summary": "none"})]}
DEADLINE_S = 90.0  # for things to happen; never a measure of speed


def run_catalogue(out: Path, workers: int, *extra: str) -> None:
    assert main(["run", "--out", str(out), "--workers", str(workers), "--no-progress", *extra]) == exitcodes.OK


@pytest.fixture(scope="module")
def catalogue_in_one_process(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("workers1") / "out"
    run_catalogue(out, 1)
    assert record(out)["executor"] == "local, in this process, 1 episode(s) at a time"
    return out


@pytest.mark.slow
def test_the_catalogue_in_worker_processes_writes_what_one_process_writes(catalogue_in_one_process, tmp_path,
                                                                        monkeypatch):
    monkeypatch.setenv("A320_BENCH_WORKER_PROCESSES", "2")  # the same on a machine with more cores
    out = tmp_path / "out"
    run_catalogue(out, 4)
    assert record(out)["executor"] == "local, 2 worker processes, up to 2 episode(s) at a time each"
    one = trajectories(catalogue_in_one_process)
    assert len(one) == len(list((ROOT / "scenarios").rglob("*.yaml")))
    assert trajectories(out) == one  # byte for byte, wall-clock values aside
    assert scores(out) == scores(catalogue_in_one_process)


@pytest.mark.slow
@pytest.mark.parametrize("workers", [1, 3])
def test_a_seeded_random_walk_writes_the_same_files_at_any_number_of_workers(tmp_path, monkeypatch, workers):
    monkeypatch.setenv("A320_BENCH_WORKER_PROCESSES", "2")
    args = ["--provider", "random", "--seed", "5", "--runs", "2", "--scenario", "scenarios/hyd"]
    run_catalogue(tmp_path / "two", 2, *args)
    run_catalogue(tmp_path / "other", workers, *args)
    assert trajectories(tmp_path / "other") == trajectories(tmp_path / "two")
    assert scores(tmp_path / "other") == scores(tmp_path / "two")


def workers_of(pid: int) -> list[int]:
    """The live worker processes a driver started (the worker module, given the driver's pid)."""
    return processes_with(f"a320bench.bridge.executors.worker\0{pid}\0")


def model_run(out: Path, fake: FakeOpenAI, env_file: Path, *extra: str) -> list[str]:
    return [sys.executable, "-m", "a320bench", "run", "--scenario", SCENARIO, OTHER, "--model", "openai/fake-model",
            "--env-file", str(env_file), "--sampling", json.dumps({"api_base": fake.url}), "--out", str(out),
            "--workers", "2", "--no-progress", *extra]


def wait_until(condition, what: str) -> None:
    deadline = time.monotonic() + DEADLINE_S
    while not condition():
        assert time.monotonic() < deadline, f"gave up waiting for {what}"
        time.sleep(0.05)


def events(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines()]


@pytest.fixture
def env_file(tmp_path) -> Path:
    path = tmp_path / "creds.env"
    path.write_text(f"OPENAI_API_KEY={KEY}\n")
    return path


@pytest.mark.slow
def test_a_worker_killed_mid_episode_is_replaced_and_its_episode_flown_again_once(tmp_path, env_file):
    out = tmp_path / "out"
    # Both episodes' first requests hang; the one whose worker survives times out and asks again.
    with FakeOpenAI([HANG, HANG, DONE], repeat_last=True) as fake:
        cmd = model_run(out, fake, env_file, "--request-timeout", "5", "--max-retries", "1")
        proc = subprocess.Popen(cmd, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                env={**os.environ, "A320_BENCH_WORKER_PROCESSES": "2"})
        wait_until(lambda: len(fake.requests) >= 2, "both episodes to be in flight")
        assert len(fake.requests) == 2  # the third comes after a request timeout, seconds later
        victim, _ = workers_of(proc.pid)
        os.kill(victim, signal.SIGKILL)
        _, err = proc.communicate(timeout=DEADLINE_S)
    assert proc.returncode == exitcodes.OK, err
    assert "Traceback" not in err and KEY not in err
    assert err.splitlines()[0].startswith("a worker process died (signal 9) while flying elec_")
    assert err.splitlines()[0].endswith(" run 0: flying it again")
    files = sorted(out.rglob("*.jsonl"))
    assert len(files) == 2
    for f in files:
        types = [e["type"] for e in events(f)]
        assert (types.count("meta"), types.count("final"), events(f)[-1]["reason"]) == (1, 1, "agent_done"), f
    assert record(out)["retried_chains"] == 1
    assert record(out)["counts"] == {"agent_done": 2}
    assert workers_of(proc.pid) == []


@pytest.mark.slow
@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGKILL], ids=["sigterm", "sigkill"])
def test_a_stopped_run_takes_its_workers_with_it_and_resumes(tmp_path, env_file, sig):
    out = tmp_path / "out"
    with FakeOpenAI([HANG], repeat_last=True) as fake:  # every request hangs
        cmd = model_run(out, fake, env_file)
        proc = subprocess.Popen(cmd, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                start_new_session=True, env={**os.environ, "A320_BENCH_WORKER_PROCESSES": "2"})
        wait_until(lambda: len(fake.requests) == 2, "both episodes to be in flight")
        assert len(workers_of(proc.pid)) == 2
        proc.send_signal(sig)
        _, err = proc.communicate(timeout=DEADLINE_S)
        wait_until(lambda: workers_of(proc.pid) == [], "the workers to be gone")
    files = sorted(out.rglob("*.jsonl"))
    assert len(files) == 2
    if sig == signal.SIGTERM:
        assert proc.returncode == exitcodes.INTERRUPTED, err
        assert err.splitlines()[-1] == ("interrupted (SIGTERM): 2 episode(s) in flight ended `interrupted`, "
                                        "0 not started; run the same command again to resume")
        assert [events(f)[-1]["reason"] for f in files] == ["interrupted", "interrupted"]
        assert record(out)["counts"] == {"interrupted": 2}
    else:  # nothing stands as a result; resuming after a SIGKILL (with workers) is test_run.py's
        assert proc.returncode == -signal.SIGKILL
        assert ["final" in [e["type"] for e in events(f)] for f in files] == [False, False]
        return
    for f in out.glob("run-*.json"):
        f.unlink()
    with FakeOpenAI([DONE], repeat_last=True) as fake:
        again = subprocess.run(model_run(out, fake, env_file), cwd=ROOT, capture_output=True, text=True,
                               timeout=DEADLINE_S)
    assert again.returncode == exitcodes.OK, again.stderr
    assert [events(f)[-1]["reason"] for f in sorted(out.rglob("*.jsonl"))] == ["agent_done", "agent_done"]
    assert record(out)["counts"] == {"agent_done": 2}


def test_a_disk_that_fills_under_worker_processes_stops_every_worker_and_exits_74(tmp_path, monkeypatch, capsys):
    from a320bench.server.trajectory import is_complete
    from tests.disk_bed import small_disk

    monkeypatch.setenv("A320_BENCH_WORKER_PROCESSES", "2")
    with small_disk(tmp_path / "disk") as disk:
        rc = main(["run", "--scenario", "scenarios/elec", "--runs", "3", "--out", str(disk / "out"), "--no-progress",
                   "--workers", "2"])
        err = capsys.readouterr().err
        assert rc == exitcodes.STORAGE, err
        assert "Traceback" not in err
        assert [line for line in err.splitlines() if line.startswith("error: ")][0].endswith(
            ": No space left on device")
        assert "episode(s) not started; free space (or make the disk writable) and run the same command again to resume" in err
        files = list((disk / "out").rglob("*.jsonl"))
        cut = [p for p in files if not is_complete(p)]
        # Each worker had at most one episode in flight when the disk filled; nothing cut stands as a result,
        # and no worker started another one.
        assert 1 <= len(cut) <= 2
        total = 3 * len(list((ROOT / "scenarios" / "elec").glob("*.yaml")))
        assert f"{total - len(files)} episode(s) not started" in err
