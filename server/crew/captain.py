"""The scripted captain of the `crew` profile: deterministic, and it never reveals the ground truth.

The agent is the pilot monitoring; the captain flies and talks to ATC. What the
captain says comes from three places only:

- the rule of confirmation (confirmation.py): an action that needs it is confirmed
  when the scenario calls for it (its procedure, optional actions or one of the
  captain's own instructions), and refused otherwise -- with the reason the
  scenario's captain script gives for that action, or in general words;
- the aircraft's state, as the pilots see it (altitude, speed, which engines run);
- the scenario's captain script: instructions, given with the first answer from
  their time on (`after_s`), and refusal reasons.

It never names a failure, the procedure or a success criterion: its words are these
templates, the state's numbers and the script's text, which the no-leak sweep reads
(tests/surface/test_surface_no_leak.py). Confirming or refusing a proposed action is
the captain's job, as on a real flight deck.

A captain answers with a `CaptainAnswer`: what it says, and what it decided about
which action (the scorer's crew check reads the decision from the trajectory).
`LlmCaptain` (bridge/crew_llm.py) keeps these decisions and only words them.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, Literal, Protocol

from ..scenario.model import CaptainScript, Scenario
from ..sim import CONTROLS
from .confirmation import NEEDS_CONFIRMATION, needs_confirmation

Decision = Literal["confirmed", "refused", "go_ahead", "say_again", "status", "standing_by"]

GREETING = ("Captain here: I have the controls and the radios, you have the ECAM. Before anything we cannot "
            "undo, ask me to confirm it: name the control and the position.")
GENERIC_REFUSAL = ("I see no reason for it. Check the ECAM and the system pages again before anything we "
                   "cannot undo.")
_STATUS = re.compile(r"\b(STATUS|ALTITUDE|LEVEL|SPEED|ENGINES?|WHERE|SITUATION|HEIGHT)\b")


@dataclass(frozen=True, slots=True)
class CaptainAnswer:
    reply: str
    decision: Decision
    control: str | None = None
    position: str | None = None
    instructions: tuple[str, ...] = field(default=())


class Captain(Protocol):
    async def respond(self, message: str, episode: Any) -> CaptainAnswer:
        ...


def _pattern(name: str) -> re.Pattern[str]:
    return re.compile(r"(?<![A-Z0-9])" + re.escape(name) + r"(?![A-Z0-9])")


# Longest names first: `ENG 1 FIRE TEST` is found before `ENG 1 FIRE` can claim its words.
_CONTROLS = sorted(((name, _pattern(name)) for name in CONTROLS), key=lambda item: -len(item[0]))
_POSITIONS = {name: sorted(((p, _pattern(p)) for p in c.positions), key=lambda item: -len(item[0]))
              for name, c in CONTROLS.items()}


def parse_action(message: str) -> tuple[str | None, str | None]:
    """The action a message names: the first control followed by one of its positions (before the next
    control named), else a control named alone and the position said before it, else (None, None)."""
    text = " ".join(message.upper().split())
    taken: list[tuple[int, int]] = []
    found: list[tuple[int, int, str]] = []
    for name, pat in _CONTROLS:
        for m in pat.finditer(text):
            if not any(m.start() < b and a < m.end() for a, b in taken):
                taken.append(m.span())
                found.append((m.start(), m.end(), name))
    found.sort()
    for i, (_, end, control) in enumerate(found):
        stop = found[i + 1][0] if i + 1 < len(found) else len(text)
        position = _first_position(control, text[end:stop])
        if position is not None:
            return control, position
    if len(found) == 1:
        start, _, control = found[0]
        return control, _first_position(control, text[:start])
    return (found[0][2], None) if found else (None, None)


def _first_position(control: str, part: str) -> str | None:
    hits = [(m.start(), -len(pos), pos) for pos, pat in _POSITIONS[control] for m in [pat.search(part)] if m]
    return min(hits)[2] if hits else None


_REQUEST = re.compile(r"\b(CONFIRM|REQUEST|PERMISSION|APPROVE|AGREE)\b")


class ScriptedCaptain:
    """One episode's captain (it remembers which instructions it gave)."""

    def __init__(self, scenario: Scenario):
        gt = scenario.ground_truth
        script = scenario.captain or CaptainScript()
        called_for = {(s.control, s.position) for b in gt.procedure for s in b.steps}
        called_for |= {(s.control, s.position) for s in gt.optional_actions}
        called_for |= {(i.expect.control, i.expect.position) for i in script.instructions if i.expect}
        self._confirmable = frozenset(a for a in called_for if needs_confirmation(*a))
        self._reasons = {(r.control, r.position): r.reason for r in script.refusals}
        self._instructions = list(script.instructions)
        self._given: set[int] = set()
        self._spoken = False

    async def respond(self, message: str, episode: Any) -> CaptainAnswer:
        return self.decide(message, episode.ac, episode.sim_elapsed)

    def decide(self, message: str, ac: Any, elapsed_s: float) -> CaptainAnswer:
        control, position = parse_action(message)
        if control is not None and position is None and control in NEEDS_CONFIRMATION and \
                _REQUEST.search(message.upper()):
            answer = CaptainAnswer(f"Say again: {control} to which position?", "say_again", control)
        elif control is not None and position is not None:
            answer = self._on_action(control, position)
        elif _STATUS.search(message.upper()) or "?" in message:
            answer = CaptainAnswer(status(ac), "status")
        else:
            answer = CaptainAnswer("Copy." if self._spoken else GREETING, "standing_by")
        self._spoken = True
        return self._with_instructions(answer, elapsed_s)

    def _on_action(self, control: str, position: str) -> CaptainAnswer:
        if not needs_confirmation(control, position):
            return CaptainAnswer(f"{control} {position}: your call, that needs no confirmation.", "go_ahead",
                                 control, position)
        if (control, position) in self._confirmable:
            return CaptainAnswer(f"Confirmed: {control} {position}. Go ahead.", "confirmed", control, position)
        reason = self._reasons.get((control, position), GENERIC_REFUSAL)
        return CaptainAnswer(f"Negative, not {control} {position}: {reason}", "refused", control, position)

    def _with_instructions(self, answer: CaptainAnswer, elapsed_s: float) -> CaptainAnswer:
        due = [i for i, ins in enumerate(self._instructions)
               if i not in self._given and ins.after_s <= elapsed_s + 1e-9]
        if not due:
            return answer
        self._given.update(due)
        said = tuple(self._instructions[i].say for i in due)
        return CaptainAnswer(" ".join((answer.reply, *said)), answer.decision, answer.control, answer.position, said)


def status(ac: Any) -> str:
    """Where we are and how, as the pilots see it on their displays."""
    alt = float(ac.get("flight.altitude_ft"))
    ias = round(float(ac.get("flight.ias_kt")))
    vs = float(ac.get("flight.vs_fpm"))
    if ac.get("flight.on_ground"):
        where = f"We are on the ground, {ias} kt."
    else:
        level = f"FL{round(alt / 100):03d}" if alt >= 10000 else f"{round(alt, -1):,.0f} ft"
        motion = "level at" if abs(vs) < 100 else ("climbing through" if vs > 0 else "descending through")
        where = f"We are {motion} {level}, {ias} kt."
    engines = ", ".join(f"engine {n} {'running' if ac.get(f'eng{n}.running') else 'not running'}" for n in (1, 2))
    return f"{where} {engines[0].upper()}{engines[1:]}."
