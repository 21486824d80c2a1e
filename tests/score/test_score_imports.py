"""Scoring and the report are pure and offline: they load neither MCP, litellm, the simulator nor pydantic (docs/architecture.md "Layout")."""

import json
import subprocess
import sys
import textwrap

import pytest

from score_builder import compliant

HEAVY = ("mcp", "litellm", "a320bench.server.sim", "a320bench.server.scenario", "pydantic")

CHECK = textwrap.dedent("""
    import json, sys
    import a320bench.bridge.cli, a320bench.bridge.score.cli
    from a320bench.bridge.cli import main

    HEAVY = {heavy!r}

    def loaded():
        return sorted(m for m in sys.modules if any(m == h or m.startswith(h + ".") for h in HEAVY))

    after_import = loaded()
    code_json = main(["score", {path!r}, "--json"])
    rich_after_json = "rich" in sys.modules
    code_table = main(["score", {path!r}])
    code_report = main(["report", {path!r}, "-o", {out!r}])
    print("RESULT", json.dumps({{"after_import": after_import, "after_scoring": loaded(), "codes": [code_json, code_table, code_report],
                     "rich_after_json": rich_after_json, "rich_after_table": "rich" in sys.modules}}),
          file=sys.stderr)
""")


@pytest.mark.slow
def test_scoring_and_reporting_a_file_through_the_cli_load_no_mcp_litellm_sim_or_pydantic(tmp_path):
    path = compliant().write(tmp_path / "t.jsonl")
    out = tmp_path / "report.html"
    proc = subprocess.run([sys.executable, "-c", CHECK.format(heavy=HEAVY, path=str(path), out=str(out))],
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    result = json.loads(proc.stderr.split("RESULT ", 1)[1])
    assert result == {"after_import": [], "after_scoring": [], "codes": [0, 0, 0],
                      "rich_after_json": False, "rich_after_table": True}
    doc = json.loads(proc.stdout.split("\n", 1)[0])
    assert doc["scorecards"][0]["compliant_success"] is True
    assert out.stat().st_size > 0
