"""Scenario files as pydantic models (the JSON Schema is generated from these).

A scenario says how to set the aircraft up, what to break and when, what the
ECAM must show for the episode to be valid, what the agent is told, and the
ground truth the offline scorer compares the agent's actions against.
"""

from __future__ import annotations

from typing import Annotated, Literal, Union

from a320bench.procedure_order import COMMUNICATIONS, dependencies, label
from pydantic import BaseModel, ConfigDict, Discriminator, Field, SerializerFunctionWrapHandler, Tag, \
    model_serializer, model_validator

SCHEMA_VERSION = 1
MAX_ID_CHARS = 80  # the id names a folder and prefixes file names: keep paths well inside filesystem limits

Scalar = Union[bool, int, float, str]
Op = Literal["eq", "ne", "gt", "ge", "lt", "le", "between"]


def _unset_left_out(data: dict, name: str) -> dict:
    """A dump without an optional field that is not set: the scenario a trajectory embeds (and its hash)
    reads as before the field existed, and changes only where one is set."""
    if data.get(name) is None:
        data.pop(name, None)
    return data


class Strict(BaseModel):
    # allow_inf_nan=False: .nan and .inf are not numbers a scenario can mean, and would write
    # invalid JSON into every trajectory's meta.
    model_config = ConfigDict(extra="forbid", frozen=True, allow_inf_nan=False)


class InitialState(Strict):
    start_state: str = Field(description="One of the simulator's start states, e.g. cruise, engines_running.")
    world: dict[str, Scalar] = Field(default_factory=dict, description="World controls set before the start state is built.")
    controls: dict[str, str] = Field(default_factory=dict, description="Control overrides applied after the start state.")


class StatePredicate(Strict):
    var: str = Field(description="A simulator state variable, e.g. elec.ac_bus_1_powered or controls.GEN 1.")
    op: Op
    value: Scalar | None = None
    low: float | None = None
    high: float | None = None
    held_s: float | None = Field(default=None, gt=0, le=3600, description="(success criteria only) the predicate "
                                 "must have held without a break for this long when the episode ends.")

    @model_serializer(mode="wrap")
    def _without_absent_hold(self, handler: SerializerFunctionWrapHandler) -> dict:
        return _unset_left_out(handler(self), "held_s")

    @model_validator(mode="after")
    def _operands(self) -> StatePredicate:
        if self.op == "between":
            if self.low is None or self.high is None:
                raise ValueError("op 'between' needs 'low' and 'high'")
        elif self.value is None:
            raise ValueError(f"op {self.op!r} needs 'value'")
        return self


class EcamClear(Strict):
    ecam_clear_of: list[str] = Field(min_length=1, description="ECAM alert titles that must not be displayed.")


class ControlsUnchanged(Strict):
    controls_unchanged: list[str] = Field(
        min_length=1,
        description="Cockpit panels (e.g. ELEC, HYD, F/CTL) whose controls must end as they were when the "
                    "episode began, with no momentary control of theirs pushed: restraint and no-fault checks.",
    )


def _criterion_kind(v: object) -> str:
    keys = v if isinstance(v, dict) else vars(v) if hasattr(v, "__dict__") else {}
    if "controls_unchanged" in keys:
        return "ControlsUnchanged"
    return "EcamClear" if "ecam_clear_of" in keys else "StatePredicate"


def _by_key(key: str, present: str, absent: str):
    """A union discriminator: the branch is chosen by whether `key` is there, so a mistake
    reports that branch's errors only, not every branch's."""

    def pick(v: object) -> str:
        keys = v if isinstance(v, dict) else vars(v) if hasattr(v, "__dict__") else {}
        return present if key in keys else absent

    return pick


SuccessCriterion = Annotated[
    Union[Annotated[StatePredicate, Tag("StatePredicate")], Annotated[EcamClear, Tag("EcamClear")],
          Annotated[ControlsUnchanged, Tag("ControlsUnchanged")]],
    Discriminator(_criterion_kind),
]


class AfterTrigger(Strict):
    after_s: float = Field(ge=0, le=3600, description="Inject after this many simulated seconds.")


class WhenTrigger(Strict):
    when: StatePredicate = Field(description="Inject when this first holds.")
    max_wait_s: float = Field(default=600, gt=0, le=3600, description="Bounded wait; the scenario is invalid if it never holds.")


