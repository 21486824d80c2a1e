"""One trajectory file -> one ScoreCard.

Events are streamed: only what the card needs is kept (the per-command list
only with `detail`). The card's `status` is "valid" when the gate passed (or calls were
answered: a failed gate ends the episode before the agent is asked) and the
episode counts as the agent's result (server/end_reason.py); otherwise it is that
end reason, or "incomplete" when the trajectory has no `final` event. Non-valid
episodes are excluded from means by the aggregation, unless it is told to count them.

The verdicts, from what the server recorded:

    outcome            the success criteria held at the end (`final.success`) and no
                       safety invariant was violated at any point (`invariants_violated`
                       of every call)
    compliant_success  the agent called report_done (reason agent_done), the outcome
                       holds, the procedure is complete and in order, and no command was
                       dangerous, anti-procedure (the scenario's lists) or harmful (it
                       removed a capability the procedure did not call for), and where
                       the scenario sets deadlines (a fire: `act_within_s` for the first
                       required action, a block's `due_within_s` for all its steps), they
                       were met on the agent's clock (`late` otherwise). Unnecessary
                       but harmless commands (`extraneous`) and emergency declarations the
                       scenario does not call for are counted, not failed.

A file that is not one trajectory -- not JSON lines, no `meta` first, a second
`meta` (two episodes concatenated), a newer schema -- raises NotATrajectory with
one line naming the file; any other value is read defensively and scored.
"""

from __future__ import annotations

import hashlib
import math
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, fields, replace
from pathlib import Path
from typing import Any

from a320bench.server.end_reason import EndReason, counts_as_result, kind_of
from a320bench.server.trajectory import TRAJECTORY_SCHEMA_VERSION, changed_aircraft, read_events

from .classify import CommandClass, ProcedureTracker
from .crew import CREW_PROFILE, CrewCheck
from .diagnosis import beyond_ecam, diagnosis_matches
from .embedded import disagreement
from .groundtruth import GroundTruth

VALID = "valid"
NEVER_ASKED = EndReason.INVALID_SCENARIO.value  # the gate failed: the agent was never asked
INCOMPLETE = "incomplete"
# The scored profiles, each its own track: results of different tracks are never pooled (their
# model labels differ: `scripted [crew]`). Episodes flown with another profile (e.g. dev, where
# the agent can inject failures) are reported but never scored.
TRACKS = {"benchmark": "main", "crew": "crew", "learning": "learning"}
MAIN_TRACK = "main"
OTHER_PROFILE = "not_benchmark_profile"
CLASSES = tuple(c.value for c in CommandClass)
# Tools whose results show the ECAM: the titles the agent saw may be named in its diagnosis.
_ECAM_READS = frozenset({"read_ecam", "read_resource"})


class NotATrajectory(ValueError):
    """The file cannot be scored: not an a320-bench trajectory, or unreadable."""


