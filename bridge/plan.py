"""The plan of a run: which (scenario, run index) episodes this invocation flies, and where each is written.

    full selection      every scenario x every run index, in the selection's order
    --shard i/n         a deterministic slice of it: the pairs whose position p in the full
                        selection has p % n == i (round robin, so every shard gets a share of
                        every system and of every run index)
    resume              a pair whose trajectory already stands as a result is skipped
                        (server/end_reason.py `rerun_on_resume`), unless --force; one flown
                        for another run (another version of its scenario, another profile,
                        --seed or --sampling, another a320-bench) is refused, never skipped:
                        the run record would vouch for it as this run's

The plan is grouped into chains (bridge/executors: the unit an executor runs). An
ordinary run makes one chain per episode; the learning track (bridge/learning_track.py)
one per run index, and shards whole chains.

The selection hash names the scenarios (their content hashes, in order); with the
number of runs and the shard it says which slice of which plan a folder holds. Both go
into the run record, so that `score` can merge shard folders and refuse a folder that
does not belong (bridge/score/shards.py).
"""

from __future__ import annotations

import hashlib
import json
import os
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .errors import OutputError, UsageError


@dataclass(frozen=True)
class Shard:
    index: int
    count: int

    def __str__(self) -> str:
        return f"{self.index}/{self.count}"

    def holds(self, position: int) -> bool:
        return position % self.count == self.index


WHOLE = Shard(0, 1)
_SHARD = re.compile(r"^\s*(\d+)\s*/\s*(\d+)\s*$")


def parse_shard(spec: str | None) -> Shard:
    """'1/3' -> Shard(1, 3); None -> the whole plan. UsageError in one line otherwise."""
    if spec is None:
        return WHOLE
    m = _SHARD.match(spec)
    if not m:
        raise UsageError(f"--shard {spec}: expected i/n, e.g. 0/3 (shards are numbered from 0)")
    index, count = int(m.group(1)), int(m.group(2))
    if count < 1 or index >= count:
        raise UsageError(f"--shard {spec}: i must be between 0 and n-1 (shards are numbered from 0)")
    return Shard(index, count)


@dataclass
class Planned:
    """One episode to fly: its scenario, run index and trajectory path (`index`: its place in the plan)."""

    index: int
    scenario: Any
    run_index: int
    path: Path
    position: int = 0  # its place in its chain's order (the learning track's; 0 otherwise)


@dataclass
class Plan:
    episodes: list[Planned]
    skipped: list[tuple[str, int]] = field(default_factory=list)  # (scenario id, run index) complete already
    selected: int = 0  # episodes in this shard, before resume
    total: int = 0  # episodes in the whole selection
    shard: Shard = WHOLE
    selection: tuple[str, ...] = ()  # the scenario ids as selected: the dry run lists them so (chains draw orders)


def trajectory_path(out: Path, scenario_id: str, label: str, run_index: int) -> Path:
    return out / scenario_id / f"{label}__run{run_index:03d}.jsonl"


def selection_hash(scenarios: Sequence[Any]) -> str:
    """Which scenarios a run selected: their content hashes, in order (the run record's `runs` says how often)."""
    from a320bench.server.session import scenario_hash

    return hashlib.sha256("".join(scenario_hash(s) for s in scenarios).encode()).hexdigest()


