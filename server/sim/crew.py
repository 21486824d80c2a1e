"""Non-switch crew actions as controls: calls, announcements and cabin signs.

ECAM lines such as `-ATC.....NOTIFY` or `-CABIN CREW.....ALERT` are
non-sensed: the FWC cannot see them done, so they clear once the crew
actuates the matching control. Modelling them as controls keeps one tool
(`set_control`) for everything the crew does.
"""

from __future__ import annotations

from dataclasses import dataclass

from .catalog import Control

CONTROLS = (
    Control("ATC", "RADIO", ("NORMAL", "NOTIFY", "MAYDAY"), "NORMAL", description="Tell ATC about the situation"),
    Control("CABIN CREW", "CABIN", ("NORMAL", "ALERT", "ADVISE"), "NORMAL", description="Interphone call to the cabin crew"),
    Control("DIVERSION", "FMS", ("NORMAL", "INITIATE"), "NORMAL", description="Initiate a diversion to the nearest suitable airport"),
    Control("EMER EVAC", "CABIN", ("NORMAL", "ANNOUNCE"), "NORMAL", description="Order the evacuation (EMER EVAC PROC)"),
    Control("EMER DES PA", "CABIN", ("NORMAL", "ANNOUNCE"), "NORMAL", description="Emergency descent announcement"),
    Control("SIGNS", "OVHD", ("OFF", "ON"), "OFF", description="Seat belts and no smoking signs"),
    Control("CREW OXY MASKS", "CREW", ("STOWED", "USE"), "STOWED", description="Crew oxygen masks"),
    Control("PAX OXY MASKS", "OVHD", ("AUTO", "MAN ON"), "AUTO", guarded=True, description="Deploy passenger oxygen masks"),
    Control("TCAS MODE SEL", "PEDESTAL", ("TA/RA", "TA", "STBY"), "STBY", description="TCAS mode"),
    Control("XPDR", "PEDESTAL", ("AS SET", "7700"), "AS SET", description="Transponder code"),
)


@dataclass(slots=True)
class Crew:
    """Nothing to simulate: the calls and announcements only leave their trace in the crew's record."""

    transient: bool = False

    def vars(self) -> dict[str, object]:
        return {}
