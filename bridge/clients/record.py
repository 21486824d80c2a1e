"""Close a client episode's trajectory: the client_report, then the one final that stands.

The bridge serves each client episode itself, so its recorder writes meta,
setup and every tool call as they happen. The episode's `final` is held back
(`HeldFinalRecorder`) until the client is gone, and written last, after the
client_report, with the reason the episode counts as:

    the client did its part         the episode's own end: agent_done, a budget,
                                    end_turn_without_done (it stopped without
                                    report_done), client_timeout (its time ran out)
    the client ended badly on its   agent_error once it had opened its MCP session;
    own (faults.py)                 after agent_done or a budget, that end stands
                                    and the fault is in the client_report only
    an infrastructure error         client_error, the verdict kept as it stood;
                                    `superseded_reason` = the episode's own end, if any
    `run` interrupted               interrupted (rerun on resume)
    `run` killed                    no final at all (rerun on resume)

A trajectory therefore ends with a final only once everything about the
episode is known: nothing a killed run leaves behind passes as a result, and
the client, which never sees the run folder, cannot add to it.
"""

from __future__ import annotations

from typing import Any

from a320bench.server.end_reason import EndReason
from a320bench.server.trajectory import Recorder


class HeldFinalRecorder(Recorder):
    """A Recorder that keeps the episode's `final` back for `close_episode`."""

    finished = False  # close_episode has written the final

    def write(self, type_: str, **fields: Any) -> dict[str, Any]:
        if type_ == "final":
            return {"type": type_, **fields}  # the Episode keeps it (Episode.final)
        return super().write(type_, **fields)

    def close_episode(self, report: dict[str, Any] | None, final: dict[str, Any]) -> dict[str, Any]:
        if report is not None:
            super().write("client_report", **report)
        self.finished = True
        return super().write("final", **final)


def standing_final(verdict: dict[str, Any], reason: EndReason, *, episode_reason: str | None,
                   **extra: Any) -> dict[str, Any]:
    """The final event's fields when the bridge's `reason` replaces the episode's own end."""
    return {**verdict, "reason": str(reason), "superseded_reason": episode_reason, **extra}
