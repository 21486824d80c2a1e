"""The `--client cmd --client-cmd '...'` arm: any MCP client, from a command template.

The template is split like a shell would (shlex) but never run by one; in each
argument the placeholders are replaced, in one pass (a value that contains a
placeholder is not expanded again):

    {config}         path of the MCP config JSON, in the sandbox:
                     {"mcpServers": {<server>: {"type": "http", "url": ..., "headers":
                     {"Authorization": "Bearer ..."}}}}
    {prompt}         the scenario's task prompt
    {system_prompt}  the profile's locked instructions
    {server}         the server's name in the config

e.g. --client-cmd 'my-agent --mcp {config} --system {system_prompt} --task {prompt}'.
The client runs in the sandbox (sandbox.py) with its program and every file or
folder the template names (absolute, or relative to where `run` starts: then
rewritten as absolute) bound read-only. The client's stdout is kept beside the
trajectory (<run>.cmd.log); what it reports about tokens and cost is not known,
so those stay empty. A non-zero exit is the client's own end (faults.py: the agent's
result once it opened an MCP session, else an infrastructure error).
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
from pathlib import Path
from typing import Any

from .faults import ClientFault, FaultKind
from .locate import ClientNotFound
from .process import ProcessOutcome
from .sandbox import DataFile, program_paths

PLACEHOLDER = re.compile(r"\{(config|prompt|system_prompt|server)\}")


class TemplateError(ValueError):
    pass


def parse_template(template: str) -> list[str]:
    try:
        parts = shlex.split(template)
    except ValueError as e:
        raise TemplateError(f"--client-cmd cannot be split into arguments: {e}") from None
    if not parts:
        raise TemplateError("--client-cmd is empty")
    if not any("{config}" in p for p in parts):
        raise TemplateError("--client-cmd must pass {config} (the MCP config of each episode's server) "
                            "to the client")
    return parts


def substitute(parts: list[str], values: dict[str, str]) -> list[str]:
    return [PLACEHOLDER.sub(lambda m: values[m.group(1)], p) for p in parts]


class CommandClient:
    name = "cmd"
    transcript_suffix = ".cmd.log"
    system_prompt_mode = "template"

    def __init__(self, template: str, model: str | None, timeout_s: float):
        self.template = template
        self.parts = parse_template(template)
        self.model = model
        self.timeout_s = timeout_s

    def locate(self) -> Path:
        prog = self.parts[0]
        if os.sep in prog:
            p = Path(prog).expanduser()
            if p.is_file() and os.access(p, os.X_OK):
                return p
            raise ClientNotFound(f"--client-cmd: {prog} is not an executable file")
        found = shutil.which(prog)
        if not found:
            raise ClientNotFound(f"--client-cmd: {prog} not found on PATH")
        return Path(found)

    def paths(self, exe: Path) -> list[Path]:
        return program_paths(exe) + [p for p in map(_named_path, self.parts[1:]) if p is not None]

    def home_files(self) -> list[DataFile]:
        return []

    def argv(self, exe: Path, *, config: str, prompt: str, system_prompt: str, server: str) -> list[str]:
        values = {"config": config, "prompt": prompt, "system_prompt": system_prompt, "server": server}
        args = [str(_named_path(p) or p) for p in self.parts[1:]]
        return [str(exe), *substitute(args, values)]

    def environment(self) -> dict[str, str]:
        return {}

    def report(self, transcript: Path, outcome: ProcessOutcome, server: str,
               tools: list[str]) -> tuple[dict[str, Any], list[ClientFault]]:
        fields: dict[str, Any] = {"model": self.model, "requested_model": self.model, "template": self.template,
                                  "usage": None, "cost_usd": None, "permission_denials": None, "mcp_status": None}
        errors = []
        if not (outcome.start_error or outcome.timed_out) and outcome.exit_code not in (0, None):
            errors.append(ClientFault(FaultKind.CONVERSATION,
                                      f"{self.parts[0]} exited with code {outcome.exit_code}"))
        return fields, errors


def _named_path(arg: str) -> Path | None:
    """The file or folder a template argument names (placeholders never do), resolved."""
    if PLACEHOLDER.search(arg) or not arg or arg.startswith("-"):
        return None
    try:
        p = Path(arg).expanduser()
        return p.resolve() if p.exists() else None
    except (OSError, RuntimeError):  # not a name a file could have
        return None
