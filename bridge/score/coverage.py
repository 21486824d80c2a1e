"""The plan the scored files answer to: the run records (`run-*.json`) in the folders given to `score`.

`a320-bench run` lists, in its run record, every episode it planned (scenario, run index,
trajectory path) with the sha256 of the trajectory file as the run left it (run_manifest.py).
Against the latest record of each path, `score` finds:

    missing    a planned trajectory that is not there (deleted, never flown)
    modified   a trajectory whose bytes are not the ones the run wrote (edited, cut, replaced)
    extra      a trajectory under a run folder that no run record planned (copied in, forged)
    absent     a shard of a sharded run (`run --shard i/n`) whose folder was not given: the
               scenarios x runs its run records name, less the episodes of the shards given

Missing, modified and absent episodes, and planned episodes that ended without a result
(excluded), are `not flown`: failed trials of the headline rates (aggregate.py). A
modified file is not scored at all. Folders without a run record (served
trajectories, loose files) are scored as given, and `score` says so in one line; a
record written before episodes were listed, or by a run killed and never rerun, is
named once, and nothing in its folder is called extra. A dry run's record plans no
file, and a killed run's is answered for by the later run of the same agent into
its folder (resume lists the episodes it skipped as complete): neither switches the
check off.

Pure: json, hashlib and paths only.
"""

from __future__ import annotations

import hashlib
import json
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .scorecard import NEVER_ASKED

RECORD_GLOB = "run-*.json"


@dataclass(slots=True)
class Planned:
    scenario_id: str
    system: str
    run_index: int
    path: Path  # resolved
    shown: Path  # as the folder was given, for messages
    sha256: str | None  # None: the run ended without this file
    record: Path
    fallback_model: str  # the record's agent, for a file that is not there to say it
    absent: bool = False  # in a shard whose folder was not given (its path is the record's, never a file)


@dataclass
class PlanCheck:
    records: list[Path] = field(default_factory=list)
    planned: dict[Path, Planned] = field(default_factory=dict)
    missing: list[Planned] = field(default_factory=list)
    modified: list[Planned] = field(default_factory=list)
    extra: list[Path] = field(default_factory=list)
    absent: list[str] = field(default_factory=list)  # one line per sharded run with shards not given
    problems: list[str] = field(default_factory=list)  # one line per unreadable or old record

    def not_flown(self, cards: list[Any], include_errors: bool) -> dict[tuple[str, str], tuple[str, int]]:
        """(scenario, model) -> (system, planned episodes without a result); `cards`: every file scored,
        duplicates included (a copied run folder plans its copies; each is counted once, never as not
        flown), modified files and files that failed --verify left out."""
        out: Counter = Counter()
        systems: dict[tuple[str, str], str] = {}
        for p, model in self._without_result(cards, include_errors):
            out[(p.scenario_id, model)] += 1
            systems[(p.scenario_id, model)] = p.system
        return {key: (systems[key], n) for key, n in out.items()}

    def learning_not_flown(self, cards: list[Any], include_errors: bool) -> dict[str, list[int]]:
        """model -> the chain positions (0-based) of its planned learning-track episodes that have no file
        to say so (missing or modified): each chain's order is in its store beside the run record
        (learning/<label>__runNNN.json), so the learning curve counts them where they fell."""
        out: dict[str, list[int]] = {}
        orders: dict[Path, list[str] | None] = {}
        for p, model in self._without_result(cards, include_errors, without_card=True):
            store = p.record.parent / "learning" / f"{p.path.stem}.json"
            if store not in orders:
                orders[store] = _chain_order(store)
            order = orders[store]
            if order is not None and p.scenario_id in order:
                out.setdefault(model, []).append(order.index(p.scenario_id))
        return {model: sorted(positions) for model, positions in sorted(out.items())}

    def _without_result(self, cards: list[Any], include_errors: bool, *, without_card: bool = False):
        """(planned episode, model) for each planned episode without a result that no scored card stands
        for; with without_card, only those with no card at all (a card says its own chain position)."""
        by_path = {Path(c.path).resolve(): c for c in cards}
        models = {p.record: by_path[p.path].model for p in self.planned.values() if p.path in by_path}
        for p in self.planned.values():
            card = by_path.get(p.path)
            # A failed gate is no missing result: the agent was never asked, and a resume would fail it again.
            # One cut short or excluded the aggregation counts as not flown itself, run record or not.
            if card is not None and (without_card or card.valid or include_errors or card.status == NEVER_ASKED
                                     or card.planned_without_result):
                continue
            yield p, (card.model if card is not None else models.get(p.record, p.fallback_model))


