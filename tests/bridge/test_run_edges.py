"""`a320-bench run` at its edges: interrupts, a missing extra, full or unwritable disks, links, replay choice.

Each bad situation is one line naming the problem, an exit code that says what
happened, and never an episode that passes as the agent's result.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from a320bench.bridge import exitcodes
from a320bench.bridge.cli import main
from tests.disk_bed import small_disk
from tests.fakes.openai_server import HANG, FakeOpenAI, tool_call

ROOT = Path(__file__).resolve().parents[2]
SCENARIO = "scenarios/elec/gen1_fault_reset_fails.yaml"
ELEC_ID = "elec_gen1_fault_reset_fails"
KEY = "sk-test-SECRET-0123456789abcdef"


def events(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines()]


def cli(*args: str, env: dict[str, str] | None = None, prelude: str = "") -> subprocess.CompletedProcess:
    """`a320-bench ARGS` in a fresh interpreter (optionally after `prelude`), as a user runs it."""
    code = f"import sys\n{prelude}\nfrom a320bench.bridge.cli import main\nsys.exit(main(sys.argv[1:]))"
    return subprocess.run([sys.executable, "-c", code, *args], cwd=ROOT, capture_output=True, text=True,
                          env={**os.environ, **(env or {})}, timeout=120)


# ---- interrupts -------------------------------------------------------------------------


@pytest.mark.slow
@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM, signal.SIGHUP], ids=["ctrl-c", "sigterm", "hangup"])
def test_an_interrupted_run_ends_its_episodes_interrupted_exits_130_and_resumes(tmp_path, sig):
    # A hangup: the terminal a person runs from is closed (it used to kill the run as SIGKILL would).
    env_file = tmp_path / "creds.env"
    env_file.write_text(f"OPENAI_API_KEY={KEY}\n")
    out = tmp_path / "out"
    with FakeOpenAI([{"tool_calls": [tool_call("read_ecam", {})]}, HANG]) as fake:
        cmd = [sys.executable, "-m", "a320bench", "run", "--scenario", SCENARIO, "--model", "openai/fake-model",
               "--env-file", str(env_file), "--sampling", json.dumps({"api_base": fake.url}), "--out", str(out),
               "--no-progress"]
        # Run from a terminal, where a hangup is not ignored: a suite run under nohup would pass its SIG_IGN on.
        before = signal.signal(signal.SIGHUP, signal.SIG_DFL)
        try:
            proc = subprocess.Popen(cmd, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                    start_new_session=True)
        finally:
            signal.signal(signal.SIGHUP, before)
        deadline = time.monotonic() + 90
        while len(fake.requests) < 2 and time.monotonic() < deadline and proc.poll() is None:
            time.sleep(0.05)  # the second model request hangs: the episode is in flight
        assert len(fake.requests) == 2, proc.communicate()
        proc.send_signal(sig)
        _, err = proc.communicate(timeout=60)
    assert proc.returncode == exitcodes.INTERRUPTED, err
    assert "Traceback" not in err
    assert f"interrupted ({sig.name}): 1 episode(s) in flight ended `interrupted`" in err
    traj = out / ELEC_ID / "openai_fake-model__run000.jsonl"
    evs = events(traj)
    assert [e["type"] for e in evs] == ["meta", "setup", "assistant", "tool_call", "final"]
    assert evs[-1]["reason"] == "interrupted"
    (record,) = out.glob("run-*.json")
    rec = json.loads(record.read_text())
    assert (rec["interrupted"], rec["counts"]) == (sig.name, {"interrupted": 1})
    # The same command again reruns the interrupted episode to a result.
    done = {"tool_calls": [tool_call("report_done", {"diagnosis": "GEN 1", "actions_summary": "none"})]}
    with FakeOpenAI([done]) as fake:
        cmd[cmd.index("--sampling") + 1] = json.dumps({"api_base": fake.url})
        again = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert again.returncode == exitcodes.OK, again.stderr
    assert events(traj)[-1]["reason"] == "agent_done"


# ---- the providers extra ------------------------------------------------------------------


@pytest.mark.slow
def test_a_model_run_without_the_providers_extra_is_one_line_with_the_pip_command_and_exit_2(tmp_path):
    # As after the quick start's `pip install -e .`: litellm cannot be imported.
    r = cli("run", "--scenario", SCENARIO, "--model", "openai/gpt-4.1", "--out", str(tmp_path / "out"),
            prelude="sys.modules['litellm'] = None")
    assert r.returncode == exitcodes.USAGE
    assert r.stderr.splitlines() == [
        f"error: the litellm provider needs the providers extra (litellm is not installed): "
        f"{sys.executable} -m pip install -e '{ROOT}[providers]'"]
    assert not (tmp_path / "out").exists()
    # The baselines need no extra.
    ok = cli("run", "--scenario", SCENARIO, "--provider", "noop", "--out", str(tmp_path / "out"), "--no-progress",
             prelude="sys.modules['litellm'] = None")
    assert ok.returncode == exitcodes.OK, ok.stderr


# ---- disks that refuse ------------------------------------------------------------------


def test_a_disk_that_fills_mid_run_ends_the_episode_storage_error_and_exits_74(tmp_path, capsys):
    with small_disk(tmp_path / "disk") as disk:
        rc = main(["run", "--scenario", "scenarios/elec", "--out", str(disk / "out"), "--no-progress",
                   "--workers", "1"])
        err = capsys.readouterr().err
        assert rc == exitcodes.STORAGE, err
        assert "Traceback" not in err
        lines = [line for line in err.splitlines() if line.startswith("error: ")]
        assert lines[0].startswith("error: elec_") and lines[0].endswith(": No space left on device")
        assert f"cannot write the trajectory {disk / 'out'}/" in lines[0]
        assert "episode(s) not started; free space (or make the disk writable) and run the same command again to resume" in err
        from a320bench.server.trajectory import is_complete

        # Nothing the full disk cut short stands as a result: a resume reruns it.
        cut = [p for p in (disk / "out").rglob("*.jsonl") if not is_complete(p)]
        assert len(cut) == 1


def test_an_out_folder_on_a_full_disk_is_one_line_and_exit_2_before_any_episode(tmp_path, capsys):
    with small_disk(tmp_path / "disk", size="16k") as disk:
        (disk / "out").mkdir()
        with open(disk / "filler", "wb", buffering=0) as fh:
            try:
                while True:
                    fh.write(b"x" * 1024)
            except OSError:
                pass  # full
        rc = main(["run", "--scenario", SCENARIO, "--out", str(disk / "out"), "--no-progress"])
        err = capsys.readouterr().err.strip().splitlines()
        assert rc == exitcodes.USAGE
        assert len(err) == 1 and err[0].startswith(f"error: --out {disk / 'out'}: cannot write the run record ")
        assert err[0].endswith(": No space left on device")
        assert list((disk / "out").iterdir()) == []


def test_a_read_only_out_folder_is_one_line_and_exit_2(tmp_path, capsys):
    with small_disk(tmp_path / "ro", options="ro") as ro:
        rc = main(["run", "--scenario", SCENARIO, "--out", str(ro / "out"), "--no-progress"])
    assert rc == exitcodes.USAGE
    assert capsys.readouterr().err.strip() == (
        f"error: --out {ro / 'out'}: cannot create the folder: Read-only file system")


def test_an_out_folder_under_a_file_is_one_line_and_exit_2(tmp_path, capsys):
    (tmp_path / "README.md").write_text("a file\n")
    rc = main(["run", "--scenario", SCENARIO, "--out", str(tmp_path / "README.md" / "sub"), "--no-progress"])
    assert rc == exitcodes.USAGE
    assert capsys.readouterr().err.strip() == (
        f"error: --out {tmp_path / 'README.md' / 'sub'}: cannot create the folder: Not a directory")


@pytest.mark.parametrize("where", ["scenario folder", "trajectory"])
def test_something_in_the_way_of_an_episodes_file_is_one_line_and_exit_2_before_any_episode(tmp_path, capsys,
                                                                                            where):
    # Found mid-run, it ended the run storage_error (exit 74) after the episodes before it, saying "free space".
    out = tmp_path / "out"
    out.mkdir()
    other = "elec_gen1_fault_reset_works"
    if where == "scenario folder":
        blocker = out / ELEC_ID
        blocker.write_text("a file\n")
        why = f"{blocker} is a file where the episodes of {ELEC_ID} go"
    else:
        blocker = out / ELEC_ID / "scripted__run000.jsonl"
        blocker.mkdir(parents=True)
        why = f"{blocker} is a folder where a trajectory goes"
    rc = main(["run", "--scenario", f"scenarios/elec/{other.removeprefix('elec_')}.yaml", SCENARIO, "--out", str(out),
               "--no-progress"])
    assert rc == exitcodes.USAGE
    assert capsys.readouterr().err.strip() == f"error: --out {out}: {why}"
    assert not (out / other).exists()  # nothing flew


# ---- links ------------------------------------------------------------------------------


@pytest.mark.parametrize("linked", ["file", "folder"])
def test_a_symbolic_link_inside_out_is_refused_and_its_target_left_alone(tmp_path, capsys, linked):
    out = tmp_path / "out"
    target = tmp_path / "precious"
    if linked == "file":
        target.write_text("do not overwrite\n")
        (out / ELEC_ID).mkdir(parents=True)
        link = out / ELEC_ID / "scripted__run000.jsonl"
    else:
        target.mkdir()
        out.mkdir()
        link = out / ELEC_ID
    link.symlink_to(target)
    rc = main(["run", "--scenario", SCENARIO, "--out", str(out), "--force", "--no-progress"])
    assert rc == exitcodes.USAGE
    assert capsys.readouterr().err.strip() == (
        f"error: --out {out}: {link} is a symbolic link; a320-bench never writes through one")
    if linked == "file":
        assert target.read_text() == "do not overwrite\n"
    else:
        assert list(target.iterdir()) == []


def test_a_trajectory_replaces_a_hard_link_instead_of_writing_through_it(tmp_path):
    out = tmp_path / "out"
    (out / ELEC_ID).mkdir(parents=True)
    elsewhere = tmp_path / "elsewhere.jsonl"
    elsewhere.write_text("someone else's file\n")
    os.link(elsewhere, out / ELEC_ID / "scripted__run000.jsonl")
    assert main(["run", "--scenario", SCENARIO, "--out", str(out), "--no-progress"]) == exitcodes.OK
    assert elsewhere.read_text() == "someone else's file\n"
    assert events(out / ELEC_ID / "scripted__run000.jsonl")[-1]["reason"] == "agent_done"


# ---- replay picks the right recording -------------------------------------------------------


def test_replay_refuses_a_folder_with_several_recordings_unless_told_which(tmp_path, capsys):
    src = tmp_path / "src"
    for provider in ("noop", "random", "scripted"):
        assert main(["run", "--provider", provider, "--scenario", SCENARIO, "--out", str(src), "--no-progress"]) == 0
    capsys.readouterr()
    replay = ["run", "--provider", "replay", "--replay-from", str(src), "--scenario", SCENARIO, "--no-progress"]
    assert main([*replay, "--out", str(tmp_path / "r0")]) == exitcodes.USAGE
    assert capsys.readouterr().err.strip() == (
        f"error: --replay-from {src} holds recordings of {ELEC_ID} run 0 by noop, random, scripted: "
        "choose one with --replay-of LABEL")
    assert main([*replay, "--replay-of", "gpt", "--out", str(tmp_path / "r1")]) == exitcodes.USAGE
    assert capsys.readouterr().err.strip() == (
        f"error: --replay-from {src}: no recording of gpt for {ELEC_ID} run 0 (it holds: noop, random, scripted)")
    assert main([*replay, "--replay-of", "random", "--out", str(tmp_path / "r2")]) == exitcodes.OK
    (traj,) = (tmp_path / "r2").rglob("*.jsonl")
    evs = events(traj)
    check = next(e for e in evs if e["type"] == "replay_check")
    assert check["source"].endswith("random__run000.jsonl") and check["same"] is True
    recorded = [(e["name"], e["arguments"]) for e in events(src / ELEC_ID / "random__run000.jsonl")
                if e["type"] == "tool_call"]
    assert [(e["name"], e["arguments"]) for e in evs if e["type"] == "tool_call"] == recorded


def test_replay_of_a_malformed_call_replays_it_as_one(tmp_path, monkeypatch):
    monkeypatch.setenv("A320_BENCH_BACKOFF_BASE_S", "0.01")
    env_file = tmp_path / "creds.env"
    env_file.write_text(f"OPENAI_API_KEY={KEY}\n")
    script = [{"tool_calls": [tool_call("wait", raw_arguments="{oops")]},
              {"tool_calls": [tool_call("report_done", {"diagnosis": "x", "actions_summary": "y"})]}]
    with FakeOpenAI(script) as fake:
        assert main(["run", "--scenario", SCENARIO, "--model", "openai/fake-model", "--env-file", str(env_file),
                     "--sampling", json.dumps({"api_base": fake.url}), "--out", str(tmp_path / "src"),
                     "--no-progress"]) == 0
    assert main(["run", "--provider", "replay", "--replay-from", str(tmp_path / "src"), "--scenario", SCENARIO,
                 "--out", str(tmp_path / "r"), "--no-progress"]) == 0
    (traj,) = (tmp_path / "r").rglob("*.jsonl")
    calls = [(e["name"], e["arguments"], e["is_error"]) for e in events(traj) if e["type"] == "tool_call"]
    assert calls == [("wait", "{oops", True), ("report_done", {"diagnosis": "x", "actions_summary": "y"}, False)]


# ---- no traceback, ever ---------------------------------------------------------------------


def test_a_bug_anywhere_in_a_command_is_one_line_and_exit_70(monkeypatch, capsys):
    from a320bench.bridge import run_command as run_module

    def broken(args):
        raise ZeroDivisionError("division by zero")

    monkeypatch.delenv("A320_BENCH_DEBUG", raising=False)
    monkeypatch.setattr(run_module, "run_command", broken)
    assert main(["run"]) == exitcodes.INTERNAL
    assert capsys.readouterr().err.strip() == (
        "error: internal error: ZeroDivisionError: division by zero "
        "(a bug of a320-bench; A320_BENCH_DEBUG=1 shows the traceback)")


def test_a_command_leaves_the_environment_as_it_found_it(tmp_path, monkeypatch):
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    env_file = tmp_path / "creds.env"
    env_file.write_text(f"OPENAI_API_KEY={KEY}\nA320_BENCH_TEST_EXTRA=1\n")
    # Set once per process, on purpose, before litellm is first imported (providers/litellm_agent.py); as a
    # test worker that imported it earlier has it, this one is given it too (monkeypatch takes it back).
    monkeypatch.setenv("LITELLM_LOCAL_MODEL_COST_MAP", os.environ.get("LITELLM_LOCAL_MODEL_COST_MAP", "True"))
    before = dict(os.environ)
    main(["run", "--scenario", SCENARIO, "--model", "no-such-provider-xyz/m", "--env-file", str(env_file)])
    assert dict(os.environ) == before


def test_an_out_folder_whose_parents_do_not_exist_is_created_with_them(tmp_path, capsys):
    # Decided: --out creates the folders above it (as mkdir -p), and a rerun resumes in them.
    out = tmp_path / "a" / "b" / "c" / "runs"
    assert main(["run", "--scenario", SCENARIO, "--out", str(out), "--no-progress"]) == exitcodes.OK
    [trajectory] = list(out.rglob("*.jsonl"))
    assert trajectory == out / ELEC_ID / "scripted__run000.jsonl" and events(trajectory)[-1]["type"] == "final"
    capsys.readouterr()
    assert main(["run", "--scenario", SCENARIO, "--out", str(out), "--no-progress"]) == exitcodes.OK
    assert list(out.rglob("*.jsonl")) == [trajectory]  # complete already: nothing flown again
    assert len(list(out.glob("run-*.json"))) == 2
