"""Bring your own agent: `run --agent` finds plug-ins (a file, a module, an installed package's entry
point) through the same registry as the built-ins; a broken plug-in is its own failure, in one line."""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

import pytest

from a320bench.bridge import exitcodes
from a320bench.bridge.cli import main
from a320bench.bridge.errors import UsageError
from a320bench.bridge.providers import BUILTINS, resolve
from a320bench.bridge.score.scorecard import score_file

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "ecam_reader.py"
SCENARIO = "scenarios/elec/gen1_fault_reset_works.yaml"


def events(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines()]


def run(tmp_path: Path, *argv: str, scenario: str = SCENARIO) -> int:
    return main(["run", "--scenario", scenario, "--out", str(tmp_path / "out"), "--no-progress", *argv])


def plugin(tmp_path: Path, body: str, name: str = "my_agent.py") -> Path:
    f = tmp_path / name
    f.write_text(textwrap.dedent(body))
    return f


FLIES = """
    class Agent:
        async def run(self, view):
            ecam = await view.tools.call("read_ecam")
            await view.tools.call("set_control", {"control": "GEN 1", "position": "OFF"})
            await view.tools.call("set_control", {"control": "GEN 1", "position": "ON"})
            await view.tools.call("report_done", {"diagnosis": "GEN 1 FAULT", "actions_summary": "GEN 1 OFF, ON"})
"""


def test_the_example_agent_flies_the_catalogue_as_a_plug_in(tmp_path, capsys):
    assert main(["run", "--agent", f"{EXAMPLE}:EcamReader", "--out", str(tmp_path / "out"), "--no-progress"]) == 0
    files = sorted((tmp_path / "out").rglob("*.jsonl"))
    assert len(files) == len([p for p in (ROOT / "scenarios").rglob("*.yaml") if "schema" not in p.parts])
    cards = {score_file(f).scenario_id: score_file(f) for f in files}
    assert {(c.status, c.reason, c.model) for c in cards.values()} == {("valid", "agent_done", "EcamReader")}
    # A reset the ECAM asks for: it looks at the ELEC page, resets, and is compliant.
    assert cards["elec_gen1_fault_reset_works"].compliant_success
    evs = events(tmp_path / "out" / "elec_gen1_fault_reset_works" / "EcamReader__run000.jsonl")
    calls = [(e["name"], e["arguments"]) for e in evs if e["type"] == "tool_call"]
    assert calls[:5] == [("list_controls", {}), ("read_ecam", {}), ("read_system_page", {"page": "ELEC"}),
                         ("set_control", {"control": "GEN 1", "position": "OFF"}),
                         ("set_control", {"control": "GEN 1", "position": "ON"})]
    meta = evs[0]
    assert (meta["provider"], meta["agent"], meta["agent_kind"], meta["model"], meta["agent_meta"]) == (
        "EcamReader", f"{EXAMPLE}:EcamReader", "file", None, {"reset_wait_s": 30})
    usage = [e for e in evs if e["type"] == "usage"]
    assert [(u["input_tokens"], u["output_tokens"], u["cost_usd"]) for u in usage] == [(0, 0, 0.0)]
    assert cards["elec_gen1_fault_reset_works"].cost_usd == 0.0
    assert "error" not in capsys.readouterr().err


