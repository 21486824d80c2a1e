"""`a320-bench validate`: check scenario files, then fly each ground truth with the scripted provider.

Per scenario: gate passed, success reached, compliance full (the scripted
run's ScoreCard is a compliant success), order: every adjacent swap of the
procedure passes or fails as its stated constraints say (validate_order.py), and
each optional action flown after the ground truth keeps the compliance (an
action the scenario allows must not fail it). Exit 0 only if all hold; broken
files get one line per problem and exit 2, before anything is flown.
"""

from __future__ import annotations

import sys

from . import exitcodes, interrupts
from .cli import CliError


def run_validate(args) -> int:
    from a320bench.paths import PathSpecError

    from .selection import scenario_files

    try:
        files = scenario_files(args.paths or None)
    except PathSpecError as e:
        raise CliError(str(e)) from None
    from a320bench.server.scenario.loader import load_all

    scenarios, problems = load_all(files)
    if problems:
        for p in problems:
            print(f"error: {p}", file=sys.stderr)
        print(f"{len(problems)} problem(s) in {len(files)} file(s)", file=sys.stderr)
        return exitcodes.USAGE

    from .agent_thread import reusing_agent_threads

    with reusing_agent_threads():  # several episodes a scenario: one agent thread for them all
        rows = interrupts.run_loop(_fly_all, scenarios)
    from rich.console import Console
    from rich.table import Table

    table = Table(title=f"validate: {len(scenarios)} scenario(s)")
    for col in ("scenario", "system", "phase", "gate", "success", "compliance", "order", "optional", "note"):
        table.add_column(col)
    ok = True
    for sc, gate, success, compliant, order, optional_ok, note in rows:
        ok = ok and gate and success and compliant and order and optional_ok
        mark = lambda b: "[green]pass[/]" if b else "[red]FAIL[/]"  # noqa: E731
        table.add_row(sc.id, sc.system, sc.phase, mark(gate), mark(success), mark(compliant), mark(order),
                      mark(optional_ok), note)
    Console(width=200).print(table)
    bad = sum(1 for r in rows if not all(r[1:6]))
    print(f"{len(rows) - bad} of {len(rows)} scenario(s) pass gate, success, compliance, order and optional actions")
    return exitcodes.OK if ok else exitcodes.FAILED_CHECKS


async def _fly_all(scenarios):
    from a320bench.server.surface.profiles import load_profile
    from a320bench.server.trajectory import Recorder

    from .providers.scripted import ScriptedProvider
    from .inprocess_episode import run_episode
    from .score.scorecard import score_events

    from .validate_order import check_swaps

    profile = load_profile("benchmark")

    async def fly(sc, order=None, own_waits=False):
        recorder_events: list = []
        # No file: the recorder keeps events in memory for scoring.
        res = await run_episode(sc, ScriptedProvider(order, own_waits), profile=profile, path=None,
                                episode_id=f"validate/{sc.id}", recorder_sink=recorder_events)
        return res, score_events(recorder_events, path=sc.id, detail=order is not None)

    async def swapped(sc, order, own_waits):
        return (await fly(sc, order, own_waits))[1]

    rows = []
    for sc in scenarios:
        res, card = await fly(sc)
        failed = [c for c in res.final.get("success", {}).get("criteria", []) if not c.get("passed")]
        violations = res.final.get("success", {}).get("invariant_violations", [])
        note = ""
        if not res.gate_passed:
            g = res.final.get("gate", {})
            note = g.get("setup_error") or ("gate: missing " + ", ".join(g.get("missing", [])) if g.get("missing")
                                            else "gate: unexpected " + ", ".join(g.get("unexpected", [])))
        elif failed:
            c = failed[0]
            note = f"{c.get('var') or c.get('titles')}: got {c.get('actual', c.get('present'))}"
        elif violations:
            note = "invariant violated: " + ", ".join(f"{v['invariant']} (call {v['seq']})" for v in violations)
        elif not card.compliant_success:
            note = (f"completion {card.completion:.2f}, in order {card.in_order}, dangerous {card.dangerous}, "
                    f"harmful {card.harmful}{' ' + ', '.join(card.capabilities_removed) if card.harmful else ''}, "
                    f"report_done {'yes' if card.reported_done else 'no'}")
        mismatches = await check_swaps(sc, swapped) if card.compliant_success else []
        if mismatches:
            note = (note + "; " if note else "") + f"order: {mismatches[0]}" + (
                f" (+{len(mismatches) - 1} more)" if len(mismatches) > 1 else "")
        spoilers = [] if not card.compliant_success else await _optional_actions_failing(sc, profile)
        if spoilers:
            note = (note + "; " if note else "") + "fails with optional " + ", ".join(spoilers)
        rows.append((sc, res.gate_passed, res.success, bool(card.compliant_success), not mismatches, not spoilers,
                     note))
    return rows


async def _optional_actions_failing(sc, profile) -> list[str]:
    """The scenario's optional actions that, flown after the ground truth, lose the compliance. A
    setting (not a push) may be put back where the ground truth left it: an optional GEN 2 OFF is half
    of a reset, an optional SPD BRK HALF belongs to the descent, and the end state still counts."""
    from a320bench.server.scenario.harness import prepare
    from a320bench.server.sim import CONTROLS

    from .providers.scripted import ScriptedProvider
    from .inprocess_episode import run_episode
    from .score.scorecard import score_events

    async def compliant(then) -> bool:
        events: list = []
        await run_episode(sc, ScriptedProvider(then=then), profile=profile, path=None,
                          episode_id=f"validate/{sc.id}/optional", recorder_sink=events)
        return bool(score_events(events, path=sc.id).compliant_success)

    left = {**prepare(sc)[0].controls, **{s.control: s.position for b in sc.ground_truth.procedure for s in b.steps}}
    failing = []
    for control, position in dict.fromkeys((a.control, a.position) for a in sc.ground_truth.optional_actions):
        if await compliant(((control, position),)):
            continue
        ctl = CONTROLS[control]
        back = left[control]
        if ctl.momentary or back == position or not await compliant(((control, position), (control, back))):
            failing.append(f"{control} {position}")
    return failing
