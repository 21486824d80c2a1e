"""An external client cannot reach the answer: a `--client cmd` agent that hunts for it, the way an
agent with file and shell tools would, finds nothing, and the server refuses it without the token."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from a320bench.bridge import exitcodes
from a320bench.bridge.selection import scenario_files
from a320bench.server.scenario.loader import load_all
from a320bench.server.sim.failures import FAILURES
from tests.clients.client_bed import AGENT, SCENARIO, SCENARIO_ID, events, python_cmd, run, trajectory

pytestmark = [pytest.mark.slow, pytest.mark.usefixtures("sandboxed")]


def forbidden_words(out: Path) -> list[str]:
    """Every failure id, every scenario id, the scenario's procedure steps as written (in its file and as
    JSON), the words of the answer and of the verdict, and where the run is recorded."""
    scenarios, problems = load_all(scenario_files(None))
    assert not problems and len(scenarios) > 50
    steps_as_written = [m.group(1) for m in re.finditer(r"- (\{control: [^}]*\})", SCENARIO.read_text())]
    sc = next(s for s in scenarios if s.id == SCENARIO_ID)
    steps_as_json = [json.dumps({"control": st.control, "position": st.position})[1:-1]
                     for block in sc.ground_truth.procedure for st in block.steps]
    assert len(steps_as_written) >= 3 and steps_as_json
    return [*sorted(FAILURES), *(s.id for s in scenarios), *steps_as_written, *steps_as_json,
            SCENARIO.stem, "ground_truth", "success", str(out.resolve())]


def hunt(out: Path, *args: str) -> dict:
    assert run(out, "--client", "cmd", "--client-cmd", python_cmd(str(AGENT), "hunt", "{config}", "{server}"),
               *args) == exitcodes.OK
    return json.loads(trajectory(out, "cmd").with_name("cmd__run000.cmd.log").read_text())


def findings(found: dict[str, str], words: list[str]) -> dict[str, list[str]]:
    return {w: [where for where, text in found.items() if w in text] for w in words
            if any(w in text for text in found.values())}


def test_a_client_hunting_for_the_answer_finds_nothing_and_is_refused_without_the_token(tmp_path):
    out = tmp_path / "out"
    # Two episodes at once: the other one's processes and files are there to be found, were they visible.
    report = hunt(out, "--runs", "2", "--workers", "2")
    found = report["found"]

    assert findings(found, forbidden_words(out)) == {}
    assert report["http_status"] == {"no token": 401, "wrong token": 401, "the token": 200}
    assert json.loads(found["server with no token"]) is None
    assert report["pids"] == [1, 2]  # the sandbox's init and the agent: no other process is visible
    assert found["import a320bench"] == "None"
    # What it did see: an empty working directory, a HOME holding its MCP config, and a config naming
    # only the URL (an opaque episode id in its path) and the token.
    assert found["list /home/agent/work"] == ""
    assert found["list /home/agent"] == "mcp.json work"
    config = json.loads(found["config"])["mcpServers"]["a320"]
    assert sorted(config) == ["headers", "type", "url"] and config["type"] == "http"
    assert re.fullmatch(r"http://127\.0\.0\.1:\d+/[0-9a-f]{16}/mcp", config["url"])
    assert config["headers"] == {"Authorization": "Bearer [REDACTED]"}  # the token, scrubbed from the log
    # The checkout shows only the agent's own file, bound read-only for it.
    checkout = Path(__file__).resolve().parents[2]
    assert found[f"list {checkout}"] == "tests" and found[f"list {AGENT.parent}"] == AGENT.name

    # Both episodes ran to an agent result (it never reported done), each with its own id and server.
    metas = [events(trajectory(out, "cmd", r))[0] for r in (0, 1)]
    assert [events(trajectory(out, "cmd", r))[-1]["reason"] for r in (0, 1)] == ["end_turn_without_done"] * 2
    assert metas[0]["agent_episode_id"] != metas[1]["agent_episode_id"]
    assert metas[0]["agent_episode_id"] in config["url"] or metas[1]["agent_episode_id"] in config["url"]


def test_the_same_hunt_outside_the_sandbox_finds_the_answer(tmp_path):
    # The hunter is not blind: run by hand next to a scenario, with the stdio config `serve` users
    # write, it finds what the sandbox keeps from it.
    config = tmp_path / "mcp.json"
    config.write_text(json.dumps({"mcpServers": {"a320": {"type": "http", "url": "http://127.0.0.1:9/mcp"}}}))
    env = {**os.environ, "HOME": str(tmp_path), "HUNT_WALK": "0"}
    p = subprocess.run([sys.executable, str(AGENT), "hunt", str(config), "a320"], cwd=SCENARIO.parent,
                       capture_output=True, text=True, timeout=120, env=env)
    assert p.returncode == 0, p.stderr
    found = json.loads(p.stdout)["found"]
    hits = findings(found, forbidden_words(tmp_path / "out"))
    assert {"elec_gen1_gcu_trip", SCENARIO_ID, "ground_truth", "success", SCENARIO.stem} <= set(hits)
