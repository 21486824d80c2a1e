"""A `--client cmd` agent for the tests: the Python standard library only, since the sandbox
shows a client neither our virtual environment nor the installed package.

    python sandboxed_agent.py play CONFIG SERVER CALLS_JSON [--prompt P] [--system S] [--tag T]
    python sandboxed_agent.py hunt CONFIG SERVER
    python sandboxed_agent.py look CONFIG SERVER --root FOLDER [--skip NAME] [--env PREFIX] [--reach PORT]

play: connects to the server named in the MCP config (Streamable HTTP, the bearer
token from its headers), makes the scripted calls [[tool, {args}], ...] and prints
one JSON line per call, after a first line with the prompts it was given. With
AGENT_PAUSE_BEFORE=i (and AGENT_PAUSE_S) it sleeps before call i (len(calls): after
the last); with AGENT_SPAWN=1 it first starts a child in its own session that sleeps
(a process that would outlive a careless harness); with AGENT_ECHO_ENV=NAME it writes
the value of that variable wherever {echo} appears in the calls' arguments, on stdout
and on stderr; AGENT_EXIT=n makes it exit with n at the end. --tag is ignored (a
marker tests find its processes by).

hunt: looks for the answer the way a cheating agent with file and shell tools
would, and prints everything it found as one JSON object: its config; its working
directory, every parent and every file directly in them; HOME, recursively; every
other folder it can list outside the system trees and its own interpreter; the
site-packages it can import from; /proc/*/cmdline, environ, cwd and open files of
every process it can see; and the server's answer without the token, with a wrong
one and with the right one. The test decides what counts as a finding. (HUNT_WALK=0
skips the walk of the whole file system, for a run outside the sandbox.)

look: prints, as one JSON object, every folder under FOLDER with its entries and every
file there with its text (not below folders named NAME), then opens an MCP session (an agent
that reached the server). With --env, the names of its environment variables that start
with PREFIX; with --reach, whether /proc/net/tcp or tcp6 lists PORT as listening and whether a
TCP connection to it on loopback opens (what a client finds of a local service: a Ray GCS).
"""

from __future__ import annotations

import json
import os
import site
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

PROTOCOL = "2025-11-25"
READ_LIMIT = 65536
SYSTEM_TREES = ("/usr", "/proc", "/sys", "/dev")


class Server:
    def __init__(self, config: str, name: str):
        spec = json.loads(Path(config).read_text())["mcpServers"][name]
        self.url, self.headers = spec["url"], dict(spec.get("headers") or {})
        self.session: str | None = None
        self.next_id = 0

    def post(self, message: dict, headers: dict[str, str]) -> tuple[int, dict | None, Any]:
        req = urllib.request.Request(self.url, data=json.dumps(message).encode(), method="POST", headers={
            "Content-Type": "application/json", "Accept": "application/json, text/event-stream", **headers})
        try:
            with urllib.request.urlopen(req, timeout=60) as resp:
                body, status, got = resp.read().decode(), resp.status, resp.headers
        except urllib.error.HTTPError as e:
            return e.code, None, e.headers
        except OSError as e:  # nothing listening
            return 0, {"unreachable": str(e)}, {}
        if "text/event-stream" in got.get("Content-Type", ""):
            datas = [line[5:].strip() for line in body.splitlines() if line.startswith("data:")]
            messages = [json.loads(d) for d in datas if d]
            reply = next((m for m in messages if m.get("id") == message.get("id")), None)
        else:
            reply = json.loads(body) if body.strip() else None
        return status, reply, got

    def request(self, method: str, params: dict) -> dict:
        self.next_id += 1
        headers = dict(self.headers)
        if self.session:
            headers.update({"Mcp-Session-Id": self.session, "MCP-Protocol-Version": PROTOCOL})
        status, reply, got = self.post({"jsonrpc": "2.0", "id": self.next_id, "method": method, "params": params},
                                       headers)
        if status != 200 or reply is None or "error" in reply:
            raise RuntimeError(f"{method}: HTTP {status}: {reply}")
        self.session = self.session or got.get("Mcp-Session-Id")
        return reply["result"]

    def connect(self) -> None:
        self.request("initialize", {"protocolVersion": PROTOCOL, "capabilities": {},
                                    "clientInfo": {"name": "sandboxed-agent", "version": "1"}})
        self.post({"jsonrpc": "2.0", "method": "notifications/initialized"},
                  {**self.headers, "Mcp-Session-Id": self.session or "", "MCP-Protocol-Version": PROTOCOL})


def play(config: str, name: str, calls_json: str, prompt: str, system: str) -> None:
    print(json.dumps({"prompt": prompt, "system": system}), flush=True)
    if os.environ.get("AGENT_SPAWN") == "1":
        subprocess.Popen([sys.executable, "-c", "import time; time.sleep(600)", "spawned-by-agent"],
                         start_new_session=True)
    echo = os.environ.get(os.environ.get("AGENT_ECHO_ENV", ""), "")
    if echo:
        print(f"echo {echo}", flush=True)
        print(f"echo {echo}", file=sys.stderr, flush=True)
    calls = json.loads(calls_json.replace("{echo}", echo))
    pause_before = int(os.environ.get("AGENT_PAUSE_BEFORE", "-1"))
    server = Server(config, name)
    server.connect()
    for i, (tool, args) in enumerate(calls):
        if i == pause_before:
            _pause()
        result = server.request("tools/call", {"name": tool, "arguments": args})
        print(json.dumps({"tool": tool, "is_error": bool(result.get("isError"))}), flush=True)
    if pause_before == len(calls):
        _pause()
    sys.exit(int(os.environ.get("AGENT_EXIT", "0")))


