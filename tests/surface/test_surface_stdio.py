"""`a320-bench serve` over stdio: both protocol paths, the verdict file, shutdown, refusals."""

from __future__ import annotations

import json
import signal
import time
import subprocess
import sys
from pathlib import Path

import pytest

from surface_bed import (
    BENCHMARK_TOOLS,
    DEV_ONLY_TOOLS,
    ELEC,
    RawServe,
    child_env,
    eventually,
    read_events,
    read_json,
    serve_argv,
    stdio_params,
)

pytestmark = [pytest.mark.slow, pytest.mark.anyio]


def _files(tmp_path: Path) -> tuple[Path, Path, list[str]]:
    result, traj = tmp_path / "verdict.json", tmp_path / "episode.jsonl"
    return result, traj, ["--result", str(result), "--trajectory", str(traj)]


async def test_the_stateless_2026_path_serves_the_benchmark_tools_and_report_done_writes_the_verdict(tmp_path):
    # What Claude Code does: server/discover, protocol 2026-07-28, no initialize.
    from mcp import Client

    result, traj, flags = _files(tmp_path)
    async with Client(stdio_params(ELEC, *flags, cwd=tmp_path), mode="auto") as c:
        assert c.protocol_version == "2026-07-28"
        assert [t.name for t in (await c.list_tools()).tools] == BENCHMARK_TOOLS
        r = await c.call_tool("set_control", {"control": "GEN 1", "position": "OFF"})
        assert r.structured_content["changed"] is True
        assert eventually(lambda: read_json(result)["tool_calls_used"] == 1)  # kept current while serving
        assert read_json(result)["reason"] is None
        unknown = await c.call_tool("inject_failure", {"failure_id": "elec_gen2_gcu_trip"})
        assert unknown.is_error and unknown.content[0].text.startswith("Unknown tool 'inject_failure'.")
        done = await c.call_tool("report_done", {"diagnosis": "GEN 1 fault", "actions_summary": "GEN 1 OFF"})
        assert not done.is_error
        assert eventually(lambda: read_json(result)["reason"] == "agent_done")  # before the client leaves
    verdict = read_json(result)
    assert (verdict["reason"], verdict["tool_calls_used"], verdict["profile"]) == ("agent_done", 3, "benchmark")
    assert verdict["report_done"] == {"diagnosis": "GEN 1 fault", "actions_summary": "GEN 1 OFF"}
    assert verdict["gate"]["passed"] is True
    assert set(verdict["success"]) == {"passed", "criteria", "invariant_violations", "hands_off"}
    assert verdict["final_ecam"]["alerts"] == []
    events = read_events(traj)
    assert [e["type"] for e in events] == ["meta", "setup", "client_report", "tool_call", "tool_call", "tool_call",
                                           "final"]
    # Who flew it, as the client named itself (the SDK's default clientInfo): `score` labels the episode so.
    from mcp.client.session import DEFAULT_CLIENT_INFO

    assert {k: events[2][k] for k in ("client", "client_version", "model", "source")} == {
        "client": DEFAULT_CLIENT_INFO.name, "client_version": DEFAULT_CLIENT_INFO.version, "model": None,
        "source": "mcp clientInfo"}
    assert events[0]["profile"] == "benchmark"
    assert events[0]["tools"] == BENCHMARK_TOOLS


async def test_the_initialize_handshake_path_serves_the_dev_tools(tmp_path):
    # What MCP Inspector does: initialize, protocol 2025-11-25.
    from mcp import Client

    result, traj, flags = _files(tmp_path)
    async with Client(stdio_params(ELEC, "--profile", "dev", *flags, cwd=tmp_path), mode="legacy") as c:
        assert c.protocol_version == "2025-11-25"
        assert [t.name for t in (await c.list_tools()).tools] == BENCHMARK_TOOLS + DEV_ONLY_TOOLS
        r = await c.call_tool("inject_failure", {"failure_id": "elec_gen2_gcu_trip"})
        assert r.structured_content["active_failures"] == ["elec_gen1_gcu_trip", "elec_gen2_gcu_trip"]
        page = await c.read_resource("a320://pages/elec")
        assert json.loads(page.contents[0].text)["page"] == "ELEC"
    # The client closed stdin without report_done.
    assert read_json(result)["reason"] == "end_turn_without_done"
    assert read_json(result)["profile"] == "dev"
    assert read_events(traj)[0]["profile"] == "dev"


