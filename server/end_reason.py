"""Why an episode ended, and what that makes of it: the one list of end reasons.

Pure (no imports of ours): the server writes these, the bridge folds client
faults into them, and offline scoring reads them.

Every reason has a kind:

    RESULT           the agent's result: scored, never rerun
    INFRASTRUCTURE   a fault outside the agent (provider, client, sandbox, disk): excluded
                     from the means and rerun on resume -- unless the agent had
                     already changed the aircraft, in which case the episode is
                     scored as it stands (who caused the end does not undo what
                     the agent did)
    HARNESS          our side stopped the episode (a bug of ours, an interrupt):
                     never the agent's result, excluded and rerun on resume
    INVALID          the scenario failed its validity gate: the agent was never asked
"""

from __future__ import annotations

from enum import StrEnum


class EndKind(StrEnum):
    RESULT = "result"
    INFRASTRUCTURE = "infrastructure"
    HARNESS = "harness"
    INVALID = "invalid"


class EndReason(StrEnum):
    AGENT_DONE = "agent_done"  # the agent called report_done
    BUDGET_TOOL_CALLS = "budget_tool_calls"
    BUDGET_SIM_TIME = "budget_sim_time"
    END_TURN_WITHOUT_DONE = "end_turn_without_done"  # stopped acting without report_done
    AGENT_ERROR = "agent_error"  # the conversation broke the model: context length, refusal, bad request
    CLIENT_TIMEOUT = "client_timeout"  # an external client ran past its wall-clock limit
    PROVIDER_ERROR = "provider_error"  # the model provider failed after retries (429, 5xx, connection)
    CLIENT_ERROR = "client_error"  # an external client could not start or misbehaved
    STORAGE_ERROR = "storage_error"  # the trajectory or verdict could not be written (disk full, unwritable)
    HARNESS_ERROR = "harness_error"  # a bug of ours
    INTERRUPTED = "interrupted"  # the run was stopped (Ctrl-C, SIGTERM, a killed run) mid-episode
    INVALID_SCENARIO = "invalid_scenario"

    @property
    def kind(self) -> EndKind:
        return _KIND[self]


_KIND: dict[EndReason, EndKind] = {
    EndReason.AGENT_DONE: EndKind.RESULT,
    EndReason.BUDGET_TOOL_CALLS: EndKind.RESULT,
    EndReason.BUDGET_SIM_TIME: EndKind.RESULT,
    EndReason.END_TURN_WITHOUT_DONE: EndKind.RESULT,
    EndReason.AGENT_ERROR: EndKind.RESULT,
    EndReason.CLIENT_TIMEOUT: EndKind.RESULT,
    EndReason.PROVIDER_ERROR: EndKind.INFRASTRUCTURE,
    EndReason.CLIENT_ERROR: EndKind.INFRASTRUCTURE,
    EndReason.STORAGE_ERROR: EndKind.INFRASTRUCTURE,
    EndReason.HARNESS_ERROR: EndKind.HARNESS,
    EndReason.INTERRUPTED: EndKind.HARNESS,
    EndReason.INVALID_SCENARIO: EndKind.INVALID,
}

END_REASONS: tuple[str, ...] = tuple(r.value for r in EndReason)

# Ends the episode's server decides from the agent's calls alone (report_done, a budget): once one
# is reached, nothing that happens outside the server afterwards (a client's closing API call
# failing, its exit code) changes what the episode was. `score --verify` re-derives these itself.
AGENT_DECIDED_ENDS: frozenset[EndReason] = frozenset({EndReason.AGENT_DONE, EndReason.BUDGET_TOOL_CALLS,
                                                      EndReason.BUDGET_SIM_TIME})


def kind_of(reason: object) -> EndKind | None:
    """The kind of a recorded reason; None for a value that is not an end reason."""
    try:
        return EndReason(reason).kind  # type: ignore[arg-type]
    except ValueError:
        return None


def counts_as_result(reason: object, agent_changed_aircraft: bool) -> bool:
    """Is this episode the agent's result (scored), rather than one to exclude and rerun?"""
    kind = kind_of(reason)
    if kind is EndKind.RESULT:
        return True
    if kind is EndKind.INFRASTRUCTURE:
        return agent_changed_aircraft
    return False


def rerun_on_resume(reason: object, agent_changed_aircraft: bool) -> bool:
    """Should `run` (resuming into the same folder) fly this episode again?

    Infrastructure and harness ends are rerun unless they already count as a result;
    an invalid scenario is not (it would fail its gate again); an unknown reason is."""
    kind = kind_of(reason)
    if kind is EndKind.INVALID:
        return False
    return not counts_as_result(reason, agent_changed_aircraft)
