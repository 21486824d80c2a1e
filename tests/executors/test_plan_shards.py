"""`run --shard i/n` and `--dry-run`: deterministic slices of the plan, merged by `score`, and a plan
that is printed and recorded without flying anything."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from a320bench.bridge import exitcodes
from a320bench.bridge.cli import main
from tests.executors.executor_bed import ROOT, record, scores, trajectories

ELEC = "scenarios/elec"
N_ELEC = len(list((ROOT / ELEC).glob("*.yaml")))
RANDOM = ["--provider", "random", "--seed", "3", "--runs", "2", "--scenario", ELEC, "--no-progress"]

# One xdist worker for the module: the sharded runs (a module fixture) are flown once, not once per worker.
pytestmark = pytest.mark.xdist_group("plan_shards")


def score_json(capsys, *folders: Path) -> dict:
    capsys.readouterr()
    assert main(["score", "--json", *map(str, folders)]) == exitcodes.OK
    doc = json.loads(capsys.readouterr().out)
    # Where each file is and when it was written are not its score; the order follows the folders given.
    cards = [{k: v for k, v in c.items() if k not in ("path", "identity")} for c in doc.pop("scorecards")]
    doc["scorecards"] = sorted(cards, key=json.dumps)
    doc["plan"].pop("records")  # one run record per folder: three for the shards, one for the whole run
    return doc


@pytest.fixture(scope="module")
def sharded(tmp_path_factory) -> tuple[Path, list[Path]]:
    base = tmp_path_factory.mktemp("shards")
    assert main(["run", *RANDOM, "--out", str(base / "whole")]) == exitcodes.OK
    for i in range(3):
        assert main(["run", *RANDOM, "--shard", f"{i}/3", "--out", str(base / f"shard{i}")]) == exitcodes.OK
    return base / "whole", [base / f"shard{i}" for i in range(3)]


def test_three_shards_split_the_plan_without_overlap_and_merge_to_the_unsharded_run(sharded, capsys):
    whole, shards = sharded
    parts = [trajectories(s) for s in shards]
    assert [len(p) for p in parts] == [len(range(i, 2 * N_ELEC, 3)) for i in range(3)]
    merged = {k: v for p in parts for k, v in p.items()}
    assert sum(map(len, parts)) == len(merged) == 2 * N_ELEC  # no episode twice, none missing
    assert merged == trajectories(whole)
    assert [record(s)["shard"] for s in shards] == ["0/3", "1/3", "2/3"]
    assert {record(s)["selection_sha256"] for s in shards} == {record(whole)["selection_sha256"]}
    assert score_json(capsys, *shards) == score_json(capsys, whole)


def test_the_same_shard_in_two_folders_is_refused_as_an_overlap(sharded, tmp_path, capsys):
    _, shards = sharded
    copy = tmp_path / "copy"
    shutil.copytree(shards[1], copy)
    assert main(["score", str(shards[0]), str(shards[1]), str(copy)]) == exitcodes.USAGE
    captured = capsys.readouterr()
    assert captured.err.splitlines() == [
        f"error: {shards[1]} and {copy} both hold shard 1/3 of the same selection: an overlap; not merged"]
    assert captured.out == ""


def test_a_whole_run_merged_with_one_of_its_shards_is_refused_as_an_overlap(sharded, capsys):
    whole, shards = sharded
    assert main(["score", str(whole), str(shards[2])]) == exitcodes.USAGE
    (line,) = capsys.readouterr().err.splitlines()
    assert line.startswith("error: ") and line.endswith(": an overlap; not merged")


def test_shards_of_different_selections_are_refused(sharded, tmp_path, capsys):
    _, shards = sharded
    other = tmp_path / "other"
    assert main(["run", *RANDOM[:-3], "--scenario", "scenarios/hyd", "--no-progress", "--shard", "1/3",
                 "--out", str(other)]) == exitcodes.OK
    capsys.readouterr()
    assert main(["score", str(shards[0]), str(other)]) == exitcodes.USAGE
    assert capsys.readouterr().err.splitlines() == [
        f"error: {shards[0]} and {other} hold shards of different selections (shard 0/3 of 2 run(s) vs shard "
        "1/3 of 2, or other scenarios); not merged"]


def test_a_shard_not_given_counts_as_not_flown_and_is_named(sharded, capsys):
    whole, shards = sharded
    capsys.readouterr()
    assert main(["score", "--json", str(shards[0]), str(shards[1])]) == exitcodes.OK
    captured = capsys.readouterr()
    third = len(range(2, 2 * N_ELEC, 3))
    assert captured.err.splitlines() == [
        f"warning: {shards[0]}: shard(s) 2/3 of this run (random) not among the folders given: {third} planned "
        "episode(s) counted as not flown"]
    doc = json.loads(captured.out)
    (overall,) = doc["aggregates"]["overall"]
    assert (overall["n"], overall["not_flown"], doc["plan"]["planned"]) == (2 * N_ELEC - third, third, 2 * N_ELEC)
    assert doc["plan"]["missing"] == [] and len(doc["plan"]["absent_shards"]) == 1
    # Rated against the whole plan: the same trials as the unsharded run, the absent ones failed.
    full = score_json(capsys, whole)["aggregates"]["overall"][0]
    assert overall["scenarios"] == full["scenarios"] and overall["n"] + overall["not_flown"] == full["n"]
    assert main(["score", "--verify", str(shards[0])]) == exitcodes.FAILED_CHECKS
    assert "shard(s) 1/3, 2/3 of this run (random) not among the folders given" in capsys.readouterr().err


@pytest.mark.parametrize("spec", ["3/3", "1/0", "a/3", "1-3"])
def test_a_bad_shard_is_one_line_and_exit_2(tmp_path, capsys, spec):
    assert main(["run", "--scenario", ELEC, "--shard", spec, "--out", str(tmp_path / "out")]) == exitcodes.USAGE
    (line,) = capsys.readouterr().err.splitlines()
    assert line.startswith(f"error: --shard {spec}") and "numbered from 0" in line
    assert not (tmp_path / "out").exists()


def test_a_dry_run_prints_the_plan_and_writes_the_record_but_flies_nothing(tmp_path, capsys):
    out = tmp_path / "out"
    one = f"{ELEC}/tr1_fault_cruise.yaml"
    assert main(["run", "--scenario", one, "--runs", "3", "--out", str(out), "--no-progress"]) == exitcodes.OK
    (out / "elec_tr1_fault_cruise" / "scripted__run001.jsonl").unlink()  # resume will fly this one again
    for f in out.glob("run-*.json"):
        f.unlink()
    capsys.readouterr()
    before = trajectories(out)
    rc = main(["run", "--scenario", ELEC, "--runs", "3", "--shard", "1/2", "--workers", "2", "--dry-run",
               "--out", str(out)])
    captured = capsys.readouterr()
    assert rc == exitcodes.OK
    assert trajectories(out) == before
    lines = captured.out.splitlines()
    # Shard 1/2 of elec x 3 runs: positions 1, 3, 5, ...; tr1 is not the first elec scenario, so which of its
    # runs fall in this shard follows from its place in the selection.
    ids = sorted(p.stem for p in (ROOT / ELEC).glob("*.yaml"))
    import yaml

    sids = [yaml.safe_load((ROOT / ELEC / f"{stem}.yaml").read_text())["id"] for stem in ids]
    mine = [(sid, r) for pos, (sid, r) in enumerate((s, r) for s in sids for r in range(3)) if pos % 2 == 1]
    tr1 = [r for sid, r in mine if sid == "elec_tr1_fault_cruise"]
    skipped = [r for r in tr1 if r in (0, 2)]
    assert lines[0] == (f"plan: {3 * N_ELEC} episode(s) in the selection; shard 1/2: {len(mine)}; "
                        f"resume skips {len(skipped)} complete; {len(mine) - len(skipped)} to run")
    assert lines[1] == "executor: local, 2 worker processes, up to 1 episode(s) at a time each"
    assert len(lines) == 2 + N_ELEC
    rec = record(out)
    assert (rec["dry_run"], rec["shard"], rec["planned"], rec["skipped_complete"]) == (
        True, "1/2", len(mine) - len(skipped), len(skipped))
    assert captured.err.splitlines() == [f"dry run: nothing flown; run record: {next(out.glob('run-*.json'))}"]
