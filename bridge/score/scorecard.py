"""One trajectory file -> one ScoreCard.

Events are streamed: only what the card needs is kept (the per-command list
only with `detail`). The card's `status` is "valid" when the gate passed and the
episode did not end on an infrastructure error; otherwise it is that end reason,
or "incomplete" when the trajectory has no `final` event. Non-valid episodes are
excluded from means by the aggregation, unless it is told to count them.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any

from a320bench.server.end_reason import counts_as_result, kind_of
from a320bench.server.trajectory import TRAJECTORY_SCHEMA_VERSION, changed_aircraft, read_events

from .classify import CommandClass, ProcedureTracker
from .diagnosis import diagnosis_matches
from .groundtruth import GroundTruth

VALID = "valid"
INCOMPLETE = "incomplete"
# Episodes flown with another profile (e.g. dev, where the agent can inject failures) are
# reported but never scored as benchmark results.
OTHER_PROFILE = "not_benchmark_profile"
CLASSES = tuple(c.value for c in CommandClass)


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
    run_index: int | None
    episode_id: str | None
    status: str
    reason: str | None
    outcome: bool
    compliant_success: bool
    completion: float
    steps_satisfied: int
    steps_total: int
    in_order: bool
    counts: dict[str, int]
    dangerous: int
    anti_procedure: int
    extraneous: int
    diagnosis_match: bool
    tool_calls: int
    sim_time_s: float | None
    first_required_sim_s: float | None
    input_tokens: int
    output_tokens: int
    cost_usd: float | None
    commands: list[dict[str, Any]] | None = field(default=None)

    @property
    def valid(self) -> bool:
        return self.status == VALID

    def to_dict(self) -> dict[str, Any]:
        d = {f.name: getattr(self, f.name) for f in fields(self)}
        if d["commands"] is None:
            del d["commands"]
        return d


def model_label(meta: dict[str, Any], client_report: dict[str, Any] | None = None) -> str:
    """meta.model, else the external client's name and model, else the provider."""
    if meta.get("model"):
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
        card = score_events(read_events(path, warn=pending.append), path=str(path), detail=detail)
    except UnicodeDecodeError:
        raise NotATrajectory(f"{path}: not an a320-bench trajectory (not UTF-8 text)") from None
    except ValueError as e:
        if isinstance(e, NotATrajectory):
            raise
        raise NotATrajectory(f"{e} (not an a320-bench trajectory?)") from None
    except OSError as e:
        raise NotATrajectory(f"{path}: cannot read: {e.strerror or e}") from None
    if warn is not None:
        for message in pending:
            warn(message)
    return card