@dataclass(slots=True)
class ScoreCard:
    path: str
    scenario_id: str
    system: str | None
    phase: str | None
    tags: list[str]
    model: str
    provider: str | None
    reasoning_level: str | None
    track: str
    run_index: int | None
    episode_id: str | None
    status: str
    reason: str | None
    reported_done: bool
    outcome: bool
    compliant_success: bool
    completion: float
    steps_satisfied: int
    steps_total: int
    in_order: bool
    counts: dict[str, int]
    dangerous: int
    anti_procedure: int
    harmful: int
    extraneous: int
    invariant_violations: list[str]
    capabilities_removed: list[str]
    diagnosis_match: bool
    # Beyond the ECAM (diagnosis.beyond_ecam): None where the ECAM titles name the cause.
    diagnosis_beyond_ecam: bool | None
    tool_calls: int
    sim_time_s: float | None
    first_required_sim_s: float | None
    input_tokens: int
    output_tokens: int
    cost_usd: float | None
    # The crew check (crew track only, else None / 0): see crew.py.
    crew_ok: bool | None = None
    crew_unconfirmed: int = 0
    crew_refused_taken: int = 0
    crew_missed_instructions: int = 0
    # An LLM captain's own accounting (--captain-model), apart from the agent's.
    captain_input_tokens: int = 0
    captain_output_tokens: int = 0
    captain_cost_usd: float | None = None
    # Harm by waiting (ground_truth.act_within_s): the deadline, and whether the first required action missed it.
    act_within_s: float | None = None
    late: bool = False
    late_reason: str | None = None  # what came too late, and when ("first required action at 600 s, due by 60 s")
    learning_position: int | None = None  # learning track: the episode's place in its chain (0-based)
    identity: str = ""  # what makes two files the same episode (see `episode_identity`)
    scenario_sha256: str | None = None  # the scenario as flown (meta): one id with two hashes is two catalogues
    a320bench_version: str | None = None  # the harness that recorded it (meta): verdicts change between versions
    calls_sha256: str = ""  # the agent's calls, in order (name and arguments)
    served: bool = False  # meta.entry "serve": served to a client by `a320-bench serve`, not flown by `run`
    commands: list[dict[str, Any]] | None = field(default=None)

    @property
    def valid(self) -> bool:
        return self.status == VALID

    @property
    def planned_without_result(self) -> bool:
        """A benchmark episode without a result for the agent: cut short (no final) or excluded (an
        interrupt, a harness, client or provider failure before any change). Its meta proves it was
        planned, so the rates count it as a failed trial (not flown), run record or not; a failed gate
        (the agent was never asked) and another profile's episode are no trials."""
        return self.status not in (VALID, NEVER_ASKED, OTHER_PROFILE)

    @property
    def declarations(self) -> int:
        """Emergency declarations the scenario does not call for (counted, not failing)."""
        return self.counts.get(CommandClass.UNWARRANTED_DECLARATION, 0)

    @property
    def unsafe(self) -> bool:
        """A dangerous, anti-procedure or harmful command."""
        return bool(self.dangerous or self.anti_procedure or self.harmful)

    def verdict(self) -> tuple[Any, ...]:
        """What the card concludes (two copies of an episode must agree on it)."""
        return (self.status, self.outcome, self.compliant_success, self.completion, self.in_order, self.dangerous,
                self.anti_procedure, self.harmful, tuple(self.invariant_violations), self.diagnosis_match,
                self.diagnosis_beyond_ecam, self.crew_ok)

    def to_dict(self) -> dict[str, Any]:
        d = {f.name: getattr(self, f.name) for f in fields(self)}
        if d["commands"] is None:
            del d["commands"]
        return d


def model_label(meta: dict[str, Any], client_report: dict[str, Any] | None = None) -> str:
    """Who is scored, as rows are grouped: `agent_label`, its reasoning level as leaderboards show
    it, `o3 (high)`, and the track when it is not the main one, `o3 (high) [crew]`."""
    label = agent_label(meta, client_report)
    level = meta.get("reasoning_level")
    if isinstance(level, str) and level:
        label = f"{label} ({level})"
    track = TRACKS.get(str(meta.get("profile", "benchmark")))
    label = label if track in (None, MAIN_TRACK) else f"{label} [{track}]"
    # A served episode (an IDE client probing by hand, another harness) is never pooled with, nor shown as,
    # a benchmark run: its own row, marked.
    return f"{label} [served]" if is_served(meta) else label


def is_served(meta: dict[str, Any]) -> bool:
    """Recorded by `a320-bench serve` (server/surface/serve.py writes meta.entry "serve"), not by `run`."""
    return meta.get("entry") == "serve"


def agent_label(meta: dict[str, Any], client_report: dict[str, Any] | None = None) -> str:
    """meta.model (with a plug-in's name), else the external client's name and model, else the agent."""
    if meta.get("model"):
        if meta.get("agent_kind") not in (None, "builtin") and meta.get("provider"):
            return f"{meta['provider']}/{meta['model']}"  # two plug-ins on one model are two rows
        return str(meta["model"])
    client = meta.get("client")
    name = model = None
    if isinstance(client, dict):
        name = client.get("name") or client.get("client")
        model = client.get("model")
    elif isinstance(client, str):
        name = client
    if client_report:
        name = name or client_report.get("client")
        model = model or client_report.get("model")
    if name:
        return f"{name}/{model}" if model else str(name)
    return str(meta.get("provider") or "unknown")


