"""Secrets: which values are secret, and scrubbing them from anything written or printed.

One place for every writer (trajectories, run records, verdicts, client transcripts)
and every console message. Pure (standard library only): the server, the bridge and
offline tools import it without pulling in anything heavy.

What is secret:
- every value of an `--env-file` (the file is for credentials);
- values of environment variables whose names look like credentials (`*KEY*`, `*TOKEN*`, ...);
- values under `--sampling` keys that look like credentials (`api_key`, `extra_headers.Authorization`, ...).

Values shorter than MIN_CHARS are not scrubbed from text (they would blank ordinary
words and numbers); under a credential-like key they are still replaced structurally.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Iterable, Mapping
from typing import Any

REDACTED = "[REDACTED]"
MIN_CHARS = 6
_CREDENTIAL_NAME = re.compile(r"(KEY|TOKEN|SECRET|PASSWORD|PASSWD|CREDENTIAL|AUTH|COOKIE)", re.I)


def looks_like_credential(name: object) -> bool:
    return isinstance(name, str) and bool(_CREDENTIAL_NAME.search(name))


def environment_secrets(environ: Mapping[str, str] | None = None) -> list[str]:
    """Values of environment variables whose names look like credentials."""
    env = os.environ if environ is None else environ
    return [v for k, v in env.items() if looks_like_credential(k) and len(v) >= MIN_CHARS]


def _leaves(value: Any) -> Iterable[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, Mapping):
        for v in value.values():
            yield from _leaves(v)
    elif isinstance(value, (list, tuple)):
        for v in value:
            yield from _leaves(v)


def sampling_secrets(sampling: Any) -> list[str]:
    """String values anywhere under a credential-like key of a --sampling object."""
    found: list[str] = []
    if isinstance(sampling, Mapping):
        for k, v in sampling.items():
            found += list(_leaves(v)) if looks_like_credential(k) else sampling_secrets(v)
    elif isinstance(sampling, list):
        for v in sampling:
            found += sampling_secrets(v)
    return found


def redact_credentials(data: Any) -> Any:
    """The same structure with every value under a credential-like key replaced (for records)."""
    if isinstance(data, Mapping):
        return {k: (REDACTED if looks_like_credential(k) else redact_credentials(v)) for k, v in data.items()}
    if isinstance(data, list):
        return [redact_credentials(v) for v in data]
    return data


class Scrubber:
    """Replaces known secret values with REDACTED, in text and in JSON-like data."""

    def __init__(self, secrets: Iterable[str] = ()):
        unique = {s for s in secrets if isinstance(s, str) and len(s) >= MIN_CHARS}
        self.secrets: tuple[str, ...] = tuple(sorted(unique, key=len, reverse=True))  # longest first
        # How each secret looks inside a JSON string (quotes, backslashes and controls escaped).
        self._in_json = tuple({s, json.dumps(s, ensure_ascii=False)[1:-1], json.dumps(s)[1:-1]}
                              for s in self.secrets)

    def __bool__(self) -> bool:
        return bool(self.secrets)

    def text(self, text: str) -> str:
        for s in self.secrets:
            if s in text:
                text = text.replace(s, REDACTED)
        return text

    def data(self, value: Any) -> Any:
        """Strings (keys included) scrubbed anywhere in dicts, lists and tuples; other values as they are."""
        if not self.secrets:
            return value
        if isinstance(value, str):
            return self.text(value)
        if isinstance(value, Mapping):
            return {self.data(k): self.data(v) for k, v in value.items()}
        if isinstance(value, (list, tuple)):
            return [self.data(v) for v in value]
        return value

    def json_line(self, value: Any) -> str:
        """`json.dumps(value)` with secrets scrubbed; cheap when none occurs (the common case)."""
        line = json.dumps(value, ensure_ascii=False, default=str)
        if any(form in line for forms in self._in_json for form in forms):
            line = json.dumps(self.data(json.loads(line)), ensure_ascii=False)
        return line

    def merged(self, more: Iterable[str]) -> Scrubber:
        return Scrubber((*self.secrets, *more))


NO_SECRETS = Scrubber()
