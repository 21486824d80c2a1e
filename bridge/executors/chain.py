"""A chain, what every worker needs to fly one, and flying it: the code that does not know where it runs.

    Chain      an ordered tuple of planned episodes, flown one after another by one worker;
               a learning-track chain also names its store (ChainStore)
    RunJob     what every chain of a run shares (the agent or client, the profile, the base
               seed, the captain, the secrets to scrub): picklable, sent once to each worker.
               A plug-in agent travels as its registry spec and is built again where it flies
               (its class may live in a file no other process can import by name)
    run_chain  flies a chain's episodes in order, handing each (Planned, EpisodeResult) to
               `on_result` as soon as it is known; starts no episode once `may_start()` is False

A learning chain (bridge/learning_track.py) opens its store where it flies, hands each
episode its view of it, and commits an episode's saves once the episode stands as the
agent's result, before its result is handed on (a worker that dies in between has the
episode flown again, from the store as it was); it stops at an episode that does not
stand, whose saves are dropped: resume flies it, and the rest, again.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from a320bench.secrets import NO_SECRETS, Scrubber
from a320bench.server.end_reason import EndReason

from ..plan import Planned


@dataclass(frozen=True)
class ChainStore:
    """The learning store of a chain: where it is kept, the scenario order it was built for, top k."""

    path: Path
    order: tuple[str, ...]
    top_k: int
    fresh: bool = False  # --force: the chain starts again, whatever store is on disk (overwritten at its first commit)

    def open(self) -> Any:
        from a320bench.server.learning.store import LearningStore

        if self.fresh:
            return LearningStore(self.path, list(self.order), self.top_k)
        return LearningStore.open(self.path, list(self.order), self.top_k)


@dataclass(frozen=True)
class Chain:
    index: int
    episodes: tuple[Planned, ...]
    store: ChainStore | None = None  # the learning track's (None: episodes that learn nothing)

    def without(self, done: Iterable[int]) -> Chain:
        """The chain less the episodes (by plan index) that already have a result: what a retry flies."""
        skip = set(done)
        return replace(self, episodes=tuple(p for p in self.episodes if p.index not in skip))


def single_episode_chains(episodes: Iterable[Planned]) -> list[Chain]:
    """An ordinary run: every episode is a chain of its own, in plan order."""
    return [Chain(i, (p,)) for i, p in enumerate(episodes)]


@dataclass
class RunJob:
    agent: Any  # an agent from the registry, or bridge/clients' ExternalClient (already prepared by the driver)
    profile: Any
    seed: int = 0
    scrubber: Scrubber = NO_SECRETS
    captain_factory: Any = None  # the crew profile's LLM captain (bridge/crew_llm.py); None: the scripted one

    @property
    def is_client(self) -> bool:
        return hasattr(self.agent, "impl")

    def __getstate__(self) -> dict[str, Any]:
        from ..providers.registry import PluginAgent

        state = dict(self.__dict__)
        if isinstance(self.agent, PluginAgent):
            state["agent"] = _PluginToBuild(self.agent.spec, self.agent.config)
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        if isinstance(state["agent"], _PluginToBuild):
            from ..providers.registry import make_agent

            # Loaded again here as the driver loaded it; if it will not load here, it is a
            # BrokenPluginAgent and its episodes end agent_error, each saying why.
            state["agent"] = make_agent(state["agent"].spec, state["agent"].config)
        self.__dict__.update(state)


@dataclass(frozen=True)
class _PluginToBuild:
    spec: Any
    config: Any


def episode_id(p: Planned) -> str:
    return f"{p.scenario.id}/{p.path.stem}"


def _report_storage(message: str) -> None:
    raise RuntimeError(message)  # every executor passes on_storage: reaching this is a bug of ours


async def run_chain(chain: Chain, job: RunJob, *, on_result: Callable[[Planned, Any], None],
                    may_start: Callable[[], bool] = lambda: True,
                    on_storage: Callable[[str], None] = _report_storage) -> None:
    """Fly the chain's episodes in order. Cancelled (Ctrl-C, SIGTERM), the episode in flight ends
    `interrupted` (the episode records it) and its result is handed on before the cancellation goes on.
    `on_storage(line)`: the chain's learning store cannot be read or written (the run stops starting
    episodes, as for a trajectory the disk refuses)."""
    store = None
    if chain.store is not None and chain.episodes:
        try:
            store = chain.store.open()
        except (OSError, ValueError) as e:
            on_storage(f"cannot read the learning store {chain.store.path}: {getattr(e, 'strerror', None) or e}")
            return
    for p in chain.episodes:
        if not may_start():  # the disk is refusing: starting more episodes would only fail them
            return
        learnings = store.begin(episode_id(p), p.position) if store is not None else None
        res = await _fly(p, job, learnings, on_result)
        if store is None:
            on_result(p, res)
            continue
        if not _stands(p.path):  # its saves are dropped; resume flies it and the rest again
            on_result(p, res)
            return
        try:
            learnings.commit()
        except OSError as e:
            on_result(p, res)
            on_storage(f"cannot write the learning store {chain.store.path}: {e.strerror or e}")
            return
        on_result(p, res)


async def _fly(p: Planned, job: RunJob, learnings: Any, on_result: Callable[[Planned, Any], None]) -> Any:
    import anyio

    from ..inprocess_episode import EpisodeResult, run_episode

    eid = episode_id(p)
    try:
        if job.is_client:
            return await job.agent.run_episode(p.scenario, profile=job.profile, path=p.path, run_index=p.run_index,
                                               episode_id=eid, scrubber=job.scrubber, learnings=learnings)
        return await run_episode(p.scenario, job.agent, profile=job.profile, path=p.path, run_index=p.run_index,
                                 episode_id=eid, seed=job.seed, scrubber=job.scrubber,
                                 captain_factory=job.captain_factory, learnings=learnings)
    except anyio.get_cancelled_exc_class():
        on_result(p, EpisodeResult(p.scenario.id, p.run_index, p.path, EndReason.INTERRUPTED, False, False, {}))
        raise
    except Exception as e:  # a bug of ours past the episode's own guard (a client episode re-raises
        # after recording its harness_error): never the agent's fault; the other episodes go on
        return EpisodeResult(p.scenario.id, p.run_index, p.path, EndReason.HARNESS_ERROR, False, False, {},
                             error=f"harness error: {type(e).__name__}: {e}")


def _stands(path: Path) -> bool:
    """Did the episode end as the agent's result (resume would skip it)?"""
    from a320bench.server.trajectory import is_complete

    return is_complete(path)
