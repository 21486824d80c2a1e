"""Merging the folders of a sharded run (`run --shard i/n`): refuse what does not belong together.

Every `run` writes a run record (`run-*.json`) at the top of its --out folder, carrying the
selection hash (the scenarios, bridge/plan.py), the number of runs and the shard. When
`score` is given folders holding records of one agent (its model and reasoning level) or
client on one profile, it merges them only if they are slices of one plan:

    the same selection and the same number of runs              else "different selections"
    the same number of shards                                   else "slice the plan differently"
    each shard in one folder only, a whole run in no other one  else "an overlap"
    no trajectory (scenario/label__runNNN.jsonl) in two folders    else "an overlap"

A refusal is one line naming the two folders; nothing is scored. Folders of different
agents, models, levels or tracks are compared side by side, as before. Pure: json and pathlib only.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class _Slice:
    folder: Path
    who: tuple[str | None, ...]
    selection: str | None
    runs: int | None
    shard: str

    @property
    def index_count(self) -> tuple[int, int]:
        i, _, n = self.shard.partition("/")
        return (int(i), int(n)) if i.isdigit() and n.isdigit() else (0, 1)


def _records(folder: Path) -> Iterable[Path]:
    yield from folder.glob("run-*.json")
    yield from folder.glob("*/run-*.json")  # a folder that holds the shard folders


def _slices(specs: Iterable[str | Path]) -> list[_Slice]:
    found: dict[tuple[Path, tuple], _Slice] = {}
    for spec in specs:
        folder = Path(spec)
        if not folder.is_dir():
            continue
        for path in _records(folder):
            try:
                rec = json.loads(path.read_text(encoding="utf-8"))
            except (OSError, ValueError):
                continue  # not a record we can read: the trajectories speak for themselves
            if not isinstance(rec, dict):
                continue
            # Who flew it, as the file label and the track tell (agent, model, level, client, profile).
            who = (rec.get("provider"), rec.get("agent"), rec.get("model"), rec.get("reasoning_level"),
                   rec.get("client"), rec.get("profile"))
            s = _Slice(path.parent, who, rec.get("selection_sha256"), rec.get("runs"),
                       str(rec.get("shard") or "0/1"))
            found.setdefault((s.folder.resolve(), (who, s.selection, s.runs, s.shard)), s)
    return list(found.values())


def shard_conflict(specs: Iterable[str | Path]) -> str | None:
    """One line when the folders given are slices that do not merge; None when they do, or are no shards."""
    by_who: dict[tuple, list[_Slice]] = {}
    for s in _slices(specs):
        by_who.setdefault(s.who, []).append(s)
    for slices in by_who.values():
        folders = list({s.folder.resolve(): s.folder for s in slices}.values())
        if len(folders) < 2 or all(s.index_count[1] == 1 for s in slices):
            continue  # one folder, or whole runs side by side: nothing to merge
        first = slices[0]
        for s in slices[1:]:
            if (s.selection, s.runs) != (first.selection, first.runs):
                return (f"{first.folder} and {s.folder} hold shards of different selections (shard "
                        f"{first.shard} of {first.runs} run(s) vs shard {s.shard} of {s.runs}, or other "
                        "scenarios); not merged")
            if s.index_count[1] != first.index_count[1]:
                whole, part = (first, s) if first.index_count[1] == 1 else (s, first)
                if whole.index_count[1] == 1:
                    return f"{whole.folder} holds the whole run and {part.folder} its shard {part.shard}: an " \
                           "overlap; not merged"
                return f"{first.folder} and {s.folder} slice the plan differently (shard {first.shard} vs " \
                       f"{s.shard}); not merged"
        owner: dict[int, Path] = {}
        for s in slices:
            i = s.index_count[0]
            if owner.setdefault(i, s.folder).resolve() != s.folder.resolve():
                return f"{owner[i]} and {s.folder} both hold shard {s.shard} of the same selection: an overlap; " \
                       "not merged"
        seen: dict[Path, Path] = {}
        for folder in folders:
            for f in folder.glob("*/*.jsonl"):
                rel = f.relative_to(folder)
                if seen.setdefault(rel, folder) is not folder:
                    return f"{seen[rel]} and {folder} both hold {rel}: an overlap; not merged"
    return None
