"""System display (SD) pages: what `read_system_page` shows, built from system state."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .errors import UnknownPageError

if TYPE_CHECKING:
    from .aircraft import Aircraft

PAGES = ("ELEC", "HYD", "FUEL", "BLEED", "COND", "PRESS", "ENG", "APU", "FIRE", "F/CTL", "STATUS")


def render(ac: Aircraft, name: str) -> dict[str, object]:
    key = name.strip().upper().replace("COND/PRESS", "PRESS")
    if key not in PAGES:
        raise UnknownPageError(name, PAGES)
    if key == "STATUS":
        return ac.fwc.status(ac)
    owner = {"ELEC": ac.elec, "HYD": ac.hyd, "FUEL": ac.fuel, "BLEED": ac.bleed, "COND": ac.bleed,
             "PRESS": ac.press, "ENG": ac.eng, "APU": ac.apu, "FIRE": ac.fire, "F/CTL": ac.fctl}[key]
    fn = getattr(owner, "cond_page" if key == "COND" else "page", None)
    body = fn(ac) if fn is not None else {}
    if key == "COND":
        body = {**body, "ventilation": ac.vent.page(ac)}
    fl = ac.flight
    return {"page": key, "sim_time_s": ac.sim_time,
            "flight": {"altitude_ft": round(fl.altitude_ft), "ias_kt": round(fl.ias_kt), "phase": fl.phase,
                       "on_ground": fl.on_ground}, **body}
