"""Command-line inputs: env files, --task-id, path expansion; each bad input is one clear line."""

from __future__ import annotations

import pytest

from a320bench.bridge import exitcodes
from a320bench.bridge.cli import main
from a320bench.bridge.envfile import EnvFileError, parse_env_file, redact
from a320bench.bridge.selection import parse_task_ids
from a320bench.paths import PathSpecError, expand_paths


def test_env_file_understands_export_comments_and_quotes(tmp_path):
    f = tmp_path / "x.env"
    f.write_text('# a comment\n\nexport A=1\nB = "two words" # trailing\nC=\'single\'\nD=plain # note\nE=\n')
    assert parse_env_file(f) == {"A": "1", "B": "two words", "C": "single", "D": "plain", "E": ""}


def test_env_file_errors_name_the_line(tmp_path):
    f = tmp_path / "x.env"
    f.write_text("A=1\nthis is not an assignment\n")
    with pytest.raises(EnvFileError, match=r"line 2 is not KEY=value"):
        parse_env_file(f)


def test_redact_replaces_every_secret():
    assert redact("--key sk-abcdef123 and sk-abcdef123", ["sk-abcdef123"]) == "--key [REDACTED] and [REDACTED]"


def test_task_ids_take_indices_and_ranges():
    assert parse_task_ids("0,3,5-7", 10) == [0, 3, 5, 6, 7]
    with pytest.raises(ValueError, match="out of range"):
        parse_task_ids("12", 10)
    with pytest.raises(ValueError, match="not an index"):
        parse_task_ids("a-b", 10)


def test_expand_paths_takes_files_folders_and_globs(tmp_path):
    (tmp_path / "a").mkdir()
    (tmp_path / "a" / "x.yaml").write_text("")
    (tmp_path / "a" / "y.txt").write_text("")
    (tmp_path / "z.yaml").write_text("")
    got = expand_paths([tmp_path / "a", str(tmp_path / "*.yaml"), tmp_path / "z.yaml"], (".yaml",))
    assert [p.name for p in got] == ["x.yaml", "z.yaml"]
    with pytest.raises(PathSpecError, match="no such file or folder"):
        expand_paths([tmp_path / "missing"], (".yaml",))


@pytest.mark.parametrize("argv, message", [
    (["run", "--runs", "0"], "--runs must be at least 1"),
    (["run", "--scenario", "nowhere/"], "nowhere/: no such file or folder"),
    (["run", "--sampling", "{bad"], "--sampling is not valid JSON"),
    (["run", "--sampling", "[1]"], "--sampling must be a JSON object"),
    (["run", "--task-id", "999"], "out of range"),
    (["run", "--env-file", "/no/such/file"], "cannot read"),
    (["run", "--provider", "bogus"], "invalid choice"),
    (["run", "--provider", "replay"], "--provider replay needs --replay-from"),
])
def test_bad_run_flags_give_one_line_and_exit_2(argv, message, capsys):
    assert main([*argv, "--no-progress"]) == exitcodes.USAGE
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and message in err[0], err
