"""`a320-bench score --verify`: re-simulate every episode and check that the file says what happened.

The simulator is deterministic, so an episode's recorded calls, replayed against
the catalogue's scenario, must give back the same trajectory. For each file:

1. the scenario: `meta.scenario_id` is in the catalogue, `meta.scenario_sha256` is the
   catalogue scenario's hash, the embedded `meta.scenario`, `setup.ground_truth`,
   `setup.success_criteria` and `setup.budget` are the catalogue's; the profile's
   tools and `meta.instructions_sha256` are the profile's;
2. the calls: a fresh episode of that scenario gets the same calls, in order, through
   the real server (in-memory MCP), including calls refused after the end and
   resource reads; every recorded `tool_call` must match the re-simulated one
   (sequence, name, arguments, result, error flag, simulated times, effects, the ECAM
   alerts that came and went: what the report's timeline draws);
3. the end: the last `final` matches the re-simulated one (success, state hash, tool
   calls used, simulated time, report, final ECAM, gate). Its reason: an end the
   server decides (report_done, a budget) must be the one the calls lead to -- a
   client fault after it is in the client_report, and a bridge's reason that replaced
   it names it in `superseded_reason`; any other end must come with the event it
   leaves behind (provider_error with its attempts, a client_report with the error,
   a harness_error with a traceback: provenance.py);
4. the verdict: the ScoreCard of the file equals the ScoreCard of the re-simulation
   (status, outcome, compliant success, completion, harm, invariants, diagnosis, the count of each
   class of command, the crew check);
5. who flew it: the rest of the file agrees with the label in `meta` (provenance.py).

The summary names the catalogue verified against, with its selection hash (the
sha256 a run record's `selection_sha256` gives for the same scenarios).

A file that fails is named on one line with the fields that differ. This module
alone in `score` imports the simulator, the scenario loader and MCP, and only when
--verify is given.
"""

from __future__ import annotations

import json
import re
import sys
from dataclasses import dataclass
from typing import Any

from a320bench.server.end_reason import AGENT_DECIDED_ENDS, EndReason
from a320bench.server.trajectory import read_events

from .provenance import end_evidence, label_problems, supersede_evidence
from .scorecard import ScoreCard, renamed_episode, score_events

# Ends the server decides from the calls themselves; the others come from outside the
# server (the provider, the client, an interrupt) and are taken from the file.
_SERVER_ENDS = AGENT_DECIDED_ENDS | {EndReason.HARNESS_ERROR, EndReason.INVALID_SCENARIO}
# Ends the bridge may put in place of a server-decided end, naming it in `superseded_reason`: a setup
# fault of the client (its tools denied) or an interrupt while the client was still running.
_SUPERSEDING = frozenset({EndReason.CLIENT_ERROR, EndReason.INTERRUPTED})
_CALL_FIELDS = ("seq", "name", "arguments", "is_error", "result", "sim_time_before_s", "sim_time_after_s",
                "capabilities_lost", "capabilities_removed", "capabilities_restored", "invariants_violated",
                "failures_arrived", "preconditions", "ecam_changes")
_FINAL_FIELDS = ("success", "state_hash", "tool_calls_used", "sim_time_s", "report_done", "final_ecam", "gate")
_VERDICT_FIELDS = ("status", "reported_done", "outcome", "compliant_success", "completion", "steps_satisfied",
                   "steps_total", "in_order", "dangerous", "anti_procedure", "harmful", "extraneous",
                   "invariant_violations", "capabilities_removed", "diagnosis_match",
                   "diagnosis_beyond_ecam", "counts", "crew_ok", "crew_unconfirmed", "crew_refused_taken",
                   "crew_missed_instructions")  # counts: the `declared` column's among them
MAX_SHOWN = 3  # differences named per episode


class VerifyError(Exception):
    """Verification cannot start (the catalogue does not load): one line, exit USAGE."""