Trigger = Annotated[
    Union[Annotated[AfterTrigger, Tag("AfterTrigger")], Annotated[WhenTrigger, Tag("WhenTrigger")]],
    Discriminator(_by_key("when", "WhenTrigger", "AfterTrigger")),
]


class FailureSpec(Strict):
    id: str = Field(description="A failure id from the simulator's catalogue.")
    trigger: Trigger = Field(default_factory=lambda: AfterTrigger(after_s=0))
    settle_s: float = Field(default=3.0, ge=0, le=600, description="Simulated seconds after injection before the gate.")
    during_episode: bool = Field(default=False, description="Arm this failure to arrive while the agent is flying (after the gate).")


class ExpectedEcam(Strict):
    must_appear: list[str] = Field(default_factory=list)
    must_not_appear: list[str] = Field(default_factory=list)


# The longest single `wait` the tool accepts (server/episode.py MAX_WAIT_S; a test keeps them equal):
# the scripted provider flies `then_wait_s` as one wait, so a longer pause is two steps' waits.
MAX_STEP_WAIT_S = 300


class Since(Strict):
    since: str = Field(min_length=1, description="A step of the procedure (its id, or 'CONTROL POSITION').")
    min_s: float = Field(gt=0, le=3600, description="Simulated seconds since that step's command was given.")


Condition = Annotated[
    Union[Annotated[StatePredicate, Tag("StatePredicate")], Annotated[Since, Tag("Since")]],
    Discriminator(_by_key("since", "Since", "StatePredicate")),
]


class Action(Strict):
    control: str
    position: str


class Step(Action):
    then_wait_s: float = Field(default=0, ge=0, le=MAX_STEP_WAIT_S,
                               description="The scripted provider waits this long after the step (one wait call).")
    note: str = ""
    also: list[str] = Field(default_factory=list, description="Other positions of the same control that do this step "
                            "as well: a value the line leaves to the crew (SPD MAX/APPROPRIATE). The scripted provider "
                            "flies `position`.")
    id: str = Field(default="", description="A name for `after:` and `since:` when the action occurs more than once.")
    after: list[str] = Field(default_factory=list, description="Steps that must be done before this one (their id, or "
                             "'CONTROL POSITION'); everything not named is free (a320bench/procedure_order.py).")
    when: list[Condition] = Field(default_factory=list, description="Preconditions the server checks from the state "
                                  "just before the command (all must hold); a step taken before is out of order.")
    early: Literal["out_of_order", "dangerous"] = Field(
        default="out_of_order", description="How a command taken before its `when:` holds is classified.")
    why: str = Field(default="", description="Why the order or the condition matters (required with after/when).")

    @model_validator(mode="after")
    def _explained(self) -> Step:
        if (self.after or self.when) and len(self.why.split()) < 3:
            raise ValueError("a step with after: or when: needs a why: saying why the order or the condition matters")
        if self.early != "out_of_order" and not self.when:
            raise ValueError("early: applies to a step with when:")
        return self

    @model_serializer(mode="wrap")
    def _without_unset_order(self, handler: SerializerFunctionWrapHandler) -> dict:
        # Steps without constraints dump as before the fields existed: the ground truth in
        # every trajectory stays as short as the procedure it describes.
        data = handler(self)
        for name, empty in (("also", []), ("id", ""), ("after", []), ("when", []), ("early", "out_of_order"),
                            ("why", "")):
            if data.get(name) == empty:
                data.pop(name, None)
        return data


class ProcedureBlock(Strict):
    name: str
    ordered: bool = Field(default=False, description="Shorthand: each step after the previous one of the block "
                          "(needs why:). Blocks are groups; their listed order is not a constraint.")
    why: str = ""
    steps: list[Step] = Field(min_length=1)
    due_within_s: int | None = Field(
        default=None, ge=1, le=3600,
        description="Harm by waiting: every step of this block must be done within this many simulated seconds "
                    "of the agent taking over, else the episode is no compliant success (a fire's isolation and "
                    "agent). Never shown to the agent.")

    @model_serializer(mode="wrap")
    def _without_an_unset_due(self, handler: SerializerFunctionWrapHandler) -> dict:
        return _unset_left_out(handler(self), "due_within_s")

    @model_validator(mode="after")
    def _explained(self) -> ProcedureBlock:
        if self.ordered and len(self.steps) > 1 and len(self.why.split()) < 3:
            raise ValueError("an ordered block needs a why: saying why its steps must keep their order")
        return self


