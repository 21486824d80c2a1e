"""`score --verify` re-simulates every episode; `score` counts each episode once (issue 9 finding 5)."""

import json
import shutil

import pytest

from a320bench.bridge.cli import main
from score_builder import score_cli

SCENARIOS = ["scenarios/elec/gen1_fault_reset_fails.yaml", "scenarios/air/pack1_ovht_then_pack2_fault_cruise.yaml"]

# One xdist worker for the module: the run it verifies (a module fixture) is flown once, not once per worker.
pytestmark = pytest.mark.xdist_group("score_verify")


@pytest.fixture(scope="module")
def clean_run(tmp_path_factory):
    out = tmp_path_factory.mktemp("runs")
    assert main(["run", "--scenario", *SCENARIOS, "--out", str(out), "--no-progress"]) == 0
    assert main(["run", "--provider", "random", "--scenario", *SCENARIOS, "--out", str(out), "--no-progress"]) == 0
    return out


def edit(path, change):
    events = [json.loads(line) for line in path.read_text().splitlines()]
    events = change(events) or events
    path.write_text("".join(json.dumps(e) + "\n" for e in events))


def _empty_ground_truth(events):
    setup = next(e for e in events if e["type"] == "setup")
    setup["ground_truth"].update(procedure=[], forbidden_actions=[], diagnosis_keywords=[])


def _change_id(events):
    events[0]["scenario_id"] = "elec_gen1_fault_reset_works"


def _flip_success(events):
    final = [e for e in events if e["type"] == "final"][-1]
    final["success"]["passed"] = not final["success"]["passed"]


def _remove_an_action(events):
    i = [i for i, e in enumerate(events) if e["type"] == "tool_call" and e["name"] == "set_control"][1]
    del events[i]


def _hide_an_ecam_change(events):
    # What the report's timeline draws: an alert the aircraft showed, taken out of the record.
    first = next(e for e in events if e["type"] == "tool_call" and e.get("ecam_changes"))
    first["ecam_changes"] = []


def catalogue_selection() -> tuple[int, str]:
    """(scenarios, the selection hash of the installed catalogue), as a run of all of it records."""
    import hashlib

    from a320bench.bridge.selection import scenario_files
    from a320bench.server.scenario.loader import load_all
    from a320bench.server.session import scenario_hash

    scenarios, _ = load_all(scenario_files(None))
    return len(scenarios), hashlib.sha256("".join(scenario_hash(s) for s in scenarios).encode()).hexdigest()


def test_a_clean_run_verifies_and_names_the_catalogue_it_verified_against(clean_run, capsys):
    code, out, err = score_cli(capsys, clean_run, "--verify")
    assert code == 0
    n, selection = catalogue_selection()
    assert err == f"verify: 4 of 4 episode(s) reproduce against the installed catalogue ({n} scenarios, " \
                  f"selection sha256 {selection})\n"
    assert "4 episodes scored" in out


@pytest.mark.parametrize("tamper,field", [
    (_empty_ground_truth, "setup.ground_truth."),
    (_change_id, "meta.scenario_id: recorded 'elec_gen1_fault_reset_works', the embedded scenario is "
                 "'elec_gen1_fault_reset_fails'"),
    (_flip_success, "final.success.passed: recorded false, re-simulated true"),
    (_remove_an_action, "tool_call[2].seq: recorded 4 where 3 was due: a recorded call is missing"),
    (_hide_an_ecam_change, 'tool_call[0].ecam_changes: recorded [], re-simulated [{"title": "ELEC GEN 1 FAULT"'),
])
def test_a_tampered_file_fails_naming_the_episode_and_the_field(clean_run, tmp_path, capsys, tamper, field):
    """Finding 5: an emptied ground truth, an edited id, a flipped success or a removed action was trusted."""
    src = next(clean_run.glob("elec_gen1_fault_reset_fails/scripted__*.jsonl"))
    bad = tmp_path / "bad.jsonl"
    shutil.copy(src, bad)
    edit(bad, tamper)
    code, out, err = score_cli(capsys, bad, "--verify")
    assert code == 1
    lines = [x for x in err.splitlines() if x.startswith("verify: FAILED")]
    assert len(lines) == 1
    assert lines[0].startswith(f"verify: FAILED {bad} (episode elec_gen1_fault_reset_fails/scripted__run000): ")
    assert field in lines[0]
    assert "verify: 0 of 1 episode(s) reproduce" in err


def test_plain_score_trusts_the_file_verify_does_not(clean_run, tmp_path, capsys):
    src = next(clean_run.glob("elec_gen1_fault_reset_fails/random__*.jsonl"))
    bad = tmp_path / "flipped.jsonl"
    shutil.copy(src, bad)
    edit(bad, _flip_success)
    as_flown = json.loads(score_cli(capsys, src, "--json")[1])["scorecards"][0]
    as_edited = json.loads(score_cli(capsys, bad, "--json")[1])["scorecards"][0]
    assert as_flown["invariant_violations"] == []  # the outcome is the recorded success alone
    assert as_edited["outcome"] is (not as_flown["outcome"])  # whichever way the random walk went
    code, out, err = score_cli(capsys, bad, clean_run, "--verify", "--json")
    assert code == 1
    doc = json.loads(out)
    assert len(doc["scorecards"]) == 4 and str(bad) not in {c["path"] for c in doc["scorecards"]}


def _swap_two_actions(events):
    i, j = [i for i, e in enumerate(events) if e["type"] == "tool_call" and e["name"] == "set_control"][:2]
    events[i], events[j] = events[j], events[i]


