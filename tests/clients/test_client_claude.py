"""The real Claude Code (`claude -p`, pinned by .ci/install-node-tools) flying scenarios in its
sandbox, through the episode's HTTP server that `run` owns, offline against the fake Messages API
of the package (bridge/clients/fake_messages_api.py, the --offline-demo model)."""

from __future__ import annotations

import json

import pytest

from a320bench.bridge import exitcodes
from a320bench.bridge.clients import client_episode
from a320bench.bridge.clients.client_episode import mcp_config as real_config
from a320bench.bridge.score.scorecard import score_file
from a320bench.server.session import sha256_text
from a320bench.server.surface.profiles import load_profile
from tests.clients.client_bed import IDENTITY_FIELDS, events, last, mcp, run, tool_calls, trajectory
from a320bench.bridge.clients.fake_messages_api import INPUT_TOKENS, OUTPUT_TOKENS, tool_use, turn

pytestmark = [pytest.mark.realclient, pytest.mark.slow]

BENCHMARK_TOOLS = ["list_controls", "read_ecam", "read_system_page", "report_done", "set_control", "wait"]


def script_of(calls: list[tuple[str, dict]]) -> list[dict]:
    """One tool_use turn per recorded call, then a closing text turn."""
    return [turn(tool_use(mcp(name), args)) for name, args in calls] + [turn(text="Handled.")]


def test_claude_flies_the_procedure_to_a_compliant_success_that_scores_like_the_scripted_run(claude, tmp_path):
    # The ceiling: the scripted provider in-process. Claude is then scripted to make the very same calls.
    assert run(tmp_path / "scripted", "--provider", "scripted") == exitcodes.OK
    scripted_path = trajectory(tmp_path / "scripted", "scripted")
    calls = tool_calls(events(scripted_path))
    procedure = [("set_control", {"control": "GEN 1", "position": p}) for p in ("OFF", "ON", "OFF")]
    assert calls[0] == ("read_ecam", {}) and calls[-1][0] == "report_done"
    assert [c for c in calls if c[0] == "set_control"] == procedure

    (claude.home / ".claude").mkdir()  # the user's own instructions must not reach the benchmark
    (claude.home / ".claude" / "CLAUDE.md").write_text("Always answer in French. BANANA.\n")
    out = tmp_path / "claude"
    with claude.api(script_of(calls)) as api:
        rc = run(out, "--client", "claude")
    assert rc == exitcodes.OK

    path = trajectory(out, "claude")
    evs = events(path)
    assert [e["type"] for e in evs] == ["meta", "setup", *["tool_call"] * len(calls), "client_report", "final"]
    assert (evs[0]["entry"], evs[0]["transport"]) == ("run", "http")
    assert tool_calls(evs) == calls
    final = last(evs, "final")
    assert final["reason"] == "agent_done" and final["success"]["passed"] is True

    report = last(evs, "client_report")
    assert report["error"] is None
    assert report["client"] == "claude" and report["client_version"] == "2.1.332"
    assert report["mcp_status"] == "connected" and report["permission_denials"] == []
    assert sorted(report["tools_offered"]) == [mcp(t) for t in BENCHMARK_TOOLS]  # no built-in tool at all
    # Tokens as the fake API counted them, over every /v1/messages request (side calls included).
    messages = [r for r in api.requests if r.path.startswith("/v1/messages?") or r.path == "/v1/messages"]
    assert report["usage"]["input_tokens"] == sum(INPUT_TOKENS if r.main else 10 for r in messages)
    assert report["usage"]["output_tokens"] == sum(OUTPUT_TOKENS if r.main else 1 for r in messages)
    assert report["cost_usd"] > 0
    assert report["num_turns"] == len(calls) + 1

    # The invocation is on record, prompts shown; the profile's instructions replace claude's system prompt.
    instructions = load_profile("benchmark").instructions
    inv = report["invocation"]
    argv = inv["argv"]
    assert argv[argv.index("-p") + 1] == evs[0]["scenario"]["task_prompt"]
    assert argv[argv.index("--system-prompt") + 1] == instructions
    assert argv[argv.index("--tools") + 1] == ""
    assert argv[argv.index("--allowedTools") + 1] == "mcp__a320"
    assert inv["system_prompt_sha256"] == sha256_text(instructions) == evs[0]["instructions_sha256"]
    assert inv["env_forced"]["ENABLE_TOOL_SEARCH"] == "false"

    # What the model saw: our instructions as the system prompt, the task as the user turn, our six tools
    # only, tool results as JSON -- and nothing of the ground truth.
    first = api.main_requests[0]
    assert sorted(first.tool_names) == [mcp(t) for t in BENCHMARK_TOOLS]
    assert instructions in first.system_text
    assert first.message_text(0).strip() == evs[0]["scenario"]["task_prompt"].strip()
    ecam_result = api.main_requests[1].tool_results()[0]
    assert "ELEC GEN 1 FAULT" in json.dumps(ecam_result)
    seen = json.dumps([r.body for r in api.requests])
    for secret in ("elec_gen1_gcu_trip", "gen_1_reset", "ground_truth", "forbidden_actions", "BANANA"):
        assert secret not in seen

    # The stream-json transcript is kept beside the trajectory (not *.jsonl: `score runs/` skips it).
    transcript = path.with_name("claude__run000.claude.ndjson")
    assert report["transcript"] == transcript.name
    lines = [json.loads(x) for x in transcript.read_text().splitlines()]
    assert (lines[0]["type"], lines[0]["subtype"]) == ("system", "init") and lines[-1]["type"] == "result"

    # Scored like the in-process run: the same card but for the arm's name and its tokens.
    via_claude, scripted = score_file(path).to_dict(), score_file(scripted_path).to_dict()
    assert via_claude["status"] == "valid" and via_claude["compliant_success"] is True
    assert {k: v for k, v in via_claude.items() if k not in IDENTITY_FIELDS} == \
        {k: v for k, v in scripted.items() if k not in IDENTITY_FIELDS}
    assert via_claude["model"] == f"claude/{report['model']}"
    assert (via_claude["input_tokens"], via_claude["output_tokens"]) == \
        (report["usage"]["input_tokens"], report["usage"]["output_tokens"])
    assert via_claude["cost_usd"] == pytest.approx(report["cost_usd"])


