"""`run --client claude --offline-demo`: the real claude, in its sandbox, against the packaged mock of the
Messages API flying the scripted procedure; and a claude that is not logged in, said plainly."""

from __future__ import annotations

import json
import urllib.error
import urllib.request

import anyio
import pytest

from a320bench.bridge import exitcodes
from a320bench.bridge.clients.claude import NOT_LOGGED_IN, reported_error
from a320bench.bridge.clients.offline_demo import OfflineDemoClaude, scripted_calls
from a320bench.bridge.score.scorecard import score_file
from a320bench.server.scenario.loader import load
from a320bench.server.surface.profiles import load_profile
from tests.clients.client_bed import SCENARIO, events, last, run, tool_calls, trajectory

BENCHMARK = load_profile("benchmark")


def test_the_demo_model_makes_the_scripted_providers_calls(tmp_path):
    calls = anyio.run(scripted_calls, load(SCENARIO), list(BENCHMARK.tools))
    assert run(tmp_path, "--provider", "scripted") == exitcodes.OK
    flown = tool_calls(events(trajectory(tmp_path, "scripted")))
    # The same calls; the diagnosis lacks the ECAM titles the scripted provider read live.
    assert [c for c in calls if c[0] != "report_done"] == [c for c in flown if c[0] != "report_done"]
    assert calls[-1] == ("report_done", {"diagnosis": "GEN 1", "actions_summary": "GEN 1 OFF, GEN 1 ON, GEN 1 OFF"})
    assert flown[-1][1]["actions_summary"] == calls[-1][1]["actions_summary"]


@pytest.mark.anyio
async def test_the_demo_points_claude_at_its_own_mock_and_leaves_the_users_account_out(monkeypatch):
    monkeypatch.setenv("ANTHROPIC_AUTH_TOKEN", "user-token")
    monkeypatch.setenv("CLAUDE_CODE_USE_BEDROCK", "1")
    demo = OfflineDemoClaude(60)
    assert (demo.model, demo.home_files()) == ("offline-demo", [])
    async with demo.episode_backend(load(SCENARIO), BENCHMARK, "a320") as changes:
        assert changes["ANTHROPIC_AUTH_TOKEN"] is None and changes["CLAUDE_CODE_USE_BEDROCK"] is None
        key, url = changes["ANTHROPIC_API_KEY"], changes["ANTHROPIC_BASE_URL"]
        assert key.startswith("offline-demo-") and url.startswith("http://127.0.0.1:")
        # Nothing else on loopback reads the script that flies the answer: without the key, 401.
        body = json.dumps({"model": "x", "messages": [], "tools": [{"name": "mcp__a320__read_ecam"}]}).encode()
        for headers in ({}, {"x-api-key": "guess"}):
            with pytest.raises(urllib.error.HTTPError) as refused:
                urllib.request.urlopen(urllib.request.Request(f"{url}/v1/messages", body, headers))
            assert refused.value.code == 401
        answer = urllib.request.urlopen(urllib.request.Request(f"{url}/v1/messages", body, {"x-api-key": key}))
        assert json.loads(answer.read())["content"][0]["name"] == "mcp__a320__read_ecam"


@pytest.mark.parametrize(("args", "line"), [
    (["--offline-demo"], "error: --offline-demo does not apply here: it is only for --client claude"),
    (["--client", "cmd", "--client-cmd", "x", "--offline-demo"],
     "error: --offline-demo does not apply here: it is only for --client claude"),
    (["--client", "claude", "--offline-demo", "--client-model", "claude-opus-4"],
     "error: --client-model does not apply here: it is only for --client (the offline demo's model is the mock's)"),
])
def test_the_demo_flag_is_refused_where_it_does_not_apply(args, line, tmp_path, capsys):
    assert run(tmp_path, *args) == exitcodes.USAGE
    assert capsys.readouterr().err.strip() == line


def test_an_error_claude_reports_is_said_plainly():
    base = {"type": "result", "subtype": "success", "is_error": True}
    assert reported_error({**base, "result": "Not logged in · Please run /login", "terminal_reason": "api_error"}) \
        == NOT_LOGGED_IN == ("claude is not logged in: run `claude login` or set ANTHROPIC_API_KEY, or try "
                             "--offline-demo")
    assert reported_error({**base, "result": "Invalid API key · Please run /login", "api_error_status": 401}) == (
        "claude's credentials were refused (API status 401: Invalid API key · Please run /login): run `claude "
        "login` or check ANTHROPIC_API_KEY, or try --offline-demo")
    assert reported_error({**base, "result": "API Error: 529 Overloaded", "api_error_status": 529,
                           "terminal_reason": "api_error"}) == \
        "claude reported an error (api_error, API status 529): API Error: 529 Overloaded"
    assert reported_error({**base, "result": "boom"}) == "claude reported an error: boom"


@pytest.mark.realclient
@pytest.mark.slow
def test_the_offline_demo_flies_the_procedure_through_the_real_claude_to_a_compliant_success(claude, tmp_path):
    # No API of the test's own: the demo brings its mock.
    claude.monkeypatch.delenv("ANTHROPIC_BASE_URL", raising=False)
    out = tmp_path / "demo"
    assert run(out, "--client", "claude", "--offline-demo") == exitcodes.OK
    path = trajectory(out, "claude-offline-demo")
    evs = events(path)
    assert [name for name, _ in tool_calls(evs)] == ["read_ecam", "set_control", "set_control", "set_control",
                                                     "read_ecam", "report_done"]
    report = last(evs, "client_report")
    assert (report["error"], report["model"], report["mcp_status"]) == (None, "offline-demo", "connected")
    assert path.with_name("claude-offline-demo__run000.claude.ndjson").stat().st_size > 0  # the transcript
    card = score_file(path)
    assert (card.model, card.status, card.compliant_success) == ("claude/offline-demo", "valid", True)


@pytest.mark.realclient
@pytest.mark.slow
def test_a_claude_that_is_not_logged_in_is_one_plain_line_and_a_client_error(claude, tmp_path, capsys):
    claude.monkeypatch.delenv("ANTHROPIC_API_KEY")
    out = tmp_path / "out"
    assert run(out, "--client", "claude") == exitcodes.CLIENT_ERROR
    err = [line for line in capsys.readouterr().err.splitlines() if "client_error" in line]
    assert err == [f"error: elec_gen1_fault_reset_fails/claude__run000: client_error: {NOT_LOGGED_IN}"]
    assert last(events(trajectory(out, "claude")), "final")["reason"] == "client_error"
