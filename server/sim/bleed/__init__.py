"""Pneumatic, air conditioning and anti-ice (ATA 36 / 21 / 30).

Two bleed ducts, left (side 1) and right (side 2), joined by the crossbleed
valve. Each engine feeds its own side through its bleed valve (IP/HP
ports, regulated to ~45 psi, precooler ~190 °C); the APU bleed duct joins
the left side. Packs, wing anti-ice valves and the engine start valves draw
from their side. Bleed monitoring computers (BMC) close an engine bleed
valve on overpressure or overheat, and leak loops along the pylons, wings
and the APU duct close the valves that feed a leak (domain reference §1.4).

One `Bleed` state object (`system.py`) runs its components in a fixed order
each tick: `leaks` (detection latches), `ducts` (APU, crossbleed and engine
bleed valves, BMC, duct pressure), `leaks` (loop temperatures), `packs`
(valves, flow, ram and trim air), `anti_ice`; `pages` renders the read-outs
and `catalog` holds the panel and the failures.

Simplifications: one pressure per duct side (no flow network), no ground HP
air cart, no zone temperature model or selectors (zones show 22 °C), no
bleed valve stuck-open failures, no HOT AIR / trim air faults.
"""

from .catalog import CONTROLS, FAILURES
from .leaks import PYLON, WING
from .system import Bleed

__all__ = ["CONTROLS", "FAILURES", "PYLON", "WING", "Bleed"]
