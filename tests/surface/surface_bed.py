"""Test bed for the MCP surface (helpers; fixtures are in conftest.py): open an episode, serve it, connect a real SDK client.

In-memory transports: `mode="auto"` (the stateless 2026-07-28 path, no
initialize) and `mode="legacy"` (the initialize handshake). Stdio tests spawn
`python -m a320bench serve` and are marked slow.
"""

from __future__ import annotations

import json
import os
import sys
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from a320bench.server.episode import Episode
from a320bench.server.scenario.loader import load
from a320bench.server.scenario.model import Budget, Scenario
from a320bench.server.session import open_episode
from a320bench.server.trajectory import Recorder

ROOT = Path(__file__).resolve().parents[2]
SCENARIOS = ROOT / "scenarios"
ELEC = SCENARIOS / "elec" / "gen1_fault_reset_fails.yaml"

BENCHMARK_TOOLS = ["read_ecam", "read_system_page", "list_controls", "set_control", "wait", "report_done"]
DEV_ONLY_TOOLS = ["inject_failure", "clear_failure", "list_failures", "set_world", "active_failures", "reset"]


def elec_scenario(**budget: Any) -> Scenario:
    sc = load(ELEC)
    if budget:
        sc = sc.model_copy(update={"budget": Budget(**{**sc.budget.model_dump(), **budget})})
    return sc


def new_episode(sc: Scenario | None = None, profile: str = "benchmark", path: Path | None = None) -> Episode:
    from a320bench.server.surface import load_profile

    p = load_profile(profile)
    return open_episode(sc or elec_scenario(), Recorder(path), profile=p.name, tools=list(p.tools),
                        instructions=p.instructions)


@asynccontextmanager
async def connect(ep: Episode, profile: str = "benchmark", mode: str = "auto") -> AsyncIterator[Any]:
    from mcp import Client

    from a320bench.server.surface import create_server

    async with Client(create_server(ep, profile), mode=mode) as client:
        yield client


def tool_calls(ep: Episode) -> list[dict[str, Any]]:
    return [e for e in ep.recorder.events if e["type"] == "tool_call"]


def finals(ep: Episode) -> list[dict[str, Any]]:
    return [e for e in ep.recorder.events if e["type"] == "final"]


def error_text(result: Any) -> str:
    assert result.is_error, result
    return "\n".join(c.text for c in result.content if c.type == "text")


# ---- stdio ---------------------------------------------------------------------------


def serve_argv(scenario: Path, *extra: str) -> list[str]:
    return ["-m", "a320bench", "serve", "--scenario", str(scenario), *extra]


def child_env() -> dict[str, str]:
    """What a spawned server needs beyond the SDK's default environment (a custom PYTHONPATH, if any)."""
    env = {}
    if os.environ.get("PYTHONPATH"):
        env["PYTHONPATH"] = os.environ["PYTHONPATH"]
    return env


def stdio_params(scenario: Path, *extra: str, cwd: Path) -> Any:
    from mcp.client.stdio import StdioServerParameters

    return StdioServerParameters(command=sys.executable, args=serve_argv(scenario, *extra), env=child_env(),
                                 cwd=str(cwd))


def read_json(path: Path) -> dict[str, Any]:
    return json.loads(path.read_text(encoding="utf-8"))


def read_events(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


class RawServe:
    """`a320-bench serve` as a subprocess spoken to in raw JSON-RPC lines (to watch exit codes and signals)."""

    def __init__(self, scenario: Path, *extra: str, cwd: Path):
        import queue
        import subprocess
        import threading

        env = {**os.environ, **child_env()}
        self.proc = subprocess.Popen([sys.executable, *serve_argv(scenario, *extra)], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=cwd, env=env)
        self.lines: queue.Queue[bytes] = queue.Queue()
        self.stdout: list[bytes] = []

        def pump() -> None:
            for line in self.proc.stdout:  # type: ignore[union-attr]
                self.stdout.append(line)
                self.lines.put(line)

        threading.Thread(target=pump, daemon=True).start()
        self._id = 0

    def send(self, method: str, params: dict[str, Any] | None = None, *, notify: bool = False) -> int:
        msg: dict[str, Any] = {"jsonrpc": "2.0", "method": method, "params": params or {}}
        if not notify:
            self._id += 1
            msg["id"] = self._id
        self.proc.stdin.write((json.dumps(msg) + "\n").encode())  # type: ignore[union-attr]
        self.proc.stdin.flush()  # type: ignore[union-attr]
        return self._id

    def recv(self, timeout: float = 10.0) -> dict[str, Any]:
        return json.loads(self.lines.get(timeout=timeout))

    def initialize(self) -> dict[str, Any]:
        self.send("initialize", {"protocolVersion": "2025-11-25", "capabilities": {},
                                 "clientInfo": {"name": "raw-test", "version": "0"}})
        answer = self.recv(timeout=30.0)
        self.send("notifications/initialized", notify=True)
        return answer

    def call(self, name: str, arguments: dict[str, Any]) -> dict[str, Any]:
        self.send("tools/call", {"name": name, "arguments": arguments})
        return self.recv()

    def close_stdin_and_wait(self, timeout: float) -> int:
        self.proc.stdin.close()  # type: ignore[union-attr]
        return self.proc.wait(timeout)

    def stderr(self) -> str:
        return self.proc.stderr.read().decode()  # type: ignore[union-attr]


def eventually(check, timeout_s: float = 60.0) -> bool:
    """The verdict file is written off the call path: it lags a call by one disk write
    (returns as soon as the check holds; the bound only stops a broken test)."""
    deadline = time.monotonic() + timeout_s
    while True:
        try:
            if check():
                return True
        except (OSError, ValueError):
            pass
        if time.monotonic() > deadline:
            return False
        time.sleep(0.01)
