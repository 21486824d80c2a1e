"""The ground truth a trajectory is scored against, as plain frozen data.

Read from the `setup` event's `ground_truth` (or, failing that, from the
scenario embedded in `meta`): the dict shape of
`a320bench.server.scenario.model.GroundTruth`, parsed here without pydantic
so that scoring never imports the scenario models (they import the simulator). Malformed parts (a procedure that
is a number, a step that is not a mapping) read as absent: scoring never crashes
on a trajectory, and `score --verify` catches any ground truth that differs from
the catalogue's.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import orjson

from a320bench.procedure_order import OrderError, StepRef, dependencies


def action_key(control: Any, position: Any) -> tuple[str, str]:
    """How two (control, position) pairs are compared: case and spacing do not matter."""
    return " ".join(str(control).split()).upper(), " ".join(str(position).split()).upper()


@dataclass(frozen=True, slots=True)
class Step:
    control: str
    position: str
    key: tuple[str, str]
    id: str = ""
    after: tuple[str, ...] = ()
    when: tuple[dict[str, Any], ...] = ()  # preconditions: the server judges them, scoring reads its record
    early: str = "out_of_order"  # how a command taken before its `when` holds is classified
    also: tuple[tuple[str, str], ...] = ()  # the keys of the other positions that do this step as well

    def matches(self, key: tuple[str, str]) -> bool:
        return key == self.key or key in self.also


@dataclass(frozen=True, slots=True)
class Block:
    name: str
    ordered: bool
    steps: tuple[Step, ...]
    due_within_s: float | None = None  # harm by waiting: every step done by then (agent's clock)


@dataclass(frozen=True, slots=True)
class Forbidden:
    control: str
    position: str
    key: tuple[str, str]
    severity: str  # "dangerous" | "anti_procedure"
    why: str


@dataclass(frozen=True, slots=True)
class GroundTruth:
    procedure: tuple[Block, ...] = ()
    optional_actions: tuple[Step, ...] = ()
    forbidden_actions: tuple[Forbidden, ...] = ()
    diagnosis_keywords: tuple[tuple[str, ...], ...] = ()
    act_within_s: float | None = None  # harm by waiting: the first required action's deadline (agent's clock)
    # Each step's direct predecessors (a320bench/procedure_order.py); empty when they do not resolve.
    deps: dict[StepRef, frozenset[StepRef]] = field(default_factory=dict, compare=False)

    def __post_init__(self) -> None:
        try:
            deps = dependencies([(b.ordered, b.steps) for b in self.procedure])
        except OrderError:
            deps = {}  # a malformed file scores with a free order; --verify names the ground truth
        object.__setattr__(self, "deps", deps)

    @property
    def total_steps(self) -> int:
        return sum(len(b.steps) for b in self.procedure)

    @classmethod
    def from_dict(cls, d: Any) -> GroundTruth:
        """The ground truth of this dict, parsed once per content: every episode of a scenario
        records the same one (a fifth of scoring was parsing it again per file)."""
        if not isinstance(d, dict):
            return cls()
        try:
            key = orjson.dumps(d)
        except TypeError:  # an integer beyond 64 bits (read by the standard library): not worth a key
            return cls._parse(d)
        if b"null" in key:  # orjson writes NaN as null: such a key could stand for two contents
            return cls._parse(d)
        gt = _PARSED.get(key)
        if gt is None:
            if len(_PARSED) >= _PARSED_MAX:
                _PARSED.clear()
            gt = _PARSED[key] = cls._parse(d)
        return gt

    @classmethod
    def _parse(cls, d: dict[str, Any]) -> GroundTruth:
        return cls(
            procedure=tuple(
                Block(str(b.get("name", f"block_{i}")), bool(b.get("ordered", False)), _steps(b.get("steps")),
                      _seconds(b.get("due_within_s")))
                for i, b in enumerate(_dicts(d.get("procedure")))
            ),
            optional_actions=_steps(d.get("optional_actions")),
            forbidden_actions=tuple(
                Forbidden(str(f.get("control")), str(f.get("position")), action_key(f.get("control"), f.get("position")),
                          str(f.get("severity", "dangerous")), str(f.get("why", "")))
                for f in _dicts(d.get("forbidden_actions"))
            ),
            diagnosis_keywords=tuple(
                tuple(str(s) for s in g) if isinstance(g, list) else (str(g),)
                for g in _list(d.get("diagnosis_keywords"))
            ),
            act_within_s=_seconds(d.get("act_within_s")),
        )


_PARSED: dict[bytes, GroundTruth] = {}
_PARSED_MAX = 4096  # distinct ground truths kept; a catalogue has about a hundred


def _seconds(value: Any) -> float | None:
    """A positive number of seconds, or None (absent, or not one: a malformed file is scored without it)."""
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not value > 0:
        return None
    return float(value)


def _list(items: Any) -> list[Any]:
    return items if isinstance(items, list) else []


def _dicts(items: Any) -> list[dict[str, Any]]:
    return [x for x in _list(items) if isinstance(x, dict)]


def _steps(items: Any) -> tuple[Step, ...]:
    return tuple(Step(str(s.get("control")), str(s.get("position")), action_key(s.get("control"), s.get("position")),
                      str(s.get("id") or ""), tuple(str(a) for a in _list(s.get("after"))),
                      tuple(_dicts(s.get("when"))), str(s.get("early") or "out_of_order"),
                      tuple(action_key(s.get("control"), p) for p in _list(s.get("also"))))
                 for s in _dicts(items))
