"""The real MCP Inspector CLI (`@modelcontextprotocol/inspector` 2.12.0, --cli mode, pinned by
.ci/install-node-tools) against `python -m a320bench serve` over stdio."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from tests.clients.client_bed import SCENARIO
from tests.fakes.node_tools import require

pytestmark = [pytest.mark.realclient, pytest.mark.slow]

BENCHMARK = ["read_ecam", "read_system_page", "list_controls", "set_control", "wait", "report_done"]
DEV_ONLY = ["inject_failure", "clear_failure", "list_failures", "set_world", "active_failures", "reset"]


def inspector(profile: str, *method: str, tmp_path) -> subprocess.CompletedProcess:
    exe = require("inspector")
    argv = [str(exe), "--cli", sys.executable, "-m", "a320bench", "serve", "--scenario", str(SCENARIO),
            "--profile", profile, *method]
    return subprocess.run(argv, capture_output=True, text=True, timeout=60, stdin=subprocess.DEVNULL, cwd=tmp_path)


def test_the_benchmark_profile_lists_exactly_the_six_agent_tools(tmp_path):
    p = inspector("benchmark", "--method", "tools/list", tmp_path=tmp_path)
    assert p.returncode == 0, p.stderr
    tools = json.loads(p.stdout)["tools"]
    assert sorted(t["name"] for t in tools) == sorted(BENCHMARK)
    listing = p.stdout.lower()
    for word in ("inject", "failure_id", "active_failures", "snapshot", "gcu_trip"):
        assert word not in listing


def test_the_dev_profile_adds_the_privileged_tools(tmp_path):
    p = inspector("dev", "--method", "tools/list", tmp_path=tmp_path)
    assert p.returncode == 0, p.stderr
    assert sorted(t["name"] for t in json.loads(p.stdout)["tools"]) == sorted(BENCHMARK + DEV_ONLY)


def test_read_ecam_shows_the_injected_caution_as_structured_content(tmp_path):
    p = inspector("benchmark", "--method", "tools/call", "--tool-name", "read_ecam", tmp_path=tmp_path)
    assert p.returncode == 0, p.stderr
    result = json.loads(p.stdout)
    assert result.get("isError") is not True
    assert [a["title"] for a in result["structuredContent"]["alerts"]] == ["ELEC GEN 1 FAULT"]


def test_a_privileged_tool_does_not_exist_for_a_benchmark_client(tmp_path):
    # Measured: the Inspector CLI exits 5 for an unknown tool, with a JSON error on stderr.
    p = inspector("benchmark", "--method", "tools/call", "--tool-name", "inject_failure",
                  "--tool-arg", "failure_id=elec_gen1_gcu_trip", tmp_path=tmp_path)
    assert p.returncode == 5
    error = json.loads(p.stderr.strip().splitlines()[-1])["error"]
    assert error["code"] == "tool_not_found" and "inject_failure" in error["message"]
