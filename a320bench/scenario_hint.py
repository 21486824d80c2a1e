"""What a scenario path that does not exist may have meant, in the built-in catalogue.

Tables, file labels and the README name scenarios by id (`eng_1_fail_relight_cruise`)
while commands take files (`scenarios/eng/eng1_fail_relight_cruise.yaml`), and the two
differ: a newcomer gives the one for the other, a catalogue folder by its name alone
(`elec`, as the Inspect task takes it), or mistypes a name. Only the error path calls this.
"""

from __future__ import annotations

import difflib
import os
from pathlib import Path

# How alike a mistyped name must be to a built-in one to be offered (difflib's ratio).
_CUTOFF = 0.85


def catalogue_dir() -> Path:
    import a320bench.scenarios

    return Path(a320bench.scenarios.__file__).parent


def _ids() -> dict[str, Path]:
    """Each built-in scenario's id -> its file (a file that does not load is left out)."""
    import yaml

    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    out: dict[str, Path] = {}
    for f in sorted(catalogue_dir().rglob("*.yaml")):
        try:
            doc = yaml.load(f.read_text(encoding="utf-8"), Loader=loader)
        except (OSError, UnicodeDecodeError, yaml.YAMLError):
            continue
        if isinstance(doc, dict) and isinstance(doc.get("id"), str):
            out[doc["id"]] = f
    return out


def _shown(path: Path) -> str:
    """The path as it can be typed here: `scenarios/...` from a checkout (or a folder linking its
    scenarios), else relative when below the working folder, else absolute."""
    local = Path("scenarios") / path.relative_to(catalogue_dir())
    try:
        if local.samefile(path):
            return str(local)
    except OSError:
        pass
    rel = os.path.relpath(path)
    return str(path) if rel.startswith("..") else rel


def missing_scenario_hint(spec: str) -> str:
    """'' or a clause for the end of a "no such file" line: the built-in file or folder `spec`
    names by id or by folder name, else the one it nearly names."""
    name = spec.rstrip("/")
    folder = catalogue_dir() / name
    if name and "/" not in name and folder.is_dir():
        return f"; the built-in catalogue's {name} folder is {_shown(folder)}"
    ids = _ids()
    if name in ids:
        return f"; that is the id of a built-in scenario: give its file, {_shown(ids[name])}"
    # Near misses: an id, or a file named by its folder and stem (elec/gen1_fault_reset_fail.yaml).
    candidates = dict(ids)
    candidates.update({f"{f.parent.name}/{f.stem}": f for f in ids.values()})
    p = Path(name)
    queries = [name, f"{p.parent.name}/{p.stem}"]
    best = max(((difflib.SequenceMatcher(None, q, c).ratio(), c) for q in queries for c in candidates),
               default=(0.0, ""))
    if best[0] >= _CUTOFF:
        return f"; did you mean {_shown(candidates[best[1]])}?"
    return ""
