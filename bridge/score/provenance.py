"""What a trajectory must hold to back the parts of it the simulator cannot re-derive.

`score --verify` re-simulates the recorded calls, and that settles every end the server
decides (report_done, a budget). The other ends come from outside the server -- the
provider, the client, an interrupt -- and the file is taken at its word only when it
also holds the event that end leaves behind:

    provider_error     a `provider_error` event with the attempts made
    agent_error        an `agent_error` event (in-process) or a client_report with an error
    client_error       a client_report whose error is the final's `client_error`
    client_timeout     a client_report saying the client timed out
    interrupted        a client_report saying so, or (in-process) the final's error; in place
                       of an end the server had decided, the client_report alone
    harness_error      a `harness_error` event with a traceback
    storage_error      the final's error (what the disk said)

Who flew the episode is a label in `meta`; what can be checked is that the rest of the
file agrees with it: a model's episode has the model's turns (or the provider's error
before the first), and those name the same model; a client's episode has its client's
report, naming the same client and model. A trajectory cannot prove who produced it:
only a reviewer who re-runs the agent can (README, "What verify can and cannot prove").

Pure: no simulator, no MCP.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from a320bench.server.end_reason import EndReason

BASELINES = frozenset({"scripted", "noop", "random", "ecam"})  # built-in providers without a model


def end_evidence(reason: Any, final: dict[str, Any], events: Sequence[dict[str, Any]]) -> str | None:
    """Why the file does not back its end `reason` (None: it does, or the server decides that end)."""
    report = _last(events, "client_report")
    error = final.get("error")
    if reason == EndReason.PROVIDER_ERROR:
        ev = _last(events, "provider_error")
        attempts = ev.get("attempts") if ev else None
        if not (isinstance(attempts, int) and not isinstance(attempts, bool) and attempts >= 1 and ev.get("error")):
            return "final.reason provider_error: no provider_error event with its error and attempts"
    elif reason == EndReason.AGENT_ERROR:
        if not ((_last(events, "agent_error") or {}).get("error") or (report or {}).get("error")):
            return "final.reason agent_error: no agent_error event and no client_report with an error"
    elif reason == EndReason.CLIENT_ERROR:
        if not (report and report.get("error") and final.get("client_error") == report.get("error")):
            return "final.reason client_error: no client_report with the error the final names"
    elif reason == EndReason.CLIENT_TIMEOUT:
        if not (report and report.get("timed_out") is True):
            return "final.reason client_timeout: no client_report saying the client timed out"
    elif reason == EndReason.INTERRUPTED:
        if not ((report or {}).get("interrupted") is True or (report is None and error)):
            return "final.reason interrupted: nothing in the file says the run was interrupted"
    elif reason == EndReason.HARNESS_ERROR:
        trace = (_last(events, "harness_error") or {}).get("exception")
        if not (isinstance(trace, str) and trace.startswith("Traceback")):
            return "final.reason harness_error: no harness_error event with a traceback"
    elif reason == EndReason.STORAGE_ERROR:
        if not error:
            return "final.reason storage_error: the final names no disk error"
    return None


def supersede_evidence(reason: Any, superseded: Any, events: Sequence[dict[str, Any]]) -> str | None:
    """Why the file does not back the bridge's `reason` in place of the server's own end `superseded`
    (None: it does). Only a client's bridge replaces an end (bridge/clients/record.py), and it writes
    the client_report that says why: for an interrupt, that the client was interrupted (an in-process
    episode that had ended is never interrupted after). A client_error's report: end_evidence."""
    if reason == EndReason.INTERRUPTED and (_last(events, "client_report") or {}).get("interrupted") is not True:
        return (f"final.superseded_reason {superseded}: replaced by interrupted, but no client_report says the "
                f"client was interrupted (only a client's bridge replaces the server's end)")
    return None


def label_problems(meta: dict[str, Any], events: Sequence[dict[str, Any]]) -> list[str]:
    """Where the file disagrees with who `meta` says flew it."""
    problems: list[str] = []
    provider, model, client = meta.get("provider"), meta.get("model"), meta.get("client")
    turns = [e for e in events if e.get("type") == "assistant"]
    report = _last(events, "client_report")
    if client:
        if report is None:
            return [f"meta.client: {client!r}, but the file has no client_report"]
        if report.get("client") != client:
            problems.append(f"meta.client: {client!r}, the client_report names {report.get('client')!r}")
        wanted = meta.get("client_model")
        if wanted and report.get("requested_model") not in (None, wanted):
            problems.append(f"meta.client_model: {wanted!r}, the client_report asked for "
                            f"{report.get('requested_model')!r}")
        answered = report.get("model")
        if wanted and answered and not same_model(wanted, answered):
            problems.append(f"meta.client_model: {wanted!r}, the client reports {answered!r} answered")
        return problems
    # What a client's bridge reports of its client's end, in a file that names no client (serve's report
    # names the client only): forged to back an end from outside the server.
    said = [w for k, w in (("error", "failed"), ("interrupted", "was interrupted"), ("timed_out", "timed out"))
            if report is not None and report.get(k)]
    if said:
        problems.append(f"client_report: says the client {said[0]}, but meta names no client")
    if provider in BASELINES and (model or turns):
        problems.append(f"meta.provider: {provider!r} (no model), but the file has "
                        f"{'meta.model ' + repr(model) if model else f'{len(turns)} model turn(s)'}")
    if provider == "litellm":
        if not model:
            problems.append("meta.model: empty for a litellm episode")
        elif not turns and not (_last(events, "provider_error") or _last(events, "agent_error")):
            problems.append(f"meta.model: {model!r}, but the file has no model turn (no assistant event)")
        for t in turns:
            answered = t.get("model")
            if isinstance(answered, str) and answered and model and not same_model(model, answered):
                problems.append(f"assistant turn {t.get('turn')}: answered by {answered!r}, meta.model is {model!r}")
                break
    return problems


def same_model(label: str, answered: str) -> bool:
    """`openai/gpt-4.1` and `gpt-4.1-2025-04-14` are the same model, so are `sonnet` and
    `claude-sonnet-4-5-20250929`; `claude-sonnet-4-5` and `gpt-4.1` are not (a provider answers with
    the name asked for, a dated id of it, or what an alias stands for)."""
    want = label.rsplit("/", 1)[-1].lower()
    got = answered.rsplit("/", 1)[-1].lower()
    return want in got or got in want


def _last(events: Sequence[dict[str, Any]], kind: str) -> dict[str, Any] | None:
    found = None
    for ev in events:
        if ev.get("type") == kind:
            found = ev
    return found
