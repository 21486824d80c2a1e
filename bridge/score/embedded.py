"""Does a trajectory's scenario agree with itself? What plain `score` can check without the simulator.

The server writes `meta.scenario` (the scenario as flown), `meta.scenario_sha256` (the sha256 of its
JSON with sorted keys, server/session.py) and `setup.ground_truth` (its ground truth, which scoring
reads). An edit of the ground truth that forgot the hash, or of the setup alone, shows here; one that
re-hashed a consistent edit does not (`score --verify` compares with the catalogue).
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

import orjson

_AGREED: dict[bytes, str] = {}  # an embedded scenario (orjson's bytes) -> the sha256 it was found to have
_AGREED_MAX = 4096  # distinct scenarios kept; a catalogue has about a hundred, each file repeats one


def sha256_of(scenario: dict[str, Any]) -> str | None:
    """The sha256 the server records for this scenario (None if it cannot be told)."""
    try:
        return hashlib.sha256(json.dumps(scenario, sort_keys=True).encode()).hexdigest()
    except (TypeError, ValueError):
        return None


def hash_agrees(scenario: dict[str, Any], recorded: str) -> bool:
    """Whether `recorded` is the sha256 of `scenario`. Hashing costs about 40 us a file; every episode of a
    scenario embeds the same dict, so a hash once found right is remembered by orjson's bytes of the
    dict (about 1 us). Those bytes write NaN as null: a file whose scenario differs from one seen only by
    a NaN in place of a null is taken as agreeing, an edit that changes nothing scoring reads."""
    try:
        key: bytes | None = orjson.dumps(scenario)
    except TypeError:  # an integer beyond 64 bits
        key = None
    if key is not None and _AGREED.get(key) == recorded:
        return True
    if sha256_of(scenario) != recorded:
        return False
    if key is not None:
        if len(_AGREED) >= _AGREED_MAX:
            _AGREED.clear()
        _AGREED[key] = recorded
    return True


def disagreement(meta: dict[str, Any], setup: dict[str, Any] | None) -> str | None:
    """Why the file's scenario does not agree with itself, or None."""
    scenario = meta.get("scenario")
    recorded = meta.get("scenario_sha256")
    # The server writes both, always: without them an edit of the scenario (its captain's instructions,
    # which the crew check reads) had nothing to disagree with.
    if not isinstance(scenario, dict):
        return "meta.scenario is missing: the server embeds the scenario it flew"
    if not isinstance(recorded, str):
        return "meta.scenario_sha256 is missing: the server records the embedded scenario's"
    if not hash_agrees(scenario, recorded):
        return "meta.scenario_sha256 is not the sha256 of the embedded scenario"
    if "scenario_id" in meta and meta["scenario_id"] != scenario.get("id"):
        # scored as the scenario it embeds (scorecard.py): a copy relabelled as another scenario gains nothing
        return f"meta.scenario_id {meta['scenario_id']!r} is not the embedded scenario's id {scenario.get('id')!r}"
    if isinstance(setup, dict) and "ground_truth" in setup and setup["ground_truth"] != scenario.get("ground_truth"):
        return "setup.ground_truth is not the embedded scenario's"
    return None