@dataclass
class Recorded:
    meta: dict[str, Any]
    setup: dict[str, Any] | None
    calls: list[dict[str, Any]]
    final: dict[str, Any] | None
    events: list[dict[str, Any]] | None = None  # every event, for provenance checks


def verify_cards(cards: list[ScoreCard], catalogue: list[str] | None = None) -> tuple[list[ScoreCard], int]:
    """(the cards whose episodes reproduce, how many did not); one line on stderr per episode."""
    from .. import interrupts

    scenarios, selection = _load_catalogue(catalogue)

    async def all_cards() -> list[list[str]]:
        return [await verify_one(card, scenarios) for card in cards]

    good: list[ScoreCard] = []
    failed = 0
    for card, differences in zip(cards, interrupts.run_loop(all_cards)):
        if differences:
            failed += 1
            shown = "; ".join(differences[:MAX_SHOWN])
            more = f"; and {len(differences) - MAX_SHOWN} more" if len(differences) > MAX_SHOWN else ""
            print(f"verify: FAILED {card.path} (episode {card.episode_id or card.scenario_id}): {shown}{more}",
                  file=sys.stderr)
        else:
            good.append(card)
    n = len(cards)
    where = " ".join(catalogue) if catalogue else "the installed catalogue"
    print(f"verify: {n - failed} of {n} episode(s) reproduce against {where} ({len(scenarios)} scenarios, "
          f"selection sha256 {selection})", file=sys.stderr)
    return good, failed


def _load_catalogue(paths: list[str] | None) -> tuple[dict[str, Any], str]:
    """(the scenarios by id, the selection hash of them in catalogue order, as a run record's)."""
    from a320bench.paths import PathSpecError
    from a320bench.server.scenario.loader import load_all

    from ..plan import selection_hash
    from ..selection import scenario_files

    try:
        files = scenario_files(paths)
    except PathSpecError as e:
        raise VerifyError(f"--catalogue: {e}") from None
    scenarios, problems = load_all(files)
    if problems:
        raise VerifyError(f"the catalogue does not load: {problems[0]}")
    return {sc.id: sc for sc in scenarios}, selection_hash(scenarios)


def _recorded(path: str) -> Recorded:
    meta, setup, final, calls, events = {}, None, None, [], []
    for ev in read_events(path):
        events.append(ev)
        kind = ev.get("type")
        if kind == "meta":
            meta = ev
        elif kind == "setup":
            setup = ev
        elif kind == "tool_call":
            calls.append(ev)
        elif kind == "final":
            final = ev
    return Recorded(meta, setup, calls, final, events)


