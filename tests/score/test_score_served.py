"""Red team round 12: an episode served by `a320-bench serve` (an IDE client probing by hand) was scored like
a benchmark run, with nothing to tell them apart. Its meta says `entry: serve`; `score` puts it in a row of
its own marked [served] and says so in one line."""

from __future__ import annotations

import csv
import json

from a320bench.bridge.score.scorecard import score_file
from score_builder import compliant, gen1, score_cli


def served(traj):
    """The meta `a320-bench serve` writes: entry serve, no model, no client (server/surface/serve.py)."""
    traj.events[0].update(entry="serve", transport="stdio", client=None, model=None, provider=None)
    return traj


def test_a_served_episode_is_marked_and_kept_apart_from_the_runs(tmp_path, capsys):
    run = compliant(run_index=0, model=None, provider="scripted").write(tmp_path / "runs" / "r0.jsonl")
    hand = served(gen1(run_index=0).set("GEN 2", "OFF").done("no idea").final(passed=False)).write(
        tmp_path / "served" / "s.jsonl")
    code, out, err = score_cli(capsys, run, hand, "--json")
    assert code == 0
    assert err == (f"warning: 1 episode(s) served by `a320-bench serve`, not flown by `a320-bench run` (e.g. {hand}): "
                   "scored as given in rows marked [served]; not a benchmark run\n")
    doc = json.loads(out)
    assert [(c["model"], c["served"]) for c in doc["scorecards"]] == [("scripted", False), ("unknown [served]", True)]
    assert [(r["model"], r["compliant_success"]["rate"]) for r in doc["aggregates"]["overall"]] == [
        ("scripted", 1.0), ("unknown [served]", 0.0)]


def test_a_run_episode_is_not_served_and_its_label_is_unchanged(tmp_path, capsys):
    card = score_file(compliant(model="m-1").write(tmp_path / "r.jsonl"))
    assert (card.model, card.served) == ("m-1", False)
    client_run = compliant(model=None)
    client_run.events[0].update(entry="run", client="claude", client_model="sonnet")
    card = score_file(client_run.write(tmp_path / "c.jsonl"))
    assert (card.model, card.served) == ("claude", False)
    assert score_cli(capsys, tmp_path / "r.jsonl", tmp_path / "c.jsonl")[2] == ""


def test_the_table_shows_the_served_row(tmp_path, capsys):
    hand = served(compliant()).write(tmp_path / "s.jsonl")
    code, out, err = score_cli(capsys, hand)
    assert code == 0 and "[served]" in err
    assert any(line.startswith("│ elec_test") and "unknown [served]" in line for line in out.splitlines())


def test_the_csv_says_which_episodes_were_served(tmp_path, capsys):
    target = tmp_path / "out.csv"
    run = compliant(run_index=0).write(tmp_path / "r.jsonl")
    hand = served(compliant(run_index=1)).write(tmp_path / "s.jsonl")
    assert score_cli(capsys, run, hand, "--csv", target, "--json")[0] == 0
    rows = list(csv.DictReader(target.open(encoding="utf-8")))
    assert [(r["model"], r["served"]) for r in rows] == [("m-1", "False"), ("unknown [served]", "True")]
