"""Flight guidance (FCU, AP, A/THR, modes) and the point-mass flight model (server/sim/README.md FG-, FLT-)."""

from __future__ import annotations

from a320bench.server.sim import build

from sim_bed import emer_config, emergency_descent, open_descent


def test_cruise_holds_fl350_at_m78_with_about_1250_kg_h_per_engine():
    """FLT-01: ALT and A/THR SPEED hold the level at the managed speed (M.78 at FL350); fuel flow about
    1,100-1,300 kg/h per engine (typical A320/CFM56 cruise)."""
    ac = build("cruise")
    ac.advance(600.0)
    assert (ac.get("flight.altitude_ft"), ac.get("fg.vertical_mode"), ac.get("fg.athr_mode")) == (35000.0, "ALT", "SPEED")
    assert ac.get("flight.mach") == 0.78
    assert 1100 <= ac.get("eng1.ff_kgh") <= 1300
    assert 80.0 <= ac.get("eng1.n1_pct") <= 90.0


def test_turning_the_fcu_altitude_alone_starts_no_descent():
    """FG-01: the FCU ALT is a selection; the ALT knob pulled (or pushed) starts the climb or descent."""
    ac = build("cruise")
    ac.set_control("FCU ALT", "FL200")
    ac.advance(60.0)
    assert (ac.get("flight.altitude_ft"), ac.get("fg.vertical_mode")) == (35000.0, "ALT")
    ac.set_control("FCU ALT KNOB", "PULL")
    ac.advance(60.0)
    assert (ac.get("fg.vertical_mode"), ac.get("fg.athr_mode")) == ("OP DES", "THR IDLE")
    assert ac.get("flight.altitude_ft") < 34000.0


def test_an_idle_descent_comes_down_at_2000_to_3000_ft_per_min():
    """FLT-02: OP DES at idle thrust and 290 kt: about 2,000-3,000 ft/min (typical A320 idle descent)."""
    ac = build("cruise")
    open_descent(ac, "FL100")
    ac.set_control("FCU SPD", "290 KT")
    ac.set_control("FCU SPD KNOB", "PULL")
    ac.advance(240.0)
    assert -3000 <= ac.get("flight.vs_fpm") <= -2000


def test_an_emergency_descent_with_full_speed_brakes_comes_down_at_6000_to_7000_ft_per_min():
    """FLT-03: idle, maximum speed and full speed brakes: 6,000-7,000 ft/min; the speed brakes roughly double
    the descent rate (FCOM-style emergency descent figures)."""
    mean_fpm = {}
    for brakes in (True, False):
        ac = build("cruise")
        emergency_descent(ac, speed_brakes=brakes)
        t0 = ac.sim_time
        while ac.get("flight.altitude_ft") > 11000.0:
            ac.advance(1.0)
        mean_fpm[brakes] = 24000.0 / (ac.sim_time - t0) * 60.0
    assert 6000 <= mean_fpm[True] <= 7000
    assert mean_fpm[False] < mean_fpm[True] / 1.8


def test_one_engine_cannot_hold_fl350_and_drifts_down_to_its_ceiling_in_the_low_fl200s():
    """FLT-04: one engine at MCT cannot hold FL350; at green dot the aircraft drifts down, ever slower, to a
    single-engine ceiling in the low-to-mid FL200s at this weight (typical A320 EO ceilings)."""
    ac = build("cruise")
    ac.inject_failure("eng1_flameout_damage")
    ac.set_control("THR LEVER 2", "FLX/MCT")
    ac.set_control("A/THR", "OFF")
    ac.set_control("FCU ALT", "FL200")
    ac.set_control("FCU ALT KNOB", "PULL")
    ac.advance(600.0)
    early = ac.get("flight.vs_fpm")
    assert abs(ac.get("flight.ias_kt") - ac.system_page("ENG")["flight"]["green_dot_kt"]) < 3  # managed: green dot
    ac.advance(2400.0)
    late = ac.get("flight.vs_fpm")
    assert early < late < 0  # slower and slower
    assert 22000 < ac.get("flight.altitude_ft") < 26000


