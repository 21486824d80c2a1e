"""`score` never crashes on a malformed trajectory: each bad file is named in one line and skipped,
the rest is scored, and the exit code says some input was bad (issue 11 item 11)."""

import json

import pytest

from a320bench.bridge.score.scorecard import NotATrajectory, score_file
from score_builder import compliant, score_cli, sha256_of


def _edit(events, change):
    change(events)
    return events


def _setup(events):
    return next(e for e in events if e["type"] == "setup")


def _ground_truth(events, **odd):
    """The ground truth made odd as the server would have recorded it: in the setup and the embedded
    scenario alike, the scenario hashed again (else plain score warns of an edit)."""
    _setup(events)["ground_truth"].update(odd)
    events[0]["scenario"]["ground_truth"] = _setup(events)["ground_truth"]
    events[0]["scenario_sha256"] = sha256_of(events[0]["scenario"])


def _final(events):
    return next(e for e in events if e["type"] == "final")


SCORED = {
    "procedure is a number": lambda ev: _ground_truth(ev, procedure=5),
    "steps is a string": lambda ev: _ground_truth(ev, procedure=[{"steps": "GEN 1 OFF"}]),
    "keywords are a number": lambda ev: _ground_truth(ev, diagnosis_keywords=7),
    "reason is a list": lambda ev: _final(ev).update(reason=["agent_done"]),
    "reason is a mapping": lambda ev: _final(ev).update(reason={"x": 1}),
    "success is a list": lambda ev: _final(ev).update(success=[True]),
    "gate is a string": lambda ev: _final(ev).update(gate="passed"),
    "effects are not lists": lambda ev: [e.update(capabilities_removed="all", invariants_violated=3)
                                         for e in ev if e["type"] == "tool_call"],
    "ecam is a number": lambda ev: _final(ev).update(final_ecam=1),
    "run index is a list": lambda ev: ev[0].update(run_index=[0], episode_id={"id": 1}),
}


@pytest.mark.parametrize("change", SCORED.values(), ids=SCORED.keys())
def test_odd_values_are_scored_not_crashed_on(tmp_path, capsys, change):
    t = compliant()
    _edit(t.events, change)
    code, out, err = score_cli(capsys, t.write(tmp_path / "odd.jsonl"), "--json")
    assert (code, err) == (0, "")
    (card,) = json.loads(out)["scorecards"]
    assert card["path"].endswith("odd.jsonl")


def _deeply_nested(path):
    lines = compliant().lines()
    lines[2] = '{"type": "tool_call", "result": ' + "[" * 100_000 + "]" * 100_000 + "}"
    path.write_text("\n".join(lines) + "\n")


def _two_episodes(path):
    path.write_text("\n".join(compliant(run_index=0).lines() + compliant(run_index=1).lines()) + "\n")


def _not_utf8(path):
    path.write_bytes(b'{"type": "meta"}\n\xff\xfe\n')


def _byte_order_mark(path):
    path.write_text("\ufeff" + "\n".join(compliant().lines()) + "\n", encoding="utf-8")


def _dangling_link(path):
    path.symlink_to(path.parent / "nowhere.jsonl")


def _a_folder(path):
    path.mkdir()
    (path / "inner.txt").write_text("x")


BAD = {
    "deeply nested JSON": (_deeply_nested, "nested too deeply"),
    "two episodes concatenated": (_two_episodes, "holds more than one episode (a second `meta` event at line"),
    "not UTF-8": (_not_utf8, "not UTF-8"),
    "a dangling link": (_dangling_link, "cannot read"),
    "a byte-order mark": (_byte_order_mark, "line 1 starts with a byte-order mark (U+FEFF): another program "
                                            "re-saved this file"),
}


@pytest.mark.parametrize("make,why", BAD.values(), ids=BAD.keys())
def test_a_bad_file_is_named_in_one_line_skipped_and_the_rest_scored(tmp_path, capsys, make, why):
    runs = tmp_path / "runs"
    compliant(run_index=0).write(runs / "a" / "good0.jsonl")
    compliant(run_index=1).write(runs / "a" / "good1.jsonl")
    bad = runs / "a" / "bad.jsonl"
    make(bad)
    code, out, err = score_cli(capsys, runs, "--json")
    assert code == 2  # some input was bad
    assert [c["path"] for c in json.loads(out)["scorecards"]] == [str(runs / "a" / f"good{i}.jsonl") for i in (0, 1)]
    assert err.count("\n") == 1 and err.startswith(f"error: {bad}: ") and why in err
    assert err.rstrip().endswith("; skipped") and "Traceback" not in err


def test_every_bad_file_is_named_and_every_good_one_scored(tmp_path, capsys):
    runs = tmp_path / "runs"
    for i in range(3):
        compliant(run_index=i).write(runs / f"good{i}.jsonl")
    for i, (make, _) in enumerate(BAD.values()):
        make(runs / f"bad{i}.jsonl")
    code, out, err = score_cli(capsys, runs)
    assert code == 2
    assert "3 episodes scored" in out
    assert sorted(line.split(":")[1].strip() for line in err.splitlines()) == sorted(
        str(runs / f"bad{i}.jsonl") for i in range(len(BAD)))


def test_when_no_file_can_be_scored_nothing_is_printed_but_the_reasons(tmp_path, capsys):
    bad = tmp_path / "x.jsonl"
    _two_episodes(bad)
    code, out, err = score_cli(capsys, bad)
    assert (code, out) == (2, "")
    assert err.splitlines()[-1] == "error: nothing to score: no input could be scored"


def test_concatenated_episodes_are_refused_by_score_file(tmp_path):
    p = tmp_path / "two.jsonl"
    _two_episodes(p)
    with pytest.raises(NotATrajectory, match=f"{p}: holds more than one episode"):
        score_file(p)


def test_a_missing_path_among_good_ones_is_named_and_the_rest_scored(tmp_path, capsys):
    good = compliant().write(tmp_path / "good.jsonl")
    code, out, err = score_cli(capsys, good, tmp_path / "nope.jsonl", tmp_path / "*.none")
    assert code == 2 and "1 episode scored" in out
    assert err.splitlines() == [f"error: {tmp_path / 'nope.jsonl'}: no such file or folder; skipped",
                                f"error: {tmp_path / '*.none'}: no file matches this pattern; skipped"]
