"""Error messages the agent reads: short, naming the argument and the valid choices.

pydantic's own text ("1 validation error for set_controlArguments ... For
further information visit https://...") is written for developers; these say
what to change.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable, Mapping
from typing import Any

from pydantic import ValidationError

from ..sim import FAILURES

_MAX_CHOICES = 200


def _choices(valid: list[Any]) -> str:
    shown = ", ".join(str(v) for v in valid[:_MAX_CHOICES])
    return shown + (", ..." if len(valid) > _MAX_CHOICES else "")


def _did_you_mean(given: Any, valid: Iterable[Any]) -> str:
    if not isinstance(given, str):
        return ""
    by_upper = {str(v).upper(): str(v) for v in valid}
    close = difflib.get_close_matches(given.upper(), list(by_upper), n=3, cutoff=0.6)
    return f" Did you mean {' or '.join(repr(by_upper[c]) for c in close)}?" if close else ""


def invalid_arguments(tool: str, exc: ValidationError, input_schema: Mapping[str, Any]) -> str:
    """One sentence per bad argument, using the tool's input schema for the valid choices and bounds."""
    props: Mapping[str, Any] = input_schema.get("properties", {})
    parts = []
    for err in exc.errors():
        field = ".".join(str(p) for p in err["loc"]) or "arguments"
        prop = props.get(str(err["loc"][0]), {}) if err["loc"] else {}
        given = err.get("input")
        kind = err["type"]
        if kind == "missing":
            parts.append(f"'{field}' is required.")
        elif kind in ("literal_error", "enum") and "enum" in prop:
            valid = list(prop["enum"])
            parts.append(f"'{field}': {given!r} is not valid.{_did_you_mean(given, valid)} Valid: {_choices(valid)}.")
        elif "minimum" in prop and "maximum" in prop and kind in (
                "greater_than_equal", "less_than_equal", "greater_than", "less_than"):
            parts.append(f"'{field}' must be between {prop['minimum']:g} and {prop['maximum']:g} (got {given!r}).")
        else:
            msg = err["msg"]
            parts.append(f"'{field}': {msg[0].lower() + msg[1:] if msg else 'invalid'} (got {given!r}).")
    return f"{tool}: invalid arguments. " + " ".join(parts)


def unknown_tool(name: str, available: Iterable[str]) -> str:
    valid = sorted(available)
    return f"Unknown tool {name!r}.{_did_you_mean(name, valid)} The tools are: {', '.join(valid)}."


def scrub(text: str) -> str:
    """Remove failure ids from a message that did not come from a deliberate error (privilege, belt and braces)."""
    for fid in FAILURES:
        if fid in text:
            text = text.replace(fid, "[redacted]")
    return text


def harness_error(tool: str, exc: BaseException) -> str:
    return (f"{tool}: the simulator failed while handling this call ({type(exc).__name__}: {scrub(str(exc))}). "
            "This is a fault of the benchmark harness, not your mistake; the episode has been stopped.")
