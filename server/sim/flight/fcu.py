"""The FCU (flight control unit) and the pedestal controls of flight guidance, as set_control positions.

The real FCU has four knobs that turn (a value), push (managed: the FMS
decides) and pull (selected: the pilot's value), plus the AP and A/THR
pushbuttons. Here each knob is two controls: the value, with discrete
positions, and a momentary `... KNOB` control pushed or pulled:

* `FCU ALT` every 1,000 ft from 2000 FT to FL390; `FCU ALT KNOB` PULL starts
  an open climb or descent (OP CLB / OP DES) to it, PUSH a managed one
  (CLB / DES). Turning the value alone never starts a climb or descent.
* `FCU SPD` 140 to 350 KT in 10 kt steps; `FCU SPD KNOB` PULL flies the
  selected speed, PUSH the managed speed (FMS: 250 kt below FL100, then
  290 kt / M.78).
* `FCU HDG` 000 to 350 in 10 degree steps; `FCU HDG KNOB` PULL flies the
  selected heading, PUSH the FMS lateral mode (NAV).
* `FCU V/S` -6000 to +6000 FPM; `FCU V/S KNOB` PULL flies that vertical speed,
  PUSH levels off (V/S 0).
* `AP 1`, `AP 2`, `A/THR`: ON / OFF. The aircraft moves them back to OFF when
  it disconnects them (A/THR with the thrust levers at IDLE, or when the
  system is lost).
"""

from __future__ import annotations

from ..catalog import Control

ALT_STEPS_FT = tuple(range(39000, 4000, -1000)) + (4000, 3000, 2000)
FCU_ALTS = tuple(f"FL{a // 100:03d}" if a >= 5000 else f"{a} FT" for a in ALT_STEPS_FT)
FCU_SPDS = tuple(f"{v} KT" for v in range(140, 360, 10))
FCU_HDGS = tuple(f"{h:03d}" for h in range(0, 360, 10))
FCU_VSS = tuple(f"{v:+d} FPM" if v else "0 FPM" for v in (
    -6000, -5000, -4000, -3000, -2500, -2000, -1500, -1000, -500, 0, 500, 1000, 1500, 2000, 2500, 3000, 4000,
    5000, 6000))
KNOB = ("NORM", "PUSH", "PULL")

CONTROLS = (
    Control("FCU ALT", "FCU", FCU_ALTS, "FL100",
            description="Selected altitude (turn the ALT knob). Turning alone changes nothing: pull the ALT knob "
                        "(FCU ALT KNOB PULL) for an open climb/descent to it, push for a managed one"),
    Control("FCU ALT KNOB", "FCU", KNOB, "NORM", momentary=True,
            description="ALT knob: PULL = open climb or descent (OP CLB/OP DES) to the FCU ALT, thrust CLB or IDLE; "
                        "PUSH = managed climb or descent (CLB/DES)"),
    Control("FCU SPD", "FCU", FCU_SPDS, "250 KT",
            description="Selected speed (turn the SPD knob); flown once the SPD knob is pulled"),
    Control("FCU SPD KNOB", "FCU", KNOB, "NORM", momentary=True,
            description="SPD knob: PULL = fly the FCU SPD (selected speed); PUSH = managed speed from the FMS"),
    Control("FCU HDG", "FCU", FCU_HDGS, "000", description="Selected heading (turn the HDG knob)"),
    Control("FCU HDG KNOB", "FCU", KNOB, "NORM", momentary=True,
            description="HDG knob: PULL = fly the FCU HDG (HDG mode); PUSH = the FMS route (NAV)"),
    Control("FCU V/S", "FCU", FCU_VSS, "0 FPM", description="Selected vertical speed (turn the V/S knob)"),
    Control("FCU V/S KNOB", "FCU", KNOB, "NORM", momentary=True,
            description="V/S knob: PULL = fly the FCU V/S toward the FCU ALT; PUSH = level off (V/S 0)"),
    Control("AP 1", "FCU", ("ON", "OFF"), "OFF", description="Autopilot 1"),
    Control("AP 2", "FCU", ("ON", "OFF"), "OFF", description="Autopilot 2"),
    Control("A/THR", "FCU", ("ON", "OFF"), "OFF",
            description="Autothrust: active with the thrust levers in the CL detent (MCT with one engine out); "
                        "setting the levers to IDLE disconnects it"),
    Control("SPD BRK", "PEDESTAL", ("RET", "HALF", "FULL"), "RET", description="Speed brake lever"),
    Control("PARKING BRK", "PEDESTAL", ("ON", "OFF"), "ON", description="Parking brake"),
)


def fcu_alt_ft(sel: str) -> float:
    return float(sel[2:]) * 100.0 if sel.startswith("FL") else float(sel.split()[0])


def fcu_spd_kt(sel: str) -> float:
    return float(sel.split()[0])


def fcu_vs_fpm(sel: str) -> float:
    return float(sel.split()[0])


def fcu_hdg_deg(sel: str) -> float:
    return float(sel)


def nearest_fcu_alt(alt_ft: float) -> str:
    """The FCU ALT position nearest an altitude (start states)."""
    return min(FCU_ALTS, key=lambda s: abs(fcu_alt_ft(s) - alt_ft))


def nearest_fcu_spd(kt: float) -> str:
    return min(FCU_SPDS, key=lambda s: abs(fcu_spd_kt(s) - kt))
