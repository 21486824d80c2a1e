"""The litellm path end to end: real litellm against a fake OpenAI server on 127.0.0.1."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from a320bench.bridge import exitcodes
from a320bench.bridge.cli import main
from tests.fakes.openai_server import FakeOpenAI, tool_call

SCENARIO = "scenarios/elec/gen1_fault_reset_fails.yaml"
KEY = "sk-test-SECRET-0123456789abcdef"


def events(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines()]


@pytest.fixture
def env_file(tmp_path, monkeypatch):
    monkeypatch.setenv("A320_BENCH_BACKOFF_BASE_S", "0.01")
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    f = tmp_path / "creds.env"
    f.write_text(f"# credentials for the fake server\nexport OPENAI_API_KEY=\"{KEY}\"\n")
    yield f
    # `run` puts the file's values in the environment only while it runs: nothing leaks into later tests.
    assert "OPENAI_API_KEY" not in os.environ


def run(tmp_path, env_file, fake, *extra) -> int:
    return main(["run", "--scenario", SCENARIO, "--model", "openai/fake-model", "--env-file", str(env_file),
                 "--sampling", json.dumps({"api_base": fake.url, "temperature": 0}), "--out", str(tmp_path / "out"),
                 "--no-progress", *extra])


def test_a_model_flies_the_procedure_through_real_litellm_with_a_retry_and_a_nudge(tmp_path, env_file):
    script = [
        429,
        {"tool_calls": [tool_call("read_ecam", {})]},
        {"text": "The generator has tripped."},
        {"tool_calls": [tool_call("set_control", {"control": "GEN 1", "position": "OFF"}),
                        tool_call("set_control", {"control": "GEN 1", "position": "ON"})]},
        {"tool_calls": [tool_call("set_control", {"control": "GEN 1", "position": "OFF"})]},
        {"tool_calls": [tool_call("report_done", {"diagnosis": "GEN 1 fault, reset unsuccessful",
                                                  "actions_summary": "GEN 1 off then on, then off"})]},
    ]
    with FakeOpenAI(script) as fake:
        rc = run(tmp_path, env_file, fake)
    assert rc == exitcodes.OK
    traj = tmp_path / "out" / "elec_gen1_fault_reset_fails" / "openai_fake-model__run000.jsonl"
    evs = events(traj)
    types = [e["type"] for e in evs]
    assert types.count("provider_retry") == 1
    assert types.count("nudge") == 1
    assert types.count("assistant") == 5
    calls = [(e["name"], e["arguments"]) for e in evs if e["type"] == "tool_call"]
    assert calls == [
        ("read_ecam", {}),
        ("set_control", {"control": "GEN 1", "position": "OFF"}),
        ("set_control", {"control": "GEN 1", "position": "ON"}),
        ("set_control", {"control": "GEN 1", "position": "OFF"}),
        ("report_done", {"diagnosis": "GEN 1 fault, reset unsuccessful",
                         "actions_summary": "GEN 1 off then on, then off"}),
    ]
    final = evs[-1]
    assert final["type"] == "final"
    assert final["reason"] == "agent_done"
    assert final["success"]["passed"] is True
    meta = evs[0]
    assert meta["provider"] == "litellm" and meta["model"] == "openai/fake-model"
    assert meta["litellm_version"] == "1.110.2"
    assistants = [e for e in evs if e["type"] == "assistant"]
    assert assistants[0]["usage"] == {"input_tokens": 102, "output_tokens": 10}
    # The model saw the locked instructions and the task prompt, and our tools as functions.
    first = fake.requests[1]["body"]
    assert first["messages"][0]["role"] == "system"
    assert "cruise at FL350" in first["messages"][1]["content"]
    names = sorted(t["function"]["name"] for t in first["tools"])
    assert names == ["list_controls", "read_ecam", "read_system_page", "report_done", "set_control", "wait"]
    assert all("$ref" not in json.dumps(t) for t in first["tools"])
    assert first["temperature"] == 0


def test_a_persistent_500_ends_as_provider_error_and_keeps_the_partial_trajectory(tmp_path, env_file):
    with FakeOpenAI([{"tool_calls": [tool_call("read_ecam", {})]}, 500], repeat_last=True) as fake:
        rc = run(tmp_path, env_file, fake, "--max-retries", "2")
    assert rc == exitcodes.PROVIDER_ERROR
    evs = events(tmp_path / "out" / "elec_gen1_fault_reset_fails" / "openai_fake-model__run000.jsonl")
    types = [e["type"] for e in evs]
    assert types == ["meta", "setup", "assistant", "tool_call", "provider_retry", "provider_retry",
                     "provider_error", "final"]
    assert evs[-2]["attempts"] == 3
    assert evs[-1]["reason"] == "provider_error"


def test_the_api_key_never_reaches_any_output_file(tmp_path, env_file):
    script = [{"tool_calls": [tool_call("report_done", {"diagnosis": "x", "actions_summary": "y"})]}]
    with FakeOpenAI(script) as fake:
        assert run(tmp_path, env_file, fake) == exitcodes.OK
        assert fake.requests[0]["authorization"] == f"Bearer {KEY}"  # it was really used
    files = [p for p in (tmp_path / "out").rglob("*") if p.is_file()]
    assert len(files) == 2  # the trajectory and the run record
    for p in files:
        assert KEY not in p.read_text(), p


def test_an_unknown_model_id_is_one_clear_line_and_exit_2(capsys):
    rc = main(["run", "--scenario", SCENARIO, "--model", "no-such-provider-xyz/model", "--no-progress"])
    assert rc == exitcodes.USAGE
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "litellm does not know this model id" in err[0]


def test_a_known_model_without_its_key_is_one_clear_line_and_exit_2(capsys, monkeypatch):
    monkeypatch.delenv("ANTHROPIC_API_KEY", raising=False)
    rc = main(["run", "--scenario", SCENARIO, "--model", "anthropic/claude-sonnet-4-5", "--no-progress"])
    assert rc == exitcodes.USAGE
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "ANTHROPIC_API_KEY" in err[0]


def test_the_reasoning_level_reaches_the_model_and_is_recorded_and_labelled(tmp_path, env_file):
    script = [{"tool_calls": [tool_call("report_done", {"diagnosis": "x", "actions_summary": "none"})]}]
    with FakeOpenAI(script) as fake:
        assert run(tmp_path, env_file, fake, "--reasoning-level", "high") == exitcodes.OK
        (request,) = fake.requests
    assert request["body"]["reasoning_effort"] == "high"
    traj = tmp_path / "out" / "elec_gen1_fault_reset_fails" / "openai_fake-model@high__run000.jsonl"
    meta = events(traj)[0]
    assert (meta["provider"], meta["model"], meta["reasoning_level"]) == ("litellm", "openai/fake-model", "high")


def test_episodes_flying_side_by_side_on_their_agent_threads_log_nothing_of_litellm_internals(
        tmp_path, env_file, capfd, monkeypatch):
    # litellm's one background logging worker used to be moved between the agent threads' event loops:
    # coroutines resumed twice, their tracebacks on the console.
    monkeypatch.setenv("A320_BENCH_WORKER_PROCESSES", "1")  # all in one process, 4 agent threads at a time
    script = [{"tool_calls": [tool_call("read_ecam", {})]}] * 24 + [
        {"tool_calls": [tool_call("report_done", {"diagnosis": "GEN 1", "actions_summary": "none"})]}]
    with FakeOpenAI(script, repeat_last=True) as fake:
        rc = run(tmp_path, env_file, fake, "--runs", "8", "--workers", "4")
    err = capfd.readouterr().err
    assert rc == exitcodes.OK, err
    assert json.loads(next((tmp_path / "out").glob("run-*.json")).read_text())["counts"] == {"agent_done": 8}
    assert "Traceback" not in err and "LoggingWorker" not in err and "destroyed" not in err, err


def test_a_priced_model_records_litellms_price_and_an_unpriced_one_null_asking_litellm_once(
        tmp_path, env_file, monkeypatch):
    from a320bench.bridge.providers import litellm_agent

    asked = []
    real = litellm_agent.litellm.completion_cost

    def completion_cost(**kw):
        asked.append(kw["completion_response"].model)
        return real(**kw)

    monkeypatch.setattr(litellm_agent, "_UNPRICED", set())  # what earlier tests in this process learnt
    monkeypatch.setattr(litellm_agent.litellm, "completion_cost", completion_cost)
    script = [{"tool_calls": [tool_call("read_ecam", {})]}] * 2 + [
        {"tool_calls": [tool_call("report_done", {"diagnosis": "GEN 1", "actions_summary": "none"})]}]
    costs = {}
    for model in ("openai/gpt-4o-mini", "openai/fake-model"):
        with FakeOpenAI(script) as fake:
            rc = main(["run", "--scenario", SCENARIO, "--model", model, "--env-file", str(env_file),
                       "--sampling", json.dumps({"api_base": fake.url}), "--out", str(tmp_path / model),
                       "--no-progress"])
        assert rc == exitcodes.OK
        (traj,) = (tmp_path / model / "elec_gen1_fault_reset_fails").glob("*.jsonl")
        costs[model] = [(e["usage"]["input_tokens"], e["cost_usd"]) for e in events(traj) if e["type"] == "assistant"]
    # litellm prices gpt-4o-mini itself ($0.15 in, $0.60 out per million tokens): our fallback is not asked.
    assert [(n, round(c, 10)) for n, c in costs["openai/gpt-4o-mini"]] == [
        (101, 0.00002115), (102, 0.0000213), (103, 0.00002145)]
    assert costs["openai/fake-model"] == [(101, None), (102, None), (103, None)]
    assert asked == ["fake-model"]  # once per model, not once per call
