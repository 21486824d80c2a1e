"""The order a procedure's steps must keep: a partial order, shared by the scenario models and scoring.

A step must come after:

- the steps its `after:` names (by step `id`, or by "CONTROL POSITION" when that
  action occurs once in the procedure), each with a `why` in the scenario file;
- the previous step of its block when the block is `ordered: true` (a shorthand,
  with the block's `why`);
- the step a `when: [{since: ...}]` condition times itself from;
- the earlier steps on the same control (OFF then ON is the point of a reset).

Everything else is free: blocks are groups, not a sequence. Communications (ATC,
cabin crew, transponder, PA) are order-free and may take part in no constraint.

Pure Python on plain values: scoring imports it without pydantic or the simulator.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

# Calls a crew makes whenever the workload allows: never ordered against the procedure.
COMMUNICATIONS = frozenset({"ATC", "CABIN CREW", "XPDR", "EMER DES PA"})

StepRef = tuple[int, int]  # (block index, step index)


class OrderError(ValueError):
    """A constraint that cannot be resolved: an unknown or ambiguous reference, a cycle, a communication."""


class StepLike(Protocol):
    control: str
    position: str


def label(control: Any, position: Any) -> str:
    """How a step is named in `after:` and compared: case and spacing do not matter."""
    return " ".join(f"{control} {position}".split()).upper()


def dependencies(blocks: Sequence[tuple[bool, Sequence[Any]]]) -> dict[StepRef, frozenset[StepRef]]:
    """Direct predecessors of every step. `blocks`: (ordered, steps); a step has `control`,
    `position`, and optionally `id` (str) and `after` (list of references).

    Raises OrderError on an unresolved or ambiguous reference, a cycle, or a communication
    taking part in a constraint."""
    flat: list[tuple[StepRef, Any]] = [((bi, j), s) for bi, (_, steps) in enumerate(blocks) for j, s in enumerate(steps)]
    by_id = {str(getattr(s, "id", "") or ""): ref for ref, s in flat if getattr(s, "id", "")}
    by_label: dict[str, list[StepRef]] = {}
    for ref, s in flat:
        by_label.setdefault(label(s.control, s.position), []).append(ref)

    def resolve(name: str) -> StepRef:
        if name in by_id:
            return by_id[name]
        refs = by_label.get(label(name, ""), [])
        if not refs:
            raise OrderError(f"{name!r} names no step of the procedure (a step id, or 'CONTROL POSITION')")
        if len(refs) > 1:
            raise OrderError(f"{name!r} occurs {len(refs)} times in the procedure: give the step an id")
        return refs[0]

    deps: dict[StepRef, set[StepRef]] = {ref: set() for ref, _ in flat}
    last_on_control: dict[str, StepRef] = {}
    step_at = dict(flat)
    for ref, s in flat:
        bi, j = ref
        ordered = blocks[bi][0]
        control = " ".join(str(s.control).split()).upper()
        if ordered and j > 0:
            deps[ref].add((bi, j - 1))
        if control in last_on_control:
            deps[ref].add(last_on_control[control])
        last_on_control[control] = ref
        for name in [*(getattr(s, "after", None) or ()), *since_refs(s)]:
            target = resolve(str(name))
            if target == ref:
                raise OrderError(f"{label(s.control, s.position)}: after: names the step itself")
            deps[ref].add(target)
    for ref, preds in deps.items():
        for p in preds:
            a, b = step_at[p], step_at[ref]
            if a.control == b.control:
                continue  # the same control's own sequence
            for s in (a, b):
                if s.control in COMMUNICATIONS:
                    raise OrderError(f"{label(s.control, s.position)} is a communication: order-free, it may be "
                                     f"neither ordered nor named in after: ({label(a.control, a.position)} before "
                                     f"{label(b.control, b.position)})")
    _check_acyclic(deps, step_at)
    return {ref: frozenset(p) for ref, p in deps.items()}


def since_refs(step: Any) -> list[str]:
    """The steps a step's `when:` conditions time themselves from (`{since: ..., min_s: ...}`)."""
    out = []
    for c in getattr(step, "when", None) or ():
        name = c.get("since") if isinstance(c, dict) else getattr(c, "since", None)
        if name:
            out.append(str(name))
    return out


def _check_acyclic(deps: dict[StepRef, set[StepRef]], step_at: dict[StepRef, Any]) -> None:
    state: dict[StepRef, int] = {}  # 1: on the current path, 2: done

    def visit(ref: StepRef, path: list[StepRef]) -> None:
        state[ref] = 1
        for p in sorted(deps[ref]):
            if state.get(p) == 1:
                cycle = path[path.index(p):] + [p] if p in path else [ref, p]
                names = " -> ".join(label(step_at[r].control, step_at[r].position) for r in cycle)
                raise OrderError(f"the order constraints form a cycle: {names}")
            if p not in state:
                visit(p, [*path, p])
        state[ref] = 2

    for ref in sorted(deps):
        if ref not in state:
            visit(ref, [ref])


def violates(order: Sequence[StepRef], deps: dict[StepRef, frozenset[StepRef]]) -> list[tuple[StepRef, StepRef]]:
    """(step, predecessor) pairs where a step of `order` comes before one of its predecessors."""
    position = {ref: i for i, ref in enumerate(order)}
    return [(ref, p) for ref in order for p in sorted(deps.get(ref, ())) if position.get(p, -1) > position[ref]]
