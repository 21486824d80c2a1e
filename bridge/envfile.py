"""Credentials from an env file (KEY=value, `export`, comments, quotes).

Values are put in the process environment for providers to read and are
collected as secrets so that recorders scrub them; they are never written.
"""

from __future__ import annotations

import os
import re
import shlex
from pathlib import Path

_LINE = re.compile(r"^\s*(?:export\s+)?([A-Za-z_][A-Za-z0-9_]*)\s*=\s*(.*)$")
_SECRETISH = re.compile(r"(KEY|TOKEN|SECRET|PASSWORD|CREDENTIAL)", re.I)


class EnvFileError(ValueError):
    pass


def parse_env_file(path: str | Path) -> dict[str, str]:
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except OSError as e:
        raise EnvFileError(f"--env-file {p}: cannot read ({e.strerror})") from None
    except UnicodeDecodeError:
        raise EnvFileError(f"--env-file {p}: not UTF-8 text") from None
    out: dict[str, str] = {}
    for n, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        m = _LINE.match(line)
        if not m:
            raise EnvFileError(f"--env-file {p}: line {n} is not KEY=value")
        key, value = m.group(1), m.group(2).strip()
        if value[:1] in ("'", '"'):
            try:
                parts = shlex.split(value, comments=True)
            except ValueError:
                raise EnvFileError(f"--env-file {p}: line {n} has an unterminated quote") from None
            value = parts[0] if parts else ""
        else:
            value = value.split(" #", 1)[0].strip()
        out[key] = value
    return out


def apply_env_file(path: str | Path) -> list[str]:
    """Load the file into os.environ; return its values (to be scrubbed everywhere)."""
    values = parse_env_file(path)
    os.environ.update(values)
    return [v for v in values.values() if v]


def environment_secrets() -> list[str]:
    """Values of variables whose names look like credentials."""
    return [v for k, v in os.environ.items() if _SECRETISH.search(k) and len(v) >= 8]


def redact(text: str, secrets: list[str] | tuple[str, ...]) -> str:
    for s in sorted(set(secrets), key=len, reverse=True):
        if s and len(s) >= 6:
            text = text.replace(s, "[REDACTED]")
    return text
