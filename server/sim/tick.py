"""What every system sees of one simulation step (FlyByWire's `UpdateContext`).

The facade fills one `Tick` per step and hands it to each system's `update`,
together with the sibling systems that system reads (typed by the small
protocols each module declares). A system changes nothing outside itself
except through the three narrow doors here, so a reader of one module can
find everything that can change it:

* `pushed(control)` / `pushed_to(control, position)` consume a momentary control's push (AGENT,
  IDG DISC, an FCU knob pushed or pulled);
* `resolve(failure_id)` ends a resettable failure the crew's action has cured
  (a GCU reset, a relight, a pack that cooled down);
* `release(control, position)` moves a control the aircraft itself moves: a
  pushbutton whose light goes out (APU START at AVAIL) or an automatic
  disconnection (A/THR).
"""

from __future__ import annotations

from collections.abc import Mapping, Set
from dataclasses import dataclass, field

from .world import World

DT = 0.2  # seconds per tick: 5 Hz resolves every transient we model
STEADY_STEP_S = 10.0  # the step taken while no system reports a transient


@dataclass(slots=True)
class Tick:
    dt: float = 0.0
    now_s: float = 0.0  # simulated time at the start of this step
    controls: Mapping[str, str] = field(default_factory=dict)
    failures: Set[str] = field(default_factory=set)
    world: World = field(default_factory=World)
    crew_actions: int = 0  # crew control actions so far: a cheap "has the crew done anything" counter
    _controls: dict[str, str] = field(default_factory=dict)
    _failures: set[str] = field(default_factory=set)
    _pushes: dict[str, str] = field(default_factory=dict)  # momentary control -> the position it was set to

    @classmethod
    def bound(cls, controls: dict[str, str], failures: set[str], world: World, pushes: dict[str, str]) -> Tick:
        """A context reading (and, through its doors, writing) the facade's own state."""
        return cls(controls=controls, failures=failures, world=world, _controls=controls, _failures=failures,
                   _pushes=pushes)

    def pushed(self, control: str) -> bool:
        """Was this momentary control pushed since the last step? (Consumes the push.)"""
        return self._pushes.pop(control, None) is not None

    def pushed_to(self, control: str, position: str) -> bool:
        """Was this momentary control set to `position` (a knob pushed or pulled)? (Consumes it.)"""
        if self._pushes.get(control) == position:
            del self._pushes[control]
            return True
        return False

    def resolve(self, failure_id: str) -> None:
        """The crew's action cured this resettable failure."""
        self._failures.discard(failure_id)

    def release(self, control: str, position: str) -> None:
        """The aircraft moves this control itself (a light going out, an automatic disconnection)."""
        self._controls[control] = position
