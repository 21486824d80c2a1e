"""`a320-bench serve`: one episode of one scenario, served to an external MCP client over stdio,
or over Streamable HTTP with --http.

load the scenario (broken: one line per problem on stderr, exit 2) -> open the
episode (meta + setup events; a failed validity gate: reason on stderr, verdict
with reason invalid_scenario, exit 3, nothing served) -> serve the profile's
tools over stdio until the client closes stdin or sends SIGTERM -> end the
episode (end_turn_without_done unless it already ended) -> exit 0.

With --http the episode is served at http://HOST:PORT/mcp (loopback and a free port
unless --host and --port say otherwise; the URL is the first line on stderr) until
SIGTERM or Ctrl-C ends it, as closing stdin does over stdio. A bearer token in
$A320_BENCH_TOKEN is then required of every request (401 without it); serving beyond
loopback without one is refused.

The verdict in --result is kept current after every call and written
atomically, so a client that kills the server still leaves a readable file.
`{started}` in --result or --trajectory becomes the start time (UTC), so a
configuration that a client starts many times keeps every episode apart
(`a320-bench mcp-config`); a missing folder on either path is created, and a
start in which the client called no tool (a health check) leaves no files.
stdout carries the protocol only: logging goes to stderr at WARNING.

An output the disk refuses before serving (a folder that is a file, read-only,
full, a symbolic link) is one line and exit 2; a trajectory write refused while
serving ends the episode `storage_error` at once (the verdict says why, every
later call is refused, one line on stderr) and `serve` exits 74. A verdict write
refused while serving leaves the episode going (the trajectory records it); if the
file is still behind at the end, one line says so and `serve` exits 74.

SIGTERM, Ctrl-C or a hangup before the episode is served (while it is set up, before
the loop listens) ends it `interrupted` in both files, whole: `interrupted`, exit 130.
"""

from __future__ import annotations

import logging
import os
import sys
from collections.abc import Callable
from typing import Any

from a320bench.ending_signals import ending_signals

from ..end_reason import EndReason
from .verdict_file import VerdictFile

# The numbers of bridge/exitcodes.py (the server side does not import the bridge).
EXIT_OK = 0
EXIT_USAGE = 2
EXIT_INVALID_SCENARIO = 3
EXIT_INTERNAL = 70  # a bug of ours: the setup crashed, or the episode ended with a harness error
EXIT_STORAGE = 74  # the disk refused the trajectory (the episode ended storage_error) or the verdict mid-episode
TOKEN_ENV = "A320_BENCH_TOKEN"  # serve --http: the bearer token clients must send
LOOPBACK_HOSTS = ("127.0.0.1", "localhost", "::1")
NOT_SERVED = "interrupted before the client was served"  # the error of an episode a signal ended in its setup


log = logging.getLogger("a320bench.serve")


class _Refused(Exception):
    """Stop before serving: the lines go to stderr, the code is the exit code."""

    def __init__(self, code: int, *lines: str):
        super().__init__(*lines)
        self.code = code
        self.lines = lines


def _configure_logging() -> None:
    # Before anything imports mcp.server: MCPServer() configures the root logger only when nobody did.
    root = logging.getLogger()
    if not root.handlers:
        handler = logging.StreamHandler(sys.stderr)
        handler.setFormatter(logging.Formatter("a320-bench serve: %(levelname)s %(name)s: %(message)s"))
        root.addHandler(handler)
    root.setLevel(logging.WARNING)


STARTED = "{started}"


def output_paths(args: Any, started: str) -> bool:
    """Put the start time in place of `{started}` (True if there was one); create the folders the outputs
    go to (a folder that cannot be made is left for the writers to report, one line each)."""
    per_start = False
    for name in ("result", "trajectory"):
        value = getattr(args, name)
        if not value:
            continue
        per_start |= STARTED in value
        value = value.replace(STARTED, started)
        setattr(args, name, value)
        try:
            os.makedirs(os.path.dirname(os.path.abspath(value)), exist_ok=True)
        except OSError:
            pass
    return per_start


def _forget_unused(args: Any) -> None:
    """A start in which the client called nothing (a client's health check, `claude mcp list`) is no
    episode: its per-start files would score as an agent that did nothing."""
    for path in (args.result, args.trajectory):
        if path:
            try:
                os.unlink(path)
            except OSError:
                pass
    print("a320-bench serve: the client called no tool: nothing recorded", file=sys.stderr, flush=True)


