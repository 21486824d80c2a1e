"""Inspect AI interop: exported logs read back field by field, and the task `a320bench.inspect:a320` flown
by Inspect's mock model and scored by our scorer."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from inspect_ai.log import read_eval_log

from a320bench.bridge import exitcodes
from a320bench.bridge.cli import main
from a320bench.bridge.score.scorecard import score_file
from tests.executors.executor_bed import ROOT, cli_without
from tests.fakes.openai_server import FakeOpenAI, tool_call

GEN1 = "scenarios/elec/gen1_fault_reset_fails.yaml"
GEN2 = "scenarios/elec/gen2_fault_climb.yaml"
KEY = "sk-test-SECRET-0123456789abcdef"
HEADLINE = ("compliant_success", "outcome", "completion", "in_order", "dangerous", "anti_procedure", "harmful")


def events(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines()]


def card_of(path: Path) -> dict:
    return score_file(path).to_dict()


@pytest.fixture(scope="module")
def runs(tmp_path_factory) -> Path:
    """A scripted run of two scenarios and a litellm run of one (its model turns are recorded)."""
    out = tmp_path_factory.mktemp("runs") / "runs"
    assert main(["run", "--scenario", GEN1, GEN2, "--out", str(out), "--no-progress"]) == exitcodes.OK
    env = tmp_path_factory.mktemp("env") / "creds.env"
    env.write_text(f"OPENAI_API_KEY={KEY}\n")
    script = [{"text": "Reading the ECAM.", "tool_calls": [tool_call("read_ecam", {}, call_id="c1")]},
              {"tool_calls": [tool_call("wait", {"seconds": "x"}, call_id="c2")]},
              {"tool_calls": [tool_call("report_done", {"diagnosis": "GEN 1", "actions_summary": "none"},
                                        call_id="c3")]}]
    with FakeOpenAI(script) as fake:
        assert main(["run", "--scenario", GEN1, "--model", "openai/fake-model", "--env-file", str(env),
                     "--sampling", json.dumps({"api_base": fake.url}), "--out", str(out), "--no-progress"]) == 0
    return out


def test_an_exported_log_reads_back_in_inspect_field_by_field(runs, tmp_path, capsys):
    logs = tmp_path / "logs"
    assert main(["export", "--inspect", str(runs), "-o", str(logs)]) == exitcodes.OK
    written = [Path(line) for line in capsys.readouterr().out.splitlines()]
    assert sorted(p.name.split("_a320_")[1] for p in written) == ["openai_fake-model.eval", "scripted.eval"]
    by_model = {read_eval_log(str(p)).eval.model: read_eval_log(str(p)) for p in written}
    assert sorted(by_model) == ["a320bench/scripted", "openai/fake-model"]

    scripted = by_model["a320bench/scripted"]
    assert (scripted.status, scripted.eval.task, scripted.eval.dataset.samples) == ("success", "a320", 2)
    assert [(s.id, s.epoch) for s in scripted.samples] == [("elec_gen1_fault_reset_fails", 1),
                                                          ("elec_gen2_fault_climb", 1)]
    gen1 = scripted.samples[0]
    traj = runs / "elec_gen1_fault_reset_fails" / "scripted__run000.jsonl"
    evs = events(traj)
    assert gen1.input == evs[0]["scenario"]["task_prompt"]
    assert gen1.target == "GEN 1 OFF; GEN 1 ON; GEN 1 OFF"
    calls = [e for e in evs if e["type"] == "tool_call"]
    # system, user, then one (synthesized) assistant turn and one tool result per recorded call
    assert [m.role for m in gen1.messages] == ["system", "user"] + ["assistant", "tool"] * len(calls)
    assert [m.tool_calls[0].function for m in gen1.messages if m.role == "assistant"] == [c["name"] for c in calls]
    assert [m.tool_calls[0].arguments for m in gen1.messages if m.role == "assistant"] == [c["arguments"] for c in calls]
    assert [json.loads(m.content) for m in gen1.messages if m.role == "tool"] == [c["result"] for c in calls]
    card = card_of(traj)
    score = gen1.scores["a320"]
    assert score.value == {k: card[k] for k in HEADLINE}
    assert score.value["compliant_success"] is True
    assert score.answer == evs[-1]["report_done"]["diagnosis"]
    assert score.metadata == card
    assert (gen1.metadata["reason"], gen1.metadata["run_index"], gen1.metadata["trajectory"]) == (
        "agent_done", 0, str(traj))
    assert scripted.results.scores[0].metrics["compliant_success"].value == 1.0

    model = by_model["openai/fake-model"]
    (sample,) = model.samples
    assert [m.role for m in sample.messages] == ["system", "user", "assistant", "tool", "assistant", "tool",
                                                 "assistant", "tool"]
    first = sample.messages[2]
    assert (first.text, first.tool_calls[0].id, first.tool_calls[0].function) == ("Reading the ECAM.", "c1", "read_ecam")
    bad_wait = sample.messages[5]
    assert (bad_wait.tool_call_id, bad_wait.error is not None) == ("c2", True)  # the tool error, as Inspect's
    assert sample.scores["a320"].value == {k: card_of(next((runs / "elec_gen1_fault_reset_fails").glob(
        "openai_*.jsonl")))[k] for k in HEADLINE}
    assert KEY not in Path(written[0]).read_bytes().decode("latin-1") + Path(written[1]).read_bytes().decode("latin-1")


def test_export_of_a_path_without_trajectories_is_one_line_and_writes_nothing(tmp_path, capsys):
    (tmp_path / "empty").mkdir()
    assert main(["export", "--inspect", str(tmp_path / "empty"), "-o", str(tmp_path / "logs")]) == exitcodes.USAGE
    assert capsys.readouterr().err.splitlines() == [f"error: {tmp_path / 'empty'}: no trajectory (*.jsonl) found there"]
    assert not (tmp_path / "logs").exists()


@pytest.mark.slow
def test_export_without_the_inspect_extra_is_one_line_with_the_pip_command(tmp_path):
    r = cli_without("inspect_ai", "export", "--inspect", str(tmp_path), "-o", str(tmp_path / "logs"))
    assert r.returncode == exitcodes.USAGE
    assert r.stderr.splitlines() == [f"error: export --inspect needs the inspect extra (inspect_ai is not installed): "
                                     f"{sys.executable} -m pip install -e '{ROOT}[inspect]'"]


def test_the_inspect_task_flies_two_scenarios_with_the_mock_model_and_our_scorer(tmp_path, monkeypatch):
    # Inspect keeps traces under the user's data folder: here, a temporary one.
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    from inspect_ai import eval as inspect_eval
    from inspect_ai.model import ModelOutput, ModelUsage, get_model

    from a320bench.inspect import a320

    def says(name: str, args: dict) -> ModelOutput:
        # Usage given, so that the mock model does not count tokens (tiktoken would fetch its tables).
        out = ModelOutput.for_tool_call("mockllm/model", name, args)
        out.usage = ModelUsage(input_tokens=100, output_tokens=10, total_tokens=110)
        return out

    by_the_book = [says("read_ecam", {}), says("set_control", {"control": "GEN 1", "position": "OFF"}),
                   says("set_control", {"control": "GEN 1", "position": "ON"}),
                   says("set_control", {"control": "GEN 1", "position": "OFF"}),
                   says("report_done", {"diagnosis": "GEN 1 fault", "actions_summary": "GEN 1 off, on, off"})]
    gives_up = [says("read_ecam", {}), says("report_done", {"diagnosis": "no idea", "actions_summary": "none"})]
    model = get_model("mockllm/model", custom_outputs=by_the_book + gives_up)
    out = tmp_path / "trajectories"
    (log,) = inspect_eval(a320(scenarios=[str(ROOT / GEN1), str(ROOT / GEN2)], out=str(out)), model=model,
                          max_samples=1, log_dir=str(tmp_path / "logs"), display="none")
    assert (log.status, [s.id for s in log.samples]) == ("success", ["elec_gen1_fault_reset_fails",
                                                                     "elec_gen2_fault_climb"])
    for sample, (sid, compliant, calls) in zip(log.samples, [
            ("elec_gen1_fault_reset_fails", True, ["read_ecam", "set_control", "set_control", "set_control",
                                                   "report_done"]),
            ("elec_gen2_fault_climb", False, ["read_ecam", "report_done"])]):
        traj = out / sid / "inspect-mockllm_model__run000.jsonl"
        evs = events(traj)
        assert [e["name"] for e in evs if e["type"] == "tool_call"] == calls
        assert (evs[0]["provider"], evs[0]["model"], evs[-1]["reason"]) == ("inspect", "mockllm/model", "agent_done")
        assert [e["usage"]["input_tokens"] for e in evs if e["type"] == "assistant"] == [100] * len(calls)
        card = card_of(traj)
        assert sample.scores["a320_scorer"].value == {k: card[k] for k in HEADLINE}  # our scorer, as `score` sees it
        assert card["compliant_success"] is compliant
        assert [m.role for m in sample.messages] == ["system", "user"] + ["assistant", "tool"] * len(calls)
    assert log.results.scores[0].metrics["mean"].value == 0.5  # compliant_success over the two samples


def test_an_episode_that_is_not_the_agents_result_is_a_sample_error_in_inspect_never_a_score(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    from inspect_ai import eval as inspect_eval
    from inspect_ai.model import get_model

    from a320bench.inspect import a320

    model = get_model("mockllm/model", custom_outputs=[])  # never asked: the gate fails first
    (log,) = inspect_eval(a320(scenarios=[str(ROOT / "tests/scenarios/invalid_gate/gate_never_shows.yaml")]),
                          model=model, log_dir=str(tmp_path / "logs"), display="none", fail_on_error=False)
    (sample,) = log.samples
    assert sample.scores in (None, {})
    assert sample.error is not None
    assert sample.error.message == ('EpisodeNotScored("test_gate_never_shows: the episode ended invalid_scenario; '
                                    'it is not the agent\'s result")')


def _mock_episode(outputs) -> list:
    """The model's turns as Inspect's mock model gives them (usage set: no tokenizer fetched)."""
    from inspect_ai.model import ModelOutput, ModelUsage

    out = []
    for name, args in outputs:
        o = ModelOutput.for_tool_call("mockllm/model", name, args)
        o.usage = ModelUsage(input_tokens=100, output_tokens=10, total_tokens=110)
        out.append(o)
    return out


GEN1_BY_THE_BOOK = [("read_ecam", {}), ("set_control", {"control": "GEN 1", "position": "OFF"}),
                    ("set_control", {"control": "GEN 1", "position": "ON"}),
                    ("set_control", {"control": "GEN 1", "position": "OFF"}),
                    ("report_done", {"diagnosis": "GEN 1 fault", "actions_summary": "GEN 1 off, on, off"})]


def test_an_episode_of_a_profile_score_leaves_out_is_a_sample_error_never_a_score(tmp_path, monkeypatch):
    # The dev profile hands the model active_failures: `score` leaves such an episode out of every mean
    # (not_benchmark_profile), so Inspect's number must not count it either.
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    from inspect_ai import eval as inspect_eval
    from inspect_ai.model import get_model

    from a320bench.inspect import a320

    model = get_model("mockllm/model", custom_outputs=_mock_episode([("active_failures", {})] + GEN1_BY_THE_BOOK[1:]))
    out = tmp_path / "trajectories"
    (log,) = inspect_eval(a320(scenarios=[str(ROOT / GEN1)], profile="dev", out=str(out)), model=model,
                          log_dir=str(tmp_path / "logs"), display="none", fail_on_error=False)
    (sample,) = log.samples
    assert card_of(out / "elec_gen1_fault_reset_fails" / "inspect-mockllm_model__run000.jsonl")["status"] == "not_benchmark_profile"
    assert sample.scores in (None, {})
    assert sample.error.message == ("EpisodeNotScored('elec_gen1_fault_reset_fails: status not_benchmark_profile "
                                    "(the episode ended agent_done); score leaves it out of every mean')")


def test_an_inspect_token_limit_ends_the_episode_as_the_agents_result_scored_as_score_scores_it(tmp_path, monkeypatch):
    # A limit on the model (tokens, messages) is the agent's budget: like a budget end or a context overflow
    # it is the agent's result (agent_error), scored -- never a harness error left out of the means.
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    from inspect_ai import eval as inspect_eval
    from inspect_ai.model import get_model

    from a320bench.inspect import a320

    model = get_model("mockllm/model", custom_outputs=_mock_episode(GEN1_BY_THE_BOOK))
    out = tmp_path / "trajectories"
    (log,) = inspect_eval(a320(scenarios=[str(ROOT / GEN1)], out=str(out)), model=model, token_limit=250,
                          log_dir=str(tmp_path / "logs"), display="none", fail_on_error=False)
    (sample,) = log.samples
    traj = out / "elec_gen1_fault_reset_fails" / "inspect-mockllm_model__run000.jsonl"
    evs = events(traj)
    assert [e["name"] for e in evs if e["type"] == "tool_call"] == ["read_ecam", "set_control"]
    assert (evs[-1]["reason"], evs[-1]["error"]) == (
        "agent_error", "agent_error: Inspect token limit: Token limit exceeded. value: 330; limit: 250")
    card = card_of(traj)
    assert (card["status"], card["compliant_success"], card["completion"]) == ("valid", False, 1 / 3)
    assert sample.error is None
    assert sample.scores["a320_scorer"].value == {k: card[k] for k in HEADLINE}


@pytest.mark.parametrize(("fails_after", "status", "scored"), [
    (1, "provider_error", False),  # after a read: nothing changed, excluded (a rerun flies it again)
    (2, "valid", True),  # after GEN 1 OFF: the agent's episode as it stands, scored
])
def test_a_failing_inspect_model_ends_the_episode_provider_error_as_a_litellm_provider_does(
        tmp_path, monkeypatch, fails_after, status, scored):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    from inspect_ai import eval as inspect_eval
    from inspect_ai.model import get_model

    from a320bench.inspect import a320

    turns = _mock_episode(GEN1_BY_THE_BOOK)

    def failing():
        yield from turns[:fails_after]
        raise ConnectionError("the provider answered 503")

    out = tmp_path / "trajectories"
    (log,) = inspect_eval(a320(scenarios=[str(ROOT / GEN1)], out=str(out)), model=get_model(
        "mockllm/model", custom_outputs=failing()), log_dir=str(tmp_path / "logs"), display="none",
        fail_on_error=False)
    (sample,) = log.samples
    traj = out / "elec_gen1_fault_reset_fails" / "inspect-mockllm_model__run000.jsonl"
    final = events(traj)[-1]
    assert (final["reason"], final["error"]) == (
        "provider_error", "provider_error: Inspect model ConnectionError: the provider answered 503")
    assert card_of(traj)["status"] == status
    assert (sample.error is None) == scored


@pytest.mark.parametrize("limit", ["time_limit", "working_limit"])
def test_an_inspect_time_limit_ends_the_episode_as_the_agents_timeout_scored(tmp_path, monkeypatch, limit):
    # Inspect's wall-clock limits cancel the solver. They are the agent's time, as `--client-timeout` is an
    # external client's: the episode ends client_timeout, the agent's result, scored as `score` scores it
    # (was: interrupted, a sample error, left out of Inspect's mean while `score` counts a client's timeout).
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    import time

    from inspect_ai import eval as inspect_eval
    from inspect_ai.model import get_model

    from a320bench.inspect import a320

    turns = _mock_episode(GEN1_BY_THE_BOOK)

    def slow():
        yield from turns[:2]  # the ECAM read, GEN 1 OFF
        time.sleep(4)  # past the limit of 2 s (the working limit is checked each second), whatever the load
        yield from turns[2:]

    out = tmp_path / "trajectories"
    (log,) = inspect_eval(a320(scenarios=[str(ROOT / GEN1)], out=str(out)),
                          model=get_model("mockllm/model", custom_outputs=slow()), **{limit: 2},
                          log_dir=str(tmp_path / "logs"), display="none", fail_on_error=False)
    (sample,) = log.samples
    traj = out / "elec_gen1_fault_reset_fails" / "inspect-mockllm_model__run000.jsonl"
    evs = events(traj)
    calls = [(e["name"], e["arguments"]) for e in evs if e["type"] == "tool_call"]
    # How many of the first two turns fit in the limit depends on the machine's load; never the third.
    by_the_book = [("read_ecam", {}), ("set_control", {"control": "GEN 1", "position": "OFF"})]
    assert calls == by_the_book[:len(calls)]
    what = "time" if limit == "time_limit" else "working time"
    assert (evs[-1]["reason"], evs[-1]["error"]) == ("client_timeout", f"Inspect {what} limit of 2 s")
    card = card_of(traj)
    assert (card["status"], card["reason"], card["compliant_success"], card["completion"]) == (
        "valid", "client_timeout", False, (1 if len(calls) == 2 else 0) / 3)
    assert sample.error is None
    assert sample.scores["a320_scorer"].value == {k: card[k] for k in HEADLINE}


def test_an_inspect_eval_stopped_mid_sample_is_an_interrupt_never_the_agents_result(tmp_path):
    # Outside a limit, a cancel around the solver (Ctrl-C, Inspect stopping the eval) is the run's, not the
    # agent's: no sample, no limit exceeded, no own end.
    from a320bench.bridge.inspect.task import InspectAgent

    class State:
        model = "mockllm/model"

    assert InspectAgent(State()).cancelled_end() is None


def test_an_exported_log_says_what_score_says_of_the_same_folders(tmp_path, capsys):
    # ecam passes gen1 (1 run), fails eng1's relight (3 runs), and its gate-failed episode is no result.
    # score: the mean over the 2 scenarios it was asked (1/2; the one whose gate failed is invalid, not
    # failed), not the share of valid episodes (1/4); the invalid episode is no score but a sample error,
    # as in the task.
    invalid = ROOT / "tests/scenarios/invalid_gate/gate_never_shows.yaml"
    for folder, scenario, runs in (("a", ROOT / GEN1, 1), ("b", ROOT / "scenarios/eng/eng1_fail_relight_cruise.yaml", 3),
                                   ("c", invalid, 1)):
        main(["run", "--provider", "ecam", "--scenario", str(scenario), "--runs", str(runs),
              "--out", str(tmp_path / folder), "--no-progress"])
    folders = [str(tmp_path / f) for f in "abc"]
    copy = tmp_path / "copy.jsonl"  # the same episode again: counted once, named
    copy.write_bytes((tmp_path / "a" / "elec_gen1_fault_reset_fails" / "ecam__run000.jsonl").read_bytes())
    capsys.readouterr()
    assert main(["score", *folders, str(copy), "--json"]) == exitcodes.OK
    out, score_err = capsys.readouterr()
    (overall,) = json.loads(out)["aggregates"]["overall"]
    assert (overall["compliant_success"]["rate"], overall["outcome_success"]["rate"], overall["completion_mean"]) == (
        1 / 2, 1 / 2, (1 + 3 / 7) / 2)  # eng1's relight: 3 of its 7 steps (the descent and crossbleed undone)
    assert main(["export", "--inspect", *folders, str(copy), "-o", str(tmp_path / "logs")]) == exitcodes.OK
    written, err = capsys.readouterr()
    assert err.splitlines()[:-1] == score_err.splitlines()  # the same warning: the copy counted once
    log = read_eval_log(written.splitlines()[0])
    (scores,) = log.results.scores
    assert {k: m.value for k, m in scores.metrics.items()} == {"compliant_success": 1 / 2, "outcome": 1 / 2,
                                                               "completion": (1 + 3 / 7) / 2}
    assert (log.results.total_samples, scores.scored_samples, scores.unscored_samples) == (5, 4, 1)
    (gate,) = [s for s in log.samples if s.id == "test_gate_never_shows"]
    assert (gate.scores, gate.metadata["status"]) == ({}, "invalid_scenario")
    assert gate.error.message == "test_gate_never_shows: status invalid_scenario; score leaves it out of every mean"


def test_an_eval_run_again_into_the_same_folder_overwrites_nothing(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    from inspect_ai import eval as inspect_eval
    from inspect_ai.model import get_model

    from a320bench.inspect import a320

    out = tmp_path / "trajectories"
    traj = out / "elec_gen1_fault_reset_fails" / "inspect-mockllm_model__run000.jsonl"
    logs = []
    for turns in (GEN1_BY_THE_BOOK, [GEN1_BY_THE_BOOK[-1]]):  # the second eval would have given up
        (log,) = inspect_eval(a320(scenarios=[str(ROOT / GEN1)], out=str(out)), model=get_model(
            "mockllm/model", custom_outputs=_mock_episode(turns)), log_dir=str(tmp_path / "logs"), display="none",
            fail_on_error=False)
        logs.append(log)
        if len(logs) == 1:
            first = traj.read_bytes()
    assert traj.read_bytes() == first and card_of(traj)["compliant_success"] is True
    (sample,) = logs[1].samples
    assert sample.error.message == (f"EpisodeNotScored('{traj} exists (an earlier eval of mockllm/model into "
                                    f"out={out}); nothing flown, nothing overwritten: give another out= or move "
                                    "that folder away')")


def test_two_models_writing_trajectories_into_one_folder_keep_each_others_files(tmp_path, monkeypatch, capsys):
    # `-T out=DIR` for several models (one eval after the other, or `--model a,b`): each episode's file is its
    # model's, named as `run` names them, so score sees every model and none overwrote another's.
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    from inspect_ai import eval as inspect_eval
    from inspect_ai.model import get_model

    from a320bench.inspect import a320

    out = tmp_path / "trajectories"
    for name, turns in (("mockllm/good", GEN1_BY_THE_BOOK), ("mockllm/lazy", [GEN1_BY_THE_BOOK[0], GEN1_BY_THE_BOOK[-1]])):
        inspect_eval(a320(scenarios=[str(ROOT / GEN1)], out=str(out)),
                     model=get_model(name, custom_outputs=_mock_episode(turns)),
                     log_dir=str(tmp_path / "logs"), display="none")
    assert sorted(p.name for p in (out / "elec_gen1_fault_reset_fails").iterdir()) == [
        "inspect-mockllm_good__run000.jsonl", "inspect-mockllm_lazy__run000.jsonl"]
    capsys.readouterr()
    assert main(["score", str(out), "--json"]) == exitcodes.OK
    overall = json.loads(capsys.readouterr().out)["aggregates"]["overall"]
    assert [(r["model"], r["compliant_success"]["rate"]) for r in overall] == [("mockllm/good", 1.0),
                                                                              ("mockllm/lazy", 0.0)]


def test_two_folders_with_the_same_run_index_export_every_episode(tmp_path, capsys):
    # Two runs of one agent (other seeds) in two folders: score counts both episodes of run 0, and so must the
    # log -- Inspect keeps one sample per (id, epoch), so the second took the first's place and one was lost.
    for seed in (1, 2):
        main(["run", "--provider", "random", "--seed", str(seed), "--scenario", str(ROOT / GEN1),
              "--out", str(tmp_path / f"seed{seed}"), "--no-progress"])
    capsys.readouterr()
    assert main(["export", "--inspect", str(tmp_path / "seed1"), str(tmp_path / "seed2"),
                 "-o", str(tmp_path / "logs")]) == exitcodes.OK
    log = read_eval_log(capsys.readouterr().out.splitlines()[0])
    name = "elec_gen1_fault_reset_fails/random__run000.jsonl"
    assert [(s.id, s.epoch, s.metadata["run_index"], s.metadata["trajectory"]) for s in log.samples] == [
        ("elec_gen1_fault_reset_fails", 1, 0, str(tmp_path / "seed1" / name)),
        ("elec_gen1_fault_reset_fails", 2, 0, str(tmp_path / "seed2" / name))]
