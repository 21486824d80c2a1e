"""Inspect AI interop (extra `[inspect]`; nothing here is imported unless asked for).

    export.py   trajectories -> Inspect eval logs (`a320-bench export --inspect`)
    task.py     the Inspect task `a320bench.inspect:a320`: Inspect's models fly our harness
    cli.py      the `export` command
"""
