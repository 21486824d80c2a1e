"""Infrastructure errors every external client shares -- not found, killed at its wall-clock
limit, a failing exit -- and a broken scenario that never reaches a client. No Node needed: the
"clients" here are a missing claude and small Python commands."""

from __future__ import annotations

import sys
import uuid
from pathlib import Path

import pytest

from a320bench.bridge import exitcodes
from a320bench.bridge.cli import main
from a320bench.bridge.score.scorecard import score_file
from tests.clients.client_bed import SCENARIO, events, processes_with, python_cmd, run, trajectory


def test_claude_not_found_refuses_the_run_at_once_in_one_line_before_any_episode(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("A320_BENCH_CLAUDE", str(tmp_path / "no" / "claude"))
    out = tmp_path / "out"
    rc = run(out, "--client", "claude", "--runs", "2")
    assert rc == exitcodes.USAGE  # a missing program is the run's configuration, not the agent's episode

    err = capsys.readouterr().err
    assert "Traceback" not in err and len(err.splitlines()) == 1
    assert err.startswith("error: claude not found: A320_BENCH_CLAUDE=")
    assert "npm install -g @anthropic-ai/claude-code" in err
    assert not out.exists()  # nothing flown, nothing written


def test_a_client_cmd_program_not_found_refuses_the_run_at_once(tmp_path, capsys):
    out = tmp_path / "out"
    rc = run(out, "--client", "cmd", "--client-cmd", "a320-bench-no-such-client {config}")
    assert rc == exitcodes.USAGE
    err = capsys.readouterr().err
    assert err == "error: --client-cmd: a320-bench-no-such-client not found on PATH\n"
    assert not out.exists()


def _failing_claude(tmp_path: Path) -> Path:
    """A `claude` that is there and exits 1 at once: each episode it reaches ends client_error."""
    exe = tmp_path / "bin" / "claude"
    exe.parent.mkdir()
    exe.write_text("#!/bin/sh\nexit 1\n")
    exe.chmod(0o755)
    return exe


@pytest.mark.slow
@pytest.mark.usefixtures("sandboxed")
def test_a_client_over_its_wall_clock_limit_is_killed_with_everything_it_started(tmp_path):
    marker = f"a320-bench-test-{uuid.uuid4().hex}"
    hang = ("import subprocess, sys, time; "
            "subprocess.Popen([sys.executable, '-c', 'import time; time.sleep(60)', sys.argv[1]], "
            "start_new_session=True); time.sleep(60)")
    template = python_cmd("-c", hang, marker, "{config}")
    out = tmp_path / "out"
    rc = run(out, "--client", "cmd", "--client-cmd", template, "--client-timeout", "1.5")
    assert rc == exitcodes.OK  # running out of time is the agent's result
    evs = events(trajectory(out, "cmd"))
    report, final = evs[-2], evs[-1]
    assert report["timed_out"] is True and report["exit_code"] is None and report["wall_s"] >= 1.5
    assert report["error"] is None
    assert final["reason"] == "client_timeout" and final["success"]["passed"] is False
    assert processes_with(marker) == []  # the client's own child, in a session of its own, went with it


@pytest.mark.usefixtures("sandboxed")
def test_a_client_that_fails_is_a_client_error_and_the_command_is_on_record(tmp_path):
    out = tmp_path / "out"
    rc = run(out, "--client", "cmd", "--client-cmd", python_cmd("-c", "raise SystemExit(3)", "{config}"))
    assert rc == exitcodes.CLIENT_ERROR
    evs = events(trajectory(out, "cmd"))
    report, final = evs[-2], evs[-1]
    assert report["exit_code"] == 3 and "exited with code 3" in report["error"]
    assert report["invocation"]["argv"][1:3] == ["-c", "raise SystemExit(3)"]
    assert final["reason"] == "client_error" and final["superseded_reason"] is None


def test_a_scenario_that_fails_its_gate_never_reaches_the_client(tmp_path, monkeypatch):
    # Were the client started, this run would end as client_error (claude exits 1).
    monkeypatch.setenv("A320_BENCH_CLAUDE", str(_failing_claude(tmp_path)))
    broken = tmp_path / "broken.yaml"
    broken.write_text(SCENARIO.read_text().replace("must_appear: [ELEC GEN 1 FAULT]",
                                                   "must_appear: [ELEC GEN 2 FAULT]"))
    out = tmp_path / "out"
    rc = main(["run", "--scenario", str(broken), "--client", "claude", "--out", str(out), "--no-progress"])
    assert rc == exitcodes.INVALID_SCENARIO
    evs = events(trajectory(out, "claude"))
    assert [e["type"] for e in evs] == ["meta", "setup", "final"] and evs[-1]["reason"] == "invalid_scenario"


def test_a_disk_that_fills_during_client_episodes_ends_one_storage_error_and_starts_no_more(tmp_path, monkeypatch,
                                                                                           capsys):
    from a320bench.server.trajectory import is_complete
    from tests.disk_bed import small_disk

    # A claude that exits at once makes every episode that reaches its end a quick client_error.
    monkeypatch.setenv("A320_BENCH_CLAUDE", str(_failing_claude(tmp_path)))
    with small_disk(tmp_path / "disk") as disk:
        out = disk / "out"
        rc = main(["run", "--scenario", str(SCENARIO.parent), "--client", "claude", "--out", str(out),
                   "--no-progress", "--workers", "1"])
        err = capsys.readouterr().err
        assert rc == exitcodes.STORAGE, err
        assert "Traceback" not in err
        storage = [line for line in err.splitlines() if "cannot write the trajectory" in line]
        assert len(storage) == 1 and storage[0].endswith(": No space left on device")
        assert "episode(s) not started; free space (or make the disk writable) and run the same command again to resume" in err
        # Nothing the full disk cut short stands as a result: a resume reruns it.
        files = list(out.rglob("*.jsonl"))
        assert [p for p in files if not is_complete(p)] != []
        assert all(events(p)[-1]["reason"] == "client_error" for p in files if is_complete(p))
