"""External MCP clients driving `a320-bench serve`: `a320-bench run --client claude|cmd`.

Modules, one concept each (imported lazily by `run`; nothing is imported here):

    locate       find the `claude` executable (A320_BENCH_CLAUDE, PATH, the test cache)
    process      run a client in its own process group under a wall-clock limit
    streamjson   read what `claude -p --output-format stream-json` reported about itself
    claude       the `claude -p` arm: flags, environment, report and its infra errors
    command      the `--client-cmd '...'` arm: a command template with placeholders
    record       fold the client's report into the server's trajectory (client_report, final)
    runner       `make_client(args)` and the episode flow common to every client
"""
