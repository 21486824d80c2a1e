"""One trajectory -> what its episode page shows, as plain JSON-able data.

The verdict and every command's class come from the ScoreCard (scoring decides
them, not the report); the events add what only a page needs: when each call
ran on the simulated clock, the ECAM alerts as intervals (from `ecam_changes`,
see server/alert_log.py), the expected procedure with the command that did each
step, the diagnosis keywords, the success criteria's values at the end (and after the
hands-off flight: server/scenario/hands_off.py), and the
transcript's turns. Long texts are cut (TEXT_LIMIT) so 10,000 episodes fit in one file.
"""

from __future__ import annotations

import json
from typing import Any

from ..score.diagnosis import diagnosis_matches
from ..score.scorecard import ScoreCard, classifying_setup

TEXT_LIMIT = 2000  # characters of one assistant turn, a diagnosis or a message
ARG_LIMIT = 200

# What a reader calls each class; an unknown class (a newer score) shows its own name.
CLASS_LABELS = {
    "required": "correct", "out_of_order": "out of order", "optional": "optional",
    "redundant": "unnecessary", "extraneous": "unnecessary", "harmful": "harmful",
    "forbidden_dangerous": "forbidden (dangerous)", "forbidden_anti_procedure": "forbidden (anti-procedure)",
    "invalid": "invalid", "no_op": "no-op", "observation": "read",
    "unwarranted_declaration": "declaration (no emergency)",
}
STEP_CLASSES = ("required", "out_of_order")


# Observations that are not reads, named for what they are.
OBSERVATION_LABELS = {"wait": "wait", "report_done": "report"}


def class_label(cls: str, matched: Any = None, tool: str = "") -> str:
    if cls == "redundant" and isinstance(matched, dict) and matched.get("kind") == "no_change":
        return "no-op"  # the control already showed that position
    if cls == "observation":
        return OBSERVATION_LABELS.get(tool, "read")
    return CLASS_LABELS.get(cls, cls.replace("_", " "))


def _cut(text: Any, limit: int = TEXT_LIMIT) -> str:
    s = text if isinstance(text, str) else ("" if text is None else json.dumps(text, ensure_ascii=False, default=str))
    return s if len(s) <= limit else s[:limit] + f"… [{len(s) - limit} more characters]"


def _num(x: Any) -> float | None:
    return x if isinstance(x, (int, float)) and not isinstance(x, bool) else None


def episode_timeline(events: list[dict[str, Any]], card: ScoreCard) -> dict[str, Any]:
    meta = events[0] if events else {}
    scenario = meta.get("scenario") if isinstance(meta.get("scenario"), dict) else {}
    setup = classifying_setup(events) or {}  # the one scoring classified the calls by, if the file has two
    finals = [e for e in events if e.get("type") == "final"]
    final = finals[-1] if finals else {}
    calls = [e for e in events if e.get("type") == "tool_call"]
    gt = setup.get("ground_truth") if isinstance(setup.get("ground_truth"), dict) else scenario.get("ground_truth")
    gt = gt if isinstance(gt, dict) else {}
    budget = _dict(setup.get("budget")) or _dict(scenario.get("budget"))
    commands = card.commands or []
    end_s = _num(card.sim_time_s) or max((_num(c.get("sim_time_after_s")) or 0.0 for c in calls), default=0.0)
    report = card_report(final, calls)
    return {
        "scenario": card.scenario_id, "title": _cut(scenario.get("title"), 300), "system": card.system,
        "model": card.model, "run": card.run_index, "path": card.path,
        "status": card.status, "reason": card.reason, "outcome": card.outcome, "compliant": card.compliant_success,
        "completion": card.completion, "steps": [card.steps_satisfied, card.steps_total], "in_order": card.in_order,
        "dangerous": card.dangerous, "anti_procedure": card.anti_procedure, "diagnosis_match": card.diagnosis_match,
        "tool_calls": card.tool_calls, "sim_s": end_s, "tokens": [card.input_tokens, card.output_tokens],
        "cost": card.cost_usd, "task": _cut(scenario.get("task_prompt"), 1000),
        "budget": {"tool_calls": budget.get("max_tool_calls"), "sim_s": budget.get("max_sim_time_s")},
        "calls": [_call(ev, cmd) for ev, cmd in zip(calls, commands)],
        "alerts": alert_intervals(calls, final),
        "procedure": _procedure(gt, commands),
        "optional": [f"{a.get('control')} {a.get('position')}" for a in _dicts(gt.get("optional_actions"))],
        "forbidden": _forbidden(gt, commands),
        "report": {k: _cut(v) for k, v in report.items()} if report else None,
        "keywords": _keywords(report, gt.get("diagnosis_keywords")),
        "criteria": _criteria(final.get("success")),
        "final_ecam": [a.get("title") for a in _dicts(_dict(final.get("final_ecam")).get("alerts"))],
        "turns": _turns(events),
        "client": _client(events),
    }


