"""`a320-bench`: run | serve | score | report | validate.

Thin: each command parses its flags and calls one library function. Heavy
imports (mcp, litellm, the simulator) happen inside the command bodies, so
`a320-bench score` stays light.
"""

from __future__ import annotations

import argparse
import sys

from . import exitcodes


class CliError(Exception):
    """A user-facing error: printed as one line, exit code attached."""

    def __init__(self, message: str, code: int = exitcodes.USAGE):
        super().__init__(message)
        self.code = code


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # one line, not the usage dump
        raise CliError(f"{self.prog}: {message} (see --help)")


def build_parser() -> argparse.ArgumentParser:
    p = _Parser(prog="a320-bench", description="Does an AI agent handle A320 system failures by the book?")
    sub = p.add_subparsers(dest="command", required=True, parser_class=_Parser, metavar="COMMAND")

    r = sub.add_parser("run", help="record episodes of a model, a baseline provider or an external client")
    r.add_argument("--scenario", nargs="+", default=None, metavar="PATH",
                   help="scenario files, folders or globs (default: the built-in catalogue)")
    who = r.add_mutually_exclusive_group()
    who.add_argument("--model", help="a litellm model id, e.g. anthropic/claude-sonnet-4-5 (needs the providers extra)")
    who.add_argument("--provider", choices=["scripted", "noop", "random", "ecam", "replay"],
                     help="a built-in provider (default: scripted)")
    who.add_argument("--client", choices=["claude", "cmd"], help="an external MCP client driving `a320-bench serve`")
    r.add_argument("--client-model", help="model name passed to the external client")
    r.add_argument("--client-cmd", help="command for --client cmd; placeholders {config} {prompt} {system_prompt} {server}")
    r.add_argument("--client-timeout", type=float, default=600.0, help="wall-clock seconds per client episode")
    r.add_argument("--runs", type=int, default=1, help="episodes per scenario")
    r.add_argument("--workers", type=int, default=4, help="episodes in parallel")
    r.add_argument("--out", default="runs", help="output folder (default: runs)")
    r.add_argument("--sampling", default=None, help="JSON of sampling parameters passed verbatim to the model")
    r.add_argument("--profile", default="benchmark", help="tool profile (default: benchmark)")
    r.add_argument("--env-file", help="KEY=value file with credentials")
    r.add_argument("--max-retries", type=int, default=3, help="retries of rate limits, timeouts and 5xx")
    r.add_argument("--task-id", help="only these scenario indices (0-based): 0,3,5-7")
    r.add_argument("--seed", type=int, default=0, help="seed of the random provider")
    r.add_argument("--replay-from", help="for --provider replay: the runs folder to replay")
    r.add_argument("--force", action="store_true", help="rerun episodes that are already complete")
    r.add_argument("--no-progress", action="store_true", help="no progress bar")

    s = sub.add_parser("serve", help="serve one scenario's tool profile over stdio to an external MCP client")
    s.add_argument("--scenario", required=True, metavar="PATH", help="one scenario file")
    s.add_argument("--profile", default="benchmark", help="benchmark (default) or dev")
    s.add_argument("--result", metavar="FILE", help="write the verdict here (atomically, kept current)")
    s.add_argument("--trajectory", metavar="FILE", help="write the JSONL trajectory here")

    sc = sub.add_parser("score", help="score trajectories offline")
    sc.add_argument("paths", nargs="+", metavar="PATH", help="trajectory files, folders or globs")
    sc.add_argument("--json", action="store_true", help="ScoreCards and aggregates as JSON")
    sc.add_argument("--detail", action="store_true", help="add the per-command classification")
    sc.add_argument("--include-errors", action="store_true", help="count provider errors and invalid scenarios in means")
    sc.add_argument("--csv", metavar="FILE", help="also write one row per episode to FILE")

    rp = sub.add_parser("report", help="write one self-contained HTML report of trajectories (opens offline)")
    rp.add_argument("paths", nargs="+", metavar="PATH", help="trajectory files, folders or globs")
    rp.add_argument("-o", "--output", default="report.html", metavar="FILE", help="the HTML file (default: report.html)")

    v = sub.add_parser("validate", help="check scenario files and fly each ground truth with the scripted provider")
    v.add_argument("paths", nargs="*", metavar="PATH", help="scenario files, folders or globs (default: scenarios/)")
    return p


def main(argv: list[str] | None = None) -> int:
    try:
        args = build_parser().parse_args(argv)
        args.argv = list(sys.argv[1:] if argv is None else argv)
        if args.command == "score":
            from .score.cli import run_score

            return run_score(args)
        if args.command == "report":
            from .report.cli import run_report

            return run_report(args)
        if args.command == "validate":
            from .validate import run_validate

            return run_validate(args)
        if args.command == "serve":
            from a320bench.server.surface.serve import run_serve

            return run_serve(args)
        from .run import run_command

        return run_command(args)
    except CliError as e:
        print(f"error: {e}", file=sys.stderr)
        return e.code
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
