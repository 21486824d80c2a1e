"""Does the end state hold by itself? The success criteria read again after a spell of flight
with nobody touching anything.

The verdict reads the aircraft at the instant the episode ends. A command whose consequence
takes longer than that to show -- the FCU altitude set back up and the knob pulled after an
emergency descent, then report_done -- would pass on an end state that is already
collapsing. So the final verdict also flies a copy of the aircraft on, hands off, for
HANDS_OFF_S (no failure still to arrive is delivered: only what the agent left is judged),
and the outcome needs the criteria to hold there too.
"""

from __future__ import annotations

import copy
import json
from collections import OrderedDict
from typing import Any

from ..sim import Aircraft
from ..sim.aircraft import FrozenAircraft, kept
from .harness import compare
from .memo import per_scenario
from .model import EcamClear, Scenario, StatePredicate

# Long enough for a climb, a speed decay or a fuel starvation the agent set going to show
# (each shows within 120 s in the catalogue), short enough for a settled end state to hold.
HANDS_OFF_S = 120.0

# Verdicts already flown in this process, by (whole end state, criteria, seconds): a deterministic
# agent's `--runs N` ends in the same state N times, and the flight is most of a scripted episode's
# simulation. The key is the state itself (FrozenAircraft.digest), so a hit is the same flight.
_FLOWN: OrderedDict[tuple[bytes, str, float], dict[str, Any]] = OrderedDict()
KEPT_FLIGHTS = 512


@per_scenario
def _criteria(sc: Scenario) -> str:
    return json.dumps([c.model_dump(mode="json") for c in sc.success], sort_keys=True)


def hands_off(ac: Aircraft, sc: Scenario, seconds: float = HANDS_OFF_S) -> dict[str, Any]:
    """The state and ECAM criteria on a copy of `ac` flown on for `seconds` with no input:
    {"after_s", "failed": [the criteria that no longer hold, with what was seen], "passed"}.
    A criterion with `held_s` is read as its predicate (the hold is judged at the end itself);
    `controls_unchanged` cannot change with no input and is not read again."""
    frozen = kept(ac)
    key = (frozen.digest(), _criteria(sc), seconds) if isinstance(frozen, FrozenAircraft) else None
    if key is not None and key in _FLOWN:
        _FLOWN.move_to_end(key)
        return copy.deepcopy(_FLOWN[key])
    verdict = _fly(frozen.thaw(), sc, seconds)
    if key is not None:
        _FLOWN[key] = copy.deepcopy(verdict)
        while len(_FLOWN) > KEPT_FLIGHTS:
            _FLOWN.popitem(last=False)
    return verdict


def _fly(twin: Aircraft, sc: Scenario, seconds: float) -> dict[str, Any]:
    twin.advance(seconds)
    snap = twin.snapshot()
    shown = twin.ecam_titles()
    failed: list[dict[str, Any]] = []
    for crit in sc.success:
        if isinstance(crit, EcamClear):
            present = [t for t in crit.ecam_clear_of if t in shown]
            if present:
                failed.append({"kind": "ecam_clear_of", "titles": list(crit.ecam_clear_of), "present": present})
        elif isinstance(crit, StatePredicate):
            actual = snap[crit.var] if crit.var in snap else twin.get(crit.var)
            if not compare(actual, crit):
                failed.append({"kind": "state", "var": crit.var, "op": crit.op, "actual": actual,
                               **({"low": crit.low, "high": crit.high} if crit.op == "between"
                                  else {"value": crit.value})})
    return {"after_s": seconds, "failed": failed, "passed": not failed}
