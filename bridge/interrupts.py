"""SIGTERM stops a command as Ctrl-C does, wherever it lands.

`run` and `serve` listen for both signals while their event loop runs (they end the
episodes in flight `interrupted`); outside it -- while a command loads its modules
(seconds on a loaded machine), and after the loop, while the summary prints -- Python
turns Ctrl-C into KeyboardInterrupt, which `cli.main` makes one line and exit 130,
but SIGTERM killed the process silently. `sigterm_as_ctrl_c` makes SIGTERM raise the
same KeyboardInterrupt for the whole command; `rearm` puts it back after an event loop
whose signal receiver reset SIGTERM to the default on the way out (asyncio does).
"""

from __future__ import annotations

import signal
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any


def _as_ctrl_c(signum: int, frame: Any) -> None:
    raise KeyboardInterrupt


def _main_thread() -> bool:
    return threading.current_thread() is threading.main_thread()  # only it may set handlers


def rearm() -> None:
    if _main_thread():
        signal.signal(signal.SIGTERM, _as_ctrl_c)


@contextmanager
def sigterm_as_ctrl_c() -> Iterator[None]:
    if not _main_thread():
        yield
        return
    before = signal.signal(signal.SIGTERM, _as_ctrl_c)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, before)
