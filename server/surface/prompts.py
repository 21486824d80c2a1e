"""The scenario's task prompt as an MCP prompt (what the pilot is told, nothing more).

Built once per process; the episode's task arrives through the lifespan context.
"""

from __future__ import annotations

from mcp.server.mcpserver import Context
from mcp.server.mcpserver.prompts.base import Prompt

from .state import episode_of

TASK_PROMPT_NAME = "task"


async def task(ctx: Context) -> str:
    """The task of this episode: the situation as the pilot is told it."""
    return episode_of(ctx).scenario.task_prompt


TASK_PROMPT: Prompt = Prompt.from_function(task, name=TASK_PROMPT_NAME, title="The task of this episode")