def _chain_order(store: Path) -> list[str] | None:
    """A learning chain's scenario order from its store (None: no store, or not one we can read)."""
    try:
        doc = json.loads(store.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    order = doc.get("order") if isinstance(doc, dict) else None
    return order if isinstance(order, list) and all(isinstance(i, str) for i in order) else None


def check_plan(specs: list[str | Path], files: list[Path]) -> PlanCheck | None:
    """The plan of the run records under the folders in `specs`, checked against the trajectory `files`
    found there; None when there is no run record at all."""
    given = {r.resolve(): r for spec in specs if Path(spec).is_dir() for r in Path(spec).rglob(RECORD_GLOB)}
    records = sorted(given)
    if not records:
        return None
    check = PlanCheck(records=records)
    listed_dirs: set[Path] = set()
    unlisted_dirs: set[Path] = set()  # a folder with an older record: its files may be planned there
    docs = sorted(_read(records, check.problems), key=lambda rd: (str(rd[1].get("started_at")), rd[0]))
    for k, (record, doc) in enumerate(docs):
        episodes = doc.get("episodes")
        if not isinstance(episodes, list):
            if doc.get("dry_run") is True or (_unfinished(doc) and _listed_later(record, doc, docs[k + 1:])):
                continue  # a dry run flew nothing; a killed run's rerun lists its episodes, complete ones too
            check.problems.append(
                f"{record}: a run that did not finish (killed?) lists no planned episodes: its plan is not checked; "
                "rerun its command to complete it" if _unfinished(doc) else
                f"{record}: lists no planned episodes (written before a320-bench recorded them): its plan is not "
                "checked")
            unlisted_dirs.add(record.parent)
            continue
        listed_dirs.add(record.parent)
        agent = str(doc.get("model") or doc.get("client") or doc.get("provider") or "?")
        for e in episodes:
            if not isinstance(e, dict) or not isinstance(e.get("path"), str):
                continue
            path = (record.parent / e["path"]).resolve()
            check.planned[path] = Planned(str(e.get("scenario_id")), str(e.get("system") or "?"),
                                          int(e.get("run_index") or 0), path, given[record].parent / e["path"],
                                          e.get("sha256"), record, agent)
    _plan_absent_shards(check, docs, given)
    for p in check.planned.values():
        if p.absent:
            continue
        if not p.path.is_file():
            check.missing.append(p)
        elif p.sha256 != file_sha256(p.path):
            check.modified.append(p)
    for f in files:
        r = f.resolve()
        if r not in check.planned and any(d in r.parents for d in listed_dirs) and \
                not any(d in r.parents for d in unlisted_dirs):
            check.extra.append(f)
    return check


def _who(doc: dict[str, Any]) -> tuple:
    return tuple(doc.get(k) for k in ("provider", "agent", "model", "reasoning_level", "client", "profile"))


def _unfinished(doc: dict[str, Any]) -> bool:
    """A record written when its run started and never completed (the run was killed): the episode list
    is written when a run ends. (A record older than episode lists has no `finished_at` at all.)"""
    return "finished_at" in doc and doc["finished_at"] is None


def _listed_later(record: Path, doc: dict[str, Any], later: list[tuple[Path, dict[str, Any]]]) -> bool:
    """Did a later run of the same agent into the same folder list its episodes? Resume lists every planned
    episode, those it skipped as complete included, so that record speaks for what the killed run wrote."""
    return any(r.parent == record.parent and _who(d) == _who(doc) and isinstance(d.get("episodes"), list)
               for r, d in later)


def _plan_absent_shards(check: PlanCheck, docs: list[tuple[Path, dict[str, Any]]], shown: dict[Path, Path]) -> None:
    """Plan the episodes of the shards not given, so that one shard cannot stand for the whole run: per
    sharded plan (who flew it, the selection, the runs, the number of shards), every scenario x run
    index its records name that no record given lists."""
    groups: dict[tuple, list[tuple[Path, dict[str, Any]]]] = {}
    for record, doc in docs:
        shard, runs, scenarios = str(doc.get("shard") or "0/1"), doc.get("runs"), doc.get("scenarios")
        i, _, n = shard.partition("/")
        if not (i.isdigit() and n.isdigit() and int(n) > 1 and isinstance(runs, int) and isinstance(scenarios, list)
                and isinstance(doc.get("episodes"), list)):
            continue
        groups.setdefault((_who(doc), doc.get("selection_sha256"), runs, int(n)), []).append((record, doc))
    for (_, _, runs, n), members in groups.items():
        record, doc = members[0]
        listed = {(str(e.get("scenario_id")), e.get("run_index")): e for _, d in members for e in d["episodes"]
                  if isinstance(e, dict)}
        absent = [(str(sid), r) for sid in doc["scenarios"] for r in range(runs) if (str(sid), r) not in listed]
        if not absent:
            continue
        given = {int(str(d.get("shard")).partition("/")[0]) for _, d in members}
        systems = {sid: str(e.get("system") or "?") for (sid, _), e in listed.items()}
        label = Path(str(next(iter(listed.values())).get("path", "?"))).name.rpartition("__run")[0] if listed else "?"
        agent = str(doc.get("model") or doc.get("client") or doc.get("provider") or "?")
        not_given = ", ".join(f"{i}/{n}" for i in range(n) if i not in given)
        check.absent.append(f"{shown[record].parent}: shard(s) {not_given} of this run ({agent}) not among the folders "
                            f"given: {len(absent)} planned episode(s) counted as not flown")
        for sid, r in absent:
            path = record.parent / f"(shard not given)/{sid}/{label}__run{r:03d}.jsonl"
            check.planned[path] = Planned(sid, systems.get(sid, "?"), r, path, path, None, record, agent, absent=True)


def file_sha256(path: Path) -> str | None:
    try:
        with open(path, "rb") as fh:
            return hashlib.file_digest(fh, "sha256").hexdigest()
    except OSError:
        return None


def _read(records: list[Path], problems: list[str]) -> list[tuple[Path, dict[str, Any]]]:
    out = []
    for r in records:
        try:
            doc = json.loads(r.read_text(encoding="utf-8"))
        except (OSError, ValueError) as e:
            problems.append(f"{r}: not a readable run record ({e}); its plan is not checked")
            continue
        if isinstance(doc, dict):
            out.append((r, doc))
        else:
            problems.append(f"{r}: not a run record (not a JSON object); its plan is not checked")
    return out
