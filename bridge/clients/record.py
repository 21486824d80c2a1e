"""Fold what an external client reported into the episode's trajectory.

The server (`a320-bench serve`) writes the trajectory: meta, setup, tool_call
events and `final`. After the client exits, the bridge appends one
`client_report` event. On an infrastructure error it then appends a `final`
with reason `client_error`, so the trajectory always *ends* with a final whose
reason says what the episode counts as (scoring reads the last `final`):

    server final present   final(client_error) repeats the server's verdict,
                           with `superseded_reason` = the server's reason
    no server final        final(client_error) from the last verdict file, if any
    no trajectory at all   the bridge writes meta + setup itself (the client never
                           reached the server), then client_report and final
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from a320bench.server.trajectory import TRAJECTORY_SCHEMA_VERSION, now_iso

CLIENT_ERROR = "client_error"


def read_trajectory(path: Path) -> tuple[list[dict[str, Any]], bool]:
    """The events of a trajectory the server wrote, and whether a torn last line was cut off.

    A server killed mid-write can leave half a line; it is removed so that the
    events appended after it do not turn it into a corrupt line in the middle."""
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        return [], False
    cut = False
    if data and not data.endswith(b"\n"):
        keep = data.rfind(b"\n") + 1
        with open(path, "r+b") as fh:
            fh.truncate(keep)
        data, cut = data[:keep], True
    events = []
    for line in data.decode("utf-8", errors="replace").splitlines():
        if line.strip():
            try:
                ev = json.loads(line)
            except json.JSONDecodeError:
                continue
            if isinstance(ev, dict):
                events.append(ev)
    return events, cut


def last_final(events: list[dict[str, Any]]) -> dict[str, Any] | None:
    finals = [e for e in events if e.get("type") == "final"]
    return finals[-1] if finals else None


def append_events(path: Path, events: list[tuple[str, dict[str, Any]]], secrets: tuple[str, ...] = ()) -> None:
    """Append events in the Recorder's format (type, schema_version, ts, fields), secrets scrubbed."""
    secrets = tuple(s for s in secrets if s and len(s) >= 6)
    lines = []
    for kind, fields in events:
        line = json.dumps({"type": kind, "schema_version": TRAJECTORY_SCHEMA_VERSION, "ts": now_iso(), **fields},
                          ensure_ascii=False, default=str)
        for s in secrets:
            line = line.replace(s, "[REDACTED]")
        lines.append(line + "\n")
    with open(path, "a", encoding="utf-8") as fh:
        fh.writelines(lines)
        fh.flush()
        os.fsync(fh.fileno())


def client_error_final(error: str, *, server_final: dict[str, Any] | None, verdict: dict[str, Any] | None,
                       scenario_id: str) -> dict[str, Any]:
    """The fields of a `final` event with reason client_error (see the module docstring)."""
    if server_final is not None:
        base = {k: v for k, v in server_final.items() if k not in ("type", "schema_version", "ts")}
        superseded = base.get("reason")
    elif verdict is not None:
        base = {k: v for k, v in verdict.items() if k != "profile"}
        superseded = None
    else:
        base = {"scenario_id": scenario_id}
        superseded = None
    return {**base, "reason": CLIENT_ERROR, "superseded_reason": superseded, "client_error": error}


def redact_file(path: Path, secrets: tuple[str, ...]) -> None:
    """Scrub known secrets from a client's transcript or log, in place."""
    secrets = tuple(s for s in secrets if s and len(s) >= 6)
    if not secrets or not path.is_file():
        return
    text = path.read_text(encoding="utf-8", errors="replace")
    new = text
    for s in secrets:
        new = new.replace(s, "[REDACTED]")
    if new != text:
        path.write_text(new, encoding="utf-8")
