"""`a320-bench run`: episodes of a provider, model or external client, in parallel, resumable.

Output layout: <out>/<scenario_id>/<label>__run<NNN>.jsonl per episode and
<out>/run-<timestamp>.json per invocation. Rerunning into the same --out
skips episodes that already ended with a result (unless --force) and reruns
the others (server/end_reason.py `rerun_on_resume`), so a run killed at any
point loses and duplicates nothing.

Ctrl-C, SIGTERM or a hangup (not under nohup): the episodes in flight end `interrupted` (recorded as their
final), the run record says so, exit 130. An output the disk refuses before any
episode is a usage error (exit 2); during the run, the episode ends
`storage_error`, no further episode starts, exit 74.

Where the episodes fly is the executor's business (bridge/executors: worker processes
on this machine, or Ray); which episodes, the plan's (bridge/plan.py: the selection,
--shard, resume). `--dry-run` resolves both, writes the run record and prints the
plan without flying anything.
"""

from __future__ import annotations

import json
import math
import re
import shlex
import signal
import threading
from collections import Counter
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from a320bench.ending_signals import ending_signals
from a320bench.secrets import Scrubber, environment_secrets, redact_credentials, sampling_secrets
from a320bench.server.end_reason import EndReason

from . import console, exitcodes, interrupts
from .errors import OutputError, UsageError
from .plan import build_plan, describe, parse_shard, selection_hash
from .run_manifest import planned_episodes

MAX_RUNS = 10_000  # episodes per scenario; the plan is built up front
MAX_TOP_K = 50  # --retrieve-learnings-top-k
DEFAULTS = {"client_timeout": 600.0, "max_retries": 3, "request_timeout": 120.0, "seed": 0}
# What the litellm provider sets itself; --sampling may not (it would fail inside the call).
RESERVED_SAMPLING = ("model", "messages", "tools", "timeout", "num_retries", "max_retries", "stream")


def agent_text(args) -> str | None:
    """What drives the episodes, as `--agent` would name it (None: an external client)."""
    if args.client:
        return None
    return args.agent or args.provider or ("litellm" if args.model else "scripted")


def _label(args, agent: Any) -> str:
    from .selection import source_label

    if args.client:
        return source_label(None, None, args.client, args.client_model)
    return source_label(args.spec.name, getattr(agent, "model", None), reasoning_level=args.reasoning_level)


_REASONING = re.compile(r"^[a-z0-9][a-z0-9_-]{0,23}$")


