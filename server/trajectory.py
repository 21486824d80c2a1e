"""The trajectory format: one JSONL file per episode, written event by event.

Events (each a JSON object with `type`, `ts` wall-clock ISO time, `schema_version`):

    meta            scenario (embedded), profile, tool surface, instructions hash,
                    versions, provider/model, sampling, client
    setup           validity gate, ground truth, success criteria, budget
    assistant       model text, tool calls asked for, token usage, cost
    usage           tokens and cost an agent reported itself (AgentView.add_usage / add_cost_usd)
    tool_call       name, arguments, result, is_error, sim time before/after, wall ms, the
                    call's effects: capabilities_lost / _removed / _restored, invariants_violated,
                    failures_arrived (server/scenario/effects.py), and ecam_changes: alerts that
                    appeared or cleared (alert_log.py); a resource read is recorded as a tool_call
                    named read_resource, a model's call whose arguments were not a JSON object
                    with its raw arguments (is_error)
    nudge           the harness asked a silent model to continue
    provider_retry  a provider fault that is retried (attempt, error, delay)
    provider_error  the model provider failed (after retries)
    agent_error     the conversation broke the model (context length, refusal), or a plug-in agent's
                    own code failed (its traceback in `exception`): the agent's result
    harness_error   a bug of ours, with its traceback
    captain_turn    an LLM captain's answer (crew profile, --captain-model): model, tokens, cost
    client_report   what an external client reported about itself: claude -p's transcript (run), or
                    the MCP clientInfo it sent (serve, when it first names itself)
    replay_check    a replay's final state and verdict against the recording's
    final           end reason, report_done payload, success evaluation (with the invariants
                    violated during the episode), final ECAM, state hash; `error` when a fault ended it

A client episode's bridge writes `client_report` and then the one `final` that
stands (bridge/clients/record.py); readers use the last `final` (older files hold
a superseded one before it).

Writing never goes through a link: a trajectory replaces whatever name was there
(a hard link's other names keep their content) and a symbolic link in its place
is refused; JSON files are written to a fresh temporary file and renamed. A disk
that refuses a write (full, read-only) never raises into an episode: the recorder
keeps the events in memory and says what failed in `failure`; the episode's owner
ends it `storage_error`.

This module is pure (json and orjson only) so that offline scoring can read trajectories
without importing the simulator or MCP.
"""

from __future__ import annotations

import errno
import json
import os
import signal
import stat
import tempfile
import threading
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

import orjson

from a320bench.secrets import NO_SECRETS, Scrubber  # pure, like this module

from .end_reason import rerun_on_resume  # pure, like this module

TRAJECTORY_SCHEMA_VERSION = 1


def now_iso() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="milliseconds")


class LinkRefused(OSError):
    """An output path is (or passes through) a symbolic link: we never write through one."""


def describe_os_error(what: str, path: str | Path, e: OSError) -> str:
    return f"cannot write {what} {path}: {e.strerror or e}"


def refuse_links(root: str | Path, path: str | Path) -> None:
    """LinkRefused if `path`, or a folder between `root` and it, is a symbolic link (root itself may be one)."""
    root, p = Path(root), Path(path)
    try:
        parts = p.relative_to(root).parts
    except ValueError:
        parts = p.parts
        root = Path(".")
    here = root
    for part in parts:
        here = here / part
        if here.is_symlink():
            raise LinkRefused(f"{here} is a symbolic link; a320-bench never writes through one")