def card_report(final: dict[str, Any], calls: list[dict[str, Any]]) -> dict[str, Any] | None:
    """report_done's payload: the final's, else the last accepted report_done call's."""
    if isinstance(final.get("report_done"), dict):
        return final["report_done"]
    for ev in reversed(calls):
        if ev.get("name") == "report_done" and not ev.get("is_error") and isinstance(ev.get("arguments"), dict):
            return ev["arguments"]
    return None


def _call(ev: dict[str, Any], cmd: dict[str, Any]) -> dict[str, Any]:
    args = ev.get("arguments")
    name = str(ev.get("name"))
    if name == "report_done":
        args = {}  # shown in full in the diagnosis section
    elif isinstance(args, dict):
        args = {str(k): _cut(v, ARG_LIMIT) if isinstance(v, str) else v for k, v in args.items()}
    else:
        args = {"arguments": _cut(args, ARG_LIMIT)}
    cls = str(cmd.get("class"))
    return {"seq": ev.get("seq"), "tool": name, "args": args, "cls": cls, "label": class_label(cls, cmd.get("matched"), name),
            "t0": _num(ev.get("sim_time_before_s")), "t1": _num(ev.get("sim_time_after_s")),
            "error": bool(ev.get("is_error")), "note": _note(name, ev), "match": _match(cmd.get("matched"))}


def _note(name: str, ev: dict[str, Any]) -> str:
    r = ev.get("result")
    if ev.get("is_error"):
        return _cut(r.get("error") if isinstance(r, dict) else r, 400)
    if not isinstance(r, dict):
        return ""
    if name == "set_control":
        if r.get("pushed"):
            return f"pushed; springs back to {r.get('position')}"
        if r.get("changed") is False:
            return f"already {r.get('position')}: nothing changed"
        return f"{r['previous']} → {r.get('position')}" if r.get("previous") else f"→ {r.get('position')}"
    if name == "wait":
        return f"waited {r.get('waited_s')} s"
    if name == "read_ecam":  # the lines too: a reviewer checks each action against what the agent was shown
        alerts = [str(a.get("title")) + "".join(f" {line}" for line in a.get("lines") or () if isinstance(line, str))
                  for a in _dicts(r.get("alerts"))]
        return _cut("ECAM: " + ("; ".join(alerts) if alerts else "no alert"), 600)
    if name == "read_system_page":
        return f"page {r.get('page')}"
    return ""


def _match(m: Any) -> str:
    if not isinstance(m, dict):
        return ""
    kind = m.get("kind")
    if kind == "step":
        index = m.get("index")
        return f"step {index + 1 if isinstance(index, int) else '?'} of {m.get('block')}"
    if kind == "optional":
        return "an optional action"
    if kind == "forbidden":
        return f"{m.get('severity')}: {m.get('why')}".strip(": ")
    if kind == "no_change":
        return "the control already was there"
    if kind == "harmful":  # worded as `score --detail` words it, not as the raw record
        return "removed " + ", ".join(map(str, m.get("removed") or ()))
    return _cut(m, 200)


