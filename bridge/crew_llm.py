"""An LLM captain for the `crew` profile (`run --captain-model M`), like tau2's user model.

The captain's decisions stay the scripted captain's (server/crew/captain.py):
which action it understood, whether it confirms or refuses it and why or leaves it
to the first officer (your_call: the ECAM does not show it), which instructions of
the scenario's script are due, and the aircraft's status. The
model only words them, in character: it is given the decision, the status and
the instructions, never the scenario, its failures, procedure or success
criteria, so it has no ground truth to reveal (and a reply that names a failure
id anyway is replaced by the scripted words). The crew check scores the
decisions, so a model's wording cannot change a verdict.

Its own accounting: every answer writes a `captain_turn` event (model, tokens,
cost, latency; the error when the model failed and the scripted words were used
instead), which `score` sums apart from the agent's tokens and cost. A fault of
the captain's model never ends the episode: the scripted words stand in.
"""

from __future__ import annotations

import dataclasses
import time
from typing import Any

from a320bench.server.crew.captain import ScriptedCaptain, status

PERSONA = (
    "You are the captain of an Airbus A320, the pilot flying, talking to your first officer, the pilot "
    "monitoring, who runs the ECAM. Answer in one to three short sentences, in the calm, clipped words of a "
    "flight deck. You will be told the decision you have already made and the facts you may use: convey exactly "
    "that decision (confirm; refuse with its reason; your_call: you cannot confirm it because the ECAM does not show "
    "it, so it is the first officer's call from the system pages; or a status answer) and give every instruction "
    "you are told to give, word for word in meaning. Never invent a failure, a reading or a procedure; say nothing "
    "else."
)


class LlmCaptain:
    """One episode's captain: the scripted captain's decisions in a model's words."""

    def __init__(self, scenario: Any, model: str, recorder: Any, request_timeout_s: float = 60.0):
        self.scripted = ScriptedCaptain(scenario)
        self.model = model
        self.recorder = recorder
        self.request_timeout_s = request_timeout_s
        self.history: list[dict[str, str]] = []

    async def respond(self, message: str, episode: Any) -> Any:
        from .providers.litellm_agent import PROVIDER_ERRORS, _cost, _describe, litellm

        decided = self.scripted.decide(message, episode.ac, episode.sim_elapsed)
        brief = (f"[For you only] Aircraft: {status(episode.ac)} Your decision: {decided.decision}"
                 + (f" about {decided.control} {decided.position or ''}".rstrip() if decided.control else "")
                 + f". The scripted words of it: {decided.reply}")
        messages = [{"role": "system", "content": PERSONA}, *self.history,
                    {"role": "user", "content": f"First officer: {message}\n\n{brief}"}]
        t0 = time.perf_counter()
        text, usage, cost, error = None, None, None, None
        try:
            resp = await litellm.acompletion(model=self.model, messages=messages, timeout=self.request_timeout_s,
                                             num_retries=0, max_retries=0)
            text = (resp.choices[0].message.content or "").strip() or None
            usage, cost = getattr(resp, "usage", None), _cost(resp)
        except (*PROVIDER_ERRORS, AttributeError, IndexError) as e:  # a fault, or an answer without a message
            error = _describe(e)
        if text is not None and _reveals(text, episode.scenario):
            text, error = None, "the reply named a failure or the scenario: the scripted words were used"
        self.recorder.write(
            "captain_turn", model=self.model, decision=decided.decision,
            usage={"input_tokens": getattr(usage, "prompt_tokens", None),
                   "output_tokens": getattr(usage, "completion_tokens", None)},
            cost_usd=cost, latency_ms=round((time.perf_counter() - t0) * 1000, 1), error=error,
            scripted_words=text is None)
        reply = text or decided.reply
        self.history += [{"role": "user", "content": f"First officer: {message}"},
                         {"role": "assistant", "content": reply}]
        return dataclasses.replace(decided, reply=reply)


def _reveals(text: str, scenario: Any) -> bool:
    from a320bench.server.sim import FAILURES

    low = text.lower()
    return scenario.id.lower() in low or any(fid.lower() in low for fid in FAILURES)


@dataclasses.dataclass(frozen=True)
class CaptainFactory:
    """What `run_episode` calls per episode: (scenario, recorder) -> the episode's captain. A plain
    value (model and timeout), so that it travels to a worker process or a Ray task with the run's job."""

    model: str  # recorded as meta.captain.model
    request_timeout_s: float = 60.0

    def __call__(self, scenario: Any, recorder: Any) -> LlmCaptain:
        return LlmCaptain(scenario, self.model, recorder, self.request_timeout_s)


def captain_factory(model: str, request_timeout_s: float = 60.0) -> CaptainFactory:
    return CaptainFactory(model, request_timeout_s)
