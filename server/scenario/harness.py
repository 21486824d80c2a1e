"""Privileged harness steps: setup, failure injection, validity gate, success evaluation.

None of this is reachable from the agent's tool surface.
"""

from __future__ import annotations

import hashlib
import json
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from ..sim import Aircraft, build
from ..sim import CONTROLS
from ..sim.aircraft import FrozenAircraft
from .effects import StartEffects, start_effects
from .memo import per_scenario
from .model import ControlsUnchanged, EcamClear, FailureSpec, Scenario, StatePredicate

POLL_S = 1.0  # resolution of predicate triggers


class SetupError(RuntimeError):
    """The scenario could not be set up (e.g. a trigger predicate never held)."""


def compare(actual: Any, p: StatePredicate) -> bool:
    try:
        if p.op == "eq":
            return actual == p.value
        if p.op == "ne":
            return actual != p.value
        if p.op == "between":
            return p.low <= actual <= p.high  # type: ignore[operator]
        return {"gt": actual > p.value, "ge": actual >= p.value, "lt": actual < p.value,  # type: ignore[operator]
                "le": actual <= p.value}[p.op]  # type: ignore[operator]
    except TypeError:
        return False


def holds(ac: Aircraft, p: StatePredicate) -> bool:
    return compare(read_var(ac, p.var), p)


_OWNER: dict[str, int] = {}  # state variable -> index of the system that reports it (the same in every aircraft)


def read_var(ac: Aircraft, var: str) -> Any:
    """One state variable, reading only the system that owns it (a whole snapshot costs
    about fifty times more: triggers are polled while the agent waits)."""
    if var.startswith("controls."):
        return ac.controls[var.removeprefix("controls.")]
    if not _OWNER:
        for i, system in enumerate(ac.systems):
            _OWNER.update(dict.fromkeys(system.vars(), i))
    i = _OWNER.get(var)
    return ac.get(var) if i is None else ac.systems[i].vars()[var]


@dataclass
class Gate:
    passed: bool
    displayed: list[str]
    missing: list[str] = field(default_factory=list)
    unexpected: list[str] = field(default_factory=list)
    setup_error: str | None = None  # setup itself failed (e.g. a trigger never held)

    @property
    def reason(self) -> str:
        if self.setup_error:
            return f"setup failed: {self.setup_error}"
        parts = []
        if self.missing:
            parts.append(f"expected on the ECAM but not shown: {', '.join(self.missing)}")
        if self.unexpected:
            parts.append(f"shown but must not be: {', '.join(self.unexpected)}")
        return "; ".join(parts) + f" (ECAM shows: {', '.join(self.displayed) or 'nothing'})"

    def to_dict(self) -> dict[str, Any]:
        d = {"passed": self.passed, "displayed": self.displayed, "missing": self.missing,
             "unexpected": self.unexpected}
        if self.setup_error:
            d["setup_error"] = self.setup_error
        return d


def setup(sc: Scenario) -> Aircraft:
    """World controls, then the start state, then control overrides."""
    ac = build(sc.initial_state.start_state, sc.initial_state.world)
    for name, pos in sc.initial_state.controls.items():
        ac.set_control(name, pos)
    if sc.initial_state.controls:
        ac.advance(2.0)
        ac.start_crew_record()  # harness actions are not the crew's
    return ac


def inject(ac: Aircraft, spec: FailureSpec) -> None:
    """Wait for the trigger (bounded), inject, let it settle."""
    trig = spec.trigger
    if hasattr(trig, "after_s"):
        ac.advance(trig.after_s)
    else:
        waited = 0.0
        while not holds(ac, trig.when):
            if waited >= trig.max_wait_s:
                raise SetupError(
                    f"failure {spec.id}: trigger {trig.when.var} {trig.when.op} {trig.when.value} "
                    f"did not hold within {trig.max_wait_s:g} s")
            ac.advance(POLL_S)
            waited += POLL_S
    ac.inject_failure(spec.id)
    ac.advance(spec.settle_s)


