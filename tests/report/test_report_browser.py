"""The report as a person sees it: a known run opened in headless Chromium (Debian's, driven by Playwright).

Three providers fly three scenarios twice (scripted: the procedure; noop: reads and
reports; random: seeded random actions), `a320-bench report` writes the page, and the
test reads the rendered page: the score tables' numbers, the paired comparison, an
episode's alert bars and tool-call marks, a filter, and the console (no error). The
screenshots stay in pytest's temporary folder as artefacts.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from a320bench.bridge.cli import main
from a320bench.bridge.report.writer import read_embedded
from a320bench.bridge.score.aggregate import aggregate
from a320bench.bridge.score.inputs import trajectory_files
from a320bench.bridge.score.scorecard import score_file

# One xdist worker for the module: its run, report and browser (module fixtures) are made once, not once per worker.
pytestmark = [pytest.mark.slow, pytest.mark.xdist_group("report_browser")]

ROOT = Path(__file__).resolve().parents[2]
SCENARIOS = [ROOT / p for p in ("scenarios/elec/gen1_fault_reset_fails.yaml", "tests/scenarios/controls/tr1_fault_only.yaml",
                                 "scenarios/fire/eng1_cruise_first_agent.yaml")]
CHROMIUM = Path("/usr/bin/chromium")
LAUNCH_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking",
               "--disable-component-update", "--disable-sync"]
RED = "rgb(214, 39, 40)"  # a warning's bar


@pytest.fixture(scope="module")
def report(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("report-run")
    for provider in ("scripted", "noop", "random"):
        seed = ["--seed", "3"] if provider == "random" else []  # a seed whose random walk makes a dangerous move
        assert main(["run", "--scenario", *map(str, SCENARIOS), "--provider", provider, "--runs", "2", *seed,
                     "--out", str(root / "runs"), "--no-progress"]) in (0,)
    out = root / "report.html"
    assert main(["report", str(root / "runs"), "-o", str(out)]) == 0
    return out


@pytest.fixture(scope="module")
def browser():
    if not CHROMIUM.exists():
        pytest.skip("Debian's chromium is not installed: run .ci/install-system-tools (apt-get install chromium)")
    sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is missing: pip install -e '.[test]'")
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=str(CHROMIUM), args=LAUNCH_ARGS)
        yield b
        b.close()


@pytest.fixture(scope="module")
def page(report, browser):  # the run first: Playwright's sync API holds an event loop open
    pg = browser.new_page(viewport={"width": 1400, "height": 1000})
    problems: list[str] = []
    pg.on("console", lambda m: problems.append(f"console {m.type}: {m.text}") if m.type in ("error", "warning") else None)
    pg.on("pageerror", lambda e: problems.append(f"page error: {e}"))
    pg.on("request", lambda r: None if r.url.startswith("file://") else problems.append(f"fetched {r.url}"))
    pg.goto(report.as_uri())
    pg.wait_for_selector("#loading", state="detached")  # the embedded data is inflated
    pg.problems = problems
    yield pg
    pg.close()


def open_episode(page, report: Path, i: int) -> None:
    """Go to episode i's page and wait until it is drawn (a hash change renders it after goto returns)."""
    page.goto(report.as_uri() + f"#/episode/{i}")
    page.wait_for_function(f"document.getElementById('episode-title')?.textContent.startsWith('Episode {i}: ')"
                           " && document.querySelector('#episode-timeline .main-svg') !== null")


def cells(page, selector: str) -> list[list[str]]:
    return page.eval_on_selector_all(selector + " tbody tr",
                                     "rows => rows.map(r => [...r.cells].map(c => c.innerText.trim()))")


def pct_ci(r: dict) -> str:
    lo, hi = r["ci95"]
    return f"{round(r['rate'] * 100)}% [{round(lo * 100)}%–{round(hi * 100)}%]"


def test_the_overview_shows_the_scores_of_the_known_run(page, report):
    page.screenshot(path=str(report.with_name("overview.png")), full_page=True)
    rows = cells(page, "#table-overall")
    # scripted flies every procedure; noop succeeds only where doing nothing is right (TR 1, level 1).
    # Overall intervals take the 3 scenarios, not the 6 runs, as the trials (score's clustered estimator).
    assert rows[2] == ["scripted", "3", "6", "", "100% [44%–100%]", "100% [44%–100%]", "1.00", "1.00 (k=2)", "0%", "100%",
                       "0", "0", "–", ""]
    assert rows[0] == ["noop", "3", "6", "", "33% [6%–79%]", "33% [6%–79%]", "0.33", "0.33 (k=2)", "0%", "100%",
                       "0", "0", "–", ""]
    # Every row says what `a320-bench score` computes for the same files (random's depends on the simulator).
    overall = aggregate(score_file(p) for p in trajectory_files([report.with_name("runs")]))["overall"]
    assert [r[:10] for r in rows] == [
        [a["model"], str(a["scenarios"]), str(a["n"]), str(a["not_flown"] or ""), pct_ci(a["compliant_success"]), pct_ci(a["outcome_success"]),
         f"{a['completion_mean']:.2f}", f"{a['pass_hat_k']['2']:.2f} (k=2)", f"{round(a['dangerous_rate'] * 100)}%",
         f"{round(a['diagnosis_rate'] * 100)}%"] for a in overall]
    assert cells(page, "#table-pivot") == [
        ["elec_gen1_fault_reset_fails", "ELEC", "0% [0%–66%]", "0% [0%–66%]", "100% [34%–100%]"],
        ["elec_tr1_fault_cruise", "ELEC", "100% [34%–100%]", "0% [0%–66%]", "100% [34%–100%]"],
        ["fire_eng1_cruise_first_agent", "FIRE", "0% [0%–66%]", "0% [0%–66%]", "100% [34%–100%]"],
    ]
    # The charts are drawn by plotly.js: error bars on the rates, one pass^k and one pass@k curve per model.
    assert page.locator("#chart-overall-rates .errorbar").count() == 6
    assert page.locator("#chart-pass-curves .scatterlayer .trace").count() == 6


