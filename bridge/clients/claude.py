"""The `claude -p` arm: Claude Code, in its sandbox, driving the episode's server over HTTP.

Flags (measured with Claude Code 2.1.332):

    -p PROMPT                      the scenario's task prompt, as the user turn
    --system-prompt INSTRUCTIONS   the profile's locked instructions *replace* Claude Code's
                                   default (coding-agent) system prompt; Claude Code still
                                   prepends one identity line and also forwards the MCP
                                   server's instructions (the same text) in its environment
                                   block, so the model reads them twice
    --tools ""                     no built-in tools (Bash, Read, WebFetch, ...): the agent
                                   has our MCP tools only (the sandbox would keep the answer
                                   out of reach anyway; a benchmark of Claude Code with its
                                   own tools is a different benchmark)
    --mcp-config CFG --strict-mcp-config   our server only, none from the user's settings
    --allowedTools mcp__<server>   our tools run without a permission prompt (-p has nobody
                                   to ask: a missing allow shows up as permission_denials)
    --output-format stream-json --verbose  the transcript this module reads
    --disable-slash-commands --no-session-persistence   no skills, no saved session
    --model M                      only with --client-model

In the sandbox it has its own program (the node_modules it was installed in),
and copies of the user's settings.json and .credentials.json (from
$CLAUDE_CONFIG_DIR, else ~/.claude), read-only: the user's permission rules
apply, and nothing it writes reaches the user's files.

Environment forced on top of the caller's (auth, ANTHROPIC_BASE_URL stay the user's):
ENABLE_TOOL_SEARCH=false (else MCP tools hide behind a search tool);
CLAUDE_CODE_DISABLE_CLAUDE_MDS=1 (the user's ~/.claude/CLAUDE.md otherwise reaches the
first user message, --system-prompt or not) and CLAUDE_CODE_DISABLE_AUTO_MEMORY=1;
DISABLE_AUTOUPDATER=1 and CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1 (no update or side
traffic mid-run).

Faults read from the transcript (faults.py says what each makes of the episode):
setup faults -- no system/init event, our server not `connected`, one of the
profile's tools not offered to the model (a `deny` rule in the user's settings
removes a tool from the list), permission denials of our tools (an `ask` rule:
-p has nobody to ask); a `result` with is_error and an API status a retry cures
(429, 5xx, 529 overloaded) -- transient; the conversation's own end -- no
`result`, a `result` with is_error otherwise (a 400: prompt too long), a non-zero
exit code.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from .locate import find_claude
from .faults import ClientFault, FaultKind, transient_api_status
from .process import ProcessOutcome
from .sandbox import HOME, DataFile, program_paths
from .streamjson import read_transcript

# The user's Claude Code files the sandbox gets (read-only copies): permission rules, login.
USER_FILES = ("settings.json", ".credentials.json")

FORCED_ENV = {
    "ENABLE_TOOL_SEARCH": "false",
    "CLAUDE_CODE_DISABLE_CLAUDE_MDS": "1",
    "CLAUDE_CODE_DISABLE_AUTO_MEMORY": "1",
    "DISABLE_AUTOUPDATER": "1",
    "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1",
}


class ClaudeClient:
    name = "claude"
    transcript_suffix = ".claude.ndjson"
    system_prompt_mode = "replace"  # --system-prompt, not --append-system-prompt

    def __init__(self, model: str | None, timeout_s: float):
        self.model = model
        self.timeout_s = timeout_s

    def locate(self) -> Path:
        return find_claude()

    def paths(self, exe: Path) -> list[Path]:
        return program_paths(exe)

    def home_files(self) -> list[DataFile]:
        config_dir = Path(os.environ.get("CLAUDE_CONFIG_DIR") or Path.home() / ".claude")
        files = []
        for name in USER_FILES:
            try:
                files.append(DataFile(f"{HOME}/.claude/{name}", (config_dir / name).read_bytes()))
            except OSError:  # not there: nothing to bring
                continue
        return files

    def argv(self, exe: Path, *, config: str, prompt: str, system_prompt: str, server: str) -> list[str]:
        argv = [str(exe), "-p", prompt,
                "--system-prompt", system_prompt,
                "--tools", "",
                "--mcp-config", config, "--strict-mcp-config",
                "--allowedTools", f"mcp__{server}",
                "--output-format", "stream-json", "--verbose",
                "--disable-slash-commands", "--no-session-persistence"]
        if self.model:
            argv += ["--model", self.model]
        return argv

    def environment(self) -> dict[str, str]:
        return dict(FORCED_ENV)

    def report(self, transcript: Path, outcome: ProcessOutcome, server: str,
               tools: list[str]) -> tuple[dict[str, Any], list[ClientFault]]:
        """The client_report fields claude's transcript gives, and the faults in it (faults.py)."""
        t = read_transcript(transcript)
        res = t.result or {}
        status = t.mcp_status(server)
        ours = f"mcp__{server}__"
        denials = t.permission_denials()
        fields: dict[str, Any] = {
            "model": t.model or self.model,
            "requested_model": self.model,
            "client_version": (t.init or {}).get("claude_code_version"),
            "usage": t.usage(),
            "cost_usd": t.cost_usd(),
            "model_usage": res.get("modelUsage"),
            "permission_denials": denials,
            "mcp_status": status,
            "mcp_servers": (t.init or {}).get("mcp_servers"),
            "tools_offered": (t.init or {}).get("tools"),
            "tool_uses": t.tool_uses,
            "num_turns": res.get("num_turns"),
            "duration_ms": res.get("duration_ms"),
            "duration_api_ms": res.get("duration_api_ms"),
            "result_subtype": res.get("subtype"),
            "is_error": res.get("is_error"),
            "stop_reason": res.get("stop_reason"),
            "terminal_reason": res.get("terminal_reason"),
            "api_error_status": res.get("api_error_status"),
            "session_id": (t.init or {}).get("session_id"),
            "transcript_bad_lines": t.bad_lines,
        }
        errors: list[ClientFault] = []
        setup, conversation = FaultKind.SETUP, FaultKind.CONVERSATION
        if outcome.start_error or outcome.timed_out or outcome.exit_code is None:
            return fields, errors  # the runner reports those; the transcript is partial at best
        if t.init is None:
            errors.append(ClientFault(setup, "claude reported no system/init event (did it start?)"))
        elif status != "connected":
            errors.append(ClientFault(setup, f"the MCP server {server!r} was not connected (status {status!r}): "
                                             "claude ran without our tools"))
        else:
            offered = set((t.init or {}).get("tools") or [])
            missing = [name for name in tools if f"{ours}{name}" not in offered]
            if missing:
                errors.append(ClientFault(setup, f"claude did not offer the model {len(missing)} of our tools "
                                                 f"({', '.join(missing)}): a deny rule in the user's settings?"))
        our_denials = [d for d in denials if str(d.get("tool_name", "")).startswith(ours)]
        if our_denials:
            names = sorted({str(d.get("tool_name"))[len(ours):] for d in our_denials})
            errors.append(ClientFault(setup, f"claude denied {len(our_denials)} call(s) of our tools "
                                             f"({', '.join(names)}): the agent's actions did not reach the server "
                                             "(an `ask` rule in the user's settings?)"))
        if t.init is not None and t.result is None:
            errors.append(ClientFault(conversation, "claude ended without a result event"))
        elif res.get("is_error"):
            status_code = res.get("api_error_status")
            # A status a retry cures is the provider's; any other (a 400: prompt too long) is the
            # conversation's, as in-process (litellm_agent).
            what = str(res.get("result") or "")[:200]
            line = reported_error(res)
            if line == NOT_LOGGED_IN or status_code == 401:  # credentials: the run's setup, not the agent's
                kind = setup
            else:
                kind = FaultKind.TRANSIENT if transient_api_status(status_code, what) else conversation
            errors.append(ClientFault(kind, line))
        if outcome.exit_code not in (0, None) and not errors:
            errors.append(ClientFault(conversation, f"claude exited with code {outcome.exit_code}"))
        return fields, errors


NOT_LOGGED_IN = "claude is not logged in: run `claude login` or set ANTHROPIC_API_KEY, or try --offline-demo"


def reported_error(result: dict[str, Any]) -> str:
    """One line for a `result` event with is_error. Its subtype is no help there: a failed API call
    ends `success` ("Not logged in" included), so the terminal reason and the API status say what."""
    what = str(result.get("result") or "")[:200]
    status_code = result.get("api_error_status")
    if what.lower().startswith("not logged in"):
        return NOT_LOGGED_IN
    if status_code == 401:
        return f"claude's credentials were refused (API status 401: {what}): run `claude login` or check " \
               "ANTHROPIC_API_KEY, or try --offline-demo"
    why = [str(result["terminal_reason"])] if result.get("terminal_reason") else []
    why += [f"API status {status_code}"] if status_code else []
    return f"claude reported an error ({', '.join(why)}): {what}" if why else f"claude reported an error: {what}"
