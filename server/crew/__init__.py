"""Crew coordination (the `crew` profile): the captain the agent talks to, and what needs confirming.

    confirmation   which actions need the captain's confirmation (pure data: scoring reads it too)
    on_ecam        which of them the E/WD asks for now: the lines the captain reads
    captain        the scripted captain: deterministic answers from what the pilots see (the E/WD,
                   the aircraft's state) and the scenario's captain script, never its ground truth

Nothing here imports the package eagerly: `a320-bench score` imports `confirmation` alone.
"""
