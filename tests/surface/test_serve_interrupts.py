"""`a320-bench serve` stopped by SIGTERM or Ctrl-C before it serves: the episode's files end
`interrupted` (never a result), whole, and the command says `interrupted` and exits 130.

Real subprocesses; a hook in the child sends the signal to itself at the instant named. Once
serving, SIGTERM is how a client ends the episode: tests/surface/test_surface_stdio.py.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from a320bench.bridge.score.scorecard import score_file

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[2]
SCENARIO = "scenarios/elec/gen1_fault_reset_fails.yaml"

# Replaces `module.name` with a function that sends SIG to this process before or after the real one.
HOOK = """
import importlib, inspect, os, signal, sys
from a320bench.bridge import cli  # loaded first, as the command does
module = importlib.import_module({module!r})
real = getattr(module, {name!r})
def kill():
    os.kill(os.getpid(), signal.{sig})
if inspect.iscoroutinefunction(real):
    async def hooked(*a, **k):
        {before}
        r = await real(*a, **k)
        {after}
        return r
else:
    def hooked(*a, **k):
        {before}
        r = real(*a, **k)
        {after}
        return r
setattr(module, {name!r}, hooked)
from a320bench.__main__ import main
sys.exit(main())
"""

POINTS = {
    # Inside the setup: the verdict says "setting up", the trajectory is open, meta not yet written.
    "setup-starts": ("a320bench.server.session", "open_episode", "kill()", "pass"),
    # Meta and setup written, the gate passed, nothing served.
    "setup-done": ("a320bench.server.session", "open_episode", "pass", "kill()"),
    # The episode is open, before the loop that listens for the signal starts.
    "before-serving": ("a320bench.server.surface.factory", "create_server", "kill()", "pass"),
    # Inside the event loop, before the signal receiver is there.
    "loop-starts": ("a320bench.server.surface.serve", "_serve", "kill()", "pass"),
}


def _serve(tmp_path: Path, point: str, sig: str) -> subprocess.CompletedProcess:
    module, name, before, after = POINTS[point]
    code = HOOK.format(module=module, name=name, sig=sig, before=before, after=after)
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"} | {"PYTHONPATH": str(ROOT.parent)}
    return subprocess.run([sys.executable, "-c", code, "serve", "--scenario", SCENARIO,
                           "--result", str(tmp_path / "v.json"), "--trajectory", str(tmp_path / "t.jsonl")],
                          cwd=ROOT, capture_output=True, text=True, env=env, timeout=120,
                          stdin=subprocess.PIPE,  # held open: only the signal ends the episode
                          # A job started in the background inherits SIGINT ignored, and Python then installs no
                          # Ctrl-C handler: the child gets the default a terminal's process has.
                          preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))


@pytest.mark.parametrize("sig", ["SIGTERM", "SIGINT"])
@pytest.mark.parametrize("point", sorted(POINTS))
def test_serve_interrupted_before_it_serves_ends_the_episode_interrupted_and_exits_130(tmp_path, point, sig):
    p = _serve(tmp_path, point, sig)
    assert (p.returncode, p.stderr, p.stdout) == (130, "interrupted\n", "")

    verdict = json.loads((tmp_path / "v.json").read_text())
    assert verdict["reason"] == "interrupted" and verdict["scenario_id"] == "elec_gen1_fault_reset_fails"
    assert verdict["error"] == "interrupted before the client was served"
    lines = (tmp_path / "t.jsonl").read_text().splitlines()
    final = json.loads(lines[-1])  # every line whole, the last one the final
    assert (final["type"], final["reason"]) == ("final", "interrupted")
    assert sorted(f.name for f in tmp_path.iterdir()) == ["t.jsonl", "v.json"]  # no temporary file left
    if point != "setup-starts":
        assert score_file(tmp_path / "t.jsonl").status == "interrupted"  # excluded, never the agent's result
