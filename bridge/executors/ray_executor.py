"""The Ray executor (`run --executor ray`, extra `[ray]`): each chain a Ray task, anywhere on a cluster.

    cluster     --ray-address, else $RAY_ADDRESS, else a local one the run starts (listening on
                loopback only, with every core) and stops at the end
    a task      flies its chain (chain.run_chain, as every executor) in a private temporary
                folder of the node it lands on (under $TMPDIR/a320bench-chains, which a client's
                sandbox hides, as it hides the run folder), and returns the episodes' results and the files
                they wrote; the driver writes those files into the run folder (atomically: a
                trajectory is there whole or not at all) and records the results, so the run
                folder, the run record, resume and the scores are the local executor's. A
                learning chain takes its store as the run folder has it and hands it back as
                the chain left it; the driver writes it before the chain's trajectories
    hints       num_cpus 1 for the built-in providers (CPU-bound), 0.25 for a model or a client
                (they mostly wait); a client chain also needs the custom resource `client`,
                which nodes with the client installed declare (`ray start --resources
                '{"client": N}'`); at most --workers chains are in flight
    clients     need a cluster with token authentication, or the run refuses before anything
                flies (ray_auth.py): a client's sandbox shares the cluster's network
    a worker    that dies mid-chain is an infrastructure fault: Ray runs the task again
                (MAX_ATTEMPTS in all), from its first episode, in a fresh folder; nothing it
                half-wrote reaches the run folder, so no episode is lost or written twice.
                Past the attempts, the chain's episodes end harness_error, unwritten (resume
                flies them)
    rate limit  --max-concurrency-per-model N: a lease from one named actor (slots.py) per
                chain in flight, shared by every driver on the cluster
    interrupt   Ctrl-C or SIGTERM cancels the tasks in flight (their workers are killed, a
                client sandbox with them); their episodes end `interrupted`, unwritten

Secrets reach the tasks as their arguments (the RunJob's scrubber and, for a model, the
credentials the cluster's environment lacks are the operator's to provide), never as files.
"""

from __future__ import annotations

import os
import stat
import sys
import tempfile
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

from a320bench.server.end_reason import EndReason

from ..errors import BridgeError, MissingExtra, UsageError
from . import ray_auth
from .base import RunState
from .chain import Chain, RunJob, run_chain

MAX_ATTEMPTS = 3
POLL_S = 0.2


# Read by Ray when it is imported: a cluster of one machine, whose servers listen on loopback only
# (Ray would otherwise pick the machine's network address, even for a cluster it starts itself).
SINGLE_MACHINE = {"RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER": "0"}


def import_ray(local: bool = False) -> Any:
    """The ray module (set up for a local cluster on loopback when `local`), or MissingExtra: one line
    with the exact pip command."""
    if local and "ray" not in sys.modules:
        for k, v in SINGLE_MACHINE.items():
            os.environ.setdefault(k, v)
    try:
        import ray
    except ImportError as e:
        from ..providers import install_command

        raise MissingExtra(f"--executor ray needs the ray extra ({e.name or 'ray'} is not installed): "
                           f"{install_command('ray')}") from None
    return ray


class UnsafeChainsFolder(BridgeError):
    """$TMPDIR/a320bench-chains is not a folder of this user's alone: the chains are not flown there."""


def chains_folder() -> Path:
    """The node's folder for the chains in flight, made private to this user: every chain in one folder that
    a client's sandbox hides whole, so a client whose command names a folder above it sees neither its own
    episode in progress nor another chain's. Another user's folder of that name (made first in a shared
    $TMPDIR), or a link, would see the trajectories being written: refused, one line."""
    path = Path(tempfile.gettempdir()) / "a320bench-chains"
    try:
        path.mkdir(mode=0o700, exist_ok=True)
        st = path.lstat()
    except OSError as e:
        raise UnsafeChainsFolder(f"cannot make the chains' folder {path}: {e.strerror}") from None
    if not stat.S_ISDIR(st.st_mode) or st.st_uid != os.getuid():
        what = "a link" if stat.S_ISLNK(st.st_mode) else "not a folder" if not stat.S_ISDIR(st.st_mode) \
            else f"owned by uid {st.st_uid}"
        raise UnsafeChainsFolder(f"the chains' folder {path} is {what}, not this user's own (uid {os.getuid()}): "
                                 f"remove it, or give the cluster's workers another TMPDIR")
    if stat.S_IMODE(st.st_mode) & 0o077:
        path.chmod(0o700)  # ours, but others could look in
    return path


