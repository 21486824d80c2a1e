"""`run --executor ray` on a local 2-CPU cluster: what the local executor writes, nothing lost when a Ray
worker or the driver is killed mid-batch."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from a320bench.bridge import exitcodes
from a320bench.bridge.cli import main
from tests.clients.client_bed import AGENT, SCENARIO, box_of_inputs, processes_with, python_cmd, seen_in_box
from tests.clients.conftest import sandboxed  # noqa: F401 - the fixture, for the client test
from tests.executors.executor_bed import ROOT, record, scores, trajectories

pytestmark = [pytest.mark.slow, pytest.mark.usefixtures("ray_cluster")]

# The fuel scenario's setup takes about a second: a kill lands mid-episode.
SELECTION = ["--scenario", "scenarios/elec", "scenarios/fuel/l_wing_tk_lo_lvl_cruise.yaml"]
DEADLINE_S = 120.0
# A whole batch, after a kill: the killed chain flown again, or the rest flown one chain at a time by a resumed
# driver in a fresh job (new worker processes). A few seconds when quiet; past 120 s beside two CPU burners and
# a second suite (load 7). A hang still fails, saying how far it got.
RUN_DEADLINE_S = 360.0


@pytest.fixture(scope="module")
def local_run(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("local") / "out"
    assert main(["run", *SELECTION, "--runs", "2", "--out", str(out), "--no-progress"]) == exitcodes.OK
    return out


def ray_processes(task: str, cluster) -> list[int]:
    """The cluster's worker processes running `task` now (Ray names a busy worker `ray::<task>`); not those
    of another suite's cluster on the same machine, which would be killed from under it."""
    mine = f"TMPDIR={cluster.temp}\0".encode()
    return [pid for pid in processes_with(f"ray::{task}") if mine in _environ(pid)]


def _environ(pid: int) -> bytes:
    try:
        return Path(f"/proc/{pid}/environ").read_bytes()
    except OSError:  # gone already
        return b""


def test_ray_writes_the_trajectories_and_scores_the_local_executor_writes(local_run, tmp_path):
    out = tmp_path / "out"
    assert main(["run", *SELECTION, "--runs", "2", "--executor", "ray", "--workers", "2", "--out", str(out),
                 "--no-progress"]) == exitcodes.OK
    assert record(out)["executor"] == "ray, the cluster this process has joined, up to 2 chain(s) in flight"
    assert trajectories(out) == trajectories(local_run)
    assert scores(out) == scores(local_run)


@pytest.mark.timeout(DEADLINE_S + RUN_DEADLINE_S + 120)
def test_a_ray_worker_killed_mid_batch_loses_and_duplicates_nothing(ray_cluster, local_run, tmp_path):
    out = tmp_path / "out"
    rc: list[int] = []
    driver = threading.Thread(target=lambda: rc.append(main(
        ["run", *SELECTION, "--runs", "2", "--executor", "ray", "--workers", "2", "--out", str(out),
         "--no-progress"])))
    driver.start()
    deadline = time.monotonic() + DEADLINE_S
    killed = None
    while killed is None and time.monotonic() < deadline and driver.is_alive():
        busy = ray_processes("fly_chain", ray_cluster)
        if busy:
            killed = busy[0]
            os.kill(killed, signal.SIGKILL)
        time.sleep(0.01)
    driver.join(RUN_DEADLINE_S)
    assert killed is not None, "no Ray worker was seen flying a chain"
    assert not driver.is_alive(), (f"the run did not end in {RUN_DEADLINE_S:.0f} s, with "
                                   f"{len(list(out.rglob('*.jsonl')))} of {len(trajectories(local_run))} written")
    assert rc == [exitcodes.OK]
    assert trajectories(out) == trajectories(local_run)  # every episode once, each as the local executor wrote it
    assert scores(out) == scores(local_run)


@pytest.mark.timeout(DEADLINE_S + RUN_DEADLINE_S + 120)
def test_a_driver_killed_mid_batch_and_restarted_resumes_to_the_same_results(ray_cluster, local_run, tmp_path):
    out = tmp_path / "out"
    cmd = [sys.executable, "-m", "a320bench", "run", *SELECTION, "--runs", "2", "--executor", "ray",
           "--ray-address", ray_cluster.address, "--workers", "1", "--out", str(out), "--no-progress"]
    proc = subprocess.Popen(cmd, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                            start_new_session=True)
    deadline = time.monotonic() + DEADLINE_S
    while len(list(out.rglob("*.jsonl"))) < 4 and time.monotonic() < deadline and proc.poll() is None:
        time.sleep(0.01)
    proc.kill()
    _, err = proc.communicate(timeout=DEADLINE_S)
    written = len(list(out.rglob("*.jsonl")))
    assert 4 <= written < len(trajectories(local_run)), f"the kill should land mid-batch: {err}"
    again = subprocess.Popen(cmd, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                             start_new_session=True)
    try:
        _, err = again.communicate(timeout=RUN_DEADLINE_S)
    except subprocess.TimeoutExpired:
        again.kill()
        _, err = again.communicate()
        pytest.fail(f"the resumed run did not end in {RUN_DEADLINE_S:.0f} s, with "
                    f"{len(list(out.rglob('*.jsonl')))} of {len(trajectories(local_run))} trajectories written: {err}")
    assert again.returncode == exitcodes.OK, err
    assert f"{written} episode(s) already complete in {out}" in err
    assert trajectories(out) == trajectories(local_run)
    assert scores(out) == scores(local_run)


