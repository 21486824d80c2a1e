"""Fixtures and settings of the scoring tests."""

from __future__ import annotations

import atexit
import shutil
import tempfile

from hypothesis import configuration

# Hypothesis caches examples and constants under ./.hypothesis by default; tests leave no
# files behind, so it gets a temporary home, removed when the session ends.
_HOME = tempfile.mkdtemp(prefix="a320bench-hypothesis-")
configuration.set_hypothesis_home_dir(_HOME)
atexit.register(shutil.rmtree, _HOME, True)
