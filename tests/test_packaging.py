"""The distribution installs every package folder and finds its data."""

from __future__ import annotations

import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
MAPPED = {"a320bench": "a320bench", "a320bench.server": "server", "a320bench.bridge": "bridge",
          "a320bench.profiles": "profiles", "a320bench.scenarios": "scenarios"}


def test_every_package_folder_is_listed_in_pyproject():
    cfg = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
    assert cfg["package-dir"] == MAPPED
    found = set()
    for pkg, folder in MAPPED.items():
        for init in (ROOT / folder).rglob("__init__.py"):
            rel = init.parent.relative_to(ROOT / folder)
            found.add(".".join([pkg, *rel.parts]) if rel.parts else pkg)
    assert sorted(found) == sorted(cfg["packages"])


def test_the_installed_package_finds_its_scenarios_and_profiles():
    from a320bench.bridge.selection import builtin_scenarios_dir, scenario_files

    assert builtin_scenarios_dir() == ROOT / "scenarios"
    assert len(scenario_files(None)) >= 9
    from a320bench.server.surface.profiles import load_profile

    assert load_profile("benchmark").name == "benchmark"


def test_the_readme_lists_the_whole_catalogue():
    from a320bench.bridge.catalogue import BEGIN, END, table

    readme = (ROOT / "README.md").read_text()
    listed = readme[readme.index(BEGIN) + len(BEGIN):readme.index(END)]
    assert listed.strip() == table().strip(), "run: python -m a320bench.bridge.catalogue --readme"
