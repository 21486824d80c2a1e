"""Every tool, prebuilt once per process with its annotations.

`Tool.from_function` derives the input and output schemas (the slow part, a few
ms a tool); a fresh server per episode then only receives the prebuilt objects.
A tool is built the first time a profile asks for it, so `serve --profile
benchmark` never builds the dev tools. Agent tools and dev tools stay in
separate tables: a profile picks by name.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from functools import cache
from typing import Any

from mcp.server.mcpserver.tools import Tool
from mcp_types import ListToolsResult
from mcp_types import Tool as MCPTool
from mcp_types import ToolAnnotations

from . import crew_tools, dev_tools, learning_tools, tools


def _spec(fn: Callable[..., Any], title: str, *, read_only: bool, destructive: bool = False,
          idempotent: bool = False) -> tuple[Callable[..., Any], str, ToolAnnotations]:
    return fn, title, ToolAnnotations(
        title=title,
        read_only_hint=read_only,
        # The hints below are only meaningful for a tool that changes something.
        destructive_hint=None if read_only else destructive,
        idempotent_hint=True if read_only else idempotent,
        open_world_hint=False,  # a closed simulated aircraft: nothing outside it is touched
    )


AGENT_TOOLS: dict[str, tuple[Callable[..., Any], str, ToolAnnotations]] = {
    "read_ecam": _spec(tools.read_ecam, "Read the ECAM", read_only=True),
    "read_system_page": _spec(tools.read_system_page, "Read a system display page", read_only=True),
    "list_controls": _spec(tools.list_controls, "List cockpit controls", read_only=True),
    # Destructive: some positions cannot be undone. Not idempotent: each call takes 2 s of
    # simulated time, and a momentary control acts again on every push.
    "set_control": _spec(tools.set_control, "Move a cockpit control", read_only=False, destructive=True),
    "wait": _spec(tools.wait, "Let simulated time pass", read_only=False),
    # Destructive: it ends the episode for good.
    "report_done": _spec(tools.report_done, "Report done (ends the episode)", read_only=False, destructive=True),
    # crew profile. Not read-only: the captain remembers what was said (instructions given once).
    "captain": _spec(crew_tools.captain, "Talk to the captain", read_only=False),
    # learning profile: a note is kept for later episodes (not idempotent: each call keeps one)
    "save_learning": _spec(learning_tools.save_learning, "Keep a learning for later episodes", read_only=False),
    "retrieve_learnings": _spec(learning_tools.retrieve_learnings, "Look up your learnings", read_only=True),
}

DEV_TOOLS: dict[str, tuple[Callable[..., Any], str, ToolAnnotations]] = {
    "inject_failure": _spec(dev_tools.inject_failure, "(dev) Inject a failure", read_only=False, destructive=True,
                            idempotent=True),
    "clear_failure": _spec(dev_tools.clear_failure, "(dev) Clear a failure", read_only=False, idempotent=True),
    "list_failures": _spec(dev_tools.list_failures, "(dev) List injectable failures", read_only=True),
    "set_world": _spec(dev_tools.set_world, "(dev) Set a world condition", read_only=False, idempotent=True),
    "active_failures": _spec(dev_tools.active_failures, "(dev) Active failures", read_only=True),
    "reset": _spec(dev_tools.reset, "(dev) Reset the aircraft", read_only=False, destructive=True, idempotent=True),
}

TOOL_NAMES: tuple[str, ...] = (*AGENT_TOOLS, *DEV_TOOLS)


@cache
def get_tool(name: str) -> Tool:
    """The prebuilt tool called `name` (KeyError if there is none)."""
    fn, title, annotations = AGENT_TOOLS.get(name) or DEV_TOOLS[name]
    tool = Tool.from_function(fn, title=title, description=inspect.cleandoc(fn.__doc__ or ""),
                              annotations=annotations)
    # Nested result models come out as $defs/$ref; inlined, a client validates each result
    # about 40% faster (jsonschema resolves every $ref per call) and simple clients need no
    # ref resolver. FuncMetadata reads the field live; Tool.output_schema is not computed yet.
    tool.fn_metadata.output_schema = shallow(inline_refs(tool.fn_metadata.output_schema))
    return tool


# A tool's listing entry, built once per prebuilt tool: MCPServer.list_tools builds (and validates)
# it again for every tools/list, a few hundred microseconds of each episode's handshake.
_LISTED: dict[int, tuple[Tool, MCPTool]] = {}
# The tools/list result of a set of prebuilt tools, dumped once: the SDK dumps the whole listing
# (every schema) on each tools/list before it validates the dump against the protocol's shape.
_DUMPED: dict[tuple[int, ...], tuple[tuple[Tool, ...], dict[str, Any]]] = {}


def listed(tool: Tool) -> MCPTool:
    """The tools/list entry of `tool`, as MCPServer.list_tools makes it (shared: never change it)."""
    kept = _LISTED.get(id(tool))
    if kept is None or kept[0] is not tool:
        kept = _LISTED[id(tool)] = (tool, MCPTool(
            name=tool.name, title=tool.title, description=tool.description, input_schema=tool.parameters,
            output_schema=tool.output_schema, annotations=tool.annotations, icons=tool.icons, _meta=tool.meta))
    return kept[1]


def listing_result(tools: list[Tool]) -> dict[str, Any]:
    """The tools/list result of `tools`, dumped as the SDK dumps a ListToolsResult (shared: never change it)."""
    key = tuple(map(id, tools))
    kept = _DUMPED.get(key)
    if kept is None or any(a is not b for a, b in zip(kept[0], tools)):
        kept = _DUMPED[key] = (tuple(tools), ListToolsResult(tools=[listed(t) for t in tools]).model_dump(
            by_alias=True, mode="json", exclude_none=True))
    return kept[1]


def shallow(schema: Any) -> Any:
    """Keep the top-level fields' schemas; nested objects become plain `object`.

    Clients validate every structured result against the output schema, and the
    nested ECAM/page shapes made that the largest cost of a read call. The shapes
    are described in each tool's docstring instead.
    """
    if not isinstance(schema, dict) or "properties" not in schema:
        return schema

    def top(prop: Any) -> Any:
        if not isinstance(prop, dict):
            return prop
        keep = {k: v for k, v in prop.items() if k in ("description", "title", "default")}
        if prop.get("type") == "array":
            item = prop.get("items", {})
            simple = isinstance(item, dict) and item.get("type") in ("string", "number", "integer", "boolean")
            return {**keep, "type": "array", "items": item if simple else {"type": "object"}}
        if prop.get("type") == "object" or "properties" in prop or "anyOf" in prop and any(
                isinstance(a, dict) and a.get("type") == "object" for a in prop["anyOf"]):
            return {**keep, "type": "object"} if "anyOf" not in prop else {**keep}
        return prop

    return {**schema, "properties": {k: top(v) for k, v in schema["properties"].items()}}


def inline_refs(schema: Any, defs: dict[str, Any] | None = None) -> Any:
    """The schema with every local `#/$defs/X` reference replaced by its definition (ours never recurse)."""
    if defs is None:
        defs = schema.get("$defs", {}) if isinstance(schema, dict) else {}
    if isinstance(schema, dict):
        if "$ref" in schema:
            return inline_refs(defs[schema["$ref"].rsplit("/", 1)[-1]], defs)
        return {k: inline_refs(v, defs) for k, v in schema.items() if k != "$defs"}
    if isinstance(schema, list):
        return [inline_refs(v, defs) for v in schema]
    return schema
