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

Under load: a pinned process cannot flee a busy CPU, but when every CPU is busy there is
nowhere better to go: with two CPU burners beside it (and the other jobs of this machine)
the catalogue run took 52-70 s pinned vs 81-91 s free in one process (a second pass: 61-106 s
vs 76-98 s), 29-34 s vs 40-43 s in two (README, Performance): no loss beyond this machine's noise.
What pinning can get wrong is a CPU shared while another stands idle: two runs started together
on one CPU, or a job pinned beside it. So the held thread looks, at an episode's start every
RECHECK_S, at how long it waited for its CPU since its last look (/proc/thread-self/schedstat)
and how idle each CPU of its mask stood (/proc/stat): waiting WAITED_SHARE of the time while
another CPU was idle IDLE_SHARE of it, it moves there with its agent threads. A machine that
disagrees turns it all off: `A320_BENCH_NO_CPU_PIN=1`. Where the OS has no affinity API
(macOS, Windows) it does nothing; without those two files it pins and never moves.
"""

from __future__ import annotations

import ctypes
import os
import threading
import time
from collections.abc import Iterable

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

    __slots__ = ("cpu", "_thread_id", "_before", "_sample")

    def __init__(self, cpu: int | None = None) -> None:
        self.cpu = cpu
        self._thread_id: int | None = None
        self._before: set[int] | None = None
        self._sample: _Sample | None = None

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
        self.cpu, self._thread_id, self._before = cpu, threading.get_native_id(), before
        self._sample = _Sample.take()

    def rebalance(self, others: Iterable[int]) -> None:
        """Called by the held thread now and then: if it has waited for its CPU a good share of the time
        since the last call while another CPU of its mask stood mostly idle, move there, with `others`
        (native thread ids: its agent threads). Two runs that chose the same CPU part this way."""
        if self._thread_id is None or self._sample is None or self._before is None:
            return
        now = _Sample.take()
        if now.wall_s - self._sample.wall_s < RECHECK_S:
            return
        last, self._sample = self._sample, now
        best = now.idlest(last, self._before)
        if best is None or best == self.cpu or now.waited_share(last) < WAITED_SHARE:
            return
        try:
            os.sched_setaffinity(0, {best})
        except OSError:
            return
        self.cpu = best
        for thread_id in others:
            try:
                os.sched_setaffinity(thread_id, {best})
            except OSError:  # that thread has ended
                pass

    def release(self) -> None:
        if self._thread_id is None:
            return
        thread_id, before = self._thread_id, self._before
        self._thread_id = self._before = self._sample = None
        try:
            os.sched_setaffinity(thread_id, before)  # by id: release() may run on another thread
        except OSError:  # that thread has ended: nothing holds its mask any more
            pass


RECHECK_S = 0.5  # how often a held thread looks at whether its CPU is shared
WAITED_SHARE = 0.25  # it moves when it waited for its CPU this share of the time, or more ...
IDLE_SHARE = 0.75  # ... and another CPU of its mask stood idle this share of the time, or more (so that
# a second run, which shared its CPU for part of the time since its last look, does not follow the first)


class _Sample:
    """What the kernel says at one moment: the calling thread's total wait for a CPU, every CPU's idle ticks."""

    __slots__ = ("wall_s", "waited_s", "idle", "ticks")

    def __init__(self, wall_s: float, waited_s: float | None, idle: dict[int, int], ticks: dict[int, int]):
        self.wall_s, self.waited_s, self.idle, self.ticks = wall_s, waited_s, idle, ticks

    @classmethod
    def take(cls) -> _Sample:
        waited_s = None
        try:  # cpu time, run-queue wait (ns), time slices
            with open("/proc/thread-self/schedstat") as f:
                waited_s = int(f.read().split()[1]) / 1e9
        except (OSError, IndexError, ValueError):
            pass
        idle: dict[int, int] = {}
        ticks: dict[int, int] = {}
        try:  # cpuN user nice system idle iowait irq softirq steal ...
            with open("/proc/stat") as f:
                for line in f:
                    if line.startswith("cpu") and line[3:4].isdigit():
                        name, *values = line.split()
                        counts = [int(v) for v in values[:8]]
                        idle[int(name[3:])], ticks[int(name[3:])] = counts[3] + counts[4], sum(counts)
        except (OSError, ValueError, IndexError):
            idle, ticks = {}, {}
        return cls(time.monotonic(), waited_s, idle, ticks)

    def waited_share(self, last: _Sample) -> float:
        if self.waited_s is None or last.waited_s is None:
            return 0.0
        return (self.waited_s - last.waited_s) / max(self.wall_s - last.wall_s, 1e-9)

    def idlest(self, last: _Sample, mask: set[int]) -> int | None:
        """The CPU of `mask` idle the largest share of the time since `last`, if idle IDLE_SHARE of it."""
        shares = {}
        for cpu in mask:
            ticks = self.ticks.get(cpu, 0) - last.ticks.get(cpu, 0)
            if ticks > 0 and cpu in self.idle and cpu in last.idle:
                shares[cpu] = (self.idle[cpu] - last.idle[cpu]) / ticks
        best = max(sorted(shares), key=shares.__getitem__, default=None)
        return best if best is not None and shares[best] >= IDLE_SHARE else None
