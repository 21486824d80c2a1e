"""One Ray cluster for the whole session, in local mode with 2 CPUs, started only if a Ray test runs."""

from __future__ import annotations

import os
import secrets
import tempfile
from pathlib import Path
from typing import NamedTuple

import pytest


class RayCluster(NamedTuple):
    address: str  # for drivers started as subprocesses
    temp: Path  # the TMPDIR every process of this cluster inherited: tells its workers from another suite's
    token: Path  # its token file ($RAY_AUTH_TOKEN_PATH), in `temp`


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Every test on the session's Ray cluster runs on one xdist worker (--dist loadgroup): one cluster
    to start, not one per worker."""
    for item in items:
        if "ray_cluster" in getattr(item, "fixturenames", ()):
            item.add_marker(pytest.mark.xdist_group("ray"))


@pytest.fixture(scope="session")
def ray_cluster():
    """The session's Ray: 2 CPUs on loopback, no dashboard, token authentication (a client may fly on it only
    so) with its token in the tmp folder, never ~/.ray; everything under that folder."""
    # Its own short folder, not pytest's: Ray's socket paths must fit AF_UNIX's 107 bytes, and under xdist
    # /tmp/pytest-of-root/pytest-69/popen-gw0/ray0/r/session_<date>_<time>_<pid>/sockets/plasma_store did not.
    with tempfile.TemporaryDirectory(prefix="ray-", ignore_cleanup_errors=True) as name:
        yield from _cluster(Path(name))


def _cluster(root: Path):
    from a320bench.bridge.executors.ray_executor import SINGLE_MACHINE, import_ray

    saved = {k: os.environ.get(k) for k in ("RAY_AUTH_MODE", "RAY_AUTH_TOKEN", "RAY_AUTH_TOKEN_PATH", "RAY_ADDRESS",
                                            "TMPDIR", *SINGLE_MACHINE)}
    ray = import_ray(local=True)  # its servers on loopback only
    # Unset, the mode is Ray's default for a new local cluster: token (Ray sets RAY_AUTH_MODE=token, which
    # drivers started as subprocesses inherit). The token is read from the path named, not ~/.ray, where Ray
    # would otherwise write one.
    token = root / "auth_token"
    token.write_text(secrets.token_hex(32))
    token.chmod(0o600)
    os.environ.pop("RAY_AUTH_MODE", None)
    os.environ.pop("RAY_AUTH_TOKEN", None)
    os.environ["RAY_AUTH_TOKEN_PATH"] = str(token)
    os.environ.pop("RAY_ADDRESS", None)
    os.environ["TMPDIR"] = str(root)  # Ray's processes inherit it: a killed task's private folder stays here
    try:
        ray.init(num_cpus=2, resources={"client": 2.0}, include_dashboard=False, log_to_driver=False,
                 configure_logging=False, _temp_dir=str(root / "r"))
    finally:
        _restore({"TMPDIR": saved.pop("TMPDIR")})
    try:
        yield RayCluster(ray.get_runtime_context().gcs_address, root, token)
    finally:
        ray.shutdown()
        _restore(saved)


def _restore(saved: dict[str, str | None]) -> None:
    for k, v in saved.items():
        if v is None:
            os.environ.pop(k, None)
        else:
            os.environ[k] = v
