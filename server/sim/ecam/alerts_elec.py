"""ELEC alerts (ATA 24): domain reference §4 E1-E9, FG a320-fwc.xml logic."""

from __future__ import annotations

from .model import AlertDef, Line, cured_with_pb_on, dots, info, reset_lines

CRUISE_ONLY = frozenset({1, 4, 5, 7, 8, 10})


def _gen_fault(n: int) -> AlertDef:
    gen = f"GEN {n}"

    def when(ac) -> bool:  # FG: PB ON, IDG connected, engine running, line contactor open
        e = ac.elec
        return e.gen_fault_light(n, ac) and ac.eng.engines[n - 1].running

    return AlertDef(f"ELEC GEN {n} FAULT", 2, "ELEC", "ELEC", when, lines=reset_lines(gen), inhibit=CRUISE_ONLY,
                    occurrence_ends=cured_with_pb_on(gen))


def _apu_gen_fault() -> AlertDef:
    def when(ac) -> bool:
        return ac.controls["APU GEN"] == "ON" and ac.apu.avail and not ac.elec.apu_gen_avail

    return AlertDef("ELEC APU GEN FAULT", 2, "ELEC", "ELEC", when, lines=reset_lines("APU GEN"),
                    inhibit=frozenset({4, 5, 7, 8}), occurrence_ends=cured_with_pb_on("APU GEN"))


def _idg(n: int, what: str) -> AlertDef:
    def when(ac) -> bool:
        e = ac.elec
        if not e.idg_connected[n - 1]:
            return False
        return e.idg_oil_press_low[n - 1] if what == "OIL LO PR" else e.idg_oil_temp_c[n - 1] > 185.0

    return AlertDef(
        f"ELEC IDG {n} {what}", 2, "ELEC", "ELEC", when,
        lines=(Line(dots(f"IDG {n}", "DISC"), done=lambda c: not c.ac.elec.idg_connected[n - 1]),),
        inhibit=frozenset({3, 4, 5, 7, 8}),
    )


def _idg_disconnected(n: int) -> AlertDef:
    return AlertDef(
        f"ELEC IDG {n} DISCONNECTED", 1, "ELEC", "ELEC",
        lambda ac: not ac.elec.idg_connected[n - 1],
        inhibit=frozenset({3, 4, 5, 7, 8}),
    )


def _ac_bus_fault(n: int) -> AlertDef:
    def when(ac) -> bool:
        e = ac.elec
        return not e.ac_bus[n - 1] and bool(e.ac_bus[2 - n])

    lines: tuple[Line, ...] = ()
    if n == 1:
        lines = (
            Line(dots("AC ESS FEED", "ALTN"), show=lambda c: not c.ac.elec.ac_ess,
                 done=lambda c: c.pos("AC ESS FEED") == "ALTN"),
            Line(dots("BLOWER", "OVRD"), done=lambda c: c.pos("BLOWER") == "OVRD"),
        )
    return AlertDef(
        f"ELEC AC BUS {n} FAULT", 2, "ELEC", "ELEC", when, lines=lines,
        inhibit=frozenset({4, 8}),
        status=("APPR PROC: CAT 2 ONLY",) if n == 1 else (),
    )


def _ac_ess_bus_fault() -> AlertDef:
    def when(ac) -> bool:
        e = ac.elec
        return not e.ac_ess and bool(e.ac_bus[0])  # AC BUS 1 healthy: the feed itself failed

    return AlertDef(
        "ELEC AC ESS BUS FAULT", 2, "ELEC", "ELEC", when,
        lines=(Line(dots("AC ESS FEED", "ALTN"), done=lambda c: c.pos("AC ESS FEED") == "ALTN"),),
        inhibit=frozenset({4, 5, 7, 8}),
    )


def _level1(title: str, failed) -> AlertDef:
    return AlertDef(title, 1, "ELEC", "ELEC", failed, inhibit=frozenset({3, 4, 5, 7, 8}))


