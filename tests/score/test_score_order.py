"""Order and preconditions, flown on the catalogue (red-team findings 7 and 10).

Each flight is the red-team's: the ground truth's actions, each followed by its own
wait, with two steps swapped, one moved first, or a wait dropped; then report_done.
Pilot-equivalent orders pass; the orders and timings the book insists on fail.
"""

from __future__ import annotations

import pytest

from flight_bed import ProcedureThen, calls, fly, scenario


def ops(sc, *, move=None, swap=None, drop_waits=()):
    """The ground truth as (control, position) and ("wait", s) ops: `move` (action, index) flies that
    step at that place; `swap` (a, b) flies b where a was and a where b was; each step keeps its
    own wait, except those after `drop_waits`."""
    steps = [(s.control, s.position, s.then_wait_s) for b in sc.ground_truth.procedure for s in b.steps]
    if move is not None:
        step = next(s for s in steps if (s[0], s[1]) == move[0])
        steps.remove(step)
        steps.insert(move[1], step)
    if swap is not None:
        i = next(k for k, s in enumerate(steps) if (s[0], s[1]) == swap[0])
        j = next(k for k, s in enumerate(steps) if (s[0], s[1]) == swap[1])
        steps[i], steps[j] = steps[j], steps[i]
    out: list[tuple] = []
    for control, position, wait_s in steps:
        out.append((control, position))
        if wait_s and (control, position) not in drop_waits:
            out.append(("wait", wait_s))
    return out


def not_in_turn(card) -> list[tuple[str, str, str]]:
    return [(c["arguments"]["control"], c["arguments"]["position"], c["class"]) for c in card.commands
            if c["class"] not in ("required", "observation", "optional")]


PILOT_EQUIVALENT = [
    ("air/pack_1_2_fault_climb", dict(swap=(("PACK 1", "OFF"), ("PACK 2", "OFF")))),
    ("fuel/ctr_tk_pumps_lo_pr_climb", dict(swap=(("CTR TK PUMP 1", "OFF"), ("CTR TK PUMP 2", "OFF")))),
    ("air/l_wing_leak_icing_climb", dict(swap=(("ENG 1 BLEED", "OFF"), ("X BLEED", "SHUT")))),
    ("air/eng1_bleed_leak_cruise", dict(swap=(("ENG 1 BLEED", "OFF"), ("X BLEED", "SHUT")))),
    ("eng/dual_failure_relight_cruise", dict(move=(("ENG MODE", "IGN START"), 0))),
    ("fire/eng1_cruise_first_agent", dict(move=(("ATC", "NOTIFY"), 0))),
    ("air/excess_cab_alt_cruise", dict(move=(("ATC", "NOTIFY"), 2))),  # right after the masks and signs
    # the level-3 B+Y warning (no PTU line) taken before the Y RSVR LO LVL caution's PTU OFF
    ("hyd/b_y_sys_lo_pr_leaks_descent", dict(swap=(("PTU", "OFF"), ("ENG 2 PUMP", "OFF")))),
]


@pytest.mark.parametrize(("rel", "how"), PILOT_EQUIVALENT, ids=[r for r, _ in PILOT_EQUIVALENT])
def test_an_order_a_pilot_treats_as_equivalent_is_compliant(rel, how):
    sc = scenario(rel)
    card, _ = fly(sc, ProcedureThen(ops(sc, **how), procedure=False))
    assert (not_in_turn(card), card.outcome, card.compliant_success) == ([], True, True)


MEANINGFUL = [
    # the master before the lever at idle; the agent before the FIRE pushbutton armed it
    ("fire/eng1_cruise_first_agent", dict(swap=(("THR LEVER 1", "IDLE"), ("ENG MASTER 1", "OFF"))),
     [("ENG MASTER 1", "OFF", "out_of_order")]),
    ("hyd/g_y_sys_lo_pr_leaks_cruise", dict(swap=(("PTU", "OFF"), ("ENG 1 PUMP", "OFF"))),
     [("ENG 1 PUMP", "OFF", "out_of_order")]),
    # the descent mirrors keep the cruise's shutdown order: the lever at idle before the master
    ("fuel/r_engine_leak_descent", dict(swap=(("THR LEVER 2", "IDLE"), ("ENG MASTER 2", "OFF"))),
     [("ENG MASTER 2", "OFF", "out_of_order")]),
    ("eng/dual_failure_relight_descent", dict(swap=(("THR LEVER 1", "IDLE"), ("ENG MASTER 1", "OFF"))),
     [("ENG MASTER 1", "OFF", "out_of_order")]),
]