def test_one_engine_in_alt_hold_loses_speed_to_vls_and_then_gives_up_altitude():
    """FLT-05: the path cannot be held with too little thrust: the speed decays to VLS, then the aircraft trades
    altitude for speed (speed protection, simplified; no alpha floor)."""
    ac = build("cruise")
    ac.inject_failure("eng1_flameout_damage")
    ac.advance(300.0)
    vls = ac.system_page("ENG")["flight"]["vls_kt"]
    assert abs(ac.get("flight.ias_kt") - (vls + 5)) < 2
    assert ac.get("flight.vs_fpm") < 0


def test_one_engine_held_far_below_its_alt_level_takes_1_s_steps_not_fine_ticks():
    """FLT-08: ALT that cannot reach its level (one engine at VLS, thousands of feet below it) is a slow
    steady state, not a level capture: 1 s steps, so an hour on one engine costs what the hour says."""
    ac = build("cruise")
    ac.inject_failure("eng1_flameout_damage")
    ac.advance(3600.0)
    ticks = ac.ticks
    ac.advance(600.0)
    assert ac.get("fg.vertical_mode") == "ALT" and ac.get("flight.altitude_ft") < 25000
    assert ac.ticks - ticks <= 600 + 50  # 0.2 s ticks would be 3,000


def test_thrust_levers_to_idle_disconnect_the_a_thr_and_a_lost_a_thr_locks_the_thrust():
    """FG-03: IDLE disconnects the A/THR (its pushbutton goes OFF); an A/THR lost with its power (the emergency
    electrical configuration) freezes the thrust, THR LK, until a lever moves."""
    ac = build("cruise")
    ac.set_control("THR LEVER 1", "IDLE")
    ac.set_control("THR LEVER 2", "IDLE")
    ac.advance(1.0)
    assert (ac.get("controls.A/THR"), ac.get("fg.athr_engaged")) == ("OFF", False)
    ac = emer_config()
    assert (ac.get("controls.A/THR"), ac.get("controls.AP 1"), ac.get("fg.athr_mode")) == ("OFF", "OFF", "THR LK")
    n1 = ac.get("eng1.n1_pct")
    ac.advance(60.0)
    assert ac.get("eng1.n1_pct") == n1
    ac.set_control("THR LEVER 1", "IDLE")
    ac.advance(10.0)
    assert ac.get("fg.athr_mode") == ""
    assert ac.get("eng1.n1_pct") < n1 - 20


def test_v_s_mode_flies_the_selected_vertical_speed_and_captures_the_fcu_altitude():
    """FG-04: V/S knob pulled: the FCU V/S toward the FCU ALT, then ALT* and ALT."""
    ac = build("cruise")
    ac.set_control("FCU ALT", "FL330")
    ac.set_control("FCU V/S", "-1000 FPM")
    ac.set_control("FCU V/S KNOB", "PULL")
    ac.advance(60.0)
    assert (ac.get("fg.vertical_mode"), ac.get("flight.vs_fpm")) == ("V/S", -1000)
    ac.advance(120.0)
    assert (ac.get("fg.vertical_mode"), ac.get("flight.altitude_ft")) == ("ALT", 33000.0)


def test_turning_the_fcu_altitude_back_across_the_aircraft_in_an_open_descent_reverts_to_v_s():
    """FG-05: mode reversion: the FCU ALT turned above the aircraft during OP DES gives V/S at the current rate."""
    ac = build("cruise")
    open_descent(ac, "FL200")
    ac.advance(120.0)
    ac.set_control("FCU ALT", "FL390")
    ac.advance(1.0)
    assert ac.get("fg.vertical_mode") == "V/S"
    assert ac.get("flight.vs_fpm") < -1000


def test_selected_and_managed_speed_and_the_vmax_limit():
    """FG-02: SPD knob pulled flies the FCU SPD, pushed the managed speed; targets stay within VLS+5 and VMAX."""
    ac = build("descent")
    ac.set_control("FCU SPD", "250 KT")
    ac.set_control("FCU SPD KNOB", "PULL")
    ac.advance(120.0)
    assert (ac.get("fg.speed_managed"), ac.get("flight.ias_kt")) == (False, 250.0)
    ac.set_control("FCU SPD", "350 KT")
    ac.advance(1.0)
    assert ac.get("fg.speed_target_kt") == 350.0  # VMO below the crossover
    ac = build("cruise")
    ac.set_control("FCU SPD", "350 KT")
    ac.set_control("FCU SPD KNOB", "PULL")
    ac.advance(1.0)
    assert ac.get("fg.speed_target_kt") < 290.0  # MMO M.82 at FL350
    ac.set_control("FCU SPD KNOB", "PUSH")
    ac.advance(1.0)
    assert ac.get("fg.speed_managed") is True


