"""AIR, CAB PR and ANTI ICE alerts (ATA 21/30/36): domain reference §4 B1-B8 and O4.

Conditions read modelled state only: BMC latches, leak loops, pack valves and
temperatures, controller health, cabin altitude. Like a FAULT light (§2.1),
a bleed fault or leak caution whose cause stays latched goes away once the
crew has done its sensed isolation lines; the STATUS page keeps the INOP
items. Crew calls and announcements (ATC, cabin crew, PA, oxygen masks,
transponder) are non-sensed and clear when the crew actuates them.
"""

from __future__ import annotations

from ..bleed import PYLON, WING
from ..flight import fcu_alt_ft
from .model import AlertDef, Line, dots, info

FAULT_INHIBIT = frozenset({3, 4, 5, 7, 8})
LEAK_INHIBIT = frozenset({4, 5, 7, 8})
CRUISE_ONLY = frozenset({1, 2, 3, 4, 5, 7, 8, 9, 10})
AVOID_ICING = "AVOID ICING CONDITIONS"
MAX_FL = info("MAX FL", "100/MEA-MORA")
FL100_FT = 10000.0


def _is(control: str, position: str):
    return lambda c: c.pos(control) == position


def _descent_initiated(c) -> bool:
    """FCU ALT at or below FL100 and the aircraft descending toward it (or already there)."""
    fl = c.ac.flight
    return fcu_alt_ft(c.pos("FCU ALT")) <= FL100_FT and (fl.vs_fpm < -300.0 or fl.altitude_ft <= FL100_FT + 50)


def _above_fl100(c) -> bool:
    return c.ac.flight.altitude_ft > FL100_FT + 100


def _apu_bleed_in_use(ac) -> bool:
    return ac.controls["APU BLEED"] == "ON" and ac.apu.avail


def _eng_bleed_fault(n: int) -> AlertDef:
    i = n - 1
    bleed, pack = f"ENG {n} BLEED", f"PACK {n}"

    def wai_lines_pending(ac) -> bool:  # .IF WING A.I. REQUIRED (AND PACK m AVAIL): PACK n OFF, X BLEED OPEN
        c = ac.controls
        return ac.world.icing and (c[pack] != "OFF" or c["X BLEED"] != "OPEN")

    def when(ac) -> bool:
        b = ac.bleed
        if b.bmc_fault[i] and ac.controls[bleed] == "ON":
            return True
        return b.fault_seen[i] and not b.eng_valve_open[i] and wai_lines_pending(ac)

    icing = lambda c: c.ac.world.icing  # noqa: E731
    return AlertDef(
        f"AIR ENG {n} BLEED FAULT", 2, "AIR", "BLEED", when,
        lines=(
            Line(dots(bleed, "OFF"), done=_is(bleed, "OFF")),
            Line(f".IF WING A.I. REQUIRED (AND PACK {3 - n} AVAIL):", "condition",
                 show=lambda c: wai_lines_pending(c.ac)),
            Line(dots(pack, "OFF"), show=icing, done=_is(pack, "OFF")),
            Line(dots("X BLEED", "OPEN"), show=icing, done=_is("X BLEED", "OPEN")),
        ),
        inhibit=FAULT_INHIBIT,
    )


def _eng_bleed_leak(n: int) -> AlertDef:
    i = n - 1
    bleed = f"ENG {n} BLEED"

    def when(ac) -> bool:
        c = ac.controls
        return ac.bleed.leak[PYLON[i]] and (c[bleed] != "OFF" or c["X BLEED"] != "SHUT" or _apu_bleed_in_use(ac))

    return AlertDef(
        f"AIR ENG {n} BLEED LEAK", 2, "AIR", "BLEED", when,
        lines=(
            Line(dots(bleed, "OFF"), done=_is(bleed, "OFF")),
            Line(dots("X BLEED", "SHUT"), done=_is("X BLEED", "SHUT")),
            Line(dots("APU BLEED", "OFF"), show=lambda c: _apu_bleed_in_use(c.ac)),
        ),
        inhibit=LEAK_INHIBIT,
    )


def _wing_leak(side: str) -> AlertDef:
    i = 0 if side == "L" else 1
    bleed = f"ENG {i + 1} BLEED"
    left = side == "L"

    def when(ac) -> bool:
        c = ac.controls
        return ac.bleed.leak[WING[i]] and (
            c[bleed] != "OFF" or c["X BLEED"] != "SHUT" or (left and _apu_bleed_in_use(ac))
            or c["WING ANTI ICE"] == "ON"
        )

    lines = [
        Line(dots(bleed, "OFF"), done=_is(bleed, "OFF")),
        Line(dots("X BLEED", "SHUT"), done=_is("X BLEED", "SHUT")),
    ]
    if left:  # the APU duct joins the left side
        lines.append(Line(dots("APU BLEED", "OFF"), show=lambda c: _apu_bleed_in_use(c.ac)))
    lines += [
        Line(dots("WING ANTI ICE", "OFF"), done=_is("WING ANTI ICE", "OFF")),
        Line(AVOID_ICING, "info"),
    ]
    return AlertDef(f"AIR {side} WING LEAK", 2, "AIR", "BLEED", when, lines=tuple(lines),
                    inhibit=LEAK_INHIBIT, status=(AVOID_ICING,))


