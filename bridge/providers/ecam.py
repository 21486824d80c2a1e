"""The ecam provider: executes the displayed ECAM action lines literally. No model, no judgement.

A baseline for reading without understanding (issue 13): it reads the ECAM,
takes the first line of the most urgent alert that it can map to a cockpit
control and has not executed yet, executes it, and reads again. A line maps by
its words alone: the item's words against the control names that
`list_controls` gives (the alert title breaks ties, e.g. which engine's
`AGENT 1`), the action against the control's positions through a few words of
cockpit vocabulary (`DISCH` pushes a squib, `P/B PUSH` releases a FIRE
pushbutton, `IGN` is `IGN START`). It does not evaluate condition lines
(`.IF DAMAGE :` and `.IF NO DAMAGE :` are both followed), reads no system page,
and knows nothing of the scenario. It waits the seconds a timed line names
(`-AGENT1 AFTER 10S`), waits when nothing maps, and reports the titles it saw
once the ECAM has offered nothing new for IDLE_LIMIT waits, or when the budget
ends the episode.

A scenario it passes measures ECAM reading; a scenario it fails needs judgement.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass
from typing import Any

from .base import AgentView

IDLE_WAIT_S = 30  # nothing to do: let time pass, as a literal reader watching the ECAM would
IDLE_LIMIT = 4  # this many idle waits in a row (two minutes) end the watch
MAX_STEPS = 500  # a bound of its own; the episode budget normally ends it first

# Cockpit vocabulary: an ECAM action word and the control positions it can mean, in preference order.
VERBS: dict[str, tuple[str, ...]] = {
    "DISCH": ("PUSH",),
    "PUSH": ("RELEASED", "PUSH"),
    "IGN": ("IGN START",),
    "MAN ON": ("PUSH", "MAN ON"),
    "START": ("ON",),
    "APPLY": ("ANNOUNCE",),
}
_LEADER = re.compile(r"\.{2,}")
_TIMER = re.compile(r"\bAFTER (\d+)S\b")
_WORD = re.compile(r"[A-Z0-9+]+")


@dataclass(frozen=True, slots=True)
class Move:
    control: str
    position: str


def words(text: str) -> list[str]:
    """Upper-case words; `P/B` and `(PA)` lose their punctuation, `LEVERS` its plural."""
    out = []
    for w in _WORD.findall(text.upper().replace("P/B", "PB")):
        out.append(w[:-1] if w.endswith("ERS") else w)
    return out


def split_line(line: str) -> tuple[str, str] | None:
    """`-GEN 1......OFF THEN ON` -> ("GEN 1", "OFF THEN ON"); None for a condition or information line."""
    if not line.startswith("-"):
        return None
    parts = _LEADER.split(line[1:], maxsplit=1)
    if len(parts) != 2:
        return line[1:].strip(), ""
    return parts[0].strip(), parts[1].strip()


def timer_s(item: str) -> int | None:
    """The seconds a timed line asks to wait (`AGENT1 AFTER 10S`), else None."""
    m = _TIMER.search(item)
    return int(m.group(1)) if m else None


class Matcher:
    """Maps an ECAM action line to control moves by its words, using only the control listing."""

    def __init__(self, controls: list[dict[str, Any]]):
        self.controls = {c["name"]: c for c in controls}
        self._words = {name: Counter(words(name)) for name in self.controls}

    def moves(self, item: str, action: str, title: str) -> list[Move]:
        items = self._expand(item)
        out: list[Move] = []
        for it in items:
            name = self._control(it, action, title)
            if name is None:
                return []
            positions = self._positions(name, it, action)
            if not positions:
                return []
            out.extend(Move(name, p) for p in positions)
        return out

    def _expand(self, item: str) -> list[str]:
        """`GEN 1+2` -> GEN 1, GEN 2; `THR LEVERS` -> THR LEVER 1, THR LEVER 2 (every numbered control)."""
        m = re.search(r"(\d)\+(\d)", item)
        if m:
            return [item.replace(m.group(0), m.group(1)), item.replace(m.group(0), m.group(2))]
        last = item.upper().split()[-1:]
        if last and last[0].endswith("ERS"):
            stem = " ".join(words(item))
            numbered = sorted(n for n in self.controls if re.fullmatch(re.escape(stem) + r" \d", n))
            if numbered:
                return numbered
        return [item]

    def _control(self, item: str, action: str, title: str) -> str | None:
        want = Counter(words(item))
        context = set(words(title)) | set(words(action))
        # Shared words count most. A control's other words count for it when the title or the
        # action names them (ENG 2 FIRE's AGENT 1 is ENG 2 AGENT 1) and against it otherwise;
        # words of the line the control lacks cost a little. No positive score, no control.
        best, best_score = None, 0
        for name, have in self._words.items():
            common = sum((have & want).values())
            if common == 0:
                continue
            extra = have - want
            score = 10 * common + sum(3 if w in context else -5 for w in extra.elements())
            score -= 2 * sum((want - have).values())
            if f" {' '.join(words(item))} " in f" {' '.join(words(name))} ":
                score += 5  # the item's words in the same order: `AGENT 1` is ENG n AGENT 1, not AGENT 2
            if score > best_score:
                best, best_score = name, score
        return best

    def _positions(self, name: str, item: str, action: str) -> list[str]:
        c = self.controls[name]
        positions = list(c["positions"])
        if action == "OFF THEN ON" and "OFF" in positions and "ON" in positions:
            return ["OFF", "ON"]
        if action in positions:
            return [action]
        for candidate in VERBS.get(action, ()):
            if candidate in positions:
                return [candidate]
        named = [p for p in positions if p in item.upper().split()]  # `XPDR 7700`
        return named[:1]


class EcamProvider:
    name = "ecam"
    model = None

    def meta(self) -> dict[str, Any]:
        return {"idle_wait_s": IDLE_WAIT_S, "idle_limit": IDLE_LIMIT}

    async def run(self, view: AgentView) -> str | None:
        tools = view.tools  # all it uses: the view carries no scenario to read
        listing = await tools.call("list_controls")
        controls = listing.data.get("controls", []) if isinstance(listing.data, dict) else []
        matcher = Matcher(controls)
        executed: set[tuple[str, str]] = set()
        titles: list[str] = []
        done: list[str] = []
        idle = 0
        for _ in range(MAX_STEPS):
            if tools.over:
                return None
            ecam = await tools.call("read_ecam")
            alerts = ecam.data.get("alerts", []) if isinstance(ecam.data, dict) else []
            for a in alerts:
                if a["title"] not in titles:
                    titles.append(a["title"])
            # A line executed once is skipped while it stays displayed; if it goes and comes
            # back (the pack overheats again), it is a new line to execute.
            executed &= {(a["title"], line) for a in alerts for line in a.get("lines", [])}
            step = self._next(alerts, matcher, executed)
            if step is None:
                if idle >= IDLE_LIMIT:
                    break
                idle += 1
                await tools.call("wait", {"seconds": IDLE_WAIT_S})
                continue
            idle = 0
            key, wait_s, moves = step
            if wait_s is not None:
                await tools.call("wait", {"seconds": max(1, wait_s)})
                continue
            executed.add(key)
            for mv in moves:
                if tools.over:
                    return None
                await tools.call("set_control", {"control": mv.control, "position": mv.position})
                done.append(f"{mv.control} {mv.position}")
        if not tools.over:
            await tools.call("report_done", {
                "diagnosis": "; ".join(titles) or "No ECAM alert seen.",
                "actions_summary": ", ".join(done) or "No action taken."})
        return None

    @staticmethod
    def _next(alerts: list[dict[str, Any]], matcher: Matcher, executed: set[tuple[str, str]]):
        """(key, seconds to wait or None, moves) for the first line to act on, most urgent alert first."""
        for a in alerts:
            for line in a.get("lines", []):
                key = (a["title"], line)
                parsed = split_line(line)
                if parsed is None or key in executed:
                    continue
                item, action = parsed
                wait_s = timer_s(item)
                if wait_s is not None:
                    return key, wait_s, []
                moves = matcher.moves(item, action, a["title"])
                if moves:
                    return key, None, moves
        return None
