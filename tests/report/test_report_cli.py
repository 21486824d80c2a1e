"""`a320-bench report`: one self-contained file, one-line errors, and `run` says how to make it."""

from __future__ import annotations

import html as html_lib
import re
from pathlib import Path

from a320bench.bridge import exitcodes
from a320bench.bridge.cli import main
from a320bench.bridge.report.writer import read_embedded
from score_builder import compliant, gen1

ROOT = Path(__file__).resolve().parents[2]
ELEC = ROOT / "scenarios" / "elec" / "gen1_fault_reset_fails.yaml"


def test_the_report_is_one_file_with_every_episode_and_nothing_fetched(tmp_path, capsys):
    compliant(model="m-1").write(tmp_path / "runs" / "a.jsonl")
    gen1(model="m-2").read().done("no idea").final(passed=False).write(tmp_path / "runs" / "b.jsonl")
    out = tmp_path / "r.html"
    assert main(["report", str(tmp_path / "runs"), "-o", str(out)]) == exitcodes.OK
    assert capsys.readouterr().out.startswith(f"report: 2 episodes -> {out} (")
    html = out.read_text(encoding="utf-8")
    # Offline: no script, stylesheet, image or frame is loaded from anywhere.
    assert not re.search(r"<(script|img|iframe)[^>]*\bsrc=", html)
    assert "<link" not in html and "@import" not in html
    assert html.count("<script") == 3  # the data, plotly.js once, the page's script
    data = read_embedded(html)
    assert [(e["model"], e["compliant"], e["report"]["diagnosis"]) for e in data["episodes"]] == [
        ("m-1", True, "GEN 1 fault, reset unsuccessful"), ("m-2", False, "no idea")]
    assert data["models"] == ["m-1", "m-2"]
    # The overview is in the HTML itself, rendered by Jinja2.
    assert '<tr data-model="m-1">' in html and '<tr data-model="m-2">' in html


def test_no_text_from_a_trajectory_can_close_the_script_element_or_inject_markup(tmp_path):
    evil = '</script><img src=x onerror="alert(1)"><!--'
    gen1(model=evil, scenario_id="s<b>").read().done(evil).final().write(tmp_path / "t.jsonl")
    out = tmp_path / "r.html"
    assert main(["report", str(tmp_path / "t.jsonl"), "-o", str(out)]) == exitcodes.OK
    html = out.read_text(encoding="utf-8")
    assert "<img" not in html and "s<b>" not in html
    assert "s&lt;b&gt;" in html  # Jinja2 escaped the scenario id in the tables
    assert read_embedded(html)["episodes"][0]["report"]["diagnosis"] == evil


def test_bad_inputs_give_one_line_and_exit_2(tmp_path, capsys):
    (tmp_path / "empty").mkdir()
    (tmp_path / "notes.jsonl").write_text('{"hello": 1}\n')
    compliant().write(tmp_path / "ok.jsonl")
    cases = [
        (["report", str(tmp_path / "missing")], f"error: {tmp_path / 'missing'}: no such file or folder"),
        (["report", str(tmp_path / "empty")], f"error: {tmp_path / 'empty'}: no trajectory (*.jsonl) found there"),
        (["report", str(tmp_path / "notes.jsonl")],
         f"error: {tmp_path / 'notes.jsonl'}: not an a320-bench trajectory (the first line is not a `meta` event)"),
        (["report", str(tmp_path / "ok.jsonl"), "-o", str(tmp_path / "ok.jsonl" / "dir" / "r.html")],
         f"error: {tmp_path / 'ok.jsonl' / 'dir' / 'r.html'}: cannot write: {tmp_path / 'ok.jsonl'} is a file where "
         "a folder goes"),
    ]
    for argv, line in cases:
        assert main(argv) == exitcodes.USAGE
        assert capsys.readouterr().err == line + "\n"
    assert not list(tmp_path.rglob("*.html")) and not list(tmp_path.rglob("*.tmp"))


def test_a_truncated_last_line_is_warned_about_once_and_the_rest_reported(tmp_path, capsys):
    path = compliant().write(tmp_path / "t.jsonl", truncate_last=True)
    assert main(["report", str(path), "-o", str(tmp_path / "r.html")]) == exitcodes.OK
    err = capsys.readouterr().err
    assert err == f"warning: {path}: last line {len(compliant().events)} is truncated; scoring what is there\n"
    assert read_embedded((tmp_path / "r.html").read_text())["episodes"][0]["status"] == "incomplete"


def test_run_ends_by_printing_the_command_that_makes_the_report(tmp_path, capsys):
    out = tmp_path / "my runs"
    assert main(["run", "--scenario", str(ELEC), "--out", str(out), "--no-progress"]) == exitcodes.OK
    err = capsys.readouterr().err.splitlines()
    assert err[-1] == f"make the report: a320-bench report '{out}'"
    assert main(["report", str(out), "-o", str(tmp_path / "r.html")]) == exitcodes.OK
    [ep] = read_embedded((tmp_path / "r.html").read_text())["episodes"]
    assert (ep["scenario"], ep["compliant"]) == ("elec_gen1_fault_reset_fails", True)
    assert ep["alerts"][0] == {"title": "ELEC GEN 1 FAULT", "level": 2, "on": 0.0, "on_since": None, "off": 2.0,
                               "off_since": 0.0}