def run_serve(args: Any) -> int:
    _configure_logging()
    from datetime import datetime, timezone

    per_start = output_paths(args, datetime.now(timezone.utc).strftime("%Y%m%dT%H%M%S%fZ"))
    try:
        _check_http_flags(args)
        profile, sc = _load(args)
        recorder, verdict_file, ep = _open(args, profile, sc)
    except _Refused as r:
        for line in r.lines:
            print(f"error: {line}", file=sys.stderr, flush=True)
        return r.code

    def finish() -> int:
        """End the episode (once) and flush everything to disk; the exit code."""
        try:
            if ep.final is None:
                ep.finish(EndReason.END_TURN_WITHOUT_DONE)
        except Exception as e:  # the verdict needs the simulator; if that is what broke, say so
            log.exception("could not evaluate the final verdict")
            fallback = {"scenario_id": sc.id, "reason": ep.ended or "harness_error",
                        "tool_calls_used": ep.tool_calls, "error": f"{type(e).__name__}: {e}"}
            recorder.write("final", **fallback)
            verdict_file(fallback)
        recorder.close()
        verdict_file.close()
        if per_start and ep.tool_calls == 0 and ep.ended != EndReason.STORAGE_ERROR:
            _forget_unused(args)
        code = EXIT_INTERNAL if ep.ended == EndReason.HARNESS_ERROR else EXIT_OK
        if ep.ended == EndReason.STORAGE_ERROR:
            print(f"error: {(ep.final or {}).get('error')}; the episode ended storage_error", file=sys.stderr,
                  flush=True)
            code = EXIT_STORAGE
        if verdict_file.failure is not None:
            # The episode went on (the trajectory is its record), but whoever reads --result must not
            # take an earlier verdict for the end.
            print(f"error: {verdict_file.failure}; it holds an earlier verdict than the episode's end",
                  file=sys.stderr, flush=True)
            code = EXIT_STORAGE
        return code

    def identified(info: dict[str, Any]) -> None:
        # What the client said it is (MCP clientInfo): `score` labels the episode with it.
        recorder.write("client_report", client=info["name"], client_version=info["version"], model=None,
                       source="mcp clientInfo")

    try:
        import anyio

        from .factory import create_server

        if getattr(args, "http", False):
            return anyio.run(_serve_http, ep, profile, finish, args, identified)
        server = create_server(ep, profile)
        server.on_client_identified = identified
        return anyio.run(_serve, server, finish)
    except BaseException as e:
        # A signal before the loop's receiver listens (which ends a served episode as a client's
        # SIGTERM does): an episode no client reached ends interrupted, never as the agent's result.
        if _is_interrupt(e):
            if ep.final is None and ep.tool_calls == 0:
                ep.finish(EndReason.INTERRUPTED, error=NOT_SERVED)
            finish()
        raise
    finally:
        recorder.close()
        verdict_file.close()


def _is_interrupt(e: BaseException) -> bool:
    """A Ctrl-C (or SIGTERM, a hangup: the command raises the same), alone or as all of a group."""
    if isinstance(e, BaseExceptionGroup):
        return all(_is_interrupt(x) for x in e.exceptions)
    return isinstance(e, KeyboardInterrupt)


def _check_http_flags(args: Any) -> None:
    http = getattr(args, "http", False)
    for flag, value in (("--host", getattr(args, "host", None)), ("--port", getattr(args, "port", None))):
        if value is not None and not http:
            raise _Refused(EXIT_USAGE, f"{flag} does not apply here: it is only for --http")
    if not http:
        return
    port = args.port if args.port is not None else 0
    if not 0 <= port <= 65535:
        raise _Refused(EXIT_USAGE, f"--port {port}: not a TCP port (0-65535; 0 picks a free one)")
    if (args.host or "127.0.0.1") not in LOOPBACK_HOSTS and not os.environ.get(TOKEN_ENV):
        raise _Refused(EXIT_USAGE, f"--host {args.host}: serving beyond loopback needs a bearer token in ${TOKEN_ENV}")


def _load(args: Any) -> tuple[Any, Any]:
    from ..scenario.loader import ScenarioError, load
    from .profiles import ProfileError, load_profile

    try:
        profile = load_profile(args.profile)
    except ProfileError as e:
        raise _Refused(EXIT_USAGE, str(e)) from None
    try:
        sc = load(args.scenario)
    except ScenarioError as e:
        lines = [str(p) for p in e.problems]
        if not os.path.lexists(args.scenario):  # an id or a mistyped name: say which built-in file it means
            from a320bench.scenario_hint import missing_scenario_hint

            lines[0] += missing_scenario_hint(args.scenario)
        raise _Refused(EXIT_USAGE, *lines) from None

    from .factory import profile_tools

    try:
        profile_tools(profile)
    except ProfileError as e:
        raise _Refused(EXIT_USAGE, str(e)) from None
    return profile, sc


