"""Reading trajectories fast reads the same thing: orjson where it can, the standard library's values
and errors where it cannot; the ground truth parsed once per content; files found once however named."""

from __future__ import annotations

import json
import os
from pathlib import Path

from hypothesis import given, settings, strategies as st

from a320bench.bridge.score.groundtruth import GroundTruth
from a320bench.bridge.score.inputs import find_trajectory_files
from a320bench.paths import expand_paths
from a320bench.server.trajectory import _lines, read_events

EVENTS = [{"type": "meta", "n": 1, "text": "§ naïve ✈", "x": 0.1, "big": 2**63 - 1},
          {"type": "tool_call", "nested": {"a": [1, 2.5, None, True]}, "neg": -0.0}]


def _read(path: Path) -> list[dict]:
    return list(read_events(path))


def test_a_well_formed_file_reads_as_the_standard_library_reads_it_whatever_its_line_endings(tmp_path):
    for ending in ("\n", "\r\n", "\r"):
        f = tmp_path / "t.jsonl"
        f.write_bytes(ending.join(json.dumps(e, ensure_ascii=False) for e in EVENTS).encode() + b"\n\n  \n")
        got = _read(f)
        assert got == EVENTS
        assert [type(v) for e in got for v in e.values()] == [type(v) for e in EVENTS for v in e.values()]


# No deadline: on a loaded machine (the suite on both cores, other jobs beside it) one example can wait
# longer than Hypothesis' 200 ms for a CPU, which it reports as a flaky test. No database: no files left.
@settings(deadline=None, database=None)
@given(st.lists(st.sampled_from([b"\n", b"\r", b"\r\n", b"", b" ", b"{}", b"ab"]), max_size=12).map(b"".join))
def test_lines_break_where_universal_newlines_break(data):
    assert list(_lines(data)) == data.splitlines()


def test_values_only_the_standard_library_accepts_are_read_by_it(tmp_path):
    f = tmp_path / "t.jsonl"
    f.write_text('{"type": "meta", "v": NaN, "w": Infinity, "huge": 1e400}\n{"type": "x", "s": "\\ud800"}\n')
    got = _read(f)
    assert got[0]["type"] == "meta" and got[0]["v"] != got[0]["v"] and got[0]["w"] == float("inf")
    assert got[0]["huge"] == float("inf") and got[1] == {"type": "x", "s": "\ud800"}


def test_a_truncated_last_line_is_still_reported_and_skipped(tmp_path):
    f = tmp_path / "t.jsonl"
    f.write_text(json.dumps(EVENTS[0]) + "\n" + '{"type": "tool_')
    warned: list[str] = []
    assert list(read_events(f, warn=warned.append)) == [EVENTS[0]]
    assert warned == [f"{f}: last line 2 is truncated; scoring what is there"]


GT = {"procedure": [{"name": "b", "ordered": True, "steps": [{"control": "GEN 1", "position": "OFF"}]}],
      "forbidden_actions": [{"control": "GEN 2", "position": "OFF", "severity": "dangerous", "why": "last one"}],
      "diagnosis_keywords": [["GEN 1"]]}


def test_the_same_ground_truth_is_parsed_once_and_a_different_one_apart():
    first = GroundTruth.from_dict(json.loads(json.dumps(GT)))
    assert GroundTruth.from_dict(json.loads(json.dumps(GT))) is first
    other = json.loads(json.dumps(GT))
    other["procedure"][0]["steps"][0]["position"] = "ON"
    assert GroundTruth.from_dict(other).procedure[0].steps[0].position == "ON"
    assert first.procedure[0].steps[0].position == "OFF"


def test_a_nan_and_a_null_in_a_ground_truth_are_not_taken_for_each_other():
    with_null = {"diagnosis_keywords": [[None]]}
    with_nan = {"diagnosis_keywords": [[float("nan")]]}
    assert GroundTruth.from_dict(with_null).diagnosis_keywords == (("None",),)
    assert GroundTruth.from_dict(with_nan).diagnosis_keywords == (("nan",),)


def test_folders_list_files_in_path_order_each_once_and_name_links_to_nothing(tmp_path):
    runs = tmp_path / "runs"
    for name in ("b-c/x.jsonl", "b/c/y.jsonl", "a.jsonl", "b/z.txt", ".hidden/h.jsonl"):
        (runs / name).parent.mkdir(parents=True, exist_ok=True)
        (runs / name).write_text("{}\n")
    (runs / "b" / "link.jsonl").symlink_to(runs / "a.jsonl")  # the same file again
    (runs / "b" / "lost.jsonl").symlink_to(runs / "nowhere.jsonl")
    (runs / "linked").symlink_to(runs / "b-c")  # a linked folder is not entered
    unreadable: list[Path] = []
    got = expand_paths([runs], (".jsonl",), unreadable=unreadable)
    assert got == [runs / ".hidden/h.jsonl", runs / "a.jsonl", runs / "b/c/y.jsonl", runs / "b-c/x.jsonl"]
    assert unreadable == [runs / "b/lost.jsonl"]
    files, problems = find_trajectory_files([runs, runs / "a.jsonl", runs / "linked" / "x.jsonl"])
    assert files == got
    assert problems == [f"{runs / 'b/lost.jsonl'}: cannot read: a symbolic link that leads nowhere"]


def test_a_fifo_or_a_device_among_the_trajectories_is_named_never_read(tmp_path):
    """A FIFO would block the reader until a writer came, /dev/zero would never end: each is named and
    skipped without being opened, and the folder's real files are scored."""
    runs = tmp_path / "runs"
    runs.mkdir()
    (runs / "a.jsonl").write_text("{}\n")
    os.mkfifo(runs / "fifo.jsonl")
    (runs / "zero.jsonl").symlink_to("/dev/zero")
    files, problems = find_trajectory_files([runs])
    assert files == [runs / "a.jsonl"]
    assert problems == [f"{runs / 'fifo.jsonl'}: cannot read: a FIFO, not a regular file",
                        f"{runs / 'zero.jsonl'}: cannot read: a device, not a regular file"]
