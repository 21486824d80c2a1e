"""The real MCP Inspector CLI (pinned by .ci/install-node-tools) against `a320-bench serve --http`: the
tools over Streamable HTTP behind a bearer token, with the verdict and trajectory of a stdio serve."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from tests.clients.client_bed import SCENARIO
from tests.fakes.node_tools import require

pytestmark = [pytest.mark.realclient, pytest.mark.slow]

ROOT = Path(__file__).resolve().parents[2]
BENCHMARK = ["read_ecam", "read_system_page", "list_controls", "set_control", "wait", "report_done"]
TOKEN = "test-token-0123456789abcdef"


@pytest.fixture
def served(tmp_path):
    """`serve --http` on a free loopback port; yields (url, result file, trajectory file, process)."""
    result, trajectory = tmp_path / "verdict.json", tmp_path / "episode.jsonl"
    proc = subprocess.Popen([sys.executable, "-m", "a320bench", "serve", "--scenario", str(SCENARIO), "--http",
                             "--result", str(result), "--trajectory", str(trajectory)],
                            env={**os.environ, "A320_BENCH_TOKEN": TOKEN}, stdin=subprocess.DEVNULL,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        first = proc.stderr.readline()
        assert first.startswith("serving elec_gen1_fault_reset_fails (benchmark profile) at http://127.0.0.1:"), first
        url = first.split(" at ")[1].split(";")[0]
        assert url.endswith("/mcp")
        yield url, result, trajectory, proc
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


def readme_http_snippets() -> tuple[dict, dict, dict]:
    """The VS Code, Cursor and Claude Desktop configs of the README's "Over HTTP" paragraph."""
    part = (ROOT / "README.md").read_text().split("**Over HTTP**", 1)[1].split("The scenario's task prompt", 1)[0]
    vscode, cursor, desktop = (json.loads(block) for block in re.findall(r"```json\n(.*?)```", part, re.S))
    return vscode, cursor, desktop


def test_the_readme_http_snippets_point_every_client_at_the_served_url_with_the_bearer_token():
    vscode, cursor, desktop = readme_http_snippets()
    server = vscode["servers"]["a320-http"]
    assert (server["type"], server["url"]) == ("http", "http://127.0.0.1:8765/mcp")
    assert server["headers"] == {"Authorization": "Bearer ${input:a320-token}"}
    assert vscode["inputs"][0]["id"] == "a320-token" and vscode["inputs"][0]["password"] is True
    assert cursor["mcpServers"]["a320-http"] == {"url": server["url"], "headers": {
        "Authorization": "Bearer YOUR_A320_BENCH_TOKEN"}}
    args = desktop["mcpServers"]["a320-http"]["args"]
    assert args[2:] == [server["url"], "--header", "Authorization: Bearer ${A320_BENCH_TOKEN}"]


def inspector(url: str, *method: str, tmp_path, token: str | None = TOKEN) -> subprocess.CompletedProcess:
    """The Inspector CLI with the README's header (the VS Code snippet's, its token filled in)."""
    exe = require("inspector")
    vscode, _, _ = readme_http_snippets()
    template = vscode["servers"]["a320-http"]["headers"]["Authorization"]
    header = ["--header", f"Authorization: {template.replace('${input:a320-token}', token)}"] if token else []
    return subprocess.run([str(exe), "--cli", url, "--transport", "http", *header, *method], capture_output=True,
                          text=True, timeout=60, stdin=subprocess.DEVNULL, cwd=tmp_path,
                          env={**os.environ, "HOME": str(tmp_path)})  # its catalogue file stays in tmp_path


def test_the_inspector_over_http_lists_the_tools_calls_read_ecam_and_the_verdict_is_kept(served, tmp_path):
    url, result, trajectory, proc = served
    listed = inspector(url, "--method", "tools/list", tmp_path=tmp_path)
    assert listed.returncode == 0, listed.stderr
    assert sorted(t["name"] for t in json.loads(listed.stdout)["tools"]) == sorted(BENCHMARK)

    called = inspector(url, "--method", "tools/call", "--tool-name", "read_ecam", tmp_path=tmp_path)
    assert called.returncode == 0, called.stderr
    content = json.loads(called.stdout)
    assert content.get("isError") is not True
    assert [a["title"] for a in content["structuredContent"]["alerts"]] == ["ELEC GEN 1 FAULT"]

    refused = inspector(url, "--method", "tools/call", "--tool-name", "read_ecam", tmp_path=tmp_path, token="wrong-token")
    assert refused.returncode != 0

    proc.send_signal(signal.SIGTERM)
    _, err = proc.communicate(timeout=30)
    assert proc.returncode == 0, err
    assert TOKEN not in err
    evs = [json.loads(line) for line in trajectory.read_text().splitlines()]
    assert [e["type"] for e in evs] == ["meta", "setup", "tool_call", "final"]  # one call: the refused one never ran
    assert (evs[0]["entry"], evs[0]["transport"]) == ("serve", "http")
    assert evs[2]["name"] == "read_ecam"
    assert evs[-1]["reason"] == "end_turn_without_done"
    verdict = json.loads(result.read_text())
    assert (verdict["reason"], verdict["tool_calls_used"]) == ("end_turn_without_done", 1)
    assert TOKEN not in trajectory.read_text() + result.read_text()


def test_serving_beyond_loopback_without_a_token_is_refused_in_one_line(tmp_path):
    env = {k: v for k, v in os.environ.items() if k != "A320_BENCH_TOKEN"}
    p = subprocess.run([sys.executable, "-m", "a320bench", "serve", "--scenario", str(SCENARIO), "--http",
                        "--host", "0.0.0.0"], env=env, capture_output=True, text=True, timeout=60,
                       stdin=subprocess.DEVNULL)
    assert p.returncode == 2
    assert p.stderr.splitlines() == ["error: --host 0.0.0.0: serving beyond loopback needs a bearer token in "
                                     "$A320_BENCH_TOKEN"]