def check_flags(args) -> None:
    """Refuse, in one line, a flag that does not apply to this kind of run; then fill in defaults."""
    from .providers import resolve

    text = agent_text(args)
    args.spec = spec = resolve(text) if text else None  # UsageError when it names nothing
    name = spec.name if spec else None
    models = bool(spec and spec.takes_model)  # the litellm loop and plug-ins take model settings
    plugin = bool(spec and spec.plugin)
    only = {
        "--model": (args.model, models, "--agent litellm and plug-in agents (a client takes --client-model)"),
        "--replay-from": (args.replay_from, name == "replay", "--provider replay"),
        "--replay-of": (args.replay_of, name == "replay", "--provider replay"),
        "--seed": (args.seed, name == "random" or plugin,
                   "--provider random and plug-in agents (no other built-in takes a seed)"),
        "--client-model": (args.client_model, bool(args.client) and not args.offline_demo,
                           "--client (the offline demo's model is the mock's)"),
        "--offline-demo": (args.offline_demo, args.client == "claude", "--client claude"),
        "--client-timeout": (args.client_timeout, bool(args.client), "--client"),
        "--client-cmd": (args.client_cmd, args.client == "cmd", "--client cmd"),
        "--sampling": (args.sampling, models, "--model and plug-in agents"),
        "--max-retries": (args.max_retries, models, "--model and plug-in agents"),
        "--request-timeout": (args.request_timeout, models, "--model and plug-in agents"),
        "--reasoning-level": (args.reasoning_level, models, "--model and plug-in agents"),
        "--captain-model": (args.captain_model, not args.client, "in-process agents (--client episodes get the "
                            "scripted captain)"),
        "--env-file": (args.env_file, models or bool(args.client) or bool(args.captain_model),
                       "--model, plug-in agents and --client (the built-in baselines need no credentials)"),
    }
    for flag, (value, applies, where) in only.items():
        if value is not None and not applies:
            raise UsageError(f"{flag} does not apply here: it is only for {where}")
    if name == "litellm" and not args.model:
        raise UsageError("--agent litellm needs --model, e.g. --model anthropic/claude-sonnet-4-5")
    if args.reasoning_level is not None and not _REASONING.match(args.reasoning_level):
        raise UsageError(f"--reasoning-level {args.reasoning_level!r}: a short lower-case word, e.g. low, medium, "
                         "high")
    if not 1 <= args.runs <= MAX_RUNS:
        raise UsageError(f"--runs must be between 1 and {MAX_RUNS}")
    if args.workers < 1:
        raise UsageError("--workers must be at least 1")
    if args.max_concurrency_per_model is not None and args.max_concurrency_per_model < 1:
        raise UsageError("--max-concurrency-per-model must be at least 1")
    if args.ray_address is not None and args.executor != "ray":
        raise UsageError("--ray-address does not apply here: it is only for --executor ray")
    if args.max_retries is not None and args.max_retries < 0:
        raise UsageError("--max-retries must be 0 or more")
    for flag, value in (("--client-timeout", args.client_timeout), ("--request-timeout", args.request_timeout)):
        if value is not None and not (math.isfinite(value) and value > 0):
            raise UsageError(f"{flag} must be a positive number of seconds (got {value:g})")
    if name == "replay" and not args.replay_from:
        raise UsageError("--provider replay needs --replay-from RUNS_FOLDER")
    if args.client == "cmd" and not args.client_cmd:
        raise UsageError("--client cmd needs --client-cmd '...'")
    if args.offline_demo:
        from .clients.offline_demo import DEMO_MODEL

        args.client_model = DEMO_MODEL  # its files and rows: claude-offline-demo, never a real model's
    for flag, value in DEFAULTS.items():
        if getattr(args, flag) is None:
            setattr(args, flag, value)


def _sampling(args) -> dict[str, Any]:
    if not args.sampling:
        return {}
    try:
        sampling = json.loads(args.sampling)
    except json.JSONDecodeError as e:
        raise UsageError(f"--sampling is not valid JSON: {e.msg} at column {e.colno}") from None
    if not isinstance(sampling, dict):
        raise UsageError("--sampling must be a JSON object, e.g. '{\"temperature\": 0}'")
    reserved = sorted(k for k in sampling if k in RESERVED_SAMPLING)
    if reserved:
        raise UsageError(f"--sampling: {', '.join(reserved)} is set by a320-bench itself "
                         "(see --request-timeout and --max-retries)")
    if "reasoning_effort" in sampling and args.reasoning_level is not None:
        raise UsageError("--sampling sets reasoning_effort and --reasoning-level is given: use one")
    return sampling


def run_command(args) -> int:
    from .envfile import applied, parse_env_file

    check_flags(args)
    env_values = parse_env_file(args.env_file, warn=lambda line: console.note(f"warning: {line}")) \
        if args.env_file else {}
    sampling = _sampling(args)
    scrubber = console.add_secrets([*env_values.values(), *sampling_secrets(sampling)])
    with applied(env_values):
        scrubber = console.add_secrets(environment_secrets())
        return _run(args, sampling, scrubber)


