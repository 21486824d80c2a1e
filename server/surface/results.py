"""What the tools return: pydantic models, so every tool has a truthful output schema.

Clients such as Claude Code show the model the JSON of the structured content,
so field names are written for the agent to read. Every result carries
`sim_time_s`: simulated seconds since the episode began (not since the start
state was built).

The models read the simulator's dicts with `extra="ignore"`: a field the
simulator adds later is dropped until a model declares it, instead of turning
a call into an error.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field


class Result(BaseModel):
    model_config = ConfigDict(extra="ignore", frozen=True)


# ---- benchmark tools -------------------------------------------------------------


class EcamAlert(Result):
    title: str = Field(description="The alert title as displayed: the system, then what is wrong.")
    level: int = Field(description="3 warning (red), 2 caution (amber), 1 advisory caution.")
    level_name: str
    system: str
    lines: list[str] = Field(description="Procedure lines still to do, in order; a line clears when done.")


class EcamDisplay(Result):
    """The upper and lower ECAM: alerts with their procedure lines, memos, and the STATUS reminder."""

    master_warning: bool
    master_caution: bool
    alerts: list[EcamAlert]
    memos: list[str]
    status_reminder: bool = Field(description="True when the STATUS page has content worth reading.")
    sim_time_s: float


class SystemPage(Result):
    page: str
    display: dict[str, Any] = Field(description="What the system display page shows, as named values.")
    sim_time_s: float


class ControlInfo(Result):
    name: str
    panel: str
    positions: list[str] = Field(description="Every position this control has.")
    position: str = Field(description="The position it shows now.")
    guarded: bool
    momentary: bool = Field(description="Springs back to its rest position after being pushed.")
    description: str


class ControlPanel(Result):
    controls: list[ControlInfo]
    sim_time_s: float


class ControlChange(Result):
    """What set_control did."""

    control: str
    requested: str = Field(description="The position asked for.")
    previous: str = Field(description="The position the control showed before.")
    position: str = Field(description="The position the control shows now.")
    changed: bool = Field(description="False when the control already was in that position (nothing happened).")
    momentary: bool
    pushed: bool = Field(description="A momentary control was pushed (it acts, then springs back).")
    action_time_s: float = Field(description="Simulated seconds the action took.")
    sim_time_s: float
    episode_over: bool = False
    message: str


class WaitResult(Result):
    requested_s: float
    waited_s: float = Field(description="Simulated seconds that passed (less than requested only when the time budget ran out).")
    sim_time_s: float
    episode_over: bool = False
    message: str


class DoneReceipt(Result):
    accepted: bool
    message: str


# ---- crew tools (crew profile) ---------------------------------------------------------


class CaptainReply(Result):
    reply: str = Field(description="What the captain says.")
    decision: str = Field(description="confirmed, refused or your_call (an action that needs confirmation: "
                                      "your_call when the ECAM does not show it, for you to judge), go_ahead (an "
                                      "action that needs none), say_again, status, or standing_by.")
    control: str | None = Field(description="The control the captain understood you to mean, if any.")
    position: str | None = Field(description="The position the captain understood, if any.")
    instructions: list[str] = Field(description="Instructions the captain gives you now (also in the reply).")
    sim_time_s: float


# ---- learning tools (learning profile) ------------------------------------------------


class LearningSaved(Result):
    id: int = Field(description="The learning's number in this run's store.")
    saved: bool
    sim_time_s: float


class Learning(Result):
    id: int
    text: str = Field(description="The learning, exactly as you saved it.")
    saved_in_episode: int = Field(description="The episode of this run that saved it (1 is the first).")


class LearningsFound(Result):
    learnings: list[Learning] = Field(description="The best matches first.")
    limit: int = Field(description="The most learnings one lookup returns.")
    sim_time_s: float


# ---- dev tools (never on a scored server) ----------------------------------------------


class FailureInfo(Result):
    id: str
    ata: int
    system: str
    description: str
    resettable: bool


class FailureCatalogue(Result):
    failures: list[FailureInfo]


class ActiveFailures(Result):
    failures: list[str]
    sim_time_s: float


class FailureChange(Result):
    failure_id: str
    active: bool
    active_failures: list[str]
    sim_time_s: float
    message: str


class WorldChange(Result):
    name: str
    value: bool | float
    sim_time_s: float
    message: str


class ResetResult(Result):
    start_state: str
    sim_time_s: float
    message: str
