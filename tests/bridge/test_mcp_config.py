"""`a320-bench mcp-config`: a configuration each client reads, absolute paths, outputs outside the checkout,
and a server started from it that records who flew it."""

from __future__ import annotations

import json
import shlex
import sys
from pathlib import Path

import pytest

from a320bench.bridge.cli import main

ROOT = Path(__file__).resolve().parents[2]
SCENARIO = ROOT / "scenarios" / "elec" / "gen1_fault_reset_fails.yaml"
SCENARIO_ID = "elec_gen1_fault_reset_fails"


@pytest.fixture
def state_home(tmp_path, monkeypatch) -> Path:
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    return tmp_path / "state"


def printed(capsys, *args: str) -> tuple[int, str, str]:
    rc = main(["mcp-config", *args])
    out, err = capsys.readouterr()
    return rc, out, err


def expected_argv(state_home: Path, *profile: str) -> list[str]:
    served = state_home / "a320-bench" / "served" / SCENARIO_ID
    return [str(Path(sys.executable).parent / "a320-bench"), "serve", "--scenario", str(SCENARIO), *profile,
            "--result", f"{served}/{{started}}.verdict.json", "--trajectory", f"{served}/{{started}}.jsonl"]


@pytest.mark.parametrize(("client", "shape"), [
    ("claude-code", lambda cmd, args: {"mcpServers": {"a320": {"type": "stdio", "command": cmd, "args": args}}}),
    ("claude-desktop", lambda cmd, args: {"mcpServers": {"a320": {"command": cmd, "args": args}}}),
    ("cursor", lambda cmd, args: {"mcpServers": {"a320": {"command": cmd, "args": args}}}),
    ("vscode", lambda cmd, args: {"servers": {"a320": {"type": "stdio", "command": cmd, "args": args}}}),
])
def test_each_client_gets_its_own_json_shape_with_absolute_paths_and_outputs_outside_the_checkout(
        client, shape, state_home, capsys):
    rc, out, err = printed(capsys, "--client", client, "--json")
    assert (rc, err) == (0, "")
    argv = expected_argv(state_home)
    assert json.loads(out) == shape(argv[0], argv[1:])
    assert Path(argv[0]).is_file()  # this installation's a320-bench, runnable from any folder
    assert not str(state_home).startswith(str(ROOT))


def test_the_human_form_says_where_to_paste_and_holds_the_same_json(state_home, capsys):
    rc, out, _ = printed(capsys, "--client", "vscode", "--scenario", str(SCENARIO), "--profile", "dev")
    assert rc == 0
    lines = out.splitlines()
    assert lines[0] == "# vscode: paste into .vscode/mcp.json of your workspace (or run `MCP: Open User Configuration`)"
    body = "\n".join(lines[1:lines.index("}") + 1])
    argv = expected_argv(state_home, "--profile", "dev")
    assert json.loads(body) == {"servers": {"a320": {"type": "stdio", "command": argv[0], "args": argv[1:]}}}
    served = state_home / "a320-bench" / "served" / SCENARIO_ID
    assert lines[lines.index("}") + 3] == f"#   a320-bench score {served}"


def test_claude_code_gets_a_claude_mcp_add_line_naming_the_installed_claude_when_none_is_on_path(
        state_home, capsys, tmp_path, monkeypatch):
    tools = tmp_path / "node-tools"
    exe = tools / "node_modules" / ".bin" / "claude"
    exe.parent.mkdir(parents=True)
    exe.write_text("#!/bin/sh\n")
    exe.chmod(0o755)
    monkeypatch.setenv("A320_BENCH_NODE_TOOLS", str(tools))
    monkeypatch.delenv("A320_BENCH_CLAUDE", raising=False)
    monkeypatch.setenv("PATH", str(tmp_path / "empty"))
    rc, out, _ = printed(capsys, "--client", "claude-code")
    assert rc == 0
    add = out.splitlines()[1]
    assert shlex.split(add) == [str(exe), "mcp", "add", "--scope", "user", "a320", "--", *expected_argv(state_home)]


@pytest.mark.parametrize(("args", "line"), [
    (["--scenario", "nope.yaml"], "error: --scenario nope.yaml: no such file (give one scenario .yaml)"),
    (["--scenario", "apu_fire_ground"], "error: --scenario apu_fire_ground: no such file (give one scenario .yaml); "
     "that is the id of a built-in scenario: give its file, scenarios/apu/apu_fire_ground.yaml"),
    (["--profile", "nope"], None),
    (["--scenario", str(ROOT / "tests" / "scenarios" / "broken" / "unknown_failure.yaml")],
     f"error: {ROOT}/tests/scenarios/broken/unknown_failure.yaml: failures[0].id: unknown failure id "
     "'elec_gen1_exploded'"),
])
def test_a_bad_scenario_or_profile_is_one_line_and_exit_2(args, line, state_home, capsys, monkeypatch):
    monkeypatch.chdir(ROOT)  # a built-in file is named relative to the working folder below it
    rc, out, err = printed(capsys, "--client", "cursor", *args)
    assert (rc, out) == (2, "")
    assert len(err.strip().splitlines()) == 1 and err.startswith("error: ")
    if line is not None:
        assert err.strip() == line
    assert not state_home.exists()  # nothing is created until a server starts


@pytest.mark.slow
@pytest.mark.anyio
async def test_a_server_started_from_the_config_keeps_each_start_apart_records_the_client_and_forgets_health_checks(state_home, tmp_path):
    from mcp import Client
    from mcp.client.stdio import StdioServerParameters, stdio_client
    from mcp_types import Implementation

    from a320bench.bridge.mcp_config import render
    from a320bench.bridge.score.scorecard import score_file

    server = json.loads(render("cursor", None, "benchmark", as_json=True))["mcpServers"]["a320"]
    params = StdioServerParameters(command=server["command"], args=server["args"], cwd=str(tmp_path))
    # The server's stderr to a file: stdio_client's default is the sys.stderr of when mcp.client.stdio was first
    # imported, which in this process may have been another test's captured stream (it has no file descriptor).
    with open(tmp_path / "server.err", "w") as errlog:
        for version in ("1.0", "2.0"):
            transport = stdio_client(params, errlog=errlog)
            async with Client(transport, client_info=Implementation(name="probe-client", version=version)) as c:
                await c.call_tool("read_ecam", {})
                await c.call_tool("report_done", {"diagnosis": "GEN 1 fault", "actions_summary": "none"})
        async with Client(stdio_client(params, errlog=errlog)) as c:  # a health check (`claude mcp list`)
            assert len((await c.list_tools()).tools) == 6  # tools listed, none called
    served = state_home / "a320-bench" / "served" / SCENARIO_ID
    trajectories = sorted(served.glob("*.jsonl"))
    assert len(trajectories) == 2 and len(list(served.glob("*.verdict.json"))) == 2
    cards = [score_file(p) for p in trajectories]
    assert [(c.model, c.served) for c in cards] == [("probe-client [served]", True)] * 2  # by hand, not a run
    reports = [[json.loads(x) for x in p.read_text().splitlines() if '"client_report"' in x] for p in trajectories]
    assert [[(r["client"], r["client_version"]) for r in rs] for rs in reports] == [[("probe-client", "1.0")],
                                                                                    [("probe-client", "2.0")]]
