"""ENG alerts (ATA 70-80): domain reference §4 N3-N7; FG/XP engine messages, FBW
`EngineFailMonitor` and ENG ALL ENGINES FAILURE (7700027).

Damage is not sensed by the FWC: ENG FAIL shows both the `.IF DAMAGE :` and
`.IF NO DAMAGE :` branches, and the crew judges from the ENG page (N2 at zero,
high N1 vibration) as on the aircraft.
"""

from __future__ import annotations

import math

from ..eng import OIL_HI_TEMP_C, OIL_LO_PR_PSI
from .alerts_fire import _agent_timer_text
from .model import AlertDef, Ctx, Line, dots, info

RELIGHT_WAIT_S = 30.0  # .IF NO RELIGHT AFTER 30S: with ignition on and the lever at idle (FCOM ENG FAIL)
OIL_HI_TEMP_IDLE_WAIT_S = 30.0  # simplified from the FCOM's minutes at idle
APU_START_MAX_FT = 25000.0


def _idle(n: int):
    return lambda c: c.pos(f"THR LEVER {n}") == "IDLE"


def _both_idle(c: Ctx) -> bool:
    return c.pos("THR LEVER 1") == "IDLE" and c.pos("THR LEVER 2") == "IDLE"


def _in_position_s(c: Ctx, control: str, position: str) -> float:
    """Seconds `control` has stood at `position`, from the first of the crew's unbroken selections of it
    (a repeat is no break); infinite when the crew never selected it (set before the crew's record)."""
    if c.pos(control) != position:
        return 0.0
    since = None
    for t, name, pos in reversed(c.ac.events):
        if name == control:
            if pos != position:
                break
            since = t
    return math.inf if since is None else c.ac.sim_time - since


def _held_s(c: Ctx, control: str, position: str) -> float:
    """Seconds `control` has stood at `position` since the alert appeared: a repeated selection of the
    position it already shows starts no new count."""
    return min(c.elapsed_s, _in_position_s(c, control, position))


def _ground_procedure(ac) -> bool:
    # FBW: the "before takeoff / after landing" procedure in FWC phases 1-3 and 8-10.
    p = ac.flight.fwc_phase(ac)
    return p <= 3 or p >= 8


def _eng_fail(n: int) -> AlertDef:
    zone = f"ENG {n}"
    eng = lambda ac: ac.eng.engines[n - 1]  # noqa: E731
    fire = lambda c: c.ac.fire.zones[zone]  # noqa: E731

    def when(ac) -> bool:
        if not eng(ac).fail_latched:
            return False
        z = ac.fire.zones[zone]
        isolated = z.pb_released and z.bottles[0].discharged  # the IF DAMAGE branch is complete
        return not isolated and not ac.eng.all_failed_in_flight(ac)

    flight = lambda c: not _ground_procedure(c.ac)  # noqa: E731
    ground = lambda c: _ground_procedure(c.ac)  # noqa: E731

    def after_wait(c: Ctx) -> bool:
        # .IF NO RELIGHT AFTER 30S: the engine is given 30 s with continuous ignition and its lever at
        # idle (the two lines above) to relight, counted from the later of the failure and those two
        # selections; a master already OFF is the crew's verdict that it did not relight.
        if ground(c) or c.pos(f"ENG MASTER {n}") == "OFF":
            return True
        given = min(eng(c.ac).fail_s, _in_position_s(c, "ENG MODE", "IGN START"), _in_position_s(c, f"THR LEVER {n}", "IDLE"))
        return given >= RELIGHT_WAIT_S - 1e-6

    return AlertDef(
        f"ENG {n} FAIL", 2, "ENG", "ENG", when,
        lines=(
            Line(dots("ENG MODE SEL", "IGN"), show=flight, done=lambda c: c.pos("ENG MODE") == "IGN START"),
            Line(dots(f"THR LEVER {n}", "IDLE"), done=_idle(n)),
            Line(".IF NO RELIGHT AFTER 30S", "condition", show=flight),
            Line(dots(f"ENG MASTER {n}", "OFF"), show=after_wait, done=lambda c: c.pos(f"ENG MASTER {n}") == "OFF"),
            Line(".IF DAMAGE :", "condition", show=after_wait),
            Line(dots(f"ENG {n} FIRE P/B", "PUSH"), show=after_wait, done=lambda c: fire(c).pb_released),
            Line(_agent_timer_text(zone, "AGENT 1", "AGENT1"), show=after_wait, done=lambda c: fire(c).bottles[0].discharged),
            Line(".IF NO DAMAGE :", "condition", show=lambda c: after_wait(c) and not fire(c).pb_released),
            Line(dots(f"ENG {n} RELIGHT", "CONSIDER"), show=lambda c: after_wait(c) and not fire(c).pb_released),
        ),
        land_asap="amber",
    )


