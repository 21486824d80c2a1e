"""`a320-bench mcp-config`: a ready-to-paste MCP configuration that runs `serve` for a client.

Every path in it is absolute (the `a320-bench` of this installation, the scenario file),
so the client can start the server from any folder. The verdict and the trajectory go
to a folder outside the checkout, `$XDG_STATE_HOME/a320-bench/served/<scenario id>/`
(`~/.local/state/...` by default), one pair of files per start of the server
(`{started}` in the paths: serve writes its start time there), created on first use.

One shape per client (claude-code's is tested with the real claude; the others follow each
client's documentation):

    claude-code     `claude mcp add --scope user ...` (any folder), or {"mcpServers": ...} for
                    `claude --mcp-config FILE` and a project's .mcp.json
    claude-desktop  claude_desktop_config.json: {"mcpServers": {name: {command, args}}}
    cursor          ~/.cursor/mcp.json or .cursor/mcp.json: the same shape
    vscode          .vscode/mcp.json: {"servers": {name: {"type": "stdio", command, args}}}

`--json` prints the JSON alone (for a file or a script); without it, the JSON comes
with where to put it.
"""

from __future__ import annotations

import json
import os
import shlex
import shutil
import sys
from pathlib import Path
from typing import Any

from .errors import UsageError

CLIENTS = ("claude-code", "claude-desktop", "vscode", "cursor")
SERVER_NAME = "a320"
DEFAULT_SCENARIO = Path("elec") / "gen1_fault_reset_fails.yaml"  # the README's example, in the catalogue
STARTED = "{started}"  # serve replaces it with its start time: each start keeps its own files

WHERE = {
    "claude-desktop": "paste into claude_desktop_config.json (Settings > Developer > Edit Config; macOS: "
                      "~/Library/Application Support/Claude/, Windows: %APPDATA%\\Claude\\), then restart "
                      "Claude Desktop",
    "cursor": "paste into ~/.cursor/mcp.json (every project) or .cursor/mcp.json (one project)",
    "vscode": "paste into .vscode/mcp.json of your workspace (or run `MCP: Open User Configuration`)",
}


def served_dir() -> Path:
    """Where served verdicts and trajectories go: outside any checkout."""
    state = os.environ.get("XDG_STATE_HOME") or str(Path.home() / ".local" / "state")
    return Path(state).expanduser() / "a320-bench" / "served"


def server_command() -> list[str]:
    """This installation's `a320-bench`, absolute; `python -m a320bench` when the script is not beside python."""
    script = Path(sys.executable).parent / "a320-bench"
    if script.is_file() and os.access(script, os.X_OK):
        return [str(script)]
    return [str(Path(sys.executable)), "-m", "a320bench"]


def serve_argv(scenario: Path, scenario_id: str, profile: str) -> list[str]:
    folder = served_dir() / scenario_id
    argv = [*server_command(), "serve", "--scenario", str(scenario)]
    if profile != "benchmark":
        argv += ["--profile", profile]
    return argv + ["--result", str(folder / f"{STARTED}.verdict.json"),
                   "--trajectory", str(folder / f"{STARTED}.jsonl")]


def config_for(client: str, argv: list[str]) -> dict[str, Any]:
    """The JSON configuration `client` reads, for a server started by `argv`."""
    command, args = argv[0], argv[1:]
    if client == "vscode":
        return {"servers": {SERVER_NAME: {"type": "stdio", "command": command, "args": args}}}
    if client == "claude-code":
        return {"mcpServers": {SERVER_NAME: {"type": "stdio", "command": command, "args": args}}}
    return {"mcpServers": {SERVER_NAME: {"command": command, "args": args}}}


def claude_program() -> str:
    """$A320_BENCH_CLAUDE, else `claude` when it is on PATH, else the one `.ci/install-node-tools` placed."""
    from .clients.locate import ENV_CLAUDE, node_tool

    if os.environ.get(ENV_CLAUDE):
        return str(Path(os.environ[ENV_CLAUDE]).expanduser())
    if shutil.which("claude"):
        return "claude"
    cached = node_tool("claude")
    return str(cached) if cached is not None else "claude"


def _scenario(spec: str | None) -> tuple[Path, str]:
    from a320bench.server.scenario.loader import ScenarioError, load

    from .selection import builtin_scenarios_dir

    path = (Path(spec).expanduser() if spec else builtin_scenarios_dir() / DEFAULT_SCENARIO).resolve()
    if not path.is_file():
        from a320bench.scenario_hint import missing_scenario_hint

        hint = missing_scenario_hint(spec) if spec and not path.exists() else ""
        raise UsageError(f"--scenario {spec}: no such file (give one scenario .yaml){hint}")
    try:
        return path, load(path).id
    except ScenarioError as e:
        raise UsageError("; ".join(str(p) for p in e.problems)) from None


def render(client: str, scenario: str | None, profile: str, *, as_json: bool) -> str:
    from a320bench.server.surface.profiles import ProfileError, load_profile

    try:
        load_profile(profile)
    except ProfileError as e:
        raise UsageError(str(e)) from None
    path, scenario_id = _scenario(scenario)
    argv = serve_argv(path, scenario_id, profile)
    config = json.dumps(config_for(client, argv), indent=2)
    if as_json:
        return config
    folder = served_dir() / scenario_id
    after = (f"# Each start of the server is a fresh episode of {scenario_id}; its verdict and trajectory go to\n"
             f"# {folder}/ (created on first use). Score them with:\n"
             f"#   a320-bench score {folder}\n"
             "# Not isolated: a client with file tools can read the scenario; for scores, `a320-bench run --client`.")
    if client == "claude-code":
        claude = claude_program()
        add = shlex.join([claude, "mcp", "add", "--scope", "user", SERVER_NAME, "--", *argv])
        missing = "" if claude != "claude" or shutil.which("claude") else \
            " (claude is neither on PATH nor in .cache/node-tools: install Claude Code first)"
        return (f"# Claude Code: add the server once; it is then there in every folder (`claude mcp list` checks it)"
                f"{missing}\n"
                f"{add}\n"
                f"# or the same as JSON, for `claude --mcp-config FILE` or a project's .mcp.json:\n"
                f"{config}\n{after}")
    return f"# {client}: {WHERE[client]}\n{config}\n{after}"


def run_mcp_config(args: Any) -> int:
    print(render(args.client, args.scenario, args.profile, as_json=args.json))
    return 0