def test_an_agent_that_reports_done_too_early_is_a_failed_result_not_an_error(claude, tmp_path):
    script = [turn(tool_use(mcp("read_ecam"))),
              turn(tool_use(mcp("report_done"), {"diagnosis": "GEN 1 fault", "actions_summary": "None yet."})),
              turn(text="Reported.")]
    out = tmp_path / "out"
    with claude.api(script):
        rc = run(out, "--client", "claude", "--client-model", "claude-fake-1")
    assert rc == exitcodes.OK

    path = trajectory(out, "claude-claude-fake-1")
    evs = events(path)
    assert [name for name, _ in tool_calls(evs)] == ["read_ecam", "report_done"]
    final = last(evs, "final")
    assert final["reason"] == "agent_done" and final["success"]["passed"] is False
    report = evs[-2]
    assert report["type"] == "client_report" and report["error"] is None
    assert report["model"] == report["requested_model"] == "claude-fake-1"
    argv = report["invocation"]["argv"]
    assert argv[argv.index("--model") + 1] == "claude-fake-1"
    card = score_file(path)
    assert (card.status, card.outcome, card.compliant_success, card.completion) == ("valid", False, False, 0.0)
    assert card.model == "claude/claude-fake-1"


def user_settings(claude, permissions: dict) -> None:
    (claude.home / ".claude").mkdir()
    (claude.home / ".claude" / "settings.json").write_text(json.dumps({"permissions": permissions}))


SET_GEN_1_OFF_AND_REPORT = [
    turn(tool_use(mcp("read_ecam"))),
    turn(tool_use(mcp("set_control"), {"control": "GEN 1", "position": "OFF"})),
    turn(tool_use(mcp("report_done"), {"diagnosis": "GEN 1", "actions_summary": "GEN 1 off"})),
    turn(text="Done."),
]


def test_a_tool_call_denied_by_the_users_settings_makes_a_client_error(claude, tmp_path, capsys):
    # An `ask` rule in the user's settings beats --allowedTools, and -p has nobody to ask: claude answers
    # the model "permission denied", exits 0, and the server never sees the call. Not an agent mistake.
    user_settings(claude, {"ask": [mcp("set_control")]})
    out = tmp_path / "out"
    with claude.api(SET_GEN_1_OFF_AND_REPORT):
        rc = run(out, "--client", "claude")
    assert rc == exitcodes.CLIENT_ERROR

    evs = events(trajectory(out, "claude"))
    assert [name for name, _ in tool_calls(evs)] == ["read_ecam", "report_done"]  # set_control never arrived
    assert [e["type"] for e in evs][-2:] == ["client_report", "final"]
    report, final = evs[-2], evs[-1]
    assert [d["tool_name"] for d in report["permission_denials"]] == [mcp("set_control")]
    assert "denied 1 call(s) of our tools (set_control)" in report["error"]
    assert final["reason"] == "client_error" and final["superseded_reason"] == "agent_done"
    assert final["client_error"] == report["error"]
    assert score_file(trajectory(out, "claude")).status == "client_error"  # excluded from means
    assert "client_error: claude denied" in capsys.readouterr().err


