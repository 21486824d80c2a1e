"""A fake Anthropic Messages API on 127.0.0.1 for driving the real `claude -p` offline.

It is the model of `run --client claude --offline-demo` (offline_demo.py) and of the
real-client tests: standard library only, no network beyond loopback.

The agent's turns are scripted. A *main* request (one that offers our MCP tools,
`mcp__<server>__<tool>`) whose conversation already holds n assistant messages gets
script[n]: text and/or tool_use blocks, or an HTTP status to fail with (on every
attempt). Conversations are told apart by their own history, so parallel episodes
and retried requests each follow the whole script. A turn comes back as a streamed
SSE message (message_start, content_block_start/delta/stop, message_delta,
message_stop), or as one JSON message when the request did not ask to stream; a
turn with `delay_s` comes that much later (a slow model), or never if the fake is
closed first. Every other request Claude Code makes on the side (token counting,
title or quota calls on a small model, GETs) gets a harmless answer. Every request
is logged for assertions.

    with FakeAnthropic([turn(tool_use("mcp__a320__read_ecam")), turn(text="Done.")]) as api:
        env["ANTHROPIC_BASE_URL"] = api.url
"""

from __future__ import annotations

import json
import threading
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import urlsplit

INPUT_TOKENS = 1000  # per main request, so tests can predict the usage claude reports
OUTPUT_TOKENS = 20


def tool_use(name: str, args: dict[str, Any] | None = None) -> dict[str, Any]:
    return {"type": "tool_use", "name": name, "input": dict(args or {})}


def turn(*blocks: dict[str, Any], text: str | None = None) -> dict[str, Any]:
    """One assistant message: optional text first, then tool_use blocks."""
    content = ([{"type": "text", "text": text}] if text else []) + list(blocks)
    return {"content": content or [{"type": "text", "text": "Done."}]}


@dataclass
class Request:
    method: str
    path: str
    body: dict[str, Any]
    headers: dict[str, str]
    main: bool = False  # a scripted agent turn (offers our MCP tools)
    turn: int | None = None  # index of the scripted turn it got (main requests)
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def tool_names(self) -> list[str]:
        return [t.get("name", "") for t in self.body.get("tools") or [] if isinstance(t, dict)]

    @property
    def system_text(self) -> str:
        system = self.body.get("system")
        if isinstance(system, list):
            return "\n".join(b.get("text", "") for b in system if isinstance(b, dict))
        return system if isinstance(system, str) else ""

    def message_text(self, index: int) -> str:
        """The text of messages[index] (a string, or its text blocks joined)."""
        content = (self.body.get("messages") or [{}])[index].get("content")
        if isinstance(content, list):
            return "\n".join(b.get("text", "") for b in content if isinstance(b, dict))
        return content if isinstance(content, str) else ""

    def tool_results(self) -> list[dict[str, Any]]:
        """The tool_result blocks in the last user message."""
        msgs = self.body.get("messages") or []
        last = msgs[-1] if msgs else {}
        content = last.get("content") if isinstance(last, dict) else None
        return [b for b in content if isinstance(b, dict) and b.get("type") == "tool_result"] \
            if isinstance(content, list) else []


