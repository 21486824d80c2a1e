"""FUEL alerts (ATA 28): domain reference §4 F1-F6; FBW PseudoFWC (WING TK LO LVL), XP `fuel.lua`.

A pump LO PR caution needs the pump selected ON, powered and wanted (AUTO does
not want the centre pumps on ground or with an empty centre tank): a pump that
is merely unpowered is the ELEC alert's business. A side counts as lost for
the `1+2` titles when each of its pumps is either low or selected OFF, so
switching one failed pump OFF does not turn a `1+2` caution into a single one.
There is no leak or imbalance sensing (F7, F8): a leak shows on the FUEL page
only, and the `.IF NO FUEL LEAK` conditions are the crew's judgement.
"""

from __future__ import annotations

from ..fuel import CTR_PUMPS, WING_PUMPS, fl_text
from .model import AlertDef, Line, dots, info

PUMP_INHIBIT = frozenset({3, 4, 5, 7, 8})
LO_LVL_INHIBIT = frozenset({3, 4, 5, 7, 8, 9})  # FBW 2800130xx


def _alert(title: str, level: int, when, **kw) -> AlertDef:
    # The FWC evaluates every alert each tick: test the model's cheap `abnormal` flag first.
    return AlertDef(title, level, "FUEL", "FUEL", lambda ac: ac.fuel.abnormal and when(ac), **kw)


def _cond(text: str, *following: Line) -> Line:
    """A condition line shown while any of the action lines under it is still to do."""
    return Line(text, "condition", show=lambda c: any(ln.visible(c) for ln in following))


def _to(control: str, position: str, show=None) -> Line:
    item = "FUEL X FEED" if control == "X FEED" else control
    return Line(dots(item, position), show=show, done=lambda c: c.pos(control) == position)


MODE_SEL_MAN = Line(dots("FUEL MODE SEL", "MAN"), done=lambda c: c.pos("FUEL MODE SEL") == "MAN")
# For a wing low level, MAN is there to use the centre fuel: not shown once the centre tank is empty.
MODE_SEL_MAN_IF_CTR_FUEL = Line(dots("FUEL MODE SEL", "MAN"), show=lambda c: c.ac.fuel.qty_kg["center"] > 0.0,
                                done=lambda c: c.pos("FUEL MODE SEL") == "MAN")


def _side_lost(ac, pumps: tuple[str, str]) -> bool:
    faulty = ac.fuel.faulty_pumps
    if not faulty or (pumps[0] not in faulty and pumps[1] not in faulty):
        return False
    c = ac.controls
    return all(p in faulty or c[p] == "OFF" for p in pumps)


def _single_pump(pump: str, pair: tuple[str, str], extra: tuple[Line, ...] = ()) -> AlertDef:
    def when(ac) -> bool:
        return pump in ac.fuel.faulty_pumps and not _side_lost(ac, pair)

    return _alert(f"FUEL {pump} LO PR", 2, when,
                    lines=(*extra, _to(pump, "OFF")), inhibit=PUMP_INHIBIT)


def gravity_lines(*engines: int) -> tuple[Line, ...]:
    """The GRAVITY FUEL FEEDING procedure, shown while one of `engines` is fed by gravity alone
    (FCOM PRO-ABN-28: ENG MODE SEL IGN, avoid negative g, max FL the gravity feed ceiling)."""
    def gravity(c) -> bool:
        return any(c.ac.fuel.gravity_feed(n) for n in engines) and not c.ac.flight.on_ground

    return (
        Line(".IF GRVTY FEED:", "condition", show=gravity),
        Line(dots("ENG MODE SEL", "IGN"), show=gravity, done=lambda c: c.pos("ENG MODE") == "IGN START"),
        Line("AVOID NEGATIVE G FACTOR", "info", show=gravity),
        Line(lambda c: info("MAX FL", fl_text(c.ac.fuel.gravity_ceiling_ft)), "info", show=gravity),
    )


def _wing_pumps_lost(side: str, pair: tuple[str, str]) -> AlertDef:
    actions = (_to("X FEED", "ON"), _to(pair[0], "OFF"), _to(pair[1], "OFF"))
    return _alert(f"FUEL {side} TK PUMP 1+2 LO PR", 2, lambda ac: _side_lost(ac, pair),
                    lines=(_cond(".IF NO FUEL LEAK:", *actions), *actions, *gravity_lines(1 if side == "L" else 2)),
                    inhibit=PUMP_INHIBIT)