def _eng_shut_down(n: int) -> AlertDef:
    master = f"ENG MASTER {n}"

    def when(ac) -> bool:
        # FG a320-fwc.xml eng-1-shutdown: the FIRE PB pushed in flight or in phases 1, 2, 9, 10, or
        # the master OFF in phases 3-8 (before take-off and after landing a master OFF is normal).
        master_off = ac.controls[master] == "OFF"
        pb = ac.fire.eng_fire_pb_released(n)
        if not (master_off or pb) or ac.eng.all_failed_in_flight(ac):
            return False
        p = ac.flight.fwc_phase(ac)
        return (pb and (not ac.flight.on_ground or p in (1, 2, 9, 10))) or (master_off and 3 <= p <= 8)

    pb = lambda c: c.ac.fire.eng_fire_pb_released(n)  # noqa: E731
    return AlertDef(
        f"ENG {n} SHUT DOWN", 2, "ENG", "ENG", when,
        lines=(
            Line(dots("ENG MODE SEL", "IGN"), show=lambda c: not c.ac.flight.on_ground,
                 done=lambda c: c.pos("ENG MODE") == "IGN START"),
            Line(".IF NO FUEL LEAK :", "condition"),
            Line(dots("IMBALANCE", "MONITOR")),
            Line(dots("TCAS MODE SEL", "TA"), show=lambda c: not c.ac.flight.on_ground,
                 done=lambda c: c.pos("TCAS MODE SEL") == "TA"),
            # Like every undone line, shown only while its condition holds: the crossbleed valve open
            # (with APU bleed in AUTO, or selected OPEN); once the valve is shut the line goes.
            Line(dots("X BLEED", "SHUT"), show=lambda c: pb(c) and c.ac.bleed.xbleed_open,
                 done=lambda c: not c.ac.bleed.xbleed_open),
            Line("AVOID ICING CONDITIONS", "info", show=pb),
        ),
        status=("CAT 3 SINGLE ONLY",),
        land_asap="amber",
    )


def _oil_lo_pr(n: int) -> AlertDef:
    def when(ac) -> bool:
        e = ac.eng.engines[n - 1]
        return e.running and e.oil_press_psi < OIL_LO_PR_PSI
    return AlertDef(
        f"ENG {n} OIL LO PR", 3, "ENG", "ENG", when,
        lines=(
            Line(dots(f"THR LEVER {n}", "IDLE"), done=_idle(n)),
            Line(dots(f"ENG MASTER {n}", "OFF"), done=lambda c: c.pos(f"ENG MASTER {n}") == "OFF"),
        ),
        inhibit=frozenset({1, 10}),
    )


def _oil_hi_temp(n: int) -> AlertDef:
    def when(ac) -> bool:
        e = ac.eng.engines[n - 1]
        return e.combustion and e.oil_temp_c > OIL_HI_TEMP_C
    unsuccessful = lambda c: _held_s(c, f"THR LEVER {n}", "IDLE") >= OIL_HI_TEMP_IDLE_WAIT_S - 1e-6  # noqa: E731
    return AlertDef(
        f"ENG {n} OIL HI TEMP", 2, "ENG", "ENG", when,
        lines=(
            Line(dots(f"THR LEVER {n}", "IDLE"), done=_idle(n)),
            Line(".IF UNSUCCESSFUL :", "condition", show=unsuccessful),
            Line(dots(f"ENG MASTER {n}", "OFF"), show=unsuccessful, done=lambda c: c.pos(f"ENG MASTER {n}") == "OFF"),
        ),
        inhibit=frozenset({1, 4, 5, 7, 8, 10}),
    )


def _all_engines_failure() -> AlertDef:
    def apu_line(c: Ctx) -> bool:
        apu = c.ac.apu
        return c.ac.flight.altitude_ft < APU_START_MAX_FT and not (apu.avail or apu.starting)

    return AlertDef(
        "ENG ALL ENGINES FAILURE", 3, "ENG", "ENG", lambda ac: ac.eng.all_failed_in_flight(ac),
        lines=(
            Line(dots("EMER ELEC PWR", "MAN ON"), show=lambda c: not c.ac.elec.emer_gen_online),
            Line(info("OPT RELIGHT SPD", "280/.77"), "info"),
            Line(dots("APU", "START"), show=apu_line),
            Line(dots("THR LEVERS", "IDLE"), done=_both_idle),
            Line(dots("FAC 1", "OFF THEN ON"), show=lambda c: not c.ac.fctl.engaged["FAC 1"],
                 done=lambda c: c.cycled("FAC 1", "OFF", "ON")),
            Line("GLDG DIST: 2NM/1000FT", "info"),
            Line(dots("DIVERSION", "INITIATE"), clear_on=("DIVERSION", "INITIATE")),
            Line(dots("ALL ENG FAIL PROC", "APPLY")),
        ),
        land_asap="red",
    )


ALERTS = (
    _all_engines_failure(),
    _oil_lo_pr(1),
    _oil_lo_pr(2),
    _eng_fail(1),
    _eng_fail(2),
    _oil_hi_temp(1),
    _oil_hi_temp(2),
    _eng_shut_down(1),
    _eng_shut_down(2),
)
