"""Errors raised by the simulator facade.

    SimError (ValueError)
    ├── UnknownControlError     control name not in the catalogue
    ├── InvalidPositionError    position not one of the control's positions
    ├── UnknownFailureError     failure id not in the catalogue
    ├── UnknownVariableError    state variable not in the snapshot
    ├── UnknownPageError        system page name not known
    ├── UnknownStartStateError  start state not known
    └── UnknownWorldError       world control not known, or a bad value for it

Every message names the offender and the valid choices, because the harness
shows them to people writing scenarios and (for controls) to the agent.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable


class SimError(ValueError):
    """Bad input to the simulator."""


def choices_hint(given: str, valid: Iterable[str], limit: int = 60) -> str:
    valid = list(valid)
    close = difflib.get_close_matches(given.upper() if given else "", [v.upper() for v in valid], n=3, cutoff=0.6)
    by_upper = {v.upper(): v for v in valid}
    hint = f"; did you mean {', '.join(repr(by_upper[c]) for c in close)}?" if close else ""
    shown = ", ".join(valid[:limit]) + (", ..." if len(valid) > limit else "")
    return f"{hint} Valid: {shown}"


class UnknownControlError(SimError):
    def __init__(self, name: str, valid: Iterable[str]):
        super().__init__(f"unknown control {name!r}{choices_hint(name, valid)}")
        self.name = name


class InvalidPositionError(SimError):
    def __init__(self, control: str, position: str, valid: Iterable[str]):
        valid = list(valid)
        super().__init__(
            f"control {control!r} has no position {position!r}; its positions are: {', '.join(valid)}"
        )
        self.control, self.position = control, position


class UnknownFailureError(SimError):
    def __init__(self, failure_id: str, valid: Iterable[str]):
        super().__init__(f"unknown failure id {failure_id!r}{choices_hint(failure_id, valid)}")
        self.failure_id = failure_id


class UnknownVariableError(SimError):
    def __init__(self, var: str, valid: Iterable[str]):
        super().__init__(f"unknown state variable {var!r}{choices_hint(var, valid)}")
        self.var = var


class UnknownPageError(SimError):
    def __init__(self, page: str, valid: Iterable[str]):
        super().__init__(f"unknown system page {page!r}{choices_hint(page, valid)}")


class UnknownStartStateError(SimError):
    def __init__(self, name: str, valid: Iterable[str]):
        super().__init__(f"unknown start state {name!r}{choices_hint(name, valid)}")


class UnknownWorldError(SimError):
    pass
