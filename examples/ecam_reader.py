"""An example plug-in agent: a rule-based ECAM reader that looks before it acts.

    a320-bench run --agent examples/ecam_reader.py:EcamReader --scenario scenarios/elec

For each alert, most urgent first, it reads the alert's system page, then does the
alert's action lines in order up to its first condition. It follows a condition
only when it can check it: `.IF UNSUCCESSFUL` after waiting and reading the ECAM
again (is the alert still there?); any other condition (`.IF DAMAGE`, `.IF NO FUEL
LEAK`...) it cannot judge from the ECAM alone, so it leaves those lines to a pilot
and says so in its report. No model: it reports zero tokens, to show how usage is
reported.

It builds on the package's ECAM line parser (the `ecam` baseline's), which maps
an action line to cockpit controls by their names.
"""

from __future__ import annotations

from typing import Any

from a320bench.bridge.providers.base import AgentConfig, AgentView
from a320bench.bridge.providers.ecam import Matcher, split_line, timer_s

# The system page that shows an alert's system, by the first word of its title.
PAGE_OF = {"ELEC": "ELEC", "HYD": "HYD", "FUEL": "FUEL", "AIR": "BLEED", "ANTI": "BLEED", "WING": "BLEED",
           "CAB": "PRESS", "ENG": "ENG", "APU": "APU", "F/CTL": "F/CTL", "SMOKE": "COND", "VENT": "COND"}
RESET_WAIT_S = 30  # before judging `.IF UNSUCCESSFUL`: a reset takes seconds to show
MAX_ALERTS = 12


class EcamReader:
    model = None  # no model; a plug-in that calls one names it here (recorded as meta.model)

    def __init__(self, careful: bool = True):
        self.careful = careful

    @classmethod
    def from_config(cls, config: AgentConfig) -> EcamReader:
        return cls()  # nothing on the command line changes it

    def meta(self) -> dict[str, Any]:
        return {"reset_wait_s": RESET_WAIT_S}

    async def run(self, view: AgentView) -> None:
        tools = view.tools
        listing = await tools.call("list_controls")
        matcher = Matcher(listing.data["controls"])
        handled: list[str] = []
        actions: list[str] = []
        left: list[str] = []  # conditions it could not check
        for _ in range(MAX_ALERTS):
            if tools.over:
                return
            alerts = (await tools.call("read_ecam")).data["alerts"]
            alert = next((a for a in alerts if a["title"] not in handled), None)
            if alert is None:
                break
            title = alert["title"]
            handled.append(title)
            page = PAGE_OF.get(title.split()[0])
            if page:
                await tools.call("read_system_page", {"page": page})  # look before acting
            for condition, lines in segments(alert["lines"]):
                if condition is not None:
                    if "UNSUCCESSFUL" not in condition:
                        left.append(f"{title} {condition}")
                        break
                    await tools.call("wait", {"seconds": RESET_WAIT_S})
                    now = (await tools.call("read_ecam")).data["alerts"]
                    if all(a["title"] != title for a in now):
                        break  # it worked: the lines below are not needed
                for item, action in lines:
                    wait_s = timer_s(item)
                    if wait_s is not None:
                        await tools.call("wait", {"seconds": wait_s})
                    for move in matcher.moves(item, action, title):
                        if tools.over:
                            return
                        await tools.call("set_control", {"control": move.control, "position": move.position})
                        actions.append(f"{move.control} {move.position}")
        view.add_usage(input_tokens=0, output_tokens=0, cost_usd=0.0)
        if not tools.over:
            summary = ", ".join(actions) or "No action taken."
            if left:
                summary += ". Not done (could not check): " + "; ".join(left)
            await tools.call("report_done", {"diagnosis": "; ".join(handled) or "No ECAM alert.",
                                             "actions_summary": summary})


def segments(lines: list[str]) -> list[tuple[str | None, list[tuple[str, str]]]]:
    """An alert's lines cut at its conditions: [(None, actions), (".IF ...", actions), ...]."""
    out: list[tuple[str | None, list[tuple[str, str]]]] = [(None, [])]
    for line in lines:
        if line.startswith("."):
            out.append((line, []))
            continue
        parsed = split_line(line)
        if parsed is not None:
            out[-1][1].append(parsed)
    return out
