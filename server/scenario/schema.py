"""The scenario JSON Schema, generated from the pydantic models and the simulator's catalogues.

    python -m a320bench.server.scenario.schema --write   # regenerate scenarios/schema/scenario.schema.json

Editors that read `# yaml-language-server: $schema=...` then complete control
names, positions, failure ids, start states and ECAM titles. A test fails
when the committed file is out of date.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from ..sim import ALERT_TITLES, CONTROLS, FAILURES, START_STATES
from .model import Scenario

SCHEMA_PATH = Path(__file__).resolve().parents[2] / "scenarios" / "schema" / "scenario.schema.json"


def generate() -> dict[str, Any]:
    schema = Scenario.model_json_schema()
    schema["$schema"] = "https://json-schema.org/draft/2020-12/schema"
    schema["title"] = "a320-bench scenario"
    defs = schema["$defs"]
    controls = sorted(CONTROLS)
    positions = sorted({p for c in CONTROLS.values() for p in c.positions})
    titles = list(ALERT_TITLES)
    for name in ("Step", "ForbiddenAction", "Action"):
        defs[name]["properties"]["control"]["enum"] = controls
        defs[name]["properties"]["position"]["enum"] = positions
    defs["FailureSpec"]["properties"]["id"]["enum"] = sorted(FAILURES)
    defs["InitialState"]["properties"]["start_state"]["enum"] = list(START_STATES)
    defs["InitialState"]["properties"]["controls"]["propertyNames"] = {"enum": controls}
    for part in ("must_appear", "must_not_appear"):
        defs["ExpectedEcam"]["properties"][part]["items"]["enum"] = titles
    defs["EcamClear"]["properties"]["ecam_clear_of"]["items"]["enum"] = titles
    return schema


def render() -> str:
    return json.dumps(generate(), indent=2, sort_keys=False) + "\n"


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv == ["--write"]:
        SCHEMA_PATH.write_text(render(), encoding="utf-8")
        print(f"wrote {SCHEMA_PATH}")
        return 0
    sys.stdout.write(render())
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
