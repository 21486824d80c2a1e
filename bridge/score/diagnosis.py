"""Diagnosis match: report_done's diagnosis names what failed.

Each keyword group is a list of synonyms; the diagnosis must mention
(case-insensitively, spacing collapsed) at least one synonym of every group.
No report: no match. No groups: any report matches.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any


def _fold(text: str) -> str:
    return " ".join(text.split()).casefold()


def diagnosis_matches(report_done: Any, groups: Sequence[Sequence[str]]) -> bool:
    if not isinstance(report_done, dict):
        return False
    diagnosis = report_done.get("diagnosis")
    text = _fold(diagnosis if isinstance(diagnosis, str) else ("" if diagnosis is None else str(diagnosis)))
    return all(any(_fold(s) in text for s in group if _fold(s)) for group in groups)
