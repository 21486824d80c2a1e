"""litellm's background logging worker, one per agent thread instead of one per process.

litellm queues every call's success logging on one process-wide LoggingWorker, bound to the
event loop that last used it. Our in-process agents each run on a thread and loop of their
own (bridge/agent_thread.py), so with several episodes at a time that one worker was moved
from loop to loop as calls alternated: its coroutines were resumed from two loops ("coroutine
already executing", "cannot reuse already awaited coroutine"), tracebacks reached the console,
and tasks were destroyed pending. Each thread gets its own worker here, created on first use;
litellm reads the module attribute at each call, so replacing it is enough.
"""

from __future__ import annotations

import threading
from typing import Any

from litellm.litellm_core_utils import logging_worker


class LoggingWorkerPerThread:
    """Stands in for litellm's GLOBAL_LOGGING_WORKER: every attribute is the calling thread's worker's."""

    def __init__(self) -> None:
        self._local = threading.local()

    def _worker(self) -> logging_worker.LoggingWorker:
        worker = getattr(self._local, "worker", None)
        if worker is None:
            worker = self._local.worker = logging_worker.LoggingWorker()
        return worker

    def __getattr__(self, name: str) -> Any:
        return getattr(self._worker(), name)


def install() -> None:
    """Idempotent: the first provider module to load installs it."""
    if not isinstance(logging_worker.GLOBAL_LOGGING_WORKER, LoggingWorkerPerThread):
        logging_worker.GLOBAL_LOGGING_WORKER = LoggingWorkerPerThread()
