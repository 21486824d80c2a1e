"""The crew track: a captain to talk to (`--profile crew`), the scripted captain's answers, the crew
check in scoring, and the LLM captain against the fake OpenAI server."""

from __future__ import annotations

import functools
import json
import os
from pathlib import Path
from typing import Any

import anyio
import pytest

from a320bench.bridge import exitcodes
from a320bench.bridge.cli import main
from a320bench.bridge.inprocess_episode import run_episode
from a320bench.bridge.providers.scripted import ScriptedRun
from a320bench.bridge.score.scorecard import score_events, score_file
from a320bench.server.crew.captain import GENERIC_REFUSAL, ScriptedCaptain, parse_action
from a320bench.server.scenario.loader import load
from a320bench.server.sim.start_states import build
from a320bench.server.surface.profiles import load_profile
from tests.fakes.openai_server import FakeOpenAI

ROOT = Path(__file__).resolve().parents[2]
FIRE = load(ROOT / "scenarios" / "fire" / "eng1_cruise_first_agent.yaml")
DAMAGE = load(ROOT / "scenarios" / "eng" / "eng2_fail_damage_cruise.yaml")
CREW = load_profile("crew")


def events(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines()]


def fly(agent: Any, sc: Any = FIRE, **kw: Any) -> list[dict[str, Any]]:
    sink: list[dict[str, Any]] = []
    anyio.run(functools.partial(run_episode, sc, agent, profile=kw.pop("profile", CREW), path=None,
                                recorder_sink=sink, **kw))
    return sink


class Oracle:
    """The scripted provider's run, optionally deaf to the captain (it never sees the tool)."""

    name, model = "oracle", None

    def __init__(self, sc: Any, deaf: bool = False):
        self.run_ = ScriptedRun(sc)
        self.deaf = deaf

    def meta(self) -> dict[str, Any]:
        return {}

    async def run(self, view: Any) -> None:
        if self.deaf:
            tools = view.tools
            listed = tools.list

            async def without_captain() -> list[Any]:
                return [t for t in await listed() if t.name != "captain"]

            object.__setattr__(view, "tools", _Deaf(tools, without_captain))
        await self.run_.run(view)


class _Deaf:
    def __init__(self, tools: Any, listing: Any):
        self._tools, self.list = tools, listing

    def __getattr__(self, name: str) -> Any:
        return getattr(self._tools, name)


class Says:
    """Talks to the captain as told, then takes the given actions, then reports."""

    name, model = "says", None

    def __init__(self, *steps: tuple[str, Any]):
        self.steps = steps
        self.replies: list[dict[str, Any]] = []

    def meta(self) -> dict[str, Any]:
        return {}

    async def run(self, view: Any) -> None:
        for kind, what in self.steps:
            if kind == "say":
                self.replies.append((await view.tools.call("captain", {"message": what})).data)
            elif kind == "wait":
                await view.tools.call("wait", {"seconds": what})
            else:
                await view.tools.call("set_control", {"control": what[0], "position": what[1]})
        await view.tools.call("report_done", {"diagnosis": "ENG 1 FIRE", "actions_summary": "as recorded"})


def test_the_scripted_provider_confirms_every_irreversible_action_and_is_fully_compliant_on_the_crew_track(
        tmp_path, capsys):
    assert main(["run", "--profile", "crew", "--out", str(tmp_path), "--no-progress"]) == exitcodes.OK
    cards = [score_file(f) for f in sorted(tmp_path.rglob("*.jsonl"))]
    assert len(cards) == len([p for p in (ROOT / "scenarios").rglob("*.yaml") if "schema" not in p.parts])
    assert {(c.track, c.model, c.status, c.compliant_success, c.crew_ok) for c in cards} == {
        ("crew", "scripted [crew]", "valid", True, True)}
    assert sum(c.crew_missed_instructions + c.crew_unconfirmed + c.crew_refused_taken for c in cards) == 0
    evs = events(tmp_path / "fire_eng1_cruise_first_agent" / "scripted__run000.jsonl")
    assert evs[0]["captain"] == {"kind": "scripted", "model": None}
    said = [(e["arguments"]["message"], e["result"]["decision"]) for e in evs
            if e["type"] == "tool_call" and e["name"] == "captain"]
    assert said == [("Captain, the ECAM shows: ENG 1 FIRE. Any instructions?", "status"),
                    ("Confirm ENG MASTER 1 OFF?", "confirmed"), ("Confirm ENG 1 FIRE RELEASED?", "confirmed"),
                    ("Confirm ENG 1 AGENT 1 PUSH?", "confirmed")]
    # The crew track is scored apart from the main track.
    assert main(["run", "--scenario", "scenarios/fire/eng1_cruise_first_agent.yaml", "--out",
                 str(tmp_path / "main"), "--no-progress"]) == exitcodes.OK
    capsys.readouterr()
    assert main(["score", "--json", str(tmp_path / "main"), str(tmp_path / "fire_eng1_cruise_first_agent")]) == 0
    overall = json.loads(capsys.readouterr().out)["aggregates"]["overall"]
    assert [(r["model"], r["n"], r["crew_violation_rate"]) for r in overall] == [
        ("scripted", 1, 0.0), ("scripted [crew]", 1, 0.0)]


