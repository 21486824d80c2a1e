"""The signals that end a command from outside, as Ctrl-C does.

SIGINT (Ctrl-C), SIGTERM (a client, a job scheduler, `kill`) and SIGHUP, the hangup of
the terminal a person runs from: it used to kill `run` and `serve` as SIGKILL would,
before the episodes in flight could end `interrupted` or the verdict be written. A
hangup that `nohup` set to be ignored stays ignored: that process was meant to outlive
its terminal. Standard library only: `serve`, `run` and every command read it.
"""

from __future__ import annotations

import signal


def ending_signals() -> tuple[signal.Signals, ...]:
    """SIGINT, SIGTERM and, unless the process ignores it, SIGHUP."""
    hangup = () if signal.getsignal(signal.SIGHUP) == signal.SIG_IGN else (signal.SIGHUP,)
    return (signal.SIGINT, signal.SIGTERM, *hangup)
