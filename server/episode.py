"""One episode: the privileged state behind an agent's tool calls.

Holds the aircraft, the scenario, budgets, failures still to arrive, and the
recorder. The MCP tools call these methods; nothing here is agent-visible
except what the tools choose to return.

How simulated time passes (the contract agents are told in the instructions):
reads take no simulated time; every `set_control` takes ACTION_TIME_S of
simulated time so that its effect is visible in the answer; `wait(seconds)`
advances up to MAX_WAIT_S per call. The simulated-time budget caps the total.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from .alert_log import AlertLog
from .scenario.harness import Gate, evaluate_success, holds
from .scenario.model import FailureSpec, Scenario
from .sim import Aircraft
from .trajectory import Recorder

ACTION_TIME_S = 2.0
MAX_WAIT_S = 300.0
MIN_WAIT_S = 1.0


class EpisodeOver(Exception):
    """The episode has ended; `message` says why (shown to the agent)."""


class Episode:
    def __init__(self, scenario: Scenario, aircraft: Aircraft, gate: Gate, recorder: Recorder,
                 on_verdict: Callable[[dict[str, Any]], None] | None = None):
        self.scenario = scenario
        self.ac = aircraft
        self.gate = gate
        self.recorder = recorder
        self.on_verdict = on_verdict
        self.start_sim_s = aircraft.sim_time
        self.baseline_controls = dict(aircraft.controls)  # for controls_unchanged success criteria
        self.tool_calls = 0
        self.seq = 0  # every recorded call, including those refused after the end
        self._in_call = False
        self._final_due = False  # the final event waits for the current call's record
        self.ended: str | None = None
        self.report: dict[str, Any] | None = None
        self.final: dict[str, Any] | None = None
        self.pending: list[FailureSpec] = [f for f in scenario.failures if f.during_episode]
        self.budget = scenario.budget
        self.alert_log = AlertLog(aircraft)  # ECAM onsets and clears for the report's timeline

    def replace_aircraft(self, aircraft: Aircraft) -> None:
        """(dev reset) A new aircraft, a new time origin and baseline, no failures still to arrive."""
        self.ac = aircraft
        self.start_sim_s = aircraft.sim_time
        self.baseline_controls = dict(aircraft.controls)
        self.pending.clear()

    # ---- time ------------------------------------------------------------------
    @property
    def sim_elapsed(self) -> float:
        return round(self.ac.sim_time - self.start_sim_s, 3)

    def advance(self, seconds: float) -> float:
        """Advance within the sim-time budget, delivering failures due meanwhile. Returns seconds advanced."""
        room = max(0.0, self.budget.max_sim_time_s - self.sim_elapsed)
        todo = min(seconds, room)
        done = 0.0
        while done < todo - 1e-9:
            step = todo - done
            if self.pending:
                step = min(step, 1.0)
            self.ac.advance(step)
            done += step
            self.alert_log.observe(self.ac, self.sim_elapsed, self.start_sim_s)
            self._deliver_due()
        if self.sim_elapsed >= self.budget.max_sim_time_s - 1e-9:
            self.end("budget_sim_time")
        return round(done, 3)

    def _deliver_due(self) -> None:
        for spec in list(self.pending):
            trig = spec.trigger
            due = (self.sim_elapsed >= trig.after_s) if hasattr(trig, "after_s") else holds(self.ac, trig.when)
            if due:
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

    # ---- recording --------------------------------------------------------------
    def record_call(self, name: str, arguments: dict[str, Any], result: Any, is_error: bool,
                    sim_before: float, wall_start: float) -> None:
        self.seq += 1
        self.recorder.write(
            "tool_call", seq=self.seq, name=name, arguments=arguments, result=result, is_error=is_error,
            sim_time_before_s=sim_before, sim_time_after_s=self.sim_elapsed,
            wall_ms=round((time.perf_counter() - wall_start) * 1000, 3),
            **self.alert_log.note(self.ac, self.sim_elapsed, self.start_sim_s),
        )
        self._in_call = False
        if self._final_due:
            self._final_due = False
            self._write_final()
        elif self.on_verdict is not None:
            self.on_verdict(self.verdict(final=False))

    # ---- the end ------------------------------------------------------------------
    def end(self, reason: str, report: dict[str, Any] | None = None) -> dict[str, Any]:
        """End the episode once: evaluate success and write the `final` event."""
        if self.final is not None:
            return self.final
        self.ended = reason
        self.report = report
        self.final = self.verdict()
        if self._in_call:
            self._final_due = True  # the call that ended the episode is recorded first
        else:
            self._write_final()
        return self.final

    def _write_final(self) -> None:
        assert self.final is not None
        self.recorder.write("final", **self.final)
        if self.on_verdict is not None:
            self.on_verdict(self.final)

    def verdict(self, final: bool = True) -> dict[str, Any]:
        """The verdict as it stands. The state hash (a replay check) is computed for the final
        verdict only: it costs more than the rest together, and a client call waits for it."""
        return {
            "scenario_id": self.scenario.id,
            "gate": self.gate.to_dict(),
            "reason": self.ended,
            "report_done": self.report,
            "success": evaluate_success(self.ac, self.scenario, self.baseline_controls),
            "final_ecam": self.ac.read_ecam(),
            "tool_calls_used": self.tool_calls,
            "sim_time_s": self.sim_elapsed,
            "state_hash": self.ac.state_hash() if final else None,
        }