def _ctr_pumps_lost() -> AlertDef:
    return _alert(
        "FUEL CTR TK PUMPS LO PR", 2, lambda ac: _side_lost(ac, CTR_PUMPS),
        lines=(_to("CTR TK PUMP 1", "OFF"), _to("CTR TK PUMP 2", "OFF"),
               Line("CTR TK FUEL UNUSABLE", "info", show=lambda c: c.ac.fuel.qty_kg["center"] > 0.0)),
        inhibit=PUMP_INHIBIT,
    )


def _ctr_single(n: int) -> AlertDef:
    xfeed = _to("X FEED", "ON")
    return _single_pump(f"CTR TK PUMP {n}", CTR_PUMPS, extra=(_cond(".IF NO FUEL LEAK:", xfeed), xfeed))


def _wing_lo_lvl(side: str, i: int, pair: tuple[str, str]) -> AlertDef:
    actions = (_to("X FEED", "ON"), _to(pair[0], "OFF"), _to(pair[1], "OFF"))

    def when(ac) -> bool:
        return ac.fuel.wing_lo_lvl(i) and not ac.fuel.wing_lo_lvl(1 - i)

    return _alert(
        f"FUEL {side} WING TK LO LVL", 2, when,
        lines=(MODE_SEL_MAN_IF_CTR_FUEL, _cond(".IF NO FUEL LEAK AND", *actions), _cond("FUEL IMBALANCE:", *actions), *actions),
        inhibit=LO_LVL_INHIBIT,
    )


def _both_wings_lo_lvl() -> AlertDef:
    def gravity(c) -> bool:
        return c.ac.fuel.gravity_feed(1) or c.ac.fuel.gravity_feed(2)

    xfeed_on = _to("X FEED", "ON", show=lambda c: not gravity(c))
    xfeed_off = _to("X FEED", "OFF", show=gravity)
    pumps_on = tuple(_to(p, "ON") for p in ("L TK PUMP 1", "L TK PUMP 2", "CTR TK PUMP 1",
                                             "R TK PUMP 1", "R TK PUMP 2", "CTR TK PUMP 2"))
    return _alert(
        "FUEL L+R WING TK LO LVL", 2,
        lambda ac: ac.fuel.wing_lo_lvl(0) and ac.fuel.wing_lo_lvl(1),
        lines=(MODE_SEL_MAN_IF_CTR_FUEL, *pumps_on, _cond(".IF NO FUEL LEAK:", xfeed_on), xfeed_on,
               Line(".IF GRVTY FEED:", "condition", show=gravity), xfeed_off),
        inhibit=LO_LVL_INHIBIT,
        land_asap="amber",
    )


def _auto_feed_fault() -> AlertDef:
    ctr_on = (_to("CTR TK PUMP 1", "ON"), _to("CTR TK PUMP 2", "ON"))
    return _alert(
        "FUEL AUTO FEED FAULT", 2, lambda ac: ac.fuel.auto_feed_fault(ac),
        lines=(MODE_SEL_MAN, _cond(".IF CTR TK QTY > 250 KG:", *ctr_on), *ctr_on),
        inhibit=PUMP_INHIBIT,
        status=("WHEN CTR TK EMPTY: CTR TK PUMPS OFF",),
    )


ALERTS = (
    _both_wings_lo_lvl(),
    _wing_lo_lvl("L", 0, WING_PUMPS[0]),
    _wing_lo_lvl("R", 1, WING_PUMPS[1]),
    _wing_pumps_lost("L", WING_PUMPS[0]),
    _wing_pumps_lost("R", WING_PUMPS[1]),
    _ctr_pumps_lost(),
    _auto_feed_fault(),
    _single_pump("L TK PUMP 1", WING_PUMPS[0]),
    _single_pump("L TK PUMP 2", WING_PUMPS[0]),
    _single_pump("R TK PUMP 1", WING_PUMPS[1]),
    _single_pump("R TK PUMP 2", WING_PUMPS[1]),
    _ctr_single(1),
    _ctr_single(2),
)