class ForbiddenAction(Strict):
    control: str
    position: str
    severity: Literal["dangerous", "anti_procedure"]
    why: str = ""


class GroundTruth(Strict):
    source: str = Field(min_length=1, description="Where the procedure comes from (domain reference section, sims).")
    fidelity: str = Field(min_length=1, description="What is simplified or uncertain.")
    procedure: list[ProcedureBlock] = Field(default_factory=list)
    optional_actions: list[Step] = Field(default_factory=list)
    forbidden_actions: list[ForbiddenAction] = Field(default_factory=list)
    diagnosis_keywords: list[list[str]] = Field(
        default_factory=list,
        description="Each inner list is a group of synonyms; the diagnosis must mention one of every group.",
    )
    act_within_s: int | None = Field(
        default=None, ge=1, le=3600,
        description="Harm by waiting: the first required action must come within this many simulated seconds "
                    "of the agent taking over (the failure on the ECAM); later, the episode is no compliant "
                    "success. For failures that worsen while nobody acts (a fire burning). Never shown to the agent.",
    )

    @model_serializer(mode="wrap")
    def _without_an_unset_deadline(self, handler: SerializerFunctionWrapHandler) -> dict:
        return _unset_left_out(handler(self), "act_within_s")

    @model_validator(mode="after")
    def _order_resolves(self) -> GroundTruth:
        dependencies([(b.ordered, b.steps) for b in self.procedure])  # OrderError (a ValueError) names the problem
        for s in (s for b in self.procedure for s in b.steps):
            if s.when and s.control in COMMUNICATIONS:
                raise ValueError(f"{label(s.control, s.position)} is a communication: order-free, it takes no when:")
        return self


class CaptainInstruction(Strict):
    say: str = Field(min_length=1, description="What the captain tells the agent (agent-facing: no ground truth).")
    after_s: float = Field(default=0, ge=0, le=3600,
                           description="Given with the first captain answer from this simulated time on.")
    expect: Action | None = Field(default=None, description="The action the instruction calls for; in the crew "
                                  "track an instruction given and not carried out is a crew violation.")


class CaptainScript(Strict):
    """What the captain of the `crew` profile says beyond the rules every scenario shares (server/crew).
    The captain confirms an action from what the E/WD shows, or from an `expect` once it has given that
    instruction: never from the ground truth."""

    instructions: list[CaptainInstruction] = Field(default_factory=list)


class Budget(Strict):
    max_tool_calls: int = Field(default=60, ge=1, le=1000)
    max_sim_time_s: float = Field(default=1800, gt=0, le=4 * 3600)


class Scenario(Strict):
    schema_version: Literal[1] = SCHEMA_VERSION
    id: Annotated[str, Field(pattern=r"^[a-z0-9][a-z0-9_]*$", max_length=MAX_ID_CHARS)]
    title: str
    system: Literal["ELEC", "HYD", "FUEL", "AIR", "ENG", "APU", "FIRE", "OTHER"]
    phase: Literal["ground", "takeoff", "climb", "cruise", "descent", "approach"]
    tags: list[str] = Field(default_factory=list, description="e.g. trap, no_fault, dual_failure, reset_works")
    initial_state: InitialState
    failures: list[FailureSpec] = Field(default_factory=list)
    expected_ecam: ExpectedEcam
    task_prompt: str = Field(min_length=1)
    ground_truth: GroundTruth
    success: list[SuccessCriterion] = Field(min_length=1)
    budget: Budget = Field(default_factory=Budget)
    captain: CaptainScript | None = Field(default=None, description="The captain's script in the crew profile.")

    @model_validator(mode="after")
    def _held_only_in_success(self) -> Scenario:
        conditions = [f.trigger.when for f in self.failures if hasattr(f.trigger, "when")] + [
            c for b in self.ground_truth.procedure for st in b.steps for c in st.when if isinstance(c, StatePredicate)]
        if any(c.held_s is not None for c in conditions):
            raise ValueError("held_s applies to success criteria only")
        return self

    @model_serializer(mode="wrap")
    def _without_absent_captain(self, handler: SerializerFunctionWrapHandler) -> dict:
        # A scenario without a captain script dumps (and hashes: scenario_sha256) as it did
        # before the field existed, so recorded trajectories still verify.
        data = handler(self)
        if data.get("captain") is None:
            data.pop("captain", None)
        return data