def _apu_bleed_leak() -> AlertDef:
    return AlertDef(
        "AIR APU BLEED LEAK", 2, "AIR", "BLEED",
        lambda ac: ac.bleed.apu_leak_isolated and ac.controls["APU BLEED"] == "ON",
        lines=(Line(dots("APU BLEED", "OFF"), done=_is("APU BLEED", "OFF")),),
        inhibit=LEAK_INHIBIT,
    )


def _both_packs_lost(ac) -> bool:
    """In flight, neither pack can be used: FAULT (valve or overheat) or selected OFF (FBW logic)."""
    if ac.flight.on_ground:
        return False
    b, c = ac.bleed, ac.controls
    return (b.pack_fault_light[0] or c["PACK 1"] == "OFF") and (b.pack_fault_light[1] or c["PACK 2"] == "OFF")


def _pack_1_2_fault() -> AlertDef:
    ram_pending = lambda c: c.pos("RAM AIR") != "ON"  # noqa: E731
    ram_now = lambda c: c.ac.press.diff_psi < 1.0 and c.ac.flight.altitude_ft <= FL100_FT + 50  # noqa: E731
    return AlertDef(
        "AIR PACK 1+2 FAULT", 2, "AIR", "BLEED", _both_packs_lost,
        lines=(
            Line(dots("PACK 1", "OFF"), done=_is("PACK 1", "OFF")),
            Line(dots("PACK 2", "OFF"), done=_is("PACK 2", "OFF")),
            Line("-DES TO FL 100/MEA-MORA", show=_above_fl100, done=_descent_initiated),
            Line(".WHEN DIFF PR <1 PSI", "condition", show=ram_pending),
            Line("AND FL BELOW 100:", "condition", show=ram_pending),
            Line(dots("RAM AIR", "ON"), show=ram_now, done=_is("RAM AIR", "ON")),
            Line(MAX_FL, "info"),
        ),
        inhibit=FAULT_INHIBIT,
        status=("MAX FL 100/MEA-MORA",),
    )


def _pack_ovht(n: int) -> AlertDef:
    i = n - 1
    pack = f"PACK {n}"

    def when(ac) -> bool:
        b = ac.bleed
        return b.pack_ovht_latch[i] or (b.pack_ovht_seen[i] and ac.controls[pack] == "OFF")

    pb_off = _is(pack, "OFF")
    return AlertDef(
        f"AIR PACK {n} OVHT", 2, "AIR", "BLEED", when,
        lines=(
            Line(dots(pack, "OFF"), done=pb_off),
            Line(".WHEN PACK OVHT OUT :", "condition", show=pb_off),
            Line(dots(pack, "ON"), show=lambda c: pb_off(c) and not c.ac.bleed.pack_ovht[i]),
        ),
        inhibit=FAULT_INHIBIT,
    )


def _pack_fault(n: int) -> AlertDef:
    i = n - 1

    def when(ac) -> bool:
        b = ac.bleed
        return b.pack_fault_light[i] and not b.pack_ovht_latch[i] and not _both_packs_lost(ac)

    return AlertDef(
        f"AIR PACK {n} FAULT", 2, "AIR", "BLEED", when,
        lines=(Line(dots(f"PACK {n}", "OFF"), done=_is(f"PACK {n}", "OFF")),),
        inhibit=FAULT_INHIBIT,
    )


def _excess_cab_alt() -> AlertDef:
    def atc_done(c) -> bool:
        return c.set_since("ATC", "NOTIFY") or c.set_since("ATC", "MAYDAY")

    above_14000 = lambda c: c.ac.press.cabin_alt_ft > 14000.0  # noqa: E731
    return AlertDef(
        "CAB PR EXCESS CAB ALT", 3, "CAB PR", "PRESS", lambda ac: ac.press.excess_cab_alt,
        lines=(
            Line(dots("CREW OXY MASKS", "USE"), clear_on=("CREW OXY MASKS", "USE")),
            Line(dots("SIGNS", "ON"), done=_is("SIGNS", "ON")),
            Line(".EMER DESCENT :", "condition", show=_above_fl100),
            Line(dots("DESCENT", "INITIATE"), show=_above_fl100, done=_descent_initiated),
            Line(dots("THR LEVERS", "IDLE"), show=_above_fl100,
                 done=lambda c: c.pos("THR LEVER 1") == "IDLE" and c.pos("THR LEVER 2") == "IDLE"),
            Line(dots("SPD BRK", "FULL"), show=_above_fl100, done=_is("SPD BRK", "FULL")),
            Line(info("SPD", "MAX/APPROPRIATE"), "info", show=_above_fl100),
            Line(dots("ENG MODE SEL", "IGN"), show=_above_fl100, done=_is("ENG MODE", "IGN START")),
            Line(dots("ATC", "NOTIFY"), done=atc_done),
            Line(dots("CABIN CREW", "ADVISE"), clear_on=("CABIN CREW", "ADVISE")),
            Line(dots("EMER DES (PA)", "ANNOUNCE"), clear_on=("EMER DES PA", "ANNOUNCE")),
            Line(dots("XPDR 7700", "CONSIDER"), clear_on=("XPDR", "7700")),
            Line(MAX_FL, "info"),
            Line(".IF CAB ALT>14000FT:", "condition", show=above_14000),
            Line(dots("PAX OXY MASKS", "MAN ON"), show=above_14000, done=_is("PAX OXY MASKS", "MAN ON")),
        ),
        inhibit=CRUISE_ONLY,
        status=("MAX FL 100/MEA-MORA",),
    )


