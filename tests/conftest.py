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