def fly_chain(job: RunJob, chain: Chain, store: bytes | None = None) -> dict[str, Any]:
    """The Ray task: fly the chain in a private folder. Returns the episodes (plan index, result, {file name:
    bytes}), and for a learning chain the store as the chain left it (`store`: as the driver's disk had it)
    and what the disk refused."""
    import anyio

    # Every chain of this node in one folder that a client's sandbox hides whole (chains_folder), and
    # the cluster's token: with it, a client could have the cluster run its code outside the sandbox.
    chains = chains_folder()
    if hasattr(job.agent, "hide_also"):
        job.agent.hide_also(chains, *ray_auth.token_files())
    with tempfile.TemporaryDirectory(prefix="chain-", dir=chains) as private:
        here = {p.index: Path(private) / str(p.index) / p.path.name for p in chain.episodes}
        rebased = replace(chain, episodes=tuple(replace(p, path=here[p.index]) for p in chain.episodes))
        if chain.store is not None:
            rebased = replace(rebased, store=replace(chain.store, path=Path(private) / "store.json"))
            if store is not None:
                rebased.store.path.write_bytes(store)
        results: list[tuple[int, Any]] = []
        refused: list[str] = []
        anyio.run(_fly, rebased, job, results, refused)
        out = []
        for index, res in results:
            folder = here[index].parent
            files = {f.name: f.read_bytes() for f in sorted(folder.iterdir())} if folder.is_dir() else {}
            out.append((index, res, files))
        kept = rebased.store.path if rebased.store is not None else None
        return {"episodes": out, "store": kept.read_bytes() if kept is not None and kept.is_file() else None,
                "refused": [line.replace(str(kept), str(chain.store.path)) for line in refused] if kept else refused}


async def _fly(chain: Chain, job: RunJob, results: list[tuple[int, Any]], refused: list[str]) -> None:
    await run_chain(chain, job, on_result=lambda p, res: results.append((p.index, res)), on_storage=refused.append)


def _store_on_disk(chain: Chain) -> bytes | None:
    """A learning chain's store as the run folder has it (resume: the saves of the episodes that stand)."""
    if chain.store is None or not chain.store.path.is_file():
        return None
    return chain.store.path.read_bytes()


class RayExecutor:
    name = "ray"

    def __init__(self, workers: int, *, address: str | None = None, max_per_model: int | None = None,
                 clients: bool = False):
        if clients:  # before a cluster is started or joined
            ray_auth.refuse_mode_set(os.environ)
        self.address = address or os.environ.get("RAY_ADDRESS") or None
        self.ray = import_ray(local=self.address is None)
        self.workers = workers
        self.max_per_model = max_per_model

    def describe(self, chains: Sequence[Chain], job: RunJob) -> str:
        if self.ray.is_initialized():
            where = "the cluster this process has joined"
        else:
            where = f"the cluster at {self.address}" if self.address else "a local cluster started by the run"
        limit = f", at most {self.max_per_model} per model across the cluster" if self.max_per_model else ""
        return f"ray, {where}, up to {self.workers} chain(s) in flight{limit}"

    def _connect(self, job: RunJob) -> bool:
        """Join the cluster (or start a local one); True when this run started Ray and must stop it."""
        import logging

        ray = self.ray
        if ray.is_initialized():
            return False
        # Joined from a worker thread: Ray says, as a warning, that it leaves SIGTERM to us (as it must:
        # the driver's handler ends the episodes in flight `interrupted`).
        logging.getLogger("ray").setLevel(logging.ERROR)
        if self.address:
            try:
                ray.init(address=self.address, log_to_driver=False, configure_logging=False)
            except (ConnectionError, ray.exceptions.AuthenticationError) as e:
                raise UsageError(f"--executor ray: cannot join the cluster at {self.address}: "
                                 f"{_joining_failure(e, ray)}") from None
        else:
            ray.init(include_dashboard=False, log_to_driver=False, configure_logging=False,
                     resources={"client": float(self.workers)})
        return True

    async def run(self, chains: Sequence[Chain], job: RunJob, state: RunState) -> None:
        import anyio

        started = await anyio.to_thread.run_sync(self._connect, job)
        try:
            if job.is_client and not self.ray.cluster_resources().get("client"):
                raise UsageError("--executor ray: no node of the cluster offers the `client` resource; start the "
                                 "nodes that have the client installed with ray start --resources "
                                 "'{\"client\": N}'")
            if job.is_client:
                await anyio.to_thread.run_sync(ray_auth.check_cluster, self.ray)
            await _Batch(self, job, state).run(chains)
        finally:
            if started:
                with anyio.CancelScope(shield=True):
                    await anyio.to_thread.run_sync(self.ray.shutdown)


