"""The privileged side: simulator, scenarios, harness steps and the MCP server.

Nothing here imports litellm or the CLI.
"""
