"""The litellm provider: a real model drives the episode through function calling.

The MCP tools are converted to the provider's function format (with `$ref`s
inlined, which some providers require), the profile's locked instructions are
the system prompt, the scenario's task prompt the first user message. A turn
without tool calls gets one nudge; a second one ends the episode
(`end_turn_without_done`).

What a fault becomes (the bridge's error tree is in bridge/errors.py):

    transient: rate limit, timeout (--request-timeout),  retried with exponential backoff (tenacity)
    connection reset, 5xx, an HTML or empty body,        up to --max-retries, each retry recorded;
    no choices, a 200 whose body is an error             then ProviderFailed -> provider_error
    the provider refusing us: 401, 403, 404, a bad       ProviderFailed at once (retrying cannot help)
    first request (our prompt, --sampling)
    the conversation breaking the model: context         AgentFailed -> agent_error, the agent's result
    length, content policy, a later request rejected,    (a model that emits what cannot be acted on
    a message whose tool call has no name                would otherwise opt out of the scenario: a
                                                         provider_error before any change is rerun)
    a tool call whose arguments are not a JSON object    the agent's malformed call: counted against
                                                         the tool-call budget and recorded like any call
    anything else                                        not caught here: a harness error

A retry waits the backoff, or the provider's retry-after (retry-after-ms first) when that is
longer, up to RETRY_AFTER_MAX_S.
"""

from __future__ import annotations

import json
import os
import time
from typing import Any

# Before litellm is imported: use the bundled price map, never fetch it.
os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")

import litellm  # noqa: E402
from tenacity import AsyncRetrying, RetryCallState, retry_if_exception, stop_after_attempt, wait_exponential  # noqa: E402

from ..agent_tools import AgentJournal  # noqa: E402
from ..errors import AgentFailed, ProviderFailed, UsageError  # noqa: E402
from .base import AgentConfig, AgentView  # noqa: E402
from . import litellm_per_thread  # noqa: E402

litellm.suppress_debug_info = True
litellm.telemetry = False
litellm_per_thread.install()  # several agent threads call litellm at once: one logging worker each

NUDGE = ("Please continue handling the situation with the tools. "
         "Call report_done with your diagnosis and a summary of your actions when you are finished.")
MAX_TURNS = 200
BACKOFF_MAX_S = 30.0
RETRY_AFTER_MAX_S = 60.0  # the most a provider's retry-after makes one retry wait
DEFAULT_REQUEST_TIMEOUT_S = 120.0
DEFAULT_MAX_RETRIES = 3
ERROR_CHARS = 300  # of a provider's error message, in the trajectory and on the console

PROVIDER_ERRORS: tuple[type[BaseException], ...] = tuple(litellm.LITELLM_EXCEPTION_TYPES)
_TRANSIENT = (
    litellm.RateLimitError,
    litellm.Timeout,
    litellm.APIConnectionError,
    litellm.InternalServerError,
    litellm.ServiceUnavailableError,
    litellm.BadGatewayError,
    litellm.APIResponseValidationError,
)
_CONVERSATION = (litellm.ContextWindowExceededError, litellm.ContentPolicyViolationError)


class MalformedResponse(Exception):
    """A 200 answer that is not a usable chat message: the provider's fault, retried like a 5xx."""


class UnusableOutput(Exception):
    """A chat message the model wrote that cannot be acted on (a tool call without a name): the agent's."""


def check_model(model: str) -> None:
    """Fail early, in one line, on an unknown model id or a missing key."""
    try:
        litellm.get_llm_provider(model)
    except PROVIDER_ERRORS:
        raise UsageError(f"--model {model!r}: litellm does not know this model id "
                         "(use provider/model, e.g. anthropic/claude-sonnet-4-5 or openai/gpt-4.1)") from None
    try:
        env = litellm.validate_environment(model)
    except (*PROVIDER_ERRORS, ValueError, KeyError):  # a provider litellm cannot check: the first call will tell
        return
    missing = env.get("missing_keys") or []
    if missing and not env.get("keys_in_environment"):
        raise UsageError(f"--model {model!r}: missing {', '.join(missing)}; set it in the environment or --env-file")


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


