"""The whole catalogue flown in-process, reduced to one digest per scenario and agent.

The golden file (`catalogue_golden.json`) pins what the harness records and how it
scores: a change to speed must change neither. For each scenario, three agents fly
it -- the scripted procedure, the seeded random walk (reads every kind of tool,
moves arbitrary controls) and the procedure followed by the harmful battery (the
effects and invariants) -- and each trajectory is normalised (wall-clock fields
dropped), then hashed with its scorecard.

    python -m tests.golden.catalogue_golden        # rewrite the golden (after a deliberate change)

Rewrite it only for a change in behaviour that is meant (and say so in the commit).
"""

from __future__ import annotations

import hashlib
import json
import sys
from collections.abc import Iterator
from dataclasses import asdict
from pathlib import Path
from typing import Any

import anyio

from a320bench.bridge.inprocess_episode import run_episode
from a320bench.bridge.providers.random_walk import RandomProvider
from a320bench.bridge.providers.scripted import ScriptedProvider
from a320bench.bridge.score.scorecard import score_file
from a320bench.server.scenario.loader import load
from a320bench.server.surface.profiles import load_profile

ROOT = Path(__file__).resolve().parents[2]
CATALOGUE = sorted((ROOT / "scenarios").glob("*/*.yaml"))
GOLDEN = Path(__file__).with_name("catalogue_golden.json")
VOLATILE = frozenset({"ts", "wall_ms", "latency_ms", "versions"})  # wall-clock and installed versions


def agents() -> dict[str, Any]:
    from tests.score.flight_bed import HarmfulAfterProcedure

    return {"scripted": ScriptedProvider(), "random": RandomProvider(seed=7), "harmful": HarmfulAfterProcedure()}


def normalised(path: Path) -> list[dict[str, Any]]:
    events = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
    return [{k: v for k, v in e.items() if k not in VOLATILE} for e in events]


def sha256_json(data: Any) -> str:
    return hashlib.sha256(json.dumps(data, sort_keys=True, separators=(",", ":")).encode()).hexdigest()


def fly(scenario_file: Path, agent_name: str, agent: Any, folder: Path) -> dict[str, str]:
    sc = load(scenario_file)
    path = folder / f"{sc.id}.{agent_name}.jsonl"

    async def go() -> None:
        await run_episode(sc, agent, profile=load_profile("benchmark"), path=path, episode_id=f"golden/{sc.id}",
                          seed=7)

    anyio.run(go)
    card = asdict(score_file(path, detail=True))
    card["path"] = sc.id
    card.pop("a320bench_version")  # the installed version: volatile, as the meta event's `versions`
    sid, sha, _version, *rest = card["identity"].split("|")  # scorecard.episode_identity's parts
    card["identity"] = "|".join([sid, sha, *rest[:-1]])  # the calls' hash is in the digest already
    return {"trajectory": sha256_json(normalised(path)), "scorecard": sha256_json(card)}


def digests(folder: Path, scenario_files: list[Path] = CATALOGUE) -> Iterator[tuple[str, dict[str, str]]]:
    """(`<scenario id>/<agent>`, its digests) for every scenario file and agent."""
    for f in scenario_files:
        for name, agent in agents().items():
            yield f"{f.parent.name}/{f.stem}/{name}", fly(f, name, agent, folder)


def main() -> int:
    import tempfile

    with tempfile.TemporaryDirectory() as d:
        table = dict(digests(Path(d)))
    GOLDEN.write_text(json.dumps(table, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    print(f"wrote {len(table)} digests to {GOLDEN.relative_to(ROOT)}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