class _Batch:
    def __init__(self, executor: RayExecutor, job: RunJob, state: RunState):
        self.ray, self.job, self.state = executor.ray, job, state
        self.workers, self.max_per_model = executor.workers, executor.max_per_model
        built_in = not job.is_client and getattr(job.agent, "model", None) is None
        self.options: dict[str, Any] = {"num_cpus": 1 if built_in else 0.25, "max_retries": MAX_ATTEMPTS - 1,
                                        "retry_exceptions": False}
        if job.is_client:
            self.options["resources"] = {"client": 1}
        self.inflight: dict[Any, tuple[Chain, Any]] = {}  # object ref -> (chain, lease)

    async def run(self, chains: Sequence[Chain]) -> None:
        import anyio

        task = self.ray.remote(fly_chain).options(**self.options)
        job_ref = self.ray.put(self.job)
        slots = None
        if self.max_per_model:
            from .slots import model_slots

            slots = await anyio.to_thread.run_sync(model_slots, self.ray)
        model = str(getattr(self.job.agent, "model", None) or getattr(self.job.agent, "name", "?"))
        queue = list(chains)
        try:
            async with anyio.create_task_group() as tg:
                if slots is not None:
                    tg.start_soon(self._renew, slots)
                while queue or self.inflight:
                    while queue and len(self.inflight) < self.workers and self.state.may_start():
                        lease = None
                        if slots is not None:
                            lease = await anyio.to_thread.run_sync(
                                lambda: self.ray.get(slots.acquire.remote(model, self.max_per_model)))
                            if lease is None:
                                break  # the model's slots are all taken, somewhere on the cluster
                        chain = queue.pop(0)
                        self.inflight[task.remote(job_ref, chain, _store_on_disk(chain))] = (chain, lease)
                    if not self.state.may_start():
                        queue.clear()  # the disk is refusing: no further chain starts
                    if not self.inflight:
                        await anyio.sleep(POLL_S)
                        continue
                    ready, _ = await anyio.to_thread.run_sync(
                        lambda: self.ray.wait(list(self.inflight), num_returns=1, timeout=POLL_S))
                    for ref in ready:
                        chain, lease = self.inflight.pop(ref)
                        self._release(slots, lease)
                        await anyio.to_thread.run_sync(self._take, ref, chain)
                tg.cancel_scope.cancel()
        except anyio.get_cancelled_exc_class():
            with anyio.CancelScope(shield=True):
                self._interrupt(slots)
            raise

    async def _renew(self, slots: Any) -> None:
        import anyio

        from .slots import RENEW_S

        while True:
            await anyio.sleep(RENEW_S)
            leases = [lease for _, lease in self.inflight.values() if lease]
            if leases:
                slots.renew.remote(leases)

    def _release(self, slots: Any, lease: Any) -> None:
        if slots is not None and lease is not None:
            slots.release.remote(lease)

    def _take(self, ref: Any, chain: Chain) -> None:
        """Write what a finished task returned into the run folder, then record its results."""
        from ..inprocess_episode import EpisodeResult

        planned = {p.index: p for p in chain.episodes}
        try:
            returned = self.ray.get(ref)
        except self.ray.exceptions.RayError as e:
            cause = getattr(e, "cause", None)
            if isinstance(cause, UnsafeChainsFolder):  # the task's own refusal: not retried
                why = str(cause)
            elif isinstance(e, (self.ray.exceptions.WorkerCrashedError, self.ray.exceptions.NodeDiedError)):
                why = f"its Ray worker died ({MAX_ATTEMPTS} attempt(s))"
            else:
                why = f"the Ray task failed: {type(e).__name__}"
            for p in chain.episodes:  # nothing was written: a resume flies them again
                self.state.record(p, EpisodeResult(p.scenario.id, p.run_index, p.path, EndReason.HARNESS_ERROR,
                                                   False, False, {}, error=f"harness error: {why}"))
            return
        # The store first: if the driver dies before the trajectories are written, resume flies those
        # episodes again from a store that already holds their saves, and begin() drops them.
        store_failure = None
        if chain.store is not None and returned["store"] is not None:
            store_failure = _write_atomic(chain.store.path, returned["store"])
            if store_failure is not None:
                returned["refused"].append(store_failure)
        for line in returned["refused"]:
            self.state.refuse_storage(line)
        for index, res, files in returned["episodes"]:
            p = planned[index]
            res.path = p.path
            # Without its store, a learning chain's trajectories are not written: standing, they would
            # let a resume skip episodes whose notes the store lacks.
            failure = store_failure or _write_files(p.path, files)
            if failure is not None:
                res = EpisodeResult(p.scenario.id, p.run_index, p.path, EndReason.STORAGE_ERROR, False,
                                    res.gate_passed, res.final, error=failure)
            self.state.record(p, res)

    def _interrupt(self, slots: Any) -> None:
        """Cancel the tasks in flight: their episodes end `interrupted`, and nothing of them is written."""
        from ..inprocess_episode import EpisodeResult

        for ref, (chain, lease) in list(self.inflight.items()):
            try:
                self.ray.cancel(ref, force=True)  # kills the worker, and a client's sandbox with it
            except Exception:  # noqa: BLE001 - the task may have finished meanwhile; nothing to cancel
                pass
            self._release(slots, lease)
            for p in chain.episodes:
                self.state.record(p, EpisodeResult(p.scenario.id, p.run_index, p.path, EndReason.INTERRUPTED,
                                                   False, False, {}))
        self.inflight.clear()


