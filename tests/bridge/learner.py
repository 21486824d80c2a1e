"""A scripted learner for the learning track's tests, loaded as a plug-in (`--agent tests/bridge/learner.py:Learner`).

It acts on an alert only once a learning of its own says that acting works. Not
knowing, it watches: it waits, reads the ECAM again and, seeing the alert still
there, saves that watching did not clear it. Told so by a learning, it does the
alert's action lines, and saves that they cleared it. It learns from what it sees
through the tools, nothing else.
"""

from __future__ import annotations

from a320bench.bridge.providers.ecam import Matcher, split_line

WATCHED = "watching did not clear it: do its ECAM action lines"


class Learner:
    async def run(self, view) -> None:
        tools = view.tools
        titles = [a["title"] for a in (await tools.call("read_ecam")).data["alerts"]]
        found = (await tools.call("retrieve_learnings", {"query": " ".join(titles) or "no alert"})).data
        act = any(WATCHED in note["text"] for note in found["learnings"])
        if act:
            matcher = Matcher((await tools.call("list_controls")).data["controls"])
            for alert in (await tools.call("read_ecam")).data["alerts"]:
                for line in alert["lines"]:
                    parsed = split_line(line)
                    for move in matcher.moves(*parsed, alert["title"]) if parsed else ():
                        await tools.call("set_control", {"control": move.control, "position": move.position})
        else:
            await tools.call("wait", {"seconds": 30})
        still = [a["title"] for a in (await tools.call("read_ecam")).data["alerts"]]
        for title in titles:
            if title in still and not act:
                await tools.call("save_learning", {"text": f"{title}: {WATCHED}."})
            elif title not in still and act:
                await tools.call("save_learning", {"text": f"{title}: its ECAM action lines cleared it."})
        await tools.call("report_done", {"diagnosis": "; ".join(titles) or "nothing",
                                         "actions_summary": "ECAM lines" if act else "watched"})
