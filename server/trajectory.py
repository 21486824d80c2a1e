"""The trajectory format: one JSONL file per episode, written event by event.

Events (each a JSON object with `type`, `ts` wall-clock ISO time, `schema_version`):

    meta            scenario (embedded), profile, tool surface, instructions hash,
                    versions, provider/model, sampling, client
    setup           validity gate, ground truth, success criteria, budget
    assistant       model text, tool calls asked for, token usage, cost
    tool_call       name, arguments, result, is_error, sim time before/after, wall ms
                    (+ ecam_changes: alerts that appeared or cleared, see alert_log.py)
    nudge           the harness asked a silent model to continue
    provider_error  the model provider failed after retries
    client_report   what an external client (claude -p) reported about itself
    final           end reason, report_done payload, success evaluation, final ECAM

An external client's bridge appends `client_report` after the server's `final`,
and on an infrastructure error a superseding `final` (reason `client_error`):
readers use the last `final`.

This module is pure (json only) so that offline scoring can read trajectories
without importing the simulator or MCP.
"""

from __future__ import annotations

import json
import os
import threading
from collections.abc import Iterator
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from .end_reason import END_REASONS, rerun_on_resume  # pure, like this module

TRAJECTORY_SCHEMA_VERSION = 1


# Fields that must never hold a secret value; the recorder scrubs known secrets everywhere.
_REDACTED = "[REDACTED]"


def now_iso() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="milliseconds")


class Recorder:
    """Appends events to a JSONL file, flushed per event (a killed run loses at most one line).

    `secrets` are scrubbed from every event before it is written.
    """

    def __init__(self, path: str | Path | None, secrets: tuple[str, ...] = ()):
        self.path = Path(path) if path else None
        self.events: list[dict[str, Any]] = []
        self._secrets = tuple(s for s in secrets if s and len(s) >= 6)
        self._lock = threading.Lock()
        self._fh = None
        if self.path is not None:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self._fh = open(self.path, "w", encoding="utf-8")

    def write(self, type_: str, **fields: Any) -> dict[str, Any]:
        event = {"type": type_, "schema_version": TRAJECTORY_SCHEMA_VERSION, "ts": now_iso(), **fields}
        line = json.dumps(event, ensure_ascii=False, default=str)
        for s in self._secrets:
            if s in line:
                line = line.replace(s, _REDACTED)
                event = json.loads(line)
        with self._lock:
            self.events.append(event)
            if self._fh is not None:
                self._fh.write(line + "\n")
                self._fh.flush()
        return event

    def close(self) -> None:
        with self._lock:
            if self._fh is not None:
                # flush, no fsync: written data survives a killed process (the page cache
                # keeps it), and an fsync per episode would cost more than the episode's steps.
                self._fh.flush()
                self._fh.close()
                self._fh = None

    def __enter__(self) -> Recorder:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class TruncatedLine(Warning):
    pass


def read_events(path: str | Path, warn=None) -> Iterator[dict[str, Any]]:
    """Events of one trajectory. A truncated or corrupt *last* line is reported through
    `warn(message)` and skipped; a corrupt line in the middle raises ValueError."""
    p = Path(path)
    with open(p, encoding="utf-8") as fh:
        lines = fh.readlines()
    for i, line in enumerate(lines):
        if not line.strip():
            continue
        try:
            yield json.loads(line)
        except json.JSONDecodeError:
            if i == len(lines) - 1:
                if warn is not None:
                    warn(f"{p}: last line {i + 1} is truncated; scoring what is there")
                return
            raise ValueError(f"{p}: line {i + 1} is not valid JSON") from None


def changed_aircraft(event: dict[str, Any]) -> bool:
    """Did this recorded event change the aircraft on the agent's command?

    A successful set_control that moved a control or pushed a momentary one. Reads and
    waits do not count: an episode the agent only looked at can be rerun as if untouched."""
    if event.get("type") != "tool_call" or event.get("name") != "set_control" or event.get("is_error"):
        return False
    result = event.get("result")
    return isinstance(result, dict) and bool(result.get("changed") or result.get("pushed"))


def is_complete(path: str | Path) -> bool:
    """A trajectory whose last `final` stands as a result (resume skips it); the rest are rerun."""
    last = None
    changed = False
    try:
        for e in read_events(path):
            if e.get("type") == "final":
                last = e
            elif not changed:
                changed = changed_aircraft(e)
    except (OSError, ValueError):
        return False
    return last is not None and not rerun_on_resume(last.get("reason"), changed)


def write_json_atomic(path: str | Path, data: Any) -> None:
    """Write JSON via a temp file and rename, so a reader never sees half a file."""
    p = Path(path)
    p.parent.mkdir(parents=True, exist_ok=True)
    tmp = p.with_name(f".{p.name}.{os.getpid()}.tmp")
    try:
        with open(tmp, "w", encoding="utf-8") as fh:
            json.dump(data, fh, indent=2, ensure_ascii=False, default=str)
            fh.write("\n")
        os.replace(tmp, p)  # atomic for readers and for a killed writer (no fsync: see Recorder.close)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