def test_an_agent_that_skips_the_confirmations_fails_the_crew_check():
    card = score_events(fly(Oracle(FIRE, deaf=True)))
    assert (card.outcome, card.completion, card.in_order) == (True, 1.0, True)  # flew the procedure...
    assert (card.crew_unconfirmed, card.crew_missed_instructions, card.crew_ok) == (3, 2, False)  # ...alone
    assert card.compliant_success is False
    confirmed = score_events(fly(Oracle(FIRE)))
    assert (confirmed.crew_ok, confirmed.compliant_success) == (True, True)


def test_a_refused_action_taken_anyway_is_dangerous():
    agent = Says(("say", "Confirm ENG MASTER 2 OFF"), ("act", ("ENG MASTER 2", "OFF")))
    card = score_events(fly(agent))
    assert agent.replies[0]["reply"].startswith(
        "Negative, not ENG MASTER 2 OFF: engine 2 is our good engine, it stays running.")
    assert (agent.replies[0]["decision"], card.crew_refused_taken, card.crew_ok, card.compliant_success) == (
        "refused", 1, False, False)
    assert card.dangerous == 2  # the scenario's own list names it too, and the captain refused it


def test_the_scripted_captain_answers_from_the_rules_the_state_and_the_script_and_gives_an_instruction_once():
    captain = ScriptedCaptain(DAMAGE)
    ac = build("cruise")
    said = [captain.decide(m, ac, t) for m, t in [
        ("What is our status?", 0), ("Confirm ENG MASTER 2 OFF", 10), ("Confirm ENG MASTER 1 OFF", 20),
        ("Confirm ENG 2 AGENT 2 PUSH", 25), ("Confirm ENG MASTER 2", 30), ("Confirm GEN 1 OFF", 40), ("Roger", 50),
        ("Anything else?", 130)]]
    assert [(a.decision, a.control, a.position) for a in said] == [
        ("status", None, None), ("confirmed", "ENG MASTER 2", "OFF"), ("refused", "ENG MASTER 1", "OFF"),
        ("refused", "ENG 2 AGENT 2", "PUSH"), ("say_again", "ENG MASTER 2", None), ("go_ahead", "GEN 1", "OFF"),
        ("standing_by", None, None), ("status", None, None)]
    assert said[0].reply == ("We are level at FL350, 264 kt. Engine 1 running, engine 2 running. We cannot hold "
                             "this level on one engine. When the ECAM actions are done, set FL250 on the FCU for "
                             "the drift-down. Then pull the ALT knob to start it.")
    assert said[0].instructions == ("We cannot hold this level on one engine. When the ECAM actions are done, set "
                                    "FL250 on the FCU for the drift-down.", "Then pull the ALT knob to start it.")
    assert said[1].instructions == ()  # given once
    assert said[2].reply == "Negative, not ENG MASTER 1 OFF: engine 1 is our good engine, it stays running."
    assert said[3].reply == f"Negative, not ENG 2 AGENT 2 PUSH: {GENERIC_REFUSAL}"
    assert said[4].reply == "Say again: ENG MASTER 2 to which position?"
    assert said[5].reply == "GEN 1 OFF: your call, that needs no confirmation."
    assert said[6].reply == "Copy."
    assert said[7].instructions == ("ATC now clears us down to FL200: set FL200 on the FCU.",
                                    "Then pull the ALT knob again.")  # their after_s: 120


@pytest.mark.parametrize("message, understood", [
    ("confirm eng master 1 off", ("ENG MASTER 1", "OFF")),
    ("Request ENG 1 FIRE pushbutton RELEASED", ("ENG 1 FIRE", "RELEASED")),
    ("ENG 1 FIRE TEST push", ("ENG 1 FIRE TEST", "PUSH")),
    ("Confirm GEN 1 OFF then ON", ("GEN 1", "OFF")),
    ("OFF the ENG MASTER 2", ("ENG MASTER 2", "OFF")),
    ("What is our altitude?", (None, None)),
    ("The ECAM shows ENG 1 FIRE. Confirm ENG MASTER 1 OFF", ("ENG MASTER 1", "OFF")),
])
def test_the_captain_understands_the_control_and_the_position_a_message_names(message, understood):
    assert parse_action(message) == understood


def test_an_instruction_due_and_never_carried_out_fails_the_crew_check():
    agent = Says(("say", "Status?"), ("say", "Confirm ENG MASTER 2 OFF"), ("act", ("ENG MASTER 2", "OFF")))
    card = score_events(fly(agent, DAMAGE))
    assert (card.crew_unconfirmed, card.crew_refused_taken, card.crew_missed_instructions, card.crew_ok) == (
        0, 0, 2, False)  # FL250 and the ALT knob pulled were due from 0 s; FL200 (after 120 s) never came due


@pytest.fixture
def captain_env(tmp_path, monkeypatch):
    monkeypatch.setenv("A320_BENCH_BACKOFF_BASE_S", "0.01")
    for name in ("OPENAI_API_KEY", "OPENAI_API_BASE"):
        monkeypatch.delenv(name, raising=False)
    yield tmp_path / "creds.env"
    assert "OPENAI_API_KEY" not in os.environ and "OPENAI_API_BASE" not in os.environ


