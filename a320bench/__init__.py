"""a320-bench: does an AI agent handle A320-family system failures by the book?

`a320bench.server` is the privileged side (simulator, scenarios, MCP server);
`a320bench.bridge` is the agent side (CLI, providers, trajectories, scoring).
"""

__version__ = "0.6.0"
