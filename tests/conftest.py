"""The whole suite runs on every core by default (pytest-xdist), with no flag to remember.

Not `addopts = -n auto` in pyproject.toml: that would make `-p no:xdist`, the usual way to take the
plug-in out, a usage error. Here the default applies only when xdist is loaded and no `-n` was given,
so `-n 0` and `-p no:xdist` both run the tests in this one process (to debug: `-s`, `--pdb`).
"""

from __future__ import annotations

import pytest

LOADGROUP = "a320_loadgroup"  # the key that tells a worker the controller's --dist is loadgroup


@pytest.hookimpl(tryfirst=True)  # before xdist's own, which turns `auto` into a number of workers
def pytest_cmdline_main(config: pytest.Config) -> None:
    if not config.pluginmanager.hasplugin("xdist"):
        return
    if hasattr(config, "workerinput"):
        # A worker parses the command line anew, without the default set below; it adds the xdist_group
        # to each test's id only when it knows the controller schedules by group.
        config.option.loadgroup = config.workerinput.get(LOADGROUP, config.option.loadgroup)
        return
    if config.option.numprocesses is None:
        config.option.numprocesses = "auto"
        if config.option.dist == "no":
            # load balancing, except that the tests of one xdist_group run on one worker (tests/executors:
            # Ray; modules whose module fixture is expensive)
            config.option.dist = "loadgroup"


@pytest.hookimpl(optionalhook=True)  # an xdist hook: absent with -p no:xdist
def pytest_configure_node(node) -> None:
    node.workerinput[LOADGROUP] = node.config.option.dist == "loadgroup"


@pytest.fixture(autouse=True)
def _plugins_imported_here_are_forgotten(tmp_path_factory: pytest.TempPathFactory):
    """`run --agent` imports a plug-in file for the rest of its process and puts the file's folder on
    sys.path (its neighbours import as they would from a script): right for a command, but in a test
    process a later test's `--agent my_agent:MyAgent` then found an earlier test's my_agent.py."""
    import sys

    path = list(sys.path)
    yield
    sys.path[:] = path
    base = str(tmp_path_factory.getbasetemp())
    for name, module in list(sys.modules.items()):
        if str(getattr(module, "__file__", None) or "").startswith(base):
            del sys.modules[name]
