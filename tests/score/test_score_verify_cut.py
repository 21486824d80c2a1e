"""score --verify on episodes whose arguments the record had to cut: more than 100 entries or items,
or nested past 8 levels. The server acts on what the record keeps, so the honest episode reproduces;
an edit that dresses a call up as cut still fails."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import anyio

from a320bench.bridge import exitcodes
from a320bench.bridge.cli import main
from a320bench.bridge.inprocess_episode import run_episode
from a320bench.server.surface.profiles import load_profile
from flight_bed import Sends, scenario

WIDE = {"seconds": 10, **{f"k{i}": i for i in range(150)}}  # a real argument, then 150 made-up ones
LATE = {**{f"k{i}": i for i in range(150)}, "seconds": 10}  # the real argument past the 100 the record keeps
LONG_LIST = {"control": "GEN 1", "position": list(range(150))}
DEEP: dict[str, Any] = {"seconds": 10}
_inner = DEEP
for _ in range(10):
    _inner["n"] = {}
    _inner = _inner["n"]


def fly(path: Path, *calls: tuple[str, dict[str, Any]]) -> list[dict[str, Any]]:
    agent = Sends(*calls, ("set_control", {"control": "GEN 1", "position": "OFF"}),
                  ("report_done", {"diagnosis": "GEN 1 fault", "actions_summary": "GEN 1 OFF"}))
    anyio.run(lambda: run_episode(scenario("elec/gen1_fault_reset_fails"), agent,
                                  profile=load_profile("benchmark"), path=path, episode_id="cut"))
    return [json.loads(line) for line in path.read_text().splitlines()]


def tool_calls(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [e for e in events if e["type"] == "tool_call"]


def test_an_honest_episode_with_arguments_cut_in_the_record_reproduces(tmp_path, capsys):
    events = fly(tmp_path / "t.jsonl", ("wait", WIDE), ("wait", LATE), ("set_control", LONG_LIST), ("wait", DEEP))
    wide, late, long_list, deep = tool_calls(events)[:4]
    assert wide["arguments"]["[cut]"] == "[cut: 151 entries in all]" and not wide["is_error"]
    # The server reads no more of the arguments than the record keeps: `seconds` past the first 100 is unseen.
    assert late["arguments"]["[cut]"] == "[cut: 151 entries in all]"
    assert late["is_error"] and late["result"]["error"] == "wait: invalid arguments. 'seconds' is required."
    assert long_list["arguments"]["position"][100] == "[cut: 150 items in all]" and long_list["is_error"]
    assert deep["arguments"]["n"]["n"]["n"]["n"]["n"]["n"]["n"] == {"n": "[cut: nested too deep]"}
    capsys.readouterr()
    assert main(["score", "--verify", str(tmp_path / "t.jsonl")]) == exitcodes.OK
    assert capsys.readouterr().err.startswith("verify: 1 of 1 episode(s) reproduce against the installed catalogue (")


def test_a_call_edited_to_look_cut_does_not_escape_verify(tmp_path, capsys):
    path = tmp_path / "t.jsonl"
    events = fly(path, ("set_control", {"control": "GEN 2", "position": "OFF"}))
    # Hide which generator was switched off behind a cut-looking record of the call.
    i = next(i for i, e in enumerate(events) if e["type"] == "tool_call" and e["arguments"].get("control") == "GEN 2")
    events[i]["arguments"] = {**{f"k{n}": n for n in range(100)}, "[cut]": "[cut: 102 entries in all]"}
    path.write_text("".join(json.dumps(e) + "\n" for e in events))
    capsys.readouterr()
    assert main(["score", "--verify", str(path)]) != exitcodes.OK
    err = capsys.readouterr().err
    assert "verify: FAILED" in err and "tool_call[0].is_error: recorded false, re-simulated true" in err


def test_a_cut_edited_to_claim_billions_is_refused_without_growing_it(tmp_path, capsys):
    # verify grows a cut value back to its recorded length: an edit claiming a length no message could carry
    # must fail verify as edited, not make verify allocate it (a MemoryError, or the machine swapping).
    path = tmp_path / "t.jsonl"
    events = fly(path, ("wait", WIDE), ("set_control", {"control": "GEN 1", "position": "x" * 10_050}),
                 ("set_control", LONG_LIST))
    calls = [i for i, e in enumerate(events) if e["type"] == "tool_call"]
    events[calls[0]]["arguments"]["[cut]"] = "[cut: 9,000,000,000 entries in all]"
    text = events[calls[1]]["arguments"]["position"]
    events[calls[1]]["arguments"]["position"] = text.replace("10,050 characters", "9,000,000,000,000 characters")
    events[calls[2]]["arguments"]["position"][100] = "[cut: 9,000,000,000 items in all]"
    path.write_text("".join(json.dumps(e) + "\n" for e in events))
    capsys.readouterr()
    assert main(["score", "--verify", str(path)]) == exitcodes.FAILED_CHECKS
    err = capsys.readouterr().err
    assert "verify: FAILED" in err and "Traceback" not in err
    # Each edited call is named; the replay ran to its end (growing a claimed 9e9 entries, it ran out of memory
    # after a minute here and ended harness_error)
    assert "re-simulated \"harness_error\"" not in err and "harness_error" not in err, err


def test_an_error_echoing_a_long_string_inside_a_list_shows_no_more_of_it_than_the_record_keeps(tmp_path, capsys):
    # Red team round 11: the echo of a list (reprlib) showed a long string's head and tail; the record keeps
    # its first 10,000 characters, so the replay echoed a tail of filler and the honest episode failed verify.
    events = fly(tmp_path / "t.jsonl", ("set_control", {"control": ["a" * 20_000 + "TAIL"], "position": "OFF"}))
    error = tool_calls(events)[0]["result"]["error"]
    assert error.startswith("set_control: invalid arguments. 'control': ['aaa")
    assert "a'… (cut: 20,004 characters in all)] is not valid. Valid: " in error and "TAIL" not in error
    capsys.readouterr()
    assert main(["score", "--verify", str(tmp_path / "t.jsonl")]) == exitcodes.OK
    assert capsys.readouterr().err.startswith("verify: 1 of 1 episode(s) reproduce against the installed catalogue (")
