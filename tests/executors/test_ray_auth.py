"""`run --client --executor ray` only on a cluster with token authentication: a client's sandbox shares the
cluster's network (test_ray_executor.py: its GCS is there to connect to), and a cluster without it runs any
task it is sent, outside the sandbox."""

from __future__ import annotations

from pathlib import Path

import pytest

from a320bench.bridge import exitcodes
from a320bench.bridge.cli import main
from a320bench.bridge.errors import UsageError
from a320bench.bridge.executors import ray_auth
from tests.clients.client_bed import AGENT, SCENARIO, python_cmd

HOW = ("turn it on: RAY_AUTH_MODE=token on every node and the driver, the cluster's token in ~/.ray/auth_token or "
       "$RAY_AUTH_TOKEN_PATH (`ray get-auth-token --generate` makes one); a local cluster the run starts has one "
       "when RAY_AUTH_MODE is unset")


def refused(why: str) -> str:
    return (f"--client with --executor ray needs a Ray cluster with token authentication ({why}): a client's "
            f"sandbox shares the cluster's network, and a cluster without it runs any task it is sent, outside the "
            f"sandbox; {HOW}")


def test_a_client_on_ray_with_token_authentication_turned_off_is_refused_before_anything_flies(
        monkeypatch, tmp_path, capsys):
    monkeypatch.setenv("RAY_AUTH_MODE", "disabled")
    out = tmp_path / "runs"
    assert main(["run", "--scenario", str(SCENARIO), "--out", str(out), "--no-progress", "--executor", "ray",
                 "--client", "cmd", "--client-cmd", python_cmd(str(AGENT), "look", "{config}", "{server}")]
                ) == exitcodes.USAGE
    assert capsys.readouterr().err == f"error: {refused('RAY_AUTH_MODE is not `token` here')}\n"
    assert not out.exists()  # no run record, no trajectory


def test_only_token_or_ray_s_default_passes_before_joining():
    for environ in ({}, {"RAY_AUTH_MODE": "token"}, {"RAY_AUTH_MODE": "TOKEN"}):
        ray_auth.refuse_mode_set(environ)
    with pytest.raises(UsageError) as e:
        ray_auth.refuse_mode_set({"RAY_AUTH_MODE": "off"})
    assert str(e.value) == refused("RAY_AUTH_MODE is not `token` here")


def test_a_joined_cluster_is_refused_when_the_driver_got_in_without_a_token_or_a_node_runs_without_one():
    assert ray_auth.refusal("token", {"10.0.0.2": "token", "10.0.0.3": "token"}) is None
    assert ray_auth.refusal("disabled", {"10.0.0.2": "disabled"}) == refused("it accepted this driver without a "
                                                                             "token")
    assert ray_auth.refusal("token", {"10.0.0.3": "disabled", "10.0.0.2": "token", "10.0.0.1": "disabled"}) \
        == refused("not on the node(s) at 10.0.0.1, 10.0.0.3")


def test_the_token_files_hidden_from_a_client_are_the_named_one_and_ray_s_default():
    default = Path.home() / ".ray" / "auth_token"
    assert ray_auth.token_files({"RAY_AUTH_TOKEN_PATH": "/srv/ray/token"}) == [Path("/srv/ray/token"), default]
    assert ray_auth.token_files({}) == [default]


@pytest.mark.slow
@pytest.mark.usefixtures("ray_cluster")
def test_each_node_of_the_tests_cluster_reports_token_authentication():
    import ray

    assert ray_auth.node_modes(ray) == {"127.0.0.1": "token"}
    ray_auth.check_cluster(ray)  # no UsageError


@pytest.mark.slow
@pytest.mark.usefixtures("ray_cluster")
def test_a_joined_cluster_with_a_node_without_token_authentication_is_refused_before_anything_flies(
        monkeypatch, tmp_path, capsys):
    # The tests' one cluster requires tokens; a node reporting otherwise is what a `ray start` without a token
    # gives (this driver, with its token, joins such a cluster all the same).
    monkeypatch.setattr(ray_auth, "node_modes", lambda ray: {"10.0.0.9": "disabled", "127.0.0.1": "token"})
    out = tmp_path / "runs"
    assert main(["run", "--scenario", str(SCENARIO), "--out", str(out), "--no-progress", "--executor", "ray",
                 "--client", "cmd", "--client-cmd", python_cmd(str(AGENT), "look", "{config}", "{server}")]
                ) == exitcodes.USAGE
    assert capsys.readouterr().err == f"error: {refused('not on the node(s) at 10.0.0.9')}\n"
    assert list(out.rglob("*.jsonl")) == []  # the run record only: nothing flew
