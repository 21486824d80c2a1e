"""The ECAM alert data model: alerts, their lines, and what a line can see.

An alert is active while its condition holds on the modelled state (never on a
failure id). Its lines follow the FWC conventions of the domain reference §3.5:
a *sensed* line (`done`) disappears once the state shows the action done; a
*non-sensed* line (`clear_on`) disappears once the crew actuated that control
to that position after the alert first appeared; a *conditional* line (`show`)
is displayed only while its condition holds.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Literal

if TYPE_CHECKING:
    from ..aircraft import Aircraft

LineKind = Literal["action", "condition", "info"]


class Ctx:
    """What a line predicate sees: the aircraft and the crew's actions since the alert's onset."""

    __slots__ = ("ac", "onset_event", "onset_s")

    def __init__(self, ac: Aircraft, onset_event: int, onset_s: float):
        self.ac = ac
        self.onset_event = onset_event
        self.onset_s = onset_s

    def pos(self, control: str) -> str:
        return self.ac.controls[control]

    @property
    def elapsed_s(self) -> float:
        return self.ac.sim_time - self.onset_s

    def set_since(self, control: str, position: str) -> bool:
        """The crew moved `control` to `position` after the alert appeared."""
        for _, name, pos in self.ac.events[self.onset_event:]:
            if name == control and pos == position:
                return True
        return False

    def cycled(self, control: str, first: str = "OFF", then: str = "ON", *,
               after: tuple[str, str] | None = None) -> bool:
        """`first` then `then` after onset: the latch behind an `OFF THEN ON` line. With `after`
        (a control and position), only what the crew did once it first made that selection counts."""
        events = self.ac.events[self.onset_event:]
        if after is not None:
            start = next((i for i, (_, name, pos) in enumerate(events) if (name, pos) == after), None)
            if start is None:
                return False
            events = events[start + 1:]
        seen_first = False
        for _, name, pos in events:
            if name != control:
                continue
            if pos == first:
                seen_first = True
            elif pos == then and seen_first:
                return True
        return False


Pred = Callable[[Ctx], bool]


@dataclass(frozen=True, slots=True)
class Line:
    text: str | Callable[[Ctx], str]
    kind: LineKind = "action"
    show: Pred | None = None
    done: Pred | None = None
    clear_on: tuple[str, str] | None = None

    def visible(self, ctx: Ctx) -> bool:
        if self.show is not None and not self.show(ctx):
            return False
        if self.done is not None and self.done(ctx):
            return False
        if self.clear_on is not None and ctx.set_since(*self.clear_on):
            return False
        return True

    def render(self, ctx: Ctx) -> str:
        return self.text(ctx) if callable(self.text) else self.text


@dataclass(frozen=True, slots=True)
class AlertDef:
    """One ECAM alert of the catalogue.

    `inhibit` lists the FWC flight phases (1-10) in which the alert is held.
    `status` lines go to the STATUS page while the alert is active.
    """

    title: str
    level: Literal[1, 2, 3]
    system: str
    page: str
    when: Callable[[Aircraft], bool]
    lines: tuple[Line, ...] = ()
    inhibit: frozenset[int] = frozenset()
    status: tuple[str, ...] = ()
    land_asap: Literal["red", "amber", None] = None
    controls_named: tuple[str, ...] = field(default=())
    # While the alert is inactive and this holds, its occurrence is over: if it comes back it is a new
    # occurrence whose latches (OFF THEN ON) start afresh. None: the first onset anchors the episode.
    occurrence_ends: Callable[[Aircraft], bool] | None = None

    def __reduce__(self) -> tuple[Callable[[str], AlertDef], tuple[str]]:
        # An aircraft is copied by pickling it (start_states.py): an alert is the catalogue's own
        # object (its conditions are closures), so a copy refers to it by its unique title.
        return _catalogue_alert, (self.title,)


def _catalogue_alert(title: str) -> AlertDef:
    from .catalog import BY_TITLE  # the catalogue imports this module

    return BY_TITLE[title]


def dots(item: str, action: str, width: int = 24) -> str:
    """`-GEN 1......OFF THEN ON`: a dash, the item, a dot leader, the action."""
    n = max(2, width - len(item) - len(action) - 1)
    return f"-{item}{'.' * n}{action}"


def info(item: str, value: str, width: int = 24) -> str:
    n = max(2, width - len(item) - len(value))
    return f"{item}{'.' * n}{value}"


def cured_with_pb_on(control: str) -> Callable[[Aircraft], bool]:
    """For an OFF THEN ON alert: gone while its pushbutton is ON means the reset worked, so a later
    fault is a new occurrence (FG a320-fwc.xml: the flip-flop resets when the fault clears with the PB ON);
    gone while the PB is OFF is the same occurrence, waiting for the PB to come back ON."""
    return lambda ac: ac.controls[control] == "ON"


def reset_lines(control: str) -> tuple[Line, ...]:
    """`-X......OFF THEN ON`, then `.IF UNSUCCESSFUL :` `-X......OFF` once the reset is done
    (FG's flip-flop: the latch sets when the PB returns to ON while the fault persists)."""

    def cycled(c: Ctx) -> bool:
        return c.cycled(control, "OFF", "ON")

    return (
        Line(dots(control, "OFF THEN ON"), done=cycled),
        Line(".IF UNSUCCESSFUL :", "condition", show=cycled),
        Line(dots(control, "OFF"), show=cycled, done=lambda c: c.pos(control) == "OFF"),
    )