def test_hdg_mode_turns_at_rate_one_toward_the_fcu_heading():
    """FG-06: HDG knob pulled: a 3 deg/s turn to the FCU HDG; pushed: NAV holds the track."""
    ac = build("cruise")
    ac.set_control("FCU HDG", "090")
    ac.set_control("FCU HDG KNOB", "PULL")
    ac.advance(10.0)
    assert (ac.get("fg.lateral_mode"), ac.get("flight.heading_deg")) == ("HDG", 30)
    ac.advance(30.0)
    assert ac.get("flight.heading_deg") == 90
    ac.set_control("FCU HDG KNOB", "PUSH")
    ac.advance(1.0)
    assert ac.get("fg.lateral_mode") == "NAV"


def test_fuel_burn_follows_thrust():
    """FLT-07, ENG-09: fuel flow follows thrust: climb thrust burns about twice cruise, idle a fraction of it."""
    climb = build("climb")
    cruise = build("cruise")
    descent = build("descent")
    ff = [ac.get("eng1.ff_kgh") for ac in (climb, cruise, descent)]
    assert ff[0] > 1.8 * ff[1] > 3 * ff[2]


def test_phase_5_holds_from_lift_off_to_1500_ft_so_inhibited_cautions_never_flash_at_lift_off():
    """FWC-06: T.O INHIBIT from 80 kt (phase 4) through lift-off to 1,500 ft (phase 5) with no gap: a GEN 1
    fault on the roll stays hidden until 1,500 ft (FWC phases, domain reference §3.3)."""
    ac = build("takeoff_roll")
    ac.advance(10.0)
    ac.inject_failure("elec_gen1_gcu_trip")
    seen = set()
    while ac.get("flight.altitude_ft") < 1500.0:
        seen.add(ac.flight.fwc_phase(ac))
        assert "ELEC GEN 1 FAULT" not in ac.ecam_titles()
        ac.advance(0.2)
    assert seen == {4, 5}
    ac.advance(20.0)
    assert ac.ecam_titles() == ["ELEC GEN 1 FAULT"]


def test_the_flight_model_is_deterministic_and_steady_cruise_takes_5_s_steps():
    """FLT-08: same inputs, same trajectory; a steady cruise is a fixed point (no fine ticks)."""
    def run():
        ac = build("cruise", cached=False)
        emergency_descent(ac)
        ac.advance(400.0)
        return ac.state_hash()

    assert run() == run()
    ac = build("cruise")
    ticks = ac.ticks
    ac.advance(3600.0)
    assert ac.ticks - ticks <= 3600 / 5 + 10


def test_the_speed_brakes_need_their_spoilers_secs():
    """FCTL-04: spoilers 2-4 are the speed brakes (SEC 3 and SEC 1); with both SECs off the lever does nothing."""
    rates = {}
    for secs_off in (False, True):
        ac = build("cruise")
        if secs_off:
            ac.set_control("SEC 1", "OFF")
            ac.set_control("SEC 3", "OFF")
        emergency_descent(ac)
        ac.advance(120.0)
        rates[secs_off] = ac.get("flight.vs_fpm")
    ac = build("cruise")
    emergency_descent(ac, speed_brakes=False)
    ac.advance(120.0)
    assert abs(rates[True] - ac.get("flight.vs_fpm")) < 100
    assert rates[False] < rates[True] - 1500


def test_the_cabin_peak_and_its_time_above_14000_ft_are_recorded_from_the_crews_record_on():
    """PRESS-04: the harness records the cabin's peak altitude and time above 14,000 ft since the record began."""
    ac = build("cruise")
    ac.inject_failure("press_outflow_valve_stuck_open")
    ac.advance(300.0)
    assert ac.get("press.cabin_alt_peak_ft") == ac.get("press.cabin_alt_ft") > 20000
    assert 100.0 < ac.get("press.cabin_above_14000_ft_s") < 300.0
    ac.start_crew_record()
    assert (ac.get("press.cabin_above_14000_ft_s"), ac.get("press.cabin_alt_peak_ft")) == (
        0.0, ac.get("press.cabin_alt_ft"))
