"""`score --verify` checks what the re-simulation cannot re-derive: an end that comes from outside
the server needs the event it leaves behind, an end the calls decide cannot be relabelled, and the
file must agree with who it says flew it (red-team finding 2, T1, T2, T2b, T5)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from a320bench.bridge.score.provenance import end_evidence, label_problems, same_model
from flight_bed import ProcedureThen, fly, scenario
from score_builder import score_cli

GEN_1 = "elec/gen1_fault_reset_fails"


def write(path: Path, events: list[dict]) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(json.dumps(e) + "\n" for e in events))
    return path


def failed_lines(err: str) -> list[str]:
    return [line.split("): ", 1)[1] for line in err.splitlines() if line.startswith("verify: FAILED")]


@pytest.fixture(scope="module")
def dangerous_then_stop() -> list[dict]:
    """GEN 2 OFF (a healthy generator), a wait, no report_done: a failure the agent caused."""
    return fly(scenario(GEN_1), ProcedureThen([("GEN 2", "OFF"), ("wait", 30)], report=False, procedure=False))[1]


@pytest.fixture(scope="module")
def compliant() -> list[dict]:
    return fly(scenario(GEN_1), ProcedureThen())[1]


def relabelled(events: list[dict], **final: object) -> list[dict]:
    out = [dict(e) for e in events]
    out[-1].update(final)
    return out


def test_the_genuine_failure_verifies(dangerous_then_stop, tmp_path, capsys):
    code, out, err = score_cli(capsys, write(tmp_path / "a.jsonl", dangerous_then_stop), "--verify")
    assert code == 0 and failed_lines(err) == []


@pytest.mark.parametrize(("reason", "why"), [
    ("interrupted", "final.reason interrupted: nothing in the file says the run was interrupted"),
    ("provider_error", "final.reason provider_error: no provider_error event with its error and attempts"),
    ("client_error", "final.reason client_error: no client_report with the error the final names"),
    ("agent_error", "final.reason agent_error: no agent_error event and no client_report with an error"),
])
def test_a_failure_relabelled_as_an_outside_end_fails_verify(dangerous_then_stop, tmp_path, capsys, reason, why):
    # Before: exit 0, and `interrupted` took the dangerous episode out of the means.
    bad = write(tmp_path / "bad.jsonl", relabelled(dangerous_then_stop, reason=reason))
    code, out, err = score_cli(capsys, bad, "--verify")
    assert code == 1
    assert failed_lines(err) == [why]


def test_a_look_and_stop_relabelled_provider_error_fails_verify(tmp_path, capsys):
    # T2b: read the ECAM, stop (a failure); relabelled provider_error it was excluded and rerun.
    events = fly(scenario(GEN_1), ProcedureThen(report=False, procedure=False))[1]
    bad = write(tmp_path / "look.jsonl", relabelled(events, reason="provider_error"))
    code, out, err = score_cli(capsys, bad, "--verify")
    assert (code, failed_lines(err)) == (1, [
        "final.reason provider_error: no provider_error event with its error and attempts"])


def test_an_end_the_calls_decide_cannot_be_relabelled(compliant, tmp_path, capsys):
    bad = write(tmp_path / "done.jsonl", relabelled(compliant, reason="end_turn_without_done"))
    code, out, err = score_cli(capsys, bad, "--verify")
    assert code == 1
    assert failed_lines(err) == ['final.reason: recorded "end_turn_without_done", the recorded calls end the episode '
                                 '"agent_done"; verdict.reported_done: recorded false, re-simulated true; '
                                 'verdict.compliant_success: recorded false, re-simulated true']


def test_a_superseded_end_needs_its_client_report(compliant, tmp_path, capsys):
    bad = write(tmp_path / "sup.jsonl", relabelled(compliant, reason="client_error", superseded_reason="agent_done",
                                                   client_error="claude denied 1 call(s)"))
    code, out, err = score_cli(capsys, bad, "--verify")
    assert code == 1
    assert failed_lines(err) == ["final.reason client_error: no client_report with the error the final names"]
    # With the client_report the bridge writes, the same end is accepted: the file says what happened.
    # (A client's episode names its client in meta: a client_report's error in a file that names none is forged.)
    report = {"type": "client_report", "client": "claude", "error": "claude denied 1 call(s)"}
    good = write(tmp_path / "sup2.jsonl", [{**compliant[0], "client": "claude"},
                                           *relabelled(compliant, reason="client_error", superseded_reason="agent_done",
                                                       client_error="claude denied 1 call(s)")[1:-1], report,
                                           {**compliant[-1], "reason": "client_error", "superseded_reason": "agent_done",
                                            "client_error": "claude denied 1 call(s)"}])
    code, out, err = score_cli(capsys, good, "--verify")
    assert (code, failed_lines(err)) == (0, [])


def test_a_finished_in_process_episode_relabelled_interrupted_over_its_end_fails_verify(tmp_path, capsys):
    # A look-and-report failure, relabelled `interrupted` with the server's end named as superseded and an
    # error: it verified, and left the means. Only a client's bridge replaces the server's end, and its
    # client_report says the client was interrupted.
    events = fly(scenario(GEN_1), ProcedureThen(procedure=False))[1]
    assert events[-1]["reason"] == "agent_done" and events[-1]["success"]["passed"] is False
    relabel = {"reason": "interrupted", "superseded_reason": "agent_done", "error": "interrupted (SIGTERM)"}
    bad = write(tmp_path / "bad.jsonl", relabelled(events, **relabel))
    code, out, err = score_cli(capsys, bad, "--verify")
    assert (code, failed_lines(err)) == (1, [
        "final.superseded_reason agent_done: replaced by interrupted, but no client_report says the client was "
        "interrupted (only a client's bridge replaces the server's end)"])
    # A client_report forged into it does not pass either: the meta names no client.
    report = {"type": "client_report", "client": None, "interrupted": True}
    forged = write(tmp_path / "forged.jsonl", [*events[:-1], report, {**events[-1], **relabel}])
    code, out, err = score_cli(capsys, forged, "--verify")
    assert (code, failed_lines(err)) == (1, [
        "client_report: says the client was interrupted, but meta names no client"])
    # A client's episode, whose bridge says so, is taken at its word.
    client_meta = {**events[0], "client": "cmd"}
    good = write(tmp_path / "good.jsonl", [client_meta, *events[1:-1], {**report, "client": "cmd"},
                                           {**events[-1], **relabel}])
    code, out, err = score_cli(capsys, good, "--verify")
    assert (code, failed_lines(err)) == (0, [])


def test_an_oracle_file_relabelled_as_a_model_fails_verify(compliant, tmp_path, capsys):
    # T1: the oracle's trajectories passed off as anthropic/claude-sonnet-4-5's.
    events = [dict(e) for e in compliant]
    events[0].update(provider="litellm", model="anthropic/claude-sonnet-4-5")
    code, out, err = score_cli(capsys, write(tmp_path / "t1.jsonl", events), "--verify")
    assert code == 1
    assert failed_lines(err) == ["meta.model: 'anthropic/claude-sonnet-4-5', but the file has no model turn "
                                 "(no assistant event)"]


def test_an_edited_instructions_hash_fails_verify(compliant, tmp_path, capsys):
    events = [dict(e) for e in compliant]
    real = events[0]["instructions_sha256"]
    events[0]["instructions_sha256"] = "0" * 64
    code, out, err = score_cli(capsys, write(tmp_path / "t5.jsonl", events), "--verify")
    assert code == 1
    # JSON-quoted values cut at 60 characters
    assert failed_lines(err) == [f'meta.instructions_sha256: recorded "{"0" * 58}…, re-simulated "{real[:58]}…']


def test_the_evidence_rules_one_by_one():
    assert end_evidence("agent_done", {}, []) is None
    assert end_evidence("end_turn_without_done", {}, []) is None
    assert end_evidence("provider_error", {}, [{"type": "provider_error", "error": "x", "attempts": 4}]) is None
    assert end_evidence("provider_error", {}, [{"type": "provider_error", "error": "x", "attempts": 0}]) is not None
    assert end_evidence("client_timeout", {}, [{"type": "client_report", "timed_out": True}]) is None
    assert end_evidence("interrupted", {}, [{"type": "client_report", "interrupted": True}]) is None
    assert end_evidence("interrupted", {"error": "the run was interrupted"}, []) is None
    assert end_evidence("harness_error", {}, [{"type": "harness_error", "exception": "Traceback (most recent"}]) is None
    assert end_evidence("harness_error", {}, [{"type": "harness_error", "exception": "made up"}]) is not None


def test_a_client_episode_must_agree_with_its_client_report():
    meta = {"client": "claude", "client_model": "sonnet"}
    ok = {"type": "client_report", "client": "claude", "requested_model": "sonnet", "model": "claude-sonnet-4-5-2025"}
    assert label_problems(meta, [ok]) == []
    assert label_problems(meta, []) == ["meta.client: 'claude', but the file has no client_report"]
    assert label_problems(meta, [{**ok, "model": "claude-haiku-4-5"}]) == [
        "meta.client_model: 'sonnet', the client reports 'claude-haiku-4-5' answered"]
    assert label_problems({"provider": "scripted", "model": None}, [{"type": "assistant"}]) == [
        "meta.provider: 'scripted' (no model), but the file has 1 model turn(s)"]
    assert same_model("openai/gpt-4.1", "gpt-4.1-2025-04-14") and not same_model("anthropic/claude-x", "gpt-4.1")
