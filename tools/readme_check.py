"""Run the README's runnable examples and compare their output with the README's.

    python -m tools.readme_check            # exit 1 and a diff per block that no longer holds
    python -m tools.readme_check --update   # rewrite those outputs in place, then check again

A fenced block right after a line `<!-- readme-check -->` is runnable. In it, a line starting
`$ ` is a command; the lines after it, up to the next command, are what it prints (stdout and
stderr together, as a terminal shows them). A line that holds only `…` (table borders aside:
a trimmed table's `│ … │ │` row) stands for any number of lines, and `…` inside a line for any
text, so an example can be trimmed to what matters.

Commands run one after another with bash, in a scratch folder that shows the checkout's files
(links to them: what a command writes, e.g. `runs/`, stays out of the checkout), with this
Python's `a320-bench` first on PATH, a fresh HOME and XDG_STATE_HOME, and 160 columns. Before
comparing, both sides are normalised: the checkout's path and the scratch folder become
/path/to/a320-bench, the fresh HOME /home/you, and times, dates, durations, timestamps and
hashes become placeholders -- they differ from run to run, nothing else should.

`--update` writes the outputs as they are now (paths normalised, figures as measured), keeping
each `…` and each line with a `…` in it that still matches; an output whose shape changed (its
lines no longer fit around the `…`) is written in full and named, to be trimmed by hand.
Runnable commands must be cheap and deterministic: the check runs in the test suite
(tests/test_readme_check.py).
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
MARKER = "<!-- readme-check -->"
ELISION = "…"
SHOWN_ROOT = "/path/to/a320-bench"
SHOWN_HOME = "/home/you"
COLUMNS = 160
TIMEOUT_S = 300

PLACEHOLDERS = [
    (re.compile(r"\b\d{8}T\d{6}\d*Z\b"), "<timestamp>"),
    (re.compile(r"\b\d{4}-\d\d-\d\d[T ]\d\d:\d\d(:\d\d(\.\d+)?)?(Z|[+-]\d\d:?\d\d)?"), "<time>"),
    (re.compile(r"\b\d{4}-\d\d-\d\d\b"), "<date>"),
    (re.compile(r"\b[0-9a-f]{12,}\b"), "<hash>"),
    (re.compile(r"\b\d+(\.\d+)? ?(ms|µs|s|min)\b"), "<duration>"),
]


@dataclass
class Command:
    text: str
    expected: list[str] = field(default_factory=list)
    actual: list[str] | None = None  # filled by run()


@dataclass
class Block:
    line: int  # 1-based line of the opening fence
    commands: list[Command]
    start: int  # index of the first line inside the fence
    end: int  # index of the closing fence


def runnable_blocks(lines: list[str]) -> list[Block]:
    """The fenced blocks right after the marker, with their commands and expected outputs."""
    blocks = []
    i = 0
    while i < len(lines):
        if lines[i].strip() == MARKER and i + 1 < len(lines) and lines[i + 1].startswith("```"):
            start = i + 2
            end = start
            while end < len(lines) and not lines[end].startswith("```"):
                end += 1
            if end == len(lines):
                raise ValueError(f"line {i + 2}: a runnable block is never closed")
            commands: list[Command] = []
            for line in lines[start:end]:
                if line.startswith("$ "):
                    commands.append(Command(line[2:]))
                elif commands:
                    commands[-1].expected.append(line)
                elif line.strip():
                    raise ValueError(f"line {i + 2}: a runnable block must start with a `$ ` command")
            blocks.append(Block(i + 2, commands, start, end))
            i = end
        i += 1
    return blocks


_ELISION_LINE = re.compile(r"[\s│┃|]*…[\s│┃|]*")


def is_elision(line: str) -> bool:
    return bool(_ELISION_LINE.fullmatch(line))


def normalise(line: str, paths: dict[str, str]) -> str:
    for real, shown in paths.items():
        line = line.replace(real, shown)
    for pattern, placeholder in PLACEHOLDERS:
        line = pattern.sub(placeholder, line)
    return line.rstrip()


def shown(line: str, paths: dict[str, str]) -> str:
    """A line as --update writes it: paths normalised, figures as measured."""
    for real, label in paths.items():
        line = line.replace(real, label)
    return line.rstrip()


def _line_pattern(expected: str) -> re.Pattern[str]:
    return re.compile(".*".join(re.escape(part) for part in expected.split(ELISION)))


def align(expected: list[str], actual: list[str]) -> list[int | None] | None:
    """For each expected line, the index of the actual line it matches (None for an elision line);
    None when the actual lines do not fit. Lines are compared normalised."""
    @lru_cache(maxsize=None)
    def fit(i: int, j: int) -> tuple[int | None, ...] | None:
        if i == len(expected):
            return () if j == len(actual) else None
        if is_elision(expected[i]):
            for k in range(j, len(actual) + 1):
                rest = fit(i + 1, k)
                if rest is not None:
                    return (None, *rest)
            return None
        if j < len(actual) and _line_pattern(expected[i]).fullmatch(actual[j]):
            rest = fit(i + 1, j + 1)
            if rest is not None:
                return (j, *rest)
        return None

    found = fit(0, 0)
    return list(found) if found is not None else None


def loose_align(expected: list[str], actual: list[str]) -> list[int | None] | None:
    """Where the expected lines went in an output that changed: the lines before the first `…` are
    its first lines, those after the last `…` its last ones, each run of lines between two `…` where
    its first line finds its closest match (difflib ratio above 0.6); None when that fails."""
    import difflib

    cuts = [i for i, line in enumerate(expected) if is_elision(line)]
    if not cuts:
        return list(range(len(expected))) if len(expected) == len(actual) else None
    head, tail = cuts[0], len(expected) - cuts[-1] - 1
    if head + tail > len(actual):
        return None
    mapping: list[int | None] = [*range(head)]
    cursor = head
    for a, b in zip(cuts, cuts[1:] + [None]):
        mapping.append(None)
        if b is None:
            break
        run = expected[a + 1:b]
        if not run:
            continue
        last_start = len(actual) - tail - len(run)
        scored = [(difflib.SequenceMatcher(None, run[0], actual[s]).ratio(), -s) for s in range(cursor, last_start + 1)]
        if not scored or max(scored)[0] <= 0.6:
            return None
        start = -max(scored)[1]
        mapping += range(start, start + len(run))
        cursor = start + len(run)
    return mapping + [*range(len(actual) - tail, len(actual))]


def updated(expected: list[str], raw: list[str], normal_expected: list[str], normal_actual: list[str]
            ) -> tuple[list[str], bool]:
    """The output to write: the actual lines where the expected ones stood, each `…` kept; or the
    whole actual output (and False) when no line of it can stand where an expected one did."""
    mapping = align(normal_expected, normal_actual) or loose_align(normal_expected, normal_actual)
    if mapping is None:
        return raw, not any(is_elision(line) for line in expected)
    # A line with `…` in it that still matches is kept: its `…` hides what differs between machines.
    return [expected[i] if j is None or (ELISION in expected[i] and _line_pattern(normal_expected[i]).fullmatch(
        normal_actual[j])) else raw[j] for i, j in enumerate(mapping)], True


def run(commands: list[Command], cwd: Path, env: dict[str, str]) -> None:
    for command in commands:
        done = subprocess.run(["bash", "-c", command.text], cwd=cwd, env=env, stdin=subprocess.DEVNULL,
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=TIMEOUT_S)
        command.actual = done.stdout.decode("utf-8", "replace").rstrip("\n").splitlines()


def scratch_folder(tmp: Path) -> Path:
    """A folder that shows the checkout's files through links; what a command writes stays here."""
    work = tmp / "work"
    work.mkdir()
    for entry in ROOT.iterdir():
        if entry.name not in (".git", ".venv", "runs"):
            (work / entry.name).symlink_to(entry)
    return work