def check_gate(ac: Aircraft, sc: Scenario) -> Gate:
    shown = ac.ecam_titles()
    missing = [t for t in sc.expected_ecam.must_appear if t not in shown]
    unexpected = [t for t in sc.expected_ecam.must_not_appear if t in shown]
    return Gate(not missing and not unexpected, shown, missing, unexpected)


def prepare(sc: Scenario) -> tuple[Aircraft, Gate]:
    """Setup, inject the pre-episode failures, run the validity gate (a copy of the prepared aircraft
    when this setup was prepared before in this process: see `prepared`)."""
    p = prepared(sc)
    return p.aircraft, p.gate


@dataclass(frozen=True, slots=True)
class Prepared:
    """A fresh aircraft after setup, injection and gate; its gate; its state hash (for the setup event);
    what an effects watch measures of it at the start (the same for every copy)."""

    aircraft: Aircraft
    gate: Gate
    state_hash: str
    effects: StartEffects


@dataclass(frozen=True, slots=True)
class _Kept:
    aircraft: FrozenAircraft
    gate: Gate
    state_hash: str
    effects: StartEffects


_KEPT: OrderedDict[str, _Kept] = OrderedDict()
KEPT_SETUPS = 256  # a catalogue's worth (about 15 KB each); the least recently used go first
_SETUPS_RUN = 0


def setups_run() -> int:
    """How many setups this process has run rather than copied (a local worker reports it to its driver)."""
    return _SETUPS_RUN


@per_scenario
def setup_key(sc: Scenario) -> str:
    """The content hash of what a setup depends on: the initial state, the failures injected before
    the episode, the gate. Scenarios that differ elsewhere (prompt, procedure, budget) share it."""
    parts = {"initial_state": sc.initial_state.model_dump(mode="json"),
             "failures": [f.model_dump(mode="json") for f in sc.failures if not f.during_episode],
             "expected_ecam": sc.expected_ecam.model_dump(mode="json")}
    return hashlib.sha256(json.dumps(parts, sort_keys=True).encode()).hexdigest()


def prepared(sc: Scenario) -> Prepared:
    """`prepare` with the state hash. A setup is run once per process and content (`setup_key`):
    later episodes get a copy of the prepared aircraft, the first one too, so that every
    episode starts from the same copy whether or not the setup was run for it."""
    global _SETUPS_RUN
    key = setup_key(sc)
    kept = _KEPT.get(key)
    if kept is None:
        _SETUPS_RUN += 1
        ac, gate = _prepare(sc)
        kept = _KEPT[key] = _Kept(FrozenAircraft(ac), gate, ac.state_hash(), start_effects(ac))
        while len(_KEPT) > KEPT_SETUPS:
            _KEPT.popitem(last=False)
    else:
        _KEPT.move_to_end(key)
    g = kept.gate
    return Prepared(kept.aircraft.thaw(), replace(g, displayed=list(g.displayed), missing=list(g.missing),
                                                  unexpected=list(g.unexpected)), kept.state_hash, kept.effects)


def _prepare(sc: Scenario) -> tuple[Aircraft, Gate]:
    ac = setup(sc)
    try:
        for spec in sc.failures:
            if not spec.during_episode:
                inject(ac, spec)
    except SetupError as e:  # an invalid scenario, not a crash: the gate reports it
        return ac, Gate(False, ac.ecam_titles(), setup_error=str(e))
    return ac, check_gate(ac, sc)


# Panels of crew actions rather than systems (altitude, radio, cabin, FMS, oxygen, signs):
# every `controls_unchanged` check covers them, whichever system panels it names. No
# restraint or no-fault scenario tolerates an unbriefed altitude change, call or announcement.
CREW_PANELS = ("FCU", "RADIO", "CABIN", "FMS", "CREW", "OVHD")
# Tests and calls that latch nothing: a fire-loop test, a cabin crew advisory. Like the scenario's
# optional actions, `controls_unchanged` never counts them as a change.
NON_LATCHING = frozenset({("ENG 1 FIRE TEST", "PUSH"), ("ENG 2 FIRE TEST", "PUSH"), ("APU FIRE TEST", "PUSH"),
                          ("CABIN CREW", "ADVISE")})


