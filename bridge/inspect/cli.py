"""`a320-bench export --inspect PATH... -o DIR`: trajectories as Inspect AI eval logs (extra `[inspect]`).

A path that gives no trajectory, or a file that is not one, is one line on stderr and
nothing is written (exit 2); a log folder that cannot be written is one line (exit 2).
Prints the path of every log written, for `inspect view --log-dir DIR`.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from .. import exitcodes
from ..errors import MissingExtra, UsageError


def run_export(args: Any) -> int:
    if not args.inspect:
        raise UsageError("a320-bench export: say which format: --inspect (the only one so far)")
    try:
        import inspect_ai  # noqa: F401
    except ImportError as e:
        from ..providers import install_command

        raise MissingExtra(f"export --inspect needs the inspect extra ({e.name} is not installed): "
                           f"{install_command('inspect')}") from None
    from ..score.inputs import find_trajectory_files
    from ..score.scorecard import NotATrajectory
    from .export import export_inspect

    files, problems = find_trajectory_files(args.paths)
    if problems:
        for problem in problems:
            print(f"error: {problem}", file=sys.stderr)
        return exitcodes.USAGE
    out = Path(args.output)
    try:
        written = export_inspect(files, out, args.paths)
    except NotATrajectory as e:
        raise UsageError(f"{e}; nothing exported") from None
    except OSError as e:
        raise UsageError(f"-o {out}: cannot write the logs: {e.strerror or e}") from None
    for path in written:
        print(path)
    print(f"{len(files)} episode(s) in {len(written)} log(s); open them with: inspect view --log-dir {out}",
          file=sys.stderr)
    return exitcodes.OK
