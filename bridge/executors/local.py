"""The local executor: this machine's cores, in worker processes the run owns.

    processes = min(--workers, usable cores, chains); 1 for an external client, whose work is
                done in its own processes (and whose notes the driver prints once per run)
    1 process   the chains fly in the driver's own event loop, --workers at a time
    more        `processes` worker processes (worker.py), each flying up to
                ceil(--workers / processes) chains at a time in its own event loop: CPU-bound
                episodes use every core, I/O-bound ones (a model with latency) still overlap

A worker writes its episodes' trajectories into the run folder itself, event by event,
exactly as the driver would. A worker gets the scenarios it has already prepared first
(handout.py: a first setup can take a second, a repeated one is a copy), a new scenario
next, and another worker's only when nothing else is left, so that no core idles.
The driver hands out chains as workers have room (each
holds as many again as it flies while plenty are queued, so that the next chain is
there when one ends), so a slow chain never holds up the others; the first chains go out once every worker has
loaded the job (a provider's imports take seconds), so that no worker starts with
its siblings' share.

The pool never outlives the run: workers die with the driver (worker.py), and leaving
`run` kills each worker's process group. A worker that dies mid-chain (killed, out of
memory) is an infrastructure fault: its chains are flown again, from their first
episode without a result, by a fresh worker (MAX_ATTEMPTS in all); the trajectory it left
half-written is replaced. Interrupted (Ctrl-C, SIGTERM), the driver tells every worker to
stop: their episodes in flight end `interrupted` as in the driver's own loop.

`A320_BENCH_WORKER_PROCESSES` caps the number of processes (a test or a benchmark
pinning it); `--max-concurrency-per-model N` caps the episodes in flight.
"""

from __future__ import annotations

import math
import os
import signal
import subprocess
import sys
from collections.abc import Sequence
from typing import Any

from a320bench.server.end_reason import EndReason

from .. import console
from ..cpu_affinity import cpus_for_workers
from . import frames
from .base import RunState
from .chain import Chain, RunJob, run_chain
from .handout import Handout

MAX_ATTEMPTS = 3  # a chain whose worker died is flown again, up to this many times in all
STOP_GRACE_S = 30.0  # after "stop": time for the episodes in flight to record `interrupted`


def usable_cores() -> int:
    try:
        cores = len(os.sched_getaffinity(0))
    except AttributeError:  # not Linux
        cores = os.cpu_count() or 1
    cap = os.environ.get("A320_BENCH_WORKER_PROCESSES", "")
    return max(1, min(cores, int(cap))) if cap.isdigit() else cores


class LocalExecutor:
    name = "local"

    def __init__(self, workers: int, max_per_model: int | None = None):
        self.workers = min(workers, max_per_model) if max_per_model else workers

    def processes(self, chains: int, job: RunJob) -> int:
        if job.is_client:
            return 1
        return max(1, min(self.workers, usable_cores(), chains))

    def describe(self, chains: Sequence[Chain], job: RunJob) -> str:
        n = self.processes(len(chains), job)
        if n == 1:
            return f"local, in this process, {self.workers} episode(s) at a time"
        return f"local, {n} worker processes, up to {math.ceil(self.workers / n)} episode(s) at a time each"

    async def run(self, chains: Sequence[Chain], job: RunJob, state: RunState) -> None:
        n = self.processes(len(chains), job)
        if n == 1:
            await self._inline(chains, job, state)
        else:
            await _Pool(n, math.ceil(self.workers / n), job, state).run(chains)

    async def _inline(self, chains: Sequence[Chain], job: RunJob, state: RunState) -> None:
        import gc

        import anyio

        from ..agent_thread import reusing_agent_threads
        from .worker import _load_episode_code

        limiter = anyio.CapacityLimiter(self.workers)

        async def one(chain: Chain) -> None:
            async with limiter:
                await run_chain(chain, job, on_result=state.record, may_start=state.may_start,
                                on_storage=state.refuse_storage)

        # What is loaded by now lives through the run: a full collection need not walk it (one took
        # ~70 ms of CPU every few dozen episodes). Thawed after, so an in-process caller loses nothing.
        _load_episode_code()
        gc.freeze()
        try:
            with reusing_agent_threads():
                async with anyio.create_task_group() as tg:
                    for chain in chains:
                        tg.start_soon(one, chain)
        finally:
            gc.unfreeze()


