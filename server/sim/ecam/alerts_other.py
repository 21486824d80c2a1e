"""F/CTL, VENT and SMOKE alerts: domain reference §4 O1-O3 (FBW 2700110.., 2600150).

The computer faults follow the FAULT light (failed and PB ON), with the same
OFF THEN ON latch as the ELEC generator faults; the law alerts read the law
the F/CTL model computes; cargo smoke reads the smoke detectors.
"""

from __future__ import annotations

from ..fctl import COMPUTERS
from .model import AlertDef, Line, cured_with_pb_on, dots, info, reset_lines

FCTL_INHIBIT = frozenset({3, 4, 5, 7, 8})


def _computer_fault(name: str) -> AlertDef:
    extra: tuple[Line, ...] = ()
    if name.startswith("ELAC"):
        extra = (Line("FUEL CONSUMPT INCRSD", "info"), Line("FMS PRED UNRELIABLE", "info"))
    elif name in ("SEC 1", "SEC 3"):  # their spoilers (1-4) include the speed brakes (2-4)
        extra = (Line(info("SPD BRK", "DO NOT USE"), "info"),)
    return AlertDef(
        f"F/CTL {name} FAULT", 2, "F/CTL", "F/CTL", lambda ac: ac.fctl.fault_light(name, ac),
        lines=(*reset_lines(name), *extra),
        inhibit=FCTL_INHIBIT,
        occurrence_ends=cured_with_pb_on(name),
    )


def _altn_law() -> AlertDef:
    return AlertDef(
        "F/CTL ALTN LAW", 2, "F/CTL", "F/CTL", lambda ac: ac.fctl.law == "ALTN",
        lines=(Line("(PROT LOST)", "info"), Line(info("MAX SPEED", "320 KT"), "info")),
        inhibit=FCTL_INHIBIT,
        status=("ALTN LAW: PROT LOST", "MAX SPEED 320 KT"),
    )


def _direct_law() -> AlertDef:
    return AlertDef(
        "F/CTL DIRECT LAW", 2, "F/CTL", "F/CTL", lambda ac: ac.fctl.law in ("DIRECT", "MECH BACKUP"),
        lines=(
            Line("(PROT LOST)", "info"),
            Line(info("MAX SPEED", "320/.77"), "info"),
            Line(dots("MAN PITCH TRIM", "USE")),
            Line("MANEUVER WITH CARE", "info"),
            Line(info("SPD BRK", "DO NOT USE"), "info"),
        ),
        inhibit=FCTL_INHIBIT,
        status=("DIRECT LAW: PROT LOST", "MAX SPEED 320/.77", "MANEUVER WITH CARE"),
    )


def _vent_fault(pb: str) -> AlertDef:
    light = (lambda ac: ac.vent.blower_fault_light(ac)) if pb == "BLOWER" else (lambda ac: ac.vent.extract_fault_light(ac))
    return AlertDef(
        f"VENT {pb} FAULT", 2, "VENT", "COND", light,
        lines=(Line(dots(pb, "OVRD"), done=lambda c: c.pos(pb) == "OVRD"),),
        inhibit=frozenset({3, 4, 5, 7, 8}),
    )


def _fwd_cargo_smoke() -> AlertDef:
    disch = lambda c: c.ac.vent.cargo_agent_discharged  # noqa: E731
    return AlertDef(
        "SMOKE FWD CARGO SMOKE", 3, "SMOKE", "FIRE", lambda ac: ac.vent.fwd_cargo_smoke_detected,
        lines=(
            Line(dots("FWD ISOL VALVE", "OFF"), done=lambda c: c.pos("FWD ISOL VALVE") == "OFF"),
            Line(dots("CAB FANS", "OFF"), done=lambda c: c.pos("CAB FANS") == "OFF"),
            Line(".IF FWD CARG CLOSED:", "condition", show=lambda c: not disch(c)),
            Line(dots("AGENT", "DISCH"), done=disch),
            Line(".WHEN ON GROUND:", "condition"),
            Line(".BEFORE OPEN CRG DOORS:", "condition"),
            Line(dots("PAX", "DISEMBARK")),
        ),
        inhibit=frozenset({4, 5, 7, 8}),
        land_asap="red",
    )


ALERTS = (
    _fwd_cargo_smoke(),
    _direct_law(),
    _altn_law(),
    *(_computer_fault(n) for n in COMPUTERS),
    _vent_fault("BLOWER"),
    _vent_fault("EXTRACT"),
)