def score_file(path: str | Path, *, detail: bool = False, warn: Callable[[str], None] | None = None) -> ScoreCard:
    """Score one trajectory. Raises NotATrajectory for a file that is not one.

    A truncated last line is reported through `warn` (once the file is known to
    be a trajectory) and the rest is scored."""
    pending: list[str] = []
    try:
        card = score_events(read_events(path, warn=pending.append), path=str(path), detail=detail,
                            warn=pending.append)
    except UnicodeDecodeError:
        raise NotATrajectory(f"{path}: not an a320-bench trajectory (not UTF-8 text)") from None
    except ValueError as e:
        if isinstance(e, NotATrajectory):
            raise
        raise NotATrajectory(f"{e} (not an a320-bench trajectory?)") from None
    except RecursionError:
        raise NotATrajectory(f"{path}: not an a320-bench trajectory (JSON nested too deeply)") from None
    except OSError as e:
        raise NotATrajectory(f"{path}: cannot read: {e.strerror or e}") from None
    if warn is not None:
        for message in pending:
            warn(message)
    return card


def score_events(events: Iterable[Any], *, path: str = "<events>", detail: bool = False,
                 warn: Callable[[str], None] | None = None) -> ScoreCard:
    """The ScoreCard of one episode's events, as the file says. What the recorder never writes and
    can be seen without the simulator (a call missing or out of place, a call answered after the final)
    is said through `warn`, naming `score --verify`, which checks everything."""
    it = iter(events)
    meta = next(it, None)
    if not isinstance(meta, dict) or meta.get("type") != "meta":
        raise NotATrajectory(f"{path}: not an a320-bench trajectory (the first line is not a `meta` event)")
    version = meta.get("schema_version")
    if isinstance(version, int) and version > TRAJECTORY_SCHEMA_VERSION:
        raise NotATrajectory(f"{path}: trajectory schema_version {version} is newer than this a320-bench "
                             f"reads ({TRAJECTORY_SCHEMA_VERSION}); upgrade a320-bench")
    scenario = meta.get("scenario") if isinstance(meta.get("scenario"), dict) else {}

    setup: dict[str, Any] | None = None
    final: dict[str, Any] | None = None
    client_report: dict[str, Any] | None = None
    tracker: ProcedureTracker | None = None
    profile = str(meta.get("profile", "benchmark"))
    crew = CrewCheck.of(scenario) if profile == CREW_PROFILE else None
    counts = dict.fromkeys(CLASSES, 0)
    commands: list[dict[str, Any]] | None = [] if detail else None
    n_calls = 0
    answered = 0  # calls the server accepted: none after a failed gate, which ends the episode first
    agent_changed = False  # an infrastructure end after the agent changed the aircraft still counts
    violations: list[str] = []
    removed: list[str] = []
    titles: set[str] = set()  # ECAM titles the episode showed: a diagnosis may name them
    last_sim_s: float | None = None
    first_required_sim_s: float | None = None
    reported: Any = None  # report_done arguments, for a trajectory without `final`
    assistant_turns = 0
    spent, captain_spent = _Spend(), _Spend()  # the agent's; an LLM captain's, apart
    calls_digest = hashlib.sha256()
    edited: str | None = None  # the first sign of an edit that reading alone can see
    refused_not_listed = 0  # refused by the captain, taken anyway, not among the scenario's dangerous actions
    blocks_done_at: dict[int, float | None] = {}  # procedure block -> sim time of the command that completed it

    for n, ev in enumerate(it, start=2):
        if not isinstance(ev, dict):
            raise NotATrajectory(f"{path}: event {n} is not a JSON object (not an a320-bench trajectory?)")
        kind = ev.get("type")
        if kind == "tool_call":
            if tracker is None:
                tracker = ProcedureTracker(_ground_truth(setup, scenario, crew))
            name = ev.get("name")
            if not isinstance(name, str):
                name = str(name)
            args = ev.get("arguments")
            calls_digest.update(repr((name, args)).encode())  # as read: a copy of the file hashes alike
            is_error = bool(ev.get("is_error"))
            result = ev.get("result")
            if edited is None:
                edited = _out_of_line(ev.get("seq"), n_calls + 1, answered_after_final=final is not None
                                      and not is_error)
            took = _strs(ev.get("capabilities_removed"))
            c = tracker.classify(name, args, result, is_error, tuple(took), ev.get("preconditions"))
            crew_note = None
            if crew is not None:
                if name == "captain":
                    crew.ecam_changed(ev.get("ecam_changes"))  # shown before it answered (it takes no time)
                    if not is_error:
                        crew.captain(result)
                else:
                    if name == "set_control" and not is_error and isinstance(args, dict) and \
                            not (isinstance(result, dict) and result.get("changed") is False):
                        crew_note = crew.action(args.get("control"), args.get("position"))
                        # One command, one count: a refused one the scenario already calls dangerous adds none.
                        refused_not_listed += crew_note == "refused_taken" and \
                            c.cls is not CommandClass.FORBIDDEN_DANGEROUS
                    crew.ecam_changed(ev.get("ecam_changes"))  # during the call, after its action
            agent_changed = agent_changed or changed_aircraft(ev)
            violations += _strs(ev.get("invariants_violated"))
            if c.cls is CommandClass.HARMFUL:
                removed += took
            counts[c.cls] += 1
            n_calls += 1
            answered += not is_error
            after = ev.get("sim_time_after_s")
            if isinstance(after, (int, float)):
                last_sim_s = after
            if c.cls is CommandClass.REQUIRED:
                before = ev.get("sim_time_before_s")
                at = before if isinstance(before, (int, float)) else after
                if first_required_sim_s is None:
                    first_required_sim_s = at
                for b, steps in enumerate(tracker.done):  # a block with a deadline: when its last step was done
                    if b not in blocks_done_at and all(steps):
                        blocks_done_at[b] = at
            if name in _ECAM_READS and not is_error:
                titles |= _alert_titles(result)
            if name == "report_done" and not is_error and isinstance(args, dict):
                reported = args
            if commands is not None:
                commands.append({"seq": ev.get("seq"), "name": name, "arguments": args, "class": c.cls.value,
                                 "matched": c.matched, "capabilities_removed": took,
                                 "invariants_violated": _strs(ev.get("invariants_violated")),
                                 **({"crew": crew_note} if crew_note else {})})
        elif kind in ("assistant", "usage"):  # a model's turn; what an agent reported it spent
            assistant_turns += 1
            spent.add(ev.get("usage") if kind == "assistant" else ev, ev.get("cost_usd"))
        elif kind == "captain_turn":
            captain_spent.add(ev.get("usage"), ev.get("cost_usd"))
        elif kind == "setup":
            if edited is None and (setup is not None or tracker is not None):
                # The calls are classified by the setup before them, the scenario checked against the last.
                edited = f"a {'second' if setup is not None else 'late'} setup event at line {n}: the recorder " \
                         f"writes one, before the calls"
            setup = ev
            gate = ev.get("gate")
            if isinstance(gate, dict):
                titles |= set(_strs(gate.get("displayed")))
        elif kind == "final":
            final = ev
        elif kind == "client_report":
            client_report = ev
        elif kind == "meta":
            raise NotATrajectory(f"{path}: holds more than one episode (a second `meta` event at line {n}: "
                                 f"files concatenated?)")

    gate = None
    if final is not None:
        gate = final.get("gate") if isinstance(final.get("gate"), dict) else (setup or {}).get("gate")
    gate_passed = bool(gate.get("passed")) if isinstance(gate, dict) else True
    if edited is None and not gate_passed and (answered or final.get("reason") != EndReason.INVALID_SCENARIO):
        edited = f"the gate failed, yet {answered} call(s) were answered and the episode ended " \
                 f"{final.get('reason')}: a failed gate ends it invalid_scenario before the agent is asked"
    if warn is not None:
        for sign in (edited, disagreement(meta, setup), renamed_episode(meta, scenario)):
            if sign is not None:
                warn(f"{path}: {sign} (edited? score --verify checks it)")
    if tracker is None:
        tracker = ProcedureTracker(_ground_truth(setup, scenario, crew))
    if assistant_turns == 0 and client_report is not None:
        usage = client_report.get("usage")
        if isinstance(usage, dict):
            spent.input_tokens = _int(usage.get("input_tokens"))
            spent.output_tokens = _int(usage.get("output_tokens"))
        spent.cost_usd = _usd(client_report.get("cost_usd"))

    if final is not None:
        reason = final.get("reason")
        reason = reason if isinstance(reason, str) else None if reason is None else str(reason)
        if kind_of(reason) is not None and not counts_as_result(reason, agent_changed):
            status = str(reason)  # excluded: infrastructure before any change, harness, invalid
        elif profile not in TRACKS:
            status = OTHER_PROFILE
        elif not gate_passed and not answered:  # answered calls say the agent was asked: its result counts
            status = NEVER_ASKED
        else:
            status = VALID
        success = final.get("success")
        end_state = bool(success.get("passed")) if isinstance(success, dict) else False
        # The final lists the calls' violations, then those of the end state (speed brakes left out).
        listed = success.get("invariant_violations") if isinstance(success, dict) else None
        if isinstance(listed, list):
            violations += [str(v.get("invariant")) for v in listed[len(violations):] if isinstance(v, dict)]
        titles |= _alert_titles(final.get("final_ecam"))
        report = final.get("report_done")
        used = final.get("tool_calls_used")
        tool_calls = used if isinstance(used, int) else n_calls
        sim_s = final.get("sim_time_s")
        sim_time_s = sim_s if isinstance(sim_s, (int, float)) else last_sim_s
    else:
        reason, status, end_state, report = None, INCOMPLETE, False, reported
        tool_calls, sim_time_s = n_calls, last_sim_s

    gt = tracker.gt
    crew_missed = crew.missed(sim_time_s) if crew is not None else 0
    crew_ok = None if crew is None else (crew.unconfirmed == 0 and crew.refused_taken == 0 and crew_missed == 0)
    # A refused action taken anyway is dangerous, like the scenario's dangerous actions.
    dangerous = counts[CommandClass.FORBIDDEN_DANGEROUS] + refused_not_listed
    anti_procedure = counts[CommandClass.FORBIDDEN_ANTI_PROCEDURE]
    harmful = counts[CommandClass.HARMFUL]
    in_order = counts[CommandClass.OUT_OF_ORDER] == 0
    completion = tracker.completion
    outcome = end_state and not violations
    reported_done = reason == EndReason.AGENT_DONE
    # Harm by waiting: a fire left burning while the agent reads is not by the book, however it ends.
    late_reason = _late(gt, first_required_sim_s, blocks_done_at)
    # The scenario flown is the one embedded (its hash is checked): meta.scenario_id names it, unless edited.
    scenario_id = _text(scenario.get("id") or meta.get("scenario_id") or (final or {}).get("scenario_id") or "?")
    model = model_label(meta, client_report)
    run_index = meta.get("run_index", (client_report or {}).get("run_index"))
    harness = _str_or_none((meta.get("versions") if isinstance(meta.get("versions"), dict) else {}).get("a320-bench"))
    # A served episode's meta comes from the server; the client bridge knows the run.
    episode_id = meta.get("episode_id", (client_report or {}).get("episode_id"))
    return ScoreCard(
        path=path,
        scenario_id=scenario_id,
        system=_str_or_none(scenario.get("system")),
        phase=_str_or_none(scenario.get("phase")),
        tags=[str(t) for t in scenario.get("tags") or []] if isinstance(scenario.get("tags"), list) else [],
        model=model,
        provider=_str_or_none(meta.get("provider")),
        reasoning_level=_str_or_none(meta.get("reasoning_level")),
        track=TRACKS.get(profile, profile),
        run_index=run_index if isinstance(run_index, int) else None,
        episode_id=_str_or_none(episode_id),
        status=status,
        reason=reason,
        reported_done=reported_done,
        outcome=outcome,
        compliant_success=(reported_done and outcome and completion == 1.0 and in_order and late_reason is None
                           and dangerous == 0 and anti_procedure == 0 and harmful == 0 and crew_ok is not False),
        completion=completion,
        steps_satisfied=tracker.satisfied,
        steps_total=tracker.total,
        in_order=in_order,
        counts=counts,
        dangerous=dangerous,
        anti_procedure=anti_procedure,
        harmful=harmful,
        extraneous=counts[CommandClass.EXTRANEOUS],
        invariant_violations=violations,
        capabilities_removed=sorted(set(removed)),
        diagnosis_match=diagnosis_matches(report, gt.diagnosis_keywords, titles),
        diagnosis_beyond_ecam=beyond_ecam(report, gt.diagnosis_keywords, titles),
        tool_calls=tool_calls,
        sim_time_s=sim_time_s,
        first_required_sim_s=first_required_sim_s,
        input_tokens=spent.input_tokens,
        output_tokens=spent.output_tokens,
        cost_usd=spent.cost_usd,
        crew_ok=crew_ok,
        crew_unconfirmed=crew.unconfirmed if crew is not None else 0,
        crew_refused_taken=crew.refused_taken if crew is not None else 0,
        crew_missed_instructions=crew_missed,
        captain_input_tokens=captain_spent.input_tokens,
        captain_output_tokens=captain_spent.output_tokens,
        captain_cost_usd=captain_spent.cost_usd,
        act_within_s=gt.act_within_s,
        late=late_reason is not None,
        late_reason=late_reason,
        learning_position=_learning_position(meta),
        scenario_sha256=_str_or_none(meta.get("scenario_sha256")),
        a320bench_version=harness,
        served=is_served(meta),
        calls_sha256=calls_digest.hexdigest(),
        identity=episode_identity(scenario_id, model, run_index, calls_digest.hexdigest(),
                                  _str_or_none(meta.get("scenario_sha256")), harness),
        commands=commands,
    )