def _error_in_a_200(e: BaseException) -> bool:
    """An HTTP 200 whose body is an error object without an HTTP code: how OpenRouter may say the model
    failed while answering. litellm (1.110.2) raises it from a bare Exception that reading the body made,
    with the body's code as the status (422 when there is none: then a BadRequestError, which on a later
    turn would be taken for the conversation's fault); a request the provider rejected has the HTTP status
    error at the root instead. A body that names an HTTP code is read as that code, like a status."""
    root, seen = e, {id(e)}
    while (nxt := root.__cause__ or root.__context__) is not None and id(nxt) not in seen:  # a chain may loop
        root = nxt
        seen.add(id(root))
    code = getattr(root, "status_code", 0)
    return type(root) is Exception and code != 0 and (not isinstance(code, int) or code == 422)


def retry_after_s(headers: Any) -> float | None:
    """How long a provider asked us to wait before retrying (retry-after-ms, else retry-after in
    seconds or as an HTTP date), at most RETRY_AFTER_MAX_S; None when it did not say, or said nonsense."""
    import math

    def seconds(value: Any, scale: float = 1.0) -> float | None:
        try:
            v = float(value) * scale
        except (TypeError, ValueError):
            return None
        return min(v, RETRY_AFTER_MAX_S) if math.isfinite(v) and v >= 0 else None

    get = getattr(headers, "get", None)
    if get is None:
        return None
    ms = seconds(get("retry-after-ms"), 0.001)
    if ms is not None:
        return ms
    value = get("retry-after")
    if value is None:
        return None
    if (s := seconds(value)) is not None:
        return s
    from datetime import datetime, timezone
    from email.utils import parsedate_to_datetime

    try:
        when = parsedate_to_datetime(str(value))
    except (TypeError, ValueError, IndexError):
        return None
    if when.tzinfo is None:
        return None
    return min(max((when - datetime.now(timezone.utc)).total_seconds(), 0.0), RETRY_AFTER_MAX_S)


def _transient(e: BaseException) -> bool:
    if isinstance(e, (*_TRANSIENT, MalformedResponse)) or _error_in_a_200(e):
        return True
    status = getattr(e, "status_code", None)
    return isinstance(e, PROVIDER_ERRORS) and isinstance(status, int) and (status in (408, 429) or status >= 500)


TRACEBACK = "Traceback (most recent call last):"


def _describe(e: BaseException) -> str:
    name = type(e).__name__
    text = str(e)
    if TRACEBACK in text:  # litellm's "Invalid response object" carries one (local paths) and the raw arguments
        head, _, tb = text.partition(TRACEBACK)
        tb = tb.split("\n\n")[0]  # the traceback ends at a blank line; litellm's received_args follow
        cause = [line for line in tb.splitlines() if line.strip() and not line.startswith(" ")]
        text = f"{head.strip()} ({cause[-1].strip()})" if cause else head
    text = " ".join(text.split())
    for prefix in (f"litellm.{name}: ", f"{name}: ", "litellm.BadRequestError: "):  # litellm repeats the class
        while text.startswith(prefix):
            text = text.removeprefix(prefix)
    return f"{name}: {text[:ERROR_CHARS]}"


def _message(resp: Any) -> Any:
    """The assistant message of a response; MalformedResponse when there is none to act on."""
    choices = getattr(resp, "choices", None)
    if not choices:
        raise MalformedResponse("the response has no choices")
    msg = getattr(choices[0], "message", None)
    if msg is None:
        raise MalformedResponse("the first choice has no message")
    for c in msg.tool_calls or ():
        fn = getattr(c, "function", None)
        if fn is None or not isinstance(fn.name, str) or not fn.name:
            raise UnusableOutput("a tool call has no function name")
    return msg


# (response model, provider) pairs litellm has no price for. Its price map does not change while a
# process runs, and asking again costs a search of the whole map for a lookalike (~2-3 ms of CPU
# per call, under the GIL the other agent threads need).
_UNPRICED: set[tuple[Any, Any]] = set()


def _cost(resp: Any) -> float | None:
    hidden = getattr(resp, "_hidden_params", None) or {}
    cost = hidden.get("response_cost")
    if cost is None:
        key = (getattr(resp, "model", None), hidden.get("custom_llm_provider"))
        if key in _UNPRICED:
            return None
        try:
            cost = litellm.completion_cost(completion_response=resp)
        except litellm.exceptions.ModelNotMappedError:
            _UNPRICED.add(key)
            return None  # an unknown model: its cost is null
        except (*PROVIDER_ERRORS, ValueError, KeyError):
            return None
    return float(cost) if cost is not None else None


