"""The documentation stays true to the repository.

- every relative link in the README, docs/ and the data folders' READMEs reaches a file that
  exists, and an anchor that exists in it;
- every `§` citation anywhere in the repository's .py, .yaml and .md files names a section, a
  rule or a catalogue entry of docs/domain-reference.md;
- no file cites a document that is not in the repository;
- the end-reason table of docs/architecture.md is server/end_reason.py's list.

Pure file reading: no subprocess, no network.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from a320bench.server.end_reason import EndReason

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
DOMAIN_REFERENCE = DOCS / "domain-reference.md"
LINKED_MARKDOWN = [ROOT / "README.md", *sorted(DOCS.glob("*.md")), ROOT / "scenarios" / "README.md",
                   ROOT / "profiles" / "README.md"]
CITING_SUFFIXES = (".py", ".yaml", ".yml", ".md")
SKIPPED_DIRS = {"node_modules", "build", "dist", "runs", "reports", "__pycache__"}
# Documents the project started from, which live outside the repository.
OUTSIDE_DOCUMENTS = ("DESIGN.md", "A320_SYSTEMS_REFERENCE", "shared/notes/", "STYLE.md")


# ---- Markdown ---------------------------------------------------------------------------------

FENCE = re.compile(r"^(```|~~~).*?^\1[^\n]*$", re.M | re.S)
CODE_SPAN = re.compile(r"(`+)(?:(?!\1).)+?\1")
INLINE_LINK = re.compile(r"\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
REFERENCE_DEFINITION = re.compile(r"^\s{0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s|$)", re.M)
HEADING = re.compile(r"^\s{0,3}(#{1,6})\s+(.*?)\s*#*\s*$", re.M)
HTML_ANCHOR = re.compile(r"<a\s+(?:id|name)=\"([^\"]+)\"")
HTML_TAG = re.compile(r"<[^>]+>")


def without_code(text: str) -> str:
    """Markdown with fenced blocks and code spans removed (links there are not links)."""
    return CODE_SPAN.sub("", FENCE.sub("", text))


def slug(heading: str) -> str:
    """GitHub's anchor for a heading: rendered text, lower case, punctuation dropped, spaces to '-'."""
    text = HTML_TAG.sub("", heading)
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", text)  # a link renders as its text
    text = text.replace("`", "").replace("*", "")
    return re.sub(r"[^\w\- ]", "", text.strip().lower()).replace(" ", "-")


def anchors(text: str) -> set[str]:
    """Explicit HTML anchors and heading anchors (a repeated heading gets -1, -2, ...)."""
    found = set(HTML_ANCHOR.findall(text))
    seen: dict[str, int] = {}
    for _, title in HEADING.findall(FENCE.sub("", text)):
        base = slug(title)
        n = seen.get(base, 0)
        seen[base] = n + 1
        found.add(base if n == 0 else f"{base}-{n}")
    return found


def link_targets(text: str) -> list[str]:
    plain = without_code(text)
    return INLINE_LINK.findall(plain) + REFERENCE_DEFINITION.findall(plain)


def broken_links(md: Path, root: Path = ROOT) -> list[str]:
    text = md.read_text(encoding="utf-8")
    problems = []
    for target in link_targets(text):
        if re.match(r"^[a-z][a-z0-9+.-]*:", target, re.I):  # http:, https:, mailto:, ...
            continue
        path_part, _, fragment = target.partition("#")
        dest = (md.parent / path_part).resolve() if path_part else md
        where = f"{md.relative_to(root)}: link to {target!r}"
        if not dest.is_relative_to(root):
            problems.append(f"{where} leaves the repository")
        elif not dest.exists():
            problems.append(f"{where}: no such file")
        elif fragment and dest.suffix == ".md" and fragment not in anchors(dest.read_text(encoding="utf-8")):
            problems.append(f"{where}: no anchor #{fragment} there")
    return problems


