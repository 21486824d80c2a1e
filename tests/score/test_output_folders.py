"""Output files of score, report and export: the folders they go in are made, as `run --out` makes its
own; a file where one of those folders goes is named in one line, exit 2, nothing written."""

from __future__ import annotations

import csv

import pytest

from a320bench.bridge.cli import main
from score_builder import compliant


@pytest.fixture
def runs(tmp_path):
    compliant().write(tmp_path / "runs" / "a" / "t.jsonl")
    return tmp_path / "runs"


def _outputs(tmp_path, target):
    return {
        "score --csv": (["score", str(tmp_path / "runs"), "--csv", str(target / "scores.csv")], target / "scores.csv"),
        "report -o": (["report", str(tmp_path / "runs"), "-o", str(target / "r.html")], target / "r.html"),
        "export -o": (["export", "--inspect", str(tmp_path / "runs"), "-o", str(target / "logs")], target / "logs"),
    }


@pytest.mark.parametrize("command", ["score --csv", "report -o", "export -o"])
def test_missing_folders_above_an_output_are_made(runs, tmp_path, capsys, command):
    argv, written = _outputs(tmp_path, tmp_path / "new" / "deeper")[command]
    assert main(argv) == 0
    capsys.readouterr()
    assert written.exists()
    if command == "score --csv":
        assert [(row["scenario_id"], row["compliant_success"]) for row in csv.DictReader(written.open())] == \
            [("elec_test", "True")]


@pytest.mark.parametrize("command", ["score --csv", "report -o", "export -o"])
def test_a_file_where_a_folder_goes_is_named_in_one_line(runs, tmp_path, capsys, command):
    (tmp_path / "afile").write_text("not a folder")
    argv, written = _outputs(tmp_path, tmp_path / "afile" / "sub")[command]
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.rstrip().endswith(f"cannot write{' the logs' if 'export' in command else ''}: "
                                                          f"{tmp_path / 'afile'} is a file where a folder goes")
    assert (tmp_path / "afile").read_text() == "not a folder"
