"""Who caused a client episode's end decides whether it counts (red-team findings 1 and 4).

A client that reached the aircraft and then ends badly on its own (a failing exit, an API error of
the conversation) is the agent's result, as the same fault is in-process; a fault after report_done
changes nothing but the client_report, and verify agrees with the file. Only setup faults, and
transient API statuses before the agent changed the aircraft, stay infrastructure errors."""

from __future__ import annotations

import json

import pytest

from a320bench.bridge import exitcodes
from a320bench.bridge.clients.faults import ClientFault, FaultKind, fault_end, transient_api_status
from a320bench.bridge.score.scorecard import score_file
from a320bench.server.end_reason import EndReason
from tests.score.score_builder import score_cli
from tests.clients.client_bed import AGENT, PROCEDURE, events, last, mcp, python_cmd, run, tool_calls, trajectory
from a320bench.bridge.clients.fake_messages_api import tool_use, turn

SETUP, TRANSIENT, CONVERSATION = (ClientFault(k, k.value) for k in FaultKind)


@pytest.mark.parametrize(("faults", "own_end", "connected", "expected"), [
    ([], None, True, None),
    ([SETUP], EndReason.AGENT_DONE, True, EndReason.CLIENT_ERROR),  # the agent could not act as recorded
    ([TRANSIENT], EndReason.AGENT_DONE, True, None),  # after report_done: the end stands
    ([CONVERSATION], EndReason.BUDGET_TOOL_CALLS, True, None),
    ([TRANSIENT], None, True, EndReason.CLIENT_ERROR),
    ([CONVERSATION], None, True, EndReason.AGENT_ERROR),
    ([CONVERSATION], None, False, EndReason.CLIENT_ERROR),  # never reached the aircraft
    ([CONVERSATION, TRANSIENT], None, True, EndReason.CLIENT_ERROR),
])
def test_a_client_fault_imposes_the_end_its_cause_calls_for(faults, own_end, connected, expected):
    assert fault_end(faults, own_end, connected) == expected


def test_api_statuses_that_a_retry_cures_are_transient_and_a_400_is_not():
    assert [transient_api_status(s) for s in (400, 401, 408, 413, 429, 500, 529)] == \
        [False, False, True, False, True, True, True]
    assert transient_api_status(None, "Overloaded") is True and transient_api_status(None, "prompt too long") is False


def play(*calls: list) -> str:
    return python_cmd(str(AGENT), "play", "{config}", "{server}", json.dumps(list(calls)))


@pytest.mark.slow
@pytest.mark.usefixtures("sandboxed")
def test_a_client_that_fails_after_report_done_keeps_its_compliant_flight_and_verify_agrees(tmp_path, monkeypatch,
                                                                                          capsys):
    monkeypatch.setenv("AGENT_EXIT", "1")
    out = tmp_path / "out"
    assert run(out, "--client", "cmd", "--client-cmd", play(*PROCEDURE)) == exitcodes.OK
    evs = events(trajectory(out, "cmd"))
    report, final = evs[-2], evs[-1]
    assert report["exit_code"] == 1 and report["error"].endswith("exited with code 1")
    assert final["reason"] == "agent_done" and "superseded_reason" not in final
    card = score_file(trajectory(out, "cmd"))
    assert (card.status, card.reported_done, card.compliant_success) == ("valid", True, True)
    capsys.readouterr()
    code, _, err = score_cli(capsys, out, "--verify")
    assert code == 0 and "verify: 1 of 1 episode(s) reproduce" in err


@pytest.mark.slow
@pytest.mark.usefixtures("sandboxed")
def test_a_client_that_reads_the_ecam_then_exits_1_is_the_agents_failure_not_an_excluded_error(tmp_path, monkeypatch):
    # Before: client_error, excluded and rerun forever: an agent could opt out of every scenario it saw.
    monkeypatch.setenv("AGENT_EXIT", "1")
    out = tmp_path / "out"
    assert run(out, "--client", "cmd", "--client-cmd", play(["read_ecam", {}])) == exitcodes.OK
    evs = events(trajectory(out, "cmd"))
    assert [e["type"] for e in evs] == ["meta", "setup", "tool_call", "client_report", "final"]
    assert evs[-1]["reason"] == "agent_error" and evs[-1]["error"].endswith("exited with code 1")
    card = score_file(trajectory(out, "cmd"))
    assert (card.status, card.compliant_success) == ("valid", False)


@pytest.mark.slow
@pytest.mark.usefixtures("sandboxed")
def test_a_client_that_connects_without_a_call_and_exits_1_is_the_agents_failure(tmp_path, monkeypatch):
    # It initialised its MCP session (it could have read the ECAM as a resource): its exit is its own.
    monkeypatch.setenv("AGENT_EXIT", "1")
    out = tmp_path / "out"
    assert run(out, "--client", "cmd", "--client-cmd", play()) == exitcodes.OK
    assert last(events(trajectory(out, "cmd")), "final")["reason"] == "agent_error"


def fly_claude(claude, out, script: list) -> tuple[int, list[dict]]:
    with claude.api(script):
        rc = run(out, "--client", "claude")
    return rc, events(trajectory(out, "claude"))


@pytest.mark.realclient
@pytest.mark.slow
def test_claude_after_an_api_400_mid_conversation_is_agent_error_as_in_process(claude, tmp_path):
    rc, evs = fly_claude(claude, tmp_path / "out", [turn(tool_use(mcp("read_ecam"))), 400])
    assert rc == exitcodes.OK
    assert last(evs, "final")["reason"] == "agent_error"
    assert last(evs, "final")["error"] == "claude reported an error (api_error, API status 400): API Error: 400 scripted 400"
    assert score_file(trajectory(tmp_path / "out", "claude")).status == "valid"


@pytest.mark.realclient
@pytest.mark.slow
def test_claude_overloaded_after_report_done_keeps_the_compliant_flight_and_verify_agrees(claude, tmp_path, capsys):
    out = tmp_path / "out"
    rc, evs = fly_claude(claude, out, [turn(tool_use(mcp(name), args)) for name, args in PROCEDURE] + [529])
    assert rc == exitcodes.OK
    assert [name for name, _ in tool_calls(evs)] == [name for name, _ in PROCEDURE]
    report, final = evs[-2], evs[-1]
    assert report["error"].startswith("claude reported an error (api_error, API status 529): ")
    assert final["reason"] == "agent_done" and final["success"]["passed"] is True
    assert score_file(trajectory(out, "claude")).compliant_success is True
    capsys.readouterr()
    code, _, err = score_cli(capsys, out, "--verify")
    assert code == 0 and "verify: 1 of 1 episode(s) reproduce" in err


@pytest.mark.realclient
@pytest.mark.slow
def test_claude_overloaded_before_any_change_stays_an_infrastructure_error(claude, tmp_path):
    rc, evs = fly_claude(claude, tmp_path / "out", [turn(tool_use(mcp("read_ecam"))), 529])
    assert rc == exitcodes.CLIENT_ERROR
    assert (last(evs, "final")["reason"], last(evs, "final")["superseded_reason"]) == ("client_error", None)
    assert score_file(trajectory(tmp_path / "out", "claude")).status == "client_error"