def _late(gt: Any, first_required_s: float | None, blocks_done_at: dict[int, float | None]) -> str | None:
    """What the scenario wanted sooner (ground_truth.act_within_s, a block's due_within_s), on the agent's
    clock; None when nothing was late. A deadline never met (the action or block never done) is late too."""
    def at(t: float | None) -> str:
        return "never" if t is None else f"at {t:g} s"

    if gt.act_within_s is not None and (first_required_s is None or first_required_s > gt.act_within_s):
        return f"first required action {at(first_required_s)}, due by {gt.act_within_s:g} s"
    for b, block in enumerate(gt.procedure):
        done = blocks_done_at.get(b)
        if block.due_within_s is not None and (done is None or done > block.due_within_s):
            return f"{block.name} done {at(done)}, due by {block.due_within_s:g} s"
    return None


@dataclass(slots=True)
class _Spend:
    """Tokens and cost summed over events (a cost stays None until one is recorded)."""

    input_tokens: int = 0
    output_tokens: int = 0
    cost_usd: float | None = None

    def add(self, usage: Any, cost_usd: Any) -> None:
        if isinstance(usage, dict):
            self.input_tokens += _int(usage.get("input_tokens"))
            self.output_tokens += _int(usage.get("output_tokens"))
        usd = _usd(cost_usd)
        if usd is not None:
            self.cost_usd = (self.cost_usd or 0.0) + usd


