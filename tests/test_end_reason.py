"""The one list of end reasons and what each makes of an episode (server/end_reason.py)."""

import pytest

from a320bench.server.end_reason import EndKind, EndReason, counts_as_result, kind_of, rerun_on_resume


def test_every_end_reason_has_a_kind():
    assert {r.value: r.kind.value for r in EndReason} == {
        "agent_done": "result", "budget_tool_calls": "result", "budget_sim_time": "result",
        "end_turn_without_done": "result", "agent_error": "result", "client_timeout": "result",
        "provider_error": "infrastructure", "client_error": "infrastructure", "storage_error": "infrastructure",
        "harness_error": "harness", "interrupted": "harness", "invalid_scenario": "invalid",
    }


@pytest.mark.parametrize("reason,changed,counts,rerun", [
    ("agent_done", False, True, False),
    ("end_turn_without_done", False, True, False),
    ("provider_error", False, False, True),
    ("provider_error", True, True, False),  # the agent had acted: its result stands
    ("client_error", True, True, False),
    ("interrupted", True, False, True),  # our stop: never the agent's result
    ("harness_error", True, False, True),
    ("invalid_scenario", False, False, False),  # would fail its gate again
    ("no-such-reason", False, False, True),
])
def test_who_caused_the_end_decides_whether_it_counts_and_is_rerun(reason, changed, counts, rerun):
    assert (counts_as_result(reason, changed), rerun_on_resume(reason, changed)) == (counts, rerun)


def test_a_value_that_is_not_an_end_reason_has_no_kind():
    assert (kind_of("agent_done"), kind_of(None), kind_of(["agent_done"])) == (EndKind.RESULT, None, None)