def _answer_a_call_after_the_final(events):
    extra = dict(next(e for e in events if e["type"] == "tool_call" and e["name"] == "set_control"))
    extra["seq"] = sum(e["type"] == "tool_call" for e in events) + 1
    events.append(extra)


def _widen_a_step_in_the_scenario(events):
    # What scoring reads is setup.ground_truth; the embedded scenario is edited alike, its hash not.
    for gt in (events[0]["scenario"]["ground_truth"], next(e for e in events if e["type"] == "setup")["ground_truth"]):
        gt["procedure"][0]["steps"][0]["also"] = ["ON"]


def _widen_a_step_in_the_setup(events):
    next(e for e in events if e["type"] == "setup")["ground_truth"]["procedure"][0]["steps"][0]["also"] = ["ON"]


@pytest.mark.parametrize("tamper,warning", [
    (_widen_a_step_in_the_scenario, "meta.scenario_sha256 is not the sha256 of the embedded scenario"),
    (_widen_a_step_in_the_setup, "setup.ground_truth is not the embedded scenario's"),
    (_remove_an_action, "tool_call 3 has seq 4 where 3 was due: a recorded call is missing or out of place"),
    (_swap_two_actions, "tool_call 2 has seq 3 where 2 was due: a recorded call is missing or out of place"),
    (_answer_a_call_after_the_final, "call seq 7 after the final was answered: the server refuses every call "
                                     "after the end"),
])
def test_plain_score_flags_what_it_can_check_without_the_simulator(clean_run, tmp_path, capsys, tamper, warning):
    src = next(clean_run.glob("elec_gen1_fault_reset_fails/scripted__*.jsonl"))
    assert score_cli(capsys, src)[2] == ""  # as flown: nothing to say
    bad = tmp_path / "bad.jsonl"
    shutil.copy(src, bad)
    edit(bad, tamper)
    code, out, err = score_cli(capsys, bad)
    assert code == 0  # still scored, as the file says (plain score trusts it): the line says to check it
    assert err.splitlines()[0] == f"warning: {bad}: {warning} (edited? score --verify checks it)"


def test_the_same_episode_given_twice_is_counted_once_and_named(clean_run, tmp_path, capsys):
    copy = tmp_path / "copy"
    shutil.copytree(clean_run, copy)
    code, out, err = score_cli(capsys, clean_run, copy, "--json")
    assert code == 0
    assert len(json.loads(out)["scorecards"]) == 4
    dups = err.splitlines()
    assert len(dups) == 4 and all(line.startswith(f"warning: {copy}/") and "duplicate of episode" in line
                                  and line.endswith("; counted once") for line in dups)


def test_an_edited_copy_of_an_episode_is_flagged_as_a_conflicting_duplicate(clean_run, tmp_path, capsys):
    src = next(clean_run.glob("elec_gen1_fault_reset_fails/random__*.jsonl"))
    bad = tmp_path / "x.jsonl"
    shutil.copy(src, bad)
    edit(bad, _flip_success)
    err = score_cli(capsys, src, bad)[2]
    assert "with a different verdict (one was edited? --verify); counted once" in err


def test_replay_compares_the_verdict_not_only_the_state(clean_run, tmp_path, capsys):
    src = tmp_path / "src"
    shutil.copytree(clean_run, src)
    for p in src.glob("*/random__*.jsonl"):
        edit(p, _flip_success)
    code = main(["run", "--provider", "replay", "--replay-from", str(src), "--replay-of", "random",
                 "--scenario", *SCENARIOS, "--out", str(tmp_path / "replayed"), "--no-progress"])
    err = capsys.readouterr().err
    assert code == 70 and err.count("ended in a different state") == 2


def test_verify_against_a_catalogue_that_lacks_the_scenario_names_it(clean_run, capsys):
    code, out, err = score_cli(capsys, clean_run / "air_pack1_ovht_then_pack2_fault_cruise", "--verify", "--catalogue",
                           SCENARIOS[0])
    assert code == 1
    assert "meta.scenario_id: 'air_pack1_ovht_then_pack2_fault_cruise' is not in the catalogue" in err


def test_catalogue_without_verify_is_refused(clean_run, capsys):
    code, out, err = score_cli(capsys, clean_run, "--catalogue", SCENARIOS[0])
    assert (code, out, err) == (2, "", "error: --catalogue applies only with --verify\n")


def _as_recorded_by_0_1_0(events):
    events[0]["versions"]["a320-bench"] = "0.1.0"
    final = [e for e in events if e["type"] == "final"][-1]
    del final["success"]["hands_off"]  # 0.1.0 read the end state at the end only


def test_a_file_another_version_recorded_says_so_first(clean_run, tmp_path, capsys):
    from a320bench import __version__

    src = next(clean_run.glob("elec_gen1_fault_reset_fails/scripted__*.jsonl"))
    old = tmp_path / "old.jsonl"
    shutil.copy(src, old)
    edit(old, _as_recorded_by_0_1_0)
    code, out, err = score_cli(capsys, old, "--verify")
    assert code == 1
    assert err.splitlines()[0] == (
        f"verify: FAILED {old} (episode elec_gen1_fault_reset_fails/scripted__run000): recorded by a320-bench "
        f"0.1.0, re-simulated by {__version__}: verify it with the version that recorded it; "
        f"final.success.hands_off: recorded null, re-simulated {{\"after_s\": 120.0, \"failed\": [], \"passed\": true}}")
