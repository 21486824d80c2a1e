"""The scenario catalogue as a Markdown table, grouped by system (for the README).

    python -m a320bench.bridge.catalogue            # print the table
    python -m a320bench.bridge.catalogue --readme   # rewrite the table in README.md between its markers
"""

from __future__ import annotations

import sys
from pathlib import Path

BEGIN = "<!-- catalogue:begin (python -m a320bench.bridge.catalogue --readme) -->"
END = "<!-- catalogue:end -->"


def table() -> str:
    from a320bench.server.scenario.loader import load

    from .selection import builtin_scenarios_dir, scenario_files

    root = builtin_scenarios_dir()
    rows = []
    for f in scenario_files(None):
        sc = load(f)
        rows.append((sc.system, sc.phase, sc.id, sc.title, ", ".join(sc.tags), f.relative_to(root).as_posix()))
    order = ["ELEC", "HYD", "FUEL", "AIR", "ENG", "FIRE", "APU", "OTHER"]
    rows.sort(key=lambda r: (order.index(r[0]), r[2]))
    counts = {s: sum(1 for r in rows if r[0] == s) for s in order}
    lines = [f"{len(rows)} scenarios: " + ", ".join(f"{s} {n}" for s, n in counts.items() if n) + ".", "",
             "| system | phase | id | what happens | tags |", "|---|---|---|---|---|"]
    for system, phase, sid, title, tags, path in rows:
        lines.append(f"| {system} | {phase} | [`{sid}`](scenarios/{path}) | {title} | {tags} |")
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    text = table()
    if argv == ["--readme"]:
        readme = Path(__file__).resolve().parents[1] / "README.md"
        body = readme.read_text()
        start, end = body.index(BEGIN) + len(BEGIN), body.index(END)
        readme.write_text(body[:start] + "\n" + text + body[end:])
        print(f"updated {readme}")
        return 0
    sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
