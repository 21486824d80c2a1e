"""`a320-bench report PATH... [-o FILE]`: write the HTML report of trajectories.

Exit codes: 0 when the file was written; USAGE (2) with one line on stderr for a
missing path, a folder without trajectories, a file that is not a trajectory, or
an output that cannot be written; INTERNAL (70) when the page cannot be built (our bug).
"""

from __future__ import annotations

import sys
from typing import Any

from .. import exitcodes


def _warn(message: str) -> None:
    print(f"warning: {message}", file=sys.stderr)


def run_report(args: Any) -> int:
    from .document import build_document
    from .load import ReportInputError, load

    try:
        loaded = load(args.paths, warn=_warn)
    except ReportInputError as e:
        print(f"error: {e}", file=sys.stderr)
        return exitcodes.USAGE
    try:
        from .writer import write_report
    except ImportError as e:  # an install from before the report's dependencies
        print(f"error: the report needs {e.name}: pip install -e . (or pip install a320-bench)", file=sys.stderr)
        return exitcodes.USAGE
    from a320bench import __version__

    try:
        doc = build_document(loaded, sources=[str(p) for p in args.paths], version=__version__)
        size = write_report(doc, args.output)
    except OSError as e:
        print(f"error: {args.output}: cannot write: {e.strerror or e}", file=sys.stderr)
        return exitcodes.USAGE
    except Exception as e:  # our bug (a template that no longer fits its data): one line, never a traceback
        print(f"error: the report could not be made ({type(e).__name__}: {e}): a bug in a320-bench", file=sys.stderr)
        return exitcodes.INTERNAL
    n = len(loaded.cards)
    print(f"report: {n} episode{'s' if n != 1 else ''} -> {args.output} ({size / 2**20:.1f} MB); "
          f"open it in a browser, it works offline")
    return exitcodes.OK
