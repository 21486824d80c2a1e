"""tools/readme_check.py: the README's runnable examples print what it shows, and --update keeps it so."""

from __future__ import annotations

from pathlib import Path

import pytest

from tools.readme_check import ROOT, align, main, normalise, runnable_blocks, updated

PATHS = {"/tmp/x/work": "/path/to/a320-bench", "/tmp/x/home": "/home/you"}


def test_only_the_blocks_after_the_marker_are_runnable_each_command_with_its_output():
    lines = ["```", "$ not me", "```", "<!-- readme-check -->", "```", "$ a", "one", "two", "$ b", "```", "text"]
    (block,) = runnable_blocks(lines)
    assert (block.line, block.start, block.end) == (5, 5, 9)
    assert [(c.text, c.expected) for c in block.commands] == [("a", ["one", "two"]), ("b", [])]
    with pytest.raises(ValueError, match="line 2: a runnable block must start with a `\\$ ` command"):
        runnable_blocks(["<!-- readme-check -->", "```", "output first", "```"])
    with pytest.raises(ValueError, match="line 2: a runnable block is never closed"):
        runnable_blocks(["<!-- readme-check -->", "```", "$ a"])


def test_paths_times_durations_and_hashes_are_normalised():
    assert normalise("/tmp/x/work/runs/run-20261201T165104816392Z.json written in 1.4 s  ", PATHS) == \
        "/path/to/a320-bench/runs/run-<timestamp>.json written in <duration>"
    assert normalise("ts 2026-12-01T17:55:49.846+00:00 on 2026-12-01, 709 ms, sha 3f5a0c1d9e2b7a44", PATHS) == \
        "ts <time> on <date>, <duration>, sha <hash>"
    assert normalise("/tmp/x/home/.local/state: 103 scenario(s), 15 problem(s), 2 scenarios", PATHS) == \
        "/home/you/.local/state: 103 scenario(s), 15 problem(s), 2 scenarios"


def test_an_ellipsis_line_stands_for_any_lines_and_an_inline_one_for_any_text():
    assert align(["a", "…", "d"], ["a", "b", "c", "d"]) == [0, None, 3]
    assert align(["a", "…", "d"], ["a", "d"]) == [0, None, 1]
    assert align(["x…z"], ["x and z"]) == [0]
    assert align(["┃ h ┃", "│ …   │     │   │", "end"], ["┃ h ┃", "│ r1 │ 1 │", "│ r2 │ 2 │", "end"]) == [0, None, 3]
    assert align(["a", "…"], ["b"]) is None
    assert align(["a"], ["a", "extra"]) is None


def test_update_writes_the_lines_now_printed_around_each_ellipsis_or_all_of_them_when_the_shape_changed():
    assert updated(["t 1", "…", "end 5"], ["t 2", "x", "end 6"], ["t <n>", "…", "end <n>"],
                   ["t <n>", "x", "end <n>"]) == (["t 2", "…", "end 6"], True)
    assert updated(["old"], ["new", "lines"], ["old"], ["new", "lines"]) == (["new", "lines"], True)
    assert updated(["a", "…", "y", "z"], ["q", "r"], ["a", "…", "y", "z"], ["q", "r"]) == (["q", "r"], False)
    # Runs between two ellipses go where their first line finds its closest match.
    assert updated(["h", "…", "row 7", "…", "t"], ["H", "x", "row 8", "y", "T"],
                   ["h", "…", "row 7", "…", "t"], ["H", "x", "row 8", "y", "T"]) == (["H", "…", "row 8", "…", "T"], True)


def readme(tmp_path: Path, body: str) -> Path:
    path = tmp_path / "README.md"
    path.write_text(f"# t\n\n<!-- readme-check -->\n```\n{body}```\n", encoding="utf-8")
    return path


def test_a_readme_that_holds_passes_and_one_that_drifted_fails_with_a_diff(tmp_path, capsys):
    good = readme(tmp_path, "$ echo hello; echo took 3.2 s >&2\nhello\ntook 1 s\n$ seq 3\n1\n…\n")
    assert main([str(good)]) == 0
    assert capsys.readouterr().out == "readme-check: the 2 runnable command(s) of README.md print what it shows\n"
    bad = readme(tmp_path, "$ echo hello\nhallo\n")
    assert main([str(bad)]) == 1
    assert capsys.readouterr().out.splitlines() == [
        "README.md:4: `echo hello` prints something else:",
        "--- README (normalised)",
        "+++ now (normalised)",
        "@@ -1 +1 @@",
        "-hallo",
        "+hello",
        "readme-check: 1 of 1 command(s) print something else (python -m tools.readme_check --update rewrites them)",
    ]


def test_update_rewrites_the_outputs_in_place_keeping_the_ellipses(tmp_path, capsys):
    path = readme(tmp_path, "$ seq 4\n0\n…\n3\n$ echo same\nsame\n$ pwd; echo $HOME\nold\n"
                            "$ echo /usr/bin/claude mcp add; echo 7\n…claude mcp add\n8\n")
    assert main([str(path), "--update"]) == 0
    assert path.read_text(encoding="utf-8") == (
        "# t\n\n<!-- readme-check -->\n```\n$ seq 4\n1\n…\n4\n$ echo same\nsame\n"
        "$ pwd; echo $HOME\n/path/to/a320-bench\n/home/you\n"
        "$ echo /usr/bin/claude mcp add; echo 7\n…claude mcp add\n7\n```\n")  # a matching `…` line stays
    assert capsys.readouterr().out == "readme-check: 3 output(s) rewritten in " + str(path) + "\n"
    assert main([str(path)]) == 0


def test_commands_run_in_a_scratch_folder_that_shows_the_checkout_and_keeps_what_they_write(tmp_path):
    marker = "readme-check-test-file"
    path = readme(tmp_path, f"$ test -f pyproject.toml && touch {marker} && ls {marker}\n{marker}\n")
    assert main([str(path)]) == 0
    assert not (ROOT / marker).exists()


@pytest.mark.slow
def test_the_readmes_runnable_examples_print_what_it_shows(capsys):
    # When this fails because an output legitimately changed: python -m tools.readme_check --update
    rc = main([])
    out = capsys.readouterr().out
    assert rc == 0, out
    assert int(out.split("the ")[1].split(" runnable")[0]) >= 10
