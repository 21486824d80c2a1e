"""The aircraft systems simulator: pure Python, deterministic, no MCP.

`Aircraft` is the facade; catalogues of controls, failures, ECAM alerts and
start states are data that the scenario loader and the MCP schemas read.
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
