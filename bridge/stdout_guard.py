"""Standard output, for the commands that print their result there.

Three ways it fails, each one line and an exit code, never a traceback:
- closed before the command starts (`a320-bench score res >&-`): refused before any work, since
  whatever it would print has nowhere to go (exit 2);
- the reader left (`a320-bench score res | head`): the rest is not wanted, so the command ends
  quietly (exit 0). rich turns a BrokenPipeError into `SystemExit(1)`, so the guard raises its own
  `ReaderLeft` instead, which rich does not catch;
- a write fails (`> /dev/full`, an I/O error): the output is incomplete, say so (exit 74).
"""

from __future__ import annotations

import io
import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager

from .errors import StdoutFailed, UsageError


class ReaderLeft(Exception):
    """The pipe's reader went away: nothing more to write, nothing to report."""


def _failed(e: OSError) -> Exception:
    if isinstance(e, BrokenPipeError):
        return ReaderLeft()
    return StdoutFailed(f"cannot write to standard output: {e.strerror or e}; the output is incomplete")


class _Guarded:
    """sys.stdout while a command runs: its write errors become the exceptions above."""

    def __init__(self, stream):
        self._stream = stream

    def write(self, text):
        try:
            return self._stream.write(text)
        except OSError as e:
            raise _failed(e) from None

    def flush(self) -> None:
        try:
            self._stream.flush()
        except OSError as e:
            raise _failed(e) from None

    def __getattr__(self, name: str):
        return getattr(self._stream, name)


def require_open(command: str) -> None:
    """Refuse a closed standard output before `command` does any work."""
    if not _is_open(sys.stdout):
        raise UsageError(f"{command}: standard output is closed, so what it writes there would be lost "
                         "(redirect it to a file or to /dev/null instead of closing it)")


def _is_open(stream) -> bool:
    if stream is None or getattr(stream, "closed", False):  # Python sets sys.stdout to None when fd 1 is closed
        return False
    try:
        fd = stream.fileno()
    except (io.UnsupportedOperation, AttributeError):  # an in-memory stream (a test's capture): open
        return True
    except (OSError, ValueError):
        return False
    try:
        os.fstat(fd)
    except OSError:
        return False
    return True


@contextmanager
def guarded() -> Iterator[None]:
    """Guard sys.stdout for the body and flush it before leaving, so that a failure of the last
    buffered write is reported here, not as Python's 'Exception ignored' at exit."""
    real = sys.stdout
    if real is None:
        yield
        return
    sys.stdout = _Guarded(real)
    try:
        yield
        sys.stdout.flush()
    finally:
        sys.stdout = real


def discard() -> None:
    """After the reader left: point stdout at nothing, so the interpreter's final flush is quiet."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError, AttributeError):
        pass
