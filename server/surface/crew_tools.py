"""The `crew` profile's tool: talk to the captain (server/crew/captain.py answers).

The docstring is what the agent reads: it states the crew's rule of confirmation,
which every scenario shares; nothing here names a scenario or its procedure.
"""

from typing import Annotated

from mcp.server.mcpserver import Context
from pydantic import Field

from .results import CaptainReply
from .state import state_of

MAX_MESSAGE_CHARS = 2000


async def captain(
    message: Annotated[str, Field(min_length=1, max_length=MAX_MESSAGE_CHARS,
                                  description="What you say to the captain, in plain words.")],
    ctx: Context,
) -> CaptainReply:
    """Talk to the captain, the pilot flying. Takes no simulated time.

    You are the pilot monitoring: you run the ECAM and the system pages; the captain
    flies and talks to ATC. Before an action that shuts an engine down or cannot be
    undone -- ENG MASTER OFF, a FIRE pushbutton RELEASED, a fire AGENT or CARGO AGENT
    PUSH, IDG DISC, RAT MAN ON or EMER ELEC PWR MAN ON PUSH, PAX OXY MASKS MAN ON,
    EMER EVAC ANNOUNCE -- ask the captain to confirm it, one action per message,
    naming the control and the position as list_controls gives them, e.g.
    "Confirm ENG MASTER 1 OFF". The captain judges from the ECAM as it is now: it
    confirms an action the ECAM calls for, refuses one with a reason (do not take
    an action the captain refused), or, for an action the ECAM does not show,
    leaves it to your judgement from the system pages ("your_call"). You can also
    ask for our status
    (altitude, speed, engines) and tell the captain what you found; the captain may
    give you instructions, which you carry out."""
    st = state_of(ctx)
    ep = st.episode
    answer = await st.captain.respond(message, ep)
    return CaptainReply(reply=answer.reply, decision=answer.decision, control=answer.control,
                        position=answer.position, instructions=list(answer.instructions), sim_time_s=ep.sim_elapsed)
