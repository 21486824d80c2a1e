"""Privileged tools of the `dev` profile: inject and clear failures, set the world, reset.

These reveal and change ground truth, so they live apart from the agent's tools
and are registered only on a `dev` server, which people use to probe the
simulator by hand and which is never scored. None of them takes simulated time.
"""

from typing import Annotated, Literal

from pydantic import Field
from mcp.server.mcpserver import Context

from ..sim import FAILURES, START_STATES, build
from ..sim.world import World
from .results import ActiveFailures, FailureCatalogue, FailureChange, FailureInfo, ResetResult, WorldChange
from .state import episode_of

FailureId = Literal[tuple(FAILURES)]  # type: ignore[valid-type]
WorldName = Literal[World.names()]  # type: ignore[valid-type]
StartState = Literal[tuple(START_STATES)]  # type: ignore[valid-type]


async def inject_failure(
    failure_id: Annotated[FailureId, Field(description="A failure id from list_failures.")], ctx: Context,
) -> FailureChange:
    """(dev) Break a component now. Its consequences show as simulated time passes (wait or act). Takes no simulated time."""
    ep = episode_of(ctx)
    ep.ac.inject_failure(failure_id)
    active = ep.ac.active_failures()
    return FailureChange(failure_id=failure_id, active=True, active_failures=active, sim_time_s=ep.sim_elapsed,
                         message=f"{failure_id} injected; wait or act to see its effects.")


async def clear_failure(
    failure_id: Annotated[FailureId, Field(description="A failure id from list_failures.")], ctx: Context,
) -> FailureChange:
    """(dev) Repair a failed component (no effect if it is not failed). Takes no simulated time."""
    ep = episode_of(ctx)
    ep.ac.clear_failure(failure_id)
    active = ep.ac.active_failures()
    return FailureChange(failure_id=failure_id, active=False, active_failures=active, sim_time_s=ep.sim_elapsed,
                         message=f"{failure_id} cleared; systems recover as simulated time passes.")


async def list_failures(ctx: Context) -> FailureCatalogue:
    """(dev) The catalogue of failures that can be injected."""
    return FailureCatalogue(failures=[FailureInfo.model_validate(f) for f in episode_of(ctx).ac.list_failures()])


async def active_failures(ctx: Context) -> ActiveFailures:
    """(dev) The failures active now (ground truth, never shown to a benchmarked agent)."""
    ep = episode_of(ctx)
    return ActiveFailures(failures=ep.ac.active_failures(), sim_time_s=ep.sim_elapsed)


async def set_world(
    name: Annotated[WorldName, Field(description="The world condition to set.")],
    value: Annotated[bool | float, Field(description="true/false for switches, a number for oat_isa_dev_c.")],
    ctx: Context,
) -> WorldChange:
    """(dev) Set a condition of the outside world: gpu_available (ground power plugged in), icing,
    oat_isa_dev_c (temperature deviation from ISA, deg C), ac_ess_auto_transfer (aircraft standard),
    min_safe_altitude_ft (the route's minimum safe altitude).
    Takes no simulated time."""
    ep = episode_of(ctx)
    ep.ac.world.set(name, value)
    now = getattr(ep.ac.world, name)
    return WorldChange(name=name, value=now, sim_time_s=ep.sim_elapsed, message=f"{name} is now {now}.")


async def reset(
    start_state: Annotated[StartState, Field(description="The start state to rebuild the aircraft in.")],
    ctx: Context,
) -> ResetResult:
    """(dev) Replace the aircraft with a fresh one in a start state (world conditions kept, no failures).
    The episode's clock and simulated-time budget restart at 0; the tool-call count does not."""
    ep = episode_of(ctx)
    world = {n: getattr(ep.ac.world, n) for n in World.names()}
    ep.replace_aircraft(build(start_state, world))
    return ResetResult(start_state=start_state, sim_time_s=ep.sim_elapsed,
                       message=f"Aircraft rebuilt in start state {start_state}.")
