"""`make_client(args)` and one episode of an external MCP client driving `a320-bench serve`.

Per episode: check the validity gate in-process (a broken scenario never reaches a
client, and costs no tokens) -> a fresh temp folder with the scenario, the MCP
config and an empty working directory -> the client, in its own process group,
under --client-timeout -> its report folded into the trajectory the server wrote
(`record`) -> an EpisodeResult.

An infrastructure error (the client not found or not starting, our server not
connected, our tools denied, the wall-clock limit, no verdict from the server,
an error the client reports) makes the episode `client_error`: reported on stderr,
recorded as the last `final`, excluded from means by scoring; `run` then exits
CLIENT_ERROR while the other episodes go on. An agent that did badly is a result.
"""

from __future__ import annotations

import json
import os
import sys
import tempfile
from pathlib import Path
from typing import Any

from ..runner import EpisodeResult
from .locate import ClientNotFound
from .process import ProcessOutcome, run_in_group
from .record import CLIENT_ERROR, append_events, client_error_final, last_final, read_trajectory, redact_file

SERVER_NAME = "a320"
STDERR_TAIL_CHARS = 4000


def make_client(args: Any) -> ExternalClient:
    """The client of `run --client claude|cmd`; a bad --client-cmd is a usage error."""
    from ..cli import CliError

    if args.client_timeout is not None and args.client_timeout <= 0:
        raise CliError("--client-timeout must be positive")
    if args.client == "claude":
        from .claude import ClaudeClient

        impl: Any = ClaudeClient(args.client_model, args.client_timeout)
    elif args.client == "cmd":
        from .command import CommandClient, TemplateError

        try:
            impl = CommandClient(args.client_cmd or "", args.client_model, args.client_timeout)
        except TemplateError as e:
            raise CliError(str(e)) from None
    else:
        raise CliError(f"unknown client {args.client!r}")
    return ExternalClient(impl)


def server_command(scenario_file: Path, profile: str, trajectory: Path, verdict: Path) -> list[str]:
    return [sys.executable, "-m", "a320bench", "serve", "--scenario", str(scenario_file), "--profile", profile,
            "--trajectory", str(trajectory), "--result", str(verdict)]


def mcp_config(command: list[str]) -> dict[str, Any]:
    return {"mcpServers": {SERVER_NAME: {"type": "stdio", "command": command[0], "args": command[1:]}}}