def _emer_config() -> AlertDef:
    def when(ac) -> bool:
        e = ac.elec
        return not ac.flight.on_ground and not e.ac_bus[0] and not e.ac_bus[1]

    def both_cycled(c) -> bool:
        return c.cycled("GEN 1", "OFF", "ON") and c.cycled("GEN 2", "OFF", "ON")

    def cycled_after_tie_off(c) -> bool:
        # The second reset of the .IF UNSUCCESSFUL branch, with the buses split (FG emerconfigGen3).
        return all(c.cycled(gen, "OFF", "ON", after=("BUS TIE", "OFF")) for gen in ("GEN 1", "GEN 2"))

    tie_off = lambda c: c.set_since("BUS TIE", "OFF")  # noqa: E731
    gravity_fed = lambda c: c.ac.fuel.gravity_feed(1) or c.ac.fuel.gravity_feed(2)  # noqa: E731
    return AlertDef(
        "ELEC EMER CONFIG", 3, "ELEC", "ELEC", when,
        lines=(
            Line(info("MIN RAT SPD", "140 KT"), "info"),
            Line(dots("GEN 1+2", "OFF THEN ON"), done=both_cycled),
            Line(".IF UNSUCCESSFUL :", "condition", show=both_cycled),
            Line(dots("BUS TIE", "OFF"), show=both_cycled, done=tie_off),
            Line(dots("GEN 1+2", "OFF THEN ON"), show=both_cycled, done=cycled_after_tie_off),
            Line(dots("EMER ELEC PWR", "MAN ON"), show=lambda c: not c.ac.elec.emer_gen_online,
                 done=lambda c: c.ac.hyd.rat_deployed and c.ac.elec.emer_gen_online),
            Line(dots("ENG MODE SEL", "IGN"), done=lambda c: c.pos("ENG MODE") == "IGN START"),
            Line(dots("VHF1/ATC1", "USE"), clear_on=("ATC", "NOTIFY")),
            # FG shows it while FAC 1 is disengaged; here FAC 1 keeps DC ESS through the transfer.
            Line(dots("FAC 1", "OFF THEN ON"), show=lambda c: not c.ac.fctl.engaged["FAC 1"],
                 done=lambda c: c.cycled("FAC 1", "OFF", "ON")),
            Line(dots("APU (IF AVAIL)", "START"), show=lambda c: tie_off(c) or both_cycled(c),
                 done=lambda c: c.ac.apu.avail or c.ac.apu.starting),
            Line(dots("BUS TIE", "AUTO"), show=lambda c: c.ac.apu.avail and c.pos("BUS TIE") == "OFF",
                 done=lambda c: c.pos("BUS TIE") == "AUTO"),
            # Avionics ventilation on the emergency network (FG emerconfigVent, one line there).
            Line(dots("BLOWER", "OVRD"), done=lambda c: c.pos("BLOWER") == "OVRD"),
            Line(dots("EXTRACT", "OVRD"), done=lambda c: c.pos("EXTRACT") == "OVRD"),
            # The fuel pumps are lost with AC BUS 1 and 2 (FG ECAM messages, hursts.org.uk AEP.ELEC).
            Line("FUEL GRVTY FEED", "info", show=gravity_fed),
            Line("PROC:GRVTY FUEL FEEDING", "info", show=gravity_fed),
        ),
        status=("MIN RAT SPD 140 KT", "APPR PROC: EMER ELEC CONFIG"),
        land_asap="red",
    )


def _ess_buses_on_bat() -> AlertDef:
    def when(ac) -> bool:
        e = ac.elec
        return not ac.flight.on_ground and e.dc_ess == "BAT 2"

    return AlertDef(
        "ELEC ESS BUSES ON BAT", 3, "ELEC", "ELEC", when,
        lines=(
            Line(info("MIN RAT SPD", "140 KT"), "info"),
            Line(dots("EMER ELEC PWR", "MAN ON"), done=lambda c: c.ac.hyd.rat_deployed),
            Line(dots("APU (IF AVAIL)", "START"), done=lambda c: c.ac.apu.avail or c.ac.apu.starting),
        ),
        land_asap="red",
    )


ALERTS = (
    _emer_config(),
    _ess_buses_on_bat(),
    _gen_fault(1),
    _gen_fault(2),
    _apu_gen_fault(),
    _idg(1, "OIL LO PR"),
    _idg(2, "OIL LO PR"),
    _idg(1, "OIL OVHT"),
    _idg(2, "OIL OVHT"),
    _ac_bus_fault(1),
    _ac_bus_fault(2),
    _ac_ess_bus_fault(),
    _idg_disconnected(1),
    _idg_disconnected(2),
    _level1("ELEC TR 1 FAULT", lambda ac: bool(ac.elec.ac_bus[0]) and not ac.elec.tr_online[0]),
    _level1("ELEC TR 2 FAULT", lambda ac: bool(ac.elec.ac_bus[1]) and not ac.elec.tr_online[1]),
    _level1("ELEC ESS TR FAULT", lambda ac: not ac.elec.ess_tr_ok and ac.elec.any_ac),
    _level1("ELEC STATIC INV FAULT", lambda ac: not ac.elec.static_inv_ok and ac.elec.bat[0].charge_ah > 0),
)
