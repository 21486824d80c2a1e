"""Error messages the agent reads: short, naming the argument and the valid choices.

pydantic's own text ("1 validation error for set_controlArguments ... For
further information visit https://...") is written for developers; these say
what to change.
"""

from __future__ import annotations

import difflib
import re
import reprlib
from collections.abc import Iterable, Mapping
from typing import Any

from pydantic import ValidationError

from ..sim import FAILURES

_MAX_CHOICES = 200
ECHO_CHARS = 200  # of what the agent sent, echoed in an error message
RECORD_CHARS = 10_000  # of one string the agent sent, kept in the trajectory
RECORD_ITEMS = 100  # entries of one object or list the agent sent, kept in the trajectory
RECORD_DEPTH = 8
_MATCH_CHARS = 100  # longer names get no "did you mean"


class _Echo(reprlib.Repr):
    """reprlib, but a long string inside an object or a list shows its head only, as `show` shows one
    alone: reprlib's head…tail showed the end of a string the record cuts (RECORD_CHARS), so
    `score --verify`, replaying the record, echoed other characters and an honest episode failed."""

    def repr_str(self, x: str, level: int) -> str:
        return show(x) if len(x) > self.maxstring else repr(x)


_echo = _Echo()
_echo.maxstring = _echo.maxother = ECHO_CHARS
_echo.maxdict = _echo.maxlist = 20
_echo.maxlevel = 4


def show(value: Any) -> str:
    """repr() of what the agent sent, cut to about ECHO_CHARS and saying so."""
    if isinstance(value, str) and len(value) > ECHO_CHARS:
        return f"{value[:ECHO_CHARS]!r}… (cut: {len(value):,} characters in all)"
    return _echo.repr(value)


def cap_text(text: str, limit: int = 4 * ECHO_CHARS) -> str:
    return text if len(text) <= limit else f"{text[:limit]}… (cut: {len(text):,} characters in all)"


def capped(value: Any, _depth: int = 0) -> Any:
    """What the agent sent, as the trajectory keeps it: long strings, big objects and deep
    nesting cut, each cut marked in place ("[cut: ...]"). Small values come back as they are."""
    if isinstance(value, str):
        return value if len(value) <= RECORD_CHARS else f"{value[:RECORD_CHARS]}… [cut: {len(value):,} characters in all]"
    if isinstance(value, (dict, list)):
        return _cut(value, _depth, capped, key=lambda k: capped(str(k)))
    return value


def bounded(value: Any, _depth: int = 0) -> Any:
    """What the server acts on: the agent's arguments with objects, lists and nesting cut as `capped`
    records them (strings whole: the server reads no further into one than the record keeps anyway).
    So the record holds everything a call's outcome depends on, and `score --verify` can send it again."""
    if not isinstance(value, (dict, list)):
        return value
    if (isinstance(value, dict) and _depth < RECORD_DEPTH and len(value) <= RECORD_ITEMS
            and not any(isinstance(v, (dict, list)) for v in value.values())):
        return value  # the usual call: nothing to cut, nothing copied
    return _cut(value, _depth, bounded)


def _cut(value: dict | list, depth: int, inner: Any, key: Any = lambda k: k) -> Any:
    """An object or a list past RECORD_DEPTH, or its first RECORD_ITEMS entries (each through `inner`)
    and a marker of how many there were: the cut `capped` records and `bounded` acts on."""
    if depth >= RECORD_DEPTH:
        return "[cut: nested too deep]"
    if isinstance(value, dict):
        items = list(value.items())
        out: Any = {key(k): inner(v, depth + 1) for k, v in items[:RECORD_ITEMS]}
        if len(items) > RECORD_ITEMS:
            out["[cut]"] = f"[cut: {len(items):,} entries in all]"
        return out
    out = [inner(v, depth + 1) for v in value[:RECORD_ITEMS]]
    if len(value) > RECORD_ITEMS:
        out.append(f"[cut: {len(value):,} items in all]")
    return out


_CUT_STRING = re.compile(r"(.{%d})… \[cut: ([\d,]+) characters in all\]" % RECORD_CHARS, re.DOTALL)
_CUT_ENTRIES = re.compile(r"\[cut: ([\d,]+) entries in all\]")
_CUT_ITEMS = re.compile(r"\[cut: ([\d,]+) items in all\]")
# No call an agent sent holds more (16 MB of text; a million entries is a message of megabytes): a record
# claiming more was edited, and growing it back would only exhaust memory. Such a value stays as
# recorded, and its replay does not reproduce.
REGROW_MAX_CHARS, REGROW_MAX_ITEMS = 16_000_000, 1_000_000


def _count(m: re.Match[str] | None, limit: int) -> int | None:
    n = None if m is None else int(m[m.re.groups].replace(",", ""))
    return n if n is not None and n <= limit else None