def make_folder(folder: Path) -> None:
    """mkdir -p, saying "Not a directory" (not "File exists") when a file is in the way."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except FileExistsError:
        raise NotADirectoryError(errno.ENOTDIR, os.strerror(errno.ENOTDIR), str(folder)) from None


def open_fresh(path: Path) -> Any:
    """A new, empty file at `path` for writing, never through a link (see the module docstring)."""
    make_folder(path.parent)
    try:
        if stat.S_ISLNK(os.lstat(path).st_mode):
            raise LinkRefused(f"{path} is a symbolic link; a320-bench never writes through one")
        path.unlink()  # a hard link elsewhere keeps its content
    except FileNotFoundError:
        pass
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0), 0o644)
    return open(fd, "w", encoding="utf-8")


class Recorder:
    """Appends events to a JSONL file, flushed per event (a killed run loses at most one line).

    Known secrets (`scrubber`, or `secrets` values) are scrubbed from every event before it is
    kept. A write the disk refuses sets `failure` (one line naming the file and the cause) and
    stops writing to the file; events are still kept in `events`.
    """

    def __init__(self, path: str | Path | None, secrets: Iterable[str] = (), scrubber: Scrubber | None = None):
        self.path = Path(path) if path else None
        self.events: list[dict[str, Any]] = []
        self._scrub = scrubber if scrubber is not None else (Scrubber(secrets) if secrets else NO_SECRETS)
        self._lock = threading.Lock()
        self._fh = None
        self.failure: str | None = None
        if self.path is not None:
            try:
                self._fh = open_fresh(self.path)
            except OSError as e:
                self.failure = describe_os_error("the trajectory", self.path, e) if not isinstance(e, LinkRefused) \
                    else f"cannot write the trajectory: {e}"

    def write(self, type_: str, **fields: Any) -> dict[str, Any]:
        event = {"type": type_, "schema_version": TRAJECTORY_SCHEMA_VERSION, "ts": now_iso(), **fields}
        line = self._scrub.json_line(event)
        if self._scrub:
            event = json.loads(line)
        with self._lock:
            self.events.append(event)
            if self._fh is not None:
                try:
                    self._fh.write(line + "\n")
                    self._fh.flush()
                except OSError as e:
                    self.failure = describe_os_error("the trajectory", self.path, e)  # type: ignore[arg-type]
                    self._abandon()
        return event

    def _abandon(self) -> None:
        """Stop writing after a failed write: a later event must not follow a gap."""
        fh, self._fh = self._fh, None
        try:
            fh.close()  # type: ignore[union-attr]
        except OSError:
            pass  # the buffered rest cannot be written either

    def close(self) -> None:
        with self._lock:
            if self._fh is not None:
                # flush, no fsync: written data survives a killed process (the page cache
                # keeps it), and an fsync per episode would cost more than the episode's steps.
                try:
                    self._fh.flush()
                    self._fh.close()
                except OSError as e:
                    self.failure = self.failure or describe_os_error("the trajectory", self.path, e)  # type: ignore[arg-type]
                self._fh = None

    def __enter__(self) -> Recorder:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class TruncatedLine(Warning):
    pass


def read_events(path: str | Path, warn=None) -> Iterator[dict[str, Any]]:
    """Events of one trajectory. A truncated or corrupt *last* line is reported through
    `warn(message)` and skipped; a corrupt line in the middle raises ValueError.

    A well-formed file is parsed with orjson (half of `score`'s time was json.loads); any line
    it refuses sends the whole file through the standard library, whose values and errors
    (not UTF-8, NaN, nesting too deep, which line is bad) are the ones reported. One known
    difference: an integer beyond 64 bits reads as a float (the recorder never writes one)."""
    p = Path(path)
    fd = os.open(p, os.O_RDONLY | os.O_NONBLOCK)  # a FIFO would block the open until a writer came
    with open(fd, "rb") as fh:
        if not stat.S_ISREG(os.fstat(fd).st_mode):  # /dev/zero would be read without end
            raise OSError(errno.EINVAL, "not a regular file (a trajectory is a .jsonl file)")
        data = fh.read()
    try:
        events = [orjson.loads(line) for line in _lines(data) if line.strip()]
    except orjson.JSONDecodeError:
        yield from _read_events_stdlib(p, warn)
        return
    yield from events


def _lines(data: bytes) -> Iterator[bytes]:
    """The lines of `data` as text mode's universal newlines break them (at \n, \r\n and \r).

    `bytes.splitlines` tests every byte for each line break; a recorder's file has no \r, and its
    \n are found by memchr, ten times fewer instructions on lines of kilobytes."""
    if b"\r" in data:
        yield from data.splitlines()
        return
    start = 0
    while (end := data.find(b"\n", start)) >= 0:
        yield data[start:end]
        start = end + 1
    if start < len(data):
        yield data[start:]


def _read_events_stdlib(p: Path, warn) -> Iterator[dict[str, Any]]:
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
            if i == 0 and line.startswith("\ufeff"):  # an editor re-saved the file; the recorder writes none
                raise ValueError(f"{p}: line 1 starts with a byte-order mark (U+FEFF): another program re-saved "
                                 "this file") from None
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


def write_json_atomic(path: str | Path, data: Any, scrubber: Scrubber = NO_SECRETS) -> None:
    """Write JSON to a fresh temporary file beside `path` and rename it over `path`: a reader
    never sees half a file, and a link at `path` is replaced, never written through.
    No fsync (see Recorder.close). Raises OSError (LinkRefused for a linked folder)."""
    text = json.dumps(scrubber.data(data), indent=2, ensure_ascii=False, default=str)
    write_bytes_atomic(path, (text + "\n").encode("utf-8"))


def write_bytes_atomic(path: str | Path, data: bytes) -> None:
    """Write `data` to a fresh temporary file beside `path` and rename it over `path` (whole or not at
    all, never through a link). Raises OSError (LinkRefused for a linked folder)."""
    p = Path(path)
    make_folder(p.parent)
    with _interrupts_held():
        fd, tmp = tempfile.mkstemp(dir=p.parent, prefix=f".{p.name}.", suffix=".tmp")  # O_EXCL: never a link
        try:
            os.fchmod(fd, 0o644)  # mkstemp's 0600 would hide a results file from its readers
            with open(fd, "wb") as fh:
                fh.write(data)
            os.replace(tmp, p)
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise


_INTERRUPTS = (signal.SIGINT, signal.SIGTERM)


@contextmanager
def _interrupts_held() -> Iterator[None]:
    """Ctrl-C and SIGTERM wait until the file is written or not: one landing inside `mkstemp`, after the
    file was made and before its name came back, left a stray temporary file (found by
    tools/kill_at_random). The signal is acted on right after.

    Held at Python's level, not by a signal mask: the kernel gives a signal sent to the process to any
    thread that does not block it (an agent thread, Ray's), and Python then runs its handler in the main
    thread whatever that thread's mask. Handlers run only there, so another thread needs nothing held."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    caught: list[int] = []
    saved = {sig: signal.getsignal(sig) for sig in _INTERRUPTS}
    saved = {sig: handler for sig, handler in saved.items() if handler is not None}  # None: set outside Python
    for sig in saved:
        signal.signal(sig, lambda signum, frame: caught.append(signum))
    try:
        yield
    finally:
        for sig, handler in saved.items():
            signal.signal(sig, handler)
        for sig in dict.fromkeys(caught):  # each signal once, in the order it came
            _act_on(sig, saved[sig])


def _act_on(sig: int, handler: Any) -> None:
    """What the handler held back would have done. Called, not re-raised: a signal an event loop
    watches has already reached it (its wakeup fd), and raising it again would deliver it twice."""
    if handler == signal.SIG_DFL:
        signal.raise_signal(sig)  # SIGTERM's default: the process ends
    elif callable(handler):
        handler(sig, None)  # default_int_handler and interrupts._as_ctrl_c raise KeyboardInterrupt
