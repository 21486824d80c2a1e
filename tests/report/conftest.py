"""The report's tests build trajectories with the scoring tests' builder (tests/score/score_builder.py)."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "score"))
