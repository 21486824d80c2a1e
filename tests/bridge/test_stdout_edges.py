"""Standard output at its edges, for the commands whose result is printed there.

Closed before the command starts: refused, exit 2, before any work. The reader gone
(`| head`): the command ends quietly, exit 0 (rich alone would exit 1, the code of a
failed check). A write that fails (`> /dev/full`): one line, exit 74. Never a traceback.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SCENARIO = "scenarios/apu/apu_fire_cruise.yaml"
FULL = "error: cannot write to standard output: No space left on device; the output is incomplete\n"


def closed(command: str) -> str:
    return (f"error: a320-bench {command}: standard output is closed, so what it writes there would be lost "
            "(redirect it to a file or to /dev/null instead of closing it)\n")


def cli(args: list[str], stdout, **kw) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "a320bench", *args], cwd=ROOT, stdout=stdout,
                          stderr=subprocess.PIPE, stdin=subprocess.DEVNULL, text=True, timeout=120, **kw)


@pytest.fixture(scope="module")
def results(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("results")
    done = cli(["run", "--scenario", SCENARIO, "--out", str(out), "--no-progress"], subprocess.DEVNULL)
    assert done.returncode == 0, done.stderr
    return out


def _close_stdout() -> None:
    os.close(1)


@pytest.mark.parametrize("args, command", [
    (["score", "{results}"], "score"),
    (["score", "{results}", "--json"], "score"),
    (["validate", SCENARIO], "validate"),
    (["mcp-config", "--client", "claude-code"], "mcp-config"),
    (["serve", "--scenario", SCENARIO], "serve"),
], ids=["score", "score-json", "validate", "mcp-config", "serve-stdio"])
def test_a_closed_stdout_is_refused_before_any_work(results, args, command):
    args = [a.format(results=results) for a in args]
    done = cli(args, None, preexec_fn=_close_stdout)
    assert (done.returncode, done.stderr) == (2, closed(command))


def test_a_closed_stdout_does_not_stop_a_run_whose_result_is_its_folder(tmp_path):
    done = cli(["run", "--scenario", SCENARIO, "--out", str(tmp_path), "--no-progress"], None,
               preexec_fn=_close_stdout)
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "apu_fire_cruise").is_dir()


@pytest.mark.parametrize("args", [["score", "{results}"], ["score", "{results}", "--json"], ["validate", SCENARIO]],
                         ids=["score", "score-json", "validate"])
def test_a_reader_that_left_ends_the_command_quietly_with_exit_0(results, args):
    args = [a.format(results=results) for a in args]
    read, write = os.pipe()
    os.close(read)  # the reader is gone before the first line: every write meets EPIPE
    try:
        done = cli(args, write)
    finally:
        os.close(write)
    assert (done.returncode, done.stderr) == (0, "")


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full (Linux)")
@pytest.mark.parametrize("args", [["score", "{results}"], ["score", "{results}", "--json"], ["validate", SCENARIO]],
                         ids=["score", "score-json", "validate"])
def test_a_full_stdout_is_one_line_and_exit_74(results, args):
    args = [a.format(results=results) for a in args]
    with open("/dev/full", "w") as full:
        done = cli(args, full)
    assert (done.returncode, done.stderr) == (74, FULL)