def _open(args: Any, profile: Any, sc: Any) -> tuple[Any, VerdictFile, Any]:
    """Set up, inject and gate (recording meta and setup); refuse when the scenario is invalid."""
    from ..trajectory import Recorder

    verdict_file = VerdictFile(args.result, profile.name)
    recorder = None
    try:
        if args.result:
            # Fail now, not silently at the end: clients rely on this file for the verdict.
            from ..trajectory import write_json_atomic

            try:
                write_json_atomic(args.result, {"scenario_id": sc.id, "reason": None, "status": "setting up"})
            except OSError as e:
                raise _Refused(EXIT_USAGE, f"cannot write the verdict {args.result}: {e.strerror or e}") from None
        recorder = Recorder(args.trajectory)
        if recorder.failure is not None:
            raise _Refused(EXIT_USAGE, recorder.failure)
        return _opened(args, profile, sc, recorder, verdict_file)
    except KeyboardInterrupt:  # the setup cut short: the files end interrupted, whole
        final = {"scenario_id": sc.id, "reason": EndReason.INTERRUPTED.value, "error": NOT_SERVED}
        if recorder is not None:
            recorder.write("final", **final)
            recorder.close()
        verdict_file(final)
        verdict_file.close()
        raise


def _opened(args: Any, profile: Any, sc: Any, recorder: Any, verdict_file: VerdictFile
            ) -> tuple[Any, VerdictFile, Any]:
    from ..scenario.harness import SetupError
    from ..session import open_episode

    try:
        ep = open_episode(sc, recorder, profile=profile.name, tools=list(profile.tools),
                          instructions=profile.instructions,
                          meta={"entry": "serve", "transport": "http" if getattr(args, "http", False) else "stdio",
                                "client": None},
                          # Evaluating a verdict costs about a millisecond: only when someone reads it.
                          on_verdict=verdict_file if verdict_file.path else None)
    except SetupError as e:
        final = {"scenario_id": sc.id, "reason": "invalid_scenario", "setup_error": str(e)}
        recorder.write("final", **final)
        verdict_file(final)
        recorder.close()
        verdict_file.close()
        raise _Refused(EXIT_INVALID_SCENARIO, f"{args.scenario}: scenario {sc.id} could not be set up: {e}") from None
    except Exception as e:  # a simulator bug during setup: ours, not the scenario's or the agent's
        log.exception("setting up %s failed", args.scenario)
        recorder.write("final", scenario_id=sc.id, reason="harness_error", error=f"{type(e).__name__}: {e}")
        recorder.close()
        raise _Refused(EXIT_INTERNAL, f"{args.scenario}: setup failed inside the harness: {type(e).__name__}: {e}"
                       ) from None
    if recorder.failure is not None:  # meta and setup did not reach the disk: serve nothing unrecorded
        recorder.close()
        verdict_file.close()
        raise _Refused(EXIT_USAGE, recorder.failure)
    if ep.ended == "invalid_scenario":
        recorder.close()
        verdict_file.close()
        raise _Refused(EXIT_INVALID_SCENARIO, f"{args.scenario}: validity gate failed for scenario {sc.id}: "
                                              f"{ep.gate.reason}; the agent was not served")
    if verdict_file.path:
        verdict_file(ep.verdict())  # a client that dies before its first call still leaves a verdict
    return recorder, verdict_file, ep


async def _serve(server: Any, finish: Callable[[], int]) -> int:
    """Serve until stdin closes; on SIGTERM (or Ctrl-C, or a hangup), finish at once and exit."""
    import anyio

    async def on_signal() -> None:
        with anyio.open_signal_receiver(*ending_signals()) as signals:
            async for _ in signals:
                code = finish()
                # The stdin reader blocks in a worker thread that cancellation cannot
                # interrupt; the verdict and the trajectory are on disk, so leave now
                # (a client escalates to SIGKILL 2 s after SIGTERM).
                sys.stderr.flush()
                os._exit(code)

    async with anyio.create_task_group() as tg:
        tg.start_soon(on_signal)
        await server.run_stdio_async()
        tg.cancel_scope.cancel()
    return finish()


async def _serve_http(episode: Any, profile: Any, finish: Callable[[], int], args: Any,
                      identified: Callable[[dict[str, Any]], None]) -> int:
    """Serve over Streamable HTTP until SIGTERM, Ctrl-C or a hangup, then finish the episode."""
    import anyio

    from .http import serve_http

    token = os.environ.get(TOKEN_ENV) or None
    try:
        async with serve_http(episode, profile, host=args.host or "127.0.0.1", port=args.port or 0, token=token,
                              auth=token is not None, on_client_identified=identified) as endpoint:
            with anyio.open_signal_receiver(*ending_signals()) as signals:
                auth = f"; clients send the bearer token in ${TOKEN_ENV}" if token else "; no token (loopback only)"
                print(f"serving {episode.scenario.id} ({profile.name} profile) at {endpoint.url}{auth}; "
                      "Ctrl-C or SIGTERM ends the episode", file=sys.stderr, flush=True)
                async for _ in signals:
                    break
    except OSError as e:
        print(f"error: cannot serve on {args.host or '127.0.0.1'}:{args.port or 0}: {e.strerror or e}",
              file=sys.stderr, flush=True)
        finish()
        return EXIT_USAGE
    return finish()
