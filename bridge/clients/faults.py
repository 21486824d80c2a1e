"""What a client's fault makes of its episode: an infrastructure error, the agent's result, or a note.

A fault is what went wrong on the client's side, with its kind:

    SETUP         the client or its sandbox did not start, our server    client_error, which replaces the
                  was not connected, our tools were not offered or       episode's own end (the agent could
                  their calls denied (the user's settings)               not act as the file shows)
    TRANSIENT     the model's API failed the way a retry cures:          client_error, unless the episode had
                  408, 429, 5xx, 529 overloaded                          already ended by report_done or a
                                                                         budget: that end stands
    CONVERSATION  the client ended badly on its own: a non-zero exit,    agent_error, the agent's result (as
                  an API error of the conversation (a 400: prompt too    in-process) -- once the episode's server
                  long), no result                                       had answered one of its MCP requests
                                                                         (it reached the aircraft); before that,
                                                                         client_error. After report_done or a
                                                                         budget: that end stands

A fault that leaves the episode's end standing is kept in the client_report only. Whether a
client_error is then scored (the agent had changed the aircraft) or rerun is end_reason's rule.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum

from a320bench.server.end_reason import AGENT_DECIDED_ENDS, EndReason


class FaultKind(StrEnum):
    SETUP = "setup"
    TRANSIENT = "transient"
    CONVERSATION = "conversation"


@dataclass(frozen=True, slots=True)
class ClientFault:
    kind: FaultKind
    text: str


def transient_api_status(status: object, text: str = "") -> bool:
    """An API status a retry cures (timeout, rate limit, server errors, Anthropic's 529 overloaded)."""
    if isinstance(status, int) and not isinstance(status, bool):
        return status in (408, 429) or status >= 500
    return "overloaded" in text.lower()


def fault_end(faults: Sequence[ClientFault], own_end: str | None, connected: bool) -> EndReason | None:
    """The end the faults impose on the episode; None when the episode's own end stands (and the
    faults, if any, go into the client_report only)."""
    if not faults:
        return None
    kinds = {f.kind for f in faults}
    if FaultKind.SETUP in kinds:
        return EndReason.CLIENT_ERROR
    if own_end in AGENT_DECIDED_ENDS:
        return None
    if FaultKind.TRANSIENT in kinds or not connected:
        return EndReason.CLIENT_ERROR
    return EndReason.AGENT_ERROR


def describe(faults: Sequence[ClientFault]) -> str | None:
    return "; ".join(f.text for f in faults) or None