def test_episodes_that_are_not_the_agents_result_are_counted_apart_and_tokens_charted(tmp_path):
    compliant(model="m-1").assistant(1000, 50, 0.25).write(tmp_path / "runs" / "a.jsonl")
    gen1(model="m-1", run_index=1).read().final(reason="provider_error", passed=False).write(tmp_path / "runs" / "b.jsonl")
    out = tmp_path / "r.html"
    assert main(["report", str(tmp_path / "runs"), "-o", str(out)]) == exitcodes.OK
    html = out.read_text(encoding="utf-8")
    excluded = re.search(r'<p class="excluded" id="excluded">(.*?)</p>', html, re.S).group(1)
    assert " ".join(html_lib.unescape(re.sub(r"<[^>]+>", "", excluded)).split()) == (
        "Counted apart (not the agent's result: left out of the means, and, but for a failed gate, counted as not "
        "flown (a failed trial) in the headline rates until flown again (score --include-errors counts them as "
        "failed episodes)): provider_error 1.")
    row = re.search(r'<tr data-model="m-1">(.*?)</tr>', html, re.S).group(1)
    assert [re.sub(r"<[^>]+>", "", c).strip() for c in re.findall(r"<td[^>]*>(.*?)</td>", row, re.S)] == [
        # The provider error is a failed trial (not flown): two trials, one compliant; the model row's interval
        # has the one scenario as its trial (stats.clustered).
        "m-1", "1", "1", "1", "50% [5%–95%]", "50% [5%–95%]", "1.00", "0.00 (k=2)", "0%", "100%", "1000", "50",
        "0.2500", "provider_error 1"]
    figures = read_embedded(html)["figures"]
    assert [t["y"] for t in figures["cost-tokens"]["data"]] == [[1000], [50], [0.25]]


def test_an_edited_trajectory_with_odd_shapes_is_shown_or_named_never_a_traceback(tmp_path, capsys):
    t = compliant()
    t.events[-1].update(final_ecam=["not", "a", "dict"], success={"passed": True, "criteria": [
        {"kind": "controls_unchanged", "panels": "ELEC", "moved": {"GEN 1": "OFF"}, "pushed": [], "passed": False}]})
    t.events[1]["budget"] = "lots"
    out = tmp_path / "r.html"
    assert main(["report", str(t.write(tmp_path / "t.jsonl")), "-o", str(out)]) == exitcodes.OK
    [ep] = read_embedded(out.read_text())["episodes"]
    assert (ep["final_ecam"], ep["budget"]) == ([], {"tool_calls": 40, "sim_s": None})  # the scenario's budget
    assert ep["criteria"][0]["actual"] == "GEN 1 OFF"
    t.events[-1]["report_done"] = {"diagnosis": {"not": "text"}}
    t.events[2]["ecam_changes"] = "everything"
    assert main(["report", str(t.write(tmp_path / "t.jsonl")), "-o", str(out)]) == exitcodes.OK
    assert capsys.readouterr().err == ""


def _overall_row(html: str, model: str) -> list[str]:
    row = re.search(rf'<tr data-model="{re.escape(model)}">(.*?)</tr>', html, re.S).group(1)
    return [html_lib.unescape(re.sub(r"<[^>]+>", "", c)).strip() for c in re.findall(r"<td[^>]*>(.*?)</td>", row, re.S)]


def test_the_report_counts_against_the_run_records_and_each_episode_once_as_score_does(tmp_path, capsys):
    # A deleted failure must not raise the page's rate above score's, nor a copied folder double an episode.
    gen2 = ROOT / "scenarios" / "elec" / "gen2_fault_climb.yaml"
    runs = tmp_path / "runs"
    assert main(["run", "--scenario", str(ELEC), str(gen2), "--out", str(runs), "--no-progress"]) == exitcodes.OK
    gone = runs / "elec_gen1_fault_reset_fails" / "scripted__run000.jsonl"
    gone.unlink()
    copy = tmp_path / "copy.jsonl"
    copy.write_bytes((runs / "elec_gen2_fault_climb" / "scripted__run000.jsonl").read_bytes())
    capsys.readouterr()
    assert main(["score", str(runs), str(copy), "--json"]) == exitcodes.OK
    score_err = capsys.readouterr().err
    out = tmp_path / "r.html"
    assert main(["report", str(runs), str(copy), "-o", str(out)]) == exitcodes.OK
    assert capsys.readouterr().err == score_err  # the same warnings: the deleted file, the copy
    assert score_err.count("warning: ") == 2
    html = out.read_text(encoding="utf-8")
    # model, scenarios, n, not flown, compliant success, outcome, completion, pass^k, ...
    assert _overall_row(html, "scripted")[:8] == ["scripted", "2", "1", "1", "50% [9%–91%]", "50% [9%–91%]",
                                                  "1.00", "0.50 (k=1)"]
    assert len(read_embedded(html)["episodes"]) == 1
