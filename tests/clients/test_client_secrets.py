"""A secret handed to a client (an --env-file value) never reaches a file under --out, the run record or
the console, however the client echoes it: in a tool's arguments (also into an error the server
answers), on stdout (its transcript), on stderr (its tail, and the console's error line)."""

from __future__ import annotations

import json
import sys

import pytest

from a320bench.bridge import exitcodes
from tests.clients.client_bed import AGENT, events, python_cmd, run, tool_calls, trajectory

SECRET = "sk-test-9f8e7d6c5b4a3210"
ECHOING = [["set_control", {"control": "{echo}", "position": "OFF"}],  # an error that names the bad control
           ["report_done", {"diagnosis": "my key is {echo}", "actions_summary": "told everyone: {echo}"}]]

pytestmark = pytest.mark.usefixtures("sandboxed")


@pytest.mark.slow
def test_a_secret_the_client_echoes_everywhere_is_scrubbed_from_every_file_and_the_console(tmp_path, monkeypatch,
                                                                                          capsys):
    env_file = tmp_path / "creds.env"
    env_file.write_text(f"MODEL_SERVICE_KEY={SECRET}\n")
    monkeypatch.setenv("AGENT_ECHO_ENV", "MODEL_SERVICE_KEY")
    monkeypatch.setenv("AGENT_EXIT", "3")  # and fails, so that the console prints the end of its stderr
    monkeypatch.setenv("MODEL_SERVICE_KEY", "unset")  # --env-file overwrites it; monkeypatch then removes it
    out = tmp_path / "out"
    template = python_cmd(str(AGENT), "play", "{config}", "{server}", json.dumps(ECHOING))
    rc = run(out, "--client", "cmd", "--client-cmd", template, "--env-file", str(env_file))
    assert rc == exitcodes.OK  # it failed after report_done: the episode's end stands, the exit is on record
    console = capsys.readouterr()

    evs = events(trajectory(out, "cmd"))
    # The client did echo it: each place it went now holds the mark instead.
    assert tool_calls(evs) == [("set_control", {"control": "[REDACTED]", "position": "OFF"}),
                               ("report_done", {"diagnosis": "my key is [REDACTED]",
                                                "actions_summary": "told everyone: [REDACTED]"})]
    assert "[REDACTED]" in evs[2]["result"]["error"]
    report, final = evs[-2], evs[-1]
    assert report["stderr_tail"].strip() == "echo [REDACTED]"
    assert report["error"] == f"{sys.executable} exited with code 3; its stderr ends: echo [REDACTED]"
    assert final["reason"] == "agent_done" and final["report_done"]["diagnosis"] == "my key is [REDACTED]"
    assert "its stderr ends: echo [REDACTED]" in console.err
    transcript = trajectory(out, "cmd").with_name("cmd__run000.cmd.log")
    assert "echo [REDACTED]" in transcript.read_text()

    files = [p for p in out.rglob("*") if p.is_file()]
    assert {p.suffix for p in files} == {".jsonl", ".log", ".json"}  # trajectory, transcript, run record
    for p in files:
        assert SECRET not in p.read_text(), p
    assert SECRET not in console.out + console.err


def test_a_secret_split_across_two_reads_of_the_clients_output_is_still_scrubbed(tmp_path):
    from a320bench.bridge.clients.process import _Lines
    from a320bench.secrets import Scrubber

    with open(tmp_path / "log", "wb") as fh:
        lines = _Lines(fh, Scrubber([SECRET]).text)
        key = SECRET.encode()
        for chunk in (b"key: " + key[:7], key[7:] + b"\nnext ", b"line, no newline " + key):
            lines.write(chunk)
        lines.close()
    assert (tmp_path / "log").read_text() == "key: [REDACTED]\nnext line, no newline [REDACTED]"
