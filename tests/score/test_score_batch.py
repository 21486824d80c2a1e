"""A large input is scored in two processes with the same output as one: the same cards, and the
same warnings and errors in file order (bridge/score/batch.py)."""

from __future__ import annotations

import json
import os
import time

import pytest

from a320bench.bridge.score import batch
from score_builder import compliant, score_cli


def _folder(tmp_path):
    runs = tmp_path / "runs"
    for i in range(7):
        compliant(run_index=i).write(runs / f"a{i}.jsonl")
    truncated = compliant(run_index=20).write(runs / "b_truncated.jsonl")
    truncated.write_text(truncated.read_text() + '{"type": "tool_')
    (runs / "c_not_utf8.jsonl").write_bytes(b'{"type": "meta"}\n\xff\xfe\n')
    compliant(run_index=3).write(runs / "d_again.jsonl")  # the same episode as a3: counted once
    (runs / "e_empty_lines.jsonl").write_text("\n\n")
    for i in range(7, 12):
        compliant(run_index=i).write(runs / f"f{i}.jsonl")
    return runs


@pytest.mark.parametrize("args", [("--json",), ()], ids=["json", "table"])
def test_two_processes_print_what_one_prints(tmp_path, capsys, monkeypatch, args):
    runs = _folder(tmp_path)
    monkeypatch.setattr(batch, "PARALLEL_FROM", 10**9)
    one = score_cli(capsys, runs, *args)
    monkeypatch.setattr(batch, "PARALLEL_FROM", 2)
    monkeypatch.setattr(batch, "_two_cores", lambda: True)
    two = score_cli(capsys, runs, *args)
    assert two == one
    code, out, err = two
    assert code == 2
    assert err.splitlines() == [
        f"warning: {runs / 'b_truncated.jsonl'}: last line 10 is truncated; scoring what is there",
        f"error: {runs / 'c_not_utf8.jsonl'}: not an a320-bench trajectory (not UTF-8 text); skipped",
        f"error: {runs / 'e_empty_lines.jsonl'}: not an a320-bench trajectory (the first line is not a `meta` "
        f"event); skipped",
        f"warning: {runs / 'd_again.jsonl'}: duplicate of episode ep-3 in {runs / 'a3.jsonl'}; counted once",
    ]
    if args:
        paths = [c["path"].rsplit("/", 1)[-1] for c in json.loads(out)["scorecards"]]
        assert paths == [*(f"a{i}.jsonl" for i in range(7)), "b_truncated.jsonl",
                         "f10.jsonl", "f11.jsonl", "f7.jsonl", "f8.jsonl", "f9.jsonl"]


_ORIGINAL_SCORE_ONE = batch.score_one
_ORIGINAL_TAKE_CHUNKS = batch._take_chunks


def _score_one_tagged(path, detail=False):
    outcome = _ORIGINAL_SCORE_ONE(path, detail)
    outcome.warnings.append(f"pid {os.getpid()}")
    return outcome


def test_both_processes_take_chunks_and_the_outcomes_keep_file_order(tmp_path, monkeypatch):
    runs = _folder(tmp_path)
    files = sorted(runs.glob("*.jsonl"))
    monkeypatch.setattr(batch, "PARALLEL_FROM", 2)
    monkeypatch.setattr(batch, "CHUNK", 1)
    monkeypatch.setattr(batch, "_two_cores", lambda: True)
    monkeypatch.setattr(batch, "score_one", _score_one_tagged)  # the forked helper inherits it
    outcomes = batch.score_all(files, parallel=True)
    assert [o.card.path if o.card else o.error.split(":")[0] for o in outcomes] == [str(f) for f in files]
    assert [o.warnings[:-1] for o in outcomes] == [_ORIGINAL_SCORE_ONE(f).warnings for f in files]


# The held-up helper (below): this process's pid and two flags: the helper has taken its first chunk;
# this process has taken every other chunk. Module level, so the helper process finds them by name.
_HELD: dict[str, object] = {}


def _take_chunks_then_release(paths, detail):
    if os.getpid() == _HELD["parent"]:
        _wait_for(_HELD["helper_took"])  # the helper holds one chunk before this process starts
        done = _ORIGINAL_TAKE_CHUNKS(paths, detail)
        _HELD["parent_done"].touch()  # every other chunk is taken: release the helper
        return done
    return _ORIGINAL_TAKE_CHUNKS(paths, detail)


def _score_one_held(path, detail=False):
    if os.getpid() != _HELD["parent"]:
        _HELD["helper_took"].touch()
        _wait_for(_HELD["parent_done"])
    return _score_one_tagged(path, detail)


def _wait_for(flag):
    while not flag.exists():
        time.sleep(0.01)


def test_a_helper_that_is_held_up_leaves_the_rest_to_this_process(tmp_path, monkeypatch):
    """The helper takes one chunk and is held there until this process has taken every other chunk (as
    a busy core would hold it): this process scores them all instead of waiting for a fixed half."""
    runs = _folder(tmp_path)
    files = sorted(runs.glob("*.jsonl"))
    monkeypatch.setitem(_HELD, "parent", os.getpid())
    monkeypatch.setitem(_HELD, "helper_took", tmp_path / "helper_took")
    monkeypatch.setitem(_HELD, "parent_done", tmp_path / "parent_done")
    monkeypatch.setattr(batch, "PARALLEL_FROM", 2)
    monkeypatch.setattr(batch, "CHUNK", 1)
    monkeypatch.setattr(batch, "_two_cores", lambda: True)
    monkeypatch.setattr(batch, "_take_chunks", _take_chunks_then_release)
    monkeypatch.setattr(batch, "score_one", _score_one_held)
    outcomes = batch.score_all(files, parallel=True)
    pids = [o.warnings[-1] for o in outcomes]
    assert len(pids) == len(files) == 16
    assert pids.count(f"pid {os.getpid()}") == 15  # the helper scored only the one file it held
    assert [o.card.path if o.card else o.error.split(":")[0] for o in outcomes] == [str(f) for f in files]
