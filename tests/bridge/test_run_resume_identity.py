"""Resume skips only an episode flown for this run: the same scenario version, profile, seed, sampling and
a320-bench.

A complete trajectory in --out that was flown against an edited copy of its scenario (same id), under
another profile or by another a320-bench version was skipped as "already complete", and the new run
record vouched for it: `score` then showed that episode's verdict under this run's selection hash,
with no word (a lenient copy's outcome passed noop). Such a folder is now refused in one line before
anything runs; --force flies the episode again.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from a320bench.bridge import exitcodes
from a320bench.bridge.cli import main
from a320bench.server.session import scenario_hash, versions
from a320bench.server.scenario.loader import load as load_scenario

ROOT = Path(__file__).resolve().parents[2]
GEN1 = ROOT / "scenarios" / "elec" / "gen1_fault_reset_fails.yaml"
TR1 = ROOT / "scenarios" / "elec" / "tr1_fault_cruise.yaml"


def lenient_copy(tmp_path: Path) -> Path:
    """GEN 1's scenario under its own id, with one success criterion that noop meets."""
    text = re.sub(r"success:\n(  - .*\n)+", "success:\n  - {var: elec.ac_bus_2_powered, op: eq, value: true}\n",
                  GEN1.read_text())
    copy = tmp_path / "lenient.yaml"
    copy.write_text(text)
    return copy


def run(*args: str) -> int:
    return main(["run", *args, "--no-progress"])


def test_a_resume_refuses_an_episode_flown_against_another_version_of_its_scenario(tmp_path, capsys):
    out = tmp_path / "runs"
    copy = lenient_copy(tmp_path)
    assert run("--provider", "noop", "--scenario", str(copy), "--out", str(out)) == exitcodes.OK
    traj = out / "elec_gen1_fault_reset_fails" / "noop__run000.jsonl"
    before = traj.read_bytes()
    records = sorted(out.glob("run-*.json"))
    capsys.readouterr()

    assert run("--provider", "noop", "--scenario", str(GEN1), "--out", str(out)) == exitcodes.USAGE
    old, new = scenario_hash(load_scenario(copy)), scenario_hash(load_scenario(GEN1))
    assert capsys.readouterr().err == (
        f"error: --out {out}: {traj} was flown against another version of scenario elec_gen1_fault_reset_fails "
        f"(scenario_sha256 {old[:12]}…, this run's {new[:12]}…): resuming would mix it into this run; "
        "use another --out, or --force to fly it again\n")
    assert traj.read_bytes() == before and sorted(out.glob("run-*.json")) == records  # nothing ran

    assert run("--provider", "noop", "--scenario", str(GEN1), "--out", str(out), "--force") == exitcodes.OK
    assert json.loads(traj.read_text().splitlines()[0])["scenario_sha256"] == new


def test_a_resume_refuses_an_episode_flown_under_another_profile(tmp_path, capsys):
    out = tmp_path / "runs"
    assert run("--scenario", str(TR1), "--out", str(out)) == exitcodes.OK
    capsys.readouterr()
    assert run("--profile", "crew", "--scenario", str(TR1), "--out", str(out)) == exitcodes.USAGE
    traj = out / "elec_tr1_fault_cruise" / "scripted__run000.jsonl"
    assert capsys.readouterr().err == (
        f"error: --out {out}: {traj} was flown with the benchmark profile, this run's is crew: resuming would mix "
        "it into this run; use another --out, or --force to fly it again\n")


def test_a_resume_refuses_an_episode_recorded_by_another_a320_bench_version(tmp_path, capsys):
    out = tmp_path / "runs"
    assert run("--scenario", str(TR1), "--out", str(out)) == exitcodes.OK
    traj = out / "elec_tr1_fault_cruise" / "scripted__run000.jsonl"
    lines = traj.read_text().splitlines(keepends=True)
    meta = json.loads(lines[0])
    meta["versions"]["a320-bench"] = "0.1.0"  # as an older harness, whose verdicts had no hands-off reading
    traj.write_text(json.dumps(meta) + "\n" + "".join(lines[1:]))
    capsys.readouterr()
    assert run("--scenario", str(TR1), "--out", str(out)) == exitcodes.USAGE
    assert capsys.readouterr().err == (
        f"error: --out {out}: {traj} was recorded by a320-bench 0.1.0, this is {versions()['a320-bench']}: resuming "
        "would mix it into this run; use another --out, or --force to fly it again\n")