class HoldWatch:
    """Since when each success criterion with `held_s` has held without a break, read at every
    step of simulated time (chunks of the episode's advance; reads take no time)."""

    __slots__ = ("_crits", "_since")

    def __init__(self, sc: Scenario, ac: Aircraft, now_s: float):
        self._crits = [(i, c) for i, c in enumerate(sc.success)
                       if isinstance(c, StatePredicate) and c.held_s is not None]
        self._since: dict[int, float | None] = {}
        self.observe(ac, now_s)

    def observe(self, ac: Aircraft, now_s: float) -> None:
        for i, c in self._crits:
            if not holds(ac, c):
                self._since[i] = None
            elif self._since.get(i) is None:
                self._since[i] = now_s

    def held_for(self, now_s: float) -> dict[int, float]:
        return {i: round(now_s - since, 3) if since is not None else 0.0 for i, (since) in self._since.items()}


def evaluate_success(ac: Aircraft, sc: Scenario, baseline: dict[str, str] | None = None,
                     violations: Sequence[dict[str, Any]] = (), held_for_s: dict[int, float] | None = None,
                     snapshot: dict[str, Any] | None = None) -> dict[str, Any]:
    """Each criterion recorded with what was seen; success needs them all, and no safety
    invariant violated at any point of the episode (`violations`, from the episode's watch).

    `baseline` is the control positions when the episode began (for `controls_unchanged`);
    the crew's actions since then are `ac.events`. `held_for_s`: for each criterion with
    `held_s` (by index), how long it has held without a break (the episode's HoldWatch).
    `snapshot`: `ac.snapshot()`, when the caller has it already.
    """
    results = []
    shown = ac.ecam_titles()
    snap = ac.snapshot() if snapshot is None else snapshot  # one for every predicate: building it is the costly part
    for i, crit in enumerate(sc.success):
        if isinstance(crit, ControlsUnchanged):
            before = baseline if baseline is not None else ac.controls
            panels = list(dict.fromkeys([*crit.controls_unchanged, *CREW_PANELS]))
            names = [c.name for c in CONTROLS.values() if c.panel in panels]
            exempt = NON_LATCHING | {(a.control, a.position) for a in sc.ground_truth.optional_actions}
            moved = {n: [before[n], ac.controls[n]] for n in names
                     if ac.controls[n] != before[n] and (n, ac.controls[n]) not in exempt}
            pushed = sorted({n for _, n, pos in ac.events
                             if n in names and CONTROLS[n].momentary and pos != CONTROLS[n].default
                             and (n, pos) not in exempt})
            results.append({"kind": "controls_unchanged", "panels": panels,
                            "moved": moved, "pushed": pushed, "passed": not moved and not pushed})
        elif isinstance(crit, EcamClear):
            present = [t for t in crit.ecam_clear_of if t in shown]
            results.append({"kind": "ecam_clear_of", "titles": list(crit.ecam_clear_of), "present": present,
                            "passed": not present})
        else:
            actual = snap[crit.var] if crit.var in snap else ac.get(crit.var)
            r = {"kind": "state", "var": crit.var, "op": crit.op, "actual": actual, "passed": compare(actual, crit)}
            if crit.held_s is not None:
                held = (held_for_s or {}).get(i, 0.0)
                r.update(held_s=crit.held_s, held_for_s=held, passed=r["passed"] and held >= crit.held_s - 1e-9)
            if crit.op == "between":
                r.update(low=crit.low, high=crit.high)
            else:
                r["value"] = crit.value
            results.append(r)
    return {"passed": all(r["passed"] for r in results) and not violations, "criteria": results,
            "invariant_violations": list(violations)}
