"""Executors: where a run's episodes fly. One interface; the episode code does not know which.

The unit of work is a CHAIN (chain.py): an ordered tuple of planned episodes that one
worker flies one after another. An ordinary run makes one chain per episode; a run
whose episodes must follow each other (a learning track: every scenario of one run
index, in a fixed order) makes longer chains, and its results stay reproducible
however many workers fly chains side by side.

    chains = single_episode_chains(plan.episodes)
    job = RunJob(agent, profile, seed, scrubber)     picklable: what every chain shares
    executor = make_executor(args)                   `local` (default) or `ray`
    await executor.run(chains, job, state)           state: base.RunState, in the driver

    Executor.describe(chains, job) -> str  one line for `run --dry-run`
    Executor.run(chains, job, state)       flies every chain; each episode's result goes to
                                           state.record(planned, result) in the driver as
                                           soon as it is known; no chain starts once
                                           state.may_start() is False (a refusing disk);
                                           cancelled, the episodes in flight end
                                           `interrupted` and are recorded before it returns

Every executor flies an episode through chain.run_chain, the same code as a run in one
process: the same trajectory (timestamps aside), run folder, run record, resume and
scores, wherever it ran.

    local   local.py: the driver's own event loop, or worker processes the run owns
            (one per core), each flying several chains at a time; workers write the
            trajectories into the run folder themselves
    ray     ray_executor.py (extra `[ray]`): each chain a Ray task; the task flies it in a
            private folder and hands the files back, and the driver writes them into
            the run folder
"""

from __future__ import annotations

from typing import Any

from .base import Executor, RunState
from .chain import Chain, RunJob, run_chain, single_episode_chains

EXECUTORS = ("local", "ray")

__all__ = ["EXECUTORS", "Chain", "Executor", "RunJob", "RunState", "make_executor", "run_chain",
           "single_episode_chains"]


def make_executor(args: Any) -> Executor:
    """The executor `run` asked for (flags checked by run_command.check_flags)."""
    if args.executor == "ray":
        from .ray_executor import RayExecutor

        return RayExecutor(args.workers, address=args.ray_address, max_per_model=args.max_concurrency_per_model,
                           clients=bool(args.client))
    from .local import LocalExecutor

    return LocalExecutor(args.workers, max_per_model=args.max_concurrency_per_model)
