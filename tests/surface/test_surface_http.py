"""One episode served over Streamable HTTP on loopback behind a bearer token (server/surface/http.py),
with the SDK's own client and transport."""

from __future__ import annotations

from pathlib import Path

import anyio
import httpx
import pytest
from mcp import Client
from mcp.client.streamable_http import streamable_http_client

from a320bench.server.scenario.loader import load
from a320bench.server.session import open_episode
from a320bench.server.surface.http import serve_http
from a320bench.server.surface.profiles import load_profile
from a320bench.server.trajectory import Recorder

ROOT = Path(__file__).resolve().parents[2]
SCENARIO = load(ROOT / "scenarios" / "elec" / "gen1_fault_reset_fails.yaml")
PROFILE = load_profile("benchmark")
INITIALIZE = {"jsonrpc": "2.0", "id": 1, "method": "initialize",
              "params": {"protocolVersion": "2025-11-25", "capabilities": {},
                         "clientInfo": {"name": "t", "version": "1"}}}
ACCEPT = {"Accept": "application/json, text/event-stream"}


def episode():
    recorder = Recorder(None)
    return open_episode(SCENARIO, recorder, profile=PROFILE.name, tools=list(PROFILE.tools),
                        instructions=PROFILE.instructions), recorder


@pytest.mark.parametrize("mode", ["auto", "legacy"])
def test_a_client_with_the_token_flies_the_episode_and_the_server_records_every_call(mode):
    ep, recorder = episode()

    async def fly() -> list[str]:
        async with serve_http(ep, PROFILE) as endpoint:
            assert endpoint.url.startswith("http://127.0.0.1:") and endpoint.url.endswith("/mcp")
            async with httpx.AsyncClient(headers=endpoint.headers) as http:
                async with Client(streamable_http_client(endpoint.url, http_client=http), mode=mode) as client:
                    names = sorted(t.name for t in (await client.list_tools()).tools)
                    ecam = await client.call_tool("read_ecam", {})
                    assert [a["title"] for a in ecam.structured_content["alerts"]] == ["ELEC GEN 1 FAULT"]
                    await client.call_tool("set_control", {"control": "GEN 1", "position": "OFF"})
        return names

    assert anyio.run(fly) == sorted(PROFILE.tools)
    assert [(e["name"], e["arguments"]) for e in recorder.events if e["type"] == "tool_call"] == \
        [("read_ecam", {}), ("set_control", {"control": "GEN 1", "position": "OFF"})]
    assert ep.ac.controls["GEN 1"] == "OFF"


def test_without_the_token_or_with_another_the_server_answers_401_and_nothing_reaches_the_episode():
    ep, recorder = episode()

    async def knock() -> tuple[list[int], int]:
        async with serve_http(ep, PROFILE, path="/abc123/mcp") as endpoint:
            async with httpx.AsyncClient() as http:
                codes = [(await http.post(endpoint.url, json=INITIALIZE, headers={**ACCEPT, **h})).status_code
                         for h in ({}, {"Authorization": "Bearer nope"}, {"Authorization": endpoint.token},
                                   {"Authorization": f"Basic {endpoint.token}"})]
                wrong_path = await http.post(endpoint.url.replace("/abc123/", "/other/"), json=INITIALIZE,
                                             headers={**ACCEPT, **endpoint.headers})
                # A page a browser was tricked into loading, on a name that only resolves to loopback:
                rebound = await http.post(endpoint.url, json=INITIALIZE,
                                          headers={**ACCEPT, **endpoint.headers, "Host": "evil.example"})
                good = await http.post(endpoint.url, json=INITIALIZE, headers={**ACCEPT, **endpoint.headers})
        return [*codes, wrong_path.status_code, rebound.status_code], good.status_code

    refused, good = anyio.run(knock)
    assert refused == [401, 401, 401, 401, 404, 421] and good == 200
    assert [e["type"] for e in recorder.events] == ["meta", "setup"]


def test_each_episode_gets_its_own_port_and_token_and_the_port_closes_with_the_block():
    (ep1, _), (ep2, _) = episode(), episode()

    async def two():
        async with serve_http(ep1, PROFILE) as a, serve_http(ep2, PROFILE) as b:
            seen = (a.url != b.url, a.token != b.token, len(a.token) >= 40)
            url = a.url
        async with httpx.AsyncClient() as http:
            with pytest.raises(httpx.ConnectError):
                await http.post(url, json=INITIALIZE, headers=ACCEPT)
        return seen

    assert anyio.run(two) == (True, True, True)
