"""The scenario catalogue as a Markdown table, grouped by system (for the README).

    python -m a320bench.bridge.catalogue            # print the table
    python -m a320bench.bridge.catalogue --readme   # rewrite the table in README.md between its markers

The `ecam` column says whether the literal-ECAM baseline (`--provider ecam`)
reaches compliant success on the scenario: a scenario it passes measures ECAM
reading, one it fails needs judgement. The column is computed by flying the
baseline (about ten seconds); the fast README test checks the rest of the
table and the slow catalogue-bounds test checks the column itself.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

BEGIN = "<!-- catalogue:begin (python -m a320bench.bridge.catalogue --readme) -->"
END = "<!-- catalogue:end -->"
ORDER = ["ELEC", "HYD", "FUEL", "AIR", "ENG", "FIRE", "APU", "OTHER"]
PASS, FAIL = "passes", "fails"
_ROW = re.compile(r"^\| [A-Z]+ \| [a-z]+ \| \[`([a-z0-9_]+)`\]\(scenarios/[^)]+\) \| .* \| (passes|fails) \|$")


def catalogue() -> list[tuple[Any, str]]:
    """Every built-in scenario with its path relative to the scenarios folder."""
    from a320bench.server.scenario.loader import load

    from .selection import builtin_scenarios_dir, scenario_files

    root = builtin_scenarios_dir()
    return [(sc, f.relative_to(root).as_posix()) for f in scenario_files(None) for sc in [load(f)]]


def fly(provider: str, scenarios: Iterable[Any]) -> dict[str, Any]:
    """Each scenario flown once in-process by a built-in provider: scenario id -> ScoreCard."""
    import anyio

    from a320bench.server.surface.profiles import load_profile

    from .providers import make_provider
    from .inprocess_episode import run_episode
    from .score.scorecard import score_events

    profile = load_profile("benchmark")

    async def all_of_them() -> dict[str, Any]:
        cards = {}
        for sc in scenarios:
            events: list[dict[str, Any]] = []
            await run_episode(sc, make_provider(provider), profile=profile, path=None,
                              episode_id=f"catalogue/{provider}/{sc.id}", recorder_sink=events)
            cards[sc.id] = score_events(events, path=sc.id)
        return cards

    return anyio.run(all_of_them)


def ecam_verdicts(scenarios: Iterable[Any]) -> dict[str, bool]:
    return {sid: card.compliant_success for sid, card in fly("ecam", scenarios).items()}


def table(ecam: Mapping[str, bool], entries: list[tuple[Any, str]] | None = None) -> str:
    entries = catalogue() if entries is None else entries
    rows = sorted(((sc.system, sc.phase, sc.id, sc.title, ", ".join(sc.tags), path) for sc, path in entries),
                  key=lambda r: (ORDER.index(r[0]), r[2]))
    counts = {s: sum(1 for r in rows if r[0] == s) for s in ORDER}
    passed = sum(1 for r in rows if ecam.get(r[2]))
    lines = [f"{len(rows)} scenarios: " + ", ".join(f"{s} {n}" for s, n in counts.items() if n)
             + f". The literal-ECAM baseline passes {passed} of them.", "",
             "| system | phase | id | what happens | tags | ecam |", "|---|---|---|---|---|---|"]
    for system, phase, sid, title, tags, path in rows:
        lines.append(f"| {system} | {phase} | [`{sid}`](scenarios/{path}) | {title} | {tags} | "
                     f"{PASS if ecam.get(sid) else FAIL} |")
    return "\n".join(lines) + "\n"


def readme_path() -> Path:
    return Path(__file__).resolve().parents[1] / "README.md"


def listed(readme_text: str) -> str:
    """The table as the README shows it, between its markers."""
    return readme_text[readme_text.index(BEGIN) + len(BEGIN):readme_text.index(END)]


def listed_ecam(readme_text: str) -> dict[str, bool]:
    """The `ecam` column as the README shows it: scenario id -> passes."""
    out = {}
    for line in listed(readme_text).splitlines():
        m = _ROW.match(line)
        if m:
            out[m.group(1)] = m.group(2) == PASS
    return out


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    entries = catalogue()
    text = table(ecam_verdicts(sc for sc, _ in entries), entries)
    if argv == ["--readme"]:
        readme = readme_path()
        body = readme.read_text()
        start, end = body.index(BEGIN) + len(BEGIN), body.index(END)
        readme.write_text(body[:start] + "\n" + text + body[end:])
        print(f"updated {readme}")
        return 0
    sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
