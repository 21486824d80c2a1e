"""A minimal MCP client for `--client cmd` tests: starts the server named in an MCP config
over stdio (the mcp SDK's client) and makes scripted calls.

    python scripted_mcp_client.py CONFIG SERVER CALLS_JSON [--prompt P] [--system S]

CALLS_JSON is [[tool, {args}], ...]. Prints one JSON line per call, and the prompts it
was given, so a test can check that every argument arrived whole.
"""

from __future__ import annotations

import argparse
import json

import anyio


async def main() -> None:
    from mcp import Client
    from mcp.client.stdio import StdioServerParameters

    p = argparse.ArgumentParser()
    p.add_argument("config")
    p.add_argument("server")
    p.add_argument("calls")
    p.add_argument("--prompt", default="")
    p.add_argument("--system", default="")
    a = p.parse_args()
    print(json.dumps({"prompt": a.prompt, "system": a.system}), flush=True)
    spec = json.loads(open(a.config, encoding="utf-8").read())["mcpServers"][a.server]
    params = StdioServerParameters(command=spec["command"], args=spec["args"], env=spec.get("env"))
    async with Client(params) as client:
        for name, args in json.loads(a.calls):
            result = await client.call_tool(name, args)
            print(json.dumps({"tool": name, "is_error": result.is_error}), flush=True)


if __name__ == "__main__":
    anyio.run(main)
