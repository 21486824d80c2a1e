"""SIGTERM and a hangup stop a command as Ctrl-C does, wherever they land.

`run` and `serve` listen for the ending signals (`a320bench.ending_signals`) while
their event loop runs (they end the episodes in flight `interrupted`); outside it --
while a command loads its modules (seconds on a loaded machine), and after the loop,
while the summary prints -- Python turns Ctrl-C into KeyboardInterrupt, which
`cli.main` makes one line and exit 130, but SIGTERM and SIGHUP killed the process
silently. `sigterm_as_ctrl_c` makes them raise the same KeyboardInterrupt for the
whole command; `rearm` puts that back after an event loop whose signal receiver reset
them to the default on the way out (asyncio does). `run_loop` is that listening for
the commands whose loop has no episodes of a run to end (`validate`, `score --verify`).
"""

from __future__ import annotations

import signal
import threading
from collections.abc import Awaitable, Callable, Iterator
from contextlib import contextmanager
from typing import Any, TypeVar

from a320bench.ending_signals import ending_signals

T = TypeVar("T")

_armed: list[signal.Signals] = []  # what `sigterm_as_ctrl_c` took over, for `rearm`


def _as_ctrl_c(signum: int, frame: Any) -> None:
    raise KeyboardInterrupt


def _main_thread() -> bool:
    return threading.current_thread() is threading.main_thread()  # only it may set handlers


def rearm() -> None:
    if _main_thread():
        for signum in _armed:
            signal.signal(signum, _as_ctrl_c)


@contextmanager
def sigterm_as_ctrl_c() -> Iterator[None]:
    if not _main_thread():
        yield
        return
    # Python already turns SIGINT into KeyboardInterrupt; an ignored hangup (nohup) stays ignored.
    taken = [s for s in ending_signals() if s != signal.SIGINT]
    before = {s: signal.signal(s, _as_ctrl_c) for s in taken}
    _armed[:] = taken
    try:
        yield
    finally:
        _armed.clear()
        for signum, handler in before.items():
            signal.signal(signum, handler)


def run_loop(fn: Callable[..., Awaitable[T]], *args: Any) -> T:
    """`anyio.run(fn, *args)`, stopped by Ctrl-C, SIGTERM and a hangup alike: the signal cancels
    `fn`, and KeyboardInterrupt is raised once the loop has ended (cli.main: `interrupted`, exit 130).

    Why not the handler above inside the loop: its KeyboardInterrupt lands in whichever task runs,
    and asyncio, shutting the loop down, logged each task it found failed with its traceback."""
    import anyio

    received: list[int] = []

    async def main() -> T | None:
        async with anyio.create_task_group() as tg:
            if _main_thread():  # signals reach the main thread only
                await tg.start(_cancel_on_signal, tg.cancel_scope, received)
            result = await fn(*args)
            tg.cancel_scope.cancel()  # done: stop listening
            return result
        return None  # cancelled by a signal

    result = anyio.run(main)
    rearm()  # the loop's signal receiver left the ending signals at their default
    if received:
        raise KeyboardInterrupt
    return result  # type: ignore[return-value]


async def _cancel_on_signal(scope: Any, received: list[int], *, task_status: Any) -> None:
    import anyio

    with anyio.open_signal_receiver(*ending_signals()) as signals:
        task_status.started()
        async for signum in signals:
            received.append(signum)
            scope.cancel()
            return
