"""A Ray cluster that flies external clients must require its token (Ray's token authentication).

A client's sandbox shares the network (it needs its model API and the episode's server on
loopback), so it reaches the cluster's GCS and raylets too. A cluster without token
authentication runs any task sent to it, as the worker's user and outside the sandbox:
the scenario files of the installed package, the chains in flight, the run's secrets
(task arguments) would all be a client's for the asking. So `run --client --executor ray`

    refuse_mode_set(environ)   before joining: RAY_AUTH_MODE set to anything but `token`
    check_cluster(ray)         once joined: this driver joined without a token, or a node
                               runs without token authentication

refuses in one line (a UsageError, exit 2) before anything flies, and each chain's task
hides the cluster's token file from its client (`token_files`); the sandbox drops every
RAY_* variable (sandbox.py). A local cluster the run starts uses token authentication:
Ray's default when RAY_AUTH_MODE is unset (its token in ~/.ray/auth_token, made if
missing, or $RAY_AUTH_TOKEN_PATH).
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from ..errors import UsageError

MODE_VARIABLE = "RAY_AUTH_MODE"
TOKEN = "token"
WHY = "a client's sandbox shares the cluster's network, and a cluster without it runs any task it is sent, " \
      "outside the sandbox"
HOW = "RAY_AUTH_MODE=token on every node and the driver, the cluster's token in ~/.ray/auth_token or " \
      "$RAY_AUTH_TOKEN_PATH (`ray get-auth-token --generate` makes one); a local cluster the run starts has one " \
      "when RAY_AUTH_MODE is unset"


def refuse_mode_set(environ: Mapping[str, str]) -> None:
    """RAY_AUTH_MODE set to anything but `token` (Ray's own reading of it): a UsageError."""
    mode = environ.get(MODE_VARIABLE)
    if mode is not None and mode.lower() != TOKEN:
        raise UsageError(_refusal(f"{MODE_VARIABLE} is not `{TOKEN}` here"))  # its value is scrubbed as a secret


def check_cluster(ray: Any) -> None:
    """Once joined: a UsageError unless this driver and every live node use token authentication."""
    problem = refusal(_mode(), node_modes(ray))
    if problem is not None:
        raise UsageError(problem)


def refusal(driver: str, nodes: Mapping[str, str]) -> str | None:
    """The line that refuses a cluster, from the modes of this driver and of each node (by address)."""
    if driver != TOKEN:  # a cluster that requires tokens refuses a driver without one
        return _refusal("it accepted this driver without a token")
    without = sorted(address for address, mode in nodes.items() if mode != TOKEN)
    if without:
        return _refusal(f"not on the node(s) at {', '.join(without)}")
    return None


def node_modes(ray: Any) -> dict[str, str]:
    """Each live node's authentication mode, as a task there reports it (a node's processes inherit
    the mode its raylet was started with), by the node's address."""
    from ray.util.scheduling_strategies import NodeAffinitySchedulingStrategy

    nodes = [n for n in ray.nodes() if n.get("Alive")]
    probe = ray.remote(_mode)
    refs = [probe.options(num_cpus=0, max_retries=0,
                          scheduling_strategy=NodeAffinitySchedulingStrategy(n["NodeID"], soft=False)).remote()
            for n in nodes]
    return {n["NodeManagerAddress"]: mode for n, mode in zip(nodes, ray.get(refs), strict=True)}


def token_files(environ: Mapping[str, str] | None = None) -> list[Path]:
    """Where this node's Ray reads the cluster's token from: $RAY_AUTH_TOKEN_PATH and ~/.ray/auth_token."""
    environ = os.environ if environ is None else environ
    named = [Path(environ["RAY_AUTH_TOKEN_PATH"])] if environ.get("RAY_AUTH_TOKEN_PATH") else []
    return [*named, Path.home() / ".ray" / "auth_token"]


def _mode() -> str:
    # Ray 2.60 (pinned) says it here; no public API does.
    from ray._private.authentication.authentication_utils import is_token_auth_enabled

    return TOKEN if is_token_auth_enabled() else "disabled"


def _refusal(why: str) -> str:
    return (f"--client with --executor ray needs a Ray cluster with token authentication ({why}): {WHY}; "
            f"turn it on: {HOW}")
