"""The ecam baseline: executes displayed ECAM action lines literally, knows nothing else."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import anyio
import pytest

from a320bench.bridge import inprocess_episode
from a320bench.bridge.providers import make_provider
from a320bench.bridge.providers.base import AgentView
from a320bench.bridge.providers.ecam import EcamProvider, Matcher, Move, split_line, timer_s
from a320bench.bridge.score.scorecard import score_events
from a320bench.server.scenario.loader import load
from a320bench.server.sim import Aircraft
from a320bench.server.surface.profiles import load_profile

ROOT = Path(__file__).resolve().parents[2]


def fly(scenario_file: str) -> tuple[list[dict], object]:
    sc = load(ROOT / "scenarios" / scenario_file)
    events: list[dict] = []
    anyio.run(lambda: inprocess_episode.run_episode(sc, make_provider("ecam"), profile=load_profile("benchmark"), path=None,
                                         recorder_sink=events))
    return events, score_events(events, path=sc.id)


def commands(events: list[dict]) -> list[tuple[str, str]]:
    return [(e["arguments"]["control"], e["arguments"]["position"]) for e in events
            if e["type"] == "tool_call" and e["name"] == "set_control"]


@pytest.fixture(scope="module")
def matcher() -> Matcher:
    return Matcher(Aircraft().list_controls())


@pytest.mark.parametrize(("line", "title", "moves"), [
    ("-GEN 1......OFF THEN ON", "ELEC GEN 1 FAULT", [("GEN 1", "OFF"), ("GEN 1", "ON")]),
    ("-GEN 1+2....OFF THEN ON", "ELEC EMER CONFIG",
     [("GEN 1", "OFF"), ("GEN 1", "ON"), ("GEN 2", "OFF"), ("GEN 2", "ON")]),
    ("-THR LEVER 1.......IDLE", "ENG 1 FIRE", [("THR LEVER 1", "IDLE")]),
    ("-THR LEVERS........IDLE", "ENG 2 FIRE", [("THR LEVER 1", "IDLE"), ("THR LEVER 2", "IDLE")]),
    ("-ATC.............NOTIFY", "ENG 1 FIRE", [("ATC", "NOTIFY")]),
    ("-ENG 2 FIRE P/B....PUSH", "ENG 2 FIRE", [("ENG 2 FIRE", "RELEASED")]),
    ("-AGENT 1..........DISCH", "ENG 2 FIRE", [("ENG 2 AGENT 1", "PUSH")]),
    ("-AGENT 2..........DISCH", "ENG 1 FIRE", [("ENG 1 AGENT 2", "PUSH")]),
    ("-AGENT............DISCH", "APU FIRE", [("APU AGENT", "PUSH")]),
    ("-AGENT............DISCH", "SMOKE FWD CARGO SMOKE", [("CARGO AGENT", "PUSH")]),
    ("-MASTER SW..........OFF", "APU AUTO SHUT DOWN", [("APU MASTER SW", "OFF")]),
    ("-MODE SEL...........MAN", "CAB PR SYS 1+2 FAULT", [("CAB PRESS MODE SEL", "MAN")]),
    ("-FUEL MODE SEL......MAN", "FUEL AUTO FEED FAULT", [("FUEL MODE SEL", "MAN")]),
    ("-FUEL X FEED.........ON", "FUEL L TK PUMP 1+2 LO PR", [("X FEED", "ON")]),
    ("-GREEN ENG 1 PUMP...OFF", "HYD G RSVR LO LVL", [("ENG 1 PUMP", "OFF")]),
    ("-ENG MODE SEL.......IGN", "ENG 1 FAIL", [("ENG MODE", "IGN START")]),
    ("-EMER ELEC PWR...MAN ON", "ELEC EMER CONFIG", [("EMER ELEC PWR MAN ON", "PUSH")]),
    ("-RAT.............MAN ON", "HYD B+Y SYS LO PR", [("RAT MAN ON", "PUSH")]),
    ("-EMER DES (PA)..ANNOUNCE", "CAB PR EXCESS CAB ALT", [("EMER DES PA", "ANNOUNCE")]),
    ("-XPDR 7700.....CONSIDER", "CAB PR EXCESS CAB ALT", [("XPDR", "7700")]),
    ("-APU (IF AVAIL)...START", "ELEC EMER CONFIG", [("APU START", "ON")]),
    ("-IDG 1..............DISC", "ELEC IDG 1 OIL LO PR", [("IDG 1", "DISC")]),
    # Lines with no control, or an action no position expresses: nothing to do.
    ("-DESCENT.......INITIATE", "CAB PR EXCESS CAB ALT", []),
    ("-MAN V/S CTL....AS RQRD", "CAB PR SYS 1+2 FAULT", []),
    ("-IMBALANCE......MONITOR", "ENG 1 SHUT DOWN", []),
    ("-ENG 1 RELIGHT..CONSIDER", "ENG 1 FAIL", []),
    ("-DES TO FL 100/MEA-MORA", "AIR PACK 1+2 FAULT", []),
])
def test_an_action_line_maps_to_controls_by_its_words(matcher, line, title, moves):
    item, action = split_line(line)
    assert matcher.moves(item, action, title) == [Move(c, p) for c, p in moves]


def test_condition_and_information_lines_are_not_actions_and_timed_lines_are_waits():
    assert split_line(".IF UNSUCCESSFUL :") is None
    assert split_line("MIN RAT SPD......140 KT") is None
    assert timer_s(split_line("-AGENT1 AFTER 10S...DISCH")[0]) == 10
    assert timer_s("AGENT 1") is None


def test_it_flies_a_plain_ecam_procedure_to_compliant_success():
    events, card = fly("elec/gen1_fault_reset_works.yaml")
    assert commands(events) == [("GEN 1", "OFF"), ("GEN 1", "ON")]
    assert (card.outcome, card.compliant_success, card.reason) == (True, True, "agent_done")
    final = next(e for e in events if e["type"] == "final")
    assert final["report_done"]["diagnosis"] == "ELEC GEN 1 FAULT"


def test_it_follows_both_branches_of_an_engine_failure_and_loses_the_relight():
    # .IF DAMAGE : and .IF NO DAMAGE : are both displayed; a literal reader does the first.
    events, card = fly("eng/eng1_fail_relight_cruise.yaml")
    assert commands(events) == [("ENG MODE", "IGN START"), ("THR LEVER 1", "IDLE"), ("ENG MASTER 1", "OFF"),
                                ("ENG 1 FIRE", "RELEASED"), ("ENG 1 AGENT 1", "PUSH"), ("TCAS MODE SEL", "TA")]
    # No X BLEED SHUT: with X BLEED AUTO and no APU bleed the crossbleed valve is shut, so ENG 1 SHUT DOWN
    # does not show the line.
    assert (card.outcome, card.compliant_success) == (False, False)


def test_it_repeats_a_line_that_comes_back_until_the_budget_ends_the_episode():
    events, card = fly("air/pack2_ovht_persists_climb.yaml")
    moves = commands(events)
    assert moves[:4] == [("PACK 2", "OFF"), ("PACK 2", "ON"), ("PACK 2", "OFF"), ("PACK 2", "ON")]
    assert (card.reason, card.outcome) == ("budget_tool_calls", False)


def test_with_no_ecam_alert_it_watches_two_minutes_and_reports():
    events, card = fly("fuel/l_engine_leak_cruise.yaml")
    calls = [(e["name"], e["arguments"]) for e in events if e["type"] == "tool_call"]
    assert calls[0] == ("list_controls", {})
    assert [c for c in calls if c[0] == "wait"] == [("wait", {"seconds": 30})] * 4
    assert calls[-1] == ("report_done", {"diagnosis": "No ECAM alert seen.", "actions_summary": "No action taken."})
    assert card.outcome is False


def test_two_runs_of_a_scenario_make_the_same_calls():
    def calls(evs):
        return [(e["name"], e["arguments"], e["result"]) for e in evs if e["type"] == "tool_call"]

    first, _ = fly("fire/eng2_climb_second_agent.yaml")
    second, _ = fly("fire/eng2_climb_second_agent.yaml")
    assert calls(first) == calls(second)
    assert len(calls(first)) > 10


def test_it_flies_from_the_agents_view_which_holds_no_scenario():
    # The runner hands every provider an AgentView; the ecam baseline is no oracle (no for_episode).
    assert "scenario" not in {f.name for f in dataclasses.fields(AgentView)}
    assert not hasattr(EcamProvider, "for_episode")
    events, card = fly("elec/gen1_fault_reset_works.yaml")
    assert card.compliant_success is True
