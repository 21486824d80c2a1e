"""The flight warning computer: which alerts are active, shown, and what they say.

Runs once per tick (onset tracking needs the exact moment an alert appears)
and renders on demand for `read_ecam` and the STATUS page.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from .catalog import ALERTS
from .memos import memos
from .model import AlertDef, Ctx

if TYPE_CHECKING:
    from ..aircraft import Aircraft


@dataclass(slots=True)
class Onset:
    event_index: int  # crew actions from here on count for this alert's lines
    time_s: float


_ORDER = {a.title: i for i, a in enumerate(ALERTS)}
_CONDITIONS = tuple((a, a.when) for a in ALERTS)
LEVEL_NAMES = {3: "WARNING", 2: "CAUTION", 1: "CAUTION (level 1)"}


class Fwc:
    __slots__ = ("onsets", "active", "transient", "_ended")

    def __init__(self) -> None:
        self.onsets: dict[str, Onset] = {}
        self.active: tuple[AlertDef, ...] = ()
        self.transient = False
        self._ended: list[AlertDef] = []  # inactive alerts whose occurrence may yet end

    def forget_occurrences(self) -> None:
        """Every alert active from now on is a new occurrence (its latches start afresh)."""
        self.onsets.clear()
        self.active = ()
        self._ended = []

    def update(self, ac: Aircraft) -> None:
        # Every tick, so written for speed: a list comprehension over prebound conditions.
        active = tuple([a for a, when in _CONDITIONS if when(ac)])
        changed = active != self.active
        if changed:  # otherwise every active alert has had its onset since it appeared
            for a in active:
                # The first onset anchors the alert's latches, so a caution that goes away while its
                # PB is OFF keeps its OFF THEN ON history...
                if a.title not in self.onsets:
                    self.onsets[a.title] = Onset(len(ac.events), ac.sim_time)
            # ...until its occurrence is over (e.g. the generator came back after a good reset).
            for a in self.active:
                if a not in active and a.occurrence_ends is not None:
                    self._ended.append(a)
        if self._ended:
            self._ended = [a for a in self._ended if a not in active and not self._forget_if_over(a, ac)]
        self.transient = changed
        self.active = active

    def _forget_if_over(self, a: AlertDef, ac: Aircraft) -> bool:
        if a.occurrence_ends is not None and a.occurrence_ends(ac):
            self.onsets.pop(a.title, None)
            return True
        return False

    def ctx(self, ac: Aircraft, alert: AlertDef) -> Ctx:
        o = self.onsets[alert.title]
        return Ctx(ac, o.event_index, o.time_s)

    def displayed(self, ac: Aircraft) -> list[AlertDef]:
        phase = ac.flight.fwc_phase(ac)
        shown = [a for a in self.active if phase not in a.inhibit]
        # Level 3 before 2 before 1; within a level, catalogue (FWC priority) order.
        return sorted(shown, key=lambda a: (-a.level, _ORDER[a.title]))

    def read(self, ac: Aircraft) -> dict[str, object]:
        alerts = []
        for a in self.displayed(ac):
            ctx = self.ctx(ac, a)
            alerts.append({
                "title": a.title,
                "level": a.level,
                "level_name": LEVEL_NAMES[a.level],
                "system": a.system,
                "lines": [ln.render(ctx) for ln in a.lines if ln.visible(ctx)],
            })
        land = self.land_asap(ac)
        return {
            "master_warning": any(a["level"] == 3 for a in alerts),
            "master_caution": any(a["level"] == 2 for a in alerts),
            "alerts": alerts,
            "memos": ([f"LAND ASAP ({land.upper()})"] if land else []) + memos(ac),
            "status_reminder": any(a.status for a in self.active) or self._any_inop(ac),
        }

    def land_asap(self, ac: Aircraft) -> str | None:
        if ac.flight.on_ground:
            return None
        levels = {a.land_asap for a in self.active}
        return "red" if "red" in levels else ("amber" if "amber" in levels else None)

    def titles(self, ac: Aircraft) -> list[str]:
        return [a.title for a in self.displayed(ac)]

    @staticmethod
    def _any_inop(ac: Aircraft) -> bool:
        for sys in ac.systems:
            fn = getattr(sys, "inop", None)
            if fn is not None and fn(ac):
                return True
        return False

    def status(self, ac: Aircraft) -> dict[str, list[str]]:
        procedures: list[str] = []
        for a in self.active:
            for s in a.status:
                if s not in procedures:
                    procedures.append(s)
        inop: list[str] = []
        for sys in ac.systems:
            fn = getattr(sys, "inop", None)
            if fn is not None:
                for item in fn(ac):
                    if item not in inop:
                        inop.append(item)
        return {"procedures": procedures, "inop_sys": inop}