def alert_intervals(calls: list[dict[str, Any]], final: dict[str, Any]) -> list[dict[str, Any]] | None:
    """[{title, level, on, on_since, off, off_since}]: `off` None = still shown at the end.

    `*_since` is set when the change is known only to within a call's span. None when
    the trajectory does not record alert changes (written before they were recorded)."""
    recorded = any("ecam_changes" in ev for ev in calls)
    final_alerts = _dicts(_dict(final.get("final_ecam")).get("alerts"))
    if not recorded:
        if not calls:  # no call: the ECAM never moved from what the final shows
            return [{"title": a.get("title"), "level": a.get("level"), "on": 0.0, "on_since": None, "off": None,
                     "off_since": None} for a in final_alerts]
        seen = any(_dicts((ev.get("result") or {}).get("alerts")) for ev in calls
                   if ev.get("name") == "read_ecam" and isinstance(ev.get("result"), dict))
        return None if (seen or final_alerts) else []
    out: list[dict[str, Any]] = []
    open_: dict[str, dict[str, Any]] = {}
    for ev in calls:
        for ch in _dicts(ev.get("ecam_changes")):
            title, t, since = ch.get("title"), _num(ch.get("t_s")), _num(ch.get("since_s"))
            if ch.get("shown"):
                if title not in open_:
                    open_[title] = {"title": title, "level": ch.get("level"), "on": t, "on_since": since,
                                    "off": None, "off_since": None}
                    out.append(open_[title])
            elif title in open_:
                open_.pop(title).update(off=t, off_since=since)
    return out


def _procedure(gt: dict[str, Any], commands: list[dict[str, Any]]) -> list[dict[str, Any]]:
    done: dict[tuple[Any, Any], tuple[Any, str]] = {}
    for c in commands:
        m = c.get("matched")
        if c.get("class") in STEP_CLASSES and isinstance(m, dict) and m.get("kind") == "step":
            done.setdefault((m.get("block"), m.get("index")), (c.get("seq"), c["class"]))
    blocks = []
    for i, b in enumerate(_dicts(gt.get("procedure"))):
        name = str(b.get("name", f"block_{i}"))
        steps = []
        for j, s in enumerate(_dicts(b.get("steps"))):
            seq, cls = done.get((name, j), (None, None))
            steps.append({"action": f"{s.get('control')} {s.get('position')}", "note": _cut(s.get("note") or "", 200),
                          "wait_s": s.get("then_wait_s") or 0, "seq": seq, "cls": cls})
        blocks.append({"name": name, "ordered": bool(b.get("ordered", True)), "steps": steps})
    return blocks


def _forbidden(gt: dict[str, Any], commands: list[dict[str, Any]]) -> list[dict[str, Any]]:
    out = []
    for f in _dicts(gt.get("forbidden_actions")):
        hits = [c.get("seq") for c in commands if str(c.get("class")).startswith("forbidden")
                and isinstance(c.get("matched"), dict) and c["matched"].get("control") == f.get("control")
                and c["matched"].get("position") == f.get("position")]
        out.append({"action": f"{f.get('control')} {f.get('position')}", "severity": f.get("severity"),
                    "why": _cut(f.get("why") or "", 400), "seqs": hits})
    return out


def _keywords(report: dict[str, Any] | None, groups: Any) -> list[dict[str, Any]]:
    out = []
    for g in groups or ():
        synonyms = [str(s) for s in g] if isinstance(g, list) else [str(g)]
        out.append({"any": synonyms, "hit": [s for s in synonyms if diagnosis_matches(report, [[s]])]})
    return out


