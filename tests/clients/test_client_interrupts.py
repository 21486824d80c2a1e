"""Stopping `run --client` at any point -- Ctrl-C, SIGTERM, SIGKILL -- leaves no client process behind,
never passes an episode in flight off as the agent's result, and the same command then completes the
run with the scores of a run that was never stopped."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
import uuid

import pytest

from a320bench.bridge.score.scorecard import score_file
from tests.clients.client_bed import AGENT, PROCEDURE, ROOT, SCENARIO, events, processes_with, python_cmd, trajectory

PROCEDURE = [["read_ecam", {}],
             ["set_control", {"control": "GEN 1", "position": "OFF"}],
             ["set_control", {"control": "GEN 1", "position": "ON"}],
             ["set_control", {"control": "GEN 1", "position": "OFF"}],
             ["report_done", {"diagnosis": "GEN 1 fault, reset unsuccessful", "actions_summary": "GEN 1 off, on, off"}]]
RUNS = 2
DEADLINE_S = 120.0  # generous: a deadline for things to happen, never a measure of speed
pytestmark = [pytest.mark.slow, pytest.mark.usefixtures("sandboxed")]


def command(out: Path, tag: str) -> list[str]:
    template = python_cmd(str(AGENT), "play", "{config}", "{server}", json.dumps(PROCEDURE), "--tag", tag)
    return [sys.executable, "-m", "a320bench", "run", "--scenario", str(SCENARIO), "--client", "cmd",
            "--client-cmd", template, "--out", str(out), "--runs", str(RUNS), "--workers", str(RUNS), "--no-progress"]


def scores(out: Path) -> list[dict]:
    cards = [score_file(trajectory(out, "cmd", r)).to_dict() for r in range(RUNS)]
    # Where the file is and when it was written (the identity holds meta's time) are not its score.
    return [{k: v for k, v in card.items() if k not in ("path", "identity")} for card in cards]


@pytest.fixture(scope="module")
def uninterrupted(tmp_path_factory) -> list[dict]:
    out = tmp_path_factory.mktemp("uninterrupted") / "out"
    p = subprocess.run(command(out, "never-stopped"), capture_output=True, text=True, timeout=DEADLINE_S,
                       stdin=subprocess.DEVNULL)
    assert p.returncode == 0, p.stderr
    assert [line.split(":")[0] for line in p.stderr.splitlines()] == ["run record", "make the report"]  # nothing else
    result = scores(out)
    assert [c["compliant_success"] for c in result] == [True] * RUNS
    return result


def wait_for(condition, what: str) -> None:
    deadline = time.monotonic() + DEADLINE_S
    while not condition():
        assert time.monotonic() < deadline, f"gave up waiting for {what}"
        time.sleep(0.05)


def paused(out: Path) -> bool:
    logs = [trajectory(out, "cmd", r).with_name(f"cmd__run{r:03d}.cmd.log") for r in range(RUNS)]
    return all(log.exists() and '"pausing": true' in log.read_text() for log in logs)


@pytest.mark.parametrize("sig, pause_before", [
    (signal.SIGINT, 2),  # Ctrl-C mid-procedure
    (signal.SIGTERM, len(PROCEDURE)),  # after report_done, before the client has exited
    (signal.SIGKILL, 0),  # before the agent's first call
    (signal.SIGKILL, 3),  # mid-procedure, the aircraft already changed
], ids=["sigint-mid", "sigterm-after-report-done", "sigkill-before-first-call", "sigkill-mid"])
def test_a_stopped_client_run_leaves_no_process_and_resumes_to_the_same_scores(tmp_path, uninterrupted, sig,
                                                                               pause_before):
    out = tmp_path / "out"
    tag = f"a320-bench-test-{uuid.uuid4().hex}"
    slow_agent = {**os.environ, "AGENT_PAUSE_BEFORE": str(pause_before), "AGENT_PAUSE_S": "600",
                  "AGENT_SPAWN": "1"}
    run = subprocess.Popen(command(out, tag), env=slow_agent, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, text=True, start_new_session=True)
    try:
        wait_for(lambda: paused(out), "both agents to pause")
        assert len(processes_with(tag)) >= 2 * RUNS  # the agents and what they spawned are up
        run.send_signal(sig)
        _, err = run.communicate(timeout=DEADLINE_S)
    finally:
        if run.poll() is None:
            run.kill()
            run.wait()
    assert run.returncode == (-signal.SIGKILL if sig == signal.SIGKILL else 130)
    wait_for(lambda: processes_with(tag) == [], "every client process to be gone")

    for r in range(RUNS):
        evs = events(trajectory(out, "cmd", r))
        finals = [e for e in evs if e["type"] == "final"]
        if sig == signal.SIGKILL:
            assert finals == []  # nothing that a resume would take for a result
        else:
            # The run record and the report command, then one line about the interruption; no traceback.
            assert [line.split(":")[0] for line in err.splitlines()] == \
                ["run record", "make the report", f"interrupted ({sig.name})"]
            assert err.splitlines()[-1] == (f"interrupted ({sig.name}): {RUNS} episode(s) in flight ended "
                                            "`interrupted`, 0 not started; run the same command again to resume")
            assert [e["type"] for e in evs][-2:] == ["client_report", "final"]
            assert evs[-2]["interrupted"] is True
            assert finals[-1]["reason"] == "interrupted"
            assert finals[-1]["superseded_reason"] == ("agent_done" if pause_before == len(PROCEDURE) else None)
            assert score_file(trajectory(out, "cmd", r)).status == "interrupted"

    # The same command, with agents that no longer dawdle, finishes the run as if nothing had happened.
    again = subprocess.run(command(out, tag), capture_output=True, text=True, timeout=DEADLINE_S,
                           stdin=subprocess.DEVNULL)
    assert again.returncode == 0, again.stderr
    assert "already complete" not in again.stderr  # every stopped episode was flown again
    assert scores(out) == uninterrupted
    assert processes_with(tag) == []


# Ctrl-C while an episode's HTTP server is starting (uvicorn's startup, before the client is started).
INTERRUPTED_WHILE_THE_SERVER_STARTS = """
import asyncio, os, signal, sys
from a320bench.server.surface import http