def score_events(events: Iterable[Any], *, path: str = "<events>", detail: bool = False) -> ScoreCard:
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
    counts = dict.fromkeys(CLASSES, 0)
    commands: list[dict[str, Any]] | None = [] if detail else None
    n_calls = 0
    agent_changed = False  # an infrastructure end after the agent changed the aircraft still counts
    last_sim_s: float | None = None
    first_required_sim_s: float | None = None
    reported: Any = None  # report_done arguments, for a trajectory without `final`
    assistant_turns = 0
    input_tokens = output_tokens = 0
    cost: float | None = None

    for n, ev in enumerate(it, start=2):
        if not isinstance(ev, dict):
            raise NotATrajectory(f"{path}: event {n} is not a JSON object (not an a320-bench trajectory?)")
        kind = ev.get("type")
        if kind == "tool_call":
            if tracker is None:
                tracker = ProcedureTracker(_ground_truth(setup, scenario))
            name = ev.get("name")
            if not isinstance(name, str):
                name = str(name)
            args = ev.get("arguments")
            is_error = bool(ev.get("is_error"))
            c = tracker.classify(name, args, ev.get("result"), is_error)
            agent_changed = agent_changed or changed_aircraft(ev)
            counts[c.cls] += 1
            n_calls += 1
            after = ev.get("sim_time_after_s")
            if isinstance(after, (int, float)):
                last_sim_s = after
            if c.cls is CommandClass.REQUIRED and first_required_sim_s is None:
                before = ev.get("sim_time_before_s")
                first_required_sim_s = before if isinstance(before, (int, float)) else after
            if name == "report_done" and not is_error and isinstance(args, dict):
                reported = args
            if commands is not None:
                commands.append({"seq": ev.get("seq"), "name": name, "arguments": args, "class": c.cls.value,
                                 "matched": c.matched})
        elif kind == "assistant":
            assistant_turns += 1
            usage = ev.get("usage")
            if isinstance(usage, dict):
                input_tokens += _int(usage.get("input_tokens"))
                output_tokens += _int(usage.get("output_tokens"))
            c_usd = ev.get("cost_usd")
            if isinstance(c_usd, (int, float)):
                cost = (cost or 0.0) + c_usd
        elif kind == "setup":
            setup = ev
        elif kind == "final":
            final = ev
        elif kind == "client_report":
            client_report = ev

    if tracker is None:
        tracker = ProcedureTracker(_ground_truth(setup, scenario))
    if assistant_turns == 0 and client_report is not None:
        usage = client_report.get("usage")
        if isinstance(usage, dict):
            input_tokens = _int(usage.get("input_tokens"))
            output_tokens = _int(usage.get("output_tokens"))
        c_usd = client_report.get("cost_usd")
        cost = float(c_usd) if isinstance(c_usd, (int, float)) else None

    if final is not None:
        reason = final.get("reason")
        gate = final.get("gate") if isinstance(final.get("gate"), dict) else (setup or {}).get("gate")
        gate_passed = bool(gate.get("passed")) if isinstance(gate, dict) else True
        if kind_of(reason) is not None and not counts_as_result(reason, agent_changed):
            status = str(reason)  # excluded: infrastructure before any change, harness, invalid
        elif meta.get("profile", "benchmark") != "benchmark":
            status = OTHER_PROFILE
        elif not gate_passed:
            status = "invalid_scenario"
        else:
            status = VALID
        success = final.get("success")
        outcome = bool(success.get("passed")) if isinstance(success, dict) else False
        report = final.get("report_done")
        used = final.get("tool_calls_used")
        tool_calls = used if isinstance(used, int) else n_calls
        sim_s = final.get("sim_time_s")
        sim_time_s = sim_s if isinstance(sim_s, (int, float)) else last_sim_s
    else:
        reason, status, outcome, report = None, INCOMPLETE, False, reported
        tool_calls, sim_time_s = n_calls, last_sim_s

    gt = tracker.gt
    dangerous = counts[CommandClass.FORBIDDEN_DANGEROUS]
    in_order = counts[CommandClass.OUT_OF_ORDER] == 0
    completion = tracker.completion
    return ScoreCard(
        path=path,
        scenario_id=str(meta.get("scenario_id") or scenario.get("id") or (final or {}).get("scenario_id") or "?"),
        system=_str_or_none(scenario.get("system")),
        phase=_str_or_none(scenario.get("phase")),
        tags=[str(t) for t in scenario.get("tags") or []] if isinstance(scenario.get("tags"), list) else [],
        model=model_label(meta, client_report),
        provider=meta.get("provider"),
        # A served episode's meta comes from the server; the client bridge knows the run.
        run_index=meta.get("run_index", (client_report or {}).get("run_index")),
        episode_id=meta.get("episode_id", (client_report or {}).get("episode_id")),
        status=status,
        reason=reason,
        outcome=outcome,
        compliant_success=outcome and completion == 1.0 and in_order and dangerous == 0,
        completion=completion,
        steps_satisfied=tracker.satisfied,
        steps_total=tracker.total,
        in_order=in_order,
        counts=counts,
        dangerous=dangerous,
        anti_procedure=counts[CommandClass.FORBIDDEN_ANTI_PROCEDURE],
        extraneous=counts[CommandClass.EXTRANEOUS],
        diagnosis_match=diagnosis_matches(report, gt.diagnosis_keywords),
        tool_calls=tool_calls,
        sim_time_s=sim_time_s,
        first_required_sim_s=first_required_sim_s,
        input_tokens=input_tokens,
        output_tokens=output_tokens,
        cost_usd=cost,
        commands=commands,
    )


def _ground_truth(setup: dict[str, Any] | None, scenario: dict[str, Any]) -> GroundTruth:
    if setup is not None and isinstance(setup.get("ground_truth"), dict):
        return GroundTruth.from_dict(setup["ground_truth"])
    return GroundTruth.from_dict(scenario.get("ground_truth"))


def _str_or_none(x: Any) -> str | None:
    return None if x is None else str(x)


def _int(x: Any) -> int:
    return x if isinstance(x, int) and not isinstance(x, bool) else 0