def test_the_comparison_shows_the_providers_side_by_side_with_a_paired_test(page, report):
    page.click("nav a[data-view=comparison]")
    page.screenshot(path=str(report.with_name("comparison.png")), full_page=True)
    summaries = page.eval_on_selector_all("details.pair > summary", "s => s.map(x => x.innerText.trim())")
    assert summaries == [
        "noop − random: +33 points [+0, +100] not shown to differ · 3 scenarios, 6 pairs, 2 only noop, 0 only random",
        "noop − scripted: -67 points [-100, +0] not shown to differ · 3 scenarios, 6 pairs, 0 only noop, 4 only scripted",
        "random − scripted: -100 points [-100, -100] real · 3 scenarios, 6 pairs, 0 only random, 6 only scripted",
    ]
    first = cells(page, "details.pair:first-of-type table")
    assert first[1] == ["elec_tr1_fault_cruise", "2", "100%", "0%", "+100", "2", "0", "0.500", "1.000", ""]


def test_an_episode_page_shows_its_alert_bars_its_calls_and_the_procedure(page, report):
    page.goto(report.as_uri() + "#/episodes")
    page.select_option("#filter-scenario", "fire_eng1_cruise_first_agent")
    page.select_option("#filter-model", "scripted")
    assert page.inner_text("#filter-count") == "2 of 18 episodes"
    page.click("#table-episodes tbody tr:first-child")
    page.wait_for_function("document.querySelector('#episode-timeline .main-svg') !== null")
    page.screenshot(path=str(report.with_name("episode.png")), full_page=True)
    assert page.inner_text("#episode-title") == "Episode 16: fire_eng1_cruise_first_agent"
    timeline = page.locator("#episode-timeline")
    ticks = timeline.locator(".ytick text").evaluate_all("ts => ts.map(t => t.textContent)")
    assert ticks == ["waits", "reads", "actions", "ENG 1 FIRE", "ENG 1 SHUT DOWN"]
    ys = timeline.locator(".ytick text").evaluate_all("ts => ts.map(t => t.getBoundingClientRect().y)")
    assert ys[3] < ys[4] < ys[2] < ys[1] < ys[0]  # alerts on top, the first to appear highest
    # ENG 1 FIRE: shown from 0, cleared within the ATC NOTIFY call (18-20 s): a solid and a hatched part;
    # ENG 1 SHUT DOWN from 2 s to the end; two waits.
    assert timeline.locator(".barlayer .point").count() == 5
    fills = timeline.locator(".barlayer .trace").first.locator(".point path").evaluate_all(
        "ps => ps.map(p => p.style.fill)")
    assert fills == [RED]
    # Every call but the two waits is a mark: 2 reads + report_done, and 7 correct actions (X BLEED SHUT is
    # optional: with the crossbleed valve shut, ENG 1 SHUT DOWN does not show it).
    assert timeline.locator(".scatterlayer .point").count() == 10
    assert page.locator("#episode-calls tbody tr").count() == 12
    assert page.locator(".block li.step-done").count() == page.locator(".block li").count() == 7
    assert page.locator("#episode-criteria td.fail").count() == 0


def test_a_forbidden_action_is_highlighted_with_its_severity_and_reason(page, report):
    data = read_embedded(report.read_text(encoding="utf-8"))
    dangerous = [i for i, e in enumerate(data["episodes"]) if e["dangerous"]]
    assert dangerous, "the random provider made no dangerous move in this run: pick another seed or scenario"
    i = dangerous[0]
    open_episode(page, report, i)
    box = page.inner_text("#forbidden-actions")
    [call] = [c for c in data["episodes"][i]["calls"] if c["cls"] == "forbidden_dangerous"]
    assert f"#{call['seq']} set_control(control={call['args']['control']}, position={call['args']['position']})" in box
    assert "forbidden (dangerous)" in box and call["match"] in box
    unsafe = [c for c in data["episodes"][i]["calls"] if c["cls"].startswith("forbidden") or c["cls"] == "harmful"]
    assert page.locator("#episode-calls tr.is-forbidden").count() == len(unsafe)


def test_every_episode_has_a_page_with_its_timeline(page, report):
    page.goto(report.as_uri() + "#/episodes")
    assert page.inner_text("#filter-count") == "18 of 18 episodes"
    for i in range(18):
        open_episode(page, report, i)
        assert page.locator("#episode-calls tbody tr").count() > 0


def test_the_filters_narrow_the_list_and_survive_a_reload(page, report):
    page.goto(report.as_uri() + "#/episodes")
    page.select_option("#filter-model", "noop")
    page.select_option("#filter-result", "compliant")
    rows = cells(page, "#table-episodes")
    assert [(r[1], r[2], r[4]) for r in rows] == [("elec_tr1_fault_cruise", "noop", "compliant success")] * 2
    page.reload()
    page.wait_for_selector("#loading", state="detached")
    assert page.inner_text("#filter-count") == "2 of 18 episodes"
    page.select_option("#filter-result", "")
    page.fill("#filter-q", "fire")
    assert page.inner_text("#filter-count") == "2 of 18 episodes"


def test_nothing_went_wrong_in_the_console_and_nothing_was_fetched(page):
    assert page.problems == []
