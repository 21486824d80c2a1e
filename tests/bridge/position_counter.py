"""A learning-track plug-in that names its scenario from its place in the chain (tests/bridge/test_learning_position_leak.py).

Each episode saves a note; the notes it retrieves say in which episode each was saved, so the
newest tells this episode's place in the chain. Were the chain flown in the selection's order, which
an agent built for the benchmark knows (the catalogue is public), the place would name the scenario."""

from __future__ import annotations

ORDER = ("again_1", "again_2", "again_3")  # the selection, as the user gave it


class PositionCounter:
    async def run(self, view) -> None:
        tools = view.tools
        found = (await tools.call("retrieve_learnings", {"query": "mark"})).data["learnings"]
        place = max((note["saved_in_episode"] for note in found), default=0)
        await tools.call("save_learning", {"text": "mark"})
        guess = ORDER[place] if place < len(ORDER) else "unknown"
        await tools.call("report_done", {"diagnosis": guess, "actions_summary": "none"})