async def verify_one(card: ScoreCard, scenarios: dict[str, Any]) -> list[str]:
    """The differences between the file and its re-simulation (empty: it reproduces)."""
    from a320bench.server.session import scenario_hash, sha256_text
    from a320bench.server.surface.profiles import ProfileError, load_profile

    try:
        rec = _recorded(card.path)
    except (OSError, ValueError) as e:
        return [f"file: {e}"]
    sid = rec.meta.get("scenario_id")
    sc = scenarios.get(sid) if isinstance(sid, str) else None
    if sc is None:
        return [f"meta.scenario_id: {sid!r} is not in the catalogue"]
    diffs: list[str] = []
    embedded = rec.meta.get("scenario")
    embedded_id = embedded.get("id") if isinstance(embedded, dict) else None
    if embedded_id != sid:
        diffs.append(f"meta.scenario_id: recorded {sid!r}, the embedded scenario is {embedded_id!r}")
    if rec.meta.get("scenario_sha256") != scenario_hash(sc):
        diffs.append("meta.scenario_sha256: not the catalogue scenario's hash")
    _compare("meta.scenario", rec.meta.get("scenario"), sc.model_dump(mode="json"), diffs)
    setup = rec.setup or {}
    _compare("setup.ground_truth", setup.get("ground_truth"), sc.ground_truth.model_dump(mode="json"), diffs)
    _compare("setup.success_criteria", setup.get("success_criteria"),
             [c.model_dump(mode="json") for c in sc.success], diffs)
    _compare("setup.budget", setup.get("budget"), sc.budget.model_dump(mode="json"), diffs)
    try:
        profile = load_profile(str(rec.meta.get("profile", "benchmark")))
    except ProfileError:
        return [*diffs, f"meta.profile: {rec.meta.get('profile')!r} is not a profile"]
    _compare("meta.tools", rec.meta.get("tools"), list(profile.tools), diffs)
    _compare("meta.instructions_sha256", rec.meta.get("instructions_sha256"), sha256_text(profile.instructions), diffs)
    diffs += label_problems(rec.meta, rec.events or [])
    renamed = renamed_episode(rec.meta, embedded if isinstance(embedded, dict) else {})
    if renamed is not None:  # a copy of another run's episode reproduces: its episode_id still names that run
        diffs.append(renamed)

    seqs = [c.get("seq") for c in rec.calls]
    gap = next((i for i, q in enumerate(seqs) if q != i + 1), None)
    if gap is not None:
        diffs.append(f"tool_call[{gap}].seq: recorded {seqs[gap]!r} where {gap + 1} was due: "
                     f"a recorded call is missing or out of place")
    events = await _resimulate(sc, profile, rec)
    re = _recorded_from(events)
    _compare("setup.gate", setup.get("gate"), (re.setup or {}).get("gate"), diffs)
    _compare("setup.state_hash", setup.get("state_hash"), (re.setup or {}).get("state_hash"), diffs)
    if len(rec.calls) != len(re.calls):
        diffs.append(f"tool_call count: recorded {len(rec.calls)}, re-simulated {len(re.calls)}")
    worded = (rec.meta.get("captain") or {}).get("kind") == "litellm"
    for i, (a, b) in enumerate(zip(rec.calls, re.calls)):
        for f in _CALL_FIELDS:
            if f == "result" and isinstance(b.get("result"), dict) and b["result"].get("harness_error"):
                continue  # a traceback names files of the machine that ran it
            if f == "result" and worded and a.get("name") == "captain":
                # An LLM captain words the scripted captain's decisions: those must reproduce, not the words.
                _compare(f"tool_call[{i}].result", _unworded(a.get("result")), _unworded(b.get("result")), diffs)
                continue
            _compare(f"tool_call[{i}].{f}", a.get(f), b.get(f), diffs)
    final, refinal = rec.final or {}, re.final or {}
    reason, decided = final.get("reason"), refinal.get("reason")
    if reason != decided:
        if decided in AGENT_DECIDED_ENDS and reason in _SUPERSEDING and final.get("superseded_reason") == decided:
            # the bridge's reason replaced the episode's own end, as the file says: score it so
            refinal.update({k: final.get(k) for k in ("reason", "superseded_reason", "client_error") if k in final})
            unbacked = supersede_evidence(reason, decided, rec.events or [])
            if unbacked:
                diffs.append(unbacked)
        else:
            diffs.append(f"final.reason: recorded {_short(reason)}, the recorded calls end the episode "
                         f"{_short(decided)}")
    missing = end_evidence(reason, final, rec.events or [])
    if missing:
        diffs.append(missing)
    for f in _FINAL_FIELDS:
        if f in final or (f == "state_hash" and card.valid):
            _compare(f"final.{f}", final.get(f), refinal.get(f), diffs)
    again = score_events(events, path=card.path)
    for f in _VERDICT_FIELDS:
        _compare(f"verdict.{f}", getattr(card, f), getattr(again, f), diffs)
    return _versions_first(rec.meta, diffs)


def _versions_first(meta: dict[str, Any], diffs: list[str]) -> list[str]:
    """A file that does not reproduce, recorded by another a320-bench, says so first: what the harness
    records can change between versions (0.2.0: the final's success.hands_off), which is not tampering."""
    from a320bench.server.session import versions

    recorded = meta.get("versions")
    recorded = recorded.get("a320-bench") if isinstance(recorded, dict) else None
    installed = versions()["a320-bench"]
    if diffs and recorded != installed:
        by = f"a320-bench {recorded}" if isinstance(recorded, str) else "an a320-bench that did not say its version"
        return [f"recorded by {by}, re-simulated by {installed}: verify it with the version that recorded it",
                *diffs]
    return diffs


