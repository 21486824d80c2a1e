"""The learning track: chains of a run index's episodes in a fixed order, a store per chain and run folder,
deterministic retrieval, a scripted learner that improves, resume, --workers, the learning curve, verify."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from a320bench.bridge import exitcodes
from a320bench.bridge.cli import main
from a320bench.bridge.score.scorecard import score_file
from a320bench.server.learning.store import EpisodeLearnings, LearningError, LearningStore, order_hash
from tests.bridge.learning_bed import LEARNER, pin_selection_order, repeated_scenarios

VOLATILE = {"ts", "wall_ms", "latency_ms", "versions"}


def events(path: Path) -> list[dict]:
    return [json.loads(line) for line in Path(path).read_text().splitlines()]


def stable(evs: list[dict]) -> list[dict]:
    return [{k: v for k, v in e.items() if k not in VOLATILE} for e in evs]


@pytest.fixture
def repeated(tmp_path, monkeypatch) -> Path:
    pin_selection_order(monkeypatch)  # these tests read positions and compare runs
    return repeated_scenarios(tmp_path)


def run(scenarios: Path, out: Path, *extra: str) -> int:
    return main(["run", "--profile", "learning", "--agent", LEARNER, "--scenario", str(scenarios), "--out", str(out),
                 "--no-progress", *extra])


def cards(out: Path, run_index: int = 0) -> list:
    return [score_file(out / f"again_{n}" / f"Learner__run{run_index:03d}.jsonl") for n in (1, 2, 3)]


def test_a_scripted_learner_improves_on_a_repeated_scenario_and_score_shows_the_curve(repeated, tmp_path, capsys):
    out = tmp_path / "out"
    assert run(repeated, out) == exitcodes.OK
    first, second, third = cards(out)
    assert [(c.learning_position, c.compliant_success, c.track) for c in (first, second, third)] == [
        (0, False, "learning"), (1, True, "learning"), (2, True, "learning")]
    store = json.loads((out / "learning" / "Learner__run000.json").read_text())
    assert [(e["id"], e["text"], e["position"]) for e in store["entries"]] == [
        (1, "ELEC GEN 1 FAULT: watching did not clear it: do its ECAM action lines.", 0),
        (2, "ELEC GEN 1 FAULT: its ECAM action lines cleared it.", 1),
        (3, "ELEC GEN 1 FAULT: its ECAM action lines cleared it.", 2)]
    # What the agent read back: its own words and the episode they came from, never a scenario id.
    found = [e["result"] for e in events(second.path) if e.get("name") == "retrieve_learnings"]
    assert found == [{"learnings": [{"id": 1, "text": "ELEC GEN 1 FAULT: watching did not clear it: do its ECAM "
                                                     "action lines.", "saved_in_episode": 1}],
                      "limit": 3, "sim_time_s": 0.0}]
    assert [len(events(c.path)[0]["learning"]["at_start"]) for c in (first, second, third)] == [0, 1, 2]
    capsys.readouterr()
    assert main(["score", "--json", str(out)]) == exitcodes.OK
    curve = json.loads(capsys.readouterr().out)["aggregates"]["learning_curve"]
    assert [(row["model"], [(p["position"], p["n"], p["rate"]) for p in row["points"]]) for row in curve] == [
        ("Learner [learning]", [(1, 1, 0.0), (2, 1, 1.0), (3, 1, 1.0)])]
    assert main(["score", str(out)]) == exitcodes.OK
    table = capsys.readouterr().out
    assert "Learning curve: compliant success by episode position (learning track)" in table
    assert "Learner [learning]" in table and "0% (n=1)" in table and "100% (n=1)" in table


def test_learning_results_are_kept_apart_from_the_main_track(repeated, tmp_path, capsys):
    assert run(repeated, tmp_path / "out") == exitcodes.OK
    assert main(["run", "--agent", LEARNER.replace(":Learner", ":Learner"), "--scenario", str(repeated), "--out",
                 str(tmp_path / "main"), "--no-progress"]) == exitcodes.OK  # benchmark profile: no learning tools
    capsys.readouterr()
    assert main(["score", "--json", str(tmp_path / "out"), str(tmp_path / "main")]) == exitcodes.OK
    doc = json.loads(capsys.readouterr().out)
    assert [(r["model"], r["n"]) for r in doc["aggregates"]["overall"]] == [("Learner", 3), ("Learner [learning]", 3)]
    assert [r["model"] for r in doc["aggregates"]["learning_curve"]] == ["Learner [learning]"]


def test_the_store_is_per_run_folder_and_the_harness_writes_nothing_into_it(repeated, tmp_path):
    assert run(repeated, tmp_path / "a") == exitcodes.OK
    before = (tmp_path / "a" / "learning" / "Learner__run000.json").read_text()
    assert run(repeated, tmp_path / "b") == exitcodes.OK
    # A fresh folder starts from nothing: the learner watches again in its first episode.
    assert [c.compliant_success for c in cards(tmp_path / "b")] == [False, True, True]
    assert (tmp_path / "a" / "learning" / "Learner__run000.json").read_text() == before
    # The scripted provider saves nothing: its store stays empty, whatever the ground truth it flies.
    assert main(["run", "--profile", "learning", "--scenario", str(repeated), "--out", str(tmp_path / "s"),
                 "--no-progress"]) == exitcodes.OK
    assert json.loads((tmp_path / "s" / "learning" / "scripted__run000.json").read_text())["entries"] == []


def test_chains_are_reproducible_with_four_workers(repeated, tmp_path):
    assert run(repeated, tmp_path / "w4", "--runs", "4", "--workers", "4") == exitcodes.OK
    assert run(repeated, tmp_path / "w1", "--runs", "4", "--workers", "1") == exitcodes.OK
    files = sorted(p.relative_to(tmp_path / "w4") for p in (tmp_path / "w4").rglob("*.json*")
                   if not p.name.startswith("run-"))
    assert len(files) == 4 * 3 + 4  # 4 chains of 3 episodes, and their 4 stores
    for rel in files:
        a, b = tmp_path / "w4" / rel, tmp_path / "w1" / rel
        if rel.suffix == ".jsonl":
            assert stable(events(a)) == stable(events(b)), rel
        else:
            assert a.read_text() == b.read_text(), rel
    for r in range(4):
        assert [c.compliant_success for c in cards(tmp_path / "w4", r)] == [False, True, True]


def test_resume_flies_a_chain_again_from_its_first_episode_without_a_result(repeated, tmp_path, capsys):
    out = tmp_path / "out"
    assert run(repeated, out) == exitcodes.OK
    second = out / "again_2" / "Learner__run000.jsonl"
    lines = second.read_text().splitlines()
    second.write_text("\n".join(lines[:-1]) + "\n")  # killed before its final: no result
    third_before = (out / "again_3" / "Learner__run000.jsonl").read_text()
    assert run(repeated, out) == exitcodes.OK
    assert "1 episode(s) already complete" in capsys.readouterr().err  # the first one only
    assert (out / "again_3" / "Learner__run000.jsonl").read_text() != third_before  # flown again after it
    store = json.loads((out / "learning" / "Learner__run000.json").read_text())
    assert [e["position"] for e in store["entries"]] == [0, 1, 2]  # the dropped episode's saves came back once
    assert [c.compliant_success for c in cards(out)] == [False, True, True]


KILL_AT_COMMIT = """
import os, signal, sys
from a320bench.server.learning.store import EpisodeLearnings
from a320bench.bridge import learning_track
from a320bench.bridge.cli import main