class FakeAnthropic:
    """`tool_prefix` decides which requests are main turns: those offering a tool whose
    name starts with it (default: any MCP tool). `after_script` answers main requests
    once the script is used up."""

    def __init__(self, script: list[Any], *, tool_prefix: str = "mcp__",
                 after_script: dict[str, Any] | None = None, api_key: str | None = None):
        self.script = list(script)
        self.tool_prefix = tool_prefix
        self.after_script = after_script or turn(text="Done.")
        # With a key, a request without it is refused (401): on a shared loopback, another
        # program -- another episode's agent -- must not read a script that flies the answer.
        self.api_key = api_key
        self.requests: list[Request] = []
        self._ids = 0
        self._lock = threading.Lock()
        self._closing = threading.Event()
        outer = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *a: Any) -> None:
                pass

            def _body(self) -> dict[str, Any]:
                n = int(self.headers.get("content-length") or 0)
                raw = self.rfile.read(n) if n else b""
                try:
                    body = json.loads(raw) if raw else {}
                except json.JSONDecodeError:
                    body = {"_raw": raw.decode("utf-8", "replace")}
                return body if isinstance(body, dict) else {"_json": body}

            def _json(self, status: int, payload: Any) -> None:
                data = json.dumps(payload).encode()
                self.send_response(status)
                self.send_header("content-type", "application/json")
                self.send_header("content-length", str(len(data)))
                if status == 429:
                    self.send_header("retry-after", "0")
                self.end_headers()
                self.wfile.write(data)

            def _refused(self) -> bool:
                if outer.api_key is None:
                    return False
                sent = self.headers.get("x-api-key") or self.headers.get("authorization", "").removeprefix("Bearer ")
                if sent == outer.api_key:
                    return False
                self._json(401, {"type": "error", "error": {"type": "authentication_error",
                                                            "message": "invalid x-api-key"}})
                return True

            def do_GET(self) -> None:  # noqa: N802
                if self._refused():
                    return
                outer._log(Request("GET", self.path, {}, dict(self.headers)))
                self._json(200, {"data": [], "has_more": False})

            def do_HEAD(self) -> None:  # noqa: N802
                if self._refused():
                    return
                outer._log(Request("HEAD", self.path, {}, dict(self.headers)))
                self.send_response(200)
                self.send_header("content-length", "0")
                self.end_headers()

            def do_POST(self) -> None:  # noqa: N802
                body = self._body()
                if self._refused():
                    return
                req = Request("POST", self.path, body, dict(self.headers))
                route = urlsplit(self.path).path.rstrip("/")
                if route.endswith("/count_tokens"):
                    outer._log(req)
                    self._json(200, {"input_tokens": INPUT_TOKENS})
                    return
                if not route.endswith("/v1/messages"):
                    outer._log(req)
                    self._json(200, {})
                    return
                item = outer._next(req)
                delay = item.get("delay_s") if isinstance(item, dict) else None
                if delay and outer._closing.wait(delay):  # a model that takes too long; gone when we close
                    return
                if isinstance(item, int):
                    self._json(item, {"type": "error", "error": {"type": "api_error", "message": f"scripted {item}"}})
                    return
                msg = outer._message(body, item, main=req.main)
                if body.get("stream"):
                    self._stream(msg)
                else:
                    self._json(200, msg)

            def _stream(self, msg: dict[str, Any]) -> None:
                self.send_response(200)
                self.send_header("content-type", "text/event-stream")
                self.send_header("cache-control", "no-cache")
                self.send_header("connection", "close")
                self.end_headers()
                for event, data in sse_events(msg):
                    self.wfile.write(f"event: {event}\ndata: {json.dumps(data)}\n\n".encode())
                self.wfile.flush()
                self.close_connection = True

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.httpd.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}"
        self._thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)

    # ---- bookkeeping ----------------------------------------------------------------------------
    def _log(self, req: Request) -> None:
        with self._lock:
            self.requests.append(req)

    def _next(self, req: Request) -> Any:
        req.main = any(n.startswith(self.tool_prefix) for n in req.tool_names)
        with self._lock:
            self.requests.append(req)
            if not req.main:
                return turn(text="OK")
            n = sum(1 for m in req.body.get("messages") or [] if isinstance(m, dict) and m.get("role") == "assistant")
            req.turn = n
            return self.script[n] if n < len(self.script) else self.after_script

    def _message(self, body: dict[str, Any], item: dict[str, Any], *, main: bool) -> dict[str, Any]:
        with self._lock:
            self._ids += 1
            n = self._ids
        content = []
        for i, block in enumerate(item["content"]):
            if block["type"] == "tool_use":
                content.append({**block, "id": f"toolu_fake_{n:04d}_{i}"})
            else:
                content.append(dict(block))
        has_tools = any(b["type"] == "tool_use" for b in content)
        return {
            "id": f"msg_fake_{n:04d}", "type": "message", "role": "assistant",
            "model": body.get("model") or "claude-fake", "content": content,
            "stop_reason": "tool_use" if has_tools else "end_turn", "stop_sequence": None,
            "usage": {"input_tokens": INPUT_TOKENS if main else 10, "output_tokens": OUTPUT_TOKENS if main else 1,
                      "cache_creation_input_tokens": 0, "cache_read_input_tokens": 0},
        }

    # ---- views for assertions --------------------------------------------------------------------
    @property
    def main_requests(self) -> list[Request]:
        with self._lock:
            return [r for r in self.requests if r.main]

    @property
    def side_requests(self) -> list[Request]:
        with self._lock:
            return [r for r in self.requests if not r.main]

    def __enter__(self) -> FakeAnthropic:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._closing.set()
        self.httpd.shutdown()
        self.httpd.server_close()


def sse_events(msg: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    """The SSE events of one streamed Messages API response."""
    usage = msg["usage"]
    start = {**msg, "content": [], "stop_reason": None,
             "usage": {**usage, "output_tokens": 1}}
    out: list[tuple[str, dict[str, Any]]] = [("message_start", {"type": "message_start", "message": start}),
                                             ("ping", {"type": "ping"})]
    for i, block in enumerate(msg["content"]):
        if block["type"] == "text":
            out.append(("content_block_start", {"type": "content_block_start", "index": i,
                                                "content_block": {"type": "text", "text": ""}}))
            out.append(("content_block_delta", {"type": "content_block_delta", "index": i,
                                                "delta": {"type": "text_delta", "text": block["text"]}}))
        else:
            out.append(("content_block_start", {"type": "content_block_start", "index": i,
                                                "content_block": {"type": "tool_use", "id": block["id"],
                                                                  "name": block["name"], "input": {}}}))
            out.append(("content_block_delta", {"type": "content_block_delta", "index": i,
                                                "delta": {"type": "input_json_delta",
                                                          "partial_json": json.dumps(block["input"])}}))
        out.append(("content_block_stop", {"type": "content_block_stop", "index": i}))
    out.append(("message_delta", {"type": "message_delta",
                                  "delta": {"stop_reason": msg["stop_reason"], "stop_sequence": None},
                                  "usage": {"output_tokens": usage["output_tokens"]}}))
    out.append(("message_stop", {"type": "message_stop"}))
    return out
