"""`a320-bench run`: episodes of a provider, model or external client, in parallel, resumable.

Output layout: <out>/<scenario_id>/<label>__run<NNN>.jsonl per episode and
<out>/run-<timestamp>.json per invocation. Rerunning into the same --out
skips episodes that already have a `final` event (unless --force) and reruns
incomplete ones, so a run killed at any point loses and duplicates nothing.
"""

from __future__ import annotations

import hashlib
import json
import shlex
import sys
from collections import Counter
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from . import exitcodes
from .cli import CliError


MAX_RUNS = 10_000  # episodes per scenario; the plan is built up front


@dataclass
class Planned:
    index: int
    scenario: Any
    run_index: int
    path: Path


def _label(args) -> str:
    from .selection import slug

    if args.client:
        return slug(f"{args.client}-{args.client_model}" if args.client_model else args.client)
    if args.model:
        return slug(args.model)
    return args.provider or "scripted"


def run_command(args) -> int:
    from a320bench.paths import PathSpecError

    from .envfile import EnvFileError, apply_env_file, environment_secrets, redact
    from .selection import parse_task_ids, scenario_files

    if not 1 <= args.runs <= MAX_RUNS:
        raise CliError(f"--runs must be between 1 and {MAX_RUNS}")
    if args.workers < 1:
        raise CliError("--workers must be at least 1")
    if args.max_retries < 0:
        raise CliError("--max-retries must be 0 or more")
    secrets: list[str] = []
    if args.env_file:
        try:
            secrets += apply_env_file(args.env_file)
        except EnvFileError as e:
            raise CliError(str(e)) from None
    secrets += environment_secrets()
    sampling: dict[str, Any] = {}
    if args.sampling:
        try:
            sampling = json.loads(args.sampling)
        except json.JSONDecodeError as e:
            raise CliError(f"--sampling is not valid JSON: {e.msg} at column {e.colno}") from None
        if not isinstance(sampling, dict):
            raise CliError("--sampling must be a JSON object, e.g. '{\"temperature\": 0}'")
    if args.provider == "replay" and not args.replay_from:
        raise CliError("--provider replay needs --replay-from RUNS_FOLDER")
    if args.client == "cmd" and not args.client_cmd:
        raise CliError("--client cmd needs --client-cmd '...'")

    try:
        files = scenario_files(args.scenario)
    except PathSpecError as e:
        raise CliError(str(e)) from None
    from a320bench.server.scenario.loader import load_all

    scenarios, problems = load_all(files)
    if problems:
        for p in problems:
            print(f"error: {p}", file=sys.stderr)
        return exitcodes.USAGE
    if args.task_id:
        try:
            scenarios = [scenarios[i] for i in parse_task_ids(args.task_id, len(scenarios))]
        except ValueError as e:
            raise CliError(str(e)) from None

    from a320bench.server.surface.profiles import ProfileError, load_profile

    try:
        profile = load_profile(args.profile)
    except ProfileError as e:
        raise CliError(str(e)) from None

    if args.client:
        from .clients.runner import make_client

        agent = make_client(args)
    else:
        from .providers import MissingExtra, make_provider

        name = "litellm" if args.model else (args.provider or "scripted")
        if name == "litellm":
            from .providers.litellm_agent import check_model

            try:
                check_model(args.model)
            except ValueError as e:
                raise CliError(str(e)) from None
        try:
            agent = make_provider(name, model=args.model, sampling=sampling, max_retries=args.max_retries,
                                  seed=args.seed, replay_from=args.replay_from)
        except MissingExtra as e:
            raise CliError(str(e)) from None

    out = Path(args.out)
    if out.exists() and not out.is_dir():
        raise CliError(f"--out {out}: exists and is not a folder")
    label = _label(args)
    plan: list[Planned] = []
    skipped = 0
    from a320bench.server.trajectory import is_complete

    for sc in scenarios:
        for r in range(args.runs):
            path = out / sc.id / f"{label}__run{r:03d}.jsonl"
            if not args.force and path.exists() and is_complete(path):
                skipped += 1
                continue
            plan.append(Planned(len(plan), sc, r, path))
    if args.provider == "replay":
        for p in plan:
            if agent.find(p.scenario.id, p.run_index) is None:
                raise CliError(f"--replay-from {args.replay_from}: no recorded trajectory for {p.scenario.id} run {p.run_index}")

    started = datetime.now(timezone.utc)
    out.mkdir(parents=True, exist_ok=True)
    record_path = out / f"run-{started.strftime('%Y%m%dT%H%M%S%fZ')}.json"
    from a320bench.server.session import scenario_hash, sha256_text, versions

    selection_hash = hashlib.sha256("".join(scenario_hash(s) for s in scenarios).encode()).hexdigest()
    record: dict[str, Any] = {
        "command": redact(" ".join(["a320-bench", *args.argv]), secrets),
        "started_at": started.isoformat(timespec="seconds"),
        "versions": versions(),
        "scenarios": [s.id for s in scenarios],
        "selection_sha256": selection_hash,
        "profile": profile.name,
        "instructions_sha256": sha256_text(profile.instructions),
        "provider": getattr(agent, "name", None),
        "model": getattr(agent, "model", None),
        "client": args.client,
        "sandbox": agent.prepare(out) if args.client else None,  # the client's isolation policy
        "sampling": sampling,
        "runs": args.runs,
        "workers": args.workers,
        "planned": len(plan),
        "skipped_complete": skipped,
        "counts": {},
        "finished_at": None,
    }
    from a320bench.server.trajectory import write_json_atomic

    write_json_atomic(record_path, json.loads(redact(json.dumps(record), secrets)))

    import anyio

    results = anyio.run(_run_all, plan, agent, profile, tuple(secrets), args)
    counts = Counter(r.reason for r in results)
    record["counts"] = dict(sorted(counts.items()))
    record["finished_at"] = datetime.now(timezone.utc).isoformat(timespec="seconds")
    write_json_atomic(record_path, json.loads(redact(json.dumps(record), secrets)))

    if skipped:
        print(f"{skipped} episode(s) already complete in {out} (use --force to rerun)", file=sys.stderr)
    _print_summary(out, scenarios, label)
    print(f"run record: {record_path}", file=sys.stderr)
    print(f"make the report: a320-bench report {shlex.quote(str(out))}", file=sys.stderr)
    replay_bad = [r for r in results if r.replay_same is False]
    for r in replay_bad:
        print(f"error: replay of {r.scenario_id} run {r.run_index} ended in a different state: a determinism bug",
              file=sys.stderr)
    if counts.get("invalid_scenario"):
        return exitcodes.INVALID_SCENARIO
    if counts.get("client_error"):
        return exitcodes.CLIENT_ERROR
    if counts.get("provider_error"):
        return exitcodes.PROVIDER_ERROR
    if counts.get("harness_error") or replay_bad:
        return exitcodes.INTERNAL
    return exitcodes.OK


