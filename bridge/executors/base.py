"""The executor interface, and what the driver keeps while an executor runs.

    class Executor(Protocol):
        name: str
        def describe(self, chains, job) -> str       one line for the plan (`run --dry-run`)
        async def run(self, chains, job, state)      fly every chain; return when all are done

`run` hands every episode's result to `state.record(planned, result)` in the driver's
event loop, as soon as it is known (and a learning store the disk refuses to
`state.refuse_storage(line)`), and asks `state.may_start()` before it starts a
chain. Cancelled (the driver's signal handler cancels it), an executor ends the
episodes in flight `interrupted`, records their results, and only then lets the
cancellation go on.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from a320bench.server.end_reason import EndKind, EndReason, kind_of

from .. import console
from .chain import Chain, RunJob, episode_id


class Executor(Protocol):
    name: str

    def describe(self, chains: Sequence[Chain], job: RunJob) -> str:
        ...

    async def run(self, chains: Sequence[Chain], job: RunJob, state: RunState) -> None:
        ...


@dataclass
class RunState:
    """The results so far, why the run stopped early (a signal, a refusing disk), the progress bar."""

    results: list[Any] = field(default_factory=list)
    signal: str | None = None
    storage: str | None = None
    progress: Any = None
    progress_task: Any = None
    retried: int = 0  # chains flown again after their worker died
    setups_run: int = 0  # scenario setups worker processes ran rather than copied (handout.py keeps it low)
    agent_broken: bool = False  # a plug-in that cannot load: said once by the driver, not per episode

    def may_start(self) -> bool:
        return self.storage is None

    def refuse_storage(self, line: str) -> None:
        """The disk refuses what a chain must keep (its learning store): no episode starts any more."""
        if self.storage is None:
            self.storage = line
        console.error(line)

    def record(self, planned: Any, res: Any) -> None:
        self.results.append(res)
        if res.reason == EndReason.STORAGE_ERROR:
            self.storage = res.error
        if res.error and kind_of(res.reason) is not EndKind.RESULT:
            console.error(f"{episode_id(planned)}: {res.error}")
        elif res.warning and not self.agent_broken:  # a plug-in's own failure: its result, named once per episode
            console.note(f"warning: {episode_id(planned)}: agent_error: {res.warning}")
        if self.progress is not None:
            self.progress.advance(self.progress_task)