def episode_identity(scenario_id: str, model: str, run_index: Any, calls_sha256: str,
                     scenario_sha256: str | None = None, a320bench_version: str | None = None) -> str:
    """Two files with the same identity are the same episode given twice: the same scenario (and version
    of it), model and run index, and the same calls, recorded by the same a320-bench. By content, not
    by `meta.ts` or the episode id, which an edit changes at will; a copy whose calls differ is another
    episode (its run record tells whether it was planned), and so are the same calls against another
    version of the scenario or recorded by another version of a320-bench (their verdicts may differ:
    both are scored, and the versions named)."""
    return "|".join((scenario_id, scenario_sha256 or "", a320bench_version or "", model, _text(run_index),
                     calls_sha256))


def _learning_position(meta: dict[str, Any]) -> int | None:
    learning = meta.get("learning")
    position = learning.get("position") if isinstance(learning, dict) else None
    return position if isinstance(position, int) and not isinstance(position, bool) else None


def _alert_titles(ecam: Any) -> set[str]:
    alerts = ecam.get("alerts") if isinstance(ecam, dict) else None
    return {a["title"] for a in alerts if isinstance(a, dict) and isinstance(a.get("title"), str)} \
        if isinstance(alerts, list) else set()


_RUN_EPISODE_ID = re.compile(r"(?P<scenario>[^/]+)/.+__run(?P<run>\d{3,})")  # run's: <scenario>/<label>__runNNN


