"""What `claude -p --output-format stream-json --verbose` reported about itself.

The transcript is one JSON object per line: `system/init` (model, MCP server
status, tools offered, version), `assistant` and `user` messages (tool_use and
tool_result), and a final `result` (cost, usage, per-model usage, permission
denials, turns, durations). Lines that are not JSON are counted, not fatal.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any


@dataclass
class Transcript:
    init: dict[str, Any] | None = None
    result: dict[str, Any] | None = None
    tool_uses: list[str] = field(default_factory=list)  # tool names the model asked for, in order
    assistant_messages: int = 0
    bad_lines: int = 0

    @property
    def model(self) -> str | None:
        return (self.init or {}).get("model")

    def mcp_status(self, server: str) -> str | None:
        """The status of `server` in system/init ("connected", "failed", "pending", ...), None if absent."""
        for s in (self.init or {}).get("mcp_servers") or []:
            if isinstance(s, dict) and s.get("name") == server:
                return s.get("status")
        return None

    def usage(self) -> dict[str, int] | None:
        """Tokens over every model the session used (side calls included, as in total_cost_usd).

        input_tokens counts everything the models read: uncached input plus cache reads
        and cache writes (the Messages API reports them apart)."""
        if self.result is None:
            return None
        per_model = self.result.get("modelUsage")
        if isinstance(per_model, dict) and per_model:
            keys = {"uncached_input_tokens": "inputTokens", "cache_read_input_tokens": "cacheReadInputTokens",
                    "cache_creation_input_tokens": "cacheCreationInputTokens", "output_tokens": "outputTokens"}
            out = {k: sum(_int(m.get(src)) for m in per_model.values() if isinstance(m, dict))
                   for k, src in keys.items()}
        else:
            u = self.result.get("usage") if isinstance(self.result.get("usage"), dict) else {}
            out = {"uncached_input_tokens": _int(u.get("input_tokens")),
                   "cache_read_input_tokens": _int(u.get("cache_read_input_tokens")),
                   "cache_creation_input_tokens": _int(u.get("cache_creation_input_tokens")),
                   "output_tokens": _int(u.get("output_tokens"))}
        total_in = out["uncached_input_tokens"] + out["cache_read_input_tokens"] + out["cache_creation_input_tokens"]
        return {"input_tokens": total_in, **out}

    def cost_usd(self) -> float | None:
        c = (self.result or {}).get("total_cost_usd")
        return float(c) if isinstance(c, (int, float)) and not isinstance(c, bool) else None

    def permission_denials(self) -> list[dict[str, Any]]:
        d = (self.result or {}).get("permission_denials")
        return [x for x in d if isinstance(x, dict)] if isinstance(d, list) else []


def read_transcript(path: Path) -> Transcript:
    t = Transcript()
    try:
        text = path.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return t
    for line in text.splitlines():
        if not line.strip():
            continue
        try:
            ev = json.loads(line)
        except json.JSONDecodeError:
            t.bad_lines += 1
            continue
        if not isinstance(ev, dict):
            t.bad_lines += 1
            continue
        kind = ev.get("type")
        if kind == "system" and ev.get("subtype") == "init":
            t.init = ev
        elif kind == "result":
            t.result = ev
        elif kind == "assistant":
            t.assistant_messages += 1
            content = (ev.get("message") or {}).get("content")
            for block in content if isinstance(content, list) else []:
                if isinstance(block, dict) and block.get("type") == "tool_use":
                    t.tool_uses.append(str(block.get("name")))
    return t


def _int(x: Any) -> int:
    return x if isinstance(x, int) and not isinstance(x, bool) else 0
