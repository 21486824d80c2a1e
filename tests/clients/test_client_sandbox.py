"""The client's sandbox: what it binds, masks and leaves out, and a sandbox that cannot be set up as an
infrastructure error before the episode, in one line."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from a320bench.bridge import exitcodes
from a320bench.bridge.clients.sandbox import HOME, PATH, WORK, DataFile, build, environment, find_bwrap, program_paths
from tests.clients.client_bed import events, python_cmd, run, trajectory


@pytest.mark.usefixtures("sandboxed")
def test_a_hidden_folder_inside_a_bound_one_is_empty_and_data_files_arrive_read_only(tmp_path):
    tree = tmp_path / "tree"
    (tree / "secret").mkdir(parents=True)
    (tree / "secret" / "answer.txt").write_text("42")
    (tree / "visible.txt").write_text("hello")
    (tmp_path / "beside.txt").write_text("not for the client")
    box = build(find_bwrap(), [tree], hidden=[tree / "secret", tmp_path / "elsewhere"])
    assert box.masked == (str(tree / "secret"),) and str(tree) in box.read_only
    script = (f"find {tree} {HOME} | sort; cat {HOME}/note.txt; echo; pwd; id -u; "
              f"echo x > {HOME}/note.txt || echo read-only; ls -A {tmp_path}")
    argv, fds = box.command(["/bin/sh", "-c", script], [DataFile(f"{HOME}/note.txt", b"for the client")])
    p = subprocess.run(argv, pass_fds=fds, capture_output=True, text=True, timeout=60)
    assert p.returncode == 0, p.stderr
    lines = p.stdout.splitlines()
    assert lines[:6] == [HOME, f"{HOME}/note.txt", f"{HOME}/work", str(tree), str(tree / "secret"),
                         str(tree / "visible.txt")]
    assert lines[6:9] == ["for the client", WORK, "1000" if box.user_namespace else "0"]
    assert lines[9:] == ["read-only", "tree"]  # what lies beside a bound folder is not there


@pytest.mark.usefixtures("sandboxed")
def test_a_hidden_file_inside_a_bound_folder_is_not_there_and_one_bound_itself_is_empty(tmp_path):
    tree = tmp_path / "tree"
    (tree / "sub").mkdir(parents=True)
    (tree / "sub" / "secret.yaml").write_text("procedure")
    (tree / "sub" / "kept.txt").write_text("kept")
    (tree / "sub" / "link").symlink_to("secret.yaml")
    (tree / "named.yaml").write_text("procedure")
    (tree / "runs").mkdir()
    (tree / "runs" / "inside.yaml").write_text("procedure")  # in a hidden folder: covered with it
    hidden = [tree / "sub" / "secret.yaml", tree / "named.yaml", tree / "runs", tree / "runs" / "inside.yaml"]
    box = build(find_bwrap(), [tree, tree / "named.yaml"], hidden=hidden)
    assert (box.masked, box.left_out, box.blanked) == \
        ((str(tree / "runs"),), (str(tree / "sub" / "secret.yaml"),), (str(tree / "named.yaml"),))
    assert box.hidden == tuple(sorted(map(str, hidden)))
    assert box.policy()["left_out"] == [str(tree / "sub" / "secret.yaml")]
    script = (f"cd {tree}; find . | sort; cat sub/kept.txt; echo; readlink sub/link; cat sub/link || echo gone; "
              "wc -c < named.yaml; touch sub/new runs/new 2>&1 | sed 's/.*: //'")
    argv, fds = box.command(["/bin/sh", "-c", script], [])
    p = subprocess.run(argv, pass_fds=fds, capture_output=True, text=True, timeout=60)
    assert p.stdout.splitlines() == [".", "./named.yaml", "./runs", "./sub", "./sub/kept.txt", "./sub/link", "kept",
                                     "secret.yaml", "gone", "0", "Read-only file system", "Read-only file system"]


def test_the_environment_leaves_out_what_names_hidden_folders_the_callers_own_places_and_any_ray_cluster(
        tmp_path):
    hidden = [tmp_path / "runs", tmp_path / "checkout"]
    base = {"HOME": "/root", "PATH": "/venv/bin:/usr/bin", "PWD": str(tmp_path / "checkout"), "LANG": "C.UTF-8",
            "RESULTS": f"{tmp_path}/runs/x", "ANTHROPIC_API_KEY": "k", "A320_BENCH_CLAUDE": "/c",
            "XDG_CACHE_HOME": "/c",
            "VIRTUAL_ENV": "/venv", "ENABLE_TOOL_SEARCH": "true",
            "RAY_ADDRESS": "10.0.0.1:6379", "RAY_AUTH_MODE": "disabled", "RAY_AUTH_TOKEN": "t"}
    env, dropped = environment(base, hidden, {"ENABLE_TOOL_SEARCH": "false"})
    assert env == {"LANG": "C.UTF-8", "ANTHROPIC_API_KEY": "k", "ENABLE_TOOL_SEARCH": "false",
                   "HOME": HOME, "PATH": PATH, "TMPDIR": "/tmp", "PWD": WORK}
    assert dropped == ("A320_BENCH_CLAUDE", "HOME", "PATH", "PWD", "RAY_ADDRESS", "RAY_AUTH_MODE", "RAY_AUTH_TOKEN",
                       "RESULTS", "VIRTUAL_ENV", "XDG_CACHE_HOME")


def test_a_program_brings_its_node_modules_or_its_install_prefix_or_itself(tmp_path):
    pkg = tmp_path / "tools" / "node_modules" / "@x" / "agent" / "bin"
    pkg.mkdir(parents=True)
    (pkg / "agent").write_text("binary")
    (tmp_path / "tools" / "node_modules" / ".bin").mkdir()
    (tmp_path / "tools" / "node_modules" / ".bin" / "agent").symlink_to(pkg / "agent")
    assert program_paths(tmp_path / "tools" / "node_modules" / ".bin" / "agent") == \
        [tmp_path / "tools" / "node_modules"]
    prefix = tmp_path / "py"
    (prefix / "bin").mkdir(parents=True)
    (prefix / "lib").mkdir()
    (prefix / "bin" / "python9").write_text("binary")
    assert program_paths(prefix / "bin" / "python9") == [prefix]
    script = tmp_path / "agent.sh"
    script.write_text(f"#!{prefix}/bin/python9\n")
    assert program_paths(script) == [script, prefix]
    assert program_paths(Path("/usr/bin/env")) == []


def test_no_bubblewrap_is_one_line_and_a_client_error_before_any_episode_starts(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("PATH", str(tmp_path / "empty"))
    out = tmp_path / "out"
    rc = run(out, "--client", "cmd", "--client-cmd", python_cmd("-c", "print(1)", "{config}"), "--runs", "2")
    assert rc == exitcodes.CLIENT_ERROR
    why = ("the client's sandbox cannot be set up: bwrap is not installed; "
           "install bubblewrap (Debian/Ubuntu: apt-get install bubblewrap)")
    assert [line for line in capsys.readouterr().err.splitlines() if "client_error" in line] == \
        [f"error: elec_gen1_fault_reset_fails/cmd__run000: client_error: {why}"]  # once for both episodes
    for r in (0, 1):
        evs = events(trajectory(out, "cmd", r))
        assert [e["type"] for e in evs] == ["meta", "setup", "client_report", "final"]  # no agent ever came
        assert evs[-1]["reason"] == "client_error" and evs[-1]["client_error"] == why
        assert evs[-1]["superseded_reason"] is None
    record = json.loads(next(out.glob("run-*.json")).read_text())
    assert record["sandbox"] == {"error": why}


@pytest.mark.usefixtures("sandboxed")
def test_a_sandbox_bubblewrap_refuses_is_one_line_saying_why(tmp_path, monkeypatch, capsys):
    fake = tmp_path / "bin" / "bwrap"
    fake.parent.mkdir()
    fake.write_text("#!/bin/sh\n[ \"$1\" = --version ] && { echo 'bubblewrap 0.8.0'; exit 0; }\n"
                    "echo 'bwrap: Creating new namespace failed: Operation not permitted' >&2; exit 1\n")
    fake.chmod(0o755)
    monkeypatch.setenv("PATH", f"{fake.parent}:/usr/bin:/bin")
    rc = run(tmp_path / "out", "--client", "cmd", "--client-cmd", python_cmd("-c", "print(1)", "{config}"))
    assert rc == exitcodes.CLIENT_ERROR
    assert capsys.readouterr().err.splitlines()[0] == (
        "error: elec_gen1_fault_reset_fails/cmd__run000: client_error: the client's sandbox cannot be set up: "
        "bwrap says: bwrap: Creating new namespace failed: Operation not permitted")