@pytest.mark.parametrize("md", LINKED_MARKDOWN, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_relative_link_reaches_a_file_and_anchor_that_exist(md):
    assert md.exists()
    assert broken_links(md) == []


def test_the_link_check_reports_missing_files_anchors_and_escapes(tmp_path):
    (tmp_path / "other.md").write_text("# Some title\n\n<a id=\"kept\"></a>\n")
    md = tmp_path / "README.md"
    md.write_text(
        "[ok](other.md) [ok](other.md#some-title) [ok](other.md#kept) [ok](#here) [web](https://x.org/a)\n"
        "## Here\n"
        "[gone](missing.md) [no anchor](other.md#nope) [out](../outside.md) `[code](missing.md)`\n"
        "```\n[fenced](missing.md)\n```\n"
        "[ref]: missing-too.md\n"
    )
    assert broken_links(md, root=tmp_path) == [
        "README.md: link to 'missing.md': no such file",
        "README.md: link to 'other.md#nope': no anchor #nope there",
        "README.md: link to '../outside.md' leaves the repository",
        "README.md: link to 'missing-too.md': no such file",
    ]


def test_headings_get_github_anchors():
    assert slug("The simulator: scope and limits") == "the-simulator-scope-and-limits"
    assert slug("[`run`](#run) and **more**") == "run-and-more"
    assert slug('<a id="e1"></a>E1 — `ELEC GEN 1 FAULT`') == "e1--elec-gen-1-fault"
    assert anchors("# A\n## A\n```\n# not a heading\n```\n") == {"a", "a-1"}


# ---- § citations ------------------------------------------------------------------------------

SECTION_HEADING = re.compile(r"^(\d+(?:\.\d+)?)\.?\s")
ENTRY_HEADING = re.compile(r"^([A-Z]\d+)\s")
RULE = re.compile(r"\*\*Rule (\d+)\b")
ENTRY = r"[A-Z]\d+(?:\s*[-–]\s*[A-Z]?\d+)?"
CITATION = re.compile(
    r"§\s*(?P<section>\d+(?:\.\d+)?)"
    r"(?:\s*[-–]\s*§?(?P<until>\d+(?:\.\d+)?))?"
    r"(?:,?\s+rule\s+(?P<rule>\d+))?"
    rf"(?:\s+(?P<entries>{ENTRY}(?:\s*(?:,|\band\b|\+)\s*{ENTRY})*)\b"
    r"|\s+(?P<series>[A-Z])-series)?"
)


class DomainReference:
    """Sections, rules (per section) and catalogue entries, read from the headings."""

    def __init__(self, text: str):
        self.sections: set[str] = set()
        self.rules: dict[str, set[int]] = {}
        self.entries: set[str] = set()
        current = None
        for line in FENCE.sub("", text).splitlines():
            heading = HEADING.match(line)
            if heading:
                title = HTML_TAG.sub("", heading.group(2)).strip()
                if m := SECTION_HEADING.match(title):
                    current = m.group(1)
                    self.sections.add(current)
                elif m := ENTRY_HEADING.match(title):
                    self.entries.add(m.group(1))
            elif current is not None:
                for n in RULE.findall(line):
                    self.rules.setdefault(current, set()).add(int(n))

    def unresolved(self, text: str) -> list[str]:
        """Each citation in `text` that names something this reference does not have."""
        out = []
        for m in CITATION.finditer(text):
            missing = [f"§{s}" for s in (m["section"], m["until"]) if s and s not in self.sections]
            if m["rule"] and int(m["rule"]) not in self.rules.get(m["section"], set()):
                missing.append(f"rule {m['rule']}")
            for entry in _entries(m["entries"] or ""):
                if entry not in self.entries:
                    missing.append(entry)
            if m["series"] and not any(e[0] == m["series"] for e in self.entries):
                missing.append(f"{m['series']}-series")
            if missing:
                out.append(f"{m.group(0)!r} ({', '.join(missing)})")
        return out


def _entries(listed: str) -> list[str]:
    """'E1-E3, N4' -> E1, E2, E3, N4."""
    out = []
    for m in re.finditer(r"([A-Z])(\d+)(?:\s*[-–]\s*[A-Z]?(\d+))?", listed):
        start = int(m[2])
        out += [f"{m[1]}{n}" for n in range(start, int(m[3] or start) + 1)]
    return out


def citing_files() -> list[Path]:
    files = []
    for dirpath, dirnames, filenames in os.walk(ROOT):
        dirnames[:] = [d for d in dirnames
                       if not d.startswith(".") and d not in SKIPPED_DIRS and not d.endswith(".egg-info")]
        files += [Path(dirpath) / f for f in filenames if f.endswith(CITING_SUFFIXES)]
    return sorted(files)


@pytest.fixture(scope="module")
def reference() -> DomainReference:
    return DomainReference(DOMAIN_REFERENCE.read_text(encoding="utf-8"))


def test_the_domain_reference_keeps_its_numbering(reference):
    assert {"1", "2", "3", "4", "5", "4.1"} | {f"1.{i}" for i in range(1, 8)} | {"2.1", "2.2"} \
        | {f"3.{i}" for i in range(1, 6)} | {f"5.{i}" for i in range(1, 5)} <= reference.sections
    series = {"E": 9, "H": 9, "F": 8, "B": 8, "N": 8, "A": 2, "O": 4}
    assert reference.entries == {f"{s}{i}" for s, n in series.items() for i in range(1, n + 1)}
    assert reference.rules["1.1"] == set(range(1, 11))


def test_every_section_citation_in_the_repository_names_something_the_domain_reference_has(reference):
    problems, cited = [], 0
    for path in citing_files():
        if path == Path(__file__).resolve():
            continue  # its own examples of citations that do not exist
        text = path.read_text(encoding="utf-8", errors="replace")
        if "§" not in text:
            continue
        cited += text.count("§")
        problems += [f"{path.relative_to(ROOT)}: {u}" for u in reference.unresolved(text)]
    assert problems == []
    assert cited > 100  # the scenarios, the simulator and its tests cite it throughout


def test_the_citation_check_reports_what_does_not_exist(reference):
    text = ("domain reference §1.1 rule 5; §1.1, rule 4; §4 E1-E9, FG; §4 N1, N2, N8, A1; "
            "§4 B1-B8 and O4; §4 E-series; §1–§2; §3.5\n"
            "§4 E10 · §4 E8-E12 · §1.1 rule 11 · §6 · §1.9 · §4 Z-series · §1.2 rule 1")
    assert reference.unresolved(text) == [
        "'§4 E10' (E10)",
        "'§4 E8-E12' (E10, E11, E12)",
        "'§1.1 rule 11' (rule 11)",
        "'§6' (§6)",
        "'§1.9' (§1.9)",
        "'§4 Z-series' (Z-series)",
        "'§1.2 rule 1' (rule 1)",
    ]


# ---- documents outside the repository ---------------------------------------------------------

def test_no_file_cites_a_document_outside_the_repository():
    problems = []
    for path in citing_files():
        if path == Path(__file__).resolve():
            continue  # it names them in order to look for them
        for n, line in enumerate(path.read_text(encoding="utf-8", errors="replace").splitlines(), 1):
            problems += [f"{path.relative_to(ROOT)}:{n}: cites {name}" for name in OUTSIDE_DOCUMENTS if name in line]
    assert problems == []


# ---- end reasons ------------------------------------------------------------------------------

def test_the_architecture_lists_every_end_reason_with_its_kind():
    text = (DOCS / "architecture.md").read_text(encoding="utf-8")
    section = text.split("**End reasons**", 1)[1].split("\n\n", 2)[1]  # the table after the paragraph
    documented = {}
    for row in section.splitlines()[2:]:
        kind, reasons = (cell.strip() for cell in row.strip("|").split("|")[:2])
        documented |= {reason: kind for reason in re.findall(r"`([a-z_]+)`", reasons)}
    assert documented == {r.value: r.kind.value for r in EndReason}
