"""Run an external client (its sandbox) in its own process group under a wall-clock limit.

The client's stdout and stderr come through pipes, never as files it could name:
stdout is copied into the transcript beside the trajectory line by line, each
line scrubbed of secrets before it is written; the end of stderr is kept in
memory. stdin is /dev/null.

The group is bwrap's: when the sandbox's first process exits, or bwrap is
killed, the kernel ends every process in the sandbox's pid namespace, so
killing the group ends the client and all it started. That happens on timeout,
when cancelled (Ctrl-C, SIGTERM of `run`, a failing sibling), and after a normal
exit as a safety net. A SIGKILL of `run` leaves no client either: bwrap runs
with --die-with-parent.
"""

from __future__ import annotations

import os
import signal
import subprocess
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

STDERR_TAIL_BYTES = 4000
PIPE_GRACE_S = 2.0  # after the exit: time to read what is left in the pipes
REAP_S = 5.0  # after SIGKILL, how long to wait for the kernel to report the exit


@dataclass
class ProcessOutcome:
    exit_code: int | None  # None when it never started or was killed
    timed_out: bool
    wall_s: float
    start_error: str | None = None  # the program could not be started (not found, not executable)
    stderr_tail: str = ""


async def run_in_group(argv: list[str], *, env: dict[str, str], stdout: Path, timeout_s: float,
                       pass_fds: tuple[int, ...] = (), scrub: Callable[[str], str] = str) -> ProcessOutcome:
    import anyio

    t0 = time.monotonic()
    tail: deque[bytes] = deque()
    try:
        proc = await anyio.open_process(argv, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                        stderr=subprocess.PIPE, cwd="/", env=env, start_new_session=True,
                                        pass_fds=pass_fds)
    except OSError as e:  # FileNotFoundError, PermissionError, ENOEXEC
        return ProcessOutcome(None, False, 0.0, start_error=f"{argv[0]}: {e.strerror or e}")
    pgid = proc.pid  # start_new_session: the client leads its own session and process group
    timed_out = False
    try:
        with open(stdout, "wb", buffering=0) as fh:  # unbuffered: the transcript is current on disk
            out = _Lines(fh, scrub)
            async with anyio.create_task_group() as tg:
                tg.start_soon(_copy, proc.stdout, out.write)
                tg.start_soon(_copy, proc.stderr, lambda chunk: _keep_tail(tail, chunk))
                with anyio.move_on_after(timeout_s) as scope:
                    await proc.wait()
                if scope.cancelled_caught:
                    timed_out = True
                    _signal_group(pgid, signal.SIGKILL)
                    await proc.wait()
                tg.cancel_scope.deadline = anyio.current_time() + PIPE_GRACE_S
            out.close()
    except BaseException:  # cancelled: leave nothing behind
        if proc.returncode is None:
            _signal_group(pgid, signal.SIGKILL)
        raise
    finally:
        with anyio.CancelScope(shield=True), anyio.move_on_after(REAP_S):
            await proc.aclose()  # reaps it: no zombie
    code = None if timed_out else proc.returncode
    return ProcessOutcome(code, timed_out, round(time.monotonic() - t0, 3),
                          stderr_tail=scrub(b"".join(tail).decode("utf-8", errors="replace"))[-STDERR_TAIL_BYTES:])


async def _copy(stream, sink) -> None:
    import anyio

    try:
        async for chunk in stream:
            sink(chunk)
    except (anyio.EndOfStream, anyio.ClosedResourceError, anyio.BrokenResourceError):
        pass


class _Lines:
    """Writes whole lines, each passed through `scrub` first (a secret split across two reads is
    still one line); what is left at the end is written last."""

    def __init__(self, fh, scrub: Callable[[str], str]):
        self.fh, self.scrub, self.pending = fh, scrub, b""

    def write(self, chunk: bytes) -> None:
        data = self.pending + chunk
        cut = data.rfind(b"\n") + 1
        if cut:
            self._put(data[:cut])
        self.pending = data[cut:]

    def close(self) -> None:
        if self.pending:
            self._put(self.pending)
            self.pending = b""

    def _put(self, data: bytes) -> None:
        self.fh.write(self.scrub(data.decode("utf-8", errors="surrogateescape")).encode("utf-8", "surrogateescape"))


def _keep_tail(tail: deque[bytes], chunk: bytes) -> None:
    tail.append(chunk)
    while sum(map(len, tail)) - len(tail[0]) >= STDERR_TAIL_BYTES:
        tail.popleft()


def _signal_group(pgid: int, sig: int) -> None:
    try:
        os.killpg(pgid, sig)
    except (ProcessLookupError, PermissionError):
        pass