def _pause() -> None:
    print(json.dumps({"pausing": True}), flush=True)
    time.sleep(float(os.environ.get("AGENT_PAUSE_S", "600")))


def hunt(config: str, name: str) -> None:
    found: dict[str, str] = {}
    found["config"] = _read(Path(config))
    here = Path.cwd()
    for folder in [here, *here.parents]:
        found[f"list {folder}"] = " ".join(sorted(_names(folder)))
        for entry in _entries(folder):
            if entry.is_file():
                found[f"read {entry}"] = _read(entry)
    home = Path(os.environ.get("HOME", "/"))
    for root, dirs, files in os.walk(home):
        found[f"list {root}"] = " ".join(sorted(dirs + files))
        for f in files:
            found[f"read {Path(root, f)}"] = _read(Path(root, f))
    own = Path(sys.base_prefix).resolve()
    for root, dirs, files in os.walk("/" if os.environ.get("HUNT_WALK", "1") == "1" else "/nonexistent"):
        if root.startswith(SYSTEM_TREES) or Path(root).resolve() == own or own in Path(root).resolve().parents:
            dirs[:] = []
            continue
        found.setdefault(f"list {root}", " ".join(sorted(dirs + files)))
    for folder in {*site.getsitepackages(), site.getusersitepackages(), *sys.path}:
        if folder and Path(folder).is_dir():
            found[f"list {folder}"] = " ".join(sorted(_names(Path(folder))))
    try:
        import importlib.util

        found["import a320bench"] = str(importlib.util.find_spec("a320bench"))
    except Exception as e:  # noqa: BLE001 - whatever happens is what the hunter saw
        found["import a320bench"] = repr(e)
    pids = sorted(int(p.name) for p in Path("/proc").iterdir() if p.name.isdigit())
    for pid in pids:
        proc = Path("/proc", str(pid))
        found[f"{proc}/cmdline"] = _read(proc / "cmdline").replace("\0", " ")
        found[f"{proc}/environ"] = _read(proc / "environ").replace("\0", " ")
        found[f"{proc}/cwd"] = _link(proc / "cwd")
        found[f"{proc}/fd"] = " ".join(_link(fd) for fd in _entries(proc / "fd"))
    server = Server(config, name)
    hello = {"jsonrpc": "2.0", "id": 1, "method": "initialize",
             "params": {"protocolVersion": PROTOCOL, "capabilities": {}, "clientInfo": {"name": "h", "version": "1"}}}
    answers = {}
    for label, headers in (("no token", {}), ("wrong token", {"Authorization": "Bearer not-the-token"}),
                           ("the token", server.headers)):
        status, reply, _ = server.post(hello, headers)
        answers[label] = status
        found[f"server with {label}"] = json.dumps(reply)
    print(json.dumps({"found": found, "http_status": answers, "pids": pids}), flush=True)


def look(config: str, name: str, root: str, skip: str | None = None, env: str | None = None,
         reach: int | None = None) -> None:
    seen: dict[str, str] = {}
    for folder, dirs, files in os.walk(root):
        seen[f"list {folder}"] = " ".join(sorted(dirs + files))
        dirs[:] = [d for d in dirs if d != skip]
        for f in files:
            seen[f"read {Path(folder, f)}"] = _read(Path(folder, f))
    if env is not None:
        seen[f"env {env}*"] = " ".join(sorted(k for k in os.environ if k.startswith(env)))
    if reach is not None:
        seen[f"reach {reach}"] = _reach(reach)
    Server(config, name).connect()
    print(json.dumps({"seen": seen}), flush=True)


def _reach(port: int) -> str:
    # /proc/net/tcp and tcp6: a socket per line, its local address as hex IP:PORT, state 0A: LISTEN
    rows = [line.split() for table in ("tcp", "tcp6") for line in _read(Path("/proc/net", table)).splitlines()[1:]]
    listening = any(len(r) > 3 and r[1].endswith(f":{port:04X}") and r[3] == "0A" for r in rows)
    try:
        socket.create_connection(("127.0.0.1", port), timeout=10).close()
        connected = "connected"
    except OSError as e:
        connected = f"not connected: {e}"
    return f"{'listed' if listening else 'not listed'} as listening; {connected}"


def _entries(folder: Path) -> list[Path]:
    try:
        return list(folder.iterdir())
    except OSError:
        return []


def _names(folder: Path) -> list[str]:
    return [p.name for p in _entries(folder)]


def _read(path: Path) -> str:
    try:
        with open(path, "rb") as fh:
            return fh.read(READ_LIMIT).decode("utf-8", errors="replace")
    except OSError as e:
        return f"<{e.strerror}>"


def _link(path: Path) -> str:
    try:
        return os.readlink(path)
    except OSError:
        return ""


if __name__ == "__main__":
    import argparse

    p = argparse.ArgumentParser()
    p.add_argument("mode", choices=["play", "hunt", "look"])
    p.add_argument("config")
    p.add_argument("server")
    p.add_argument("calls", nargs="?", default="[]")
    p.add_argument("--prompt", default="")
    p.add_argument("--system", default="")
    p.add_argument("--tag", default="")
    p.add_argument("--root", default=".")
    p.add_argument("--skip", default=None)
    p.add_argument("--env", default=None)
    p.add_argument("--reach", type=int, default=None)
    a = p.parse_args()
    if a.mode == "play":
        play(a.config, a.server, a.calls, a.prompt, a.system)
    elif a.mode == "look":
        look(a.config, a.server, a.root, a.skip, a.env, a.reach)
    else:
        hunt(a.config, a.server)