def _make_agent(args, sampling: dict[str, Any], scenario_files: list[Path]) -> Any:
    if args.client:
        from .clients.client_episode import make_client

        return make_client(args, scenario_files)
    from .providers import AgentConfig, builtin_class, make_agent
    from .providers.registry import BrokenPluginAgent

    spec = args.spec
    if spec.name == "litellm" and not spec.plugin:
        builtin_class("litellm")  # MissingExtra first: one line with the pip command
        from .providers.litellm_agent import check_model

        check_model(args.model)
    config = AgentConfig(model=args.model, reasoning_level=args.reasoning_level, sampling=sampling, seed=args.seed,
                         max_retries=args.max_retries, request_timeout_s=args.request_timeout,
                         replay_from=args.replay_from, replay_of=args.replay_of)
    agent = make_agent(spec, config)
    if isinstance(agent, BrokenPluginAgent):  # said once; every episode then ends agent_error, scored as such
        console.error(f"{agent.problem}; every episode ends agent_error (fix it, then rerun with --force)")
    return agent


def _captain_factory(args) -> Any:
    """The crew profile's LLM captain (--captain-model), checked like --model; None: the scripted captain."""
    if not args.captain_model:
        return None
    from .providers import builtin_class

    builtin_class("litellm")  # MissingExtra: one line with the pip command
    from .crew_llm import captain_factory
    from .providers.litellm_agent import check_model

    try:
        check_model(args.captain_model)
    except UsageError as e:
        raise UsageError(str(e).replace("--model", "--captain-model", 1)) from None
    return captain_factory(args.captain_model)


