"""The aircraft systems simulator: pure Python, deterministic, no MCP.

`Aircraft` is the facade; catalogues of controls, failures, ECAM alerts and
start states are data that the scenario loader and the MCP schemas read.
What the model follows is the domain reference, docs/domain-reference.md;
modules and tests cite it as "domain reference §1.1" or "§4 E1". What each
system must do, with its source, is listed in server/sim/README.md.
"""

from .aircraft import DT, Aircraft
from .controls import CONTROLS
from .ecam import ALERT_TITLES
from .errors import (
    InvalidPositionError,
    SimError,
    UnknownControlError,
    UnknownFailureError,
    UnknownPageError,
    UnknownStartStateError,
    UnknownVariableError,
    UnknownWorldError,
)
from .failures import FAILURES
from .pages import PAGES
from .start_states import START_STATES, build

__all__ = [
    "ALERT_TITLES", "CONTROLS", "DT", "FAILURES", "PAGES", "START_STATES", "Aircraft", "InvalidPositionError",
    "SimError", "UnknownControlError", "UnknownFailureError", "UnknownPageError", "UnknownStartStateError",
    "UnknownVariableError", "UnknownWorldError", "build",
]
