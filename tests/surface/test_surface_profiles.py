"""Tool profiles as data: which tools, and the locked instructions every agent reads."""

from __future__ import annotations

import subprocess
import sys

import pytest

from a320bench.server.sim import ALERT_TITLES, CONTROLS, FAILURES
from a320bench.server.surface import ProfileError, load_profile
from a320bench.server.surface.factory import profile_tools
from a320bench.server.surface.profiles import Profile, available_profiles

from surface_bed import BENCHMARK_TOOLS, DEV_ONLY_TOOLS


def test_the_shipped_profiles_are_benchmark_crew_dev_and_learning():
    assert available_profiles() == ["benchmark", "crew", "dev", "learning"]
    assert list(load_profile("learning").tools) == BENCHMARK_TOOLS + ["save_learning", "retrieve_learnings"]
    assert list(load_profile("benchmark").tools) == BENCHMARK_TOOLS
    assert list(load_profile("crew").tools) == BENCHMARK_TOOLS + ["captain"]
    assert list(load_profile("dev").tools) == BENCHMARK_TOOLS + DEV_ONLY_TOOLS


def test_every_profile_tool_exists():
    for name in available_profiles():
        assert [t.name for t in profile_tools(load_profile(name))] == list(load_profile(name).tools)


def test_a_profile_naming_an_unknown_tool_is_refused():
    bad = Profile(name="bad", description="x", tools=("read_ecam", "teleport"), instructions="x")
    with pytest.raises(ProfileError, match="profile bad: unknown tool\\(s\\) teleport"):
        profile_tools(bad)


def test_an_unknown_profile_names_the_available_ones():
    with pytest.raises(ProfileError, match=r"^unknown profile 'scored' \(profiles: benchmark, crew, dev, learning\)$"):
        load_profile("scored")
    with pytest.raises(ProfileError):
        load_profile("../pyproject")


@pytest.mark.parametrize("name", ["dev", "crew", "learning"])
def test_the_instructions_of_other_profiles_begin_with_the_benchmark_instructions_word_for_word(name):
    assert load_profile(name).instructions.startswith(load_profile("benchmark").instructions)


def test_the_instructions_state_the_time_contract_and_that_report_done_ends_the_episode():
    text = " ".join(load_profile("benchmark").instructions.split())
    assert "Reading (read_ecam, read_system_page, list_controls) takes no simulated time." in text
    assert "Each set_control takes 2 seconds of simulated time" in text
    assert "wait(seconds): let simulated time pass, 1 to 300 seconds per call." in text
    assert "report_done ends the episode: no tool works after it." in text
    for tool in BENCHMARK_TOOLS:
        assert f"{tool}(" in text


def test_the_instructions_name_no_alert_failure_or_control():
    # Nothing about any scenario: the agent learns the situation from the ECAM, not the instructions.
    for name in available_profiles():
        text = load_profile(name).instructions
        assert not [t for t in ALERT_TITLES if t in text]
        assert not [f for f in FAILURES if f in text]
        assert not [c for c in CONTROLS if len(c) > 4 and c in text]


def test_loading_a_profile_imports_neither_mcp_nor_the_simulator():
    code = ("import sys; from a320bench.server.surface.profiles import load_profile; load_profile('dev'); "
            "bad = [m for m in sys.modules if m == 'mcp' or m.startswith(('mcp.', 'a320bench.server.sim'))]; "
            "print(bad); raise SystemExit(bool(bad))")
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert p.returncode == 0, p.stdout + p.stderr


def test_the_package_exports_what_it_lists():
    import a320bench.server.surface as surface

    assert sorted(surface.__all__) == ["Profile", "ProfileError", "create_server", "load_profile"]
    for name in surface.__all__:
        assert getattr(surface, name) is not None
    with pytest.raises(AttributeError):
        surface.nothing_here  # noqa: B018
