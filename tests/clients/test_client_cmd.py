"""`--client cmd`: any MCP client from a command template -- here a small standard-library Python
client over Streamable HTTP (tests/clients/sandboxed_agent.py), in its sandbox. No Node needed."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from a320bench.bridge import exitcodes
from a320bench.bridge.clients.command import TemplateError, parse_template, substitute
from a320bench.bridge.score.scorecard import score_file
from a320bench.server.surface.profiles import load_profile
from tests.clients.client_bed import AGENT, PROCEDURE, events, last, python_cmd, run, tool_calls, trajectory

PROCEDURE = [["read_ecam", {}],
             ["set_control", {"control": "GEN 1", "position": "OFF"}],
             ["set_control", {"control": "GEN 1", "position": "ON"}],
             ["set_control", {"control": "GEN 1", "position": "OFF"}],
             ["report_done", {"diagnosis": "GEN 1 fault, reset unsuccessful", "actions_summary": "GEN 1 off, on, off"}]]


@pytest.mark.slow
@pytest.mark.usefixtures("sandboxed")
def test_a_command_template_client_flies_the_procedure_through_the_episodes_http_server(tmp_path):
    template = python_cmd(str(AGENT), "play", "{config}", "{server}", json.dumps(PROCEDURE)) + \
        " --prompt {prompt} --system {system_prompt}"
    out = tmp_path / "out"
    rc = run(out, "--client", "cmd", "--client-cmd", template, "--client-model", "py-sdk")
    assert rc == exitcodes.OK

    path = trajectory(out, "cmd-py-sdk")
    evs = events(path)
    assert [[n, a] for n, a in tool_calls(evs)] == PROCEDURE
    # The bridge served the episode: the final comes last, once the client is gone, after its report.
    assert [e["type"] for e in evs] == ["meta", "setup", *["tool_call"] * len(PROCEDURE), "client_report", "final"]
    final = last(evs, "final")
    assert final["reason"] == "agent_done" and final["success"]["passed"] is True
    report = evs[-2]
    assert report["error"] is None and report["exit_code"] == 0
    assert (report["client"], report["model"], report["usage"], report["cost_usd"]) == ("cmd", "py-sdk", None, None)
    assert report["invocation"]["argv"][:3] == [str(Path(sys.executable).resolve()), str(AGENT), "play"]
    assert report["invocation"]["mcp_config"]["mcpServers"]["a320"]["headers"] == {"Authorization": "Bearer [REDACTED]"}
    assert evs[0]["transport"] == "http" and evs[0]["entry"] == "run"

    # Each placeholder became exactly one argument, newlines and quotes intact, no shell in between.
    log = path.with_name("cmd-py-sdk__run000.cmd.log")
    given = json.loads(log.read_text().splitlines()[0])
    assert given == {"prompt": evs[0]["scenario"]["task_prompt"], "system": load_profile("benchmark").instructions}

    card = score_file(path)
    assert (card.status, card.compliant_success, card.model) == ("valid", True, "cmd/py-sdk")


@pytest.mark.parametrize("template, message", [
    ("my-client '{config}", "cannot be split into arguments"),
    ("my-client --prompt {prompt}", "must pass {config}"),
])
def test_a_bad_command_template_is_a_usage_error_before_any_episode(tmp_path, capsys, template, message):
    assert run(tmp_path / "out", "--client", "cmd", "--client-cmd", template) == exitcodes.USAGE
    assert message in capsys.readouterr().err
    assert not (tmp_path / "out").exists()
    with pytest.raises(TemplateError, match="is empty"):
        parse_template("  ")


def test_placeholders_are_replaced_in_one_pass_inside_each_argument():
    parts = parse_template("client --mcp={config} -p {prompt} '{server} x' {unknown}")
    values = {"config": "/c.json", "prompt": "fly {server}", "system_prompt": "s", "server": "a320"}
    assert substitute(parts, values) == ["client", "--mcp=/c.json", "-p", "fly {server}", "a320 x", "{unknown}"]
