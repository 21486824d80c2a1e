"""MCP overhead: a read tool call through our server vs a bare MCPServer echo tool, same transport.

    python bench/bench_mcp.py [--calls 2000] [--stdio-calls 700] [--spawns 7]

Targets (docs/architecture.md "Performance targets"): a tool call within 1.25x a bare
`MCPServer` tool returning the same result model (same output schema) in memory, and
within 1.15x over stdio; `a320-bench serve` from spawn to the first answer within 1.5x
a bare MCP server (~0.55 s). The echo rows (first round: 1.5x) stay for comparison.

Ours: `read_ecam` on the ELEC GEN 1 scenario, benchmark profile, every call
budgeted and recorded (in memory in-process; `serve` without and with
--result/--trajectory over stdio). Bare: `MCPServer` with one
`async def echo(text: str) -> str`. A second in-memory row compares against a
bare server returning the same ECAM model, which separates what our surface
adds (budget, recording, dispatch) from what the richer result costs (the SDK
client validates every structured result against its output schema).
Round trips are medians with bare and ours alternating call by call, so
background load hits both alike; spawn times alternate likewise and measure
spawn -> initialize answer read.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import anyio

ROOT = Path(__file__).resolve().parents[1]
SCENARIO = ROOT / "scenarios" / "elec" / "gen1_fault_reset_fails.yaml"

BARE_SERVER = """
import logging
logging.basicConfig(level=logging.WARNING)
from mcp.server import MCPServer

srv = MCPServer("bare", log_level="WARNING")


@srv.tool()
async def echo(text: str) -> str:
    \"\"\"Echo the text.\"\"\"
    return text


if __name__ == "__main__":
    srv.run("stdio")
"""

# The same-payload bare server over stdio: our ECAM model and schema, no budget, no recording.
BARE_ECAM_SERVER = f"""
import logging, sys
logging.basicConfig(level=logging.WARNING)
sys.path.insert(0, {str(Path(__file__).resolve().parent)!r})
from bench_mcp import bare_ecam_server

if __name__ == "__main__":
    bare_ecam_server().run("stdio")
