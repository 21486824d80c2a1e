"""One CPU for a process's harness thread and its agent threads, while it flies in-process episodes.

Every tool call of an in-process agent crosses a socket pair twice (agent_thread.py): two
cross-thread wake-ups. On a virtual machine the scheduler wakes the other thread on the idle
vCPU, so the interpreter's working set changes core twice a call, and the CPU time spent
refilling caches there shows as CPU time (0.78 ms a step free, 0.48 ms with the process held to
one core, 2 vCPUs). The interpreter lock lets one of these threads run at a time anyway, so
holding them on one CPU costs them no parallelism.

Who goes where:
    a worker process    (executors/worker.py) the CPU its driver gives it: worker i of n on the
                        (start + i)-th CPU of the driver's mask, `start` the CPU the driver runs
                        on then, so that two runs' workers interleave rather than pile up
    an in-process run   (the run's own loop, validate, the benches) the CPU its harness thread
                        is on at its first agent-thread episode: the scheduler has just put it
                        on the least busy one
Only CPUs of the process's own mask (a container's, `taskset`'s) are ever chosen. The pin is
taken by the thread that flies the first episode with an agent thread (the agent threads it
creates after inherit it: threads and child processes take their creator's mask), so a run
whose agent is an external client, which starts processes of its own, is never pinned. When
the run ends the thread's previous mask comes back.

Under load: a pinned process cannot flee a busy CPU, but it would not gain much by fleeing --
when both CPUs are busy, the free one is no longer free, and its threads, woken by each other,
are the ones the scheduler favours on a shared CPU. Measured with two CPU burners beside it
(README, Performance), pinned and free runs took the same time within noise. A machine that
disagrees turns it off: `A320_BENCH_NO_CPU_PIN=1`. Where the OS has no affinity API (macOS,
Windows) it does nothing.
"""

from __future__ import annotations

import ctypes
import os
import threading

OPT_OUT_ENV = "A320_BENCH_NO_CPU_PIN"  # any value but "" or "0" turns pinning off


def enabled() -> bool:
    return hasattr(os, "sched_setaffinity") and os.environ.get(OPT_OUT_ENV, "") in ("", "0")


def usable_cpus() -> list[int]:
    """The CPUs the calling thread may run on, in order; [] where the OS cannot say."""
    try:
        return sorted(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return []


def current_cpu() -> int | None:
    """The CPU the calling thread is running on, if the C library says (glibc, musl)."""
    try:
        cpu = ctypes.CDLL(None).sched_getcpu()
    except (OSError, AttributeError):
        return None
    return cpu if cpu >= 0 else None


def cpus_for_workers(n: int) -> list[int | None]:
    """One CPU per worker process, each its own while there are CPUs enough, starting at the caller's."""
    cpus = usable_cpus()
    if not enabled() or not cpus:
        return [None] * n
    here = current_cpu()
    start = cpus.index(here) if here in cpus else os.getpid() % len(cpus)
    return [cpus[(start + i) % len(cpus)] for i in range(n)]


class ThreadPin:
    """Holds the first thread that calls `hold()` on one CPU, until `release()` gives its mask back.

    `cpu`: the one to take (a worker process's); None, or one outside the mask: the one it runs on."""

    __slots__ = ("cpu", "_thread_id", "_before")

    def __init__(self, cpu: int | None = None) -> None:
        self.cpu = cpu
        self._thread_id: int | None = None
        self._before: set[int] | None = None

    @property
    def held(self) -> bool:
        return self._thread_id is not None

    def hold(self) -> None:
        if self._thread_id is not None or not enabled():
            return
        try:
            before = os.sched_getaffinity(0)
            cpu = self.cpu if self.cpu in before else current_cpu()
            if cpu not in before:
                cpu = min(before)
            os.sched_setaffinity(0, {cpu})  # 0: the calling thread, on Linux
        except OSError:  # a mask the OS will not change (a seccomp profile): stay free
            return
        self._thread_id, self._before = threading.get_native_id(), before

    def release(self) -> None:
        if self._thread_id is None:
            return
        thread_id, before = self._thread_id, self._before
        self._thread_id = self._before = None
        try:
            os.sched_setaffinity(thread_id, before)  # by id: release() may run on another thread
        except OSError:  # that thread has ended: nothing holds its mask any more
            pass
