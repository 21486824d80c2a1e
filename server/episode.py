"""One episode: the privileged state behind an agent's tool calls.

Holds the aircraft, the scenario, budgets, failures still to arrive, and the
recorder. The MCP tools call these methods; nothing here is agent-visible
except what the tools choose to return.

How simulated time passes (the contract agents are told in the instructions):
reads take no simulated time; every `set_control` takes ACTION_TIME_S of
simulated time so that its effect is visible in the answer; `wait(seconds)`
advances up to MAX_WAIT_S per call. The simulated-time budget caps the total.

Time always advances in the same chunks (CHUNK_S), whether or not a failure is
still to arrive, so the wall time of a `wait` says nothing about what is
scheduled: a timed failure splits only the chunk it arrives in, and a failure
waiting on a state predicate costs one variable read per chunk, for the whole
episode (before and after it arrives).

After every call the episode records what the call did to the aircraft
(`scenario.effects`): capabilities lost and removed, invariants violated by the
agent's doing (`scenario.invariants`). A violated invariant fails the verdict
even if the agent repaired it later; the end state's own invariants (speed
brakes left out) are read with the verdict.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from .scenario.effects import EffectsWatch, StartEffects
from .scenario.preconditions import PreconditionWatch
from .alert_log import AlertLog
from .scenario.hands_off import hands_off
from .scenario.harness import Gate, HoldWatch, evaluate_success, holds
from .scenario.invariants import at_end
from .scenario.model import FailureSpec, Scenario
from .sim import Aircraft
from .sim.aircraft import DT, STEADY_STEP_S
from .trajectory import Recorder

ACTION_TIME_S = 2.0
MAX_WAIT_S = 300.0
MIN_WAIT_S = 1.0
CHUNK_TICKS = round(STEADY_STEP_S / DT)  # the simulator's steady step: chunks never add ticks


def book_actions(sc: Scenario, *, with_captain: bool = False) -> frozenset[tuple[str, str]]:
    """The commands the scenario's procedure and optional actions call for (privileged: the effects
    watch uses them so that the book's own steps never count against the agent's invariants). With
    a captain (the crew profile), also what the captain's instructions ask for: the crew track counts
    those as called for too (bridge/score/crew.py)."""
    gt = sc.ground_truth
    steps = [*(s for block in gt.procedure for s in block.steps), *gt.optional_actions]
    also = [(s.control, p) for block in gt.procedure for s in block.steps for p in s.also]
    if with_captain and sc.captain is not None:
        steps += [i.expect for i in sc.captain.instructions if i.expect is not None]
    return frozenset([*((s.control, s.position) for s in steps), *also])


class EpisodeOver(Exception):
    """The episode has ended; `message` says why (shown to the agent)."""


class Episode:
    def __init__(self, scenario: Scenario, aircraft: Aircraft, gate: Gate, recorder: Recorder,
                 on_verdict: Callable[[dict[str, Any]], None] | None = None, *, with_captain: bool = False,
                 start_effects: StartEffects | None = None):
        """`start_effects`: what the effects watch measures of `aircraft` now, when the caller has it
        (a prepared setup keeps it)."""
        self.scenario = scenario
        self.ac = aircraft
        self.gate = gate
        self.recorder = recorder
        self.on_verdict = on_verdict
        self.start_sim_s = aircraft.sim_time
        self.baseline_controls = dict(aircraft.controls)  # for controls_unchanged success criteria
        self.tool_calls = 0
        self.agent_connected = False  # a client's MCP request was answered by this episode's HTTP server (http.py)
        self.seq = 0  # every recorded call, including those refused after the end
        self._in_call = False
        self._final_due = False  # the final event waits for the current call's record
        self.ended: str | None = None
        self.report: dict[str, Any] | None = None
        self.end_error: str | None = None  # what stopped an episode that did not end by the agent's doing
        self.final: dict[str, Any] | None = None
        self.pending: list[FailureSpec] = [f for f in scenario.failures if f.during_episode]
        self.polled = [f for f in self.pending if hasattr(f.trigger, "when")]
        self.budget = scenario.budget
        self.book = book_actions(scenario, with_captain=with_captain)
        self.watch = EffectsWatch(aircraft, self.book, start_effects)
        self.preconditions = PreconditionWatch(scenario)
        self._checked: list[dict[str, Any]] = []  # the current command's preconditions, for its record
        self.violations: list[dict[str, Any]] = []  # invariants violated, with the call and sim time
        self.alert_log = AlertLog(aircraft)  # ECAM onsets and clears for the report's timeline
        self.holds = HoldWatch(scenario, aircraft, self.sim_elapsed)

    def replace_aircraft(self, aircraft: Aircraft) -> None:
        """(dev reset) A new aircraft, a new time origin and baseline, no failures still to arrive."""
        self.ac = aircraft
        self.start_sim_s = aircraft.sim_time
        self.baseline_controls = dict(aircraft.controls)
        self.pending.clear()
        self.polled.clear()
        self.watch = EffectsWatch(aircraft, self.book)
        self.preconditions = PreconditionWatch(self.scenario)
        self.holds = HoldWatch(self.scenario, aircraft, self.sim_elapsed)

    # ---- time ------------------------------------------------------------------
    @property
    def sim_elapsed(self) -> float:
        return round(self.ac.sim_time - self.start_sim_s, 3)

    def advance(self, seconds: float) -> float:
        """Advance within the sim-time budget, delivering failures due meanwhile. Returns seconds advanced
        (whole simulator ticks)."""
        room = max(0.0, self.budget.max_sim_time_s - self.sim_elapsed)
        ticks = round(min(seconds, room) / DT)
        done = 0
        while done < ticks:
            step = min(ticks - done, CHUNK_TICKS)
            timed = self._ticks_to_timed_failure()
            if timed is not None and 0 < timed < step:
                step = timed  # only the chunk a timed failure arrives in is split
            self.ac.advance(step * DT)
            done += step
            self.alert_log.observe(self.ac, self.sim_elapsed, self.start_sim_s)
            self.holds.observe(self.ac, self.sim_elapsed)
            self._deliver_due()
        if self.sim_elapsed >= self.budget.max_sim_time_s - 1e-9:
            self.end("budget_sim_time")
        return round(done * DT, 3)

    def _ticks_to_timed_failure(self) -> int | None:
        due = [round((f.trigger.after_s - self.sim_elapsed) / DT) for f in self.pending if hasattr(f.trigger, "after_s")]
        return min(due) if due else None

    def _deliver_due(self) -> None:
        # Every predicate trigger of the scenario is read at every chunk, pending or not, so that a
        # failure's arrival does not change what a wait costs either.
        held = {id(spec): holds(self.ac, spec.trigger.when) for spec in self.polled}
        for spec in list(self.pending):
            trig = spec.trigger
            due = (self.sim_elapsed >= trig.after_s - 1e-9) if hasattr(trig, "after_s") else held[id(spec)]
            if due:
                self.watch.failure_arriving(spec.id)
                self.ac.inject_failure(spec.id)
                self.pending.remove(spec)

    # ---- budgets ----------------------------------------------------------------
    def begin_call(self) -> None:
        """Count a tool call; raise EpisodeOver if the episode is over or the budget is spent."""
        self._in_call = True
        if self.ended:
            raise EpisodeOver(self._over_message())
        self.tool_calls += 1
        if self.tool_calls > self.budget.max_tool_calls:
            self.tool_calls = self.budget.max_tool_calls
            self.end("budget_tool_calls")
            raise EpisodeOver(self._over_message())

    def _over_message(self) -> str:
        why = {
            "agent_done": "you reported done",
            "budget_tool_calls": f"the tool-call budget ({self.budget.max_tool_calls} calls) is spent",
            "budget_sim_time": f"the simulated-time budget ({self.budget.max_sim_time_s:g} s) is spent",
        }.get(self.ended or "", "it was ended by the harness")
        return f"The episode is over: {why}. No further actions are possible."

    def before_command(self, arguments: dict[str, Any]) -> None:
        """Judge the `when:` of the steps a `set_control` matches, from the state before it acts."""
        self._checked = self.preconditions.check(self.ac, arguments.get("control"), arguments.get("position"),
                                                 self.sim_elapsed)

    # ---- recording --------------------------------------------------------------
    def record_call(self, name: str, arguments: dict[str, Any], result: Any, is_error: bool,
                    sim_before: float, wall_start: float) -> None:
        self.seq += 1
        control = arguments.get("control") if name == "set_control" and not is_error else None
        position = arguments.get("position") if control is not None else None
        effects = self.watch.after_call(control if isinstance(control, str) else None,
                                        position if isinstance(position, str) else None)
        self.violations += [{"invariant": inv, "seq": self.seq, "sim_time_s": self.sim_elapsed}
                            for inv in effects["invariants_violated"]]
        checked, self._checked = (self._checked if control is not None else []), []
        if control is not None and isinstance(result, dict) and result.get("changed"):
            self.preconditions.commanded(control, position, sim_before)  # a control acts as the command begins
        self.recorder.write(
            "tool_call", seq=self.seq, name=name, arguments=arguments, result=result, is_error=is_error,
            sim_time_before_s=sim_before, sim_time_after_s=self.sim_elapsed, **effects,
            **({"preconditions": checked} if checked else {}),
            wall_ms=round((time.perf_counter() - wall_start) * 1000, 3),
            **self.alert_log.note(self.ac, self.sim_elapsed, self.start_sim_s),
        )
        self._in_call = False
        if self._final_due:
            self._final_due = False
            self._close()
        elif self.on_verdict is not None and self.final is None:  # after the end, the final verdict stands
            self.on_verdict(self.verdict(final=False))

    # ---- the end ------------------------------------------------------------------
    def end(self, reason: str, report: dict[str, Any] | None = None, error: str | None = None
            ) -> dict[str, Any] | None:
        """End the episode once: evaluate success and write the `final` event (`error`: what stopped
        it, for an end that is not the agent's doing).

        During a call, the verdict waits for the call's record (its effects count): the
        final is written then, and None is returned now. Asked again before that record
        (a call that never finished), the final is written at once."""
        if self.final is not None:
            return self.final
        if self.ended is None:
            self.ended = reason
            self.report = report
            self.end_error = error
            if self._in_call:
                self._final_due = True
                return None
        self._final_due = False
        return self._close()

    def finish(self, reason: str, error: str | None = None) -> dict[str, Any]:
        """The owner's end, once the agent is gone (run, serve, a client's bridge): end for `reason`
        unless the episode already ended, and write the final now -- a call that never recorded
        itself (cut short) holds nothing back any more."""
        self.end(reason, error=error)
        return self.end(reason, error=error)  # asked again: see end()

    def _close(self) -> dict[str, Any]:
        self.final = self.verdict()
        if self.end_error is not None:
            self.final["error"] = self.end_error
        self.recorder.write("final", **self.final)
        if self.on_verdict is not None:
            self.on_verdict(self.final)
        return self.final

    def _end_violations(self, snap: dict[str, Any]) -> list[dict[str, Any]]:
        """Invariants of the end state (speed brakes left out), as if the episode ended now."""
        return [{"invariant": inv, "seq": self.seq, "sim_time_s": self.sim_elapsed}
                for inv in at_end(snap, self.baseline_controls, self.book)]

    def verdict(self, final: bool = True) -> dict[str, Any]:
        """The verdict as it stands. The state hash (a replay check) is computed for the final
        verdict only: it costs more than the rest together, and a client call waits for it."""
        snap = self.ac.snapshot()  # one for all that reads the state: reading it changes nothing
        success = evaluate_success(self.ac, self.scenario, self.baseline_controls,
                                   self.violations + self._end_violations(snap),
                                   self.holds.held_for(self.sim_elapsed), snapshot=snap)
        if final:  # the end state must hold by itself, not only at the instant of the end
            # (read when the end passed: an outcome that failed there cannot pass; the flight costs ms)
            success["hands_off"] = hands_off(self.ac, self.scenario) if success["passed"] else None
            success["passed"] = success["passed"] and success["hands_off"]["passed"]
        return {
            "scenario_id": self.scenario.id,
            "gate": self.gate.to_dict(),
            "reason": self.ended,
            "report_done": self.report,
            "success": success,
            "final_ecam": self.ac.read_ecam(),
            "tool_calls_used": self.tool_calls,
            "sim_time_s": self.sim_elapsed,
            "state_hash": self.ac.state_hash(snap) if final else None,
        }