def build_plan(scenarios: Sequence[Any], runs: int, out: Path, label: str, *, shard: Shard = WHOLE,
               force: bool = False, profile: Any = None, seed: int | None = None,
               sampling: dict[str, Any] | None = None, who: dict[str, Any] | None = None) -> Plan:
    """The episodes of this shard that resume does not skip, in the selection's order. UsageError when a
    complete one was flown for another run (`foreign`)."""
    from a320bench.server.trajectory import LinkRefused, is_complete, refuse_links

    plan = Plan([], shard=shard, total=len(scenarios) * runs)
    position = 0
    for sc in scenarios:
        for r in range(runs):
            mine = shard.holds(position)
            position += 1
            if not mine:
                continue
            plan.selected += 1
            path = trajectory_path(out, sc.id, label, r)
            try:
                refuse_links(out, path)
            except LinkRefused as e:
                raise OutputError(f"--out {out}: {e}") from None
            # Found when the episode starts, these would stop the run mid-way (storage_error).
            if path.parent.exists() and not path.parent.is_dir():
                raise OutputError(f"--out {out}: {path.parent} is a file where the episodes of {sc.id} go")
            if path.is_dir():
                raise OutputError(f"--out {out}: {path} is a folder where a trajectory goes")
            if not force and path.exists() and is_complete(path):
                refuse_foreign(out, path, sc, profile, run_index=r, seed=seed, sampling=sampling, who=who)
                plan.skipped.append((sc.id, r))
                continue
            plan.episodes.append(Planned(len(plan.episodes), sc, r, path))
    return plan


def foreign(path: Path, scenario: Any, profile: Any = None, *, run_index: int | None = None,
            seed: int | None = None, sampling: dict[str, Any] | None = None,
            who: dict[str, Any] | None = None, top_k: int | None = None) -> str | None:
    """Why the complete trajectory at `path` is not an episode of this run, or None: flown against another
    version of its scenario (an edited copy under the same id), under another profile or its instructions,
    by another agent than `who` says (its meta fields: a file label can be shared, as a plug-in class
    named `scripted` shares the oracle's), on the learning track with another
    --retrieve-learnings-top-k (`top_k`), with another --seed (the seed an in-process agent got) or
    --sampling (a litellm model's), or recorded by another a320-bench (whose verdicts may be reached
    otherwise)."""
    from a320bench.server.session import scenario_hash, sha256_text, versions

    with open(path, "rb") as fh:  # the meta event is the first line: the rest need not be read again
        meta = json.loads(fh.readline())
    meta = meta if isinstance(meta, dict) else {}
    had, now = meta.get("scenario_sha256"), scenario_hash(scenario)
    if had != now:
        return (f"{path} was flown against another version of scenario {scenario.id} "
                f"(scenario_sha256 {str(had)[:12]}…, this run's {now[:12]}…)")
    if profile is not None and meta.get("profile") != profile.name:
        return f"{path} was flown with the {meta.get('profile')} profile, this run's is {profile.name}"
    if profile is not None and meta.get("instructions_sha256") != sha256_text(profile.instructions):
        return f"{path} was flown under other instructions of the {profile.name} profile"
    for key, mine in (who or {}).items():
        had = _plugin_text(meta.get(key)) if key == "agent" else meta.get(key)
        if had != mine:
            return (f"{path} was flown by another agent ({key}: recorded {json.dumps(had, sort_keys=True)}, "
                    f"this run's {json.dumps(mine, sort_keys=True)})")
    learning = meta.get("learning")
    if top_k is not None and isinstance(learning, dict) and learning.get("top_k") != top_k:
        return (f"{path} was flown with --retrieve-learnings-top-k {learning.get('top_k')}, this run's is "
                f"{top_k}")
    if seed is not None and run_index is not None and "episode_seed" in meta:
        from .inprocess_episode import episode_seed

        if meta["episode_seed"] != episode_seed(seed, scenario.id, run_index):
            return f"{path} was flown with another --seed, this run's is {seed}"
    if sampling is not None and isinstance(meta.get("sampling"), dict) and \
            _generation(meta["sampling"]) != _generation(sampling):
        return (f"{path} was flown with --sampling {json.dumps(_generation(meta['sampling']), sort_keys=True)}, "
                f"this run's is {json.dumps(_generation(sampling), sort_keys=True)}")
    had, now = (meta.get("versions") or {}).get("a320-bench"), versions()["a320-bench"]
    if had != now:
        return f"{path} was recorded by a320-bench {had or 'of an unknown version'}, this is {now}"
    return None