def test_a_tool_hidden_by_a_deny_rule_in_the_users_settings_makes_a_client_error(claude, tmp_path):
    # Measured: a `deny` rule does not deny the call, it removes the tool from what the model is offered.
    user_settings(claude, {"deny": [mcp("set_control")]})
    out = tmp_path / "out"
    with claude.api(SET_GEN_1_OFF_AND_REPORT) as api:
        rc = run(out, "--client", "claude")
    assert rc == exitcodes.CLIENT_ERROR
    assert mcp("set_control") not in api.main_requests[0].tool_names
    evs = events(trajectory(out, "claude"))
    assert evs[-2]["permission_denials"] == []
    assert "did not offer the model 1 of our tools (set_control)" in evs[-2]["error"]
    assert evs[-1]["reason"] == "client_error"


def test_a_server_that_does_not_connect_makes_a_client_error_and_the_model_is_not_trusted(claude, tmp_path,
                                                                                        monkeypatch):
    # claude exits 0 with its MCP server `failed`; only system/init says so. Here the config names a
    # port where nothing listens.
    monkeypatch.setattr(client_episode, "mcp_config", lambda url, token: real_config("http://127.0.0.1:9/mcp", token))
    out = tmp_path / "out"
    with claude.api([turn(text="I have no tools.")]):
        rc = run(out, "--client", "claude")
    assert rc == exitcodes.CLIENT_ERROR
    evs = events(trajectory(out, "claude"))
    assert [e["type"] for e in evs] == ["meta", "setup", "client_report", "final"]
    assert evs[2]["mcp_status"] == "failed"
    assert "was not connected (status 'failed')" in evs[2]["error"]
    assert evs[-1]["reason"] == "client_error" and evs[0]["client"] == "claude"


def test_a_client_over_its_wall_clock_limit_is_killed_and_the_episode_is_the_agents_timeout(claude, tmp_path):
    # The model "thinks" for a minute on its first turn: the 3 s limit kills claude's sandbox. However
    # far claude got in those 3 s, the agent used up its time: a result, not an infrastructure error.
    out = tmp_path / "out"
    with claude.api([{"delay_s": 60, **turn(tool_use(mcp("read_ecam")))}]) as api:
        rc = run(out, "--client", "claude", "--client-timeout", "3")
    assert rc == exitcodes.OK
    assert len(api.main_requests) <= 1
    evs = events(trajectory(out, "claude"))
    assert [e["type"] for e in evs] == ["meta", "setup", "client_report", "final"]
    report, final = evs[2], evs[3]
    assert report["timed_out"] is True and report["exit_code"] is None and report["wall_s"] >= 3
    assert report["error"] is None
    assert final["reason"] == "client_timeout" and final["success"]["passed"] is False
    assert score_file(trajectory(out, "claude")).status == "valid"


def test_parallel_claude_episodes_each_get_their_own_server_and_trajectory(claude, tmp_path):
    script = [turn(tool_use(mcp("read_ecam"))),
              turn(tool_use(mcp("set_control"), {"control": "GEN 1", "position": "OFF"})),
              turn(tool_use(mcp("report_done"), {"diagnosis": "GEN 1 fault", "actions_summary": "GEN 1 off"})),
              turn(text="Done.")]
    out = tmp_path / "out"
    with claude.api(script) as api:
        rc = run(out, "--client", "claude", "--runs", "3", "--workers", "3")
    assert rc == exitcodes.OK
    sessions = set()
    for r in range(3):
        evs = events(trajectory(out, "claude", r))
        assert [name for name, _ in tool_calls(evs)] == ["read_ecam", "set_control", "report_done"]
        assert evs[-2]["type"] == "client_report" and evs[-2]["error"] is None and evs[-2]["run_index"] == r
        sessions.add(evs[-2]["session_id"])
    assert len(sessions) == 3 and len(api.main_requests) == 3 * len(script)