def environment(tmp: Path) -> dict[str, str]:
    home = tmp / "home"
    home.mkdir()
    env = {k: v for k, v in os.environ.items() if not k.startswith(("A320_BENCH_", "XDG_"))}
    env.update(HOME=str(home), XDG_STATE_HOME=str(home / ".local" / "state"), COLUMNS=str(COLUMNS),
               LINES="50", TERM="dumb", NO_COLOR="1", PYTHONHASHSEED="0",
               PATH=f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}")
    env.pop("FORCE_COLOR", None)
    return env


@dataclass
class Result:
    problems: list[str]
    lines: list[str]  # the README as --update would write it
    commands: int
    reshaped: list[str]


def check(readme: Path) -> Result:
    lines = readme.read_text(encoding="utf-8").splitlines()
    blocks = runnable_blocks(lines)
    problems: list[str] = []
    reshaped: list[str] = []
    new_lines = list(lines)
    with tempfile.TemporaryDirectory(prefix="readme-check-") as name:
        tmp = Path(name).resolve()
        work = scratch_folder(tmp)
        env = environment(tmp)
        paths = {str(work): SHOWN_ROOT, str(ROOT): SHOWN_ROOT, env["HOME"]: SHOWN_HOME}
        for block in blocks:  # in order: a command may read what an earlier one wrote
            run(block.commands, work, env)
        for block in reversed(blocks):  # rewritten from the end, so that earlier line numbers stay right
            body: list[str] = []
            for command in block.commands:
                assert command.actual is not None
                normal_expected = [normalise(x, paths) for x in command.expected]
                normal_actual = [normalise(x, paths) for x in command.actual]
                raw = [shown(x, paths) for x in command.actual]
                if align(normal_expected, normal_actual) is None:
                    problems.append(_diff(readme, block, command, normal_expected, normal_actual))
                output, fits = updated(command.expected, raw, normal_expected, normal_actual)
                if not fits:
                    reshaped.append(f"{readme.name}:{block.line}: `{command.text}`")
                body += [f"$ {command.text}", *output]
            new_lines[block.start:block.end] = body
    return Result(problems[::-1], new_lines, sum(len(b.commands) for b in blocks), reshaped[::-1])