async def _run_all(plan: list[Planned], agent: Any, profile: Any, secrets: tuple[str, ...], args) -> list[Any]:
    import anyio

    from .runner import EpisodeResult, run_episode

    limiter = anyio.CapacityLimiter(args.workers)
    results: list[EpisodeResult] = []
    progress = None
    if not args.no_progress and plan:
        from rich.console import Console
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

        progress = Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                            console=Console(stderr=True), transient=True)
    task_id = progress.add_task("episodes", total=len(plan)) if progress else None

    async def one(p: Planned) -> None:
        async with limiter:
            episode_id = f"{p.scenario.id}/{p.path.stem}"
            try:
                if args.client:
                    res = await agent.run_episode(p.scenario, profile=profile, path=p.path, run_index=p.run_index,
                                                  episode_id=episode_id, secrets=secrets)
                else:
                    res = await run_episode(p.scenario, agent, profile=profile, path=p.path, run_index=p.run_index,
                                            episode_id=episode_id, seed=args.seed, secrets=secrets)
            except Exception as e:  # a harness bug: never the agent's fault; the file stays incomplete
                print(f"error: {episode_id}: harness error: {type(e).__name__}: {e}", file=sys.stderr)
                res = EpisodeResult(p.scenario.id, p.run_index, p.path, "harness_error", False, False, {})
            results.append(res)
            if progress is not None:
                progress.advance(task_id)

    if progress is not None:
        progress.start()
    terminated: list[int] = []
    try:
        async with anyio.create_task_group() as watch:
            watch.start_soon(_cancel_on_sigterm, watch.cancel_scope, terminated)
            async with anyio.create_task_group() as tg:
                for p in plan:
                    tg.start_soon(one, p)
            watch.cancel_scope.cancel()
    finally:
        if progress is not None:
            progress.stop()
    if terminated:  # in-flight episodes have ended as interrupted; stop like Ctrl-C does
        raise KeyboardInterrupt
    return results


async def _cancel_on_sigterm(scope: Any, terminated: list[int]) -> None:
    """SIGTERM stops the run as Ctrl-C does: every episode in flight is cancelled and ends
    `interrupted` (no child process outlives it)."""
    import signal
    import threading

    import anyio

    if threading.current_thread() is not threading.main_thread():  # signals reach the main thread only
        return
    with anyio.open_signal_receiver(signal.SIGTERM) as signals:
        async for signum in signals:
            terminated.append(signum)
            scope.cancel()
            return


def _print_summary(out: Path, scenarios: list[Any], label: str) -> None:
    """The score table of this run's episodes (all runs of this label in --out)."""
    files = [f for sc in scenarios for f in sorted((out / sc.id).glob(f"{label}__run*.jsonl"))]
    if not files:
        return
    from .score.cli import print_table_for

    print_table_for(files)
