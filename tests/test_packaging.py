"""The distribution installs every package folder and finds its data."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

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
    # The ecam column is taken as listed here (computing it flies the baseline);
    # tests/scenario/test_catalogue_bounds.py checks it against a real run.
    from a320bench.bridge.catalogue import listed, listed_ecam, table

    readme = (ROOT / "README.md").read_text()
    assert listed(readme).strip() == table(listed_ecam(readme)).strip(), \
        "run: python -m a320bench.bridge.catalogue --readme"


@pytest.mark.slow
def test_the_wheel_carries_every_package_the_profiles_the_scenarios_and_the_schema(tmp_path):
    import subprocess
    import sys
    import zipfile

    # Build from a copy: a build writes egg-info and build/ next to the sources.
    src = tmp_path / "src"
    subprocess.run(["git", "clone", "-q", str(ROOT), str(src)], check=True)
    subprocess.run([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "--no-build-isolation", "-w",
                    str(tmp_path), str(src)], check=True, capture_output=True)
    (wheel,) = tmp_path.glob("a320_bench-*.whl")
    names = set(zipfile.ZipFile(wheel).namelist())
    cfg = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
    for pkg in cfg["packages"]:
        assert pkg.replace(".", "/") + "/__init__.py" in names, pkg
    assert {"a320bench/profiles/benchmark.yaml", "a320bench/profiles/dev.yaml",
            "a320bench/scenarios/schema/scenario.schema.json", "a320bench/bridge/report/templates/report.html.j2",
            "a320bench/bridge/report/templates/report.js", "a320bench/bridge/report/templates/report.css"} <= names
    scenarios = {f"a320bench/scenarios/{p.relative_to(ROOT / 'scenarios').as_posix()}"
                 for p in (ROOT / "scenarios").rglob("*.yaml")}
    assert scenarios <= names
