"""Credentials from an env file (KEY=value, `export`, comments, quotes), parsed by python-dotenv.

Values go into the process environment (providers and clients read them there)
only for as long as a command runs, and are secrets: scrubbed from everything
written or printed (`a320bench.secrets`), never written themselves.
"""

from __future__ import annotations

import io
import os
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path

from dotenv.parser import parse_stream

from a320bench.paths import read_regular_file

from .errors import EnvFileError

MAX_BYTES = 2**20  # a few keys; a larger file is read no further


def parse_env_file(path: str | Path, warn: Callable[[str], None] | None = None) -> dict[str, str]:
    """KEY=value pairs; a key given twice keeps its last value (as a shell would), said through `warn`
    with both line numbers and never the values: a pasted second key is often a stale one."""
    p = Path(path)
    try:
        raw = read_regular_file(p, MAX_BYTES)  # never the whole of /dev/zero, a FIFO or a runaway file
        if len(raw) > MAX_BYTES:
            raise EnvFileError(f"--env-file {p}: larger than {MAX_BYTES // 2**20} MB; not an env file")
        text = raw.decode("utf-8").replace("\r\n", "\n").replace("\r", "\n")  # as text mode reads it
    except OSError as e:
        raise EnvFileError(f"--env-file {p}: cannot read ({e.strerror})") from None
    except UnicodeDecodeError:
        raise EnvFileError(f"--env-file {p}: not UTF-8 text") from None
    out: dict[str, str] = {}
    lines: dict[str, int] = {}
    for b in parse_stream(io.StringIO(text)):
        # dotenv counts a line from the blank lines before it: name the line itself.
        n = b.original.line + len(b.original.string) - len(b.original.string.lstrip("\n"))
        if b.error or (b.key is not None and b.value is None):
            raise EnvFileError(f"--env-file {p}: line {n} is not KEY=value")
        if "\0" in (b.key or "") or "\0" in (b.value or ""):  # os.environ refuses it (the value is not echoed)
            raise EnvFileError(f"--env-file {p}: line {n} holds a NUL character, which no environment variable can")
        if b.key is not None:
            if b.key in lines and warn is not None:
                warn(f"--env-file {p}: {b.key} is set on line {lines[b.key]} and again on line {n}; "
                     f"the value of line {n} is used")
            lines[b.key] = n
            out[b.key] = b.value or ""
    return out


@contextmanager
def applied(values: Mapping[str, str]) -> Iterator[None]:
    """The values in os.environ while the block runs; the environment as it was afterwards."""
    before = {k: os.environ.get(k) for k in values}
    os.environ.update(values)
    try:
        yield
    finally:
        for k, v in before.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v