"""


def bare_server() -> Any:
    from mcp.server import MCPServer

    srv = MCPServer("bare", log_level="WARNING")

    @srv.tool()
    async def echo(text: str) -> str:
        """Echo the text."""
        return text

    return srv


def bare_ecam_server() -> Any:
    """A bare MCPServer whose one tool returns the same ECAM read-out as ours: no budget, no recording."""
    from mcp.server import MCPServer
    from mcp.server.mcpserver.tools import Tool

    from a320bench.server.surface.registry import inline_refs
    from a320bench.server.surface.results import EcamDisplay
    from a320bench.server.surface.views import ecam_display

    ep = our_server().state.episode

    async def read_ecam() -> EcamDisplay:
        """Read the ECAM."""
        return ecam_display(ep)

    read_ecam.__annotations__["return"] = EcamDisplay  # a real type, not the string of `from __future__`
    tool = Tool.from_function(read_ecam)
    tool.fn_metadata.output_schema = inline_refs(tool.fn_metadata.output_schema)
    return MCPServer("bare-ecam", tools=[tool], log_level="WARNING")


def our_server() -> Any:
    from a320bench.server.scenario.loader import load
    from a320bench.server.scenario.model import Budget
    from a320bench.server.session import open_episode
    from a320bench.server.surface import create_server, load_profile
    from a320bench.server.trajectory import Recorder

    sc = load(SCENARIO).model_copy(update={"budget": Budget(max_tool_calls=1000, max_sim_time_s=3600)})
    p = load_profile("benchmark")
    ep = open_episode(sc, Recorder(None), profile=p.name, tools=list(p.tools), instructions=p.instructions)
    return create_server(ep, p)


async def _timed(client: Any, name: str, args: dict[str, Any]) -> float:
    """One round trip, in seconds."""
    t = time.perf_counter()
    r = await client.call_tool(name, args)
    took = time.perf_counter() - t
    assert not r.is_error, r
    return took


async def interleaved(bare: Any, ours_factory: Any, n: int, per_episode: int,
                      bare_call: tuple[str, dict[str, Any]] = ("echo", {"text": "hello"})) -> tuple[float, float]:
    """Median round trips, bare and ours alternating call by call (so background load hits both alike).

    Ours: read_ecam on a fresh episode every `per_episode` calls (its tool-call budget), as runs do.
    """
    from contextlib import AsyncExitStack

    bare_t: list[float] = []
    ours_t: list[float] = []
    for _ in range(50):  # warm-up: caches, validators, first-call paths
        await _timed(bare, *bare_call)
    done = 0
    while done < n:
        async with AsyncExitStack() as stack:
            ours = await stack.enter_async_context(ours_factory())
            for _ in range(3):  # first calls on a fresh connection list the tools, compile validators
                await _timed(ours, "read_ecam", {})
            for _ in range(min(per_episode - 3, n - done)):
                bare_t.append(await _timed(bare, *bare_call))
                ours_t.append(await _timed(ours, "read_ecam", {}))
                done += 1
    return statistics.median(bare_t), statistics.median(ours_t)


async def in_memory(n: int, mode: str, same_payload: bool = False) -> tuple[float, float]:
    from mcp import Client

    if same_payload:
        async with Client(bare_ecam_server(), mode=mode) as bare:
            return await interleaved(bare, lambda: Client(our_server(), mode=mode), n, 1000, ("read_ecam", {}))
    async with Client(bare_server(), mode=mode) as bare:
        return await interleaved(bare, lambda: Client(our_server(), mode=mode), n, 1000)


def _env() -> dict[str, str]:
    from mcp.client.stdio import get_default_environment

    env = get_default_environment()
    if os.environ.get("PYTHONPATH"):
        env["PYTHONPATH"] = os.environ["PYTHONPATH"]
    return env


def _ours_cmd(*flags: str) -> list[str]:
    return [sys.executable, "-m", "a320bench", "serve", "--scenario", str(SCENARIO), *flags]


async def over_stdio(n: int, bare_file: Path, flags: tuple[str, ...] = (),
                     bare_call: tuple[str, dict[str, Any]] = ("echo", {"text": "hello"})) -> tuple[float, float]:
    from mcp import Client
    from mcp.client.stdio import StdioServerParameters

    def params(cmd: list[str]) -> StdioServerParameters:
        return StdioServerParameters(command=cmd[0], args=cmd[1:], env=_env(), cwd=tempfile.gettempdir())

    async with Client(params([sys.executable, str(bare_file)]), mode="legacy") as bare:
        # `serve` runs the scenario's own budget (40 tool calls): a fresh process every 40 calls.
        return await interleaved(bare, lambda: Client(params(_ours_cmd(*flags)), mode="legacy"), n, 40, bare_call)


def _spawn_once(cmd: list[str]) -> float:
    init = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "initialize",
                       "params": {"protocolVersion": "2025-11-25", "capabilities": {},
                                  "clientInfo": {"name": "bench", "version": "0"}}}) + "\n"
    t = time.perf_counter()
    p = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                         env=_env(), cwd=tempfile.gettempdir())
    p.stdin.write(init.encode())
    p.stdin.flush()
    line = p.stdout.readline()
    took = time.perf_counter() - t
    assert b'"result"' in line, line
    p.stdin.close()
    p.wait(10)
    return took


def spawn_to_first_answer(bare_cmd: list[str], ours_cmd: list[str], runs: int) -> tuple[float, float]:
    """Medians of spawn -> initialize answer, bare and ours alternating."""
    bare, ours = [], []
    for _ in range(runs):
        bare.append(_spawn_once(bare_cmd))
        ours.append(_spawn_once(ours_cmd))
    return statistics.median(bare), statistics.median(ours)


def _row(label: str, bare: float, ours: float, unit: str = "us", scale: float = 1e6, limit: float = 1.5) -> None:
    ratio = ours / bare
    verdict = "ok" if ratio <= limit else f"OVER {limit}x"
    print(f"  {label:<34}{bare * scale:>10.1f} {unit}{ours * scale:>10.1f} {unit}{ratio:>8.2f}x  {verdict}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--calls", type=int, default=2000, help="round trips per in-memory measurement")
    ap.add_argument("--stdio-calls", type=int, default=700, help="round trips per stdio measurement")
    ap.add_argument("--spawns", type=int, default=7, help="fresh processes per spawn measurement")
    a = ap.parse_args()
    with tempfile.TemporaryDirectory() as d:
        bare_file = Path(d) / "bare_server.py"
        bare_file.write_text(BARE_SERVER)
        bare_ecam_file = Path(d) / "bare_ecam_server.py"
        bare_ecam_file.write_text(BARE_ECAM_SERVER)
        print(f"{'':<36}{'bare':>13}{'ours':>13}{'ratio':>9}")
        print("tool call round trip (median): read_ecam vs echo")
        for mode in ("auto", "legacy"):
            bare, ours = anyio.run(in_memory, a.calls, mode)
            _row(f"in-memory, mode={mode}", bare, ours)
        bare, ours = anyio.run(over_stdio, a.stdio_calls, bare_file)
        _row("stdio (initialize handshake)", bare, ours)
        d = Path(tempfile.mkdtemp(dir=tempfile.gettempdir()))
        flags = ("--result", str(d / "verdict.json"), "--trajectory", str(d / "episode.jsonl"))
        bare, ours = anyio.run(over_stdio, a.stdio_calls, bare_file, flags)
        _row("stdio, serve --result --trajectory", bare, ours)
        print("same payload: bare server returning the same ECAM model (isolates budget, recording, dispatch)")
        bare, ours = anyio.run(in_memory, a.calls, "auto", True)
        _row("in-memory, mode=auto", bare, ours, limit=1.25)
        bare, ours = anyio.run(over_stdio, a.stdio_calls, bare_ecam_file, (), ("read_ecam", {}))
        _row("stdio", bare, ours, limit=1.15)
        print("spawn to first answer (median):")
        bare, ours = spawn_to_first_answer([sys.executable, str(bare_file)], _ours_cmd(), a.spawns)
        _row("a320-bench serve vs bare server", bare, ours, "ms", 1e3)


if __name__ == "__main__":
    main()
