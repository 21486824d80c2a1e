"""HYD alerts (ATA 29): domain reference §4 H1-H9; XP `EWD_msgs/hydraulic.lua`, FBW PseudoFWC.

Which titles show together (one cause, one procedure):
* a reservoir fault (LO LVL, OVHT, LO AIR PR) is the cause: that circuit's pump
  LO PR is not shown beside it (its procedure already switches the pumps OFF);
* a pump LO PR is the cause: that circuit's single SYS LO PR is not shown;
* two circuits low: the level-3 dual alert replaces both singles and the pump
  LO PR alerts of those circuits (its lines cover the pumps), as XP and FG do.
Low-pressure logic uses the hydraulic model's 1450/1750 psi latches. The
pressure cautions are monitored in flight, or on ground once both engines run.
"""

from __future__ import annotations

from .model import AlertDef, Line, dots, info

COLOUR = {"G": "green", "B": "blue", "Y": "yellow"}
PUMP_INHIBIT = frozenset({4, 5, 7, 8})
RSVR_INHIBIT = frozenset({4, 5, 7, 8})
OVHT_INHIBIT = frozenset({3, 4, 5, 7, 8})
SYS_INHIBIT = frozenset({1, 4, 5, 7, 8, 10})
DUAL_INHIBIT = frozenset({1, 4, 5, 10})

DUALS = (("green", "yellow"), ("blue", "yellow"), ("green", "blue"))


def _alert(title: str, level: int, when, **kw) -> AlertDef:
    # The FWC evaluates every alert each tick: test the model's cheap `abnormal` flag first.
    return AlertDef(title, level, "HYD", "HYD", lambda ac: ac.hyd.abnormal and when(ac), **kw)


def _monitored(ac) -> bool:
    e = ac.eng.engines
    return not ac.flight.on_ground or (e[0].running and e[1].running)


def _dual(ac, a: str, b: str) -> bool:
    h = ac.hyd
    return h.lo_pr[a] and h.lo_pr[b] and _monitored(ac)


def _in_dual(ac, circ: str) -> bool:
    return any(circ in pair and _dual(ac, *pair) for pair in DUALS)


def _pump_alert(ac, circ: str) -> bool:
    """The circuit's pump LO PR caution is displayed (see the module docstring)."""
    h = ac.hyd
    key = {"green": "eng1", "yellow": "eng2", "blue": "blue_elec"}[circ]
    return h.pump_lo_pr[key] and not h.rsvr_fault(circ) and not _in_dual(ac, circ)


def _off(control: str):
    return lambda c: c.pos(control) == "OFF"


# Pump-off lines per circuit, as the reservoir and pump procedures write them.
PTU_OFF = Line(dots("PTU", "OFF"), done=_off("PTU"))
GREEN_EDP_OFF = Line(dots("GREEN ENG 1 PUMP", "OFF"), done=_off("ENG 1 PUMP"))
YELLOW_EDP_OFF = Line(dots("YELLOW ENG 2 PUMP", "OFF"), done=_off("ENG 2 PUMP"))
YELLOW_ELEC_OFF = Line(dots("YELLOW ELEC PUMP", "OFF"), done=_off("YELLOW ELEC PUMP"))  # shown only while ON
BLUE_ELEC_OFF = Line(dots("BLUE ELEC PUMP", "OFF"), done=_off("BLUE ELEC PUMP"))
RSVR_LINES = {
    "G": (PTU_OFF, GREEN_EDP_OFF),
    "Y": (PTU_OFF, YELLOW_EDP_OFF, YELLOW_ELEC_OFF),
    "B": (BLUE_ELEC_OFF,),
}
OVHT_STATUS = {
    "G": ("IF G RSVR OVHT OUT: GREEN ENG 1 PUMP ON, PTU AUTO",),
    "Y": ("IF Y RSVR OVHT OUT: YELLOW ENG 2 PUMP ON, PTU AUTO",),
    "B": ("IF B RSVR OVHT OUT: BLUE ELEC PUMP AUTO",),
}


def _pump_lo_pr(title: str, circ: str, line: Line) -> AlertDef:
    return _alert(title, 2, lambda ac: _pump_alert(ac, circ), lines=(line,), inhibit=PUMP_INHIBIT)


def _rsvr_lo_lvl(x: str) -> AlertDef:
    circ = COLOUR[x]
    return _alert(f"HYD {x} RSVR LO LVL", 2, lambda ac: ac.hyd.rsvr[circ].lo_lvl(circ),
                    lines=RSVR_LINES[x], inhibit=RSVR_INHIBIT)


