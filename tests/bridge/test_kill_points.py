"""Kill points that `tools/kill_at_random.py` found by drawing them at random, each chosen here by a hook.

The hook runs in a fresh interpreter before the command (as a user starts it), and sends the
signal at an instant the random trials hit: Ctrl-C while the command's own modules load, SIGTERM
while `run` loads or after its episodes (outside the event loop that listens for it). A Ctrl-C in
the interpreter's own start (site, the editable install's finder: the first ~60 ms) still prints
Python's traceback: no code of ours runs yet. The client case, Ctrl-C while an episode's HTTP
server starts, is in tests/clients/test_client_interrupts.py.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SCENARIO = "scenarios/elec/gen1_fault_reset_fails.yaml"

# Sends `SIG` to this process when the import system is first asked for the module `AT`.
SIGNAL_AT_IMPORT = """
import importlib.abc, os, signal, sys

class SignalAtImport(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path, target=None):
        if name == {at!r}:
            sys.meta_path.remove(self)
            os.kill(os.getpid(), signal.{sig})
        return None

sys.meta_path.insert(0, SignalAtImport())
"""

# How a user starts the command: `python -m a320bench` and the `a320-bench` script (what pip generates).
ENTRIES = {
    "python -m": "import runpy\nrunpy.run_module('a320bench', run_name='__main__', alter_sys=True)",
    "script": "from a320bench.__main__ import main\nsys.exit(main())",
}


def started(entry: str, prelude: str, *args: str) -> subprocess.CompletedProcess:
    code = f"import sys\n{prelude}\n{ENTRIES[entry]}"
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"} | {"PYTHONPATH": str(ROOT.parent)}
    return subprocess.run([sys.executable, "-c", code, *args], cwd=ROOT, capture_output=True, text=True, env=env,
                          timeout=120, stdin=subprocess.DEVNULL)


@pytest.mark.slow
@pytest.mark.parametrize("entry", sorted(ENTRIES))
def test_ctrl_c_while_the_command_loads_is_one_line_and_exit_130(tmp_path, entry):
    # Found at 0.022 s into `run`: a KeyboardInterrupt traceback from urllib.parse and exit 1.
    out = tmp_path / "out"
    p = started(entry, SIGNAL_AT_IMPORT.format(at="a320bench.bridge.console", sig="SIGINT"),
                "run", "--scenario", SCENARIO, "--out", str(out), "--no-progress")
    assert (p.returncode, p.stderr, p.stdout) == (130, "interrupted\n", "")
    assert not out.exists()  # nothing started: nothing to resume


# Sends `SIG` to this process when `run` has flown every episode, before it prints the summary.
SIGNAL_AFTER_THE_EPISODES = """
import os, signal
from a320bench.bridge import run_command

def summary(*args):
    os.kill(os.getpid(), signal.{sig})

