"""A large input is scored in two processes with the same output as one: the same cards, and the
same warnings and errors in file order (bridge/score/batch.py)."""

from __future__ import annotations

import json
import os

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


def _score_one_tagged(path, detail=False):
    outcome = _ORIGINAL_SCORE_ONE(path, detail)
    outcome.warnings.append(f"pid {os.getpid()}")
    return outcome


def test_the_second_half_is_scored_in_another_process(tmp_path, monkeypatch):
    runs = _folder(tmp_path)
    files = sorted(runs.glob("*.jsonl"))
    monkeypatch.setattr(batch, "PARALLEL_FROM", 2)
    monkeypatch.setattr(batch, "_two_cores", lambda: True)
    monkeypatch.setattr(batch, "score_one", _score_one_tagged)  # the forked helper inherits it
    outcomes = batch.score_all(files, parallel=True)
    pids = [o.warnings[-1] for o in outcomes]
    half = len(files) // 2
    assert set(pids[:half]) == {f"pid {os.getpid()}"}
    assert len(set(pids[half:])) == 1 and pids[half] != f"pid {os.getpid()}"
    assert [o.card.path if o.card else o.error.split(":")[0] for o in outcomes] == [str(f) for f in files]
