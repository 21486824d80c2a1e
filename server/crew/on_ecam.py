"""Which actions needing confirmation the E/WD asks for now: the captain's only evidence for one.

The captain reads the E/WD as the pilots do (`Aircraft.read_ecam`, the text `read_ecam`
returns) and looks for action lines, `-ITEM.....ACTION`, that ask for one of the actions
of confirmation.py. A line names its item as the aircraft's placards do, not as the
control list does (`ENG 1 FIRE P/B ... PUSH` is the ENG 1 FIRE pushbutton RELEASED), and a
fire agent's line names the bottle alone: the alert it is under names the engine, the APU
or the cargo hold. Both tables below are written from the ECAM catalogue
(server/sim/ecam/alerts_*.py); tests/bridge/test_crew.py checks that they cover every
such line the catalogue can display and that every entry names an action of the rule.

A conditional line (`.IF DAMAGE :`) counts while displayed: the pilots judge the condition.

The captain also reads which engine side the displayed alerts' titles name (`ENG 1 FIRE`,
`ELEC IDG 2 OIL LO PR`, `AIR ENG 1 BLEED FAULT`): once a drill's lines are done its title
stays, and it still tells the good engine from the failed one.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

Action = tuple[str, str]

# (item, action) as an E/WD line reads, under any alert -> the control and position it asks for.
LINES: dict[tuple[str, str], Action] = {
    ("ENG MASTER 1", "OFF"): ("ENG MASTER 1", "OFF"),
    ("ENG MASTER 2", "OFF"): ("ENG MASTER 2", "OFF"),
    ("ENG 1 FIRE P/B", "PUSH"): ("ENG 1 FIRE", "RELEASED"),
    ("ENG 2 FIRE P/B", "PUSH"): ("ENG 2 FIRE", "RELEASED"),
    ("APU FIRE P/B", "PUSH"): ("APU FIRE", "RELEASED"),
    ("IDG 1", "DISC"): ("IDG 1", "DISC"),
    ("IDG 2", "DISC"): ("IDG 2", "DISC"),
    ("RAT", "MAN ON"): ("RAT MAN ON", "PUSH"),
    ("EMER ELEC PWR", "MAN ON"): ("EMER ELEC PWR MAN ON", "PUSH"),
    ("PAX OXY MASKS", "MAN ON"): ("PAX OXY MASKS", "MAN ON"),
    # The on-ground ENG FIRE line: the evacuation is what clears it (alerts_fire.py).
    ("EMER EVAC PROC", "APPLY"): ("EMER EVAC", "ANNOUNCE"),
}

# (alert title, item) of a `...DISCH` line -> the agent pushbutton it asks to PUSH.
AGENT_LINES: dict[tuple[str, str], str] = {
    ("ENG 1 FIRE", "AGENT 1"): "ENG 1 AGENT 1",
    ("ENG 1 FIRE", "AGENT 2"): "ENG 1 AGENT 2",
    ("ENG 2 FIRE", "AGENT 1"): "ENG 2 AGENT 1",
    ("ENG 2 FIRE", "AGENT 2"): "ENG 2 AGENT 2",
    ("ENG 1 FAIL", "AGENT 1"): "ENG 1 AGENT 1",  # under `.IF DAMAGE :`
    ("ENG 2 FAIL", "AGENT 1"): "ENG 2 AGENT 1",
    ("APU FIRE", "AGENT"): "APU AGENT",
    ("SMOKE FWD CARGO SMOKE", "AGENT"): "CARGO AGENT",
}

_ACTION_LINE = re.compile(r"^-(?P<item>.+?)\.{2,}(?P<action>[^.].*)$")
# While the agent's timer runs the line reads `-AGENT1 AFTER 10S..DISCH`: the same agent, to push later.
_TIMED_AGENT = re.compile(r"^AGENT ?(?P<bottle>\d?) AFTER \d+S$")


def action_line(text: str) -> tuple[str, str] | None:
    """(item, action) of an E/WD action line, the agent's timer dropped; None for any other line."""
    m = _ACTION_LINE.match(text.strip())
    if m is None:
        return None
    item, action = m["item"].strip(), m["action"].strip()
    timed = _TIMED_AGENT.match(item)
    if timed is not None:
        item = f"AGENT {timed['bottle']}" if timed["bottle"] else "AGENT"
    return item, action


def asked_for_in(alerts: Iterable[dict[str, Any]]) -> frozenset[Action]:
    """The actions of the tables that these displayed alerts' lines ask for (read_ecam's `alerts`)."""
    out: set[Action] = set()
    for alert in alerts:
        for text in alert.get("lines", ()):
            line = action_line(text)
            if line is None:
                continue
            if line in LINES:
                out.add(LINES[line])
            elif line[1] == "DISCH" and (alert.get("title"), line[0]) in AGENT_LINES:
                out.add((AGENT_LINES[(alert["title"], line[0])], "PUSH"))
    return frozenset(out)


# An engine side as an alert title names it: the engine, its generator, its IDG, its bleed, its pump, its
# anti-ice valve (`HYD G ENG 1 PUMP LO PR`). `AC BUS 1`, `PACK 1`, `TR 1`, `SEC 1` are not an engine's.
_SIDE = re.compile(r"(?<![A-Z0-9])(?:ENG|GEN|IDG) (?P<n>[12])(?![A-Z0-9+])")


def sides_named(title: str) -> frozenset[int]:
    """The engine sides (1, 2) an alert title names."""
    return frozenset(int(m["n"]) for m in _SIDE.finditer(title))


def sides_on_ewd(ac: Any) -> frozenset[int]:
    """The engine sides the alerts displayed on this aircraft's E/WD name, together."""
    return frozenset(n for alert in ac.read_ecam()["alerts"] for n in sides_named(str(alert.get("title", ""))))


def asked_for(ac: Any) -> frozenset[Action]:
    """What the E/WD of this aircraft asks for now, of the actions needing confirmation."""
    return asked_for_in(ac.read_ecam()["alerts"])
