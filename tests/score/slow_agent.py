"""An agent that lets a failure run before it acts (`--agent tests/score/slow_agent.py:SlowEcam`): it waits
SLOW_S simulated seconds, then does what the ECAM shows, as the `ecam` baseline does. On a fire, that
is the harm by waiting a red team found passing as compliant success."""

from __future__ import annotations

from a320bench.bridge.providers.ecam import EcamProvider

SLOW_S = 600


class SlowEcam:
    async def run(self, view) -> None:
        left = SLOW_S
        while left > 0:
            step = min(left, 300)  # the wait tool's longest
            await view.tools.call("wait", {"seconds": step})
            left -= step
        await EcamProvider().run(view)


class FirstStepThenSlow:
    """Pushes the APU FIRE pushbutton at once (the first required action, in time), then lets the fire
    burn SLOW_S seconds before the agent and the master switch: the first action alone proves nothing."""

    async def run(self, view) -> None:
        await view.tools.call("set_control", {"control": "APU FIRE", "position": "RELEASED"})
        await SlowEcam().run(view)