def test_a_learning_chain_refuses_to_resume_over_an_episode_of_another_scenario_version(tmp_path, capsys):
    out = tmp_path / "runs"
    copy = lenient_copy(tmp_path)
    assert run("--profile", "learning", "--provider", "noop", "--scenario", str(copy), "--out", str(out)) == 0
    capsys.readouterr()
    assert run("--profile", "learning", "--provider", "noop", "--scenario", str(GEN1), "--out", str(out)) == \
        exitcodes.USAGE
    err = capsys.readouterr().err
    assert err.startswith(f"error: --out {out}: {out / 'elec_gen1_fault_reset_fails' / 'noop__run000.jsonl'} was "
                          "flown against another version of scenario elec_gen1_fault_reset_fails") and \
        err.count("\n") == 1


def test_a_resume_of_the_same_run_still_skips_its_complete_episodes(tmp_path, capsys):
    out = tmp_path / "runs"
    for _ in range(2):
        assert run("--profile", "crew", "--scenario", str(TR1), "--out", str(out)) == exitcodes.OK
    assert "1 episode(s) already complete" in capsys.readouterr().err


def test_a_resume_refuses_an_episode_flown_with_another_seed(tmp_path, capsys):
    out = tmp_path / "runs"
    assert run("--provider", "random", "--seed", "3", "--scenario", str(TR1), "--out", str(out)) == exitcodes.OK
    capsys.readouterr()
    assert run("--provider", "random", "--seed", "4", "--scenario", str(TR1), "--out", str(out)) == exitcodes.USAGE
    traj = out / "elec_tr1_fault_cruise" / "random__run000.jsonl"
    assert capsys.readouterr().err == (
        f"error: --out {out}: {traj} was flown with another --seed, this run's is 4: resuming would mix it into "
        "this run; use another --out, or --force to fly it again\n")
    assert run("--provider", "random", "--seed", "3", "--scenario", str(TR1), "--out", str(out)) == exitcodes.OK
    assert "1 episode(s) already complete" in capsys.readouterr().err


def test_a_resume_refuses_an_episode_a_model_flew_with_other_sampling_but_not_through_another_proxy(
        tmp_path, capsys, monkeypatch):
    from tests.fakes.openai_server import FakeOpenAI, tool_call

    monkeypatch.setenv("OPENAI_API_KEY", "sk-test-not-a-real-key")
    out = tmp_path / "runs"
    answers = [tool_call("report_done", {"diagnosis": "x", "actions_summary": "none"})]

    def fly(sampling: dict) -> int:
        with FakeOpenAI(list(answers)) as fake:
            return run("--model", "openai/gpt-4o-mini", "--scenario", str(TR1), "--out", str(out),
                       "--sampling", json.dumps({"api_base": fake.url, **sampling}))

    assert fly({"temperature": 0}) == exitcodes.OK
    capsys.readouterr()
    assert fly({"temperature": 1}) == exitcodes.USAGE
    traj = out / "elec_tr1_fault_cruise" / "openai_gpt-4o-mini__run000.jsonl"
    assert capsys.readouterr().err == (
        f'error: --out {out}: {traj} was flown with --sampling {{"temperature": 0}}, this run\'s is '
        '{"temperature": 1}: resuming would mix it into this run; use another --out, or --force to fly it again\n')
    assert fly({"temperature": 0}) == exitcodes.OK  # a new fake server: another api_base, the same episode
    assert "1 episode(s) already complete" in capsys.readouterr().err


