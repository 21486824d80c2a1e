"""The real Claude Code takes what `a320-bench mcp-config --client claude-code` prints -- the `claude mcp add`
line and the JSON for --mcp-config -- and flies a served episode that `score` names after it (offline, against
the fake Messages API)."""

from __future__ import annotations

import json
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from a320bench.bridge.clients.fake_messages_api import tool_use, turn
from a320bench.bridge.mcp_config import render
from a320bench.bridge.score.scorecard import score_file
from tests.clients.client_bed import PROCEDURE, SCENARIO, SCENARIO_ID, events, mcp

pytestmark = [pytest.mark.realclient, pytest.mark.slow]

SCRIPT = [turn(tool_use(mcp(name), args)) for name, args in PROCEDURE] + [turn(text="Handled.")]


def claude_p(claude, cwd: Path, *config: str, connect_timeout_ms: str | None = "120000"):
    """`claude -p` by hand, as a user would, with our tools allowed (nobody answers a prompt in -p). Returns the
    run, the servers its system/init lists and the number of model requests."""
    with claude.api(SCRIPT) as api:
        # -p waits for a stdio server to connect only when told so (Claude Code 2.1.332), and then for one
        # of the user's configuration (`claude mcp add`) 5 s at most unless MCP_CONNECT_TIMEOUT_MS says more
        # (for --mcp-config's, up to MCP_TIMEOUT, 30 s): a loaded machine can start `serve` slower than that
        claude.monkeypatch.setenv("MCP_CONNECTION_NONBLOCKING", "false")
        if connect_timeout_ms is None:
            claude.monkeypatch.delenv("MCP_CONNECT_TIMEOUT_MS", raising=False)
        else:
            claude.monkeypatch.setenv("MCP_CONNECT_TIMEOUT_MS", connect_timeout_ms)
        done = subprocess.run([str(claude.exe), "-p", "Handle the situation.", *config,
                               "--allowedTools", "mcp__a320", "--output-format", "stream-json", "--verbose"],
                              cwd=cwd, stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=240)
    return done, json.loads(done.stdout.splitlines()[0])["mcp_servers"], len(api.main_requests)


def fly(claude, cwd: Path, source: str, *config: str) -> subprocess.CompletedProcess:
    done, servers, requests = claude_p(claude, cwd, *config)
    assert servers == [{"name": "a320", "source": source, "status": "connected"}], done.stderr[-500:]
    assert done.returncode == 0 and requests == len(SCRIPT)
    return done


def served_episodes(state: Path) -> list[Path]:
    return sorted((state / "a320-bench" / "served" / SCENARIO_ID).glob("*.jsonl"))


def check_flown_by_claude_code(path: Path) -> None:
    evs = events(path)
    assert [(e["name"], e["arguments"]) for e in evs if e["type"] == "tool_call"] == [tuple(c) for c in PROCEDURE]
    (report,) = [e for e in evs if e["type"] == "client_report"]
    assert (report["client"], report["client_version"]) == ("claude-code", "2.1.332")
    card = score_file(path)
    assert (card.model, card.status, card.compliant_success) == ("claude-code [served]", "valid", True)


def test_claude_mcp_add_as_printed_registers_a_server_that_claude_flies_from_any_folder(claude, tmp_path,
                                                                                        monkeypatch):
    state = tmp_path / "state"
    monkeypatch.setenv("XDG_STATE_HOME", str(state))
    add = render("claude-code", None, "benchmark", as_json=False).splitlines()[1]
    argv = shlex.split(add)
    assert argv[0] == str(claude.exe)  # A320_BENCH_CLAUDE: the claude this test bed pins
    added = subprocess.run(argv, cwd=tmp_path, stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=120)
    assert added.returncode == 0, added.stderr
    assert json.loads((claude.home / ".claude.json").read_text())["mcpServers"]["a320"]["args"] == argv[argv.index(
        "--") + 2:]

    elsewhere = tmp_path / "some" / "other" / "folder"
    elsewhere.mkdir(parents=True)
    fly(claude, elsewhere, "user")
    (path,) = served_episodes(state)
    check_flown_by_claude_code(path)


def test_the_printed_json_is_a_config_claude_takes_with_mcp_config(claude, tmp_path, monkeypatch):
    state = tmp_path / "state"
    monkeypatch.setenv("XDG_STATE_HOME", str(state))
    config = tmp_path / "mcp.json"
    config.write_text(render("claude-code", None, "benchmark", as_json=True))
    fly(claude, tmp_path, "dynamic", "--mcp-config", str(config), "--strict-mcp-config")
    (path,) = served_episodes(state)
    check_flown_by_claude_code(path)


def test_claude_p_waits_5_s_for_a_server_of_the_users_configuration_unless_told_longer(claude, tmp_path):
    """What the README tells a user of `claude mcp add` on a busy machine: a server slower than 5 s to answer
    is `pending` (no tools) unless MCP_CONNECT_TIMEOUT_MS gives it longer."""
    slow = f"sleep 7; exec {shlex.quote(sys.executable)} -m a320bench serve --scenario {shlex.quote(str(SCENARIO))}"
    added = subprocess.run([str(claude.exe), "mcp", "add", "--scope", "user", "a320", "--", "sh", "-c", slow],
                           cwd=tmp_path, stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=120)
    assert added.returncode == 0, added.stderr
    _, servers, _ = claude_p(claude, tmp_path, connect_timeout_ms=None)
    assert servers == [{"name": "a320", "source": "user", "status": "pending"}]
    done, servers, _ = claude_p(claude, tmp_path, connect_timeout_ms="60000")
    assert servers == [{"name": "a320", "source": "user", "status": "connected"}], done.stderr[-500:]