def _plugin_text(text: Any) -> Any:
    """--agent as written, its file's path normalised: `./plug.py:A` and `plug.py:A` name one plug-in."""
    if not isinstance(text, str):
        return text
    where, sep, attr = text.rpartition(":")
    return f"{os.path.normpath(where)}:{attr}" if sep and where.endswith(".py") else text


def agent_identity(agent: Any, *, client: bool, captain: dict[str, Any] | None) -> dict[str, Any]:
    """The meta fields that say who flies this run's episodes (`foreign`'s `who`), as the episode writes
    them: the client and its model, or the provider, the plug-in, the model and its reasoning level; the
    crew profile's captain."""
    if client:
        who = {"client": getattr(agent, "name", None), "client_model": getattr(agent, "model", None)}
    else:
        extra = agent.meta() if hasattr(agent, "meta") else {}
        who = {"client": None, "provider": getattr(agent, "name", type(agent).__name__),
               "agent_kind": extra.get("agent_kind"), "agent": _plugin_text(extra.get("agent")),
               "model": getattr(agent, "model", None), "reasoning_level": getattr(agent, "reasoning_level", None)}
    if captain is not None:
        who["captain"] = captain
    return who


# --sampling keys that say where and how the model is reached, not what it generates: a resume through
# another proxy or with another timeout flies the same episodes.
ROUTING_KEYS = frozenset({"api_base", "base_url", "api_version", "organization", "extra_headers", "headers",
                          "timeout", "api_key"})


def _generation(sampling: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in sampling.items() if k not in ROUTING_KEYS}


def refuse_foreign(out: Path, path: Path, scenario: Any, profile: Any = None, **flown: Any) -> None:
    """UsageError in one line when resume would take the complete trajectory at `path` for this run's
    (`flown`: foreign's run_index, seed and sampling)."""
    why = foreign(path, scenario, profile, **flown)
    if why is not None:
        raise UsageError(f"--out {out}: {why}: resuming would mix it into this run; use another --out, or --force "
                         "to fly it again")


def describe(plan: Plan, executor_line: str, chains: Sequence[Any] = ()) -> list[str]:
    """The plan for a person (`run --dry-run`): totals, the learning track's chains, then one line per
    scenario with work."""
    lines = [f"plan: {plan.total} episode(s) in the selection; shard {plan.shard}: {plan.selected}; "
             f"resume skips {len(plan.skipped)} complete; {len(plan.episodes)} to run",
             f"executor: {executor_line}"]
    learning = [c for c in chains if getattr(c, "store", None) is not None]
    if learning:
        lines.append(f"learning track: {len(learning)} chain(s), each one run index's episodes in an order "
                     "of its own (drawn at random, kept in its store), flown one after another")
        for c in learning:  # the order stays unsaid: a new chain's is drawn again when it flies
            first, last = c.episodes[0], c.episodes[-1]
            lines.append(f"  chain run {first.run_index}: positions {first.position}-{last.position}, "
                         f"store {c.store.path}")
    runs: dict[str, list[int]] = {}
    for p in plan.episodes:
        runs.setdefault(p.scenario.id, []).append(p.run_index)
    skipped: dict[str, int] = {}
    for sid, _ in plan.skipped:
        skipped[sid] = skipped.get(sid, 0) + 1
    first = {sid: i for i, sid in enumerate(plan.selection)}
    for sid in sorted(dict.fromkeys([*runs, *skipped]), key=lambda sid: first.get(sid, len(first))):
        todo = runs.get(sid, [])
        extra = f" (skips {skipped[sid]} complete)" if sid in skipped else ""
        lines.append(f"  {sid}: run {_ranges(todo) or '-'}{extra}")
    return lines


def _ranges(values: list[int]) -> str:
    """[0, 1, 2, 5] -> '0-2,5'."""
    out: list[str] = []
    for v in sorted(values):
        if out and v == int(out[-1].rsplit("-", 1)[-1]) + 1:
            out[-1] = f"{out[-1].split('-')[0]}-{v}"
        else:
            out.append(str(v))
    return ",".join(out)
