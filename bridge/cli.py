"""`a320-bench`: run | serve | score | report | export | validate | mcp-config.

Thin: each command parses its flags and calls one library function. Heavy
imports (mcp, litellm, the simulator) happen inside the command bodies, so
`a320-bench score` stays light.
"""

from __future__ import annotations

import argparse
import os
import sys

from . import console, exitcodes, interrupts, stdout_guard
from .errors import BridgeError, UsageError

CliError = UsageError  # the name the commands raise


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # one line, not the usage dump
        raise CliError(f"{self.prog}: {message} (see --help)")


def _output_path(value: str) -> str:
    """An output path flag's value: an empty one (an unset variable) would mean the working folder."""
    if not value.strip():
        raise argparse.ArgumentTypeError("an empty path names nothing to write to")
    return value


def build_parser() -> argparse.ArgumentParser:
    from a320bench import __version__

    p = _Parser(prog="a320-bench", description="Does an AI agent handle A320 system failures by the book?")
    p.add_argument("--version", action="version", version=f"a320-bench {__version__}")
    sub = p.add_subparsers(dest="command", required=True, parser_class=_Parser, metavar="COMMAND")

    r = sub.add_parser("run", help="record episodes of a model, a baseline provider or an external client")
    r.add_argument("--scenario", nargs="+", action="extend", default=None, metavar="PATH",
                   help="scenario files, folders or globs, repeatable (default: the built-in catalogue)")
    who = r.add_mutually_exclusive_group()
    who.add_argument("--agent", metavar="AGENT", help="who drives the episodes: a built-in (scripted, noop, random, "
                     "ecam, replay, litellm), a name an installed package registers (entry points a320bench.agents), "
                     "package.module:Class or path/to/file.py:Class (default: scripted)")
    who.add_argument("--provider", choices=["scripted", "noop", "random", "ecam", "replay", "litellm"],
                     help="a built-in agent (the same as --agent NAME)")
    who.add_argument("--client", choices=["claude", "cmd"], help="an external MCP client driving `a320-bench serve`")
    r.add_argument("--model", help="the model: alone, a litellm model id, e.g. anthropic/claude-sonnet-4-5 (needs the "
                   "providers extra); with a plug-in --agent, handed to it")
    r.add_argument("--reasoning-level", metavar="LEVEL", default=None,
                   help="--model and plug-ins: the reasoning level (low, medium, high ...), recorded and scored apart")
    r.add_argument("--client-model", help="model name passed to the external client")
    r.add_argument("--offline-demo", action="store_true", default=None,
                   help="--client claude: against a local mock of the Messages API that flies the scripted "
                   "procedure (no account, no network; labelled claude/offline-demo)")
    r.add_argument("--client-cmd", help="command for --client cmd; placeholders {config} {prompt} {system_prompt} {server}")
    # Defaults of flags that apply to one kind of run are None, so that a flag given where it
    # does not apply can be refused (run_command.py fills in the defaults).
    r.add_argument("--client-timeout", type=float, default=None, help="wall-clock seconds per client episode (default 600)")
    r.add_argument("--runs", type=int, default=1, help="episodes per scenario (default 1)")
    r.add_argument("--workers", type=int, default=4, help="episodes in parallel (default 4; local: spread over "
                   "worker processes, one per core)")
    r.add_argument("--executor", choices=["local", "ray"], default="local",
                   help="where episodes fly: local worker processes (default) or a Ray cluster (the ray extra)")
    r.add_argument("--ray-address", default=None, metavar="ADDRESS",
                   help="--executor ray: the cluster to join (default: $RAY_ADDRESS, else a local one)")
    r.add_argument("--max-concurrency-per-model", type=int, default=None, metavar="N",
                   help="at most N episodes of this model in flight (with Ray: across the whole cluster)")
    r.add_argument("--shard", default=None, metavar="I/N",
                   help="fly only slice I of N of the (scenario, run) plan (0-based); `score` merges the shards")
    r.add_argument("--dry-run", action="store_true",
                   help="check the selection, print the plan and write the run record; fly nothing")
    r.add_argument("--out", default="runs", type=_output_path, help="output folder (default: runs)")
    r.add_argument("--sampling", default=None, help="JSON of sampling parameters passed verbatim to the model")
    r.add_argument("--profile", default="benchmark", help="tool profile: benchmark (default), crew (a captain to "
                   "talk to: the crew track), learning (a store of learnings: the learning track)")
    r.add_argument("--retrieve-learnings-top-k", type=int, default=None, metavar="K",
                   help="--profile learning: the most learnings one retrieve_learnings returns (official: 3)")
    r.add_argument("--captain-model", metavar="LITELLM_ID", help="--profile crew: the captain's words come from this "
                   "litellm model (default: the scripted captain's)")
    r.add_argument("--env-file", help="KEY=value file with credentials")
    r.add_argument("--max-retries", type=int, default=None, help="--model: retries of rate limits, timeouts, 5xx "
                   "and malformed responses (default 3)")
    r.add_argument("--request-timeout", type=float, default=None, metavar="SECONDS",
                   help="--model: seconds to wait for one model response before retrying it (default 120)")
    r.add_argument("--task-id", help="only these scenario indices (0-based): 0,3,5-7")
    r.add_argument("--seed", type=int, default=None, help="--provider random and plug-in agents: the seed "
                   "(default 0)")
    r.add_argument("--replay-from", help="for --provider replay: the runs folder to replay")
    r.add_argument("--replay-of", metavar="LABEL", help="for --provider replay: whose episodes to replay when "
                   "--replay-from holds several (a file label, e.g. random or openai_gpt-4.1)")
    r.add_argument("--force", action="store_true", help="rerun episodes that are already complete")
    r.add_argument("--no-progress", action="store_true", help="no progress bar")

    s = sub.add_parser("serve", help="serve one scenario's tool profile to an external MCP client (stdio or --http)")
    s.add_argument("--scenario", required=True, metavar="PATH", help="one scenario file")
    s.add_argument("--profile", default="benchmark", help="benchmark (default), crew, learning or dev")
    s.add_argument("--result", metavar="FILE", type=_output_path,
                   help="write the verdict here (atomically, kept current)")
    s.add_argument("--trajectory", metavar="FILE", type=_output_path, help="write the JSONL trajectory here")
    s.add_argument("--http", action="store_true", help="serve over Streamable HTTP instead of stdio, until Ctrl-C "
                   "(a bearer token in $A320_BENCH_TOKEN is then required)")
    s.add_argument("--host", default=None, help="--http: the address to listen on (default 127.0.0.1)")
    s.add_argument("--port", type=int, default=None, help="--http: the port (default: a free one, printed)")

    sc = sub.add_parser("score", help="score trajectories offline")
    sc.add_argument("paths", nargs="+", metavar="PATH", help="trajectory files, folders or globs")
    sc.add_argument("--json", action="store_true", help="ScoreCards and aggregates as JSON")
    sc.add_argument("--detail", action="store_true", help="add the per-command classification")
    sc.add_argument("--include-errors", action="store_true", help="count provider errors and invalid scenarios in means")
    sc.add_argument("--csv", metavar="FILE", type=_output_path, help="also write one row per episode to FILE")
    sc.add_argument("--verify", action="store_true",
                    help="re-simulate every episode against the catalogue and fail on any mismatch")
    sc.add_argument("--catalogue", nargs="+", action="extend", metavar="PATH",
                    help="with --verify: the scenarios to verify against (default: the built-in catalogue)")

    rp = sub.add_parser("report", help="write one self-contained HTML report of trajectories (opens offline)")
    rp.add_argument("paths", nargs="+", metavar="PATH", help="trajectory files, folders or globs")
    rp.add_argument("-o", "--output", default="report.html", metavar="FILE", type=_output_path,
                    help="the HTML file (default: report.html)")

    ex = sub.add_parser("export", help="write trajectories in another tool's format (Inspect AI eval logs)")
    ex.add_argument("paths", nargs="+", metavar="PATH", help="trajectory files, folders or globs")
    ex.add_argument("--inspect", action="store_true", help="Inspect AI eval logs, one sample per episode "
                    "(needs the inspect extra)")
    ex.add_argument("-o", "--output", default="logs", metavar="DIR", type=_output_path,
                    help="the folder for the logs (default: logs)")

    v = sub.add_parser("validate", help="check scenario files and fly each ground truth with the scripted provider")
    v.add_argument("paths", nargs="*", metavar="PATH",
                   help="scenario files, folders or globs (default: the built-in catalogue)")

    m = sub.add_parser("mcp-config", help="print a ready-to-paste MCP configuration that serves a scenario to a client")
    m.add_argument("--client", required=True, choices=["claude-code", "claude-desktop", "vscode", "cursor"],
                   help="the MCP client the configuration is for")
    m.add_argument("--scenario", metavar="PATH", help="one scenario file (default: the built-in "
                   "elec/gen1_fault_reset_fails.yaml)")
    m.add_argument("--profile", default="benchmark", help="benchmark (default), crew, learning or dev")
    m.add_argument("--json", action="store_true", help="the JSON configuration alone")
    return p


