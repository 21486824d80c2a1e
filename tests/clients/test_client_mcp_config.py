"""The real Claude Code takes what `a320-bench mcp-config --client claude-code` prints -- the `claude mcp add`
line and the JSON for --mcp-config -- and flies a served episode that `score` names after it (offline, against
the fake Messages API)."""

from __future__ import annotations

import json
import shlex
import subprocess
from pathlib import Path

import pytest

from a320bench.bridge.clients.fake_messages_api import tool_use, turn
from a320bench.bridge.mcp_config import render
from a320bench.bridge.score.scorecard import score_file
from tests.clients.client_bed import PROCEDURE, SCENARIO_ID, events, mcp

pytestmark = [pytest.mark.realclient, pytest.mark.slow]

SCRIPT = [turn(tool_use(mcp(name), args)) for name, args in PROCEDURE] + [turn(text="Handled.")]


def fly(claude, tmp_path: Path, source: str, *config: str) -> subprocess.CompletedProcess:
    """`claude -p` by hand, as a user would, with our tools allowed (nobody answers a prompt in -p)."""
    with claude.api(SCRIPT) as api:
        # -p does not wait for a stdio server to connect unless told so (Claude Code 2.1.332)
        claude.monkeypatch.setenv("MCP_CONNECTION_NONBLOCKING", "false")
        done = subprocess.run([str(claude.exe), "-p", "Handle the situation.", *config,
                               "--allowedTools", "mcp__a320", "--output-format", "stream-json", "--verbose"],
                              cwd=tmp_path, stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=240)
    init = json.loads(done.stdout.splitlines()[0])
    assert init["mcp_servers"] == [{"name": "a320", "source": source, "status": "connected"}], done.stderr[-500:]
    assert done.returncode == 0 and len(api.main_requests) == len(SCRIPT)
    return done


def served_episodes(state: Path) -> list[Path]:
    return sorted((state / "a320-bench" / "served" / SCENARIO_ID).glob("*.jsonl"))


def check_flown_by_claude_code(path: Path) -> None:
    evs = events(path)
    assert [(e["name"], e["arguments"]) for e in evs if e["type"] == "tool_call"] == [tuple(c) for c in PROCEDURE]
    (report,) = [e for e in evs if e["type"] == "client_report"]
    assert (report["client"], report["client_version"]) == ("claude-code", "2.1.332")
    card = score_file(path)
    assert (card.model, card.status, card.compliant_success) == ("claude-code", "valid", True)


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
