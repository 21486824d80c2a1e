"""The learning track's plan: every run index is a chain of the selection's episodes, in an order of its own.

    a run with a learning profile   chain r = the episodes of run index r, one per scenario, in an
                                    order drawn for the chain from the system's randomness and kept
                                    in its store (an agent that counts its notes learns its place
                                    in the chain, and the selection's order would name its scenario),
                                    flown one after another by one worker (an
                                    executor chain: in the driver, a worker process or a Ray task);
                                    chains fly in parallel, each with its own store
                                    (<out>/learning/<label>__runNNN.json)
    --shard i/n                     whole chains: run index r belongs to shard r % n (a chain is
                                    never split, its store is never shared between shards)
    resume                          a chain skips its longest prefix that stands (each trajectory complete
                                    and its saves committed to the store) and flies the rest again
                                    (a later episode learned from the episodes before it: once one of
                                    them is flown again, so are the ones after it); --force: all of it
    a chain stops                   at an episode that did not end as the agent's result (its saves
                                    are dropped): resuming flies it, and the rest, again

An ordinary run is the degenerate case: every episode a chain of its own
(executors.single_episode_chains). Flying a chain and committing its store is
executors/chain.py's run_chain, wherever the chain flies.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

from .errors import OutputError, UsageError
from .executors.chain import Chain, ChainStore
from .plan import WHOLE, Plan, Planned, Shard, refuse_foreign, trajectory_path

LEARNING_TOOLS = frozenset({"save_learning", "retrieve_learnings"})


def is_learning(profile: Any) -> bool:
    return bool(LEARNING_TOOLS & set(profile.tools))


def store_path(out: Path, label: str, run_index: int) -> Path:
    return out / "learning" / f"{label}__run{run_index:03d}.json"


def draw_order(selection: list[str]) -> list[str]:
    """A new chain's order: from the operating system's randomness, which no seed or agent reproduces."""
    return random.SystemRandom().sample(selection, len(selection))


def learning_plan(scenarios: list[Any], runs: int, out: Path, label: str, top_k: int, *, shard: Shard = WHOLE,
                  force: bool = False, profile: Any = None, seed: int | None = None,
                  sampling: dict[str, Any] | None = None,
                  who: dict[str, Any] | None = None) -> tuple[Plan, list[Chain]]:
    """The plan and its chains: one chain per run index of this shard, from its first episode that is
    not complete. A store on disk built for another selection of scenarios, or a complete episode flown
    for another run (plan.foreign), is a UsageError (one line)."""
    from a320bench.server.learning.store import LearningStore, StoreMismatch
    from a320bench.server.trajectory import LinkRefused, is_complete, refuse_links

    selection = [sc.id for sc in scenarios]
    by_id = {sc.id: sc for sc in scenarios}
    plan = Plan([], shard=shard, total=len(scenarios) * runs, selection=tuple(selection))
    chains: list[Chain] = []
    for r in range(runs):
        if not shard.holds(r):
            continue
        plan.selected += len(scenarios)
        kept_in = store_path(out, label, r)
        # A chain keeps its order in its store (resume flies the rest in the same order); a store of
        # another selection is refused here, before anything flies.
        try:
            on_disk = None if force else LearningStore.on_disk(kept_in, selection, top_k)
        except StoreMismatch as e:
            raise UsageError(f"--out {out}: {e}") from None
        except (OSError, ValueError) as e:
            raise OutputError(f"--out {out}: cannot read the learning store {kept_in}: {e}") from None
        order = tuple(on_disk.order if on_disk is not None else draw_order(selection))
        chained = [by_id[i] for i in order]
        paths = [trajectory_path(out, sc.id, label, r) for sc in chained]
        for path in paths:
            try:
                refuse_links(out, path)
            except LinkRefused as e:
                raise OutputError(f"--out {out}: {e}") from None
        store = ChainStore(kept_in, order, top_k, fresh=force)
        start = 0
        if on_disk is not None:  # an episode stands if its trajectory is complete and its saves are in the store
            while start < len(paths) and paths[start].exists() and is_complete(paths[start]) \
                    and on_disk.stands(start):
                refuse_foreign(out, paths[start], chained[start], profile, run_index=r, seed=seed,
                               sampling=sampling, who=who, top_k=top_k)
                start += 1
        plan.skipped += [(sc.id, r) for sc in chained[:start]]
        if start == len(paths):
            continue
        episodes = []
        for k in range(start, len(paths)):
            episodes.append(Planned(len(plan.episodes), chained[k], r, paths[k], position=k))
            plan.episodes.append(episodes[-1])
        chains.append(Chain(len(chains), tuple(episodes), store))
    return plan, chains