def _dispatch(argv: list[str] | None) -> int:
    parser = build_parser()
    if not (sys.argv[1:] if argv is None else argv):  # `a320-bench` alone: what it can do, not an error line
        parser.print_help()
        return exitcodes.USAGE
    args, unknown = parser.parse_known_args(argv)
    if unknown:
        _refuse_unknown(parser, args.command, unknown)
    args.argv = list(sys.argv[1:] if argv is None else argv)
    # Where standard output is the result (the table, the JSON, the protocol), a closed one is refused.
    if args.command in ("score", "validate", "mcp-config") or (args.command == "serve" and not args.http):
        stdout_guard.require_open(f"a320-bench {args.command}")
    if args.command == "score":
        from .score.cli import run_score

        return run_score(args)
    if args.command == "report":
        from .report.cli import run_report

        return run_report(args)
    if args.command == "export":
        from .inspect.cli import run_export

        return run_export(args)
    if args.command == "validate":
        from .validate import run_validate

        return run_validate(args)
    if args.command == "mcp-config":
        from .mcp_config import run_mcp_config

        return run_mcp_config(args)
    if args.command == "serve":
        from a320bench.server.surface.serve import run_serve

        return run_serve(args)
    from .run_command import run_command

    return run_command(args)


def _refuse_unknown(parser: argparse.ArgumentParser, command: str, unknown: list[str]) -> None:
    """argparse names the top command for a subcommand's unknown flag; name the subcommand, and the
    flag of it that a mistyped one nearly spells (`--scenarios` for `--scenario`)."""
    import difflib

    # argparse has no public way to a parser's subcommands and flags: its `_actions`, stable since 3.2.
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction)).choices[command]
    flags = [f for action in sub._actions for f in action.option_strings if f.startswith("--")]
    close = difflib.get_close_matches(unknown[0].split("=", 1)[0], flags, n=1) if unknown[0].startswith("--") else []
    hint = f" (did you mean {close[0]}?)" if close else ""
    sub.error(f"unrecognized arguments: {' '.join(unknown)}{hint}")