run_command._print_summary = summary
"""

# As from a terminal, where a hangup is not ignored: a suite run under nohup would pass its SIG_IGN on.
HANGUP_AT_DEFAULT = "import signal\nsignal.signal(signal.SIGHUP, signal.SIG_DFL)\n"


@pytest.mark.slow
@pytest.mark.parametrize("sig", ["SIGTERM", "SIGHUP"])
@pytest.mark.parametrize("when, prelude", [
    ("while run loads", SIGNAL_AT_IMPORT.format(at="anyio", sig="{sig}")),
    ("after the episodes", SIGNAL_AFTER_THE_EPISODES),
], ids=["loading", "after-the-episodes"])
def test_sigterm_or_a_hangup_outside_the_event_loop_is_one_line_and_exit_130_as_ctrl_c(tmp_path, when, prelude,
                                                                                        sig):
    # Found: SIGTERM (exit -15) and a hangup (exit -1) killed the process silently unless they landed while
    # the episodes flew.
    out = tmp_path / "out"
    prelude = HANGUP_AT_DEFAULT + prelude.replace("{sig}", sig)
    p = started("python -m", prelude, "run", "--scenario", SCENARIO, "--out", str(out), "--no-progress")
    assert (p.returncode, p.stderr.splitlines()[-1]) == (130, "interrupted"), p.stderr
    assert "Traceback" not in p.stderr


@pytest.mark.slow
def test_sigterm_while_the_executor_loads_inside_the_event_loop_ends_the_run_interrupted(tmp_path, monkeypatch):
    # Found on the merged main (kill_at_random a-inproc-w4 SIGTERM, seed 695425564): the in-process
    # executor imports the agent thread's modules inside the event loop, before the signal listener had
    # started: a KeyboardInterrupt inside the task group, an exception-group traceback and exit 1.
    monkeypatch.setenv("A320_BENCH_WORKER_PROCESSES", "1")
    out = tmp_path / "out"
    p = started("python -m", SIGNAL_AT_IMPORT.format(at="a320bench.bridge.agent_thread", sig="SIGTERM"),
                "run", "--scenario", SCENARIO, "--out", str(out), "--no-progress")
    assert p.returncode == 130, p.stderr
    assert p.stderr.splitlines()[-1].startswith("interrupted (SIGTERM): "), p.stderr
    assert "Traceback" not in p.stderr


def test_an_interrupt_inside_a_task_group_is_one_line_and_a_bugs_group_one_internal_error(monkeypatch, capsys):
    from a320bench.bridge import cli, exitcodes

    monkeypatch.delenv("A320_BENCH_DEBUG", raising=False)
    monkeypatch.setattr(cli, "_dispatch", lambda argv: (_ for _ in ()).throw(
        BaseExceptionGroup("unhandled errors in a TaskGroup", [KeyboardInterrupt()])))
    assert cli.main(["score"]) == exitcodes.INTERRUPTED
    assert capsys.readouterr().err == "interrupted\n"
    monkeypatch.setattr(cli, "_dispatch", lambda argv: (_ for _ in ()).throw(
        BaseExceptionGroup("unhandled errors in a TaskGroup", [KeyboardInterrupt(), ValueError("bug")])))
    assert cli.main(["score"]) == exitcodes.INTERNAL
    assert capsys.readouterr().err.startswith("error: internal error: BaseExceptionGroup: unhandled errors")


def test_a_usage_error_inside_a_task_group_is_its_one_line_and_with_a_bug_beside_it_an_internal_error(
        monkeypatch, capsys):
    from a320bench.bridge import cli, exitcodes
    from a320bench.bridge.errors import UsageError

    monkeypatch.delenv("A320_BENCH_DEBUG", raising=False)
    monkeypatch.setattr(cli, "_dispatch", lambda argv: (_ for _ in ()).throw(
        ExceptionGroup("unhandled errors in a TaskGroup", [ExceptionGroup("inner", [UsageError("no cluster")])])))
    assert cli.main(["run"]) == exitcodes.USAGE
    assert capsys.readouterr().err == "error: no cluster\n"
    monkeypatch.setattr(cli, "_dispatch", lambda argv: (_ for _ in ()).throw(
        ExceptionGroup("unhandled errors in a TaskGroup", [UsageError("no cluster"), ValueError("bug")])))
    assert cli.main(["run"]) == exitcodes.INTERNAL
    assert capsys.readouterr().err.startswith("error: internal error: ExceptionGroup: unhandled errors")


@pytest.mark.parametrize("taker", ["this thread", "another thread"])
def test_an_interrupt_while_a_record_is_written_leaves_the_whole_file_and_no_temporary_one(tmp_path, monkeypatch,
                                                                                          taker):
    # Found by kill_at_random (c-learning SIGTERM, seed 695425564): SIGTERM inside mkstemp, after the
    # file was made and before its name came back, left `.run-….json.….tmp` in the run folder.
    # The kernel gives a signal sent to the process to any thread that does not block it (an agent
    # thread, Ray's, execnet's under pytest-xdist), and Python acts on it in the main thread all the same:
    # "another thread" is that case, made certain by a thread that sends the signal to itself.
    import json
    import tempfile
    import threading

    from a320bench.bridge import interrupts
    from a320bench.server import trajectory

    made = tempfile.mkstemp

    def take_sigterm() -> None:
        signal.pthread_kill(threading.get_ident(), signal.SIGTERM)  # to itself: taken before this returns

    def mkstemp_then_sigterm(*args, **kwargs):
        made_file = made(*args, **kwargs)
        if taker == "this thread":
            os.kill(os.getpid(), signal.SIGTERM)  # lands here, before mkstemp returns, unless held
        else:
            other = threading.Thread(target=take_sigterm)
            other.start()
            other.join()
        return made_file

    monkeypatch.setattr(trajectory.tempfile, "mkstemp", mkstemp_then_sigterm)
    target = tmp_path / "run-x.json"
    with interrupts.sigterm_as_ctrl_c(), pytest.raises(KeyboardInterrupt):
        trajectory.write_json_atomic(target, {"episodes": [1, 2, 3]})
    assert json.loads(target.read_text()) == {"episodes": [1, 2, 3]}  # written whole, then interrupted
    assert sorted(p.name for p in tmp_path.iterdir()) == ["run-x.json"]


# Sends `sig` to this process as the episode's server takes its third tool call: the main thread is then
# running one task of the event loop's task groups, the session and the agent's thread around it.
SIGNAL_AS_AN_EPISODE_FLIES = HANGUP_AT_DEFAULT + """
import os, signal
from a320bench.server.surface.dispatch import EpisodeServer

calling, calls = EpisodeServer.call_tool, []

async def call_tool(self, *args, **kwargs):
    calls.append(1)
    if len(calls) == 3:
        os.kill(os.getpid(), signal.{sig})
    return await calling(self, *args, **kwargs)

EpisodeServer.call_tool = call_tool
"""


@pytest.mark.slow
@pytest.mark.parametrize("sig", ["SIGTERM", "SIGHUP"])
@pytest.mark.parametrize("command", ["validate", "score --verify"])
def test_sigterm_or_hangup_while_validate_or_verify_flies_is_one_line_and_exit_130(tmp_path, command, sig):
    # Found by hand: SIGTERM mid-flight printed `interrupted` after ~600 lines of asyncio's log of the
    # tasks it found failed at shutdown, each with its traceback (Ctrl-C was already one line).
    if command == "validate":
        args = ["validate", SCENARIO]
    else:
        flown = started("python -m", "", "run", "--scenario", SCENARIO, "--out", str(tmp_path), "--no-progress")
        assert flown.returncode == 0, flown.stderr
        args = ["score", "--verify", str(tmp_path)]
    p = started("python -m", SIGNAL_AS_AN_EPISODE_FLIES.replace("{sig}", sig), *args)
    assert (p.returncode, p.stderr, p.stdout) == (130, "interrupted\n", "")
