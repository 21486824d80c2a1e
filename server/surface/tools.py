"""The agent's tools (the `benchmark` profile): look, act, wait, report.

Each tool is thin: it calls one simulator method on the episode from the
lifespan context and returns a pydantic result. Budgets, recording and error
translation happen once, in `dispatch.EpisodeServer.call_tool`; a tool simply
raises (a `SimError` becomes an error the agent reads).

Docstrings and `Field` descriptions are what the agent reads: they are written
for it. Developer notes go in `#` comments. Nothing here may name a failure,
a scenario, its procedure or its success criteria.
"""

from typing import Annotated, Literal

from pydantic import Field
from mcp.server.mcpserver import Context

from ..episode import ACTION_TIME_S, MAX_WAIT_S, MIN_WAIT_S
from ..sim import CONTROLS, PAGES
from .messages import capped
from .results import ControlChange, ControlPanel, DoneReceipt, EcamDisplay, SystemPage, WaitResult
from .state import episode_of, state_of
from .views import control_panel, ecam_display, system_page

# Enums generated from the simulator's catalogues: a name exists in one place only.
ControlName = Literal[tuple(CONTROLS)]  # type: ignore[valid-type]
Position = Literal[tuple(dict.fromkeys(p for c in CONTROLS.values() for p in c.positions))]  # type: ignore[valid-type]
PageName = Literal[tuple(PAGES)]  # type: ignore[valid-type]


def _t(x: float) -> str:
    return f"{x:g}"


async def read_ecam(ctx: Context) -> EcamDisplay:
    """Read the ECAM (warning and caution display). Takes no simulated time.

    Returns every active alert, most urgent first, with its level (3 warning,
    2 caution, 1 advisory caution) and the procedure lines still to do. An action
    line names a control, a dot leader and the action ("-ITEM......ACTION"). A
    line starting with "." is a condition: the lines after it apply only in that
    case. Lines disappear as they are done; an alert disappears when its cause
    is gone or its procedure is complete. Also returns memos and whether the
    STATUS page has content (status_reminder)."""
    return ecam_display(episode_of(ctx))


async def read_system_page(
    page: Annotated[PageName, Field(description="The system display page to read.")], ctx: Context,
) -> SystemPage:
    """Read one system display (SD) page, as the pilot sees it on the lower ECAM. Takes no simulated time.

    Pages: ELEC (generators, buses, batteries), HYD, FUEL, BLEED, COND, PRESS
    (cabin pressure), ENG, APU, FIRE, F/CTL (flight controls) and STATUS
    (limitations, inoperative systems and remaining procedures)."""
    return system_page(episode_of(ctx), page)


async def list_controls(ctx: Context) -> ControlPanel:
    """List every cockpit control you can move: its panel, its positions and the
    position it shows now. Takes no simulated time.

    Guarded controls have a cover (lifting it is part of the action). Momentary
    controls (e.g. IDG disconnect, RAT manual) act when pushed and spring back
    to their rest position; their effect shows on the system pages."""
    return control_panel(episode_of(ctx))


async def set_control(
    control: Annotated[ControlName, Field(description="The control's name, exactly as list_controls gives it.")],
    position: Annotated[Position, Field(description="One of this control's positions (see list_controls).")],
    ctx: Context,
) -> ControlChange:
    """Move one cockpit control to a position, as the pilot would. Takes 2 s of simulated time.

    The result says the position the control shows now, whether anything changed
    (false if it already was in that position) and the simulated time after the
    action. For a momentary control, setting its action position pushes it: it
    acts and springs back to its rest position. A position the control does not
    have is an error that changes nothing (it still uses a tool call). Some actions
    cannot be undone."""
    ep = episode_of(ctx)
    ac = ep.ac
    ctl = CONTROLS[control]
    previous = ac.controls[control]
    if position != (ctl.default if ctl.momentary else previous):
        ep.watch.before_command()  # what a moving command takes away is judged against the aircraft without it
    shown = ac.set_control(control, position)  # InvalidPositionError: the agent's mistake, reported as such
    pushed = ctl.momentary and position != ctl.default
    changed = pushed or (not ctl.momentary and shown != previous)
    took = ep.advance(ACTION_TIME_S)
    now = ep.sim_elapsed
    if pushed:
        what = f"{control} pushed ({position}); it springs back to {ctl.default}."
    elif ctl.momentary:
        what = f"{control} is a momentary control already at rest ({shown}): nothing was pushed."
    elif changed:
        what = f"{control} moved from {previous} to {shown}."
    else:
        what = f"{control} already was {shown}: nothing changed."
    msg = f"{what} The action took {_t(took)} s of simulated time; sim time is now {_t(now)} s."
    if ep.ended:
        msg += " The simulated-time budget is spent: the episode is over."
    return ControlChange(control=control, requested=position, previous=previous, position=shown, changed=changed,
                         momentary=ctl.momentary, pushed=pushed, action_time_s=took, sim_time_s=now,
                         episode_over=ep.ended is not None, message=msg)


async def wait(
    seconds: Annotated[float, Field(ge=MIN_WAIT_S, le=MAX_WAIT_S,
                                    description="Simulated seconds to let pass: 1 to 300 per call.")],
    ctx: Context,
) -> WaitResult:
    """Let simulated time pass without touching anything: 1 to 300 s per call (call again to wait longer).

    The simulation is frozen between tool calls, so anything that takes time (an
    engine or APU start, a system reset, a temperature falling, an alert
    confirming) only happens while you wait or act."""
    ep = episode_of(ctx)
    waited = ep.advance(seconds)
    now = ep.sim_elapsed
    msg = f"Waited {_t(waited)} s; sim time is now {_t(now)} s."
    if ep.ended:
        msg += " The simulated-time budget is spent: the episode is over."
    return WaitResult(requested_s=seconds, waited_s=waited, sim_time_s=now, episode_over=ep.ended is not None,
                      message=msg)


async def report_done(
    diagnosis: Annotated[str, Field(min_length=1, description="What failed, in your words.")],
    actions_summary: Annotated[str, Field(min_length=1, description="The actions you took, in order.")],
    ctx: Context,
) -> DoneReceipt:
    """Report that you have finished: your diagnosis and a summary of your actions.

    Call it once, when you have handled the situation or concluded that nothing
    more can be done. It ends the episode: after it, every tool returns an error."""
    # Kept as the call's record keeps it (cut past 10,000 characters): the final says no more than the
    # trajectory can show, so `score --verify` grades the same report.
    state_of(ctx).end_after_call = ("agent_done", capped({"diagnosis": diagnosis, "actions_summary": actions_summary}))
    # Deliberately says nothing about the outcome: the verdict is the harness's.
    return DoneReceipt(accepted=True, message="Report received. The episode is over; no further tool calls are accepted.")
