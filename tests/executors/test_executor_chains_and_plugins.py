"""The learning track's chains, plug-ins and the LLM captain fly through the executors: in worker
processes and on Ray they write what one process writes; shards keep chains whole; the dry run shows them."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from a320bench.bridge import exitcodes
from a320bench.bridge.cli import main
from tests.bridge.learning_bed import LEARNER, pin_selection_order, repeated_scenarios
from tests.executors.executor_bed import ROOT, record, scores, trajectories
from tests.fakes.openai_server import FakeOpenAI

EXAMPLE = f"{ROOT / 'examples' / 'ecam_reader.py'}:EcamReader"
IN_TWO = "local, 2 worker processes, up to 1 episode(s) at a time each"


@pytest.fixture
def repeated(tmp_path, monkeypatch) -> Path:
    pin_selection_order(monkeypatch)  # these tests read positions and compare runs
    return repeated_scenarios(tmp_path)


def learning_run(scenarios: Path, out: Path, *extra: str) -> int:
    return main(["run", "--profile", "learning", "--agent", LEARNER, "--scenario", str(scenarios), "--runs", "2",
                 "--out", str(out), "--no-progress", *extra])


def stores(out: Path) -> dict[str, dict]:
    return {f.name: json.loads(f.read_text()) for f in sorted((out / "learning").glob("*.json"))}


@pytest.fixture
def learning_in_one_process(repeated, tmp_path) -> Path:
    out = tmp_path / "one"
    assert learning_run(repeated, out, "--workers", "1") == exitcodes.OK
    assert record(out)["executor"] == "local, in this process, 1 episode(s) at a time"
    return out


@pytest.mark.slow
def test_learning_chains_in_worker_processes_write_what_one_process_writes(repeated, learning_in_one_process,
                                                                           tmp_path, monkeypatch):
    monkeypatch.setenv("A320_BENCH_WORKER_PROCESSES", "2")  # the same on a machine with more cores
    out = tmp_path / "two"
    assert learning_run(repeated, out, "--workers", "2") == exitcodes.OK
    assert record(out)["executor"] == IN_TWO  # two chains (run indices), one per worker process
    assert record(out)["learning"] == {"order": ["again_1", "again_2", "again_3"], "top_k": 3, "chains": 2}
    one = trajectories(learning_in_one_process)
    assert len(one) == 6
    assert trajectories(out) == one  # byte for byte, wall-clock values aside
    assert scores(out) == scores(learning_in_one_process)
    # Each worker committed its chain's store as the driver's loop does: the learner improved along both.
    assert stores(out) == stores(learning_in_one_process)
    assert [[e["position"] for e in s["entries"]] for s in stores(out).values()] == [[0, 1, 2], [0, 1, 2]]
    assert [scores(out)[f"again_{n}/Learner__run001.jsonl"]["compliant_success"] for n in (1, 2, 3)] == [
        False, True, True]


@pytest.mark.slow
def test_a_file_plug_in_is_built_again_in_each_worker_process_and_writes_what_one_process_writes(tmp_path,
                                                                                                 monkeypatch):
    monkeypatch.setenv("A320_BENCH_WORKER_PROCESSES", "2")
    selection = ["--agent", EXAMPLE, "--scenario", "scenarios/elec", "--no-progress"]
    assert main(["run", *selection, "--workers", "1", "--out", str(tmp_path / "one")]) == exitcodes.OK
    assert main(["run", *selection, "--workers", "2", "--out", str(tmp_path / "two")]) == exitcodes.OK
    assert record(tmp_path / "two")["executor"] == IN_TWO
    one = trajectories(tmp_path / "one")
    assert len(one) == len(list((ROOT / "scenarios" / "elec").glob("*.yaml")))
    assert trajectories(tmp_path / "two") == one
    assert scores(tmp_path / "two") == scores(tmp_path / "one")


@pytest.mark.slow
def test_a_broken_plug_in_in_worker_processes_is_said_once_and_every_episode_is_its_failure(tmp_path, monkeypatch,
                                                                                            capsys):
    monkeypatch.setenv("A320_BENCH_WORKER_PROCESSES", "2")
    broken = tmp_path / "broken.py"
    broken.write_text("class Agent:\n    def run(self, view):\n        return None\n")
    out = tmp_path / "out"
    assert main(["run", "--agent", f"{broken}:Agent", "--scenario", "scenarios/elec", "--workers", "2", "--out",
                 str(out), "--no-progress"]) == exitcodes.OK
    assert record(out)["executor"] == IN_TWO
    err = capsys.readouterr().err
    problem = f"plug-in {broken}:Agent is broken: Agent.run is not async: define async def run(self, view)"
    assert [line for line in err.splitlines() if "is broken" in line] == [
        f"error: {problem}; every episode ends agent_error (fix it, then rerun with --force)"]
    finals = [json.loads(f.read_text().splitlines()[-1]) for f in sorted(out.rglob("*.jsonl"))]
    assert len(finals) == len(list((ROOT / "scenarios" / "elec").glob("*.yaml")))
    assert {(f["reason"], f["error"]) for f in finals} == {("agent_error", f"agent_error: {problem}")}


@pytest.mark.slow
def test_the_llm_captain_travels_to_the_worker_processes(tmp_path, monkeypatch):
    monkeypatch.setenv("A320_BENCH_WORKER_PROCESSES", "2")
    monkeypatch.setenv("A320_BENCH_BACKOFF_BASE_S", "0.01")
    for name in ("OPENAI_API_KEY", "OPENAI_API_BASE"):
        monkeypatch.delenv(name, raising=False)
    scenarios = ["scenarios/fire/eng1_cruise_first_agent.yaml", "scenarios/fire/eng2_climb_second_agent.yaml"]
    with FakeOpenAI([{"text": "Confirmed."}], repeat_last=True) as fake:
        env_file = tmp_path / "creds.env"
        env_file.write_text(f"OPENAI_API_KEY=sk-captain-SECRET-0123456789\nOPENAI_API_BASE={fake.url}\n")
        out = tmp_path / "out"
        assert main(["run", "--profile", "crew", "--captain-model", "openai/fake-captain", "--env-file",
                     str(env_file), "--scenario", *scenarios, "--workers", "2", "--out", str(out),
                     "--no-progress"]) == exitcodes.OK
    assert record(out)["executor"] == IN_TWO
    for path in sorted(out.rglob("*.jsonl")):
        evs = [json.loads(line) for line in path.read_text().splitlines()]
        assert evs[0]["captain"] == {"kind": "litellm", "model": "openai/fake-captain"}
        turns = [e for e in evs if e["type"] == "captain_turn"]
        assert turns and {(t["model"], t["error"], t["scripted_words"]) for t in turns} == {
            ("openai/fake-captain", None, False)}
        assert "sk-captain-SECRET" not in path.read_text()


def test_shards_keep_learning_chains_whole_and_the_dry_run_shows_them(repeated, tmp_path, capsys):
    out = tmp_path / "out"
    capsys.readouterr()
    assert learning_run(repeated, out, "--runs", "3", "--shard", "1/2", "--workers", "1",
                        "--dry-run") == exitcodes.OK
    assert capsys.readouterr().out.splitlines() == [
        "plan: 9 episode(s) in the selection; shard 1/2: 3; resume skips 0 complete; 3 to run",
        "executor: local, in this process, 1 episode(s) at a time",
        "learning track: 1 chain(s), each one run index's episodes in an order of its own (drawn at random, kept in "
        "its store), flown one after another",
        f"  chain run 1: positions 0-2, store {out / 'learning' / 'Learner__run001.json'}",
        "  again_1: run 1",
        "  again_2: run 1",
        "  again_3: run 1"]
    assert not list(out.rglob("*.jsonl"))
    # Shard 0/2 of the same plan: run indices 0 and 2, each chain whole; resume starts a chain where it stopped.
    assert learning_run(repeated, out, "--runs", "3", "--shard", "0/2") == exitcodes.OK
    (out / "again_3" / "Learner__run002.jsonl").unlink()
    capsys.readouterr()
    assert learning_run(repeated, out, "--runs", "3", "--shard", "0/2", "--workers", "1", "--dry-run") == \
        exitcodes.OK
    assert capsys.readouterr().out.splitlines()[2:] == [
        "learning track: 1 chain(s), each one run index's episodes in an order of its own (drawn at random, kept in "
        "its store), flown one after another",
        f"  chain run 2: positions 2-2, store {out / 'learning' / 'Learner__run002.json'}",
        "  again_1: run - (skips 2 complete)",
        "  again_2: run - (skips 2 complete)",
        "  again_3: run 2 (skips 1 complete)"]


@pytest.mark.slow
@pytest.mark.usefixtures("ray_cluster")
def test_learning_chains_and_a_file_plug_in_on_ray_write_what_the_local_executor_writes(
        repeated, learning_in_one_process, tmp_path):
    out = tmp_path / "ray"
    assert learning_run(repeated, out, "--executor", "ray", "--workers", "2") == exitcodes.OK
    assert record(out)["executor"] == "ray, the cluster this process has joined, up to 2 chain(s) in flight"
    assert trajectories(out) == trajectories(learning_in_one_process)
    assert stores(out) == stores(learning_in_one_process)  # the driver wrote each chain's store back


def test_shards_of_two_tracks_are_compared_side_by_side_not_refused_as_an_overlap(repeated, tmp_path, capsys):
    learning, main_track = tmp_path / "learning", tmp_path / "main"
    assert learning_run(repeated, learning, "--shard", "0/2", "--workers", "1") == exitcodes.OK
    assert main(["run", "--agent", LEARNER, "--scenario", str(repeated), "--runs", "2", "--shard", "0/2",
                 "--workers", "1", "--out", str(main_track), "--no-progress"]) == exitcodes.OK
    capsys.readouterr()
    assert main(["score", "--json", str(learning), str(main_track)]) == exitcodes.OK
    doc = json.loads(capsys.readouterr().out)
    assert sorted((c["track"], Path(c["path"]).parent.parent.name) for c in doc["scorecards"]) == [
        ("learning", "learning")] * 3 + [("main", "main")] * 3


@pytest.mark.slow
@pytest.mark.usefixtures("ray_cluster")
def test_on_ray_a_learning_store_the_disk_refuses_leaves_its_chain_unwritten_for_the_resume(repeated, tmp_path,
                                                                                            capsys):
    out = tmp_path / "out"
    out.mkdir()
    (out / "learning").write_text("not a folder")  # where the stores go: the disk refuses them
    assert learning_run(repeated, out, "--runs", "1", "--executor", "ray") == exitcodes.STORAGE
    err = capsys.readouterr().err
    assert f"cannot write the learning store {out / 'learning' / 'Learner__run000.json'}" in err
    assert not list(out.rglob("*.jsonl"))  # no episode stands without the notes it saved
    assert record(out)["counts"] == {"storage_error": 3}
