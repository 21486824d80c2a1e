"""A fake OpenAI-compatible Chat Completions server on 127.0.0.1 for litellm tests.

Each POST /v1/chat/completions pops the next scripted reply: either an HTTP
status to fail with, or an assistant message (text and/or tool calls). The
requests it received are kept for assertions.
"""

from __future__ import annotations

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


def tool_call(name: str, args: dict[str, Any], call_id: str | None = None) -> dict[str, Any]:
    return {"name": name, "arguments": args, "id": call_id}


class FakeOpenAI:
    def __init__(self, script: list[Any], repeat_last: bool = False):
        self.script = list(script)
        self.repeat_last = repeat_last
        self.requests: list[dict[str, Any]] = []
        self._n = 0
        self._lock = threading.Lock()
        outer = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *a: Any) -> None:
                pass

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
                if isinstance(item, int):
                    payload = json.dumps({"error": {"message": f"scripted {item}", "type": "server_error"}}).encode()
                    self.send_response(item)
                    self.send_header("content-type", "application/json")
                    self.send_header("content-length", str(len(payload)))
                    if item == 429:
                        self.send_header("retry-after", "0")
                    self.end_headers()
                    self.wfile.write(payload)
                    return
                calls = [
                    {"id": c.get("id") or f"call_{n}_{i}", "type": "function",
                     "function": {"name": c["name"], "arguments": json.dumps(c["arguments"])}}
                    for i, c in enumerate(item.get("tool_calls", []))
                ]
                message: dict[str, Any] = {"role": "assistant", "content": item.get("text")}
                if calls:
                    message["tool_calls"] = calls
                payload = json.dumps({
                    "id": f"chatcmpl-{n}", "object": "chat.completion", "created": 1700000000,
                    "model": body.get("model", "fake"),
                    "choices": [{"index": 0, "message": message, "finish_reason": "tool_calls" if calls else "stop"}],
                    "usage": {"prompt_tokens": 100 + n, "completion_tokens": 10, "total_tokens": 110 + n},
                }).encode()
                self.send_response(200)
                self.send_header("content-type", "application/json")
                self.send_header("content-length", str(len(payload)))
                self.end_headers()
                self.wfile.write(payload)

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}/v1"
        self._thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)

    def __enter__(self) -> FakeOpenAI:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()