def _criteria(success: Any) -> list[dict[str, Any]]:
    success = success if isinstance(success, dict) else {}
    out = []
    for c in _dicts(success.get("criteria")):
        what, actual = _described(c)
        out.append({"what": _cut(what, 300), "actual": _cut(actual, 300), "passed": bool(c.get("passed"))})
    hands_off = success.get("hands_off")
    if isinstance(hands_off, dict):  # the same criteria on the aircraft flown on with no input
        failed = "; ".join(": ".join(_described(c)) for c in _dicts(hands_off.get("failed")))
        after = hands_off.get("after_s")
        after = f"{after:g}" if isinstance(after, (int, float)) else str(after)
        out.append({"what": f"all of the above still hold after {after} s hands off",
                    "actual": _cut(failed or "they do", 300), "passed": bool(hands_off.get("passed"))})
    return out


def _described(c: dict[str, Any]) -> tuple[str, str]:
    """(what a criterion asks, what was seen)."""
    kind = c.get("kind")
    if kind == "state":
        want = (f"between {c.get('low')} and {c.get('high')}" if c.get("op") == "between"
                else f"{c.get('op')} {json.dumps(c.get('value'), default=str)}")
        return f"{c.get('var')} {want}", json.dumps(c.get("actual"), default=str)
    if kind == "ecam_clear_of":
        present = c.get("present") or []
        what = "ECAM clear of " + ", ".join(map(str, c.get("titles") or []))
        return what, ("still shown: " + ", ".join(map(str, present))) if present else "clear"
    if kind == "controls_unchanged":
        moved = c.get("moved") or {}
        what = "no control moved on the " + ", ".join(map(str, c.get("panels") or [])) + " panels"
        parts = [f"{n} {' → '.join(map(str, ab)) if isinstance(ab, list) else ab}" for n, ab in moved.items()
                 ] if isinstance(moved, dict) else []
        parts += [f"{n} pushed" for n in c.get("pushed") or []]
        return what, "; ".join(parts) or "none moved"
    return str(kind), _cut({k: v for k, v in c.items() if k not in ("kind", "passed")}, 300)


def _turns(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    turns = []
    for ev in events:
        kind = ev.get("type")
        if kind == "assistant":
            usage = ev.get("usage") if isinstance(ev.get("usage"), dict) else {}
            asked = [f"{c.get('name')}({_cut(c.get('arguments'), ARG_LIMIT)})" for c in _dicts(ev.get("tool_calls"))]
            turns.append({"kind": "assistant", "text": _cut(ev.get("text") or ""), "asked": asked,
                          "tokens": [usage.get("input_tokens"), usage.get("output_tokens")],
                          "cost": _num(ev.get("cost_usd"))})
        elif kind in ("nudge", "provider_retry", "provider_error"):
            turns.append({"kind": kind, "text": _cut(ev.get("text") or ev.get("error") or "", 400)})
    return turns


def _client(events: list[dict[str, Any]]) -> dict[str, Any] | None:
    rep = next((e for e in reversed(events) if e.get("type") == "client_report"), None)
    if rep is None:
        return None
    usage = rep.get("usage") if isinstance(rep.get("usage"), dict) else {}
    uses = rep.get("tool_uses") if isinstance(rep.get("tool_uses"), list) else []
    return {"client": rep.get("client"), "model": rep.get("model"), "turns": rep.get("num_turns"),
            "tool_uses": [str(u) for u in uses[:200]], "input_tokens": usage.get("input_tokens"),
            "output_tokens": usage.get("output_tokens"), "cost": _num(rep.get("cost_usd")),
            "stop_reason": rep.get("stop_reason"), "error": _cut(rep.get("error") or "", 400) or None}


def _dict(x: Any) -> dict[str, Any]:
    return x if isinstance(x, dict) else {}


def _dicts(items: Any) -> list[dict[str, Any]]:
    return [x for x in items if isinstance(x, dict)] if isinstance(items, list) else []
