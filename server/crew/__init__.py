"""Crew coordination (the `crew` profile): the captain the agent talks to, and what needs confirming.

    confirmation   which actions need the captain's confirmation (pure data: scoring reads it too)
    captain        the scripted captain: deterministic answers from the aircraft's state, the
                   scenario's captain script and the rules of confirmation

Nothing here imports the package eagerly: `a320-bench score` imports `confirmation` alone.
"""