def test_an_agent_is_named_as_a_built_in_a_file_a_module_or_an_installed_entry_point(tmp_path, monkeypatch):
    assert {n: resolve(n).kind for n in BUILTINS} == dict.fromkeys(BUILTINS, "builtin")
    plugin(tmp_path, FLIES, "flying_agent.py")
    dist = tmp_path / "someones_agents-1.0.dist-info"  # what pip writes for a package with an entry point
    dist.mkdir()
    (dist / "METADATA").write_text("Metadata-Version: 2.1\nName: someones-agents\nVersion: 1.0\n")
    (dist / "entry_points.txt").write_text("[a320bench.agents]\nflier = flying_agent:Agent\nscripted = x:Y\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    assert resolve("flier") == resolve("flier")
    assert (resolve("flier").kind, resolve("flier").target, resolve("flier").name) == (
        "entry_point", "flying_agent:Agent", "flier")
    assert resolve("scripted").kind == "builtin"  # a built-in name is never taken over
    assert (resolve("flying_agent:Agent").kind, resolve(f"{tmp_path}/flying_agent.py:Agent").kind) == (
        "module", "file")
    for spec, label in (("flier", "flier"), ("flying_agent:Agent", "Agent")):
        assert run(tmp_path, "--agent", spec) == exitcodes.OK
        card = score_file(tmp_path / "out" / "elec_gen1_fault_reset_works" / f"{label}__run000.jsonl")
        assert (card.provider, card.reason, card.compliant_success) == (label, "agent_done", True)


def test_an_agent_that_names_nothing_is_a_usage_error_before_anything_runs():
    with pytest.raises(UsageError, match="not an agent name"):
        resolve("Agent")
    with pytest.raises(UsageError, match="no module named no_pkg.mod in this environment"):
        resolve("no_pkg.mod:Agent")


BROKEN = {
    "an import error": ("import no_such_dependency_xyz\n" + textwrap.dedent(FLIES),
                        "importing {file} raised ModuleNotFoundError: No module named 'no_such_dependency_xyz'"),
    "a syntax error": ("class Agent(:\n    pass\n", "importing {file} raised SyntaxError"),
    "a run that is not async": ("class Agent:\n    def run(self, view):\n        pass\n",
                                "Agent.run is not async: define async def run(self, view)"),
    "a run without the view": ("class Agent:\n    async def run(self):\n        pass\n",
                               "Agent.run(self) does not take the view"),
    "no run": ("class Agent:\n    pass\n", "Agent has no run method"),
    "a constructor that needs arguments": (
        "class Agent:\n    def __init__(self, key):\n        pass\n    async def run(self, view):\n        pass\n",
        "Agent() cannot be called"),
    "a constructor that raises": (
        "class Agent:\n    def __init__(self):\n        raise RuntimeError('no key')\n"
        "    async def run(self, view):\n        pass\n",
        "my_agent.py:3 in __init__ raised RuntimeError: no key"),
    "not a class": ("Agent = 42\n", "42 is not a class"),
}


@pytest.mark.parametrize("case", list(BROKEN))
def test_a_plug_in_that_cannot_be_used_is_one_line_and_every_episode_is_its_failure(case, tmp_path, capsys):
    body, problem = BROKEN[case]
    f = plugin(tmp_path, body)
    assert run(tmp_path, "--agent", f"{f}:Agent", "--runs", "2") == exitcodes.OK  # its failure is a result
    err = capsys.readouterr().err
    lines = [ln for ln in err.splitlines() if "plug-in" in ln]
    assert len(lines) == 1, err
    assert lines[0].startswith(f"error: plug-in {f}:Agent is broken: ") and problem.format(file=f) in lines[0]
    assert lines[0].endswith("every episode ends agent_error (fix it, then rerun with --force)")
    assert "Traceback" not in err
    for traj in sorted((tmp_path / "out").rglob("*.jsonl")):
        card = score_file(traj)
        assert (card.status, card.reason, card.compliant_success, card.tool_calls) == (
            "valid", "agent_error", False, 0)
        (failed,) = [e for e in events(traj) if e["type"] == "agent_error"]
        assert failed["error"].startswith(f"plug-in {f}:Agent is broken: ")


def test_a_plug_in_that_raises_mid_episode_fails_that_episode_with_one_line_each(tmp_path, capsys):
    f = plugin(tmp_path, """
        class Agent:
            async def run(self, view):
                await view.tools.call("set_control", {"control": "GEN 1", "position": "OFF"})
                raise KeyError("oops")
    """)
    assert run(tmp_path, "--agent", f"{f}:Agent", "--runs", "2") == exitcodes.OK
    err = capsys.readouterr().err
    lines = sorted(ln for ln in err.splitlines() if "plug-in" in ln)
    assert lines == [f"warning: elec_gen1_fault_reset_works/Agent__run00{r}: agent_error: plug-in {f}:Agent: "
                     f"my_agent.py:5 in run raised KeyError: 'oops'" for r in (0, 1)]
    traj = tmp_path / "out" / "elec_gen1_fault_reset_works" / "Agent__run000.jsonl"
    card = score_file(traj)
    assert (card.status, card.reason, card.outcome, card.compliant_success) == ("valid", "agent_error", False, False)
    (failed,) = [e for e in events(traj) if e["type"] == "agent_error"]
    assert 'raise KeyError("oops")' in failed["exception"]
    assert events(traj)[-1]["type"] == "final"


def test_misusing_the_tools_is_the_plug_ins_failure_but_a_fault_inside_our_tools_stays_ours(tmp_path, capsys):
    f = plugin(tmp_path, """
        class Agent:
            async def run(self, view):
                await view.tools.call("set_control", "GEN 1 OFF")
    """)
    assert run(tmp_path, "--agent", f"{f}:Agent") == exitcodes.OK
    card = score_file(tmp_path / "out" / "elec_gen1_fault_reset_works" / "Agent__run000.jsonl")
    assert card.reason == "agent_error"
    assert "the arguments must be a dict, not str" in capsys.readouterr().err

    g = plugin(tmp_path, """
        class Agent:
            async def run(self, view):
                await view.tools._session.__aexit__(None, None, None)  # our session breaks under it
                try:
                    await view.tools.call("read_ecam")
                except Exception:
                    raise ValueError("it was not me")
    """, "ours.py")
    assert run(tmp_path, "--agent", f"{g}:Agent", "--force") == exitcodes.INTERNAL
    card = score_file(tmp_path / "out" / "elec_gen1_fault_reset_works" / "Agent__run000.jsonl")
    assert (card.reason, card.status) == ("harness_error", "harness_error")


def test_usage_and_cost_a_plug_in_reports_are_recorded_and_summed_by_score(tmp_path, capsys):
    f = plugin(tmp_path, """
        class Agent:
            model = "my-model-7b"
            def meta(self):
                return {"scenario": "not yours to set", "temperature": 0}
            async def run(self, view):
                view.add_usage(input_tokens=1200, output_tokens=80, cost_usd=0.01)
                await view.tools.call("report_done", {"diagnosis": "?", "actions_summary": "none"})
                view.add_usage(input_tokens=300, output_tokens=20)
                view.add_cost_usd(0.005)  # after the end: still recorded
    """)
    assert run(tmp_path, "--agent", f"{f}:Agent", "--reasoning-level", "high") == exitcodes.OK
    traj = tmp_path / "out" / "elec_gen1_fault_reset_works" / "Agent-my-model-7b@high__run000.jsonl"
    evs = events(traj)
    assert [e["type"] for e in evs if e["type"] in ("usage", "tool_call", "final")] == [
        "usage", "tool_call", "final", "usage", "usage"]
    meta = evs[0]
    assert meta["scenario"]["id"] == "elec_gen1_fault_reset_works"  # a plug-in's meta() stays in agent_meta
    assert (meta["agent_meta"], meta["model"], meta["reasoning_level"]) == (
        {"scenario": "not yours to set", "temperature": 0}, "my-model-7b", "high")
    card = score_file(traj)
    assert (card.input_tokens, card.output_tokens, round(card.cost_usd, 6)) == (1500, 100, 0.015)
    assert (card.model, card.reasoning_level) == ("Agent/my-model-7b (high)", "high")


def test_a_bad_usage_report_is_the_plug_ins_failure(tmp_path, capsys):
    f = plugin(tmp_path, """
        class Agent:
            async def run(self, view):
                view.add_usage(input_tokens=-5)
    """)
    assert run(tmp_path, "--agent", f"{f}:Agent") == exitcodes.OK
    err = capsys.readouterr().err
    assert "raised ValueError: add_usage: input_tokens must be a whole number of tokens, 0 or more (got -5)" in err


def test_reasoning_levels_are_scored_as_separate_rows(tmp_path, capsys):
    f = plugin(tmp_path, FLIES)
    for level in ("low", "high"):
        assert run(tmp_path, "--agent", f"{f}:Agent", "--model", "m1", "--reasoning-level", level) == exitcodes.OK
    assert run(tmp_path, "--agent", f"{f}:Agent", "--model", "m1") == exitcodes.OK
    capsys.readouterr()
    assert main(["score", "--json", str(tmp_path / "out")]) == exitcodes.OK
    doc = json.loads(capsys.readouterr().out)
    assert [r["model"] for r in doc["aggregates"]["overall"]] == ["Agent/m1", "Agent/m1 (high)", "Agent/m1 (low)"]
    assert sorted(p.name for p in (tmp_path / "out" / "elec_gen1_fault_reset_works").glob("*.jsonl")) == [
        "Agent-m1@high__run000.jsonl", "Agent-m1@low__run000.jsonl", "Agent-m1__run000.jsonl"]