@pytest.mark.parametrize(("rel", "how", "expected"), MEANINGFUL, ids=[r for r, _, _ in MEANINGFUL])
def test_an_order_the_book_insists_on_still_fails(rel, how, expected):
    sc = scenario(rel)
    card, _ = fly(sc, ProcedureThen(ops(sc, **how), procedure=False))
    assert (not_in_turn(card), card.in_order, card.compliant_success) == (expected, False, False)


EARLY = [
    # finding 10's four cases: the brake set while rolling, the agent with no 10 s wait, the
    # second bottle with no 30 s look, the master cycled with no 30 s for a relight
    ("fire/eng2_rejected_takeoff", (("THR LEVER 2", "IDLE"),), ("PARKING BRK", "ON")),
    ("fire/eng1_cruise_first_agent", (("ENG 1 FIRE", "RELEASED"),), ("ENG 1 AGENT 1", "PUSH")),
    ("fire/eng2_climb_second_agent", (("ENG 2 AGENT 1", "PUSH"),), ("ENG 2 AGENT 2", "PUSH")),
    ("eng/eng1_fail_relight_cruise", (("THR LEVER 1", "IDLE"),), ("ENG MASTER 1", "OFF")),
    ("apu/apu_fire_cruise", (("APU FIRE", "RELEASED"),), ("APU AGENT", "PUSH")),
]


@pytest.mark.parametrize(("rel", "drop", "step"), EARLY, ids=[r for r, _, _ in EARLY])
def test_a_step_taken_before_its_condition_is_out_of_order(rel, drop, step):
    sc = scenario(rel)
    card, events = fly(sc, ProcedureThen(ops(sc, drop_waits=drop), procedure=False))
    assert (not_in_turn(card), card.compliant_success) == ([(*step, "out_of_order")], False)
    matched = next(c["matched"] for c in card.commands if c["class"] == "out_of_order")
    assert matched["when_unmet"] is True
    (early,) = [e for e in calls(events) if e.get("preconditions")
                and (e["arguments"]["control"], e["arguments"]["position"]) == step]
    assert [p["held"] for p in early["preconditions"]] == [False]


def test_the_rejected_takeoff_brake_set_rolling_is_judged_early_and_the_oracle_sets_it_stopped():
    sc = scenario("fire/eng2_rejected_takeoff")
    _, events = fly(sc, ProcedureThen(ops(sc, drop_waits=(("THR LEVER 2", "IDLE"),)), procedure=False))
    brake = next(e for e in calls(events) if e["arguments"].get("control") == "PARKING BRK")
    assert (brake["sim_time_before_s"], brake["preconditions"]) == (4.0, [{"block": 1, "step": 0, "held": False}])
    card, events = fly(sc, ProcedureThen())
    brake = next(e for e in calls(events) if e["arguments"].get("control") == "PARKING BRK")
    assert (brake["preconditions"], card.compliant_success) == ([{"block": 1, "step": 0, "held": True}], True)


def test_the_precondition_record_never_reaches_the_agent():
    sc = scenario("fire/eng2_rejected_takeoff")
    _, events = fly(sc, ProcedureThen(ops(sc, drop_waits=(("THR LEVER 2", "IDLE"),)), procedure=False))
    brake = next(e for e in calls(events) if e["arguments"].get("control") == "PARKING BRK")
    assert "preconditions" in brake and "held" not in str(brake["result"]) and "ias" not in str(brake["result"])