class ExternalClient:
    """What `run` drives: `name`, `model` and `run_episode(...)`, over a client implementation."""

    def __init__(self, impl: Any):
        self.impl = impl
        self.name: str = impl.name
        self.model: str | None = impl.model
        self._printed: set[str] = set()

    async def run_episode(self, sc: Any, *, profile: Any, path: Path, run_index: int, episode_id: str,
                          secrets: tuple[str, ...] = ()) -> EpisodeResult:
        path = Path(path).resolve()
        path.parent.mkdir(parents=True, exist_ok=True)
        transcript = path.with_name(path.name.removesuffix(".jsonl") + self.impl.transcript_suffix)
        meta = {"entry": "run", "transport": "stdio", "client": self.name, "client_model": self.model,
                "run_index": run_index, "episode_id": episode_id}
        gate = _gate_refusal(sc, profile, path, meta, secrets)
        if gate is not None:
            return gate
        for stale in (path, transcript):  # an earlier, incomplete attempt
            stale.unlink(missing_ok=True)
        report: dict[str, Any] = {"client": self.name, "model": self.model, "run_index": run_index,
                                  "episode_id": episode_id}
        errors: list[str] = []
        verdict: dict[str, Any] | None = None
        try:
            exe = self.impl.locate()
        except ClientNotFound as e:
            exe = None
            errors.append(str(e))
        if exe is not None:
            with tempfile.TemporaryDirectory(prefix=f"a320-bench-{self.name}-") as tmp:
                outcome, invocation, verdict, stderr_tail = await self._run(exe, sc, profile, path, transcript,
                                                                           Path(tmp))
            redact_file(transcript, secrets)
            fields, client_errors = self.impl.report(transcript, outcome, SERVER_NAME, list(profile.tools))
            report.update(fields)
            report.update(invocation=invocation, exit_code=outcome.exit_code, timed_out=outcome.timed_out,
                          wall_s=outcome.wall_s, leftovers_killed=outcome.leftovers_killed,
                          transcript=transcript.name if transcript.exists() else None, stderr_tail=stderr_tail)
            if outcome.start_error:
                errors.append(f"{self.name} could not be started: {outcome.start_error}")
            if outcome.timed_out:
                errors.append(f"{self.name} exceeded its wall-clock limit of {self.impl.timeout_s:g} s; "
                              "its process group was killed")
            errors += client_errors
            if verdict is None and not errors:
                errors.append("the server left no verdict file (the client never started it?)")
            if errors and outcome.exit_code not in (0, None) and stderr_tail:
                errors.append(f"its stderr ends: {stderr_tail.strip().splitlines()[-1][:300]}")
        return self._fold(sc, profile, path, meta, report, errors, verdict, secrets)

    async def _run(self, exe: Path, sc: Any, profile: Any, path: Path, transcript: Path, root: Path):
        import yaml

        from a320bench.server.session import sha256_text

        work = root / "work"  # the client's working directory: empty
        work.mkdir()
        scenario_file = root / f"{sc.id}.yaml"
        scenario_file.write_text(yaml.safe_dump(sc.model_dump(mode="json"), sort_keys=False, allow_unicode=True),
                                 encoding="utf-8")
        verdict_file = root / "verdict.json"
        config = root / "mcp.json"
        command = server_command(scenario_file, profile.name, path, verdict_file)
        config.write_text(json.dumps(mcp_config(command), indent=2), encoding="utf-8")
        prompt, system_prompt = sc.task_prompt, profile.instructions
        argv = self.impl.argv(exe, config=config, prompt=prompt, system_prompt=system_prompt, server=SERVER_NAME)
        forced = self.impl.environment()
        env = {**os.environ, **forced}
        stderr = root / "stderr.txt"
        outcome: ProcessOutcome = await run_in_group(argv, cwd=work, env=env, stdout=transcript, stderr=stderr,
                                                     timeout_s=self.impl.timeout_s)
        verdict = None
        try:
            verdict = json.loads(verdict_file.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            pass
        try:
            tail = stderr.read_text(encoding="utf-8", errors="replace")[-STDERR_TAIL_CHARS:] or None
        except OSError:
            tail = None
        invocation = {
            "argv": argv,
            "cwd": "<empty temp folder>",
            "env_forced": forced,
            "mcp_config": mcp_config(command),
            "server": SERVER_NAME,
            "system_prompt_mode": self.impl.system_prompt_mode,
            "system_prompt_sha256": sha256_text(system_prompt),
            "prompt_sha256": sha256_text(prompt),
            "timeout_s": self.impl.timeout_s,
        }
        return outcome, invocation, verdict, tail

    def _fold(self, sc: Any, profile: Any, path: Path, meta: dict[str, Any], report: dict[str, Any],
              errors: list[str], verdict: dict[str, Any] | None, secrets: tuple[str, ...]) -> EpisodeResult:
        """Append client_report (and, on an infrastructure error, a client_error final) to the trajectory."""
        events, cut = read_trajectory(path)
        if cut:
            report["trajectory_torn_line_removed"] = True
        if not events or events[0].get("type") != "meta":  # the client never reached the server
            if not errors:
                errors.append("the server wrote no trajectory")
            events, opening_verdict = _write_opening(sc, profile, path, meta, secrets)
            verdict = verdict or opening_verdict
        server_final = last_final(events)
        if server_final is None and not errors:
            errors.append("the server wrote no final event")
        report["error"] = "; ".join(errors) or None
        to_append: list[tuple[str, dict[str, Any]]] = [("client_report", report)]
        if errors:
            final = client_error_final(report["error"], server_final=server_final, verdict=verdict,
                                       scenario_id=sc.id)
            to_append.append(("final", final))
            self._print_once(f"error: {meta['episode_id']}: client_error: {report['error']}")
        else:
            final = {k: v for k, v in server_final.items() if k not in ("type", "schema_version", "ts")}
        append_events(path, to_append, secrets)
        reason = str(final.get("reason") or "")
        gate = final.get("gate") if isinstance(final.get("gate"), dict) else {}
        success = reason != CLIENT_ERROR and bool((final.get("success") or {}).get("passed"))
        return EpisodeResult(sc.id, meta["run_index"], path, reason, success, bool(gate.get("passed", True)), final)

    def _print_once(self, line: str) -> None:
        # The same message for every episode (claude not installed) is printed once.
        key = line.split(": client_error: ", 1)[-1]
        if key in self._printed:
            return
        self._printed.add(key)
        print(line, file=sys.stderr)


def _gate_refusal(sc: Any, profile: Any, path: Path, meta: dict[str, Any],
                  secrets: tuple[str, ...]) -> EpisodeResult | None:
    """An invalid_scenario result (its trajectory written) when the validity gate fails, else None."""
    from a320bench.server.session import open_episode
    from a320bench.server.trajectory import Recorder

    probe = open_episode(sc, Recorder(None), profile=profile.name, tools=list(profile.tools),
                         instructions=profile.instructions, meta=meta)
    if probe.ended != "invalid_scenario":
        return None
    with Recorder(path, secrets=secrets) as rec:
        ep = open_episode(sc, rec, profile=profile.name, tools=list(profile.tools),
                          instructions=profile.instructions, meta=meta)
    final = ep.final or {}
    return EpisodeResult(sc.id, meta["run_index"], path, "invalid_scenario", False, False, final)


def _write_opening(sc: Any, profile: Any, path: Path, meta: dict[str, Any],
                   secrets: tuple[str, ...]) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """meta + setup, as the server would have written them, for an episode the client never opened;
    and the verdict of that untouched episode."""
    from a320bench.server.session import open_episode
    from a320bench.server.trajectory import Recorder

    with Recorder(path, secrets=secrets) as rec:
        ep = open_episode(sc, rec, profile=profile.name, tools=list(profile.tools),
                          instructions=profile.instructions, meta=meta)
        return list(rec.events), ep.verdict()