def test_closing_stdin_finalises_the_verdict_and_exits_0_well_within_two_seconds(tmp_path):
    result, traj, flags = _files(tmp_path)
    srv = RawServe(ELEC, *flags, cwd=tmp_path)
    assert srv.initialize()["result"]["serverInfo"]["name"] == "a320-bench"
    answer = srv.call("read_ecam", {})
    assert answer["result"]["structuredContent"]["alerts"][0]["title"] == "ELEC GEN 1 FAULT"
    # The server leaves on its own (a client waits 2 s before SIGTERM; that figure is
    # measured by bench/, not here: a loaded machine must not fail the suite).
    rc = srv.close_stdin_and_wait(timeout=60)
    assert rc == 0
    verdict = read_json(result)
    assert (verdict["reason"], verdict["tool_calls_used"]) == ("end_turn_without_done", 1)
    assert [e["type"] for e in read_events(traj)][-1] == "final"
    assert all(json.loads(line) for line in srv.stdout)  # stdout carried the protocol only


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGHUP], ids=["SIGTERM", "SIGHUP"])
def test_sigterm_or_a_hangup_finalises_the_verdict_and_exits_0_at_once(tmp_path, sig):
    # SIGHUP: the terminal a person serves from is closed; it used to kill the server before the final.
    result, traj, flags = _files(tmp_path)
    # Served from a terminal, where a hangup is not ignored: a suite run under nohup would pass its SIG_IGN on.
    before = signal.signal(signal.SIGHUP, signal.SIG_DFL)
    try:
        srv = RawServe(ELEC, *flags, cwd=tmp_path)
    finally:
        signal.signal(signal.SIGHUP, before)
    srv.initialize()
    srv.call("set_control", {"control": "GEN 1", "position": "OFF"})
    srv.proc.send_signal(sig)
    rc = srv.proc.wait(60)
    assert rc == 0  # finished by our handler, not killed by the signal (-15)
    verdict = read_json(result)
    assert (verdict["reason"], verdict["tool_calls_used"]) == ("end_turn_without_done", 1)
    assert read_events(traj)[-1]["reason"] == "end_turn_without_done"


def test_sigint_then_sigterm_100_ms_later_is_one_quiet_client_end(tmp_path):
    """How Claude Code ends a stdio server it started (stdin left open): SIGINT, then SIGTERM about
    100 ms later. Served, that is the client's end, not an interrupt: exit 0, nothing on stderr, the
    verdict and the trajectory's final each whole and saying the same."""
    result, traj, flags = _files(tmp_path)
    srv = RawServe(ELEC, *flags, cwd=tmp_path)
    srv.initialize()
    srv.call("set_control", {"control": "GEN 1", "position": "OFF"})
    srv.proc.send_signal(signal.SIGINT)
    time.sleep(0.1)
    if srv.proc.poll() is None:
        srv.proc.send_signal(signal.SIGTERM)
    assert srv.proc.wait(60) == 0
    assert srv.proc.stderr.read() == b""
    verdict = read_json(result)
    assert (verdict["reason"], verdict["tool_calls_used"]) == ("end_turn_without_done", 1)
    assert [(e["type"], e.get("reason")) for e in read_events(traj)][-1] == ("final", "end_turn_without_done")


def test_a_hangup_ignored_by_nohup_stays_ignored():
    from a320bench.ending_signals import ending_signals

    before = signal.signal(signal.SIGHUP, signal.SIG_IGN)
    try:
        assert ending_signals() == (signal.SIGINT, signal.SIGTERM)
        signal.signal(signal.SIGHUP, signal.SIG_DFL)
        assert ending_signals() == (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)
    finally:
        signal.signal(signal.SIGHUP, before)


def test_a_failed_validity_gate_exits_3_without_serving(tmp_path):
    broken = tmp_path / "gate_fails.yaml"
    broken.write_text(ELEC.read_text().replace("must_appear: [ELEC GEN 1 FAULT]", "must_appear: [ELEC GEN 2 FAULT]"))
    result, traj, flags = _files(tmp_path)
    p = subprocess.run([sys.executable, *serve_argv(broken, *flags)], input=b"", capture_output=True, timeout=30,
                       cwd=tmp_path, env=_env())
    assert p.returncode == 3
    assert p.stdout == b""
    err = p.stderr.decode()
    assert "validity gate failed" in err and "expected on the ECAM but not shown: ELEC GEN 2 FAULT" in err
    verdict = read_json(result)
    assert (verdict["reason"], verdict["gate"]["passed"]) == ("invalid_scenario", False)
    assert [e["type"] for e in read_events(traj)] == ["meta", "setup", "final"]


def test_a_broken_scenario_file_exits_2_with_one_line_per_problem(tmp_path):
    broken = tmp_path / "broken.yaml"
    broken.write_text(ELEC.read_text().replace("title: ", "titel: "))
    p = subprocess.run([sys.executable, *serve_argv(broken)], input=b"", capture_output=True, timeout=30,
                       cwd=tmp_path, env=_env())
    assert p.returncode == 2
    assert p.stdout == b""
    assert p.stderr.decode().splitlines() == [
        f"error: {broken}: title: required field is missing",
        f"error: {broken}: titel: unknown field (not in the scenario schema)",
    ]


def test_an_unknown_profile_exits_2(tmp_path):
    p = subprocess.run([sys.executable, *serve_argv(ELEC, "--profile", "god")], input=b"", capture_output=True,
                       timeout=30, cwd=tmp_path, env=_env())
    assert p.returncode == 2
    assert "unknown profile 'god' (profiles: benchmark, crew, dev, learning)" in p.stderr.decode()


def _env() -> dict[str, str]:
    import os

    return {**os.environ, **child_env()}