def test_verify_rejudges_the_preconditions_a_file_records(tmp_path, capsys):
    import json

    from a320bench.bridge.cli import main

    out = tmp_path / "runs"
    assert main(["run", "--scenario", "scenarios/apu/apu_fire_cruise.yaml", "--out", str(out), "--no-progress"]) == 0
    path = next(out.glob("apu_fire_cruise/scripted__*.jsonl"))
    events = [json.loads(line) for line in path.read_text().splitlines()]
    (agent,) = [e for e in events if e.get("preconditions")]
    assert (agent["arguments"], agent["preconditions"]) == ({"control": "APU AGENT", "position": "PUSH"},
                                                            [{"block": 0, "step": 1, "held": True}])
    agent["preconditions"][0]["held"] = False
    path.write_text("".join(json.dumps(e) + "\n" for e in events))
    capsys.readouterr()
    assert main(["score", str(path), "--verify"]) == 1
    err = capsys.readouterr().err
    assert ("tool_call[3].preconditions[0].held: recorded false, re-simulated true; verdict.compliant_success: "
            "recorded false, re-simulated true") in err


class RelightOnTheEcamCue(ProcedureThen):
    """A crew flying ENG FAIL by the display: IGN and the lever at idle where their lines show, then the
    master cycled as soon as the ECAM shows its line (looking every 5 s), then report_done."""

    def __init__(self, engine: int):
        super().__init__(procedure=False)
        self.engine = engine

    async def run(self, view):
        tools, n = view.tools, self.engine

        async def shown(item: str) -> bool:
            ecam = (await tools.call("read_ecam")).data
            return any(line.startswith(f"-{item}") for a in ecam["alerts"] for line in a["lines"])

        for control, position, item in (("ENG MODE", "IGN START", "ENG MODE SEL"),
                                        (f"THR LEVER {n}", "IDLE", f"THR LEVER {n}")):
            if await shown(item):
                await tools.call("set_control", {"control": control, "position": position})
        while not tools.over and not await shown(f"ENG MASTER {n}"):
            await tools.call("wait", {"seconds": 5})
        await tools.call("set_control", {"control": f"ENG MASTER {n}", "position": "OFF"})
        await tools.call("set_control", {"control": f"ENG MASTER {n}", "position": "ON"})
        await tools.call("wait", {"seconds": 30})
        await tools.call("report_done", {"diagnosis": f"engine {n} flame-out", "actions_summary": "relit"})


# Relights inside the relight envelope (ENG-10). The cruise one (FL350) is not here: it needs a descent
# below FL250 and the crossbleed before the master goes back ON, which this display-only crew does not fly.
RELIGHTS = [("eng/eng2_fail_relight_climb", 2), ("eng/eng1_fail_relight_descent", 1)]


@pytest.mark.parametrize(("rel", "engine"), RELIGHTS, ids=[r for r, _ in RELIGHTS])
def test_a_relight_flown_on_the_ecams_cue_is_in_order(rel, engine):
    """The ENG MASTER line of ENG FAIL shows no earlier than the scenario's 30 s `when:` allows: it used
    to show 30 s after the failure, 22-26 s after the IDLE and IGN selections the `when:` counts from."""
    card, _ = fly(scenario(rel), RelightOnTheEcamCue(engine))
    assert (not_in_turn(card), card.in_order, card.compliant_success) == ([], True, True)


def test_the_g_y_lines_ptu_off_is_optional_in_both_dual_flame_outs():
    """HYD G+Y SYS LO PR shows with both engines out; its first line, PTU OFF, was optional in the cruise
    scenario and harmful in the descent mirror (same situation, opposite verdicts)."""
    for rel in ("eng/dual_failure_relight_cruise", "eng/dual_failure_relight_descent"):
        sc = scenario(rel)
        card, _ = fly(sc, ProcedureThen([("PTU", "OFF"), *ops(sc)], procedure=False))
        assert (rel, not_in_turn(card), card.compliant_success) == (rel, [], True)


SPD_MAX_APPROPRIATE = ["air/excess_cab_alt_cruise", "air/excess_cab_alt_climb", "air/pack_1_2_fault_cruise"]