learning_track.draw_order = list  # the selection's order, as the uninterrupted run's (the repeated fixture)
commit = EpisodeLearnings.commit

def killed_before_commit(self):
    if self.position == 1:  # the episode's trajectory is complete; its saves are not in the store yet
        os.kill(os.getpid(), signal.SIGKILL)
    commit(self)

EpisodeLearnings.commit = killed_before_commit
sys.exit(main(sys.argv[1:]))
"""


def test_a_kill_between_an_episodes_end_and_its_commit_flies_that_episode_again(repeated, tmp_path, capsys):
    import os
    import signal
    import subprocess
    import sys

    from tests.bridge.learning_bed import ROOT

    out = tmp_path / "out"
    argv = ["run", "--profile", "learning", "--agent", LEARNER, "--scenario", str(repeated), "--out", str(out),
            "--no-progress"]
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"} | {"PYTHONPATH": str(ROOT.parent)}
    killed = subprocess.run([sys.executable, "-c", KILL_AT_COMMIT, *argv], cwd=ROOT, env=env, capture_output=True,
                            text=True, timeout=300)
    assert killed.returncode == -signal.SIGKILL, killed.stderr
    second = out / "again_2" / "Learner__run000.jsonl"
    assert json.loads(second.read_text().splitlines()[-1])["type"] == "final"  # it stands on disk...
    store = json.loads((out / "learning" / "Learner__run000.json").read_text())
    assert (store["committed"], [e["position"] for e in store["entries"]]) == ([0], [0])  # ...its saves do not
    assert run(repeated, out) == exitcodes.OK
    assert "1 episode(s) already complete" in capsys.readouterr().err  # the first one only
    assert run(repeated, tmp_path / "whole") == exitcodes.OK  # the same run, never interrupted
    for n in (1, 2, 3):
        rel = Path(f"again_{n}") / "Learner__run000.jsonl"
        assert stable(events(out / rel)) == stable(events(tmp_path / "whole" / rel)), rel
    assert (out / "learning" / "Learner__run000.json").read_text() == \
        (tmp_path / "whole" / "learning" / "Learner__run000.json").read_text()
    assert [c.compliant_success for c in cards(out)] == [False, True, True]


def test_a_chain_keeps_its_drawn_order_in_its_store_and_resume_flies_the_rest_in_it(repeated, tmp_path,
                                                                                     monkeypatch, capsys):
    out = tmp_path / "out"
    monkeypatch.setattr("a320bench.bridge.learning_track.draw_order", lambda ids: ids[::-1])
    assert run(repeated, out) == exitcodes.OK
    store = json.loads((out / "learning" / "Learner__run000.json").read_text())
    assert (store["schema_version"], store["order"]) == (3, ["again_3", "again_2", "again_1"])
    assert [c.learning_position for c in cards(out)] == [2, 1, 0]
    (out / "again_1" / "Learner__run000.jsonl").unlink()  # the chain's last episode
    capsys.readouterr()

    def never(ids: list[str]) -> list[str]:
        raise AssertionError("a chain with a store drew a new order")

    monkeypatch.setattr("a320bench.bridge.learning_track.draw_order", never)
    assert run(repeated, out) == exitcodes.OK
    assert "2 episode(s) already complete" in capsys.readouterr().err
    assert [c.learning_position for c in cards(out)] == [2, 1, 0]


def test_a_store_written_for_another_selection_is_refused_by_name(repeated, tmp_path, capsys):
    out = tmp_path / "out"
    (out / "learning").mkdir(parents=True)
    (out / "learning" / "Learner__run000.json").write_text(json.dumps(
        {"schema_version": 3, "order": ["again_1", "again_2", "other"], "order_sha256": "x", "top_k": 3,
         "entries": [], "committed": []}))
    capsys.readouterr()
    assert run(repeated, out) == exitcodes.USAGE
    assert capsys.readouterr().err.strip().splitlines()[-1] == (
        f"error: --out {out}: {out / 'learning' / 'Learner__run000.json'} was built for another selection of "
        "scenarios: use another --out, or --force to start the chain again")
    assert run(repeated, out, "--force") == exitcodes.OK  # as it says
    assert sorted(json.loads((out / "learning" / "Learner__run000.json").read_text())["order"]) == [
        "again_1", "again_2", "again_3"]


@pytest.mark.parametrize("damage, why", [
    ("{not json", "Expecting property name enclosed in double quotes: line 1 column 2 (char 1)"),
    (json.dumps({"schema_version": 3, "order": ["again_1", "again_2", "again_3"],
                 "order_sha256": order_hash(["again_1", "again_2", "again_3"]), "top_k": 3,
                 "entries": [{"id": 1, "text": "x", "scenario": "again_1"}], "committed": []}),
     "its entries are not a learning store's (Entry.__init__() got an unexpected keyword argument 'scenario')"),
])
def test_a_damaged_store_is_one_line_naming_it_and_nothing_flies(repeated, tmp_path, capsys, damage, why):
    out = tmp_path / "out"
    (out / "learning").mkdir(parents=True)
    store = out / "learning" / "Learner__run000.json"
    store.write_text(damage)
    capsys.readouterr()
    assert run(repeated, out) == exitcodes.USAGE
    assert capsys.readouterr().err.strip().splitlines()[-1] == (
        f"error: --out {out}: cannot read the learning store {store}: {why}")
    assert store.read_text() == damage and sorted(p.name for p in out.iterdir()) == ["learning"]


def test_a_schema_1_store_without_committed_positions_trusts_the_trajectories(repeated, tmp_path, capsys):
    out = tmp_path / "out"
    assert run(repeated, out) == exitcodes.OK
    path = out / "learning" / "Learner__run000.json"
    doc = json.loads(path.read_text())
    assert doc["committed"] == [0, 1, 2]
    del doc["committed"]
    path.write_text(json.dumps(doc | {"schema_version": 1}))
    capsys.readouterr()
    assert run(repeated, out) == exitcodes.OK
    assert "3 episode(s) already complete" in capsys.readouterr().err


def test_learning_episodes_reproduce_under_score_verify(repeated, tmp_path, capsys):
    assert run(repeated, tmp_path / "out") == exitcodes.OK
    capsys.readouterr()
    assert main(["score", str(tmp_path / "out"), "--verify", "--catalogue", str(repeated)]) == exitcodes.OK
    assert "3 of 3 episode(s) reproduce" in capsys.readouterr().err


def test_retrieval_is_bm25_best_first_at_most_top_k_and_only_what_shares_a_word():
    store = LearningStore(None, ["s"], top_k=2)
    first = store.begin("s/a", 0)
    for text in ("GEN 1 FAULT: reset the generator once", "PACK 1 OVHT: pack off, wait, pack on",
                 "HYD G SYS LO PR: green pump off", "GEN 1 FAULT: a second reset never works; GEN 1 stays off"):
        first.save_learning(text)
    first.commit()
    later = store.begin("s/b", 1)
    assert [e.id for e in later.retrieve_learnings("ELEC GEN 1 FAULT")] == [4, 1]
    assert [e.id for e in later.retrieve_learnings("pack ovht")] == [2]
    assert later.retrieve_learnings("fuel imbalance") == []
    assert later.retrieve_learnings("   ") == []
    with pytest.raises(LearningError, match="the text is empty"):
        later.save_learning("  ")
    with pytest.raises(LearningError, match="at most 2000 characters"):
        later.save_learning("x" * 2001)
    replayed = EpisodeLearnings.replay(later.describe())
    assert [e.id for e in replayed.retrieve_learnings("ELEC GEN 1 FAULT")] == [4, 1]


def test_top_k_limits_what_one_lookup_returns(repeated, tmp_path):
    assert run(repeated, tmp_path / "out", "--retrieve-learnings-top-k", "1") == exitcodes.OK
    third = tmp_path / "out" / "again_3" / "Learner__run000.jsonl"
    (found,) = [e["result"] for e in events(third) if e.get("name") == "retrieve_learnings"]
    assert (found["limit"], len(found["learnings"])) == (1, 1)
    assert events(third)[0]["learning"]["top_k"] == 1


def test_the_learning_curve_counts_a_planned_episode_without_a_result_as_a_failure_where_it_fell(
        repeated, tmp_path, capsys):
    """As the headline rates do: run 1's second episode deleted, run 0's third cut (its final gone, so the
    run record no longer vouches for it): each a failed trial at its chain position, and the curve's
    trials and successes add up to the headline's."""
    out = tmp_path / "out"
    assert run(repeated, out, "--runs", "2") == exitcodes.OK
    (out / "again_2" / "Learner__run001.jsonl").unlink()
    cut = out / "again_3" / "Learner__run000.jsonl"
    cut.write_text("".join(cut.read_text().splitlines(keepends=True)[:-1]))
    capsys.readouterr()
    main(["score", "--json", str(out)])
    doc = json.loads(capsys.readouterr().out)
    (curve,) = doc["aggregates"]["learning_curve"]
    assert [(p["position"], p["n"], p["compliant"]) for p in curve["points"]] == [(1, 2, 0), (2, 2, 1), (3, 2, 1)]
    (overall,) = doc["aggregates"]["overall"]
    rows = doc["aggregates"]["by_scenario"]
    assert (sum(r["n"] + r["not_flown"] for r in rows), sum(r["compliant_success"]["count"] for r in rows)) == \
        (sum(p["n"] for p in curve["points"]), sum(p["compliant"] for p in curve["points"])) == (6, 2)
