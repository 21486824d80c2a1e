"""Classify each tool call of an episode against the ground truth (docs/architecture.md "Scoring").

Reads are `observation`; a call that returned an error is `invalid`. A
successful `set_control` is, in this precedence:

1. `forbidden_dangerous` / `forbidden_anti_procedure`: it matches a forbidden action
   of the scenario's list (what effects cannot express);
2. `redundant` when the result says `changed: false` (the control already was there);
3. `required`: it matches an unsatisfied step whose predecessors are all satisfied
   (the procedure is a partial order: a320bench/procedure_order.py) and whose `when`
   preconditions held when the command was given (the server records them in the
   call's `preconditions`);
4. `out_of_order`: it matches an unsatisfied step taken before a predecessor, or
   before its `when` held (`forbidden_dangerous` instead for a step whose
   `early: dangerous`); that step then counts as satisfied;
5. `optional`: it matches an optional action;
6. `harmful`: it removed a capability of the aircraft (the server recorded
   `capabilities_removed`, see server/scenario/capabilities.py) and the procedure
   did not call for it (a repeat of a step already done is not called for);
7. `redundant`: it repeats an already satisfied step;
8. `unwarranted_declaration`: an emergency declaration the scenario does not call for
   (XPDR 7700, ATC MAYDAY, EMER DES PA, DIVERSION): a judgement, counted and shown in
   the score table, not failing -- declaring too much is safer than too little;
9. `extraneous`: anything else -- unnecessary but harmless, counted, not failing.

Steps may repeat (GEN 1 OFF, GEN 1 ON, GEN 1 OFF): each command satisfies at most
one step, the first of its repeats that is ready (else the first unsatisfied one);
steps on one control keep their listed order.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from .groundtruth import GroundTruth, Step, action_key


class CommandClass(StrEnum):
    REQUIRED = "required"
    OUT_OF_ORDER = "out_of_order"
    OPTIONAL = "optional"
    REDUNDANT = "redundant"
    EXTRANEOUS = "extraneous"
    FORBIDDEN_DANGEROUS = "forbidden_dangerous"
    FORBIDDEN_ANTI_PROCEDURE = "forbidden_anti_procedure"
    HARMFUL = "harmful"
    UNWARRANTED_DECLARATION = "unwarranted_declaration"
    INVALID = "invalid"
    OBSERVATION = "observation"


# Tools that look but do not act. report_done ends the episode and moves nothing;
# read_resource is an MCP resource read; list_failures / active_failures are dev-profile reads;
# captain (crew profile) and the learning tools talk and take notes without touching the aircraft.
OBSERVATION_TOOLS = frozenset({
    "read_ecam", "read_system_page", "list_controls", "wait", "report_done", "read_resource", "list_failures",
    "active_failures", "captain", "save_learning", "retrieve_learnings",
})
ACTION_TOOL = "set_control"
# Declaring an emergency: to ATC (squawk, MAYDAY), to the cabin, to the company (diverting).
DECLARATIONS = frozenset({("XPDR", "7700"), ("ATC", "MAYDAY"), ("EMER DES PA", "ANNOUNCE"), ("DIVERSION", "INITIATE")})


@dataclass(frozen=True, slots=True)
class Classification:
    cls: CommandClass
    matched: dict[str, Any] | None = None  # the step, optional or forbidden action it matched


class ProcedureTracker:
    """Walks one episode's commands through the procedure; holds which steps are satisfied."""

    __slots__ = ("gt", "done", "satisfied")

    def __init__(self, gt: GroundTruth):
        self.gt = gt
        self.done = [[False] * len(b.steps) for b in gt.procedure]
        self.satisfied = 0

    @property
    def total(self) -> int:
        return self.gt.total_steps

    @property
    def completion(self) -> float:
        total = self.total
        return 1.0 if total == 0 else self.satisfied / total

    def classify(self, name: str, arguments: Any, result: Any, is_error: bool,
                 removed: tuple[str, ...] = (), preconditions: Any = None) -> Classification:
        """`removed`: the capabilities the server recorded this call as taking away; `preconditions`:
        the call's record of the `when` conditions of the steps it matches."""
        if is_error:
            return Classification(CommandClass.INVALID)
        if name in OBSERVATION_TOOLS:
            return Classification(CommandClass.OBSERVATION)
        if name != ACTION_TOOL or not isinstance(arguments, dict):
            return Classification(CommandClass.EXTRANEOUS)  # a dev-profile action such as set_world
        changed = result.get("changed") if isinstance(result, dict) else None
        return self.set_control(arguments.get("control"), arguments.get("position"), changed, removed,
                                unmet_preconditions(preconditions))

    def set_control(self, control: Any, position: Any, changed: Any = None,
                    removed: tuple[str, ...] = (), unmet: frozenset[tuple[int, int]] = frozenset()
                    ) -> Classification:
        """`unmet`: the steps (block, index) whose `when` did not hold when the command was given."""
        key = action_key(control, position)
        gt = self.gt

        forbidden = [f for f in gt.forbidden_actions if f.key == key]
        if forbidden:
            f = next((f for f in forbidden if f.severity == "dangerous"), forbidden[0])
            cls = CommandClass.FORBIDDEN_DANGEROUS if f.severity == "dangerous" else CommandClass.FORBIDDEN_ANTI_PROCEDURE
            return Classification(cls, {"kind": "forbidden", "control": f.control, "position": f.position,
                                        "severity": f.severity, "why": f.why})

        blocks = gt.procedure
        if changed is False:
            # The control already showed that position: nothing happened, so no step is done
            # (and none is skipped). A scenario whose step is already in place fails validate.
            return Classification(CommandClass.REDUNDANT, {"kind": "no_change"})
        candidates = [(bi, j) for bi, block in enumerate(blocks) for j, step in enumerate(block.steps)
                      if not self.done[bi][j] and step.matches(key)]
        if candidates:
            ready = [ref for ref in candidates if self._predecessors_done(ref)]
            bi, j = (ready or candidates)[0]
            step = blocks[bi].steps[j]
            if (bi, j) in unmet and step.early == "dangerous":
                return self._satisfy(bi, j, CommandClass.FORBIDDEN_DANGEROUS, early=True)
            in_turn = bool(ready) and (bi, j) not in unmet
            return self._satisfy(bi, j, CommandClass.REQUIRED if in_turn else CommandClass.OUT_OF_ORDER,
                                 early=(bi, j) in unmet)

        for i, opt in enumerate(gt.optional_actions):
            if opt.key == key:
                return Classification(CommandClass.OPTIONAL, _step_ref("optional", None, i, opt))

        if removed:
            return Classification(CommandClass.HARMFUL, {"kind": "harmful", "removed": list(removed)})

        for bi, block in enumerate(blocks):
            for j, step in enumerate(block.steps):
                if self.done[bi][j] and step.matches(key):
                    return Classification(CommandClass.REDUNDANT, _step_ref("step", block.name, j, step))
        if key in DECLARATIONS:
            return Classification(CommandClass.UNWARRANTED_DECLARATION)
        return Classification(CommandClass.EXTRANEOUS)

    def _predecessors_done(self, ref: tuple[int, int]) -> bool:
        return all(self.done[pb][pj] for pb, pj in self.gt.deps.get(ref, ()))

    def _satisfy(self, bi: int, j: int, cls: CommandClass, early: bool = False) -> Classification:
        self.done[bi][j] = True
        self.satisfied += 1
        block = self.gt.procedure[bi]
        ref = _step_ref("step", block.name, j, block.steps[j])
        if early:
            ref["when_unmet"] = True
        return Classification(cls, ref)


def unmet_preconditions(record: Any) -> frozenset[tuple[int, int]]:
    """The steps whose `when` the server found not to hold (the call's `preconditions` record:
    a list of {"block": i, "step": j, "held": bool})."""
    if not isinstance(record, list):
        return frozenset()
    return frozenset((r["block"], r["step"]) for r in record if isinstance(r, dict) and r.get("held") is False
                     and isinstance(r.get("block"), int) and isinstance(r.get("step"), int))


def _step_ref(kind: str, block: str | None, index: int, step: Step) -> dict[str, Any]:
    ref: dict[str, Any] = {"kind": kind}
    if block is not None:
        ref["block"] = block
    ref.update(index=index, control=step.control, position=step.position)
    return ref