def main(argv: list[str] | None = None) -> int:
    with console.scope(), interrupts.sigterm_as_ctrl_c():
        try:
            with stdout_guard.guarded():
                return _dispatch(argv)
        except stdout_guard.ReaderLeft:  # `a320-bench score ... | head`: the reader left; nothing to say
            stdout_guard.discard()
            return exitcodes.OK
        except stdout_guard.StdoutFailed as e:
            stdout_guard.discard()  # what is still buffered would fail again at exit
            console.error(str(e))
            return e.exit_code
        except BridgeError as e:
            console.error(str(e))
            return e.exit_code
        except KeyboardInterrupt:
            console.note("interrupted")
            return exitcodes.INTERRUPTED
        except BaseExceptionGroup as group:
            interrupt, rest = group.split(KeyboardInterrupt)
            if interrupt is not None and rest is None:  # a Ctrl-C or SIGTERM that landed inside a task group
                console.note("interrupted")
                return exitcodes.INTERRUPTED
            ours, rest = group.split(BridgeError)
            if ours is not None and rest is None:  # raised inside a task group (an executor's check of its cluster)
                first = _leaves(ours)[0]
                console.error(str(first))
                return first.exit_code
            return _internal_error(group)
        except BrokenPipeError:  # the reader left while something wrote past the guard (a stream's buffer)
            stdout_guard.discard()
            return exitcodes.OK
        except Exception as e:
            return _internal_error(e)


def _leaves(group: BaseExceptionGroup) -> list:
    return [leaf for e in group.exceptions for leaf in (_leaves(e) if isinstance(e, BaseExceptionGroup) else [e])]


def _internal_error(e: BaseException) -> int:
    """A bug of ours: one line, never a traceback (unless asked for)."""
    if os.environ.get("A320_BENCH_DEBUG"):
        raise e
    console.error(f"internal error: {type(e).__name__}: {e} "
                  "(a bug of a320-bench; A320_BENCH_DEBUG=1 shows the traceback)")
    return exitcodes.INTERNAL


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
