"""System display (SD) pages: what `read_system_page` shows, built from system state."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .errors import UnknownPageError
from .flight import characteristic_speeds

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
    return {"page": key, "sim_time_s": ac.sim_time, "flight": flight_header(ac), **body}


def flight_header(ac: Aircraft) -> dict[str, object]:
    """The PFD's numbers, the FMA and the FCU selections: shown with every page so the crew can fly."""
    c = ac.controls
    fcu = {"alt": c["FCU ALT"], "spd": c["FCU SPD"], "hdg": c["FCU HDG"], "vs": c["FCU V/S"]}
    return {**ac.flight.header(characteristic_speeds(ac.flight)), "fma": ac.fg.fma(), "fcu": fcu}
