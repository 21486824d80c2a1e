"""APU alerts (ATA 49): domain reference §4 A2 (FG/XP APU AUTO SHUT DOWN).

APU FIRE (A1) is a FIRE warning: see alerts_fire.
"""

from __future__ import annotations

from .model import AlertDef, Line, dots


def _auto_shut_down() -> AlertDef:
    def when(ac) -> bool:
        # The ECB latched a protective shutdown (MASTER SW FAULT light). While the APU fire
        # warning is on, APU FIRE carries the MASTER SW line.
        return ac.apu.fault and ac.controls["APU MASTER SW"] == "ON" and not ac.fire.warning("APU")
    return AlertDef(
        "APU AUTO SHUT DOWN", 2, "APU", "APU", when,
        lines=(Line(dots("MASTER SW", "OFF"), done=lambda c: c.pos("APU MASTER SW") == "OFF"),),
        inhibit=frozenset({3, 4, 5, 7, 8}),
    )


ALERTS = (_auto_shut_down(),)
