"""Flight: the FCU and flight guidance (AP, A/THR, modes), the point-mass flight model, and the atmosphere.

`guidance.Guidance` runs before the engines (it sets their thrust), `dynamics.Flight`
after every other system (it moves the aircraft with the thrust they made).
"""

from .dynamics import Flight, characteristic_speeds
from .fcu import CONTROLS, fcu_alt_ft
from .guidance import Guidance

__all__ = ["CONTROLS", "Flight", "Guidance", "characteristic_speeds", "fcu_alt_ft"]
