"""The agent side: CLI, episode loop, providers, external clients, trajectories, scoring."""
