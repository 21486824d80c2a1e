"""What the learning-track tests fly: one situation three times in a row, the scripted learner's chain."""

from __future__ import annotations

from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
LEARNER = f"{Path(__file__).with_name('learner.py')}:Learner"
SOURCE = ROOT / "scenarios" / "elec" / "gen1_fault_reset_works.yaml"


def pin_selection_order(monkeypatch: Any) -> None:
    """Chains flown in the selection's order, for tests that read positions or compare runs (a run draws each
    chain's order from the system's randomness: bridge/learning_track.py)."""
    monkeypatch.setattr("a320bench.bridge.learning_track.draw_order", list)


def repeated_scenarios(tmp_path: Path) -> Path:
    """Copies of one scenario under three ids (the chain's order when pinned: again_1, again_2, again_3)."""
    folder = tmp_path / "scenarios"
    folder.mkdir()
    text = SOURCE.read_text()
    for n in (1, 2, 3):
        (folder / f"again_{n}.yaml").write_text(text.replace("id: elec_gen1_fault_reset_works", f"id: again_{n}"))
    return folder