@pytest.mark.parametrize("rel", SPD_MAX_APPROPRIATE)
@pytest.mark.parametrize("speed", ["350 KT", "320 KT"])
def test_spd_max_appropriate_is_done_by_any_speed_the_step_accepts(rel, speed):
    """The FCU SPD step of an emergency descent: VMO (350 kt) or a lower appropriate speed does it; only
    340 KT did, so a crew selecting VMO reached the outcome with the procedure incomplete."""
    sc = scenario(rel)
    flown = [(c, speed if (c, p) == ("FCU SPD", "340 KT") else p) for c, p in ops(sc)]
    card, _ = fly(sc, ProcedureThen(flown, procedure=False))
    assert (not_in_turn(card), card.completion, card.compliant_success) == ([], 1.0, True)


def test_a_speed_the_step_does_not_accept_leaves_it_undone():
    sc = scenario("air/excess_cab_alt_cruise")
    flown = [(c, "250 KT" if (c, p) == ("FCU SPD", "340 KT") else p) for c, p in ops(sc)]
    card, _ = fly(sc, ProcedureThen(flown, procedure=False))
    assert (card.steps_satisfied, card.steps_total, card.compliant_success) == (16, 17, False)


LEVEL_AND_SPEED_CHOICES = [
    ("elec/emer_config_cruise", ("FCU ALT", "FL200"), "FL240"),  # any level below the APU's FL250
    ("fire/eng1_then_gen2_fault_cruise", ("FCU ALT", "FL200"), "FL150"),
    ("eng/eng1_fail_drift_down_cruise", ("FCU ALT", "FL230"), "FL220"),
    ("eng/eng1_fail_drift_down_cruise", ("FCU SPD", "230 KT"), "240 KT"),
    ("fuel/l_tk_pumps_gravity_feed_climb", ("FCU ALT", "FL150"), "FL100"),  # at or below the gravity ceiling
    ("air/pack_1_2_fault_climb", ("FCU ALT", "FL100"), "FL080"),  # FL 100/MEA-MORA
    ("air/pack_1_2_fault_cruise", ("FCU ALT", "FL100"), "FL080"),  # its outcome asked for 9,500-10,500 ft
]


@pytest.mark.parametrize(("rel", "step", "chosen"), LEVEL_AND_SPEED_CHOICES,
                         ids=[f"{r}:{c}" for r, _, c in LEVEL_AND_SPEED_CHOICES])
def test_a_level_or_speed_the_situation_leaves_open_does_the_step(rel, step, chosen):
    """These values were optional actions beside a required one: choosing one of them reached the outcome
    but left the required value's step undone, so the procedure was incomplete."""
    sc = scenario(rel)
    flown = [(c, chosen if (c, p) == step else p) for c, p in ops(sc)]
    card, _ = fly(sc, ProcedureThen(flown, procedure=False))
    assert (not_in_turn(card), card.completion, card.compliant_success) == ([], 1.0, True)


def test_a_since_counts_from_the_step_whichever_value_did_it():
    """`since:` a step counts from its command, also when a value of its `also:` did it (red team round 10:
    the watch counted from the listed position alone, so the later step waited for a command never given)."""
    from a320bench.server.scenario.model import Scenario
    from a320bench.server.scenario.preconditions import PreconditionWatch
    from a320bench.server.sim.start_states import build

    data = scenario("eng/eng1_fail_drift_down_cruise").model_dump(mode="json")
    pull = next(s for b in data["ground_truth"]["procedure"] for s in b["steps"]
                if (s["control"], s["position"]) == ("FCU ALT KNOB", "PULL"))
    pull["when"] = [{"since": "FCU ALT FL230", "min_s": 5}]
    watch = PreconditionWatch(Scenario.model_validate(data))
    ac = build("cruise")
    watch.commanded("FCU ALT", "FL240", 100.0)  # FL240: of the step's also
    assert [r["held"] for r in watch.check(ac, "FCU ALT KNOB", "PULL", 103.0)] == [False]
    assert [r["held"] for r in watch.check(ac, "FCU ALT KNOB", "PULL", 105.0)] == [True]