def regrown(value: Any) -> Any:
    """What the agent sent, as far as its record (`capped`) tells: each cut string grown back to its
    length, each cut object or list back to its count, the lost part filled in. The server reads no
    further into a string than the record keeps (an echo, the length, the record itself) and acts on
    the first entries of an object or a list only (`bounded`), so a replay of the regrown value does
    what the original did, and records the same."""
    if isinstance(value, str):
        m = _CUT_STRING.fullmatch(value)
        n = _count(m, REGROW_MAX_CHARS)
        return value if m is None or n is None else m[1] + "x" * (n - RECORD_CHARS)
    if isinstance(value, dict):
        out = {regrown(k): regrown(v) for k, v in value.items()}
        marker = _CUT_ENTRIES.fullmatch(str(out.get("[cut]"))) if len(out) == RECORD_ITEMS + 1 else None
        n = _count(marker, REGROW_MAX_ITEMS)
        if n is not None:
            del out["[cut]"]
            for i in range(RECORD_ITEMS, n):
                out[f"[cut] {i}"] = None  # lost entries: the server never reads them
        return out
    if isinstance(value, list):
        out_list = [regrown(v) for v in value]
        marker = _CUT_ITEMS.fullmatch(str(out_list[-1])) if len(out_list) == RECORD_ITEMS + 1 else None
        n = _count(marker, REGROW_MAX_ITEMS)
        if n is not None:
            out_list[-1:] = [None] * (n - RECORD_ITEMS)
        return out_list
    return value


def _choices(valid: list[Any]) -> str:
    shown = ", ".join(str(v) for v in valid[:_MAX_CHOICES])
    return shown + (", ..." if len(valid) > _MAX_CHOICES else "")


def _did_you_mean(given: Any, valid: Iterable[Any]) -> str:
    if not isinstance(given, str) or len(given) > _MATCH_CHARS:
        return ""
    by_upper = {str(v).upper(): str(v) for v in valid}
    close = difflib.get_close_matches(given.upper(), list(by_upper), n=3, cutoff=0.6)
    return f" Did you mean {' or '.join(repr(by_upper[c]) for c in close)}?" if close else ""


def invalid_arguments(tool: str, exc: ValidationError, input_schema: Mapping[str, Any]) -> str:
    """One sentence per bad argument, using the tool's input schema for the valid choices and bounds."""
    props: Mapping[str, Any] = input_schema.get("properties", {})
    parts = []
    for err in exc.errors():
        field = cap_text(".".join(str(p) for p in err["loc"]), ECHO_CHARS) or "arguments"
        prop = props.get(str(err["loc"][0]), {}) if err["loc"] else {}
        given = err.get("input")
        kind = err["type"]
        if kind == "missing":
            parts.append(f"'{field}' is required.")
        elif kind in ("literal_error", "enum") and "enum" in prop:
            valid = list(prop["enum"])
            parts.append(f"'{field}': {show(given)} is not valid.{_did_you_mean(given, valid)} Valid: {_choices(valid)}.")
        elif "minimum" in prop and "maximum" in prop and kind in (
                "greater_than_equal", "less_than_equal", "greater_than", "less_than"):
            parts.append(f"'{field}' must be between {prop['minimum']:g} and {prop['maximum']:g} (got {show(given)}).")
        else:
            msg = cap_text(err["msg"], ECHO_CHARS)
            parts.append(f"'{field}': {msg[0].lower() + msg[1:] if msg else 'invalid'} (got {show(given)}).")
    return f"{tool}: invalid arguments. " + " ".join(parts)


def unknown_tool(name: str, available: Iterable[str]) -> str:
    valid = sorted(available)
    return f"Unknown tool {show(name)}.{_did_you_mean(name, valid)} The tools are: {', '.join(valid)}."


# The request `_meta` key of a tool call whose arguments were not a JSON object (the raw text is
# its value): MCP itself carries only objects, so a bridge that parses a model's tool calls sends
# the call this way, and the server counts and records it like any other.
MALFORMED_ARGUMENTS_META = "a320-bench/malformed_arguments"


def malformed_arguments(name: Any, raw: Any) -> str:
    return (f"{cap_text(str(name), ECHO_CHARS)}: the arguments are not a JSON object (got {show(raw)}). "
            "Send them as one JSON object, e.g. {\"seconds\": 10}; this call did nothing but still used a tool call.")


def scrub(text: str) -> str:
    """Remove failure ids from a message that did not come from a deliberate error (privilege, belt and braces)."""
    for fid in FAILURES:
        if fid in text:
            text = text.replace(fid, "[redacted]")
    return text


def harness_error(tool: str, exc: BaseException) -> str:
    return (f"{tool}: the simulator failed while handling this call ({type(exc).__name__}: {scrub(str(exc))}). "
            "This is a fault of the benchmark harness, not your mistake; the episode has been stopped.")
