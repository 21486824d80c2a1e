"""Agents drive an episode: the built-in baselines (scripted, noop, random, ecam, replay), the
litellm loop, and plug-ins. The protocol is in base.py; every agent is found through registry.py.

Built-ins are imported lazily: litellm costs seconds to import and is an optional extra.
A missing extra is one line with the exact command that installs it.
"""

from __future__ import annotations

from typing import Any

from .base import AgentConfig
from .registry import BUILTINS, ENTRY_POINT_GROUP, builtin_class, install_command, make_agent, resolve

__all__ = ["AgentConfig", "BUILTINS", "ENTRY_POINT_GROUP", "builtin_class", "install_command", "make_agent",
           "make_provider", "resolve"]


def make_provider(name: str, **config: Any) -> Any:
    """The built-in agent `name`, configured like `run` would (AgentConfig's fields as keywords)."""
    return make_agent(resolve(name), AgentConfig(**config))