def renamed_episode(meta: dict[str, Any], scenario: dict[str, Any]) -> str | None:
    """An episode `run` flew names its scenario and run index in its episode_id (executors/chain.py): a copy
    of it given another run index, or another scenario, says so unless that was edited too."""
    m = _RUN_EPISODE_ID.fullmatch(str(meta.get("episode_id")))
    if m is None:
        return None
    run_index = meta.get("run_index")
    sid = scenario.get("id", meta.get("scenario_id"))
    if m["scenario"] != sid or int(m["run"]) != run_index:
        return (f"meta.episode_id {meta['episode_id']!r} names {m['scenario']} run {int(m['run'])}, the file "
                f"{sid} run {run_index} (a copy?)")
    return None


def _out_of_line(seq: Any, due: int, *, answered_after_final: bool) -> str | None:
    """What the recorder never writes, at one call: its calls are numbered 1, 2, ... as made, and after
    the final every call is refused."""
    if seq != due:
        return f"tool_call {due} has seq {seq} where {due} was due: a recorded call is missing or out of place"
    if answered_after_final:
        return f"call seq {seq} after the final was answered: the server refuses every call after the end"
    return None


def classifying_setup(events: Iterable[Any]) -> dict[str, Any] | None:
    """The setup event `score_events` classifies the calls by: the last one before the first call, else the
    last one (the recorder writes one, before the calls; a second is an edit, which score warns of)."""
    setup = None
    for ev in events:
        kind = ev.get("type") if isinstance(ev, dict) else None
        if kind == "tool_call":
            break
        if kind == "setup":
            setup = ev
    return setup