PLUGIN_NAMED_SCRIPTED = '''
class scripted:
    """A plug-in that does nothing, under the oracle baseline's name."""

    async def run(self, view):
        return None
'''


def test_a_resume_refuses_an_episode_another_agent_under_the_same_file_label_flew(tmp_path, capsys, monkeypatch):
    # Red team round 12: a plug-in class named `scripted` writes scripted__run000.jsonl, as the oracle does; its
    # run skipped the oracle's complete episode and its run record vouched for it (100% compliant success).
    out = tmp_path / "runs"
    monkeypatch.chdir(tmp_path)
    (tmp_path / "plug.py").write_text(PLUGIN_NAMED_SCRIPTED)
    assert run("--agent", "scripted", "--scenario", str(TR1), "--out", str(out)) == exitcodes.OK
    capsys.readouterr()
    assert run("--agent", "plug.py:scripted", "--scenario", str(TR1), "--out", str(out)) == exitcodes.USAGE
    traj = out / "elec_tr1_fault_cruise" / "scripted__run000.jsonl"
    assert capsys.readouterr().err == (
        f"error: --out {out}: {traj} was flown by another agent (agent_kind: recorded null, this run's \"file\"): "
        "resuming would mix it into this run; use another --out, or --force to fly it again\n")
    # The same plug-in, its file written another way, resumes its own episode.
    assert run("--agent", "plug.py:scripted", "--scenario", str(TR1), "--out", str(out), "--force") == exitcodes.OK
    capsys.readouterr()
    assert run("--agent", "./plug.py:scripted", "--scenario", str(TR1), "--out", str(out)) == exitcodes.OK
    assert "1 episode(s) already complete" in capsys.readouterr().err


def test_a_resume_refuses_a_crew_episode_another_captain_answered(tmp_path, capsys):
    out = tmp_path / "runs"
    assert run("--profile", "crew", "--scenario", str(TR1), "--out", str(out)) == exitcodes.OK
    traj = out / "elec_tr1_fault_cruise" / "scripted__run000.jsonl"
    lines = traj.read_text().splitlines(keepends=True)
    meta = json.loads(lines[0])
    assert meta["captain"] == {"kind": "scripted", "model": None}
    meta["captain"] = {"kind": "litellm", "model": "openai/gpt-4o-mini"}  # as --captain-model would record
    traj.write_text(json.dumps(meta) + "\n" + "".join(lines[1:]))
    capsys.readouterr()
    assert run("--profile", "crew", "--scenario", str(TR1), "--out", str(out)) == exitcodes.USAGE
    assert capsys.readouterr().err == (
        f"error: --out {out}: {traj} was flown by another agent (captain: recorded "
        '{"kind": "litellm", "model": "openai/gpt-4o-mini"}, this run\'s {"kind": "scripted", "model": null}): '
        "resuming would mix it into this run; use another --out, or --force to fly it again\n")


def test_a_learning_chain_refuses_to_resume_over_episodes_flown_with_another_top_k(tmp_path, capsys):
    # Red team round 12: a chain flown with --retrieve-learnings-top-k 5 and resumed with the official 3 kept
    # its complete episodes, and the run record vouched for the whole chain as flown with 3.
    out = tmp_path / "runs"
    learning = ("--profile", "learning", "--provider", "noop", "--scenario", str(GEN1), "--out", str(out))
    assert run(*learning, "--retrieve-learnings-top-k", "5") == exitcodes.OK
    capsys.readouterr()
    assert run(*learning) == exitcodes.USAGE
    traj = out / "elec_gen1_fault_reset_fails" / "noop__run000.jsonl"
    assert capsys.readouterr().err == (
        f"error: --out {out}: {traj} was flown with --retrieve-learnings-top-k 5, this run's is 3: resuming would "
        "mix it into this run; use another --out, or --force to fly it again\n")
    assert run(*learning, "--retrieve-learnings-top-k", "5") == exitcodes.OK
    assert "1 episode(s) already complete" in capsys.readouterr().err
