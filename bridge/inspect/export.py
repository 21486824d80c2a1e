"""Trajectories -> Inspect AI eval logs (`a320-bench export --inspect PATH... -o DIR`).

One log per model (or provider, or client) found in the trajectories, named
`<first episode's time>_a320_<label>.eval`; one sample per episode:

    id, epoch            the scenario id; its episodes numbered 1..n in run order (the run index + 1
                         for one run folder; metadata.run_index says which run it was)
    input, target        the task prompt; the procedure's steps in order ("GEN 1 OFF; ...")
    messages             the profile's instructions (system), the task prompt (user), then the
                         model's turns with their tool calls and each call's result (a tool
                         error as an Inspect ToolCallError). A provider or client that left no
                         `assistant` events (the baselines, an external client) gets one
                         assistant message per recorded call, marked `synthesized`
    scores["a320"]       our ScoreCard's headline values (compliant_success, outcome, completion,
                         in_order, unsafe counts), the end reason as explanation, the report_done
                         diagnosis as answer, the whole card as metadata. An episode `score` leaves
                         out of its means (invalid scenario, infrastructure, another profile) has
                         no score but a sample error saying so, as in the task
    results              score's overall numbers for the model: counted as `score` counts
                         (score/counting.py: against the run records, each episode once)
    metadata             scenario, system, phase, run index, end reason, status, the trajectory file
    model_usage          tokens and cost, where the provider recorded them

Nothing is re-run: the logs say what the trajectories say, scored by our scorer.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from a320bench.paths import make_parent_folders

from ..score.counting import counted, planned, report_plan, stderr_warning
from ..selection import slug

TASK = "a320"
SCORER = "a320bench"
HEADLINE = ("compliant_success", "outcome", "completion", "in_order", "dangerous", "anti_procedure", "harmful")


@dataclass
class _Episode:
    path: Path
    events: list[dict[str, Any]]
    card: Any

    @property
    def meta(self) -> dict[str, Any]:
        return self.events[0]

    @property
    def final(self) -> dict[str, Any]:
        finals = [e for e in self.events if e.get("type") == "final"]
        return finals[-1] if finals else {}


@dataclass
class _Group:
    label: str
    overall: dict[str, Any]  # score's overall row of this model
    episodes: list[_Episode] = field(default_factory=list)


def export_inspect(files: Sequence[Path], out_dir: Path, paths: Sequence[str | Path] = (),
                   warn: Callable[[str], None] = stderr_warning) -> list[Path]:
    """Write one Inspect eval log per model into `out_dir`; the paths written. `paths`: the folders the files
    came from, whose run records set the plan (score/counting.py: the log's metrics are `score`'s). Raises
    NotATrajectory (from the scorer) for a file that is not a trajectory, OSError for a log that cannot be written."""
    from inspect_ai.log import write_eval_log

    from ..score.scorecard import score_events
    from a320bench.server.trajectory import read_events

    files, plan = planned(paths, list(files))
    read: dict[int, _Episode] = {}
    for f in files:
        events = list(read_events(f))
        card = score_events(events, path=str(f))
        read[id(card)] = _Episode(f, events, card)
    report_plan(plan, warn)
    result = counted([e.card for e in read.values()], plan, warn=warn)
    overall = {row["model"]: row for row in result.aggregates["overall"]}
    groups: dict[str, _Group] = {}
    for card in result.cards:
        groups.setdefault(card.model, _Group(card.model, overall[card.model])).episodes.append(read[id(card)])
    make_parent_folders(out_dir / "log")  # names a file in the way, where mkdir says only "Not a directory"
    written = []
    for group in groups.values():
        group.episodes.sort(key=lambda e: (e.card.scenario_id, e.card.run_index or 0, str(e.path)))
        log = eval_log(group)
        created = log.eval.created.replace(":", "-").replace("+00-00", "Z")
        path = out_dir / f"{created}_{TASK}_{slug(group.label)}.eval"
        write_eval_log(log, str(path))
        written.append(path)
    return written


def eval_log(group: _Group) -> Any:
    from inspect_ai.log import EvalConfig, EvalDataset, EvalLog, EvalMetric, EvalResults, EvalScore, EvalSpec, EvalStats

    import a320bench

    # Inspect keeps one sample per (id, epoch): a scenario's episodes are its epochs 1..n, in run order (the run
    # index + 1 for one run folder; two folders' run 0 would otherwise be one sample).
    epochs: dict[str, int] = {}
    samples = []
    for e in group.episodes:
        epochs[e.card.scenario_id] = epochs.get(e.card.scenario_id, 0) + 1
        samples.append(_sample(e, epochs[e.card.scenario_id]))
    metas = [e.meta for e in group.episodes]
    started = min(m.get("ts", "") for m in metas)
    completed = max(e.final.get("ts", "") or e.events[-1].get("ts", "") for e in group.episodes)
    model = _model_name(group.episodes[0])
    scored = [e.card for e in group.episodes if e.card.valid]
    values = {"compliant_success": group.overall["compliant_success"]["rate"],
              "outcome": group.overall["outcome_success"]["rate"], "completion": group.overall["completion_mean"]}
    metrics = {k: EvalMetric(name=k, value=v) for k, v in values.items() if v is not None}
    return EvalLog(
        status="success",
        eval=EvalSpec(created=started, task=TASK, task_version=1, dataset=EvalDataset(
            name="a320-bench", samples=len(samples), sample_ids=[s.id for s in samples]),
            model=model, config=EvalConfig(), packages={"a320-bench": a320bench.__version__},
            metadata={"exported_from": sorted({str(e.path.parent.parent) for e in group.episodes}),
                      "label": group.label}),
        results=EvalResults(total_samples=len(samples), completed_samples=len(samples), scores=[
            EvalScore(name=TASK, scorer=SCORER, scored_samples=len(scored),
                      unscored_samples=len(samples) - len(scored), metrics=metrics)]),
        stats=EvalStats(started_at=started, completed_at=completed),
        samples=samples,
    )


def _model_name(ep: _Episode) -> str:
    meta = ep.meta
    if meta.get("model"):
        return str(meta["model"])
    if meta.get("client"):
        return f"{meta['client']}/{meta.get('client_model') or 'default'}"
    return f"a320bench/{meta.get('provider') or 'unknown'}"


def _target(meta: dict[str, Any]) -> str:
    blocks = ((meta.get("scenario") or {}).get("ground_truth") or {}).get("procedure") or []
    return "; ".join(f"{s.get('control')} {s.get('position')}" for b in blocks for s in b.get("steps", []))


def _sample(ep: _Episode, epoch: int) -> Any:
    from inspect_ai.log import EvalError, EvalSample
    from inspect_ai.model import ModelOutput, ModelUsage
    from inspect_ai.scorer import Score

    meta, card, final = ep.meta, ep.card, ep.final
    scenario = meta.get("scenario") or {}
    prompt = str(scenario.get("task_prompt") or "")
    messages = _messages(ep.events, prompt, meta)
    report = final.get("report_done") if isinstance(final.get("report_done"), dict) else {}
    card_dict = card.to_dict()
    usage = {}
    if card.input_tokens or card.output_tokens:
        usage[_model_name(ep)] = ModelUsage(input_tokens=card.input_tokens, output_tokens=card.output_tokens,
                                            total_tokens=card.input_tokens + card.output_tokens,
                                            total_cost=card.cost_usd)
    scores, error = {}, None
    if card.valid:
        scores[TASK] = Score(value={k: card_dict[k] for k in HEADLINE}, answer=report.get("diagnosis"),
                             explanation=f"ended {card.reason}; status {card.status}", metadata=card_dict)
    else:  # what score leaves out of its means is no score, as in the task: a sample error saying why
        ended = "" if card.reason == card.status else f" (the episode ended {card.reason})"
        error = EvalError(message=f"{card.scenario_id}: status {card.status}{ended}; score leaves it out of every mean",
                          traceback="", traceback_ansi="")
    return EvalSample(
        id=card.scenario_id, epoch=epoch, input=prompt, target=_target(meta),
        messages=messages,
        output=ModelOutput.from_content(_model_name(ep), str(report.get("diagnosis") or "")),
        scores=scores, error=error,
        metadata={"scenario_id": card.scenario_id, "system": card.system, "phase": card.phase,
                  "run_index": card.run_index, "reason": card.reason, "status": card.status,
                  "episode_id": card.episode_id, "trajectory": str(ep.path), "tool_calls": card.tool_calls,
                  "sim_time_s": card.sim_time_s},
        model_usage=usage, started_at=meta.get("ts"), completed_at=final.get("ts"),
    )


def _messages(events: Iterable[dict[str, Any]], prompt: str, meta: dict[str, Any]) -> list[Any]:
    from inspect_ai.model import ChatMessageAssistant, ChatMessageSystem, ChatMessageTool, ChatMessageUser
    from inspect_ai.tool import ToolCall, ToolCallError

    messages: list[Any] = []
    instructions = _instructions(meta)
    if instructions:
        messages.append(ChatMessageSystem(content=instructions))
    messages.append(ChatMessageUser(content=prompt))
    pending: list[str] = []  # ids of the model's tool calls not yet matched with a recorded call
    for e in events:
        kind = e.get("type")
        if kind == "assistant":
            calls = [ToolCall(id=str(c.get("id") or f"call_{i}"), function=str(c.get("name")),
                              arguments=_arguments(c.get("arguments")))
                     for i, c in enumerate(e.get("tool_calls") or [])]
            messages.append(ChatMessageAssistant(content=str(e.get("text") or ""), tool_calls=calls or None))
            pending = [c.id for c in calls]
        elif kind == "nudge":
            messages.append(ChatMessageUser(content=str(e.get("text") or "")))
        elif kind == "tool_call":
            if pending:
                call_id = pending.pop(0)
            else:  # no model turn recorded it: a baseline or an external client
                call_id = f"call_{e.get('seq', len(messages))}"
                messages.append(ChatMessageAssistant(content="", metadata={"synthesized": True}, tool_calls=[
                    ToolCall(id=call_id, function=str(e.get("name")), arguments=_arguments(e.get("arguments")))]))
            result = e.get("result")
            text = result if isinstance(result, str) else json.dumps(result, ensure_ascii=False)
            error = ToolCallError("unknown", text) if e.get("is_error") else None
            messages.append(ChatMessageTool(content=text, tool_call_id=call_id, function=str(e.get("name")),
                                            error=error))
    return messages


def _arguments(raw: Any) -> dict[str, Any]:
    if isinstance(raw, dict):
        return raw
    if isinstance(raw, str):
        try:
            parsed = json.loads(raw)
        except ValueError:
            return {"raw": raw}
        return parsed if isinstance(parsed, dict) else {"raw": raw}
    return {}


def _instructions(meta: dict[str, Any]) -> str | None:
    """The profile's instructions, when this installation's profile is the one the episode ran with."""
    from a320bench.server.session import sha256_text
    from a320bench.server.surface.profiles import ProfileError, load_profile

    try:
        profile = load_profile(str(meta.get("profile")))
    except ProfileError:
        return None
    return profile.instructions if sha256_text(profile.instructions) == meta.get("instructions_sha256") else None
