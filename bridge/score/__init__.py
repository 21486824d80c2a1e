"""Offline scoring of trajectories (`a320-bench score`): pure, streaming, no sim/MCP/LLM imports.

Modules, one concept each:

    groundtruth   the ground truth of a trajectory's `setup` event, as plain data
    classify      each tool call -> a class (required, out_of_order, ..., observation)
    diagnosis     does report_done's diagnosis mention every keyword group
    scorecard     one trajectory file -> one ScoreCard (events streamed, not kept)
    stats         Wilson interval, pass@k and pass^k estimators
    aggregate     ScoreCards -> per (scenario, model), per (system, model), per model
    inputs        command-line paths -> trajectory files
    export        the --json document and the --csv rows
    table         the human table (imports rich lazily)
    cli           `run_score(args)`, called by `a320-bench score`
"""