def _diff(readme: Path, block: Block, command: Command, expected: list[str], actual: list[str]) -> str:
    import difflib

    diff = difflib.unified_diff(expected, actual, "README (normalised)", "now (normalised)", lineterm="", n=2)
    return f"{readme.name}:{block.line}: `{command.text}` prints something else:\n" + "\n".join(diff)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.readme_check", description=__doc__.split("\n\n")[0])
    parser.add_argument("readme", nargs="?", default=str(ROOT / "README.md"), help="default: the README")
    parser.add_argument("--update", action="store_true", help="rewrite the outputs that changed, in place")
    args = parser.parse_args(argv)
    readme = Path(args.readme)
    try:
        result = check(readme)
    except (OSError, ValueError, subprocess.TimeoutExpired) as e:
        print(f"error: {readme}: {e}", file=sys.stderr)
        return 2
    if args.update and result.problems:
        readme.write_text("\n".join(result.lines) + "\n", encoding="utf-8")
        for where in result.reshaped:
            print(f"readme-check: {where}: its output changed shape; written in full, trim it with `…`")
        print(f"readme-check: {len(result.problems)} output(s) rewritten in {readme}")
        return 0
    for problem in result.problems:
        print(problem)
    if result.problems:
        print(f"readme-check: {len(result.problems)} of {result.commands} command(s) print something else "
              f"(python -m tools.readme_check --update rewrites them)")
        return 1
    print(f"readme-check: the {result.commands} runnable command(s) of {readme.name} print what it shows")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
