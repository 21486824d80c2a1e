"""The `when:` preconditions of procedure steps, judged by the server at command time.

A step such as PARKING BRK ON "WHEN A/C IS STOPPED", or AGENT 1 "AFTER 10 S", is
right only once its condition holds. The server checks, just before each
`set_control`, the conditions of every step that command matches, from the
privileged state: state predicates on the aircraft, and `since` (simulated
seconds since the command of another step was given: a control acts as its
command begins, as the ECAM's own countdowns count). The answer is recorded in the
call's `preconditions` (the trajectory only; the agent never sees it), and
scoring classifies a step taken early as out of order (bridge/score/classify.py).
"""

from __future__ import annotations

from typing import Any

from a320bench.procedure_order import label

from ..sim import Aircraft
from .harness import holds
from .model import Scenario, Since


class PreconditionWatch:
    """One episode's commands, timed, against the steps that carry `when:`."""

    __slots__ = ("_steps", "_ids", "_also", "_given_at")

    def __init__(self, sc: Scenario):
        procedure = sc.ground_truth.procedure
        self._steps = [(bi, j, s) for bi, b in enumerate(procedure) for j, s in enumerate(b.steps) if s.when]
        # a `since` reference by step id reads the time of that step's action
        self._ids = {s.id: label(s.control, s.position) for b in procedure for s in b.steps if s.id}
        # a value of a step's `also:` does that step: a `since` of the step counts from it too
        self._also = {label(s.control, p): label(s.control, s.position) for b in procedure for s in b.steps
                      for p in s.also}
        self._given_at: dict[str, float] = {}  # action label -> sim time its last command was given

    def check(self, ac: Aircraft, control: Any, position: Any, now_s: float) -> list[dict[str, Any]]:
        """The conditions of the steps this command matches, judged now (before it acts)."""
        key = label(control, position)
        return [{"block": bi, "step": j, "held": all(self._holds(ac, c, now_s) for c in s.when)}
                for bi, j, s in self._steps if key in (label(s.control, p) for p in (s.position, *s.also))]

    def commanded(self, control: Any, position: Any, at_s: float) -> None:
        """A command that changed the aircraft was given at `at_s`."""
        key = label(control, position)
        self._given_at[key] = at_s
        if key in self._also:
            self._given_at[self._also[key]] = at_s

    def _holds(self, ac: Aircraft, c: Any, now_s: float) -> bool:
        if isinstance(c, Since):
            ref = self._ids.get(c.since, label(c.since, ""))
            given = self._given_at.get(ref)
            return given is not None and now_s - given >= c.min_s - 1e-9
        return holds(ac, c)
