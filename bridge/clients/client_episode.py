"""`make_client(args)` and one episode of an external MCP client.

Per run, once (`prepare`): find the client's program and set up its sandbox
policy (sandbox.py); either failing is an infrastructure error that every
episode then reports before it starts, in one line printed once.

Per episode: open the episode in this process (a broken scenario never reaches
a client, and costs no tokens) -> serve it over Streamable HTTP on loopback, a
fresh port and bearer token (server/surface/http.py) -> the client, in its
sandbox and its own process group, under --client-timeout, given an MCP config
that names only the URL, the token and an opaque episode id -> the episode ends
(report_done, a budget; else end_turn_without_done when the client stops, or
client_timeout when its time runs out) -> client_report and the final that
stands (record.py) -> an EpisodeResult.

The scenario, the verdict and the trajectory never leave this process and the
run folder; the client sees none of them.

A client's fault (faults.py) makes the episode `client_error` when it is the
infrastructure's (the client or its sandbox not there, our server not connected,
our tools denied, a transient API status before report_done): reported on stderr,
recorded as the final, scored only when the agent had changed the aircraft;
`run` then exits CLIENT_ERROR while the other episodes go on. A client that
ends badly on its own after our server answered one of its MCP requests (a
failing exit, an API error of the conversation) is `agent_error`, the agent's
result; after
report_done or a budget, a fault changes nothing but the client_report. An
agent that did badly, or ran out of time, is a result.
Cancelled (Ctrl-C, SIGTERM), the episode ends `interrupted` and the client is
killed before the cancellation goes on. A trajectory the disk refuses makes the
episode `storage_error` (no client is started when meta and setup could not be
written), as for an in-process episode.
"""

from __future__ import annotations

import json
import os
import secrets as random_ids
import sys
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import anyio

from a320bench.secrets import NO_SECRETS, Scrubber
from a320bench.server.end_reason import EndReason

from .. import console
from ..errors import UsageError
from ..inprocess_episode import EpisodeResult, companions
from .faults import ClientFault, FaultKind, describe, fault_end
from .locate import ClientNotFound
from .process import ProcessOutcome, run_in_group
from .record import HeldFinalRecorder, standing_final
from .sandbox import CONFIG, WORK, DataFile, Sandbox, SandboxError, build, ca_paths, environment, find_bwrap

SERVER_NAME = "a320"


def make_client(args: Any, scenario_files: Sequence[Path] = ()) -> ExternalClient:
    """The client of `run --client claude|cmd` (run.check_flags has checked the flags), kept from
    the run's inputs: `scenario_files` (the selection), the folders named in --scenario and the
    --env-file. A bad --client-cmd, or a client program that is not there, is a usage error."""
    if args.client == "claude" and getattr(args, "offline_demo", False):
        from .offline_demo import OfflineDemoClaude

        impl: Any = OfflineDemoClaude(args.client_timeout)
    elif args.client == "claude":
        from .claude import ClaudeClient

        impl = ClaudeClient(args.client_model, args.client_timeout)
    elif args.client == "cmd":
        from .command import CommandClient, TemplateError

        try:
            impl = CommandClient(args.client_cmd or "", args.client_model, args.client_timeout)
        except TemplateError as e:
            raise UsageError(str(e)) from None
    else:
        raise UsageError(f"unknown client {args.client!r}")
    try:  # a program that is not there is the run's configuration: refused before any episode is flown
        impl.locate()
    except ClientNotFound as e:
        raise UsageError(str(e)) from None
    named = [Path(spec) for spec in args.scenario or () if Path(spec).is_dir()]
    env_file = [Path(args.env_file)] if getattr(args, "env_file", None) else []
    return ExternalClient(impl, inputs=[*scenario_files, *named, *env_file])


def mcp_config(url: str, token: str) -> dict[str, Any]:
    """All a client is told: where the episode is served and the token it must send."""
    return {"mcpServers": {SERVER_NAME: {"type": "http", "url": url, "headers": {"Authorization": f"Bearer {token}"}}}}