def test_a_model_limit_is_held_by_one_actor_for_the_whole_cluster_and_given_back(local_run, tmp_path):
    import ray

    from a320bench.bridge.executors.slots import model_slots

    out = tmp_path / "out"
    assert main(["run", *SELECTION, "--runs", "2", "--executor", "ray", "--workers", "2",
                 "--max-concurrency-per-model", "1", "--out", str(out), "--no-progress"]) == exitcodes.OK
    assert record(out)["executor"] == ("ray, the cluster this process has joined, up to 2 chain(s) in flight, "
                                       "at most 1 per model across the cluster")
    assert trajectories(out) == trajectories(local_run)
    assert ray.get(model_slots(ray).held.remote("scripted")) == 0


@pytest.mark.usefixtures("sandboxed")
def test_a_client_flown_by_ray_workers_sees_none_of_the_runs_inputs_either(tmp_path):
    box, args = box_of_inputs(tmp_path)
    assert main([*args, "--executor", "ray", "--workers", "2"]) == exitcodes.OK
    for scenario_id in ("elec_gen1_fault_reset_fails", "elec_ac_bus_1_fault_cruise"):
        log = box / "runs" / scenario_id / "cmd__run000.cmd.log"
        assert json.loads(log.read_text().splitlines()[-1])["seen"] == seen_in_box(box)


@pytest.mark.usefixtures("sandboxed")
def test_a_client_on_ray_sees_nothing_of_the_folders_its_workers_fly_chains_in_nor_the_clusters_token(ray_cluster,
                                                                                                      tmp_path):
    """A task flies its chain in a temporary folder of its worker ($TMPDIR, here the cluster's), its episode in
    progress there: a client whose command names a folder above it finds the chains' folder empty. The client
    shares the network, so the cluster's GCS is there for it to connect to; what it lacks is the token (the
    file, here in that same folder, and every RAY_* variable), without which the cluster runs none of its code."""
    out = tmp_path / "runs"
    gcs_port = int(ray_cluster.address.rsplit(":", 1)[1])
    look = python_cmd(str(AGENT), "look", "{config}", "{server}", "--root", str(ray_cluster.temp), "--skip", "r",
                      "--env", "RAY_", "--reach", str(gcs_port))
    assert main(["run", "--scenario", str(SCENARIO), "--out", str(out), "--no-progress", "--executor", "ray",
                 "--workers", "1", "--client", "cmd", "--client-cmd", look]) == exitcodes.OK  # r: Ray's own files
    folder = out / "elec_gen1_fault_reset_fails"
    log = (folder / "cmd__run000.cmd.log").read_text()
    seen = json.loads(log.splitlines()[-1])["seen"]
    chains = ray_cluster.temp / "a320bench-chains"
    assert seen[f"list {chains}"] == ""
    assert [k for k in seen if "chain" in k.removeprefix(f"list {chains}")] == []
    assert seen[f"reach {gcs_port}"] == "listed as listening; connected"
    assert seen["env RAY_*"] == ""
    assert ray_cluster.token.name not in seen[f"list {ray_cluster.temp}"].split()
    assert [k for k in seen if k.startswith("read ")] == []  # the token was the only file to read
    assert ray_cluster.token.read_text() not in log
    (report,) = [e for e in map(json.loads, (folder / "cmd__run000.jsonl").read_text().splitlines())
                 if e["type"] == "client_report"]
    assert {str(chains), str(out)} <= set(report["sandbox"]["hidden"])
    # The token file, left out of the folder it is in; its path is the value of RAY_AUTH_TOKEN_PATH, which the
    # record scrubs as it scrubs every variable named like a secret.
    assert report["sandbox"]["left_out"] == ["[REDACTED]"]
    assert {"RAY_AUTH_MODE", "RAY_AUTH_TOKEN_PATH", "RAY_JOB_ID"} <= set(report["sandbox"]["dropped_variables"])


def test_a_chains_folder_another_user_made_first_flies_nothing_there_and_says_why(ray_cluster, tmp_path, capsys):
    """On a node whose TMPDIR others share, a folder of that name made first by another user could watch the
    trajectories being written: the tasks refuse it, their episodes end harness_error unwritten (a resume
    flies them), and the console names the folder."""
    chains = ray_cluster.temp / "a320bench-chains"
    kept = ray_cluster.temp / "a320bench-chains.kept"
    if chains.exists():
        chains.rename(kept)
    chains.symlink_to(tmp_path)  # a link is refused wherever it points (another user's folder: tested apart)
    try:
        out = tmp_path / "out"
        rc = main(["run", "--scenario", "scenarios/elec/gen1_fault_reset_fails.yaml", "--runs", "2",
                   "--executor", "ray", "--workers", "2", "--out", str(out), "--no-progress"])
    finally:
        chains.unlink()
        if kept.exists():
            kept.rename(chains)
    assert rc == exitcodes.INTERNAL
    assert record(out)["counts"] == {"harness_error": 2}
    assert list(out.rglob("*.jsonl")) == []
    assert [p.name for p in tmp_path.iterdir()] == ["out"]
    err = capsys.readouterr().err
    assert (f"harness error: the chains' folder {chains} is a link, not this user's own (uid {os.getuid()}): "
            f"remove it, or give the cluster's workers another TMPDIR") in err
