"""Lines for the user on stderr, each scrubbed of the command's secrets.

`run` adds the secrets it learns (--env-file, credential-like --sampling keys, the
environment) with `add_secrets`; `cli.main` opens a `scope` per command, so the
secrets of one call never outlive it. Log records (litellm's included) pass the
same scrubber while a scope is open.
"""

from __future__ import annotations

import logging
import sys
from collections.abc import Iterable, Iterator
from contextlib import contextmanager

from a320bench.secrets import NO_SECRETS, Scrubber

_scrubber: Scrubber = NO_SECRETS


def scrub(text: str) -> str:
    return _scrubber.text(text)


def scrubber() -> Scrubber:
    return _scrubber


def add_secrets(values: Iterable[str]) -> Scrubber:
    global _scrubber
    _scrubber = _scrubber.merged(values)
    return _scrubber


def error(line: str) -> None:
    print(f"error: {scrub(line)}", file=sys.stderr, flush=True)


def note(line: str) -> None:
    print(scrub(line), file=sys.stderr, flush=True)


class _ScrubLogs(logging.Filter):
    def filter(self, record: logging.LogRecord) -> bool:
        if _scrubber:
            record.msg = scrub(record.getMessage())
            record.args = None
        return True


class _ScrubbedStream:
    """sys.stderr while a scope is open: what anything prints (rich, warnings, a library) is scrubbed."""

    def __init__(self, stream):
        self._stream = stream

    def write(self, text: str) -> int:
        return self._stream.write(scrub(text) if isinstance(text, str) else text)

    def __getattr__(self, name: str):
        return getattr(self._stream, name)


@contextmanager
def scope() -> Iterator[None]:
    global _scrubber
    before, stderr = _scrubber, sys.stderr
    flt = _ScrubLogs()
    # Handlers made before the scope hold the real stderr: filter their records.
    handlers = [h for name in (None, "LiteLLM", "LiteLLM Router", "LiteLLM Proxy")
                for h in logging.getLogger(name).handlers]
    for h in handlers:
        h.addFilter(flt)
    sys.stderr = _ScrubbedStream(stderr)
    try:
        yield
    finally:
        sys.stderr = stderr
        for h in handlers:
            h.removeFilter(flt)
        _scrubber = before
