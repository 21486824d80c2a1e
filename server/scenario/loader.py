"""Load scenario YAML files and cross-check every name against the simulator's catalogues.

Problems are collected, not raised one at a time: a broken file yields one
line per problem, each naming the file, the field path and what was expected.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import yaml
from pydantic import ValidationError

from ..sim import ALERT_TITLES, CONTROLS, FAILURES, START_STATES, Aircraft
from ..sim.world import World
from .model import ControlsUnchanged, EcamClear, Scenario, StatePredicate

_VARS: frozenset[str] | None = None


def state_variables() -> frozenset[str]:
    """Every name `get()` accepts (the keys of a snapshot)."""
    global _VARS
    if _VARS is None:
        _VARS = frozenset(Aircraft().snapshot())
    return _VARS


@dataclass(frozen=True)
class Problem:
    file: str
    path: str
    message: str

    def __str__(self) -> str:
        return f"{self.file}: {self.path}: {self.message}" if self.path else f"{self.file}: {self.message}"


def _loc(loc: tuple) -> str:
    out = ""
    for part in loc:
        if isinstance(part, int):
            out += f"[{part}]"
        elif part in ("StatePredicate", "EcamClear", "ControlsUnchanged", "AfterTrigger", "WhenTrigger"):  # union tags
            continue
        else:
            out += ("." if out else "") + str(part)
    return out


def parse(path: Path) -> tuple[Scenario | None, list[Problem]]:
    name = str(path)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as e:
        return None, [Problem(name, "", f"cannot read: {e.strerror}")]
    except UnicodeDecodeError as e:
        return None, [Problem(name, "", f"not UTF-8 text (byte {e.start}); scenario files are UTF-8 YAML")]
    try:
        data = yaml.safe_load(text)
    except yaml.YAMLError as e:
        mark = getattr(e, "problem_mark", None)
        where = f"line {mark.line + 1}, column {mark.column + 1}: " if mark else ""
        return None, [Problem(name, "", f"not valid YAML: {where}{getattr(e, 'problem', None) or e}")]
    if not isinstance(data, dict):
        return None, [Problem(name, "", f"expected a mapping of scenario fields, got {type(data).__name__}")]
    try:
        sc = Scenario.model_validate(data)
    except ValidationError as e:
        seen: set[tuple[str, str]] = set()
        problems = []
        for err in e.errors():
            key = (_loc(err["loc"]), err["msg"])
            if key in seen:
                continue
            seen.add(key)
            msg = err["msg"].removeprefix("Value error, ")
            if err["type"] == "missing":
                msg = "required field is missing"
            elif err["type"] == "extra_forbidden":
                msg = "unknown field (not in the scenario schema)"
            problems.append(Problem(name, key[0], msg))
        return None, problems
    return sc, cross_check(sc, name)


def cross_check(sc: Scenario, name: str) -> list[Problem]:
    """Every control, position, failure id, ECAM title and variable must exist in the simulator."""
    probs: list[Problem] = []
    P = lambda path, msg: probs.append(Problem(name, path, msg))  # noqa: E731
    titles = set(ALERT_TITLES)
    variables = state_variables()

    def control(path: str, ctl: str, pos: str | None) -> None:
        c = CONTROLS.get(ctl)
        if c is None:
            P(path + ".control", f"unknown control {ctl!r}")
        elif pos is not None and pos not in c.positions:
            P(path + ".position", f"control {ctl!r} has no position {pos!r} (positions: {', '.join(c.positions)})")

    def pred(path: str, p: StatePredicate) -> None:
        if p.var not in variables:
            P(path + ".var", f"unknown state variable {p.var!r}")
        elif p.var.startswith("controls."):
            c = CONTROLS[p.var.removeprefix("controls.")]
            if p.op in ("eq", "ne") and p.value not in c.positions:
                P(path + ".value", f"{p.var!r} has no position {p.value!r} (positions: {', '.join(c.positions)})")

    init = sc.initial_state
    if init.start_state not in START_STATES:
        P("initial_state.start_state", f"unknown start state {init.start_state!r} (valid: {', '.join(START_STATES)})")
    for k in init.world:
        if k not in World.names():
            P(f"initial_state.world.{k}", f"unknown world control (valid: {', '.join(World.names())})")
    for k, v in init.controls.items():
        control(f"initial_state.controls.{k}", k, v)
    for i, f in enumerate(sc.failures):
        if f.id not in FAILURES:
            P(f"failures[{i}].id", f"unknown failure id {f.id!r}")
        if hasattr(f.trigger, "when"):
            pred(f"failures[{i}].trigger.when", f.trigger.when)
    for part in ("must_appear", "must_not_appear"):
        for i, t in enumerate(getattr(sc.expected_ecam, part)):
            if t not in titles:
                P(f"expected_ecam.{part}[{i}]", f"unknown ECAM alert title {t!r}")
    gt = sc.ground_truth
    for b, block in enumerate(gt.procedure):
        for s, step in enumerate(block.steps):
            control(f"ground_truth.procedure[{b}].steps[{s}]", step.control, step.position)
    for i, step in enumerate(gt.optional_actions):
        control(f"ground_truth.optional_actions[{i}]", step.control, step.position)
    for i, fa in enumerate(gt.forbidden_actions):
        control(f"ground_truth.forbidden_actions[{i}]", fa.control, fa.position)
    panels = {c.panel for c in CONTROLS.values()}
    for i, crit in enumerate(sc.success):
        if isinstance(crit, ControlsUnchanged):
            for j, panel in enumerate(crit.controls_unchanged):
                if panel not in panels:
                    P(f"success[{i}].controls_unchanged[{j}]",
                      f"unknown panel {panel!r} (panels: {', '.join(sorted(panels))})")
        elif isinstance(crit, EcamClear):
            for j, t in enumerate(crit.ecam_clear_of):
                if t not in titles:
                    P(f"success[{i}].ecam_clear_of[{j}]", f"unknown ECAM alert title {t!r}")
        else:
            pred(f"success[{i}]", crit)
    return probs


def load_all(files: list[Path]) -> tuple[list[Scenario], list[Problem]]:
    """Parse and cross-check many files; ids must be unique (they name the output folders)."""
    scenarios: list[Scenario] = []
    problems: list[Problem] = []
    seen: dict[str, str] = {}
    for f in files:
        sc, probs = parse(f)
        problems += probs
        if sc is None or probs:
            continue
        if sc.id in seen:
            problems.append(Problem(str(f), "id", f"{sc.id!r} is already the id of {seen[sc.id]}"))
            continue
        seen[sc.id] = str(f)
        scenarios.append(sc)
    return scenarios, problems


def load(path: str | Path) -> Scenario:
    """Load one scenario or raise ScenarioError with every problem."""
    sc, probs = parse(Path(path))
    if probs or sc is None:
        raise ScenarioError(probs)
    return sc


class ScenarioError(ValueError):
    def __init__(self, problems: list[Problem]):
        self.problems = problems
        super().__init__("\n".join(str(p) for p in problems))