def _run(args, sampling: dict[str, Any], scrubber: Scrubber) -> int:
    from a320bench.paths import PathSpecError

    from .selection import parse_task_ids, scenario_files

    try:
        files = scenario_files(args.scenario)
    except PathSpecError as e:
        raise UsageError(str(e)) from None
    from a320bench.server.scenario.loader import load_all

    scenarios, problems = load_all(files)
    if problems:
        for p in problems:
            console.error(str(p))
        return exitcodes.USAGE
    if args.task_id:
        try:
            scenarios = [scenarios[i] for i in parse_task_ids(args.task_id, len(scenarios))]
        except ValueError as e:
            raise UsageError(str(e)) from None

    from a320bench.server.surface.profiles import ProfileError, load_profile

    try:
        profile = load_profile(args.profile)
    except ProfileError as e:
        raise UsageError(str(e)) from None

    if args.captain_model and "captain" not in profile.tools:
        raise UsageError(f"--captain-model applies to a profile with a captain (--profile crew), not {profile.name}")
    from .learning_track import is_learning, learning_plan

    if args.retrieve_learnings_top_k is not None and not is_learning(profile):
        raise UsageError(f"--retrieve-learnings-top-k applies to the learning profile (--profile learning), not "
                         f"{profile.name}")
    if args.retrieve_learnings_top_k is None:
        from a320bench.server.learning.store import OFFICIAL_TOP_K

        args.retrieve_learnings_top_k = OFFICIAL_TOP_K
    elif not 1 <= args.retrieve_learnings_top_k <= MAX_TOP_K:
        raise UsageError(f"--retrieve-learnings-top-k must be between 1 and {MAX_TOP_K} (the official track: 3)")
    shard = parse_shard(args.shard)
    captain_factory = _captain_factory(args)
    agent = _make_agent(args, sampling, files)
    from .executors import RunJob, RunState, make_executor, single_episode_chains

    executor = make_executor(args)
    out = Path(args.out)
    if out.exists() and not out.is_dir():
        raise OutputError(f"--out {out}: exists and is not a folder")
    label = _label(args, agent)
    # What makes a complete episode in --out this run's, beside its scenario and a320-bench (plan.foreign)
    sampling_of = getattr(agent, "sampling", None)  # a litellm model's; its meta records it redacted
    from .inprocess_episode import companions
    from .plan import agent_identity

    # Who flies them, as their meta says: a file label is shared by a plug-in named as a built-in, a client and
    # a model that slug alike, and every captain of the crew profile.
    captain = companions(profile, None if args.client else captain_factory, None).get("captain")
    flown = {"profile": profile, "seed": args.seed,
             "sampling": redact_credentials(sampling_of) if isinstance(sampling_of, dict) else None,
             "who": agent_identity(agent, client=bool(args.client), captain=captain)}
    if is_learning(profile):  # chains of a run index's episodes, in order; a shard never splits one
        plan, chains = learning_plan(scenarios, args.runs, out, label, args.retrieve_learnings_top_k, shard=shard,
                                     force=args.force, **flown)
    else:
        plan = build_plan(scenarios, args.runs, out, label, shard=shard, force=args.force, **flown)
        chains = single_episode_chains(plan.episodes)
    if args.spec is not None and args.spec.name == "replay" and not args.spec.plugin:
        agent.select(plan.episodes)  # every planned episode has exactly one recording to replay, or UsageError

    job = RunJob(agent, profile, seed=args.seed, scrubber=scrubber, captain_factory=captain_factory)
    started = datetime.now(timezone.utc)
    record_path = out / f"run-{started.strftime('%Y%m%dT%H%M%S%fZ')}.json"
    from a320bench.server.session import sha256_text, versions
    from a320bench.server.trajectory import describe_os_error, write_json_atomic

    # Before any episode: a folder the disk refuses is a usage error, and nothing is lost. Before
    # the client's sandbox is set up, too: a run folder that is there is one it can hide.
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        from a320bench.paths import broken_link_problem

        for folder in (out, *out.parents):  # "File exists" would not say that a link is what is broken
            if (why := broken_link_problem(folder)) is not None:
                raise OutputError(f"--out {out}: {folder} is a symbolic link that {why}") from None
        raise OutputError(f"--out {out}: cannot create the folder: {e.strerror or e}") from None
    record: dict[str, Any] = {
        "command": scrubber.text(" ".join(["a320-bench", *args.argv])),
        "started_at": started.isoformat(timespec="seconds"),
        "versions": versions(),
        "scenarios": [s.id for s in scenarios],
        "selection_sha256": selection_hash(scenarios),
        "shard": str(shard),
        "profile": profile.name,
        "instructions_sha256": sha256_text(profile.instructions),
        "provider": getattr(agent, "name", None),
        "agent": args.spec.text if args.spec else None,
        "model": getattr(agent, "model", None),
        "reasoning_level": args.reasoning_level,
        "captain_model": args.captain_model,
        "learning": {"order": [s.id for s in scenarios], "top_k": args.retrieve_learnings_top_k,
                     "chains": len(chains)} if is_learning(profile) else None,
        "client": args.client,
        "sandbox": agent.prepare(out) if args.client else None,  # the client's isolation policy
        "sampling": redact_credentials(sampling),
        "seed": args.seed,  # the in-process agent's (--provider random, plug-ins); resume checks it
        "runs": args.runs,
        "workers": args.workers,
        "executor": executor.describe(chains, job),
        "dry_run": args.dry_run,
        "planned": len(plan.episodes),
        "skipped_complete": len(plan.skipped),
        "counts": {},
        "interrupted": None,
        "not_started": 0,
        "finished_at": None,
    }
    try:
        write_json_atomic(record_path, record, scrubber)
    except OSError as e:
        raise OutputError(f"--out {out}: {describe_os_error('the run record', record_path, e)}") from None

    if args.dry_run:
        for line in describe(plan, executor.describe(chains, job), chains):
            print(line)
        console.note(f"dry run: nothing flown; run record: {record_path}")
        return exitcodes.OK

    import anyio

    from .providers.registry import BrokenPluginAgent

    state = RunState(agent_broken=isinstance(agent, BrokenPluginAgent))  # said once already
    anyio.run(_run_all, executor, chains, job, state, args.no_progress)
    interrupts.rearm()  # the loop's signal receiver left SIGTERM and SIGHUP at their defaults
    results = state.results
    counts = Counter(str(r.reason) for r in results)
    record["counts"] = dict(sorted(counts.items()))
    record["interrupted"] = state.signal
    record["not_started"] = len(plan.episodes) - len(results)
    if state.retried:
        record["retried_chains"] = state.retried
    record["finished_at"] = datetime.now(timezone.utc).isoformat(timespec="seconds")
    record["episodes"] = planned_episodes(out, scenarios, plan, label)
    record_error = None
    try:
        write_json_atomic(record_path, record, scrubber)
    except OSError as e:
        record_error = describe_os_error("the run record", record_path, e)

    if plan.skipped:
        console.note(f"{len(plan.skipped)} episode(s) already complete in {out} (use --force to rerun)")
    if not state.signal and not state.storage:  # the rerun that resumes prints it
        _print_summary(out, scenarios, label)
    console.note(f"run record: {record_path}")
    console.note(f"make the report: a320-bench report {shlex.quote(str(out))}")
    replay_bad = [r for r in results if r.replay_same is False]
    for r in replay_bad:
        console.error(f"replay of {r.scenario_id} run {r.run_index} ended in a different state: a determinism bug")
    if state.signal:
        n = counts.get(EndReason.INTERRUPTED, 0)
        console.note(f"interrupted ({state.signal}): {n} episode(s) in flight ended `interrupted`, "
                     f"{record['not_started']} not started; run the same command again to resume")
        return exitcodes.INTERRUPTED
    if record_error or counts.get(EndReason.STORAGE_ERROR):
        if record_error:
            console.error(record_error)
        if record["not_started"]:
            console.note(f"{record['not_started']} episode(s) not started; free space (or make the disk writable) "
                         "and run the same command again to resume")
        return exitcodes.STORAGE
    if counts.get(EndReason.INVALID_SCENARIO):
        return exitcodes.INVALID_SCENARIO
    if counts.get(EndReason.CLIENT_ERROR):
        return exitcodes.CLIENT_ERROR
    if counts.get(EndReason.PROVIDER_ERROR):
        return exitcodes.PROVIDER_ERROR
    if counts.get(EndReason.HARNESS_ERROR) or replay_bad:
        return exitcodes.INTERNAL
    return exitcodes.OK