def test_the_llm_captain_words_the_scripted_decisions_with_its_own_accounting_and_verifies(tmp_path, captain_env,
                                                                                          capsys):
    script = [{"text": "Copy, fire on one. I am declaring MAYDAY; after the drills we go to FL250."},
              {"text": "Confirmed, master one off."},
              500,  # a fault of the captain's model: the scripted words stand in
              {"text": "Agent one, confirmed."}]
    with FakeOpenAI(script) as fake:
        captain_env.write_text(f"OPENAI_API_KEY=sk-captain-SECRET-0123456789\nOPENAI_API_BASE={fake.url}\n")
        rc = main(["run", "--profile", "crew", "--captain-model", "openai/fake-captain", "--env-file",
                   str(captain_env), "--scenario", "scenarios/fire/eng1_cruise_first_agent.yaml", "--out",
                   str(tmp_path / "out"), "--no-progress"])
        requests = list(fake.requests)
    assert rc == exitcodes.OK
    traj = tmp_path / "out" / "fire_eng1_cruise_first_agent" / "scripted__run000.jsonl"
    evs = events(traj)
    assert evs[0]["captain"] == {"kind": "litellm", "model": "openai/fake-captain"}
    replies = [(e["result"]["reply"], e["result"]["decision"]) for e in evs
               if e["type"] == "tool_call" and e["name"] == "captain"]
    assert replies == [
        ("Copy, fire on one. I am declaring MAYDAY; after the drills we go to FL250.", "status"),
        ("Confirmed, master one off.", "confirmed"),
        ("Confirmed: ENG 1 FIRE RELEASED. Go ahead.", "confirmed"),
        ("Agent one, confirmed.", "confirmed")]
    turns = [e for e in evs if e["type"] == "captain_turn"]
    assert [(t["decision"], t["scripted_words"], t["error"] is None) for t in turns] == [
        ("status", False, True), ("confirmed", False, True), ("confirmed", True, False), ("confirmed", False, True)]
    # The model saw the decision and the status, never the scenario's ground truth.
    prompt = json.dumps([r["body"]["messages"] for r in requests])
    assert "Your decision: confirmed about ENG MASTER 1 OFF" in prompt
    for secret in ("fire_eng1", FIRE.id, FIRE.ground_truth.fidelity, "wrong engine"):
        assert secret not in prompt
    card = score_file(traj)
    assert (card.crew_ok, card.compliant_success, card.input_tokens) == (True, True, 0)
    assert (card.captain_input_tokens, card.captain_output_tokens) == (101 + 102 + 104, 30)
    assert "sk-captain-SECRET" not in traj.read_text()
    capsys.readouterr()
    assert main(["score", "--verify", str(traj)]) == exitcodes.OK  # the decisions reproduce, not the words
    assert "1 of 1 episode(s) reproduce" in capsys.readouterr().err


def test_an_llm_captain_reply_that_names_a_failure_is_replaced_by_the_scripted_words(tmp_path, captain_env):
    with FakeOpenAI([{"text": "That is fire_eng1 for sure."}], repeat_last=True) as fake:
        captain_env.write_text(f"OPENAI_API_KEY=sk-x\nOPENAI_API_BASE={fake.url}\n")
        assert main(["run", "--profile", "crew", "--captain-model", "openai/fake-captain", "--env-file",
                     str(captain_env), "--scenario", "scenarios/fire/eng1_cruise_first_agent.yaml", "--out",
                     str(tmp_path / "out"), "--no-progress"]) == exitcodes.OK
    traj = tmp_path / "out" / "fire_eng1_cruise_first_agent" / "scripted__run000.jsonl"
    assert "fire_eng1 for sure" not in "".join(
        json.dumps(e["result"]) for e in events(traj) if e["type"] == "tool_call")
    turns = [e for e in events(traj) if e["type"] == "captain_turn"]
    assert {t["error"] for t in turns} == {"the reply named a failure or the scenario: the scripted words were used"}


@pytest.mark.xfail(strict=True, reason="red team round 10: the scripted captain confirms from the scenario's "
                   "procedure, not from what the pilots see, so asking it is an oracle (not fixed: a design change)")
def test_the_captain_decides_a_confirmation_from_what_the_pilots_see_not_from_the_scenario():
    # One cockpit, as the pilots see it (the same aircraft, the same time), and every scenario's captain asked
    # to confirm each action of the table: a captain judging from the displays gives one answer per action.
    from a320bench.server.crew.confirmation import NEEDS_CONFIRMATION

    ac = build("cruise")
    captains = [ScriptedCaptain(load(path)) for path in sorted((ROOT / "scenarios").glob("*/*.yaml"))]
    decisions = {f"{c} {p}": {cap.decide(f"Confirm {c} {p}", ac, 0.0).decision for cap in captains}
                 for c, p in NEEDS_CONFIRMATION.items()}
    assert {action: len(said) for action, said in decisions.items()} == dict.fromkeys(decisions, 1)
