"""When each ECAM alert appeared and cleared, on the episode's simulated clock (for `report`).

The episode asks after every recorded call which alerts the ECAM shows now and
attaches the difference to that call's `tool_call` event as `ecam_changes`:

    {"title": "ELEC GEN 1 FAULT", "level": 2, "shown": true, "t_s": 12.4}
    {"title": "ELEC GEN 1 FAULT", "level": 2, "shown": false, "t_s": 40.0, "since_s": 10.0}

`t_s` is exact when there is no `since_s`: an alert shown when the episode began
(t_s 0, on the first call), or one whose first onset the warning computer
timed. Otherwise the change happened somewhere in [`since_s`, `t_s`]: the step
the episode advanced the simulator by when it looked (`observe`, after each
step; a step of the call's own length when the episode takes it whole). The
ECAM is not watched tick by tick: that would change the simulation's steps.
Nothing is recorded when nothing changed, so a trajectory grows only when the
ECAM does.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .sim import Aircraft


def _shown(ac: Aircraft) -> dict[str, int]:
    return {a.title: a.level for a in ac.fwc.displayed(ac)}


class AlertLog:
    __slots__ = ("shown", "seen_s", "pending")

    def __init__(self, ac: Aircraft):
        self.shown = _shown(ac)  # as of seen_s
        self.seen_s = 0.0
        # Shown when the episode began: reported on the first recorded call.
        self.pending = [{"title": t, "level": lv, "shown": True, "t_s": 0.0} for t, lv in self.shown.items()]

    def observe(self, ac: Aircraft, now_s: float, start_sim_s: float) -> None:
        """Compare the ECAM with the last look; keep the changes for the call's record.

        Called after each step the episode advances the simulator by, so a change
        inside a long wait is known to within a step, not the whole wait."""
        try:
            shown = _shown(ac)
        except Exception:  # a simulator that just crashed (harness_error): the call's record comes first
            return
        since = self.seen_s
        for title, level in shown.items():
            if title not in self.shown:
                onset = ac.fwc.onsets.get(title)
                onset_s = None if onset is None else round(onset.time_s - start_sim_s, 3)
                exact = onset_s if onset_s is not None and since <= onset_s <= now_s else None
                self.pending.append(self._change(title, level, True, exact, since, now_s))
        for title, level in self.shown.items():
            if title not in shown:
                self.pending.append(self._change(title, level, False, None, since, now_s))
        self.shown, self.seen_s = shown, now_s

    def note(self, ac: Aircraft, now_s: float, start_sim_s: float) -> dict[str, Any]:
        """`{"ecam_changes": [...]}` since the last note, or `{}` when the ECAM did not change."""
        self.observe(ac, now_s, start_sim_s)
        changes, self.pending = self.pending, []
        return {"ecam_changes": changes} if changes else {}

    @staticmethod
    def _change(title: str, level: int, shown: bool, exact_s: float | None, since_s: float, now_s: float
                ) -> dict[str, Any]:
        change: dict[str, Any] = {"title": title, "level": level, "shown": shown}
        if exact_s is not None or since_s == now_s:
            change["t_s"] = now_s if exact_s is None else exact_s
        else:
            change.update(t_s=now_s, since_s=since_s)
        return change
