"""`python -m a320bench` and the `a320-bench` command.

The command's own modules load inside `main`, so that a Ctrl-C in the first tenth of a
second (while they load, before `cli.main` can catch it) is the one line and exit code
of any other interrupt, not a traceback.
"""

from __future__ import annotations

import sys


def main() -> int:
    try:
        from a320bench.bridge.cli import main as cli_main
    except KeyboardInterrupt:  # nothing has started: nothing to end or resume
        print("interrupted", file=sys.stderr, flush=True)
        return 130  # exitcodes.INTERRUPTED, which is not loaded yet
    return cli_main()


if __name__ == "__main__":
    raise SystemExit(main())
