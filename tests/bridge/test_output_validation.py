"""An in-process agent's session checks every tool result against the tool's output schema with a compiled
validator first (bridge/agent_tools.py `fast_first`): it agrees with the SDK's validator on what is valid,
and an invalid result is described by the SDK's own validator, message for message."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import anyio
import jsonschema
import pytest
from jsonschema import exceptions as jsonschema_exceptions

from a320bench.bridge.agent_tools import fast_first
from a320bench.bridge.inprocess_episode import run_episode
from a320bench.server.scenario.loader import load
from a320bench.server.surface.profiles import load_profile
from a320bench.server.surface.registry import TOOL_NAMES, get_tool
from tests.bridge.test_agent_thread import Reader

ROOT = Path(__file__).resolve().parents[2]
SCHEMAS = {n: get_tool(n).output_schema for n in TOOL_NAMES if get_tool(n).output_schema is not None}
ODD = [None, 0, 1.5, "text", [], {}, {"unexpected": 1}, {"ok": "not a bool"}, {"result": None}, {"alerts": "x"}]


def sdk_validator(schema: dict[str, Any]) -> Any:
    return jsonschema.validators.validator_for(schema)(schema)  # as the SDK builds it (formats unchecked)


def test_every_tool_has_an_output_schema_the_compiled_validator_takes():
    assert len(SCHEMAS) >= 10
    assert all(is_fast(fast_first(sdk_validator(s), s)) for s in SCHEMAS.values())


def is_fast(validator: Any) -> bool:
    return getattr(validator.iter_errors, "__qualname__", "") == "fast_first.<locals>.iter_errors"


@pytest.mark.parametrize("name", sorted(SCHEMAS))
def test_on_odd_results_the_fast_validator_gives_the_sdks_verdict_and_message(name):
    schema = SCHEMAS[name]
    sdk = sdk_validator(schema)
    fast = fast_first(sdk, schema)
    required = {k: None for k in schema.get("required", [])}
    for instance in [*ODD, required]:
        got = jsonschema_exceptions.best_match(fast.iter_errors(instance))
        want = jsonschema_exceptions.best_match(sdk.iter_errors(instance))
        assert (got is None, str(got)) == (want is None, str(want)), (name, instance)


class ValidatorReader(Reader):
    """Reads the ECAM, notes how its session checked the result, reports done."""

    async def run(self, view: Any) -> None:
        out = await view.tools.call("read_ecam")
        validator = view.tools._session._tool_output_validators["read_ecam"]
        self.seen = {"fast": is_fast(validator), "data": out.data, "is_error": out.is_error,
                     "errors": list(validator.iter_errors(out.data)),
                     "bad": [e.message for e in validator.iter_errors({**out.data, "master_warning": "yes"})]}
        await view.tools.call("report_done", {"diagnosis": "GEN 1 fault", "actions_summary": "none"})


def test_an_agents_session_checks_real_results_with_the_fast_validator(tmp_path):
    agent = ValidatorReader()
    sc = load(ROOT / "scenarios" / "elec" / "gen1_fault_reset_fails.yaml")
    res = anyio.run(lambda: run_episode(sc, agent, profile=load_profile("benchmark"), path=tmp_path / "t.jsonl"))
    assert res.reason == "agent_done"
    assert (agent.seen["fast"], agent.seen["is_error"], agent.seen["errors"]) == (True, False, [])
    assert agent.seen["data"]["alerts"][0]["title"] == "ELEC GEN 1 FAULT"
    assert agent.seen["bad"] == ["'yes' is not of type 'boolean'"]