async def _run_all(executor: Any, chains: list[Any], job: Any, state: Any, no_progress: bool) -> None:
    """Fly the chains on the executor, with a progress bar, until done or stopped by a signal."""
    import anyio

    if not no_progress and chains:
        from rich.console import Console
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

        state.progress = Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                                  TimeElapsedColumn(), console=Console(stderr=True), transient=True)
        state.progress_task = state.progress.add_task("episodes", total=sum(len(c.episodes) for c in chains))

    async def on_signal(scope: Any, *, task_status: Any = anyio.TASK_STATUS_IGNORED) -> None:
        """Ctrl-C, SIGTERM and a hangup stop the run alike: every episode in flight is cancelled and
        ends `interrupted` (no child process outlives it)."""
        if threading.current_thread() is not threading.main_thread():  # signals reach the main thread only
            task_status.started()
            return
        with anyio.open_signal_receiver(*ending_signals()) as signals:
            task_status.started()  # listening: only now may the executor start (and import) anything
            async for signum in signals:
                state.signal = signal.Signals(signum).name
                scope.cancel()
                return

    if state.progress is not None:
        state.progress.start()
    try:
        async with anyio.create_task_group() as outer:
            # Started, not just scheduled: a signal while the executor loads its modules (seconds under
            # load) would otherwise raise KeyboardInterrupt inside the task group.
            await outer.start(on_signal, outer.cancel_scope)
            await executor.run(chains, job, state)
            outer.cancel_scope.cancel()  # every episode is done: stop listening for signals
    finally:
        if state.progress is not None:
            state.progress.stop()


def _print_summary(out: Path, scenarios: list[Any], label: str) -> None:
    """The score table of this run's episodes (all runs of this label in --out)."""
    files = [f for sc in scenarios for f in sorted((out / sc.id).glob(f"{label}__run*.jsonl"))]
    if not files:
        return
    from .score.cli import print_table_for

    print_table_for(files)
