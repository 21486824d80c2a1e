"""Read-outs of the aircraft as the agent sees them, shared by the read tools and the resources."""

from __future__ import annotations

from ..episode import Episode
from .results import ControlInfo, ControlPanel, EcamAlert, EcamDisplay, SystemPage


def ecam_display(ep: Episode) -> EcamDisplay:
    raw = ep.ac.read_ecam()
    return EcamDisplay(
        master_warning=raw["master_warning"], master_caution=raw["master_caution"],
        alerts=[EcamAlert.model_validate(a) for a in raw["alerts"]], memos=list(raw["memos"]),
        status_reminder=raw["status_reminder"], sim_time_s=ep.sim_elapsed,
    )


def system_page(ep: Episode, page: str) -> SystemPage:
    raw = ep.ac.system_page(page)
    # The page's own clock is the aircraft's (setup included); results use the episode's.
    display = {k: v for k, v in raw.items() if k not in ("page", "sim_time_s")}
    return SystemPage(page=str(raw.get("page", page)), display=display, sim_time_s=ep.sim_elapsed)


def control_panel(ep: Episode) -> ControlPanel:
    return ControlPanel(controls=[ControlInfo.model_validate(c) for c in ep.ac.list_controls()],
                        sim_time_s=ep.sim_elapsed)