def _ground_truth(setup: dict[str, Any] | None, scenario: dict[str, Any], crew: CrewCheck | None = None
                  ) -> GroundTruth:
    if setup is not None and isinstance(setup.get("ground_truth"), dict):
        gt = GroundTruth.from_dict(setup["ground_truth"])
    else:
        gt = GroundTruth.from_dict(scenario.get("ground_truth"))
    if crew is not None:  # the captain's instructions call for their actions
        gt = replace(gt, optional_actions=gt.optional_actions + crew.called_for())
    return gt


def _strs(x: Any) -> list[str]:
    return [str(v) for v in x] if isinstance(x, list) else []


def _text(x: Any) -> str:
    return x if isinstance(x, str) else "" if x is None else str(x)


def _str_or_none(x: Any) -> str | None:
    return None if x is None else str(x)


def _int(x: Any) -> int:
    """A count of tokens: a whole number, 0 or more (anything else counts nothing)."""
    return x if isinstance(x, int) and not isinstance(x, bool) and x >= 0 else 0


def _usd(x: Any) -> float | None:
    """An amount of money: finite, 0 or more (a plug-in writes its own usage events; NaN is not JSON)."""
    ok = isinstance(x, (int, float)) and not isinstance(x, bool) and math.isfinite(x) and x >= 0
    return float(x) if ok else None
