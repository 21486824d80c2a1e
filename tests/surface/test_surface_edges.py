"""The surface at its edges: oversized arguments, malformed calls, a disk that refuses the trajectory."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from surface_bed import ROOT, connect, elec_scenario, error_text, finals, new_episode, tool_calls
from tests.disk_bed import small_disk

pytestmark = pytest.mark.anyio
BIG = "x" * 1_000_000


async def test_a_huge_bad_argument_is_echoed_and_recorded_cut_saying_so():
    ep = new_episode()
    async with connect(ep) as c:
        r = await c.call_tool("set_control", {"control": BIG, "position": "OFF"})
    message = error_text(r)
    assert len(message) < 2000  # the echo, then the valid choices
    assert message.startswith("set_control: invalid arguments. 'control': 'xxxx")
    assert "… (cut: 1,000,000 characters in all) is not valid." in message
    (call,) = tool_calls(ep)
    assert call["result"]["error"] == message
    recorded = call["arguments"]["control"]
    assert len(recorded) < 10_100 and recorded.endswith("… [cut: 1,000,000 characters in all]")
    assert len(json.dumps(ep.recorder.events)) < 200_000


async def test_a_huge_unknown_tool_name_and_many_arguments_are_cut_too():
    ep = new_episode()
    async with connect(ep) as c:
        r = await c.call_tool(BIG, {f"k{i}": i for i in range(5000)})
    assert len(error_text(r)) < 1000 and "(cut: 1,000,000 characters in all)" in error_text(r)
    (call,) = tool_calls(ep)
    assert len(call["arguments"]) == 101 and call["arguments"]["[cut]"] == "[cut: 5,000 entries in all]"
    assert call["name"].endswith("… [cut: 1,000,000 characters in all]")


async def test_a_long_valid_report_is_kept_up_to_the_cap_and_still_ends_the_episode():
    ep = new_episode()
    async with connect(ep) as c:
        r = await c.call_tool("report_done", {"diagnosis": "GEN 1 " + BIG, "actions_summary": "none"})
    assert not r.is_error
    (call,) = tool_calls(ep)
    assert call["arguments"]["diagnosis"].startswith("GEN 1 xxx")
    assert call["arguments"]["diagnosis"].endswith("… [cut: 1,000,006 characters in all]")
    assert [f["reason"] for f in finals(ep)] == ["agent_done"]


async def test_a_malformed_call_counts_is_recorded_and_changes_nothing():
    from a320bench.server.surface import create_server

    ep = new_episode(elec_scenario(max_tool_calls=2))
    server = create_server(ep, "benchmark")
    before = ep.ac.state_hash()
    first = await server.record_malformed_call("set_control", '{"control": "GEN 1"')
    second = await server.record_malformed_call("wait", "[10]")
    third = await server.record_malformed_call("wait", "{}")
    assert first.startswith("set_control: the arguments are not a JSON object (got '{\"control\": \"GEN 1\"').")
    assert second.startswith("wait: the arguments are not a JSON object")
    assert third == "The episode is over: the tool-call budget (2 calls) is spent. No further actions are possible."
    assert [(c["name"], c["arguments"], c["is_error"]) for c in tool_calls(ep)] == [
        ("set_control", '{"control": "GEN 1"', True), ("wait", "[10]", True), ("wait", "{}", True)]
    assert ep.ac.state_hash() == before
    assert [f["reason"] for f in finals(ep)] == ["budget_tool_calls"]


@pytest.mark.parametrize("mode", ["auto", "legacy"])
async def test_a_malformed_call_sent_over_mcp_in_the_request_meta_is_counted_and_recorded_in_order(mode):
    # How an in-process bridge (AgentTools.malformed) sends it: a message, so the agent's side holds no
    # reference to the server. Whatever arguments ride along, nothing runs.
    from a320bench.server.surface.messages import MALFORMED_ARGUMENTS_META

    ep = new_episode(elec_scenario(max_tool_calls=2))
    before = ep.ac.state_hash()
    async with connect(ep, mode=mode) as c:
        r = await c.call_tool("set_control", {"control": "GEN 1", "position": "OFF"},
                              meta={MALFORMED_ARGUMENTS_META: '{"control": "GEN 1"'})
        ok = await c.call_tool("read_ecam", {})
        over = await c.call_tool("wait", {}, meta={MALFORMED_ARGUMENTS_META: "[10]"})
    assert r.is_error and error_text(r).startswith(
        "set_control: the arguments are not a JSON object (got '{\"control\": \"GEN 1\"').")
    assert not ok.is_error
    assert error_text(over) == ("The episode is over: the tool-call budget (2 calls) is spent. "
                                "No further actions are possible.")
    assert [(c["name"], c["arguments"], c["is_error"]) for c in tool_calls(ep)] == [
        ("set_control", '{"control": "GEN 1"', True), ("read_ecam", {}, False), ("wait", "[10]", True)]
    assert ep.ac.state_hash() == before
    assert [f["reason"] for f in finals(ep)] == ["budget_tool_calls"]


async def test_a_full_disk_ends_the_episode_storage_error_and_the_verdict_says_why(tmp_path):
    from a320bench.server.session import open_episode
    from a320bench.server.surface import load_profile
    from a320bench.server.trajectory import Recorder

    with small_disk(tmp_path / "disk") as disk:
        p = load_profile("benchmark")
        verdicts: list[dict] = []
        ep = open_episode(elec_scenario(max_tool_calls=500), Recorder(disk / "t.jsonl"), profile=p.name,
                          tools=list(p.tools), instructions=p.instructions, on_verdict=verdicts.append)
        async with connect(ep) as c:
            answers = []
            for _ in range(400):  # the file outgrows 64 kB well before
                answers.append(await c.call_tool("list_controls", {}))
                if ep.ended:
                    break
            done = await c.call_tool("report_done", {"diagnosis": "d", "actions_summary": "a"})
        assert ep.ended == "storage_error"
        assert not any(a.is_error for a in answers)  # the calls that happened were answered
        assert error_text(done) == "The episode is over: it was ended by the harness. No further actions are possible."
        final = verdicts[-1]
        assert final["reason"] == "storage_error"
        assert final["error"] == f"cannot write the trajectory {disk / 't.jsonl'}: No space left on device"
        # What reached the disk has no final: a resume reruns the episode.
        from a320bench.server.trajectory import is_complete

        assert not is_complete(disk / "t.jsonl")


@pytest.mark.slow
@pytest.mark.parametrize("where", ["symlink", "under_a_file"])
def test_serve_refuses_a_trajectory_path_it_must_not_write_in_one_line(tmp_path, where):
    if where == "symlink":
        target = tmp_path / "precious.txt"
        target.write_text("keep\n")
        path = tmp_path / "t.jsonl"
        path.symlink_to(target)
        why = f"cannot write the trajectory: {path} is a symbolic link; a320-bench never writes through one"
    else:
        (tmp_path / "file").write_text("")
        path = tmp_path / "file" / "t.jsonl"
        why = f"cannot write the trajectory {path}: Not a directory"
    p = subprocess.run([sys.executable, "-m", "a320bench", "serve", "--scenario",
                        str(ROOT / "scenarios/elec/gen1_fault_reset_fails.yaml"), "--trajectory", str(path)],
                       input=b"", capture_output=True, timeout=60, cwd=tmp_path)
    assert (p.returncode, p.stdout) == (2, b"")
    assert p.stderr.decode().splitlines() == [f"error: {why}"]
    if where == "symlink":
        assert (tmp_path / "precious.txt").read_text() == "keep\n"


@pytest.mark.slow
def test_serve_ends_the_episode_when_the_disk_fills_and_exits_74_with_one_line(tmp_path):
    from surface_bed import ELEC, RawServe, read_json

    with small_disk(tmp_path / "disk") as disk:
        result = tmp_path / "verdict.json"
        srv = RawServe(ELEC, "--trajectory", str(disk / "t.jsonl"), "--result", str(result), cwd=tmp_path)
        srv.initialize()
        answers = [srv.call("list_controls", {}) for _ in range(60)]  # 64 kB hold far fewer
        errors = [a["result"]["content"][0]["text"] for a in answers if a["result"].get("isError")]
        assert errors and set(errors) == {
            "The episode is over: it was ended by the harness. No further actions are possible."}
        assert srv.close_stdin_and_wait(timeout=60) == 74
        assert srv.stderr().splitlines() == [
            f"error: cannot write the trajectory {disk / 't.jsonl'}: No space left on device; "
            "the episode ended storage_error"]
        verdict = read_json(result)
        assert verdict["reason"] == "storage_error" and "No space left on device" in verdict["error"]


@pytest.mark.slow
def test_serve_says_when_the_verdict_file_falls_behind_and_exits_74(tmp_path):
    # The trajectory has room, the verdict's disk fills mid-episode: the episode goes on (the trajectory is
    # its record), but the --result file holds an earlier verdict, and a client reading it must be told.
    import os

    from surface_bed import ELEC, RawServe, eventually, read_events, read_json

    with small_disk(tmp_path / "disk") as disk:
        result, traj = disk / "verdict.json", tmp_path / "t.jsonl"
        srv = RawServe(ELEC, "--trajectory", str(traj), "--result", str(result), cwd=tmp_path)
        srv.initialize()
        srv.call("set_control", {"control": "GEN 1", "position": "OFF"})
        assert eventually(lambda: read_json(result)["tool_calls_used"] == 1)
        fd = os.open(disk / "filler", os.O_WRONLY | os.O_CREAT)
        try:
            while True:
                os.write(fd, b"x" * 4096)
        except OSError:
            pass
        finally:
            os.close(fd)
        srv.call("set_control", {"control": "GEN 1", "position": "ON"})
        srv.call("report_done", {"diagnosis": "GEN 1", "actions_summary": "GEN 1 OFF, ON"})
        assert srv.close_stdin_and_wait(timeout=60) == 74
        assert srv.stderr().splitlines() == [
            f"error: cannot write the verdict {result}: No space left on device; it holds an earlier verdict "
            f"than the episode's end"]
        assert (read_json(result)["reason"], read_json(result)["tool_calls_used"]) == (None, 1)
    assert [(e["type"], e.get("reason")) for e in read_events(traj)][-1] == ("final", "agent_done")

