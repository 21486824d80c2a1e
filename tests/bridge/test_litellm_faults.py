"""What each provider fault makes of an episode: real litellm against the fake OpenAI server.

Transient faults are retried and then end `provider_error` (excluded, rerun on resume);
the provider refusing us ends it at once; the conversation breaking the model is the
agent's result (`agent_error`); our own bugs are harness errors; a malformed tool call
is the agent's and uses its budget.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from a320bench.bridge import exitcodes
from a320bench.bridge.cli import main
from a320bench.bridge.score.scorecard import score_file
from tests.fakes.openai_server import HANG, RESET, FakeOpenAI, fault, raw, tool_call

SCENARIO = "scenarios/elec/gen1_fault_reset_fails.yaml"
TRAJ = Path("elec_gen1_fault_reset_fails") / "openai_fake-model__run000.jsonl"
KEY = "sk-test-SECRET-0123456789abcdef"
READ = {"tool_calls": [tool_call("read_ecam", {})]}
DONE = {"tool_calls": [tool_call("report_done", {"diagnosis": "GEN 1", "actions_summary": "none"})]}


def events(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines()]


@pytest.fixture
def env_file(tmp_path, monkeypatch):
    monkeypatch.setenv("A320_BENCH_BACKOFF_BASE_S", "0.01")
    f = tmp_path / "creds.env"
    f.write_text(f"OPENAI_API_KEY={KEY}\n")
    return f


def run(tmp_path, env_file, fake, *extra, sampling=None) -> int:
    return main(["run", "--scenario", SCENARIO, "--model", "openai/fake-model", "--env-file", str(env_file),
                 "--sampling", json.dumps({"api_base": fake.url, **(sampling or {})}),
                 "--out", str(tmp_path / "out"), "--no-progress", "--max-retries", "2", *extra])


TRANSIENT = {
    "429 rate limit": 429,
    "500": 500,
    "503": 503,
    "502 with an HTML page": fault(502, html=True),
    "200 with an HTML page": fault(200, html=True),
    # OpenRouter's way when the model fails mid-answer; litellm raises it as a BadRequestError (422), which
    # on a later turn was taken for the conversation's fault and scored against the agent.
    "200 whose body is an error": fault(200, message="the upstream model failed while answering", codeless=True),
    "200 whose body is an error with a code of null": fault(200, message="the upstream model failed"),
    "connection reset": RESET,
    "no choices": {"choices": []},
    "200 whose JSON does not parse": raw(200, b'{"id": "chatcmpl-1", "choices": [{"index": 0, "mess'),
    "200 whose JSON is not an object": raw(200, b"[1, 2, 3]"),
    "a body cut off mid-way": raw(200, json.dumps({"id": "chatcmpl-1", "choices": []}).encode() + b" " * 200,
                                  cut_at=20),
    "a hang past the request timeout": HANG,
}


@pytest.mark.parametrize("reply", list(TRANSIENT.values()), ids=list(TRANSIENT))
def test_a_transient_fault_is_retried_then_ends_provider_error_with_the_partial_trajectory(tmp_path, env_file,
                                                                                           reply, capsys):
    with FakeOpenAI([READ, reply], repeat_last=True) as fake:
        rc = run(tmp_path, env_file, fake, "--request-timeout", "0.5")
        assert len(fake.requests) == 1 + 3  # the first turn, then three attempts at the second
    assert rc == exitcodes.PROVIDER_ERROR
    evs = events(tmp_path / "out" / TRAJ)
    assert [e["type"] for e in evs] == ["meta", "setup", "assistant", "tool_call", "provider_retry",
                                        "provider_retry", "provider_error", "final"]
    assert (evs[-2]["attempts"], evs[-1]["reason"]) == (3, "provider_error")
    assert evs[-1]["error"].startswith("provider_error: ")
    err = capsys.readouterr().err
    assert "Traceback" not in err
    assert f"error: elec_gen1_fault_reset_fails/openai_fake-model__run000: provider_error: " in err


def test_a_transient_fault_that_clears_costs_one_recorded_retry_and_nothing_else(tmp_path, env_file):
    with FakeOpenAI([READ, {"choices": []}, DONE]) as fake:
        assert run(tmp_path, env_file, fake) == exitcodes.OK
    evs = events(tmp_path / "out" / TRAJ)
    assert [e["type"] for e in evs] == ["meta", "setup", "assistant", "tool_call", "provider_retry", "assistant",
                                        "tool_call", "final"]
    assert evs[4]["error"] == "MalformedResponse: the response has no choices"
    assert evs[-1]["reason"] == "agent_done"



def test_the_wait_the_provider_asks_for_in_retry_after_is_kept_beside_the_backoff(tmp_path, env_file):
    # The backoff here is 0.01 s, 0.02 s: a provider that says how long to wait is waited for (OpenAI's
    # retry-after-ms first, then retry-after in seconds); retrying sooner only meets the limit again.
    script = [READ, fault(429, headers={"retry-after-ms": "300", "retry-after": "9"}),
              fault(503, headers={"retry-after": "1"}), fault(429, headers={"retry-after": "soon"}), DONE]
    with FakeOpenAI(script) as fake:
        assert run(tmp_path, env_file, fake, "--max-retries", "3") == exitcodes.OK
    retries = [e for e in events(tmp_path / "out" / TRAJ) if e["type"] == "provider_retry"]
    assert [(e["attempt"], e["delay_s"]) for e in retries] == [(1, 0.3), (2, 1.0), (3, 0.04)]
    assert events(tmp_path / "out" / TRAJ)[-1]["reason"] == "agent_done"


@pytest.mark.parametrize("headers, seconds", [
    ({"retry-after-ms": "250"}, 0.25),
    ({"retry-after": "2"}, 2.0),
    ({"retry-after": "3600"}, 60.0),  # capped: a run does not sleep an hour on one provider's word
    ({"retry-after": "-5"}, None),
    ({"retry-after": "nan"}, None),
    ({"retry-after": "Wed, 21 Oct 2015 07:28:00 GMT"}, 0.0),  # a date already past: no extra wait
    ({}, None),
])
def test_retry_after_is_read_as_seconds_capped_and_nonsense_ignored(headers, seconds):
    from a320bench.bridge.providers.litellm_agent import retry_after_s

    assert retry_after_s(headers) == seconds

def test_litellms_invalid_response_object_is_recorded_as_its_cause_without_its_traceback(tmp_path, env_file):
    # litellm's "Invalid response object" error carries a traceback (this machine's paths) and the raw
    # arguments; a retry recorded all of it, cut at 300 characters.
    with FakeOpenAI([READ, {"choices": [{"index": 0, "message": None, "finish_reason": "stop"}]}, DONE]) as fake:
        assert run(tmp_path, env_file, fake) == exitcodes.OK
    evs = events(tmp_path / "out" / TRAJ)
    assert evs[4]["type"] == "provider_retry"
    assert evs[4]["error"] == ("InternalServerError: OpenAIException - Invalid response object "
                               "(AttributeError: 'NoneType' object has no attribute 'get')")
    assert evs[-1]["reason"] == "agent_done"


def test_a_refused_key_ends_provider_error_at_once_and_the_echoed_key_is_scrubbed(tmp_path, env_file, capfd):
    with FakeOpenAI([fault(401, message=f"Incorrect API key provided: {KEY}")], repeat_last=True) as fake:
        rc = run(tmp_path, env_file, fake)
        assert len(fake.requests) == 1  # retrying cannot help
    assert rc == exitcodes.PROVIDER_ERROR
    evs = events(tmp_path / "out" / TRAJ)
    assert evs[-2]["type"] == "provider_error" and evs[-2]["attempts"] == 1
    assert "AuthenticationError" in evs[-2]["error"] and "[REDACTED]" in evs[-2]["error"]
    out, err = capfd.readouterr()
    assert KEY not in out + err and "[REDACTED]" in err
    for p in (tmp_path / "out").rglob("*"):
        if p.is_file():
            assert KEY not in p.read_text(), p


def test_a_context_length_error_is_the_agents_result(tmp_path, env_file):
    too_long = fault(400, code="context_length_exceeded",
                     message="This model's maximum context length is 8192 tokens. However, your messages resulted "
                             "in 9000 tokens.")
    with FakeOpenAI([READ, too_long]) as fake:
        assert run(tmp_path, env_file, fake) == exitcodes.OK  # a result, not an error of the run
        assert len(fake.requests) == 2
    evs = events(tmp_path / "out" / TRAJ)
    assert [e["type"] for e in evs][-2:] == ["agent_error", "final"]
    assert "ContextWindowExceededError" in evs[-2]["error"]
    assert evs[-1]["reason"] == "agent_error"


@pytest.mark.parametrize("turn, reason, rc", [(1, "provider_error", exitcodes.PROVIDER_ERROR),
                                               (2, "agent_error", exitcodes.OK)])
def test_a_rejected_request_is_ours_on_the_first_turn_and_the_conversations_later(tmp_path, env_file, turn, reason,
                                                                                  rc):
    rejected = fault(400, message="Invalid 'messages[3]': the content is not allowed")
    with FakeOpenAI([READ] * (turn - 1) + [rejected], repeat_last=True) as fake:
        assert run(tmp_path, env_file, fake) == rc
        assert len(fake.requests) == turn
    assert events(tmp_path / "out" / TRAJ)[-1]["reason"] == reason


def test_a_tool_call_without_a_name_is_the_agents_result_not_a_provider_fault(tmp_path, env_file):
    # Red-team finding 1: classified as a provider fault, it ended provider_error before any change,
    # excluded and rerun forever: a model could opt out of every scenario it did not like.
    with FakeOpenAI([READ, {"tool_calls": [tool_call(None, {})]}], repeat_last=True) as fake:
        assert run(tmp_path, env_file, fake) == exitcodes.OK
        assert len(fake.requests) == 2  # not retried: the model wrote it
    evs = events(tmp_path / "out" / TRAJ)
    assert [e["type"] for e in evs][-2:] == ["agent_error", "final"]
    assert evs[-2]["error"] == "UnusableOutput: a tool call has no function name"
    assert evs[-1]["reason"] == "agent_error"
    card = score_file(tmp_path / "out" / TRAJ)
    assert (card.status, card.compliant_success) == ("valid", False)


def test_malformed_tool_call_arguments_use_the_budget_and_are_recorded(tmp_path, env_file):
    from a320bench.server.scenario.loader import load

    budget = load(SCENARIO).budget.max_tool_calls
    bad = {"tool_calls": [tool_call("wait", raw_arguments='{"seconds": 10')]}
    with FakeOpenAI([bad], repeat_last=True) as fake:
        assert run(tmp_path, env_file, fake) == exitcodes.OK
        assert len(fake.requests) == budget + 1  # the call past the budget ends the episode
    evs = events(tmp_path / "out" / TRAJ)
    calls = [e for e in evs if e["type"] == "tool_call"]
    assert len(calls) == budget + 1
    assert {(c["name"], c["arguments"], c["is_error"]) for c in calls} == {("wait", '{"seconds": 10', True)}
    assert calls[0]["result"]["error"].startswith("wait: the arguments are not a JSON object (got '{\"seconds\": 10')")
    assert evs[-1]["reason"] == "budget_tool_calls" and evs[-1]["tool_calls_used"] == budget
    # The model was told, in the tool result, what was wrong.
    last = fake.requests[1]["body"]["messages"][-1]
    assert last["role"] == "tool" and "not a JSON object" in last["content"]


def test_an_episode_with_a_malformed_call_reproduces_under_score_verify(tmp_path, env_file, capsys):
    bad = {"tool_calls": [tool_call("set_control", raw_arguments='{"control": "GEN 1", "position"')]}
    script = [READ, bad, {"tool_calls": [tool_call("set_control", {"control": "GEN 1", "position": "OFF"})]}, DONE]
    with FakeOpenAI(script) as fake:
        assert run(tmp_path, env_file, fake) == exitcodes.OK
    calls = [e for e in events(tmp_path / "out" / TRAJ) if e["type"] == "tool_call"]
    assert [(c["name"], c["is_error"]) for c in calls] == [
        ("read_ecam", False), ("set_control", True), ("set_control", False), ("report_done", False)]
    capsys.readouterr()
    # Re-simulated, the malformed call is sent as one again: the same result, the same verdict.
    assert main(["score", "--verify", str(tmp_path / "out")]) == exitcodes.OK
    assert capsys.readouterr().err.startswith("verify: 1 of 1 episode(s) reproduce against the installed catalogue (")


def test_an_episode_with_arguments_too_long_to_record_whole_reproduces_under_score_verify(tmp_path, env_file, capsys):
    # The trajectory keeps 10,000 characters of a string and its length; what the server did with it
    # (an echo of 200 characters, the length, the record) depends on no more than that.
    huge = {"tool_calls": [tool_call("set_control", {"control": "GEN 1 " * 200_000, "position": "OFF"})]}
    raw = {"tool_calls": [tool_call("wait", raw_arguments='{"seconds": "' + "9" * 50_000)]}
    long_done = {"tool_calls": [tool_call("report_done", {"diagnosis": "GEN 1 fault. " * 2_000,
                                                          "actions_summary": "none"})]}
    with FakeOpenAI([READ, huge, raw, long_done]) as fake:
        assert run(tmp_path, env_file, fake) == exitcodes.OK
    calls = [e for e in events(tmp_path / "out" / TRAJ) if e["type"] == "tool_call"]
    assert [(c["name"], c["is_error"]) for c in calls] == [
        ("read_ecam", False), ("set_control", True), ("wait", True), ("report_done", False)]
    assert calls[1]["arguments"]["control"].endswith("… [cut: 1,200,000 characters in all]")
    assert calls[2]["arguments"].endswith("… [cut: 50,013 characters in all]")
    assert calls[3]["arguments"]["diagnosis"].endswith("… [cut: 26,000 characters in all]")
    # The final says no more than the call's record can show: the same cut report is graded either way.
    assert events(tmp_path / "out" / TRAJ)[-1]["report_done"] == calls[3]["arguments"]
    capsys.readouterr()
    assert main(["score", "--verify", str(tmp_path / "out")]) == exitcodes.OK
    assert capsys.readouterr().err.startswith("verify: 1 of 1 episode(s) reproduce against the installed catalogue (")


def test_a_bug_of_ours_in_the_provider_loop_is_a_harness_error_not_a_provider_error(tmp_path, env_file, monkeypatch,
                                                                                    capsys):
    import litellm

    async def broken(**_kw):
        raise KeyError("usage")  # not something a provider raises: ours

    monkeypatch.setattr(litellm, "acompletion", broken)
    with FakeOpenAI([READ]) as fake:
        assert run(tmp_path, env_file, fake) == exitcodes.INTERNAL
    evs = events(tmp_path / "out" / TRAJ)
    assert [e["type"] for e in evs] == ["meta", "setup", "harness_error", "final"]
    assert evs[-1]["reason"] == "harness_error" and "KeyError" in evs[-1]["error"]
    err = capsys.readouterr().err
    assert "error: elec_gen1_fault_reset_fails/openai_fake-model__run000: harness error: KeyError: 'usage'" in err
    assert "Traceback" not in err and "ExceptionGroup" not in err


def test_sampling_credentials_and_the_env_file_key_reach_no_file_and_no_console_line(tmp_path, env_file, capfd):
    sampling_key = "sk-sampling-SECRET-987654321"
    echo = fault(401, message=f"keys {KEY} and {sampling_key} were refused")
    with FakeOpenAI([READ, echo]) as fake:
        rc = run(tmp_path, env_file, fake, sampling={"api_key": sampling_key, "temperature": 0})
        assert fake.requests[0]["authorization"] == f"Bearer {sampling_key}"  # it was really used
    assert rc == exitcodes.PROVIDER_ERROR
    out, err = capfd.readouterr()
    files = [p for p in (tmp_path / "out").rglob("*") if p.is_file()]
    assert len(files) == 2
    for text in [out, err, *(p.read_text() for p in files)]:
        assert KEY not in text and sampling_key not in text
    (record,) = (tmp_path / "out").glob("run-*.json")
    rec = json.loads(record.read_text())
    assert rec["sampling"]["api_key"] == "[REDACTED]" and rec["sampling"]["temperature"] == 0
    assert events(tmp_path / "out" / TRAJ)[0]["sampling"]["api_key"] == "[REDACTED]"


def test_a_genuine_provider_error_verifies_and_a_relabelled_model_does_not(tmp_path, env_file, capsys):
    with FakeOpenAI([READ, 503], repeat_last=True) as fake:
        assert run(tmp_path, env_file, fake) == exitcodes.PROVIDER_ERROR
    path = tmp_path / "out" / TRAJ
    evs = events(path)
    assert evs[2]["model"] == "fake-model"  # what the API says answered
    capsys.readouterr()
    assert main(["score", "--verify", str(path)]) == exitcodes.OK  # its provider_error event backs its end
    capsys.readouterr()
    evs[0]["model"] = "openai/gpt-4.1"  # another model's name on this model's turns
    path.write_text("".join(json.dumps(e) + "\n" for e in evs))
    assert main(["score", "--verify", str(path)]) == exitcodes.FAILED_CHECKS
    assert "assistant turn 1: answered by 'fake-model', meta.model is 'openai/gpt-4.1'" in capsys.readouterr().err


def test_an_exception_chain_that_loops_is_read_to_its_end_once():
    # Reading a fault's root follows __cause__ and __context__; a chain that loops back (code can set
    # either) must end the walk rather than hang the episode's error handling.
    from a320bench.bridge.providers.litellm_agent import _error_in_a_200

    body = Exception("the provider's error object")
    body.status_code = 422
    wrapped = RuntimeError("litellm's")
    wrapped.__context__ = body
    assert _error_in_a_200(wrapped) is True
    body.__context__ = wrapped  # now a loop: the walk stops where it would come round again, at the body
    assert _error_in_a_200(wrapped) is True
