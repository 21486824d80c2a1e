"""Diagnosis grade: report_done's diagnosis names the failed component, and not the others.

Three checks, on the diagnosis text folded (case-insensitive, spacing collapsed):

1. keywords: at least one synonym of every ground-truth keyword group (no report:
   no match; no groups: any report passes this check);
2. the named component is the failed one: within a family of like components
   (engines 1/2, generators, IDGs, TRs, AC/DC buses, packs, bleeds, the three
   hydraulic systems), naming a member other than the ground truth's fails --
   unless the ECAM showed an alert about it during the episode (a consequence
   or a second failure the agent saw and may rightly name);
3. not a list of the aircraft: naming more than MAX_UNRELATED components that are
   neither in the ground truth nor in an alert shown fails.

"Beyond the ECAM" (`beyond_ecam`): where an echo of the ECAM titles the episode
showed would not match the keywords (a leak, a trap, a fuel check with no ECAM),
the diagnosis is graded again with those titles cut out of it: an echo of the
ECAM gets no credit there; elsewhere the grade is not applicable (None).

A clause that calls a component healthy ("ENG 2 normal", "GEN 2 ok") is not a
claim that it failed: clauses (split at . ; , and "but") containing a health word,
not negated ("GEN 1 not available" is a claim), are left out of all three checks.
A diagnosis naming every system therefore fails 2 or 3 whatever its keywords, and
one calling every system healthy ("GEN 1 ok; GEN 2 ok; ...") matches nothing.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable, Sequence
from typing import Any

MAX_UNRELATED = 3

_PAIR = r"\s*(?:\+|&|and|/)\s*"


def _numbered(*stems: str) -> dict[str, list[str]]:
    """Members 1 and 2 of a family named by `stems` ("gen", "generator"), pairs included ("PACK 1+2")."""
    stem = "(?:" + "|".join(stems) + ")s?"
    return {"1": [rf"\b{stem}\s*#?\s*1(?![\d.])"],
            "2": [rf"\b{stem}\s*#?\s*(?:1{_PAIR})?2(?![\d.])"]}


def _hydraulic(color: str) -> list[str]:
    letter = color[0]
    return [rf"\b{color}\b", rf"\b{letter}(?=\+[gby]\b)", rf"(?<=[gby]\+){letter}\b",
            rf"\bhyd {letter}\b", rf"\b{letter} (?:sys|rsvr|eng \d pump|elec pump)\b"]


FAMILIES: dict[str, dict[str, list[str]]] = {
    "engine": {k: v + [rf"\beng(?:ine)? master\s*{k}\b"] for k, v in _numbered("eng", "engine").items()},
    "generator": {**_numbered("gen", "generator"), "apu": [r"\bapu gen"]},
    "idg": _numbered("idg", "drive"),
    "tr": {**_numbered("tr", "transformer-rectifier", "transformer rectifier"), "ess": [r"\bess tr\b"]},
    "ac bus": {**_numbered("ac bus"), "ess": [r"\bac ess\b"]},
    "dc bus": {**_numbered("dc bus"), "ess": [r"\bdc ess\b"]},
    "pack": _numbered("pack"),
    "bleed": {"1": [r"\beng(?:ine)?\s*1 bleed", r"\bbleed\s*1\b"], "2": [r"\beng(?:ine)?\s*2 bleed", r"\bbleed\s*2\b"],
              "apu": [r"\bapu bleed"]},
    "hydraulic": {c: _hydraulic(c) for c in ("green", "blue", "yellow")},
}
_COMPILED = {(fam, member): re.compile("|".join(pats)) for fam, members in FAMILIES.items()
             for member, pats in members.items()}

_HEALTHY = re.compile(r"\b(?:normal(?:ly)?|ok|okay|fine|healthy|unaffected|not affected|operative|available|"
                      r"working|no fault|no failure|intact|running normally)\b")
_NEGATED = re.compile(r"\b(?:not|no longer|never)\b|n't\b")  # "GEN 1 not available" claims a failure
_CLAUSE = re.compile(r"[.;,\n]|\bbut\b|\bwhile\b")
_CLAUSE_KEPT = re.compile(f"({_CLAUSE.pattern})")


def _fold(text: str) -> str:
    return " ".join(text.split()).casefold()


@functools.lru_cache(maxsize=4096)  # the same keywords, titles and clauses recur across a run's files
def components(text: str) -> frozenset[tuple[str, str]]:
    """(family, member) pairs a folded text names."""
    return frozenset(key for key, rx in _COMPILED.items() if rx.search(text))


@functools.lru_cache(maxsize=4096)
def claims(text: str) -> str:
    """A folded text less the clauses that call something healthy (their separators kept, so that a
    keyword written with one, `A.ICE`, still reads whole): what it claims failed."""
    parts = _CLAUSE_KEPT.split(text)
    for i in range(0, len(parts), 2):  # clauses at even places, what separated them at odd ones
        if _HEALTHY.search(parts[i]) and not _NEGATED.search(parts[i]):
            parts[i] = " "
    return " ".join("".join(parts).split())


@functools.lru_cache(maxsize=4096)
def claimed_components(text: str) -> frozenset[tuple[str, str]]:
    """Components named outside clauses that call them healthy."""
    out: set[tuple[str, str]] = set()
    for clause in _CLAUSE.split(claims(text)):
        if clause.strip():
            out |= components(clause.strip())
    return frozenset(out)


def diagnosis_matches(report_done: Any, groups: Sequence[Sequence[str]], shown_titles: Iterable[str] = ()) -> bool:
    if not isinstance(report_done, dict):
        return False
    diagnosis = report_done.get("diagnosis")
    text = _fold(diagnosis if isinstance(diagnosis, str) else ("" if diagnosis is None else str(diagnosis)))
    claimed = claims(text)  # a keyword in a clause calling it healthy ("GEN 1 ok") earns nothing
    if not all(any(_fold(s) in claimed for s in group if _fold(s)) for group in groups):
        return False
    truth = components(_fold(" ; ".join(s for group in groups for s in group)))
    shown = components(_fold(" ; ".join(sorted(shown_titles))))
    allowed = truth | shown
    named = claimed_components(text) - allowed
    truth_families = {fam for fam, _ in truth}
    if any(fam in truth_families for fam, _ in named):
        return False  # the right family, the wrong member: not the failed component
    return len(named) <= MAX_UNRELATED


def beyond_ecam(report_done: Any, groups: Sequence[Sequence[str]], shown_titles: Iterable[str] = ()) -> bool | None:
    """None where the ECAM titles shown name the cause (their echo matches); else whether the
    diagnosis, with every shown title cut out, still matches."""
    titles = sorted({_fold(t) for t in shown_titles if _fold(t)}, key=len, reverse=True)
    if not groups or diagnosis_matches({"diagnosis": " ; ".join(titles)}, groups, shown_titles):
        return None
    if not isinstance(report_done, dict):
        return False
    text = _fold(str(report_done.get("diagnosis") or ""))
    for t in titles:
        text = text.replace(t, " ; ")
    return diagnosis_matches({**report_done, "diagnosis": text}, groups, shown_titles)
