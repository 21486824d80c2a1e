"""The learning track's plan: every run index is a chain of the selection's episodes, flown in order.

    a run with a learning profile   chain r = the episodes of run index r, one per scenario, in the
                                    selection's order, flown one after another by one worker; chains
                                    run in parallel (--workers), each with its own store
                                    (<out>/learning/<label>__runNNN.json)
    resume                          a chain skips its longest complete prefix and flies the rest again
                                    (a later episode learned from the episodes before it: once one of
                                    them is flown again, so are the ones after it); --force: all of it
    a chain stops                   at an episode that did not end as the agent's result (its saves
                                    are dropped): resuming flies it, and the rest, again

An ordinary run is the degenerate case: every episode a chain of its own. The
chain is the unit of the executor interface (issue 17): this module only groups
the plan and opens each chain's store, so that the same grouping maps onto it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .errors import OutputError, UsageError

LEARNING_TOOLS = frozenset({"save_learning", "retrieve_learnings"})


def is_learning(profile: Any) -> bool:
    return bool(LEARNING_TOOLS & set(profile.tools))


def store_path(out: Path, label: str, run_index: int) -> Path:
    return out / "learning" / f"{label}__run{run_index:03d}.json"


@dataclass
class Chain:
    """Episodes flown one after another by one worker (`positions`: each one's place in the chain's order)."""

    episodes: list[Any]
    positions: list[int] = field(default_factory=list)
    store: Any = None  # the chain's LearningStore (learning track only)

    def learnings_for(self, i: int) -> Any:
        if self.store is None:
            return None
        p = self.episodes[i]
        return self.store.begin(f"{p.scenario.id}/{p.path.stem}", self.positions[i])


def single_episode_chains(plan: list[Any]) -> list[Chain]:
    return [Chain([p], [0]) for p in plan]


def learning_chains(args: Any, scenarios: list[Any], out: Path, label: str, top_k: int, planned: type
                    ) -> tuple[list[Chain], int]:
    """(the chains, how many episodes resume skips): one chain per run index, from its first episode
    that is not complete. `planned`: the Planned class of the run (index, scenario, run_index, path)."""
    from a320bench.server.learning.store import LearningStore, StoreMismatch
    from a320bench.server.trajectory import LinkRefused, is_complete, refuse_links

    order = [sc.id for sc in scenarios]
    chains: list[Chain] = []
    skipped = index = 0
    for r in range(args.runs):
        paths = [out / sc.id / f"{label}__run{r:03d}.jsonl" for sc in scenarios]
        for path in paths:
            try:
                refuse_links(out, path)
            except LinkRefused as e:
                raise OutputError(f"--out {out}: {e}") from None
        start = 0
        if not args.force:
            while start < len(paths) and paths[start].exists() and is_complete(paths[start]):
                start += 1
        skipped += start
        if start == len(paths):
            continue
        try:
            store = LearningStore.open(store_path(out, label, r), order, top_k)
        except StoreMismatch as e:
            raise UsageError(f"--out {out}: {e}") from None
        except (OSError, ValueError) as e:
            raise OutputError(f"--out {out}: cannot read the learning store {store_path(out, label, r)}: {e}") \
                from None
        episodes = []
        for k in range(start, len(paths)):
            episodes.append(planned(index, scenarios[k], r, paths[k]))
            index += 1
        chains.append(Chain(episodes, list(range(start, len(paths))), store))
    return chains, skipped
