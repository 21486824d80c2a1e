"""The --result file of `serve`: the episode's verdict, kept current, written atomically off the call path.

Writing a file costs far more than a tool call; a writer thread does it so that a
tool call's answer never waits for the disk. The file lags the latest verdict by
one write at most while serving; `close()` drains the writer, so the final
verdict is on disk before the process exits.

A write the disk refuses is never raised into the episode: `failure` says which
and why while the file on disk is behind the latest verdict (a later write that
succeeds clears it), and serve reports it once, when it exits.
"""

from __future__ import annotations

import logging
import threading
from pathlib import Path
from typing import Any

from ..trajectory import describe_os_error, write_json_atomic

log = logging.getLogger(__name__)


class VerdictFile:
    """Callable as an Episode's `on_verdict`; a failed write is kept in `failure`, never raised."""

    def __init__(self, path: str | Path | None, profile: str):
        self.path = Path(path) if path else None
        self.profile = profile
        self._pending: dict[str, Any] | None = None
        self._closed = False
        self._cv = threading.Condition()
        self._thread: threading.Thread | None = None
        self.failure: str | None = None

    def __call__(self, verdict: dict[str, Any]) -> None:
        if self.path is None:
            return
        with self._cv:
            if self._closed:  # late (after close): write it here, the writer is gone
                self._write({**verdict, "profile": self.profile})
                return
            self._pending = {**verdict, "profile": self.profile}
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name="verdict-file", daemon=True)
                self._thread.start()
            self._cv.notify()

    def close(self, timeout_s: float = 1.5) -> None:
        """Write what is pending and stop the writer (bounded: a client kills us 2 s after SIGTERM)."""
        with self._cv:
            self._closed = True
            self._cv.notify()
        if self._thread is not None:
            self._thread.join(timeout_s)
            if self._thread.is_alive():
                log.warning("the verdict file %s is still being written after %.1f s", self.path, timeout_s)

    def _run(self) -> None:
        while True:
            with self._cv:
                while self._pending is None and not self._closed:
                    self._cv.wait()
                verdict, self._pending = self._pending, None
                if verdict is None:
                    return
            self._write(verdict)

    def _write(self, verdict: dict[str, Any]) -> None:
        try:
            write_json_atomic(self.path, verdict)  # type: ignore[arg-type]
        except OSError as e:
            self.failure = describe_os_error("the verdict", self.path, e)  # type: ignore[arg-type]
        else:
            self.failure = None
