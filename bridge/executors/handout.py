"""Which queued chain a local worker process gets next: the scenarios it has prepared first.

A scenario's first setup in a process can take a second (a fuel scenario waits through
hours of cruise for a tank level); the next ones are a copy of the prepared aircraft
(server/scenario/harness.py `prepared`). Handed out in plan order, every worker would
get runs of nearly every scenario and pay nearly every first setup. So chains are
queued by scenario (its first episode's), and a worker asking for one gets:

    1. a chain of a scenario it has flown already (its scenarios, in the order it took them)
    2. else the first scenario no worker has started, which becomes its own
    3. else (the end of the run: nothing of its own, nothing new) a chain of the scenario
       with the most chains queued, which becomes its own too: no core idles while
       chains wait

Which worker flies an episode changes nothing in it (the first episode of a setup
flies a copy as well), so the hand-out is free to follow the cache.

    take(worker)      the next chain for `worker` (any hashable), or None when none is queued
    put_back(chain)   a chain to fly again (its worker died): first in its scenario's queue
    forget(worker)    a dead worker's scenarios are nobody's (call before put_back)
"""

from __future__ import annotations

from collections import deque
from collections.abc import Hashable, Iterable

from .chain import Chain


def _scenario(chain: Chain) -> str:
    return chain.episodes[0].scenario.id if chain.episodes else ""


class Handout:
    def __init__(self, chains: Iterable[Chain]):
        self._queued: dict[str, deque[Chain]] = {}  # only scenarios with chains queued, in plan order
        for chain in chains:
            self._queued.setdefault(_scenario(chain), deque()).append(chain)
        self._size = sum(len(q) for q in self._queued.values())
        self._fresh: deque[str] = deque(self._queued)  # queued scenarios no worker has started
        self._owners: dict[str, set[Hashable]] = {}
        # A worker's scenarios with chains queued (a dict as an ordered set): rule 1 takes the first.
        self._mine: dict[Hashable, dict[str, None]] = {}

    def __len__(self) -> int:
        return self._size

    def take(self, worker: Hashable) -> Chain | None:
        mine = self._mine.setdefault(worker, {})
        if mine:
            scenario = next(iter(mine))
        else:
            scenario = self._claim() or self._busiest()
            if scenario is None:
                return None
            self._owners.setdefault(scenario, set()).add(worker)
            mine[scenario] = None
        queue = self._queued[scenario]
        chain = queue.popleft()
        self._size -= 1
        if not queue:
            del self._queued[scenario]
            for owner in self._owners[scenario]:
                self._mine[owner].pop(scenario, None)
        return chain

    def put_back(self, chain: Chain) -> None:
        scenario = _scenario(chain)
        queue = self._queued.get(scenario)
        if queue is None:
            queue = self._queued[scenario] = deque()
            owners = self._owners.get(scenario)
            if owners:
                for owner in owners:
                    self._mine[owner][scenario] = None
            else:
                self._fresh.appendleft(scenario)
        queue.appendleft(chain)
        self._size += 1

    def forget(self, worker: Hashable) -> None:
        for scenario in self._mine.pop(worker, {}):
            owners = self._owners[scenario]
            owners.discard(worker)
            if not owners:  # its queued chains go to whoever starts the scenario next
                self._fresh.appendleft(scenario)
        for owners in self._owners.values():
            owners.discard(worker)

    def _claim(self) -> str | None:
        while self._fresh:
            scenario = self._fresh.popleft()
            if scenario in self._queued and not self._owners.get(scenario):
                return scenario
        return None

    def _busiest(self) -> str | None:
        if not self._queued:
            return None
        return max(self._queued, key=lambda s: len(self._queued[s]))  # the first of equals: plan order
