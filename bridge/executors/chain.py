"""A chain, what every worker needs to fly one, and flying it: the code that does not know where it runs.

    Chain      an ordered tuple of planned episodes, flown one after another by one worker
    RunJob     what every chain of a run shares (the provider or client, the profile, the
               base seed, the secrets to scrub): picklable, sent once to each worker
    run_chain  flies a chain's episodes in order, handing each (Planned, EpisodeResult) to
               `on_result` as soon as it is known; starts no episode once `may_start()` is False
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from a320bench.secrets import NO_SECRETS, Scrubber
from a320bench.server.end_reason import EndReason

from ..plan import Planned


@dataclass(frozen=True)
class Chain:
    index: int
    episodes: tuple[Planned, ...]

    def without(self, done: Iterable[int]) -> Chain:
        """The chain less the episodes (by plan index) that already have a result: what a retry flies."""
        skip = set(done)
        return Chain(self.index, tuple(p for p in self.episodes if p.index not in skip))


def single_episode_chains(episodes: Iterable[Planned]) -> list[Chain]:
    """An ordinary run: every episode is a chain of its own, in plan order."""
    return [Chain(i, (p,)) for i, p in enumerate(episodes)]


@dataclass
class RunJob:
    agent: Any  # a provider, or bridge/clients' ExternalClient (already prepared by the driver)
    profile: Any
    seed: int = 0
    scrubber: Scrubber = NO_SECRETS

    @property
    def is_client(self) -> bool:
        return hasattr(self.agent, "impl")


def episode_id(p: Planned) -> str:
    return f"{p.scenario.id}/{p.path.stem}"


async def run_chain(chain: Chain, job: RunJob, *, on_result: Callable[[Planned, Any], None],
                    may_start: Callable[[], bool] = lambda: True) -> None:
    """Fly the chain's episodes in order. Cancelled (Ctrl-C, SIGTERM), the episode in flight ends
    `interrupted` (the episode records it) and its result is handed on before the cancellation goes on."""
    import anyio

    from ..inprocess_episode import EpisodeResult, run_episode

    for p in chain.episodes:
        if not may_start():  # the disk is refusing: starting more episodes would only fail them
            return
        eid = episode_id(p)
        try:
            if job.is_client:
                res = await job.agent.run_episode(p.scenario, profile=job.profile, path=p.path, run_index=p.run_index,
                                                  episode_id=eid, scrubber=job.scrubber)
            else:
                res = await run_episode(p.scenario, job.agent, profile=job.profile, path=p.path,
                                        run_index=p.run_index, episode_id=eid, seed=job.seed, scrubber=job.scrubber)
        except anyio.get_cancelled_exc_class():
            on_result(p, EpisodeResult(p.scenario.id, p.run_index, p.path, EndReason.INTERRUPTED, False, False, {}))
            raise
        except Exception as e:  # a bug of ours past the episode's own guard (a client episode re-raises
            # after recording its harness_error): never the agent's fault; the other episodes go on
            res = EpisodeResult(p.scenario.id, p.run_index, p.path, EndReason.HARNESS_ERROR, False, False, {},
                                error=f"harness error: {type(e).__name__}: {e}")
        on_result(p, res)
