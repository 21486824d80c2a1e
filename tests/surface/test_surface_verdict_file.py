"""serve's --result file: the latest verdict, written atomically off the call path, drained on close."""

from __future__ import annotations

import json
import time

from a320bench.server.surface.verdict_file import VerdictFile


def _wait_for(path, key, value, timeout_s=2.0):
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        try:
            if json.loads(path.read_text())[key] == value:
                return True
        except (OSError, ValueError):
            pass
        time.sleep(0.005)
    return False


def test_the_file_follows_the_latest_verdict_and_close_leaves_the_last_one(tmp_path):
    f = VerdictFile(tmp_path / "sub" / "verdict.json", "benchmark")
    for n in range(1, 51):
        f({"reason": None, "tool_calls_used": n})
    assert _wait_for(f.path, "tool_calls_used", 50)
    f({"reason": "agent_done", "tool_calls_used": 51})
    f.close()
    assert json.loads(f.path.read_text()) == {"reason": "agent_done", "tool_calls_used": 51, "profile": "benchmark"}
    assert [p.name for p in f.path.parent.iterdir()] == ["verdict.json"]  # no temp file left behind


def test_a_verdict_after_close_is_written_at_once(tmp_path):
    f = VerdictFile(tmp_path / "verdict.json", "dev")
    f.close()
    f({"reason": "end_turn_without_done"})
    assert json.loads(f.path.read_text())["reason"] == "end_turn_without_done"


def test_an_unwritable_path_is_reported_not_raised(tmp_path, caplog):
    blocker = tmp_path / "file"
    blocker.write_text("x")
    f = VerdictFile(blocker / "verdict.json", "benchmark")  # a folder that cannot exist
    f({"reason": None})
    f({"reason": "agent_done"})
    f.close()
    assert sum("cannot write the verdict" in r.message for r in caplog.records) == 1


def test_no_path_means_no_file_and_no_thread():
    f = VerdictFile(None, "benchmark")
    f({"reason": "agent_done"})
    f.close()
    assert f._thread is None
