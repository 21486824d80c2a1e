"""Which cockpit actions the pilot monitoring confirms with the captain before taking them.

On the real flight deck, actions that cannot be undone, or that shut an engine down,
are confirmed by both pilots before they are taken (FCOM golden rules: ENG MASTER,
FIRE pushbutton, IDG; the fire agents, the RAT, the passenger oxygen and the evacuation
are not reversible in flight). This table is that rule, once: the captain applies it,
the scripted provider follows it and scoring checks it.

Pure (no imports of ours): `a320-bench score` reads it without the simulator.
"""

from __future__ import annotations

# control -> the position that needs the captain's confirmation
NEEDS_CONFIRMATION: dict[str, str] = {
    "ENG MASTER 1": "OFF",
    "ENG MASTER 2": "OFF",
    "ENG 1 FIRE": "RELEASED",
    "ENG 2 FIRE": "RELEASED",
    "APU FIRE": "RELEASED",
    "ENG 1 AGENT 1": "PUSH",
    "ENG 1 AGENT 2": "PUSH",
    "ENG 2 AGENT 1": "PUSH",
    "ENG 2 AGENT 2": "PUSH",
    "APU AGENT": "PUSH",
    "CARGO AGENT": "PUSH",
    "IDG 1": "DISC",
    "IDG 2": "DISC",
    "RAT MAN ON": "PUSH",
    "EMER ELEC PWR MAN ON": "PUSH",
    "PAX OXY MASKS": "MAN ON",
    "EMER EVAC": "ANNOUNCE",
}


def needs_confirmation(control: object, position: object) -> bool:
    return isinstance(control, str) and NEEDS_CONFIRMATION.get(control) == position


def described() -> str:
    """The rule in the agent's words (the crew profile's instructions say the same)."""
    return ", ".join(f"{c} {p}" for c, p in NEEDS_CONFIRMATION.items())
