"""Exit codes of `a320-bench` (documented in the README).

An agent that fails a procedure is a result, not an error: exit 0 means every
episode was valid and reached the agent.
"""

OK = 0
FAILED_CHECKS = 1  # validate: a scenario missed its gate, success, compliance or order
USAGE = 2  # bad flags, missing files, broken scenario files
INVALID_SCENARIO = 3  # a validity gate failed: the agent was never asked
PROVIDER_ERROR = 4  # a model provider failed after retries
CLIENT_ERROR = 5  # an external client could not start or misbehaved
INTERNAL = 70  # a bug in the harness
STORAGE = 74  # an output could not be written mid-run (disk full, unwritable): rerun to resume
INTERRUPTED = 130  # Ctrl-C or SIGTERM: in-flight episodes ended `interrupted`; rerun to resume
