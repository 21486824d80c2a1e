"""A local worker process: flies the chains its driver sends, several at a time, in one anyio loop.

Started by the run (local.py) as `python -m a320bench.bridge.executors.worker DRIVER_PID [CPU]`, in a
session of its own, so that a Ctrl-C at the terminal reaches the driver only: the driver
decides what it means and says so over the pipe (frames.py). The worker never outlives
the driver: the kernel kills it when the driver dies (PR_SET_PDEATHSIG), and the client
sandboxes it starts die with it (bwrap --die-with-parent).

stdout carries the frames only: the worker's own prints and logs go to stderr, which the
driver copies to its own, scrubbed of the run's secrets.
"""

from __future__ import annotations

import ctypes
import gc
import os
import signal
import sys
from typing import Any, BinaryIO

from . import frames

PR_SET_PDEATHSIG = 1


def _die_with(driver_pid: int) -> None:
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    except (OSError, AttributeError):  # not Linux: the closed pipe still ends the worker
        pass
    if os.getppid() != driver_pid:  # the driver died before the death signal was armed
        os._exit(1)


def main(argv: list[str]) -> None:
    driver_pid = int(argv[0])
    cpu = int(argv[1]) if len(argv) > 1 else None  # the one its episodes hold (cpu_affinity.py)
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the driver turns Ctrl-C into "stop"
    _die_with(driver_pid)
    channel_out = os.fdopen(os.dup(1), "wb")
    os.dup2(2, 1)  # print() and libraries that write to stdout cannot corrupt the frames
    channel_in = os.fdopen(0, "rb")
    first = frames.read_blocking(channel_in)
    if first is None or first[0] != "job":
        os._exit(1)
    import anyio

    from .. import console
    from ..agent_thread import reusing_agent_threads

    with console.scope(), reusing_agent_threads(cpu):
        job, concurrency = first[1], first[2]  # unpickling the job imports what the provider needs (seconds)
        console.add_secrets(job.scrubber.secrets)
        _load_episode_code()
        # What is loaded by now lives as long as this process: a full collection need not walk it
        # (one took ~70 ms of CPU every few dozen episodes).
        gc.freeze()
        channel_out.write(frames.encode(("ready",)))
        channel_out.flush()
        anyio.run(_serve, job, concurrency, channel_in, channel_out)
    channel_out.flush()
    sys.stderr.flush()
    os._exit(0)  # the frame reader may still block in its thread: nothing is left to wait for


def _load_episode_code() -> None:
    """Import what every episode needs (MCP, the server, the episode loop: about a second) before saying
    ready, rather than in the first episodes, all waiting on it while their clocks run."""
    import mcp  # noqa: F401

    from a320bench.server.surface import factory  # noqa: F401

    from .. import inprocess_episode  # noqa: F401


async def _serve(job: Any, concurrency: int, channel_in: BinaryIO, channel_out: BinaryIO) -> None:
    import anyio

    from a320bench.server.end_reason import EndReason

    from .chain import run_chain

    held = False
    # The driver sends more chains than fly at once, so that the next one is here when one ends.
    limiter = anyio.CapacityLimiter(concurrency)

    def send(message: tuple[Any, ...]) -> None:
        channel_out.write(frames.encode(message))
        channel_out.flush()

    def on_result(chain: Any, p: Any, res: Any) -> None:
        nonlocal held
        if res.reason == EndReason.STORAGE_ERROR:  # the disk refuses: start nothing more, before the driver says so
            held = True
        send(("result", chain.index, p.index, res))

    def on_storage(line: str) -> None:
        nonlocal held
        held = True
        send(("storage", line))

    async def fly(chain: Any) -> None:
        async with limiter:
            await run_chain(chain, job, on_result=lambda p, res: on_result(chain, p, res), may_start=lambda: not held,
                            on_storage=on_storage)
        send(("chain_done", chain.index))

    async with anyio.create_task_group() as outer:
        async with anyio.create_task_group() as chains:
            closed = anyio.Event()

            async def read() -> None:
                nonlocal held
                while True:
                    message = await anyio.to_thread.run_sync(frames.read_blocking, channel_in,
                                                             abandon_on_cancel=True)
                    kind = message[0] if message else "stop"  # the driver has gone: stop
                    if kind == "chain":
                        chains.start_soon(fly, message[1])
                    elif kind == "hold":
                        held = True
                    elif kind == "close":
                        closed.set()
                    elif kind == "stop":
                        chains.cancel_scope.cancel()  # every episode in flight ends `interrupted`
                        return

            outer.start_soon(read)
            chains.start_soon(closed.wait)  # keeps the group open until the driver has sent everything
        outer.cancel_scope.cancel()
    from a320bench.server.scenario.harness import setups_run

    send(("bye", setups_run()))


if __name__ == "__main__":
    main(sys.argv[1:])
