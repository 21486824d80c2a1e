"""A fake OpenAI-compatible Chat Completions server on 127.0.0.1 for litellm tests.

Each POST /v1/chat/completions pops the next scripted reply (the last one repeats
with `repeat_last=True`). A reply is one of:

    429, 500, ...                 that HTTP status with a JSON error body
    fault(status, ...)            a status with a chosen body: an HTML page, an error
                                  message and code (e.g. context_length_exceeded), or none
    raw(status, body, ...)        exactly these bytes (e.g. JSON that does not parse), or a body
                                  cut off before its announced length (a connection lost mid-answer)
    HANG                          accept the request and never answer (until close)
    RESET                         close the connection without a word (TCP reset)
    {"choices": []}               a 200 whose choices are empty
    {"text": ..., "tool_calls": [tool_call(...)]}   an assistant message; a tool call's
                                  name may be None, and `raw_arguments` sends a string
                                  that is not JSON

The requests it received are kept for assertions.
"""

from __future__ import annotations

import json
import socket
import struct
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

HANG = "hang"
RESET = "reset"


def tool_call(name: str | None, args: dict[str, Any] | None = None, call_id: str | None = None,
              raw_arguments: str | None = None) -> dict[str, Any]:
    return {"name": name, "arguments": args or {}, "id": call_id, "raw_arguments": raw_arguments}


def fault(status: int, *, html: bool = False, message: str | None = None, code: str | None = None,
          codeless: bool = False, headers: dict[str, str] | None = None) -> dict[str, Any]:
    """`codeless`: the error object has no `code` key at all (what a 200 carrying an error may send);
    `headers`: sent with it (a 429 sends `retry-after: 0` unless they say otherwise)."""
    return {"fault": status, "html": html, "message": message, "code": code, "codeless": codeless,
            "headers": headers}


def raw(status: int, body: bytes, *, cut_at: int | None = None) -> dict[str, Any]:
    """A reply of exactly `body` as application/json; with `cut_at`, the full length is announced but
    only the first `cut_at` bytes are sent before the connection closes."""
    return {"raw": body, "status": status, "cut_at": cut_at}


class FakeOpenAI:
    def __init__(self, script: list[Any], repeat_last: bool = False):
        self.script = list(script)
        self.repeat_last = repeat_last
        self.requests: list[dict[str, Any]] = []
        self._n = 0
        self._lock = threading.Lock()
        self._closed = threading.Event()
        outer = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *a: Any) -> None:
                pass

            def _send(self, status: int, payload: bytes, content_type: str = "application/json",
                      headers: dict[str, str] | None = None) -> None:
                self.send_response(status)
                self.send_header("content-type", content_type)
                self.send_header("content-length", str(len(payload)))
                for k, v in (headers or {}).items():
                    self.send_header(k, v)
                self.end_headers()
                self.wfile.write(payload)

            def do_POST(self) -> None:  # noqa: N802
                body = json.loads(self.rfile.read(int(self.headers.get("content-length", 0))) or b"{}")
                with outer._lock:
                    outer.requests.append({"path": self.path, "body": body,
                                           "authorization": self.headers.get("authorization")})
                    if outer.script:
                        item = outer.script.pop(0) if (len(outer.script) > 1 or not outer.repeat_last) else outer.script[0]
                    else:
                        item = {"text": "I am done."}
                    outer._n += 1
                    n = outer._n
                if item == HANG:
                    outer._closed.wait()
                    self.close_connection = True
                    return
                if item == RESET:
                    # SO_LINGER 0: close() sends a RST, as a crashed proxy would.
                    self.connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
                    self.close_connection = True
                    return
                if isinstance(item, dict) and "raw" in item:
                    body, cut = item["raw"], item["cut_at"]
                    self.send_response(item["status"])
                    self.send_header("content-type", "application/json")
                    self.send_header("content-length", str(len(body)))
                    self.end_headers()
                    self.wfile.write(body if cut is None else body[:cut])
                    self.wfile.flush()
                    self.close_connection = True
                    return
                if isinstance(item, int):
                    item = fault(item)
                if "fault" in item:
                    status = item["fault"]
                    if item["html"]:
                        self._send(status, b"<html><body><h1>Bad gateway</h1>nginx</body></html>", "text/html")
                        return
                    err = {"message": item["message"] or f"scripted {status}", "type": "server_error",
                           "code": item["code"]}
                    if item.get("codeless"):
                        del err["code"]
                    headers = item.get("headers")
                    if headers is None and status == 429:
                        headers = {"retry-after": "0"}
                    self._send(status, json.dumps({"error": err}).encode(), headers=headers)
                    return
                if "choices" in item:
                    choices = item["choices"]
                else:
                    calls = [
                        {"id": c.get("id") or f"call_{n}_{i}", "type": "function",
                         "function": {"name": c["name"],
                                      "arguments": c["raw_arguments"] if c.get("raw_arguments") is not None
                                      else json.dumps(c["arguments"])}}
                        for i, c in enumerate(item.get("tool_calls", []))
                    ]
                    message: dict[str, Any] = {"role": "assistant", "content": item.get("text")}
                    if calls:
                        message["tool_calls"] = calls
                    choices = [{"index": 0, "message": message, "finish_reason": "tool_calls" if calls else "stop"}]
                payload = json.dumps({
                    "id": f"chatcmpl-{n}", "object": "chat.completion", "created": 1700000000,
                    "model": body.get("model", "fake"), "choices": choices,
                    "usage": {"prompt_tokens": 100 + n, "completion_tokens": 10, "total_tokens": 110 + n},
                }).encode()
                self._send(200, payload)

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.httpd.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}/v1"
        self._thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)

    def __enter__(self) -> FakeOpenAI:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._closed.set()
        self.httpd.shutdown()
        self.httpd.server_close()