def _rsvr_ovht(x: str) -> AlertDef:
    circ = COLOUR[x]
    return _alert(f"HYD {x} RSVR OVHT", 2, lambda ac: ac.hyd.rsvr[circ].ovht,
                    lines=RSVR_LINES[x], inhibit=OVHT_INHIBIT, status=OVHT_STATUS[x])


def _rsvr_lo_air(x: str) -> AlertDef:
    circ = COLOUR[x]
    actions = RSVR_LINES[x]

    def any_open(c) -> bool:
        return any(ln.visible(c) for ln in actions)

    return _alert(f"HYD {x} RSVR LO AIR PR", 2, lambda ac: ac.hyd.rsvr[circ].lo_air,
                    lines=(Line(".IF PRESS FLUCTUATES:", "condition", show=any_open), *actions),
                    inhibit=OVHT_INHIBIT)


def _sys_lo_pr(x: str) -> AlertDef:
    circ = COLOUR[x]

    def when(ac) -> bool:
        return (ac.hyd.lo_pr[circ] and _monitored(ac) and not _in_dual(ac, circ)
                and not _pump_alert(ac, circ))

    return _alert(f"HYD {x} SYS LO PR", 2, when, inhibit=SYS_INHIBIT)


def _not_fluid_loss(circ: str):
    return lambda c: not c.ac.hyd.fluid_lost(circ)


MANEUVER = Line("MANEUVER WITH CARE", "info")


def _gy() -> AlertDef:
    return _alert(
        "HYD G+Y SYS LO PR", 3, lambda ac: _dual(ac, "green", "yellow"),
        lines=(
            PTU_OFF,
            GREEN_EDP_OFF,
            YELLOW_EDP_OFF,
            Line(dots("YELLOW ELEC PUMP", "ON"), show=_not_fluid_loss("yellow"),
                 done=lambda c: c.pos("YELLOW ELEC PUMP") == "ON"),
            MANEUVER,
            Line("FUEL CONSUMPT INCRSD", "info"),
            Line("FMS PRED UNRELIABLE", "info"),
        ),
        inhibit=DUAL_INHIBIT,
        status=("APPR PROC: DUAL HYD LO PR", "L/G: GRVTY EXTN"),
        land_asap="red",
    )


def _rat_lines() -> tuple[Line, ...]:
    blue_pump_cause = _not_fluid_loss("blue")
    return (
        Line(info("MIN RAT SPD", "140 KT"), "info", show=blue_pump_cause),
        Line(dots("RAT", "MAN ON"), show=blue_pump_cause, done=lambda c: c.ac.hyd.rat_deployed),
    )


def _by() -> AlertDef:
    min_spd, rat = _rat_lines()
    return _alert(
        "HYD B+Y SYS LO PR", 3, lambda ac: _dual(ac, "blue", "yellow"),
        lines=(
            min_spd,
            Line(dots("YELLOW ELEC PUMP", "ON"), show=_not_fluid_loss("yellow"),
                 done=lambda c: c.pos("YELLOW ELEC PUMP") == "ON"),
            rat,
            BLUE_ELEC_OFF,
            YELLOW_EDP_OFF,
            Line(info("MAX SPEED", "320/.77"), "info"),
            MANEUVER,
        ),
        inhibit=DUAL_INHIBIT,
        status=("APPR PROC: DUAL HYD LO PR", "MAX SPEED 320/.77"),
        land_asap="red",
    )


def _gb() -> AlertDef:
    min_spd, rat = _rat_lines()
    return _alert(
        "HYD G+B SYS LO PR", 3, lambda ac: _dual(ac, "green", "blue"),
        lines=(min_spd, rat, BLUE_ELEC_OFF, GREEN_EDP_OFF),
        inhibit=DUAL_INHIBIT,
        status=("APPR PROC: DUAL HYD LO PR",),
        land_asap="red",
    )


ALERTS = (
    _gy(),
    _by(),
    _gb(),
    _rsvr_lo_lvl("G"),
    _rsvr_lo_lvl("B"),
    _rsvr_lo_lvl("Y"),
    _rsvr_ovht("G"),
    _rsvr_ovht("B"),
    _rsvr_ovht("Y"),
    _rsvr_lo_air("G"),
    _rsvr_lo_air("B"),
    _rsvr_lo_air("Y"),
    _pump_lo_pr("HYD G ENG 1 PUMP LO PR", "green", GREEN_EDP_OFF),
    _pump_lo_pr("HYD Y ENG 2 PUMP LO PR", "yellow", YELLOW_EDP_OFF),
    _pump_lo_pr("HYD B ELEC PUMP LO PR", "blue", BLUE_ELEC_OFF),
    _sys_lo_pr("G"),
    _sys_lo_pr("B"),
    _sys_lo_pr("Y"),
)
