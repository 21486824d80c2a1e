"""Cluster-wide rate limits for the Ray executor: at most N chains of one model in flight, across drivers.

One named, detached actor (`a320bench-model-slots` in namespace `a320bench`) holds the leases.
A driver asks for a lease before it submits a chain and gives it back when the chain's
results are in. A driver that dies cannot give its leases back, so a lease lapses
LEASE_S after its holder last renewed it (drivers renew every RENEW_S): a dead driver's
slots come back, a live driver's never lapse.
"""

from __future__ import annotations

import itertools
import time
from typing import Any

NAME = "a320bench-model-slots"
NAMESPACE = "a320bench"
LEASE_S = 120.0
RENEW_S = 20.0


class ModelSlots:
    def __init__(self) -> None:
        self.leases: dict[str, dict[int, float]] = {}  # model -> lease id -> expiry (monotonic)
        self.models: dict[int, str] = {}
        self.ids = itertools.count(1)

    def acquire(self, model: str, limit: int) -> int | None:
        """A lease on one of the model's `limit` slots, or None when all are taken."""
        now = time.monotonic()
        held = self.leases.setdefault(model, {})
        for lease, expiry in list(held.items()):
            if expiry < now:
                del held[lease]
                self.models.pop(lease, None)
        if len(held) >= limit:
            return None
        lease = next(self.ids)
        held[lease] = now + LEASE_S
        self.models[lease] = model
        return lease

    def renew(self, leases: list[int]) -> None:
        now = time.monotonic()
        for lease in leases:
            model = self.models.get(lease)
            if model is not None and lease in self.leases.get(model, {}):
                self.leases[model][lease] = now + LEASE_S

    def release(self, lease: int) -> None:
        model = self.models.pop(lease, None)
        if model is not None:
            self.leases.get(model, {}).pop(lease, None)

    def held(self, model: str) -> int:
        return len(self.leases.get(model, {}))


def model_slots(ray: Any) -> Any:
    """The cluster's one slots actor: found by name, or started by the first driver that needs it."""
    actor = ray.remote(ModelSlots).options(name=NAME, namespace=NAMESPACE, lifetime="detached", get_if_exists=True,
                                           num_cpus=0)
    return actor.remote()
