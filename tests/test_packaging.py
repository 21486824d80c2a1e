"""The distribution installs every package folder and finds its data."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
MAPPED = {"a320bench": "a320bench", "a320bench.server": "server", "a320bench.bridge": "bridge",
          "a320bench.profiles": "profiles", "a320bench.scenarios": "scenarios"}


def folders() -> dict[str, Path]:
    """Every package folder under the mapped roots, and every folder of data inside them (listed too, or
    setuptools warns that it will stop installing it), by its dotted name."""
    found = {}
    for pkg, root in MAPPED.items():
        for folder in [ROOT / root, *(ROOT / root).rglob("*")]:
            if folder.is_dir() and folder.name != "__pycache__":
                rel = folder.relative_to(ROOT / root)
                found[".".join([pkg, *rel.parts])] = folder
    return found


def test_every_package_and_data_folder_is_listed_in_pyproject():
    cfg = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
    assert cfg["package-dir"] == MAPPED
    assert sorted(folders()) == sorted(cfg["packages"])


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


def build_wheel(tmp_path: Path) -> Path:
    """The wheel of the committed checkout, built offline from a clone (a build writes egg-info and
    build/ next to the sources)."""
    import subprocess
    import sys

    src = tmp_path / "src"
    subprocess.run(["git", "clone", "-q", str(ROOT), str(src)], check=True)
    built = subprocess.run([sys.executable, "-m", "pip", "wheel", "-v", "--no-deps", "--no-build-isolation", "-w",
                            str(tmp_path), str(src)], check=True, capture_output=True, text=True)
    # setuptools warns of a data folder left out of `packages`, which it says it will stop installing
    assert "absent from the `packages` configuration" not in built.stdout + built.stderr
    (wheel,) = tmp_path.glob("a320_bench-*.whl")
    return wheel


@pytest.mark.slow
def test_the_wheel_carries_every_package_the_profiles_the_scenarios_and_the_schema(tmp_path):
    import zipfile

    wheel = build_wheel(tmp_path)
    names = set(zipfile.ZipFile(wheel).namelist())
    cfg = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
    for pkg, folder in folders().items():
        if (folder / "__init__.py").exists():
            assert pkg.replace(".", "/") + "/__init__.py" in names, pkg
    assert {"a320bench/profiles/benchmark.yaml", "a320bench/profiles/dev.yaml",
            "a320bench/scenarios/schema/scenario.schema.json", "a320bench/bridge/report/templates/report.html.j2",
            "a320bench/bridge/report/templates/report.js", "a320bench/bridge/report/templates/report.css"} <= names
    scenarios = {f"a320bench/scenarios/{p.relative_to(ROOT / 'scenarios').as_posix()}"
                 for p in (ROOT / "scenarios").rglob("*.yaml")}
    assert scenarios <= names


def base_closure() -> list[str]:
    """The distributions `pip install a320-bench` (no extra) brings: its requirements, recursively,
    markers evaluated for this interpreter with no extra asked for."""
    from importlib.metadata import distribution

    from packaging.requirements import Requirement
    from packaging.utils import canonicalize_name

    seen: set[tuple[str, str]] = set()
    todo = [("a320-bench", "")]  # (distribution, one extra of it asked for by a dependent: pyjwt[crypto])
    while todo:
        name, extra = todo.pop()
        name = canonicalize_name(name)
        if (name, extra) in seen:
            continue
        seen.add((name, extra))
        for line in distribution(name).requires or []:
            req = Requirement(line)
            if req.marker is None or req.marker.evaluate({"extra": extra}):
                todo += [(req.name, x) for x in ("", *req.extras)]
    return sorted({name for name, _ in seen} - {"a320-bench"})


def only_these_distributions(names: list[str], folder: Path) -> Path:
    """A folder that holds (links to) exactly these installed distributions: offline, a fresh
    environment sees what a network install without extras would give it, and nothing more."""
    from importlib.metadata import distribution

    folder.mkdir()
    for name in names:
        dist = distribution(name)
        for top in {f.parts[0] for f in dist.files or [] if f.parts and f.parts[0] not in ("..", "__pycache__")}:
            source = Path(dist.locate_file(top))
            if source.exists() and not (folder / top).exists():
                (folder / top).symlink_to(source)
    return folder


@pytest.mark.slow
def test_a_fresh_install_without_extras_runs_the_quick_start_and_says_what_an_extra_would_add(tmp_path):
    import subprocess
    import sys
    import sysconfig

    wheel = build_wheel(tmp_path)
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, capture_output=True)
    site = Path(subprocess.run([venv / "bin" / "python", "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"],
                               check=True, capture_output=True, text=True).stdout.strip())
    assert sysconfig.get_path("purelib") != str(site)
    deps = only_these_distributions(base_closure(), tmp_path / "deps")
    (site / "a320_bench_deps.pth").write_text(f"{deps}\n")
    subprocess.run([venv / "bin" / "pip", "install", "-q", "--no-deps", "--no-index", str(wheel)], check=True,
                   capture_output=True)
    for extra in ("litellm", "tenacity", "pytest"):  # what the extras add is not there
        found = subprocess.run([venv / "bin" / "python", "-c", f"import {extra}"], capture_output=True)
        assert found.returncode == 1, extra

    bench = str(venv / "bin" / "a320-bench")
    elec = sorted((ROOT / "scenarios" / "elec").glob("*.yaml"))
    quick = subprocess.run([bench, "run", "--scenario", str(ROOT / "scenarios" / "elec"), "--out", "runs",
                            "--no-progress"], cwd=tmp_path, capture_output=True, text=True, timeout=600)
    assert quick.returncode == 0, quick.stderr[-2000:]
    assert f"{len(elec)} episodes scored." in quick.stdout
    assert len(list((tmp_path / "runs").glob("*/scripted__run000.jsonl"))) == len(elec)
    model = subprocess.run([bench, "run", "--model", "anthropic/claude-sonnet-4-5", "--out", "runs2"], cwd=tmp_path,
                           capture_output=True, text=True, timeout=120)
    assert model.returncode == 2
    assert re.fullmatch(re.escape("error: the litellm provider needs the providers extra (litellm is not installed): "
                                  f"{venv}/bin/python") + r"[0-9.]*" + re.escape(" -m pip install 'a320-bench[providers]'\n"),
                        model.stderr), model.stderr
