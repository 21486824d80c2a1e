"""The AIR COND and ANTI ICE panel controls, the AIR / ANTI ICE failures, and the names the
components index per side (0 = engine 1 / pack 1, 1 = engine 2 / pack 2)."""

from __future__ import annotations

from ..catalog import Control, Failure

ON_OFF = ("ON", "OFF")
CONTROLS = (
    Control("ENG 1 BLEED", "AIR COND", ON_OFF, "ON", description="Engine 1 bleed valve"),
    Control("ENG 2 BLEED", "AIR COND", ON_OFF, "ON", description="Engine 2 bleed valve"),
    Control("APU BLEED", "AIR COND", ON_OFF, "OFF", description="APU bleed valve (opens when the APU is available)"),
    Control("X BLEED", "AIR COND", ("SHUT", "AUTO", "OPEN"), "AUTO",
            description="Crossbleed valve selector; AUTO opens it with APU bleed and shuts it on a leak"),
    Control("PACK 1", "AIR COND", ON_OFF, "ON", description="Pack 1 flow control valve"),
    Control("PACK 2", "AIR COND", ON_OFF, "ON", description="Pack 2 flow control valve"),
    Control("PACK FLOW", "AIR COND", ("LO", "NORM", "HI"), "NORM", description="Pack flow: about 80, 100 or 120 %"),
    Control("RAM AIR", "AIR COND", ("OFF", "ON"), "OFF", guarded=True,
            description="Emergency ram air inlet; air flows in only when cabin differential pressure is below 1 psi"),
    Control("HOT AIR", "AIR COND", ON_OFF, "ON", description="Trim air pressure regulating valve"),
    Control("WING ANTI ICE", "ANTI ICE", ON_OFF, "OFF",
            description="Wing anti-ice valves (engine bleed air only; a 30 s test on the ground)"),
    Control("ENG 1 ANTI ICE", "ANTI ICE", ON_OFF, "OFF", description="Engine 1 nacelle anti-ice valve"),
    Control("ENG 2 ANTI ICE", "ANTI ICE", ON_OFF, "OFF", description="Engine 2 nacelle anti-ice valve"),
)

FAILURES = tuple(
    f
    for n in (1, 2)
    for f in (
        Failure(f"air_eng{n}_bleed_overpressure", 36, "AIR",
                f"Engine {n} bleed pressure regulation fails high; the BMC closes the bleed valve on overpressure"),
        Failure(f"air_eng{n}_bleed_overheat", 36, "AIR",
                f"Engine {n} precooler loses cooling; the BMC closes the bleed valve on overheat"),
        Failure(f"air_eng{n}_pylon_leak", 36, "AIR", f"Hot air leak in the engine {n} pylon duct"),
    )
) + (
    Failure("air_l_wing_leak", 36, "AIR", "Hot air leak in the left wing / pack bay duct"),
    Failure("air_r_wing_leak", 36, "AIR", "Hot air leak in the right wing / pack bay duct"),
    Failure("air_apu_bleed_leak", 36, "AIR", "Hot air leak in the APU bleed duct"),
) + tuple(
    f
    for n in (1, 2)
    for f in (
        Failure(f"air_pack{n}_overheat", 21, "AIR",
                f"Pack {n} compressor outlet overheats; after cooling down with PACK {n} OFF the pack works again",
                resettable=True),
        Failure(f"air_pack{n}_overheat_persistent", 21, "AIR", f"Pack {n} compressor outlet overheats whenever it runs"),
        Failure(f"air_pack{n}_fault", 21, "AIR", f"Pack {n} flow control valve fails closed"),
    )
) + (
    Failure("anti_ice_eng1_valve_stuck_closed", 30, "ANTI ICE", "Engine 1 nacelle anti-ice valve stuck closed"),
    Failure("anti_ice_eng2_valve_stuck_closed", 30, "ANTI ICE", "Engine 2 nacelle anti-ice valve stuck closed"),
    Failure("anti_ice_l_wing_valve_stuck_closed", 30, "ANTI ICE", "Left wing anti-ice valve stuck closed"),
)
OWN_FAILURES = frozenset(x.id for x in FAILURES)

ENG_BLEED = ("ENG 1 BLEED", "ENG 2 BLEED")
PACK = ("PACK 1", "PACK 2")
ENG_AI = ("ENG 1 ANTI ICE", "ENG 2 ANTI ICE")
OVERPRESS = ("air_eng1_bleed_overpressure", "air_eng2_bleed_overpressure")
OVERHEAT = ("air_eng1_bleed_overheat", "air_eng2_bleed_overheat")
PACK_OVHT_FAIL = ("air_pack1_overheat", "air_pack2_overheat")
PACK_OVHT_PERSIST = ("air_pack1_overheat_persistent", "air_pack2_overheat_persistent")
PACK_FAIL = ("air_pack1_fault", "air_pack2_fault")
EAI_FAIL = ("anti_ice_eng1_valve_stuck_closed", "anti_ice_eng2_valve_stuck_closed")
WAI_FAIL_L = "anti_ice_l_wing_valve_stuck_closed"