def _unworded(result: Any) -> Any:
    return {k: v for k, v in result.items() if k != "reply"} if isinstance(result, dict) else result


def _recorded_from(events: list[dict[str, Any]]) -> Recorded:
    rec = Recorded({}, None, [], None)
    for ev in events:
        kind = ev.get("type")
        if kind == "meta":
            rec.meta = ev
        elif kind == "setup":
            rec.setup = ev
        elif kind == "tool_call":
            rec.calls.append(ev)
        elif kind == "final":
            rec.final = ev
    return rec


class _Replay:
    """Sends the recorded calls, every one, in order: the server decides what each does."""

    name = "verify"
    model = None

    def __init__(self, rec: Recorded):
        self.rec = rec

    def meta(self) -> dict[str, Any]:
        return {}

    async def run(self, view: Any) -> str | None:
        from a320bench.server.surface.messages import regrown
        from a320bench.server.surface.resources import READ_RESOURCE

        tools = view.tools
        for call in self.rec.calls:
            name, args = call.get("name"), call.get("arguments")
            args = {} if args is None else regrown(args)  # a string too long to record whole, at its length
            if name == READ_RESOURCE and isinstance(args, dict):
                await tools.read_resource(str(args.get("uri")))  # refused or not, the server records it
            elif isinstance(args, dict):
                await tools.call(str(name), args)
            else:  # a model's malformed tool call: sent as one, as the bridge did
                await tools.malformed(str(name), args)
        reason = (self.rec.final or {}).get("reason")
        return None if reason in _SERVER_ENDS or not isinstance(reason, str) else reason


async def _resimulate(sc: Any, profile: Any, rec: Recorded) -> list[dict[str, Any]]:
    from ..inprocess_episode import run_episode

    learnings = None
    if isinstance(rec.meta.get("learning"), dict):  # the learning track: the store as the episode found it
        from a320bench.server.learning.store import EpisodeLearnings

        learnings = EpisodeLearnings.replay(rec.meta["learning"])
    events: list[dict[str, Any]] = []
    await run_episode(sc, _Replay(rec), profile=profile, path=None, run_index=0, episode_id="verify",
                      recorder_sink=events, learnings=learnings)
    return events


def _compare(field: str, recorded: Any, again: Any, diffs: list[str]) -> None:
    if recorded == again:
        return
    where = _first_difference(field, recorded, again)
    diffs.append(f"{where}: recorded {_short(_at(recorded, where, field))}, "
                 f"re-simulated {_short(_at(again, where, field))}")


def _first_difference(path: str, a: Any, b: Any) -> str:
    """The deepest path at which two JSON values first differ."""
    if isinstance(a, dict) and isinstance(b, dict):
        for k in sorted(set(a) | set(b), key=str):
            if a.get(k) != b.get(k) or (k in a) != (k in b):
                return _first_difference(f"{path}.{k}", a.get(k), b.get(k))
    if isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        for i, (x, y) in enumerate(zip(a, b)):
            if x != y:
                return _first_difference(f"{path}[{i}]", x, y)
    return path


def _at(value: Any, where: str, root: str) -> Any:
    """The value at `where` (a path below `root`) inside `value`."""
    for part in re.findall(r"\.([^.\[]+)|\[(\d+)\]", where[len(root):]):
        key, index = part
        if key and isinstance(value, dict):
            value = value.get(key)
        elif index and isinstance(value, list) and int(index) < len(value):
            value = value[int(index)]
        else:
            return None
    return value


def _short(value: Any, limit: int = 60) -> str:
    text = json.dumps(value, ensure_ascii=False, default=str)
    return text if len(text) <= limit else text[: limit - 1] + "…"
