"""Run an external client in its own process group under a wall-clock limit.

The client starts `a320-bench serve` as its child, so the server shares the
client's process group. On timeout the group gets SIGTERM (the server then
writes its `final` and exits) and SIGKILL shortly after; after a normal exit the
group gets a few seconds to drain (the server finishing its trajectory) before
it is terminated the same way. stdin is /dev/null; stdout and stderr go to files.
"""

from __future__ import annotations

import os
import signal
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path

DRAIN_S = 5.0  # after the client exits: time for the server to finish (it needs well under 1 s)
TERM_GRACE_S = 2.0  # SIGTERM -> SIGKILL


@dataclass
class ProcessOutcome:
    exit_code: int | None  # None when it never started or was killed
    timed_out: bool
    wall_s: float
    start_error: str | None = None  # the program could not be started (not found, not executable)
    leftovers_killed: bool = False  # processes of the group outlived the client and were terminated


async def run_in_group(argv: list[str], *, cwd: Path, env: dict[str, str], stdout: Path, stderr: Path,
                       timeout_s: float, drain_s: float = DRAIN_S) -> ProcessOutcome:
    import anyio

    t0 = time.monotonic()
    with open(stdout, "wb") as out, open(stderr, "wb") as err:
        try:
            proc = await anyio.open_process(argv, stdin=subprocess.DEVNULL, stdout=out, stderr=err, cwd=cwd,
                                            env=env, start_new_session=True)
        except OSError as e:  # FileNotFoundError, PermissionError, ENOEXEC
            return ProcessOutcome(None, False, 0.0, start_error=f"{argv[0]}: {e.strerror or e}")
    pgid = proc.pid  # start_new_session: the client leads its own session and process group
    timed_out = False
    try:
        with anyio.move_on_after(timeout_s) as scope:
            await proc.wait()
        if scope.cancelled_caught:
            timed_out = True
            await _terminate_group(pgid)
            with anyio.move_on_after(TERM_GRACE_S):
                await proc.wait()
        leftovers = await _drain(pgid, drain_s)
    except BaseException:  # cancelled (Ctrl-C, a failing sibling): leave nothing behind
        _signal_group(pgid, signal.SIGKILL)
        raise
    code = None if timed_out else proc.returncode
    return ProcessOutcome(code, timed_out, round(time.monotonic() - t0, 3), leftovers_killed=leftovers)


async def _drain(pgid: int, drain_s: float) -> bool:
    """Wait for the rest of the group to exit; terminate it if it does not. True if it had to."""
    import anyio

    deadline = time.monotonic() + drain_s
    while group_alive(pgid):
        if time.monotonic() > deadline:
            await _terminate_group(pgid)
            return True
        await anyio.sleep(0.02)
    return False


async def _terminate_group(pgid: int) -> None:
    import anyio

    _signal_group(pgid, signal.SIGTERM)
    deadline = time.monotonic() + TERM_GRACE_S
    while group_alive(pgid) and time.monotonic() < deadline:
        await anyio.sleep(0.02)
    if group_alive(pgid):
        _signal_group(pgid, signal.SIGKILL)


def _signal_group(pgid: int, sig: int) -> None:
    try:
        os.killpg(pgid, sig)
    except (ProcessLookupError, PermissionError):
        pass


def group_alive(pgid: int) -> bool:
    """Is any process of the group still running? Zombies do not count: an orphaned server
    is reaped by init, which in a container may never happen."""
    proc = Path("/proc")
    if not proc.is_dir():
        try:
            os.killpg(pgid, 0)
        except (ProcessLookupError, PermissionError):
            return False
        return True
    for entry in os.scandir(proc):
        if not entry.name.isdigit():
            continue
        try:
            stat = Path(entry.path, "stat").read_text()
        except OSError:
            continue
        # pid (comm) state ppid pgrp ...: comm may hold spaces and parentheses, so split after the last ')'
        fields = stat[stat.rfind(")") + 2:].split()
        if len(fields) >= 3 and fields[2] == str(pgid) and fields[0] not in ("Z", "X"):
            return True
    return False
