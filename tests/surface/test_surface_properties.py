"""Property tests of the tool surface: any sequence of calls, any arguments, and the server holds.

Whatever an agent sends: every call is answered and recorded, the episode never ends
as a harness error (bad input is the agent's mistake, typed as such), error messages
stay short, and on the benchmark profile nothing names a failure.
"""

from __future__ import annotations

import anyio
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from a320bench.server.sim import CONTROLS, FAILURES, PAGES
from surface_bed import BENCHMARK_TOOLS, DEV_ONLY_TOOLS, connect, new_episode, tool_calls

WORDS = sorted({*CONTROLS, *(p for c in CONTROLS.values() for p in c.positions), *PAGES, "cruise", "icing",
                "gpu_available", *list(FAILURES)[:3]})
ARG_NAMES = ["control", "position", "page", "seconds", "diagnosis", "actions_summary", "failure_id", "name",
             "value", "start_state"]
scalars = (st.none() | st.booleans() | st.integers(-10**6, 10**6) | st.floats(allow_nan=False, allow_infinity=False)
           | st.text(max_size=40) | st.sampled_from(WORDS))
values = st.recursive(scalars, lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner,
                                                                                           max_size=3), max_leaves=6)
arguments = st.dictionaries(st.sampled_from(ARG_NAMES) | st.text(max_size=12), values, max_size=4)
names = st.sampled_from([*BENCHMARK_TOOLS, *DEV_ONLY_TOOLS, "read_ecm", ""]) | st.text(max_size=20)
calls = st.lists(st.tuples(names, arguments), min_size=1, max_size=6)


async def _fly(profile: str, sequence: list) -> None:
    ep = new_episode(profile=profile)
    texts = []
    async with connect(ep, profile=profile) as c:
        for name, args in sequence:
            r = await c.call_tool(name, args)
            text = "\n".join(getattr(b, "text", "") for b in r.content)
            texts.append(text)
            if r.is_error:
                assert len(text) < 3000, text[:200]
    assert ep.ended != "harness_error", [e for e in tool_calls(ep) if e["is_error"]][-1]
    assert len(tool_calls(ep)) == len(sequence)
    if profile == "benchmark":
        for text in texts:
            assert not any(fid in text for fid in FAILURES), text


@settings(max_examples=40, deadline=None, database=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(profile=st.sampled_from(["benchmark", "dev"]), sequence=calls)
def test_any_calls_with_any_arguments_are_answered_recorded_and_never_a_harness_error(profile, sequence):
    anyio.run(_fly, profile, sequence)
