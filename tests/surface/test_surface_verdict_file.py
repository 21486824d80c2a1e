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


def test_an_unwritable_path_is_kept_as_the_failure_not_raised_and_not_logged(tmp_path, caplog):
    blocker = tmp_path / "file"
    blocker.write_text("x")
    f = VerdictFile(blocker / "verdict.json", "benchmark")  # a folder that cannot exist
    f({"reason": None})
    f({"reason": "agent_done"})
    f.close()
    # serve says it once, at the end, with the exit code (a log line mid-episode would be a second line).
    assert f.failure == f"cannot write the verdict {blocker / 'verdict.json'}: Not a directory"
    assert not any("verdict" in r.message for r in caplog.records)


def test_a_write_that_succeeds_after_a_failure_clears_it(tmp_path):
    blocker = tmp_path / "dir"
    blocker.write_text("x")
    f = VerdictFile(blocker / "verdict.json", "benchmark")
    f.close()  # late writes are written at once: the order below is the order on disk
    f({"reason": None, "tool_calls_used": 1})
    assert f.failure is not None
    blocker.unlink()  # the disk has room again
    f({"reason": "agent_done", "tool_calls_used": 2})
    assert f.failure is None  # the file holds the latest verdict
    assert json.loads(f.path.read_text())["reason"] == "agent_done"


def test_no_path_means_no_file_and_no_thread():
    f = VerdictFile(None, "benchmark")
    f({"reason": "agent_done"})
    f.close()
    assert f._thread is None
