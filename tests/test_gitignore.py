"""What a newcomer writes into the checkout stays out of git: credentials, verdicts, runs, reports.

Asked of git itself (`git check-ignore --no-index`, which reads .gitignore without looking at
what is tracked), so the patterns are tested as git applies them.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

IGNORED = [
    ".env", ".env.local", ".env.production", "sub/.env",
    "verdict.json", "runs/gen1.verdict.json", "t.jsonl",
    "runs/elec_gen1_fault_reset_fails/scripted__run000.jsonl", "elsewhere/runs/x.json",
    ".cache/node-tools/bin/claude", "reports/index.html", "report.html",
]
KEPT = [
    ".env.example", "tests/fixtures/t.jsonl", "docs/report.html",
    "bridge/report/templates/report.html", "scenarios/elec/gen1_fault_reset_fails.yaml",
    "server/surface/verdict_file.py",
]


def ignored_of(paths: list[str]) -> set[str]:
    out = subprocess.run(["git", "check-ignore", "--no-index", "--", *paths], cwd=ROOT,
                         capture_output=True, text=True, timeout=60)
    if out.returncode not in (0, 1):  # 1: none of them is ignored
        pytest.skip(f"git check-ignore failed here: {out.stderr.strip()}")
    return set(out.stdout.split())


@pytest.mark.skipif(shutil.which("git") is None or not (ROOT / ".git").exists(),
                    reason="needs git and a git checkout")
def test_gitignore_keeps_secrets_verdicts_runs_and_reports_out_and_sources_in():
    assert ignored_of(IGNORED + KEPT) == set(IGNORED)
