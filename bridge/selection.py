"""Which scenarios a command works on: paths, the built-in catalogue, --task-id."""

from __future__ import annotations

import re
from pathlib import Path

from a320bench.paths import PathSpecError, expand_paths, unreadable_problem


def builtin_scenarios_dir() -> Path:
    import a320bench.scenarios

    return Path(a320bench.scenarios.__file__).parent


def scenario_files(specs: list[str] | None) -> list[Path]:
    """Scenario YAML files; the built-in catalogue when no path is given. Raises PathSpecError."""
    if not specs:
        return expand_paths([builtin_scenarios_dir()], (".yaml", ".yml"))
    unreadable: list[Path] = []
    try:
        files = expand_paths(specs, (".yaml", ".yml"), unreadable=unreadable)
    except PathSpecError as e:
        if e.missing is None:
            raise
        from a320bench.scenario_hint import missing_scenario_hint

        raise PathSpecError(f"{e}{missing_scenario_hint(e.missing)}", e.missing) from None
    if unreadable:  # a scenario behind a broken link (or a FIFO) would drop out of the selection unseen
        first = unreadable[0]
        more = f" (and {len(unreadable) - 1} more such name(s))" if len(unreadable) > 1 else ""
        raise PathSpecError(f"{first}: {unreadable_problem(first)}; fix or remove it{more}")
    if not files:
        raise PathSpecError(f"{' '.join(specs)}: no scenario files (*.yaml) found")
    return files


_RANGE = re.compile(r"^\s*(\d+)\s*(?:-\s*(\d+)\s*)?$")


def parse_task_ids(spec: str, count: int) -> list[int]:
    """'0,3,5-7' -> [0, 3, 5, 6, 7]; each index must be below `count`."""
    out: list[int] = []
    for part in spec.split(","):
        m = _RANGE.match(part)
        if not m:
            raise ValueError(f"--task-id: {part.strip()!r} is not an index or a range like 5-7")
        lo = int(m.group(1))
        hi = int(m.group(2)) if m.group(2) else lo
        if hi < lo:
            raise ValueError(f"--task-id: range {part.strip()!r} runs backwards")
        if hi >= count:
            raise ValueError(f"--task-id: index {hi} is out of range (the selection has {count} scenarios: 0-{count - 1})")
        out.extend(i for i in range(lo, hi + 1) if i not in out)
    return out


def slug(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9._-]+", "_", text).strip("_") or "x"


def source_label(provider: str | None, model: str | None = None, client: str | None = None,
                 client_model: str | None = None, reasoning_level: str | None = None) -> str:
    """Who drove an episode, as its file label: <label>__runNNN.jsonl (a client, else a model -- with the
    agent's name unless it is the litellm loop --, else the agent), `@level` for a reasoning level."""
    if client:
        label = slug(f"{client}-{client_model}" if client_model else client)
    elif model:
        label = slug(model if provider in (None, "litellm") else f"{provider}-{model}")
    else:
        label = slug(provider or "scripted")
    return f"{label}@{slug(reasoning_level)}" if reasoning_level else label


def label_of(meta: dict) -> str:
    """The file label of a recorded episode, from its meta event."""
    return source_label(meta.get("provider"), meta.get("model"), meta.get("client"), meta.get("client_model"),
                        meta.get("reasoning_level"))