class LitellmProvider:
    name = "litellm"

    def __init__(self, model: str, sampling: dict[str, Any] | None = None, max_retries: int = DEFAULT_MAX_RETRIES,
                 request_timeout_s: float = DEFAULT_REQUEST_TIMEOUT_S, reasoning_level: str | None = None):
        self.model = model
        self.sampling = dict(sampling or {})  # run_command refused the keys we set ourselves
        self.max_retries = max_retries
        self.request_timeout_s = request_timeout_s
        # --reasoning-level: litellm's `reasoning_effort` (low, medium, high ...), mapped per provider by litellm
        self.reasoning_level = reasoning_level

    @classmethod
    def from_config(cls, config: AgentConfig) -> LitellmProvider:
        if not config.model:
            raise UsageError("--agent litellm needs --model, e.g. --model anthropic/claude-sonnet-4-5")
        return cls(config.model, sampling=config.sampling, max_retries=config.max_retries,
                   request_timeout_s=config.request_timeout_s, reasoning_level=config.reasoning_level)

    def meta(self) -> dict[str, Any]:
        from a320bench.secrets import redact_credentials

        return {"sampling": redact_credentials(self.sampling), "request_timeout_s": self.request_timeout_s,
                "max_retries": self.max_retries, "litellm_version": getattr(litellm, "version", None) or _version()}

    async def _complete(self, journal: AgentJournal, turn: int, **kw: Any) -> tuple[Any, Any]:
        """One model response, retried on transient faults; the response and its message."""
        base_s = float(os.environ.get("A320_BENCH_BACKOFF_BASE_S", "1.0"))  # tests shorten it

        def record_retry(state: RetryCallState) -> None:
            error = state.outcome.exception() if state.outcome else None
            journal.write("provider_retry", attempt=state.attempt_number, error=_describe(error),
                          delay_s=round(state.upcoming_sleep, 3))

        backoff = wait_exponential(multiplier=base_s, max=BACKOFF_MAX_S)

        def wait(state: RetryCallState) -> float:
            # The backoff, or longer when the provider said how long (a 429's or 503's retry-after).
            error = state.outcome.exception() if state.outcome else None
            asked = retry_after_s(getattr(error, "litellm_response_headers", None))
            return max(backoff(state), asked or 0.0)

        attempts = 0
        try:
            async for attempt in AsyncRetrying(
                stop=stop_after_attempt(self.max_retries + 1),
                wait=wait,
                retry=retry_if_exception(_transient),
                before_sleep=record_retry,
                reraise=True,
            ):
                with attempt:
                    attempts = attempt.retry_state.attempt_number
                    # Ours are the only retries: litellm's and the OpenAI client's are off.
                    effort = {"reasoning_effort": self.reasoning_level} if self.reasoning_level else {}
                    resp = await litellm.acompletion(**{**self.sampling, **effort, **kw}, model=self.model,
                                                     num_retries=0, max_retries=0, timeout=self.request_timeout_s)
                    msg = _message(resp)
        except (*_CONVERSATION, UnusableOutput) as e:
            raise AgentFailed(_describe(e), attempts) from None
        except litellm.BadRequestError as e:
            if _error_in_a_200(e):
                raise ProviderFailed(_describe(e), attempts) from None
            if turn == 1:  # only our prompt and --sampling so far: not the agent's doing
                raise ProviderFailed(f"the first request was rejected: {_describe(e)}", attempts) from None
            raise AgentFailed(_describe(e), attempts) from None
        except (*PROVIDER_ERRORS, MalformedResponse) as e:
            raise ProviderFailed(_describe(e), attempts) from None
        return resp, msg

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
            resp, msg = await self._complete(journal, turn, messages=messages, tools=functions)
            calls = list(msg.tool_calls or [])
            usage = getattr(resp, "usage", None)
            journal.write(
                "assistant", turn=turn, model=getattr(resp, "model", None), text=msg.content or "",
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
                raw = c.function.arguments
                try:
                    args = json.loads(raw) if raw else {}
                except (ValueError, TypeError):
                    args = None
                if isinstance(args, dict):
                    outcome = await tools.call(c.function.name, args)
                else:  # still the agent's call: it counts against the budget and is recorded
                    outcome = await tools.malformed(c.function.name, raw)
                messages.append({"role": "tool", "tool_call_id": c.id, "content": outcome.for_model()})
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
