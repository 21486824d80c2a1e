"""The litellm provider: a real model drives the episode through function calling.

The MCP tools are converted to the provider's function format (with `$ref`s
inlined, which some providers require), the profile's locked instructions are
the system prompt, the scenario's task prompt the first user message. A turn
without tool calls gets one nudge; a second one ends the episode
(`end_turn_without_done`). Rate limits, timeouts and 5xx are retried with
exponential backoff; after that the episode ends as `provider_error`.
"""

from __future__ import annotations

import json
import os
import time
from typing import Any

# Before litellm is imported: use the bundled price map, never fetch it.
os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")

import anyio  # noqa: E402
import litellm  # noqa: E402

from ..agent_tools import AgentJournal  # noqa: E402
from .base import AgentView, ProviderFailed  # noqa: E402

litellm.suppress_debug_info = True
litellm.telemetry = False

NUDGE = ("Please continue handling the situation with the tools. "
         "Call report_done with your diagnosis and a summary of your actions when you are finished.")
MAX_TURNS = 200
BACKOFF_MAX_S = 30.0

_RETRYABLE = (
    litellm.RateLimitError,
    litellm.Timeout,
    litellm.APIConnectionError,
    litellm.InternalServerError,
    litellm.ServiceUnavailableError,
)


def check_model(model: str) -> None:
    """Fail early, in one line, on an unknown model id or a missing key."""
    try:
        litellm.get_llm_provider(model)
    except Exception:
        raise ValueError(f"--model {model!r}: litellm does not know this model id "
                         "(use provider/model, e.g. anthropic/claude-sonnet-4-5 or openai/gpt-4.1)") from None
    try:
        env = litellm.validate_environment(model)
    except Exception:
        return
    missing = env.get("missing_keys") or []
    if missing and not env.get("keys_in_environment"):
        raise ValueError(f"--model {model!r}: missing {', '.join(missing)}; set it in the environment or --env-file")


def inline_refs(schema: dict[str, Any]) -> dict[str, Any]:
    """The input schema with `$ref`s inlined (some providers reject them) and pydantic's `title` noise dropped."""
    from a320bench.server.surface.registry import inline_refs as inline

    def untitled(node: Any) -> Any:
        if isinstance(node, dict):
            return {k: untitled(v) for k, v in node.items() if k != "title"}
        if isinstance(node, list):
            return [untitled(v) for v in node]
        return node

    return untitled(inline(schema))


def to_functions(tools: list[Any]) -> list[dict[str, Any]]:
    return [{"type": "function", "function": {"name": t.name, "description": t.description or "",
                                              "parameters": inline_refs(t.input_schema)}} for t in tools]


def _retryable(e: Exception) -> bool:
    if isinstance(e, _RETRYABLE):
        return True
    status = getattr(e, "status_code", None)
    return isinstance(status, int) and (status == 429 or status >= 500)


def _cost(resp: Any) -> float | None:
    cost = (getattr(resp, "_hidden_params", None) or {}).get("response_cost")
    if cost is None:
        try:
            cost = litellm.completion_cost(completion_response=resp)
        except Exception:  # unknown model: cost is null, not a crash
            return None
    return float(cost) if cost is not None else None


class LitellmProvider:
    name = "litellm"

    def __init__(self, model: str, sampling: dict[str, Any] | None = None, max_retries: int = 3):
        self.model = model
        self.sampling = dict(sampling or {})
        self.max_retries = max_retries

    def meta(self) -> dict[str, Any]:
        return {"sampling": self.sampling, "litellm_version": getattr(litellm, "version", None) or _version()}

    async def _complete(self, journal: AgentJournal, **kw: Any) -> Any:
        attempt = 0
        while True:
            attempt += 1
            try:
                return await litellm.acompletion(model=self.model, num_retries=0, **kw, **self.sampling)
            except Exception as e:
                if not _retryable(e) or attempt > self.max_retries:
                    raise ProviderFailed(f"{type(e).__name__}: {str(e)[:300]}", attempt) from None
                base = float(os.environ.get("A320_BENCH_BACKOFF_BASE_S", "1.0"))  # tests shorten it
                delay = min(BACKOFF_MAX_S, base * 2 ** (attempt - 1))
                journal.write("provider_retry", attempt=attempt, error=f"{type(e).__name__}", delay_s=delay)
                await anyio.sleep(delay)

    async def run(self, view: AgentView) -> str | None:
        tools, journal = view.tools, view.journal
        functions = to_functions(await tools.list())
        messages: list[dict[str, Any]] = [
            {"role": "system", "content": view.instructions},
            {"role": "user", "content": view.task_prompt},
        ]
        nudged = False
        for turn in range(1, MAX_TURNS + 1):
            t0 = time.perf_counter()
            resp = await self._complete(journal, messages=messages, tools=functions)
            msg = resp.choices[0].message
            calls = list(msg.tool_calls or [])
            usage = getattr(resp, "usage", None)
            journal.write(
                "assistant", turn=turn, text=msg.content or "",
                tool_calls=[{"id": c.id, "name": c.function.name, "arguments": c.function.arguments} for c in calls],
                usage={"input_tokens": getattr(usage, "prompt_tokens", None),
                       "output_tokens": getattr(usage, "completion_tokens", None)},
                cost_usd=_cost(resp), latency_ms=round((time.perf_counter() - t0) * 1000, 1),
                finish_reason=resp.choices[0].finish_reason,
            )
            assistant: dict[str, Any] = {"role": "assistant", "content": msg.content or ""}
            if calls:
                assistant["tool_calls"] = [{"id": c.id, "type": "function",
                                            "function": {"name": c.function.name, "arguments": c.function.arguments}}
                                           for c in calls]
            messages.append(assistant)
            if not calls:
                if nudged:
                    return "end_turn_without_done"
                nudged = True
                journal.write("nudge", text=NUDGE)
                messages.append({"role": "user", "content": NUDGE})
                continue
            nudged = False
            for c in calls:
                try:
                    args = json.loads(c.function.arguments or "{}")
                    if not isinstance(args, dict):
                        raise ValueError
                except ValueError:
                    content = f"Error: the arguments of {c.function.name} are not a JSON object"
                else:
                    content = (await tools.call(c.function.name, args)).for_model()
                messages.append({"role": "tool", "tool_call_id": c.id, "content": content})
                if tools.over:
                    break
            if tools.over:
                return None
        return "end_turn_without_done"


def _version() -> str | None:
    from importlib import metadata

    try:
        return metadata.version("litellm")
    except metadata.PackageNotFoundError:
        return None
