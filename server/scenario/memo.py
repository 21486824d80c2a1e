"""Values computed from a scenario once per scenario object.

A `Scenario` is frozen, so a value derived from it cannot go stale; an episode asks for the
same ones (its content hash, its setup key) every time it opens. Scenarios are unhashable
(their lists), so the cache holds each by identity, and holds it alive so that its id is not
reused while it is kept. Only immutable values belong here (they are shared).
"""

from __future__ import annotations

import functools
from collections import OrderedDict
from collections.abc import Callable
from typing import TypeVar

from .model import Scenario

T = TypeVar("T")
KEPT_SCENARIOS = 256  # a catalogue's worth; the oldest go first


def per_scenario(fn: Callable[[Scenario], T]) -> Callable[[Scenario], T]:
    kept: OrderedDict[int, tuple[Scenario, T]] = OrderedDict()

    @functools.wraps(fn)
    def once(sc: Scenario) -> T:
        hit = kept.get(id(sc))
        if hit is not None and hit[0] is sc:
            return hit[1]
        value = fn(sc)
        kept[id(sc)] = (sc, value)
        while len(kept) > KEPT_SCENARIOS:
            kept.popitem(last=False)
        return value

    return once
