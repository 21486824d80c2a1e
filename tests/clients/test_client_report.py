"""Reading claude's stream-json transcript."""

from __future__ import annotations

import json

from a320bench.bridge.clients.streamjson import read_transcript


def write_lines(path, *objs):
    path.write_text("".join((o if isinstance(o, str) else json.dumps(o)) + "\n" for o in objs))


def test_input_tokens_count_cache_reads_and_writes_over_every_model_the_session_used(tmp_path):
    t = tmp_path / "t.ndjson"
    write_lines(t,
                {"type": "system", "subtype": "init", "model": "claude-x", "tools": ["mcp__a320__wait"],
                 "mcp_servers": [{"name": "other", "status": "failed"}, {"name": "a320", "status": "connected"}]},
                "not json: a stray line",
                {"type": "assistant", "message": {"content": [{"type": "tool_use", "name": "mcp__a320__wait"}]}},
                {"type": "result", "subtype": "success", "total_cost_usd": 0.5,
                 "usage": {"input_tokens": 1, "output_tokens": 1},
                 "modelUsage": {"claude-x": {"inputTokens": 10, "outputTokens": 5, "cacheReadInputTokens": 1000,
                                             "cacheCreationInputTokens": 200},
                                "claude-haiku": {"inputTokens": 7, "outputTokens": 1}},
                 "permission_denials": [{"tool_name": "mcp__a320__wait", "tool_use_id": "t1", "tool_input": {}}]})
    tr = read_transcript(t)
    assert tr.model == "claude-x" and tr.mcp_status("a320") == "connected" and tr.mcp_status("nope") is None
    assert tr.usage() == {"input_tokens": 1217, "uncached_input_tokens": 17, "cache_read_input_tokens": 1000,
                          "cache_creation_input_tokens": 200, "output_tokens": 6}
    assert tr.cost_usd() == 0.5
    assert [d["tool_name"] for d in tr.permission_denials()] == ["mcp__a320__wait"]
    assert tr.tool_uses == ["mcp__a320__wait"] and tr.bad_lines == 1


def test_a_transcript_cut_short_reports_nothing_rather_than_failing(tmp_path):
    t = tmp_path / "t.ndjson"
    t.write_text('{"type": "system", "subtype": "init", "model": "m"}\n{"type": "assi')
    tr = read_transcript(t)
    assert tr.result is None and tr.usage() is None and tr.cost_usd() is None and tr.permission_denials() == []
    assert read_transcript(tmp_path / "missing").init is None