def _joining_failure(e: BaseException, ray: Any) -> str:
    """Why ray.init could not join, in a line. A refused token is behind its ConnectionError, as an
    AuthenticationError or, from the GCS client, only as the text of one."""
    chain: list[BaseException] = []
    cause: BaseException | None = e
    while cause is not None and cause not in chain:
        chain.append(cause)
        cause = cause.__cause__ or cause.__context__
    if any(isinstance(c, ray.exceptions.AuthenticationError) or "AuthenticationError" in str(c) for c in chain):
        return ("it requires a token this driver does not send (token authentication: set RAY_AUTH_MODE=token, "
                "and the cluster's token in ~/.ray/auth_token, $RAY_AUTH_TOKEN_PATH or $RAY_AUTH_TOKEN)")
    return str(e).strip().splitlines()[0] if str(e).strip() else type(e).__name__


def _write_files(trajectory: Path, files: dict[str, bytes]) -> str | None:
    """Write an episode's files beside its trajectory, each whole or not at all; one line on failure."""
    for name, data in files.items():
        failure = _write_atomic(trajectory.with_name(name), data, "the trajectory")
        if failure is not None:
            return failure
    return None


def _write_atomic(path: Path, data: bytes, what: str = "the learning store") -> str | None:
    """Write one file whole or not at all; one line on failure."""
    from a320bench.server.trajectory import LinkRefused, describe_os_error, write_bytes_atomic

    try:
        write_bytes_atomic(path, data)
    except LinkRefused as e:
        return f"cannot write {what}: {e}"
    except OSError as e:
        return describe_os_error(what, path, e)
    return None
