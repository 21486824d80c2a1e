"""The scripted captain of the `crew` profile: deterministic, and it never reveals the ground truth.

The agent is the pilot monitoring; the captain flies and talks to ATC. The captain
decides an action that needs confirmation (confirmation.py) as a real captain does,
from what the pilots see now, never from the scenario:

- confirmed when the E/WD displays a line asking for exactly that control and
  position (on_ecam.py), or when one of the captain's own instructions, already
  given, asks for it;
- refused when the E/WD asks for the same action on the other side (ENG MASTER 2
  OFF while it shows ENG MASTER 1 OFF), when the action is an engine side's and the
  E/WD's alerts name only the other side in flight (ENG 2 AGENT 1 PUSH or IDG 2 DISC
  once ENG 1 FIRE's lines are done: its title still names engine 1), or when the action shuts
  down the only engine running in flight and the E/WD does not ask for it;
- otherwise your_call: the captain cannot confirm it from the E/WD, the pilot
  monitoring judges from the system pages (a procedure beyond the ECAM).

An agent that asks about every action before looking learns only what the E/WD
shows, which read_ecam shows it anyway. The rest of what the captain says comes from
the aircraft's state as the pilots see it (altitude, speed, which engines run) and
from the scenario's captain script: instructions, given with the first answer from
their time on (`after_s`). Its words are these templates, the state's numbers and the
script's text, which the no-leak sweep reads (tests/surface/test_surface_no_leak.py).

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
from .on_ecam import asked_for, sides_on_ewd

# confirmed, refused, your_call: an action that needs confirmation; go_ahead: one that needs none.
Decision = Literal["confirmed", "refused", "your_call", "go_ahead", "say_again", "status", "standing_by"]

GREETING = ("Captain here: I have the controls and the radios, you have the ECAM. Before anything we cannot "
            "undo, ask me to confirm it: name the control and the position.")
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
        # The scenario gives the captain its script (what it says and when), never its procedure.
        self._instructions = list((scenario.captain or CaptainScript()).instructions)
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
            answer = self._on_action(control, position, ac)
        elif _STATUS.search(message.upper()) or "?" in message:
            answer = CaptainAnswer(status(ac), "status")
        else:
            answer = CaptainAnswer("Copy." if self._spoken else GREETING, "standing_by")
        self._spoken = True
        return self._with_instructions(answer, elapsed_s)

    def _on_action(self, control: str, position: str, ac: Any) -> CaptainAnswer:
        if not needs_confirmation(control, position):
            return CaptainAnswer(f"{control} {position}: your call, that needs no confirmation.", "go_ahead",
                                 control, position)
        shown = asked_for(ac)
        if (control, position) in shown or (control, position) in self._instructed():
            return CaptainAnswer(f"Confirmed: {control} {position}. Go ahead.", "confirmed", control, position)
        reason = _refusal(control, position, shown, ac)
        if reason is not None:
            return CaptainAnswer(f"Negative, not {control} {position}: {reason}", "refused", control, position)
        return CaptainAnswer(f"Not on the ECAM: I cannot confirm {control} {position} from here. If the system "
                             "pages show it, your call.", "your_call", control, position)

    def _instructed(self) -> set[tuple[str, str]]:
        """What the captain's own instructions, already given, ask for."""
        return {(e.control, e.position) for i in self._given
                for e in [self._instructions[i].expect] if e is not None}

    def _with_instructions(self, answer: CaptainAnswer, elapsed_s: float) -> CaptainAnswer:
        due = [i for i, ins in enumerate(self._instructions)
               if i not in self._given and ins.after_s <= elapsed_s + 1e-9]
        if not due:
            return answer
        self._given.update(due)
        said = tuple(self._instructions[i].say for i in due)
        return CaptainAnswer(" ".join((answer.reply, *said)), answer.decision, answer.control, answer.position, said)


# The same action on the other side: ENG MASTER 1 <-> ENG MASTER 2, ENG 1 AGENT 2 <-> ENG 2 AGENT 2, ...
_SIDES = ("ENG MASTER {}", "ENG {} FIRE", "ENG {} AGENT 1", "ENG {} AGENT 2", "IDG {}")
OTHER_SIDE = {c.format(n): c.format(3 - n) for c in _SIDES for n in (1, 2)}
SIDE_OF = {c.format(n): n for c in _SIDES for n in (1, 2)}
# Actions that shut engine n down: the captain keeps the only engine running in flight.
_SHUTS_DOWN = {("ENG MASTER 1", "OFF"): 1, ("ENG MASTER 2", "OFF"): 2, ("ENG 1 FIRE", "RELEASED"): 1,
               ("ENG 2 FIRE", "RELEASED"): 2}


def _refusal(control: str, position: str, shown: frozenset[tuple[str, str]], ac: Any) -> str | None:
    """Why the captain refuses an action the E/WD does not ask for, or None (then it is the pilot's call)."""
    other = OTHER_SIDE.get(control)
    if other is not None and (other, position) in shown:
        return f"the ECAM calls for {other} {position}."
    n = _SHUTS_DOWN.get((control, position))
    if n is not None and not ac.get("flight.on_ground") and ac.get(f"eng{n}.running") \
            and not ac.get(f"eng{3 - n}.running"):
        return f"engine {n} is our only running engine, and the ECAM does not call for it."
    side = SIDE_OF.get(control)
    # In flight only: on the ground the evacuation shuts both engines down (EMER EVAC: all FIRE P/B).
    if side is not None and not ac.get("flight.on_ground") and sides_on_ewd(ac) == {3 - side}:
        return f"the ECAM's alerts name engine {3 - side}, not engine {side}."
    return None


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
