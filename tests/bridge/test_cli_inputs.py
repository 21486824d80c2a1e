"""Command-line inputs: env files, --task-id, path expansion; each bad input is one clear line."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from a320bench.bridge import exitcodes
from a320bench.bridge.cli import main
from a320bench.bridge.envfile import EnvFileError, parse_env_file
from a320bench.secrets import Scrubber
from a320bench.bridge.selection import parse_task_ids
from a320bench.paths import PathSpecError, expand_paths


def test_env_file_understands_export_comments_and_quotes(tmp_path):
    f = tmp_path / "x.env"
    f.write_text('# a comment\n\nexport A=1\nB = "two words" # trailing\nC=\'single\'\nD=plain # note\nE=\n')
    assert parse_env_file(f) == {"A": "1", "B": "two words", "C": "single", "D": "plain", "E": ""}


def test_env_file_errors_name_the_line(tmp_path):
    f = tmp_path / "x.env"
    f.write_text("A=1\nthis is not an assignment\n")
    with pytest.raises(EnvFileError, match=r"line 2 is not KEY=value"):
        parse_env_file(f)


def test_env_file_errors_name_the_line_after_blank_lines_and_an_unterminated_quote(tmp_path):
    f = tmp_path / "x.env"
    f.write_text("A=1\n\n\nB=\"open\n")
    with pytest.raises(EnvFileError, match=r"line 4 is not KEY=value"):
        parse_env_file(f)



def test_a_key_set_twice_in_the_env_file_is_warned_of_with_its_lines_never_its_values(tmp_path, capsys):
    f = tmp_path / "x.env"
    f.write_text("OPENAI_API_KEY=sk-old-0123456789abcdef\n\n# newer\nOPENAI_API_KEY=sk-new-0123456789abcdef\n")
    assert main(["run", "--model", "openai/x", "--env-file", str(f), "--dry-run", "--no-progress",
                 "--scenario", "scenarios/apu/apu_fire_cruise.yaml", "--out", str(tmp_path / "out")]) == 0
    err = capsys.readouterr().err
    assert err.splitlines()[0] == (f"warning: --env-file {f}: OPENAI_API_KEY is set on line 1 and again on line 4; "
                                   "the value of line 4 is used")
    assert "sk-old" not in err and "sk-new" not in err
    assert parse_env_file(f) == {"OPENAI_API_KEY": "sk-new-0123456789abcdef"}


@pytest.mark.parametrize("line", ["B=se\x00cret", "B\x00=secret"])
def test_env_file_with_a_nul_character_names_the_line_and_the_run_exits_2(tmp_path, capsys, line):
    # The environment cannot hold a NUL: taking the line would end the run as an internal error.
    f = tmp_path / "x.env"
    f.write_text(f"\ufeffA=1\r\n{line}\r\n")
    with pytest.raises(EnvFileError, match=r"line 2 holds a NUL character"):
        parse_env_file(f)
    assert main(["run", "--model", "openai/x", "--env-file", str(f), "--out", str(tmp_path / "out"),
                 "--no-progress"]) == exitcodes.USAGE
    assert capsys.readouterr().err == (f"error: --env-file {f}: line 2 holds a NUL character, which no environment "
                                       "variable can\n")
    assert not (tmp_path / "out").exists()

def test_the_scrubber_replaces_every_secret_in_text_and_in_data():
    s = Scrubber(["sk-abcdef123", "short"])  # too short to scrub from text: it would blank ordinary words
    assert s.text("--key sk-abcdef123 and sk-abcdef123 short") == "--key [REDACTED] and [REDACTED] short"
    assert s.data({"a": ["x sk-abcdef123"], "sk-abcdef123": 1}) == {"a": ["x [REDACTED]"], "[REDACTED]": 1}


def test_task_ids_take_indices_and_ranges():
    assert parse_task_ids("0,3,5-7", 10) == [0, 3, 5, 6, 7]
    with pytest.raises(ValueError, match="out of range"):
        parse_task_ids("12", 10)
    with pytest.raises(ValueError, match="not an index"):
        parse_task_ids("a-b", 10)


def test_expand_paths_takes_files_folders_and_globs(tmp_path):
    (tmp_path / "a").mkdir()
    (tmp_path / "a" / "x.yaml").write_text("")
    (tmp_path / "a" / "y.txt").write_text("")
    (tmp_path / "z.yaml").write_text("")
    got = expand_paths([tmp_path / "a", str(tmp_path / "*.yaml"), tmp_path / "z.yaml"], (".yaml",))
    assert [p.name for p in got] == ["x.yaml", "z.yaml"]
    with pytest.raises(PathSpecError, match="no such file or folder"):
        expand_paths([tmp_path / "missing"], (".yaml",))


@pytest.mark.parametrize("argv, message", [
    (["run", "--runs", "0"], "--runs must be between 1 and 10000"),
    (["run", "--runs", "99999999999"], "--runs must be between 1 and 10000"),
    (["run", "--out", "README.md"], "--out README.md: exists and is not a folder"),
    (["run", "--scenario", "nowhere/"], "nowhere/: no such file or folder"),
    (["run", "--model", "openai/x", "--sampling", "{bad"], "--sampling is not valid JSON"),
    (["run", "--model", "openai/x", "--sampling", "[1]"], "--sampling must be a JSON object"),
    (["run", "--model", "openai/x", "--sampling", '{"timeout": 5}'],
     "--sampling: timeout is set by a320-bench itself (see --request-timeout and --max-retries)"),
    (["run", "--task-id", "999"], "out of range"),
    (["run", "--model", "openai/x", "--env-file", "/no/such/file"], "cannot read"),
    (["run", "--provider", "bogus"], "invalid choice"),
    (["run", "--provider", "replay"], "--provider replay needs --replay-from"),
    (["run", "--provider", "replay", "--replay-from", "/nonexistent"], "--replay-from /nonexistent: no such folder"),
    # Flags that do not apply are refused, not ignored:
    (["run", "--provider", "noop", "--replay-from", "/nonexistent"],
     "--replay-from does not apply here: it is only for --provider replay"),
    (["run", "--provider", "noop", "--replay-of", "random"],
     "--replay-of does not apply here: it is only for --provider replay"),
    (["run", "--provider", "noop", "--client-model", "x"], "--client-model does not apply here: it is only for --client"),
    (["run", "--provider", "noop", "--seed", "5"],
     "--seed does not apply here: it is only for --provider random and plug-in agents (no other built-in takes a "
     "seed)"),
    (["run", "--model", "openai/x", "--seed", "5"], "--seed does not apply here"),
    (["run", "--client-timeout", "30"], "--client-timeout does not apply here: it is only for --client"),
    (["run", "--client", "claude", "--client-cmd", "x"], "--client-cmd does not apply here: it is only for --client cmd"),
    (["run", "--sampling", '{"temperature": 0}'], "--sampling does not apply here: it is only for --model"),
    (["run", "--client", "claude", "--sampling", "{}"], "--sampling does not apply here: it is only for --model"),
    (["run", "--max-retries", "2"], "--max-retries does not apply here: it is only for --model"),
    (["run", "--request-timeout", "2"], "--request-timeout does not apply here: it is only for --model"),
    (["run", "--env-file", "x.env"], "--env-file does not apply here: it is only for --model, plug-in agents and "
     "--client"),
    # --agent names one agent, through one registry:
    (["run", "--agent", "nobody"], "--agent nobody: not an agent name (scripted, noop, random, ecam, replay, litellm"),
    (["run", "--agent", "no/such/file.py:Agent"], "--agent no/such/file.py:Agent: no such file no/such/file.py"),
    (["run", "--agent", "no_such_package.agents:Agent"],
     "--agent no_such_package.agents:Agent: no module named no_such_package.agents in this environment"),
    (["run", "--agent", "json:NoSuchClass"], "--agent json:NoSuchClass: json has no NoSuchClass"),
    (["run", "--agent", "litellm"], "--agent litellm needs --model"),
    (["run", "--provider", "noop", "--model", "openai/x"],
     "--model does not apply here: it is only for --agent litellm and plug-in agents"),
    (["run", "--client", "claude", "--model", "x"], "--model does not apply here"),
    (["run", "--provider", "noop", "--reasoning-level", "high"],
     "--reasoning-level does not apply here: it is only for --model and plug-in agents"),
    (["run", "--model", "openai/x", "--reasoning-level", "Very High!"], "--reasoning-level 'Very High!': a short"),
    (["run", "--model", "openai/x", "--reasoning-level", "high", "--sampling", '{"reasoning_effort": "low"}'],
     "--sampling sets reasoning_effort and --reasoning-level is given: use one"),
    # The crew and learning tracks' flags:
    (["run", "--captain-model", "openai/x"],
     "--captain-model applies to a profile with a captain (--profile crew), not benchmark"),
    (["run", "--client", "claude", "--profile", "crew", "--captain-model", "openai/x"],
     "--captain-model does not apply here: it is only for in-process agents"),
    (["run", "--retrieve-learnings-top-k", "5"],
     "--retrieve-learnings-top-k applies to the learning profile (--profile learning), not benchmark"),
    (["run", "--profile", "learning", "--retrieve-learnings-top-k", "0"],
     "--retrieve-learnings-top-k must be between 1 and 50"),
    (["run", "--client", "claude", "--client-timeout", "-1"], "--client-timeout must be a positive number of seconds"),
    (["run", "--client", "claude", "--client-timeout", "nan"], "--client-timeout must be a positive number of seconds"),
    (["run", "--model", "openai/x", "--request-timeout", "0"], "--request-timeout must be a positive number"),
    (["run", "--model", "openai/x", "--max-retries", "-1"], "--max-retries must be 0 or more"),
])
def test_bad_run_flags_give_one_line_and_exit_2(argv, message, capsys):
    assert main([*argv, "--no-progress"]) == exitcodes.USAGE
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and message in err[0], err


def test_two_scenario_files_with_one_id_are_refused_before_anything_runs(tmp_path, capsys):
    src = "scenarios/elec/gen1_fault_reset_fails.yaml"
    for name in ("a.yaml", "b.yaml"):
        (tmp_path / name).write_text(open(src).read())
    assert main(["run", "--scenario", str(tmp_path), "--out", str(tmp_path / "out"), "--no-progress"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert err == [f"error: {tmp_path}/b.yaml: id: 'elec_gen1_fault_reset_fails' is already the id of {tmp_path}/a.yaml"]
    assert not (tmp_path / "out").exists()


def test_files_that_are_not_utf8_are_one_clear_line(tmp_path, capsys):
    bad = tmp_path / "latin.yaml"
    bad.write_bytes(b"\xff\xfe title: x\n")
    assert main(["validate", str(bad)]) == 2
    assert capsys.readouterr().err.splitlines()[0] == (
        f"error: {bad}: not UTF-8 text (byte 0); scenario files are UTF-8 YAML")
    assert main(["run", "--model", "openai/x", "--env-file", str(bad), "--no-progress"]) == 2
    assert capsys.readouterr().err.strip() == f"error: --env-file {bad}: not UTF-8 text"


def test_a_glob_over_a_run_folder_scores_the_trajectories_and_skips_the_run_records(tmp_path, capsys):
    assert main(["run", "--scenario", "scenarios/elec/tr1_fault_cruise.yaml", "--out", str(tmp_path),
                 "--no-progress"]) == 0
    capsys.readouterr()
    assert main(["score", "--json", str(tmp_path / "*"), str(tmp_path / "*" / "*")]) == 0
    import json

    assert len(json.loads(capsys.readouterr().out)["scorecards"]) == 1


def test_serve_refuses_a_verdict_path_it_cannot_write_and_leaves_no_temp_file(tmp_path, capsys):
    target = tmp_path / "a_folder"
    target.mkdir()
    rc = main(["serve", "--scenario", "scenarios/elec/gen1_fault_reset_fails.yaml", "--result", str(target)])
    assert rc == exitcodes.USAGE
    assert f"cannot write the verdict {target}: Is a directory" in capsys.readouterr().err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a_folder"]


ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("argv, line", [
    # A scenario id, as every table prints it, for its file (the two differ: eng_1_... is eng/eng1_...):
    (["run", "--scenario", "eng_1_fail_relight_cruise"],
     "error: eng_1_fail_relight_cruise: no such file or folder; that is the id of a built-in scenario: give its "
     "file, scenarios/eng/eng1_fail_relight_cruise.yaml"),
    (["validate", "elec_gen1_fault_reset_works"],
     "error: elec_gen1_fault_reset_works: no such file or folder; that is the id of a built-in scenario: give its "
     "file, scenarios/elec/gen1_fault_reset_works.yaml"),
    # A mistyped file, and a catalogue folder by its name alone (as the Inspect task takes it):
    (["run", "--scenario", "scenarios/elec/gen1_fault_reset_fail.yaml"],
     "error: scenarios/elec/gen1_fault_reset_fail.yaml: no such file or folder; did you mean "
     "scenarios/elec/gen1_fault_reset_fails.yaml?"),
    (["run", "--scenario", "hyd"],
     "error: hyd: no such file or folder; the built-in catalogue's hyd folder is scenarios/hyd"),
    # Nothing like a built-in one: no guess.
    (["run", "--scenario", "my_own_scenario.yaml"], "error: my_own_scenario.yaml: no such file or folder"),
    (["serve", "--scenario", "fuel_imbalance_cruise"],
     "error: fuel_imbalance_cruise: cannot read: No such file or directory; that is the id of a built-in scenario: "
     "give its file, scenarios/fuel/imbalance_cruise.yaml"),
])
def test_a_scenario_given_by_id_or_mistyped_names_the_built_in_file_meant(argv, line, capsys, monkeypatch):
    monkeypatch.chdir(ROOT)
    assert main(argv) == exitcodes.USAGE
    assert capsys.readouterr().err.strip().splitlines() == [line]


def test_the_built_in_file_is_named_absolute_from_outside_the_checkout(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert main(["run", "--scenario", "elec_gen1_fault_reset_fails", "--no-progress"]) == exitcodes.USAGE
    assert capsys.readouterr().err.strip() == (
        "error: elec_gen1_fault_reset_fails: no such file or folder; that is the id of a built-in scenario: give its "
        f"file, {ROOT}/scenarios/elec/gen1_fault_reset_fails.yaml")
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("argv, line", [
    (["score", "runs", "--jsn"], "error: a320-bench score: unrecognized arguments: --jsn (did you mean --json?) "
     "(see --help)"),
    (["run", "--scenarios", "scenarios/elec"], "error: a320-bench run: unrecognized arguments: --scenarios "
     "scenarios/elec (did you mean --scenario?) (see --help)"),
    (["run", "--provider", "noop", "--wokers=2"], "error: a320-bench run: unrecognized arguments: --wokers=2 "
     "(did you mean --workers?) (see --help)"),
    (["report", "runs", "--frobnicate"], "error: a320-bench report: unrecognized arguments: --frobnicate (see --help)"),
    (["validate", "a", "-x"], "error: a320-bench validate: unrecognized arguments: -x (see --help)"),
])
def test_an_unknown_flag_names_its_command_and_the_flag_it_nearly_spells(argv, line, capsys):
    assert main(argv) == exitcodes.USAGE
    assert capsys.readouterr().err.strip().splitlines() == [line]


def test_the_command_alone_lists_what_it_can_do(capsys):
    assert main([]) == exitcodes.USAGE
    out = capsys.readouterr().out
    assert out.startswith("usage: a320-bench [-h] [--version] COMMAND ...\n")
    assert [c for c in ("run", "serve", "score", "report", "export", "validate", "mcp-config")
            if f"\n    {c} " not in out and f"\n    {c}\n" not in out] == []


def test_version_prints_the_installed_distribution_s_version(capsys):
    from importlib.metadata import version

    with pytest.raises(SystemExit) as stop:
        main(["--version"])
    assert stop.value.code == 0
    assert capsys.readouterr().out == f"a320-bench {version('a320-bench')}\n"


def test_a_run_record_given_to_score_or_report_is_named_as_one_with_its_folder(tmp_path, capsys):
    out = tmp_path / "runs"
    assert main(["run", "--scenario", "scenarios/elec/tr1_fault_cruise.yaml", "--out", str(out), "--no-progress"]) == 0
    capsys.readouterr()
    (record,) = out.glob("run-*.json")
    line = (f"error: {record}: a run record, not a trajectory; give its folder ({out}), which holds the trajectories "
            "and the record")
    assert main(["score", str(record)]) == exitcodes.USAGE
    assert capsys.readouterr().err.strip().splitlines() == [line]
    assert main(["report", str(record), "-o", str(tmp_path / "r.html")]) == exitcodes.USAGE
    assert capsys.readouterr().err.strip().splitlines() == [line]
    assert not (tmp_path / "r.html").exists()


def test_a_plug_in_file_named_as_a_module_or_without_its_class_is_told_the_form_that_works(tmp_path, capsys,
                                                                                            monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "my_agent.py").write_text("class MyAgent:\n    async def run(self, view):\n        pass\n")
    assert main(["run", "--agent", "my_agent:MyAgent", "--no-progress"]) == exitcodes.USAGE
    assert capsys.readouterr().err.strip() == ("error: --agent my_agent:MyAgent: no module named my_agent in this "
                                               "environment (for the file my_agent.py here: --agent "
                                               "my_agent.py:MyAgent)")
    assert main(["run", "--agent", "my_agent.py", "--no-progress"]) == exitcodes.USAGE
    assert capsys.readouterr().err.strip() == "error: --agent my_agent.py: name the agent's class too: my_agent.py:ClassName"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["my_agent.py"]


def test_export_without_a_format_says_which_there_are_as_the_other_usage_errors_do(tmp_path, capsys):
    assert main(["export", str(tmp_path), "-o", str(tmp_path / "logs")]) == exitcodes.USAGE
    assert capsys.readouterr().err == "error: a320-bench export: say which format: --inspect (the only one so far)\n"
    assert not (tmp_path / "logs").exists()


@pytest.mark.parametrize("command", ["run", "validate"])
@pytest.mark.parametrize("target", ["missing.yaml", "zz.yaml"])
def test_a_scenario_link_that_leads_nowhere_or_loops_is_refused_not_silently_left_out(tmp_path, capsys, command,
                                                                                       target):
    # A scenario a folder names through a broken link would otherwise drop out of the run unseen.
    folder = tmp_path / "cat"
    folder.mkdir()
    (folder / "gen1.yaml").write_text(open("scenarios/elec/gen1_fault_reset_fails.yaml").read())
    (folder / "zz.yaml").symlink_to(target)  # zz.yaml -> zz.yaml: a loop
    argv = (["run", "--scenario", str(folder), "--out", str(tmp_path / "out"), "--no-progress"] if command == "run"
            else ["validate", str(folder)])
    assert main(argv) == exitcodes.USAGE
    err = capsys.readouterr().err.splitlines()
    why = "loops" if target == "zz.yaml" else "leads nowhere"
    assert f"error: {folder}/zz.yaml: a symbolic link that {why}; fix or remove it" in err
    assert not any("Traceback" in line for line in err)
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize("target, why", [("self.yaml", "loops"), ("gone.yaml", "leads nowhere")])
def test_a_scenario_file_named_through_a_broken_link_says_so(tmp_path, capsys, target, why):
    link = tmp_path / "self.yaml"
    link.symlink_to(target)
    assert main(["validate", str(link)]) == exitcodes.USAGE
    assert capsys.readouterr().err == f"error: {link}: a symbolic link that {why}; fix or remove it\n"


@pytest.mark.parametrize("argv, flag", [
    (["run", "--scenario", "scenarios/elec/gen1_fault_reset_fails.yaml", "--no-progress", "--out", ""], "--out"),
    (["report", "TRAJ", "-o", ""], "-o/--output"),
    (["export", "--inspect", "TRAJ", "-o", ""], "-o/--output"),
    # serve would have served the episode unrecorded, or without the verdict a client reads
    (["serve", "--scenario", "SCENARIO", "--trajectory", ""], "--trajectory"),
    (["serve", "--scenario", "SCENARIO", "--result", " "], "--result"),
    (["score", "TRAJ", "--csv", ""], "--csv"),  # was: no CSV, and exit 0
])
def test_an_empty_output_path_is_refused_not_taken_for_the_working_folder(tmp_path, capsys, monkeypatch, argv, flag):
    # `--out "$RESULTS"` with the variable unset: everything would land in the working folder (or, for
    # report, end as an internal error).
    from tests.score.score_builder import compliant

    traj = compliant().write(tmp_path / "in" / "t.jsonl")
    work = tmp_path / "work"
    work.mkdir()
    monkeypatch.chdir(work)
    argv = [str(traj) if a == "TRAJ" else a for a in argv]
    argv = [str(ROOT / "scenarios/elec/gen1_fault_reset_fails.yaml") if a == "SCENARIO" else a for a in argv]
    if argv[0] == "run":
        argv[2] = str(ROOT / argv[2])
    assert main(argv) == exitcodes.USAGE
    err = capsys.readouterr().err
    assert err == (f"error: a320-bench {argv[0]}: argument {flag}: an empty path names nothing to write to "
                   "(see --help)\n")
    assert list(work.iterdir()) == []


@pytest.mark.parametrize("target, why", [("nowhere", "leads nowhere"), ("dl", "loops")])
def test_an_out_folder_under_a_broken_link_names_the_link(tmp_path, capsys, target, why):
    link = tmp_path / "dl"
    link.symlink_to(target)
    for out in (link, link / "runs"):
        assert main(["run", "--scenario", str(ROOT / "scenarios/elec/gen1_fault_reset_fails.yaml"), "--out", str(out),
                     "--no-progress"]) == exitcodes.USAGE
        assert capsys.readouterr().err == f"error: --out {out}: {link} is a symbolic link that {why}\n"


@pytest.mark.parametrize("command", ["validate", "run-env-file"])
def test_a_file_far_larger_than_any_input_is_refused_after_reading_its_start_only(tmp_path, capsys, command):
    # A runaway file was read to the end: memory without bound.
    path = tmp_path / "sparse"
    with open(path, "wb") as fh:
        fh.truncate(64 * 2**20)
    if command == "validate":
        assert main(["validate", str(path)]) == exitcodes.USAGE
        assert capsys.readouterr().err.splitlines()[0] == (
            f"error: {path}: larger than 4 MB; scenario files are a few KB of YAML")
    else:
        assert main(["run", "--model", "openai/x", "--env-file", str(path), "--no-progress",
                     "--out", str(tmp_path / "out")]) == exitcodes.USAGE
        assert capsys.readouterr().err == f"error: --env-file {path}: larger than 1 MB; not an env file\n"


@pytest.mark.parametrize("command", ["validate", "run-env-file"])
def test_a_device_or_a_fifo_named_as_a_scenario_or_env_file_is_refused_without_reading_it(tmp_path, capsys,
                                                                                         command):
    # /dev/zero was read up to the size cap; a FIFO blocked the command until a writer came, forever.
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    for path, kind in ((Path("/dev/zero"), "a device"), (fifo, "a FIFO")):
        if command == "validate":
            assert main(["validate", str(path)]) == exitcodes.USAGE
            assert capsys.readouterr().err.splitlines()[0] == \
                f"error: {path}: cannot read: {kind}, not a regular file"
        else:
            assert main(["run", "--model", "openai/x", "--env-file", str(path), "--no-progress",
                         "--out", str(tmp_path / "out")]) == exitcodes.USAGE
            assert capsys.readouterr().err == f"error: --env-file {path}: cannot read ({kind}, not a regular file)\n"
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize("command", ["score", "report", "verify"])
def test_a_device_or_a_fifo_named_as_a_trajectory_is_refused_without_reading_it(tmp_path, capsys, command):
    # /dev/zero was read to the end (memory without bound, then an internal error); a FIFO blocked forever.
    fifo = tmp_path / "pipe.jsonl"
    os.mkfifo(fifo)
    for path in (Path("/dev/zero"), fifo):
        argv = {"score": ["score", str(path)], "report": ["report", str(path), "-o", str(tmp_path / "r.html")],
                "verify": ["score", "--verify", str(path)]}[command]
        assert main(argv) == exitcodes.USAGE
        err = capsys.readouterr().err
        assert f"error: {path}: cannot read: not a regular file" in err and "internal error" not in err
    assert not (tmp_path / "r.html").exists()


def test_a_fifo_among_the_scenario_files_is_named_and_nothing_runs(tmp_path, capsys):
    folder = tmp_path / "scenarios"
    folder.mkdir()
    (folder / "a.yaml").write_text((Path("scenarios/apu/apu_fire_cruise.yaml")).read_text())
    os.mkfifo(folder / "b.yaml")
    assert main(["run", "--scenario", str(folder), "--out", str(tmp_path / "out"), "--no-progress"]) == 2
    assert capsys.readouterr().err == f"error: {folder / 'b.yaml'}: a FIFO, not a regular file; fix or remove it\n"
    assert not (tmp_path / "out").exists()