def hidden_paths(out: Path, inputs: Sequence[Path] = ()) -> list[Path]:
    """What a client must not see: the run folder, the run's inputs (scenario files and folders,
    the env file), this installation (package, scenarios, profiles), the source checkout it comes
    from, and the virtual environment."""
    import a320bench
    import a320bench.bridge
    import a320bench.profiles
    import a320bench.scenarios
    import a320bench.server

    packages = [Path(m.__file__).resolve().parent for m in (a320bench, a320bench.bridge, a320bench.server,
                                                            a320bench.profiles, a320bench.scenarios)]
    hidden = [Path(out).resolve(), *(Path(p).resolve() for p in inputs), *packages]
    common = Path(os.path.commonpath(packages))
    if (common / "pyproject.toml").is_file():  # an editable install: the whole checkout
        hidden.append(common)
    if sys.prefix != sys.base_prefix:  # a virtual environment: its site-packages hold this package
        hidden.append(Path(sys.prefix).resolve())
    return hidden


class ExternalClient:
    """What `run` drives: `name`, `model`, `prepare(out)` and `run_episode(...)`, over a client implementation."""

    def __init__(self, impl: Any, inputs: Sequence[Path] = ()):
        self.impl = impl
        # Part of the client, so that a process that flies its episodes (a Ray task) and sets its
        # sandbox up keeps them out too.
        self.inputs = tuple(Path(p).resolve() for p in inputs)
        self.name: str = impl.name
        self.model: str | None = impl.model
        self._printed: set[str] = set()
        self._setup: tuple[Path, Sandbox, dict[str, str]] | str | None = None
        self._out: Path | None = None  # the run folder the sandbox was set up for

    def hide_also(self, *paths: Path) -> None:
        """Keep `paths` from the client too (where a Ray task flies its chains), and the run folder the
        sandbox was set up for as well: the sandbox is set up again for the next episode."""
        more = [q for q in (Path(p).resolve() for p in (*paths, *([self._out] if self._out else [])))
                if q not in self.inputs]
        if more:
            self.inputs = (*self.inputs, *more)
            self._setup = None

    def prepare(self, out: Path) -> dict[str, Any]:
        """Find the client and set up its sandbox (once per run); the policy for the run record."""
        if self._setup is None:
            self._out = Path(out).resolve()
            try:
                exe = self.impl.locate().resolve()
                hidden = hidden_paths(out, self.inputs)
                env, dropped = environment(os.environ, hidden, self.impl.environment())
                box = build(find_bwrap(), [*self.impl.paths(exe), *ca_paths(env)], hidden, dropped)
                self._setup = (exe, box, env)
            except (ClientNotFound, SandboxError) as e:
                self._setup = str(e)
        if isinstance(self._setup, str):
            return {"error": self._setup}
        return self._setup[1].policy()

    async def run_episode(self, sc: Any, *, profile: Any, path: Path, run_index: int, episode_id: str,
                          scrubber: Scrubber = NO_SECRETS, learnings: Any = None) -> EpisodeResult:
        from a320bench.server.session import open_episode

        path = Path(path).resolve()
        transcript = path.with_name(path.name.removesuffix(".jsonl") + self.impl.transcript_suffix)
        policy = self.prepare(path.parent.parent)
        token, opaque_id = random_ids.token_urlsafe(32), random_ids.token_hex(8)
        scrubber = scrubber.merged([token])
        meta = {"entry": "run", "transport": "http", "client": self.name, "client_model": self.model,
                "run_index": run_index, "episode_id": episode_id, "agent_episode_id": opaque_id,
                **companions(profile, None, learnings)}
        report: dict[str, Any] = {"client": self.name, "model": self.model, "run_index": run_index,
                                  "episode_id": episode_id, "sandbox": policy}
        rec = HeldFinalRecorder(path, scrubber=scrubber)
        ep = None
        try:
            ep = open_episode(sc, rec, profile=profile.name, tools=list(profile.tools),
                              instructions=profile.instructions, meta=meta)
            if ep.ended == EndReason.INVALID_SCENARIO:  # the gate failed: no client is started
                rec.close_episode(None, ep.final or {})
                return EpisodeResult(sc.id, run_index, path, ep.ended, False, False, ep.final or {})
            if rec.failure is not None:  # meta and setup did not reach the disk: serve nothing unrecorded
                ep.finish(EndReason.STORAGE_ERROR, error=rec.failure)
                rec.close_episode(None, ep.final or {})
                return _storage_error(sc.id, run_index, path, rec, ep.final or {})
            errors: list[ClientFault] = []
            if isinstance(self._setup, str):
                errors.append(ClientFault(FaultKind.SETUP, self._setup))
            else:
                exe, box, env = self._setup
                transcript.unlink(missing_ok=True)  # an earlier, incomplete attempt
                backend = getattr(self.impl, "episode_backend", None)  # the offline demo's model
                async with backend(sc, profile, SERVER_NAME) if backend else _no_backend() as changes:
                    env = {k: v for k, v in {**env, **changes}.items() if v is not None}
                    outcome, invocation = await self._run(exe, box, env, ep, profile, sc.task_prompt, transcript,
                                                          token, opaque_id, scrubber, learnings)
                errors += self._assess(outcome, invocation, report, transcript, profile)
            own_end = ep.ended
            timed_out = bool(report.get("timed_out"))
            report["error"] = scrubber.text(describe(errors) or "") or None
            imposed = fault_end(errors, own_end, ep.agent_connected)
            if imposed == EndReason.AGENT_ERROR:  # the client's own end after it reached the aircraft
                ep.finish(EndReason.AGENT_ERROR, error=report["error"])
            else:
                ep.finish(EndReason.CLIENT_TIMEOUT if timed_out else EndReason.END_TURN_WITHOUT_DONE)
            final = dict(ep.final or {})
            if imposed == EndReason.CLIENT_ERROR and ep.ended != EndReason.HARNESS_ERROR:  # our own bug stays ours
                final = standing_final(final, EndReason.CLIENT_ERROR, episode_reason=own_end,
                                       client_error=report["error"])
                self._print_once(f"error: {episode_id}: client_error: {report['error']}")
            elif imposed == EndReason.AGENT_ERROR:
                console.note(f"note: {episode_id}: agent_error (the agent's result): {report['error']}")
            elif errors:
                console.note(f"note: {episode_id}: after {own_end}, {self.name} failed (kept in its client_report; "
                             f"the episode stands): {report['error']}")
            elif ep.ended == EndReason.CLIENT_TIMEOUT:
                self._print_once(f"note: {episode_id}: {self.name} ran out of its {self.impl.timeout_s:g} s "
                                 "(client_timeout: the agent's result)")
            rec.close_episode(report, final)
            if rec.failure is not None:  # the file lacks events: never a result, whatever the verdict says
                return _storage_error(sc.id, run_index, path, rec, final)
            gate = final.get("gate") if isinstance(final.get("gate"), dict) else {}
            success = final["reason"] != EndReason.CLIENT_ERROR and bool((final.get("success") or {}).get("passed"))
            return EpisodeResult(sc.id, run_index, path, str(final["reason"]), success,
                                 bool(gate.get("passed", True)), final)
        except BaseException as e:  # cancelled (Ctrl-C, SIGTERM) or our bug: never the agent's result
            if ep is not None and not rec.finished:
                stopped = isinstance(e, (KeyboardInterrupt, SystemExit, anyio.get_cancelled_exc_class()))
                _close_early(rec, ep, report, EndReason.INTERRUPTED if stopped else EndReason.HARNESS_ERROR)
            raise
        finally:
            rec.close()

    async def _run(self, exe: Path, box: Sandbox, env: dict[str, str], ep: Any, profile: Any, prompt: str,
                   transcript: Path, token: str, opaque_id: str, scrubber: Scrubber, learnings: Any = None
                   ) -> tuple[ProcessOutcome, dict[str, Any]]:
        from a320bench.server.session import sha256_text
        from a320bench.server.surface.http import serve_http

        system_prompt = profile.instructions
        async with serve_http(ep, profile, path=f"/{opaque_id}/mcp", token=token, learnings=learnings) as endpoint:
            config = mcp_config(endpoint.url, token)
            argv = self.impl.argv(exe, config=CONFIG, prompt=prompt, system_prompt=system_prompt,
                                  server=SERVER_NAME)
            files = [DataFile(CONFIG, json.dumps(config, indent=2).encode()), *self.impl.home_files()]
            command, fds = box.command(argv, files)
            try:
                outcome = await run_in_group(command, env=env, stdout=transcript, timeout_s=self.impl.timeout_s,
                                             pass_fds=tuple(fds), scrub=scrubber.text)
            finally:
                for fd in fds:
                    os.close(fd)
        invocation = {
            "argv": argv,
            "cwd": WORK,
            "env_forced": self.impl.environment(),
            "mcp_config": config,  # the token is scrubbed from the record like any secret
            "server": SERVER_NAME,
            "system_prompt_mode": self.impl.system_prompt_mode,
            "system_prompt_sha256": sha256_text(system_prompt),
            "prompt_sha256": sha256_text(prompt),
            "timeout_s": self.impl.timeout_s,
        }
        return outcome, invocation

    def _assess(self, outcome: ProcessOutcome, invocation: dict[str, Any], report: dict[str, Any],
                transcript: Path, profile: Any) -> list[ClientFault]:
        """Fill the report from what the client did and said; its faults (faults.py)."""
        fields, errors = self.impl.report(transcript, outcome, SERVER_NAME, list(profile.tools))
        tail = outcome.stderr_tail or None
        report.update(fields)
        report.update(invocation=invocation, exit_code=outcome.exit_code, timed_out=outcome.timed_out,
                      wall_s=outcome.wall_s, transcript=transcript.name if transcript.exists() else None,
                      stderr_tail=tail)
        if outcome.start_error:
            errors.insert(0, ClientFault(FaultKind.SETUP, f"{self.name} could not be started: {outcome.start_error}"))
        if errors and outcome.exit_code not in (0, None) and tail:
            errors.append(ClientFault(errors[-1].kind, f"its stderr ends: {tail.strip().splitlines()[-1][:300]}"))
        return errors

    def _print_once(self, line: str) -> None:
        # The same message for every episode (claude not installed) is printed once.
        key = line.split(": ", 2)[-1]
        if key in self._printed:
            return
        self._printed.add(key)
        console.note(line)


@asynccontextmanager
async def _no_backend() -> AsyncIterator[dict[str, str | None]]:
    yield {}


def _storage_error(scenario_id: str, run_index: int, path: Path, rec: HeldFinalRecorder,
                   final: dict[str, Any]) -> EpisodeResult:
    return EpisodeResult(scenario_id, run_index, path, EndReason.STORAGE_ERROR, False,
                         bool((final.get("gate") or {}).get("passed")), final, error=rec.failure)


def _close_early(rec: HeldFinalRecorder, ep: Any, report: dict[str, Any], reason: EndReason) -> None:
    """The episode's final when it stops before the client is done: `run` was interrupted
    (or our own code failed), whatever the agent did so far."""
    own_end = ep.ended
    try:
        ep.finish(reason)
        verdict = dict(ep.final or {})
    except Exception as e:  # the verdict needs the simulator; if that is what broke, say so
        verdict = {"scenario_id": ep.scenario.id, "error": f"{type(e).__name__}: {e}"}
    report.update(interrupted=reason == EndReason.INTERRUPTED)
    rec.close_episode(report, standing_final(verdict, reason, episode_reason=own_end))
