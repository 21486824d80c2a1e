"""The bridge's errors: one tree, and what each becomes for the user.

    BridgeError ............................ one line for the user (`str(e)`), an exit code
    ├── UsageError (exit 2) ................ nothing ran: a bad flag, a flag that does not apply,
    │   │                                    a missing file, broken scenario files
    │   ├── EnvFileError ................... --env-file unreadable or not KEY=value
    │   ├── MissingExtra ................... an optional extra is not installed: the exact pip command
    │   └── OutputError .................... --out cannot be written (a file, read-only, full, a link)
    ├── StdoutFailed (exit 74) ............. standard output failed mid-command (full, an I/O error):
    │                                        the printed result is incomplete (bridge/stdout_guard.py)
    └── EpisodeEnded ....................... ends one episode with `reason`; the other episodes go on
        ├── ProviderFailed ................. provider_error: transient faults after retries, the provider
        │                                    refusing us (401, 404), malformed responses
        └── AgentFailed .................... agent_error: the conversation broke the model (context
            │                                length, content refusal, a request rejected mid-conversation);
            │                                the agent's result
            └── PluginFailed ............... agent_error: a plug-in agent's own code failed -- it would not
                                             import, its class has the wrong shape, its constructor or its
                                             run() raised; one line on stderr names it; the agent's result
    anything else .......................... raised through a built-in agent (scripted, litellm, ...) or by
                                             our tools: a bug of ours: the episode ends `harness_error`
                                             (recorded, one line on stderr), `run` exits 70; never a traceback

Who wrote the code that raised decides: a plug-in's exception is the plug-in's (its
author's bug, scored as its failure), a built-in's is ours. An exception that starts
in our own tools object (`AgentTools.fault`) stays ours even when it passes through
a plug-in's run().

The server has its own tree (`server/surface/dispatch.py`): agent mistakes become tool
errors there, and never reach the bridge as exceptions.
"""

from __future__ import annotations

from a320bench.server.end_reason import EndReason

from . import exitcodes


class BridgeError(Exception):
    exit_code = exitcodes.INTERNAL


class UsageError(BridgeError):
    """A user-facing error before anything ran: printed as one line."""

    exit_code = exitcodes.USAGE

    def __init__(self, message: str, code: int = exitcodes.USAGE):
        super().__init__(message)
        self.code = self.exit_code = code


class EnvFileError(UsageError):
    pass


class MissingExtra(UsageError):
    pass


class OutputError(UsageError):
    pass


class StdoutFailed(BridgeError):
    exit_code = exitcodes.STORAGE


class EpisodeEnded(BridgeError):
    reason: EndReason

    def __init__(self, message: str, attempts: int = 1):
        super().__init__(message)
        self.attempts = attempts


class ProviderFailed(EpisodeEnded):
    """The model provider failed (after retries, where retrying makes sense)."""

    reason = EndReason.PROVIDER_ERROR
    exit_code = exitcodes.PROVIDER_ERROR


class AgentFailed(EpisodeEnded):
    """The conversation itself broke the model: the agent's result, not an infrastructure fault."""

    reason = EndReason.AGENT_ERROR
    exit_code = exitcodes.OK


class PluginFailed(AgentFailed):
    """A plug-in agent's own code failed (import, shape, constructor, run): its result, said on the console.

    `exception`: the formatted traceback, recorded in the trajectory (scrubbed like every event)."""

    def __init__(self, message: str, exception: str | None = None):
        super().__init__(message)
        self.exception = exception
