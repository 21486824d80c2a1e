"""Load scenario YAML files and cross-check every name against the simulator's catalogues.

Problems are collected, not raised one at a time: a broken file yields one
line per problem, each naming the file, the field path and what was expected,
up to MAX_PROBLEMS per file and then one line saying how many more there are.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import yaml
from pydantic import ValidationError

from a320bench.paths import read_regular_file

from ..sim import ALERT_TITLES, CONTROLS, FAILURES, START_STATES, Aircraft, SimError
from ..sim.world import World
from .model import ControlsUnchanged, EcamClear, Scenario, StatePredicate

_VARS: frozenset[str] | None = None
MAX_FILE_BYTES = 4 * 2**20  # a scenario is a few KB; a larger file is read no further
MAX_PROBLEMS = 20  # per file: a file with 120,000 unknown keys is one screen, not 120,000 lines
_SCALAR_BRANCHES = ("bool", "int", "float", "str")  # pydantic's union branch names for a Scalar
# libyaml when available (fast on big files); the pure-Python loader's messages are clearer.
_FAST_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


class _DuplicateKey(yaml.constructor.ConstructorError):
    pass


class _Loader(_FAST_LOADER):  # type: ignore[misc, valid-type]
    """Refuses a key given twice in one mapping: YAML would keep the last one and silently drop the
    first (a second `success:` or `budget:` pasted below would change what the scenario measures)."""

    def construct_mapping(self, node, deep=False):
        if isinstance(node, yaml.MappingNode):
            seen: dict = {}
            for key_node, _ in node.value:
                if key_node.tag == "tag:yaml.org,2002:merge":
                    continue
                key = self.construct_object(key_node, deep=True)
                try:
                    first = seen.setdefault(key, key_node.start_mark)
                except TypeError:  # an unhashable key: the constructor says so itself
                    continue
                if first is not key_node.start_mark:
                    raise _DuplicateKey(None, None, f"the key {_key(str(key))} is given twice (first on line "
                                                    f"{first.line + 1}); YAML would keep only the last",
                                        key_node.start_mark)
        return super().construct_mapping(node, deep=deep)


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
        text = f"{self.file}: {self.path}: {self.message}" if self.path else f"{self.file}: {self.message}"
        return text.replace("\n", "\\n")  # one problem, one line


# Fields a scenario of an earlier version may still carry: what to do instead.
_REMOVED = {"captain.refusals": "removed in 0.4.0: delete it (the captain refuses from what the E/WD shows, "
                                "never from the scenario)"}


def _loc(loc: tuple) -> str:
    out = ""
    for part in loc:
        if isinstance(part, int):
            out += f"[{part}]"
        elif part in ("StatePredicate", "EcamClear", "ControlsUnchanged", "AfterTrigger", "WhenTrigger",
                      "Since"):  # union tags
            continue
        else:
            out += ("." if out else "") + _key(str(part))
    return out


def _key(name: str, limit: int = 60) -> str:
    """A field name as one short, printable piece of a line (keys come from the file: anything)."""
    if name and name.isprintable() and len(name) <= limit and "." not in name:
        return name
    return repr(name[:limit]) + ("…" if len(name) > limit else "")


def parse(path: Path) -> tuple[Scenario | None, list[Problem]]:
    name = str(path)
    try:
        raw = read_regular_file(path, MAX_FILE_BYTES)  # never the whole of /dev/zero, a FIFO or a runaway file
        if len(raw) > MAX_FILE_BYTES:
            return None, [Problem(name, "", f"larger than {MAX_FILE_BYTES // 2**20} MB; scenario files are a few "
                                            "KB of YAML")]
        text = raw.decode("utf-8").replace("\r\n", "\n").replace("\r", "\n")  # as text mode reads it
    except OSError as e:
        from a320bench.paths import broken_link_problem

        why = broken_link_problem(Path(path))  # "No such file" would not say that the link is what is broken
        return None, [Problem(name, "", f"cannot read: {f'a symbolic link that {why}' if why else e.strerror}")]
    except UnicodeDecodeError as e:
        return None, [Problem(name, "", f"not UTF-8 text (byte {e.start}); scenario files are UTF-8 YAML")]
    try:
        data = yaml.load(text, Loader=_Loader)  # noqa: S506 - a safe loader
    except RecursionError:
        return None, [Problem(name, "", "nested too deeply to be a scenario")]
    except _DuplicateKey as e:
        mark = e.problem_mark
        return None, [Problem(name, "", f"line {mark.line + 1}, column {mark.column + 1}: {e.problem}")]
    except yaml.YAMLError:
        e = _yaml_error(text)
        if isinstance(e, yaml.reader.ReaderError) and isinstance(e.position, int):  # a control character
            line = text.count("\n", 0, e.position) + 1
            column = e.position - (text.rfind("\n", 0, e.position) + 1) + 1
            return None, [Problem(name, "", f"not valid YAML: line {line}, column {column}: the control character "
                                            f"#x{e.character:04X} is not allowed")]
        mark = getattr(e, "problem_mark", None)
        where = f"line {mark.line + 1}, column {mark.column + 1}: " if mark else ""
        return None, [Problem(name, "", f"not valid YAML: {where}{getattr(e, 'problem', None) or e}")]
    if data is None:
        return None, [Problem(name, "", "the file is empty: no scenario fields")]
    if not isinstance(data, dict):
        got = {list: "a list", str: "a text", bool: "true/false", int: "a number", float: "a number"}
        return None, [Problem(name, "", "expected a mapping of scenario fields, got "
                                        f"{got.get(type(data), type(data).__name__)}")]
    try:
        sc = Scenario.model_validate(data)
    except RecursionError:
        return None, [Problem(name, "", "nested too deeply to be a scenario")]
    except ValidationError as e:
        seen: set[str] = set()
        problems = []
        for err in e.errors():
            loc = err["loc"]
            msg = err["msg"].removeprefix("Value error, ")
            if loc and loc[-1] in _SCALAR_BRANCHES:  # one line for a scalar, not one per type it could be
                loc = loc[:-1]
                msg = "expected true/false, a finite number or a text"
            path = _loc(loc)
            if (path, msg) in seen:
                continue
            seen.add((path, msg))  # type: ignore[arg-type]
            if err["type"] == "missing":
                msg = "required field is missing"
            elif err["type"] == "extra_forbidden":
                msg = _REMOVED.get(path, "unknown field (not in the scenario schema)")
            problems.append(Problem(name, path, msg))
        return None, _capped(name, problems)
    return sc, _capped(name, cross_check(sc, name))


def _yaml_error(text: str) -> yaml.YAMLError:
    try:
        yaml.safe_load(text)
    except yaml.YAMLError as e:
        return e
    raise AssertionError("libyaml refused what the pure-Python loader accepts")  # pragma: no cover


def _capped(name: str, problems: list[Problem]) -> list[Problem]:
    if len(problems) <= MAX_PROBLEMS:
        return problems
    return [*problems[:MAX_PROBLEMS], Problem(name, "", f"… and {len(problems) - MAX_PROBLEMS} more problem(s)")]


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
    for k, v in init.world.items():
        if k not in World.names():
            P(f"initial_state.world.{k}", f"unknown world control (valid: {', '.join(World.names())})")
            continue
        try:
            World().set(k, v)  # the simulator's own type check for this world control
        except SimError as e:
            P(f"initial_state.world.{k}", str(e))
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
            c = CONTROLS.get(step.control)
            for k, pos in enumerate(step.also if c is not None else ()):
                if pos not in c.positions:
                    P(f"ground_truth.procedure[{b}].steps[{s}].also[{k}]",
                      f"control {step.control!r} has no position {pos!r} (positions: {', '.join(c.positions)})")
            for k, cond in enumerate(step.when):
                if isinstance(cond, StatePredicate):
                    pred(f"ground_truth.procedure[{b}].steps[{s}].when[{k}]", cond)
    for i, step in enumerate(gt.optional_actions):
        control(f"ground_truth.optional_actions[{i}]", step.control, step.position)
        for field in ("also", "after", "when", "id"):  # scoring matches an optional action by its position alone
            if getattr(step, field):
                P(f"ground_truth.optional_actions[{i}]", f"{field}: applies to procedure steps only (an optional "
                  "action is matched by its control and position)")
    for i, fa in enumerate(gt.forbidden_actions):
        control(f"ground_truth.forbidden_actions[{i}]", fa.control, fa.position)
    if sc.captain is not None:
        for i, ins in enumerate(sc.captain.instructions):
            if ins.expect is not None:
                control(f"captain.instructions[{i}].expect", ins.expect.control, ins.expect.position)
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
