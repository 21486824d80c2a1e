"""External MCP clients, each episode served by `run` itself: `a320-bench run --client claude|cmd`.

Modules, one concept each (imported lazily by `run`; nothing is imported here):

    locate       find the `claude` executable (A320_BENCH_CLAUDE, PATH, the test cache)
    sandbox      the bubblewrap sandbox a client runs in: its policy, binds, environment
    process      run the sandbox in its own process group under a wall-clock limit
    streamjson   read what `claude -p --output-format stream-json` reported about itself
    claude       the `claude -p` arm: flags, environment, settings, report and its infra errors
    command      the `--client-cmd '...'` arm: a command template with placeholders
    record       close the trajectory: client_report, then the final that stands
    runner       `make_client(args)` and the episode flow common to every client

The episode's server is server/surface/http.py (Streamable HTTP on loopback, a bearer token).
"""
