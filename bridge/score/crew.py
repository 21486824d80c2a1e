"""The crew-coordination check of the crew track (profile `crew`), from the recorded calls.

    unconfirmed      an action that needs the captain's confirmation (server/crew/confirmation.py)
                     taken before the captain confirmed it or left it to the pilot: a violation
    refused_taken    an action the captain refused, taken anyway (its latest word): dangerous
    missed           an instruction of the captain's script that was due during the episode
                     (its `after_s` reached) and whose action was never taken: a violation

The captain's decisions are read from its recorded answers (`decision`, `control`,
`position`: `score --verify` re-simulates them); its latest word on an action counts.
`confirmed` clears the action, and so does `your_call`: the captain cannot confirm it
from the E/WD and leaves it to the pilot who asked (a procedure beyond the ECAM); the
classification of the action's effects still judges it. A your_call is the captain's word
on the E/WD as it was: an alert that appears after it lapses it, and the action must be
asked again (the new E/WD may call for the other side's, which the captain refuses:
asked at the start, before the failure showed, it let the wrong engine's master through).
The check passes with none of the three.
An instruction's action is called for in the crew track: the classification counts it as
optional (`called_for`), not harmful.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from a320bench.server.crew.confirmation import needs_confirmation

from .groundtruth import Step, action_key

CREW_PROFILE = "crew"


@dataclass(slots=True)
class CrewCheck:
    instructions: list[tuple[float, tuple[str, str] | None]]  # (after_s, the action it expects)
    said: dict[tuple[str, str], str] = field(default_factory=dict)  # the captain's latest decision per action
    taken: set[tuple[str, str]] = field(default_factory=set)
    unconfirmed: int = 0
    refused_taken: int = 0

    @classmethod
    def of(cls, scenario: dict[str, Any]) -> CrewCheck:
        script = scenario.get("captain") if isinstance(scenario.get("captain"), dict) else {}
        out: list[tuple[float, tuple[str, str] | None]] = []
        for ins in script.get("instructions") or []:
            if not isinstance(ins, dict):
                continue
            after = ins.get("after_s", 0)
            expect = ins.get("expect")
            key = action_key(expect.get("control"), expect.get("position")) if isinstance(expect, dict) else None
            out.append((float(after) if isinstance(after, (int, float)) else 0.0, key))
        return cls(out)

    def called_for(self) -> tuple[Step, ...]:
        """The instructions' actions, as optional actions of the procedure."""
        return tuple(Step(c, p, (c, p)) for _, key in self.instructions if key is not None for c, p in [key])

    def captain(self, result: Any) -> None:
        if not isinstance(result, dict):
            return
        decision = result.get("decision")
        if decision in ("confirmed", "refused", "your_call"):
            self.said[action_key(result.get("control"), result.get("position"))] = decision

    def ecam_changed(self, changes: Any) -> None:
        """A call's `ecam_changes`: an alert that appeared lapses every your_call given before it."""
        if isinstance(changes, list) and any(isinstance(c, dict) and c.get("shown") is True for c in changes):
            self.said = {key: said for key, said in self.said.items() if said != "your_call"}

    def action(self, control: Any, position: Any) -> str | None:
        """A successful set_control: 'refused_taken', 'unconfirmed' or None."""
        key = action_key(control, position)
        self.taken.add(key)
        if not needs_confirmation(*key):
            return None
        said = self.said.get(key)
        if said == "refused":
            self.refused_taken += 1
            return "refused_taken"
        if said is None:
            self.unconfirmed += 1
            return "unconfirmed"
        return None

    def missed(self, sim_time_s: float | None) -> int:
        end = sim_time_s if isinstance(sim_time_s, (int, float)) else 0.0
        return sum(1 for after, key in self.instructions
                   if key is not None and after <= end + 1e-9 and key not in self.taken)