def _cpc_fault(n: int) -> AlertDef:
    return AlertDef(
        f"CAB PR SYS {n} FAULT", 1, "CAB PR", "PRESS",
        lambda ac: not ac.press.cpc_ok[n - 1] and ac.press.cpc_ok[2 - n],
        inhibit=FAULT_INHIBIT,
    )


def _cpc_1_2_fault() -> AlertDef:
    return AlertDef(
        "CAB PR SYS 1+2 FAULT", 2, "CAB PR", "PRESS",
        lambda ac: not ac.press.cpc_ok[0] and not ac.press.cpc_ok[1],
        lines=(
            Line(dots("MODE SEL", "MAN"), done=_is("CAB PRESS MODE SEL", "MAN")),
            Line(dots("MAN V/S CTL", "AS RQRD"),
                 done=lambda c: c.set_since("MAN V/S CTL", "UP") or c.set_since("MAN V/S CTL", "DN")),
        ),
        inhibit=LEAK_INHIBIT,
    )


def _safety_valve_open() -> AlertDef:
    def when(ac) -> bool:  # overpressure relief in flight
        return not ac.flight.on_ground and ac.press.safety_valve_open and ac.press.diff_psi > 0.0

    return AlertDef(
        "CAB PR SAFETY VALVE OPEN", 2, "CAB PR", "PRESS", when,
        lines=(
            Line(dots("MODE SEL", "MAN"), done=_is("CAB PRESS MODE SEL", "MAN")),
            Line(dots("MAN V/S CTL", "AS RQRD"), done=lambda c: c.set_since("MAN V/S CTL", "UP")),
        ),
        inhibit=FAULT_INHIBIT,
    )


def _wing_anti_ice_fault() -> AlertDef:
    def one_bleed_lost(c) -> bool:
        """One side has no engine air while the other has, and no leak to feed: crossbleed helps."""
        b = c.ac.bleed
        leak = b.leak[PYLON[0]] or b.leak[PYLON[1]] or b.leak[WING[0]] or b.leak[WING[1]]
        return b.engine_air[0] != b.engine_air[1] and not leak

    return AlertDef(
        "WING A.ICE SYS FAULT", 2, "ANTI ICE", "BLEED", lambda ac: ac.bleed.wai_fault_light(ac),
        lines=(
            Line(dots("X BLEED", "OPEN"), show=one_bleed_lost, done=_is("X BLEED", "OPEN")),
            Line(dots("WING ANTI ICE", "OFF"), show=lambda c: not one_bleed_lost(c), done=_is("WING ANTI ICE", "OFF")),
            Line(AVOID_ICING, "info"),
        ),
        inhibit=FAULT_INHIBIT,
    )


def _eng_anti_ice_closed(n: int) -> AlertDef:
    return AlertDef(
        f"ANTI ICE ENG {n} VALVE CLSD", 2, "ANTI ICE", "BLEED", lambda ac: ac.bleed.eai_fault_light(n, ac),
        lines=(Line(AVOID_ICING, "info"),),
        inhibit=FAULT_INHIBIT,
    )


ALERTS = (
    _excess_cab_alt(),
    _eng_bleed_leak(1),
    _eng_bleed_leak(2),
    _wing_leak("L"),
    _wing_leak("R"),
    _apu_bleed_leak(),
    _eng_bleed_fault(1),
    _eng_bleed_fault(2),
    _pack_1_2_fault(),
    _pack_ovht(1),
    _pack_ovht(2),
    _pack_fault(1),
    _pack_fault(2),
    _cpc_1_2_fault(),
    _safety_valve_open(),
    _wing_anti_ice_fault(),
    _eng_anti_ice_closed(1),
    _eng_anti_ice_closed(2),
    _cpc_fault(1),
    _cpc_fault(2),
)