class _Worker:
    def __init__(self, process: Any):
        self.process = process
        self.room: Any = None  # an anyio.Semaphore: the chains it may hold at once (flying or next)
        self.ready = False
        self.freed: Any = None  # an anyio.Event: set when one of its chains is done
        self.inflight: dict[int, Chain] = {}
        self.done: dict[int, set[int]] = {}  # chain index -> plan indices with a result

    async def send(self, message: tuple[Any, ...]) -> bool:
        import anyio

        try:
            await self.process.stdin.send(frames.encode(message))
            return True
        except (anyio.BrokenResourceError, anyio.ClosedResourceError, OSError):
            return False

    def kill(self) -> None:
        try:
            os.killpg(self.process.pid, signal.SIGKILL)  # the worker leads its own process group
        except (ProcessLookupError, PermissionError):
            pass


class _Pool:
    def __init__(self, processes: int, per_process: int, job: RunJob, state: RunState):
        self.processes, self.per_process, self.job, self.state = processes, per_process, job, state
        self.workers: set[_Worker] = set()
        self.attempts: dict[int, int] = {}
        self.pending: set[int] = set()

    async def run(self, chains: Sequence[Chain]) -> None:
        import anyio

        self.planned = {p.index: p for c in chains for p in c.episodes}
        self.pending = {c.index for c in chains}
        self.attempts = {c.index: 1 for c in chains}
        self.all_ready = anyio.Event()
        self.ready = 0
        self.failed_starts = 0
        self.held = False
        self.handout = Handout(chains)
        self.closed = False
        self.queued = anyio.Event()  # set (and replaced) when a chain is put back or the pool closes
        async with anyio.create_task_group() as tg:
            for cpu in cpus_for_workers(self.processes):  # worker i on its own CPU (cpu_affinity.py)
                tg.start_soon(self._slot, cpu)

    def _little_left(self) -> bool:
        """Too few chains are queued to hand out more than each worker flies: none is held in advance."""
        return len(self.handout) <= self.processes * self.per_process

    def _finished(self, chain_index: int) -> None:
        self.pending.discard(chain_index)
        if not self.pending:
            self.closed = True  # every chain has its results: the workers are told to leave
            self._wake()

    def _wake(self) -> None:
        import anyio

        self.queued.set()
        self.queued = anyio.Event()

    async def _next_chain(self, worker: _Worker) -> Chain | None:
        """The chain `worker` flies next (handout.py: the scenarios it has prepared first); None: no more."""
        while True:
            chain = self.handout.take(worker)
            if chain is not None or self.closed:
                return chain
            await self.queued.wait()  # every chain is out; one may come back (its worker died)

    async def _slot(self, cpu: int | None) -> None:
        """One worker process at a time, replaced when it dies while chains are left."""
        import anyio

        argv = [sys.executable, "-m", "a320bench.bridge.executors.worker", str(os.getpid())]
        argv += [] if cpu is None else [str(cpu)]
        while self.pending:
            process = await anyio.open_process(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                               stderr=subprocess.PIPE, start_new_session=True)
            worker = _Worker(process)
            self.workers.add(worker)
            try:
                died = await self._drive(worker)
            finally:
                self.workers.discard(worker)
                worker.kill()
                with anyio.CancelScope(shield=True), anyio.move_on_after(5.0):
                    await process.aclose()
            if not died:
                return
            self.handout.forget(worker)  # its scenarios are nobody's: a live worker may take them
            if not worker.ready:  # it died loading the job: a broken installation, not a passing fault
                self.failed_starts += 1
                if self.failed_starts >= MAX_ATTEMPTS:
                    raise WorkerStartError(f"worker processes die as they start ({_how(process.returncode)}); "
                                           "their stderr is above")
            self._retry(worker)

    async def _drive(self, worker: _Worker) -> bool:
        """Feed the worker and take its results until it says bye (False) or dies (True)."""
        import anyio
        from anyio.streams.buffered import BufferedByteReceiveStream

        stdout = BufferedByteReceiveStream(worker.process.stdout)
        worker.room = anyio.Semaphore(2 * self.per_process)  # as many again wait in the worker: no idle gap

        async def feed() -> None:
            await worker.send(("job", self.job, self.per_process))
            await self.all_ready.wait()
            while True:
                await worker.room.acquire()
                while len(worker.inflight) >= self.per_process and self._little_left():
                    worker.freed = anyio.Event()  # a chain to wait on, not one to take from an idle sibling
                    await worker.freed.wait()
                chain = await self._next_chain(worker)
                if chain is None:
                    await worker.send(("close",))
                    return
                if not self.state.may_start():  # the disk is refusing: the chain is not started
                    worker.room.release()
                    self._finished(chain.index)
                    continue
                worker.inflight[chain.index] = chain
                worker.done.setdefault(chain.index, set())
                if not await worker.send(("chain", chain)):
                    return  # it died: the reader sees the end of its output

        async def copy_stderr() -> None:
            async for line in _lines(worker.process.stderr):
                sys.stderr.write(line)
                sys.stderr.flush()

        try:
            async with anyio.create_task_group() as tg:
                tg.start_soon(feed)
                tg.start_soon(copy_stderr)
                died = not await self._take(worker, stdout)
                tg.cancel_scope.cancel()
            return died
        except anyio.get_cancelled_exc_class():
            # Interrupted: the worker ends its episodes in flight `interrupted` and reports them.
            with anyio.CancelScope(shield=True):
                if await worker.send(("stop",)):
                    with anyio.move_on_after(STOP_GRACE_S):
                        await self._take(worker, stdout)
            raise

    async def _take(self, worker: _Worker, stdout: Any) -> bool:
        """Record the worker's results until it says bye (True) or its output ends (False)."""
        while True:
            message = await frames.receive(stdout)
            if message is None:
                return False
            kind = message[0]
            if kind == "ready":
                worker.ready = True
                self.ready += 1
                if self.ready >= self.processes:  # replacements join a pool that is already going
                    self.all_ready.set()
            elif kind == "result":
                _, chain_index, plan_index, res = message
                worker.done.setdefault(chain_index, set()).add(plan_index)
                self.state.record(self.planned[plan_index], res)
                await self._hold_if_refused()
            elif kind == "storage":  # a chain's learning store the disk refuses
                self.state.refuse_storage(message[1])
                await self._hold_if_refused()
            elif kind == "chain_done":
                chain_index = message[1]
                worker.inflight.pop(chain_index, None)
                worker.room.release()
                if worker.freed is not None:
                    worker.freed.set()
                self._finished(chain_index)
            elif kind == "bye":
                self.state.setups_run += message[1]
                return True

    async def _hold_if_refused(self) -> None:
        if not self.state.may_start() and not self.held:  # the disk refuses: no worker starts more
            self.held = True
            for other in list(self.workers):
                await other.send(("hold",))

    def _retry(self, worker: _Worker) -> None:
        """The worker died: fly its unfinished chains again, or give them up after MAX_ATTEMPTS."""
        from ..inprocess_episode import EpisodeResult

        how = _how(worker.process.returncode)
        for chain in worker.inflight.values():
            rest = chain.without(worker.done.get(chain.index, ()))
            if not rest.episodes:
                self._finished(chain.index)
                continue
            if not self.state.may_start():  # the disk refuses: not flown again now; a resume will
                self._finished(chain.index)
                continue
            names = ", ".join(f"{p.scenario.id} run {p.run_index}" for p in rest.episodes[:3])
            if self.attempts[chain.index] < MAX_ATTEMPTS:
                self.attempts[chain.index] += 1
                self.state.retried += 1
                console.note(f"a worker process died ({how}) while flying {names}: flying it again")
                self.handout.put_back(rest)
                self._wake()
                continue
            for p in rest.episodes:  # no file stands as a result: a resume flies them again
                self.state.record(p, EpisodeResult(p.scenario.id, p.run_index, p.path, EndReason.HARNESS_ERROR,
                                                   False, False, {}, error=f"harness error: its worker process died "
                                                   f"({how}) {self.attempts[chain.index]} time(s)"))
            self._finished(chain.index)


class WorkerStartError(RuntimeError):
    """Worker processes die before they can fly anything: a bug of ours or a broken installation."""


def _how(code: int | None) -> str:
    return f"signal {-code}" if code is not None and code < 0 else f"exit {code}"


async def _lines(stream: Any):
    """Whole lines of a byte stream, decoded (a line split across reads stays one line)."""
    import anyio

    pending = b""
    try:
        async for chunk in stream:
            pending += chunk
            *lines, pending = pending.split(b"\n")
            for line in lines:
                yield line.decode("utf-8", "replace") + "\n"
    except (anyio.EndOfStream, anyio.ClosedResourceError, anyio.BrokenResourceError):
        pass
    if pending:
        yield pending.decode("utf-8", "replace")