startup = http._Uvicorn.startup
sent = []

async def interrupted_while_starting(self, sockets=None):
    if not sent:
        sent.append(True)
        os.kill(os.getpid(), signal.SIGINT)
        await asyncio.sleep(0.5)  # the run hears it and cancels the episode, still waiting for its server
    await startup(self, sockets)

http._Uvicorn.startup = interrupted_while_starting
from a320bench.__main__ import main
sys.exit(main())
"""


def test_ctrl_c_while_an_episodes_server_starts_ends_the_run_and_resumes_to_the_same_scores(tmp_path,
                                                                                          uninterrupted):
    # Found by tools/kill_at_random.py (d-client-cmd, SIGINT): the episode, cancelled while it waited for
    # its server to start, waited forever for the server, which nobody asked to stop.
    out = tmp_path / "out"
    tag = f"a320-bench-test-{uuid.uuid4().hex}"
    argv = command(out, tag)
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"} | {"PYTHONPATH": str(ROOT.parent)}
    stopped = subprocess.run([sys.executable, "-c", INTERRUPTED_WHILE_THE_SERVER_STARTS, *argv[3:]], cwd=ROOT,
                             env=env, capture_output=True, text=True, timeout=DEADLINE_S, stdin=subprocess.DEVNULL)
    assert stopped.returncode == 130, stopped.stderr
    assert stopped.stderr.splitlines()[-1] == (f"interrupted (SIGINT): {RUNS} episode(s) in flight ended "
                                               "`interrupted`, 0 not started; run the same command again to resume")
    for r in range(RUNS):
        evs = events(trajectory(out, "cmd", r))
        assert [e["type"] for e in evs] == ["meta", "setup", "client_report", "final"]
        assert evs[-1]["reason"] == "interrupted"
    assert processes_with(tag) == []
    again = subprocess.run(argv, capture_output=True, text=True, timeout=DEADLINE_S, stdin=subprocess.DEVNULL)
    assert again.returncode == 0, again.stderr
    assert scores(out) == uninterrupted
