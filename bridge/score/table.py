"""The human output of `a320-bench score`: rich tables, headline column compliant success.

rich is imported here only, so --json and --csv runs never load it.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from typing import Any, TextIO

from .scorecard import ScoreCard


def _pct(rate: dict[str, Any]) -> str:
    if rate["rate"] is None:
        return "-"
    lo, hi = rate["ci95"]
    return f"{rate['rate']:.0%} [{lo:.0%}–{hi:.0%}]"


def _num(x: float | None, fmt: str = ".2f") -> str:
    return "-" if x is None else format(x, fmt)


def _pass_hat(agg: dict[str, Any]) -> str:
    ks = agg["pass_hat_k"]
    if not ks:
        return "-"
    k = max(ks, key=int)
    return f"{ks[k]:.2f} (k={k})"


def _judgement(agg: dict[str, Any]) -> str:
    need = agg.get("needs_judgement")
    return "-" if need is None else "needed" if need else "no"


def _coverage(agg: dict[str, Any]) -> str:
    cov = agg.get("coverage")
    return f"{cov['scenarios']}/{cov['of']}" if cov else "-"


def _excluded(agg: dict[str, Any]) -> str:
    return ", ".join(f"{s} {n}" for s, n in agg["statuses"].items() if s != "valid")


def render(cards: Sequence[ScoreCard], aggregates: dict[str, Any], excluded: dict[str, int], *,
           detail: bool = False, include_errors: bool = False, file: TextIO | None = None,
           plan_note: str | None = None) -> None:
    from rich.console import Console
    from rich.markup import escape
    from rich.table import Table

    out = file or sys.stdout
    console = Console(file=out, highlight=False, soft_wrap=False)
    if not console.is_terminal:
        # Wide enough for the longest scenario id beside every column (rich would cut the id short).
        console = Console(file=out, highlight=False, width=230, color_system=None)

    crew = any(c.track == "crew" for c in cards)

    def table(title: str, keys: list[tuple[str, str]], rows: list[dict[str, Any]]) -> Table:
        t = Table(title=title, title_justify="left")
        judgement = any("needs_judgement" in a for a in rows)
        groups = any("coverage" in a for a in rows)
        for _, header in keys:
            t.add_column(header, justify="left")
        cols = ["n", "not flown", *(["coverage"] if groups else []), "compliant success", "outcome", "completion",
                "pass^k", "unsafe", "invariant", "declared", "diagnosis", "beyond ECAM", *(["crew"] if crew else []),
                *(["judgement"] if judgement else []), "not valid"]
        for col in cols:
            t.add_column(col, justify="left" if col in ("not valid", "judgement") else "right",
                         style="bold" if col == "compliant success" else None)
        for a in rows:
            t.add_row(*(escape(str(a[k])) for k, _ in keys), str(a["n"]), str(a["not_flown"] or ""),
                      *([_coverage(a)] if groups else []), _pct(a["compliant_success"]),
                      _pct(a["outcome_success"]), _num(a["completion_mean"]), _pass_hat(a),
                      _num(a["unsafe_rate"], ".0%"), _num(a["violation_rate"], ".0%"),
                      _num(a["declaration_rate"], ".0%"),
                      _num(a["diagnosis_rate"], ".0%"), _num(a["diagnosis_beyond_ecam_rate"], ".0%"),
                      *([_num(a["crew_violation_rate"], ".0%")] if crew else []),
                      *([_judgement(a)] if judgement else []), _excluded(a))
        return t

    console.print(table("By scenario and model", [("scenario_id", "scenario"), ("model", "model")],
                        aggregates["by_scenario"]))
    console.print(table("By system and model", [("system", "system"), ("model", "model"), ("scenarios", "scen.")],
                        aggregates["by_system"]))
    console.print(table("Overall", [("model", "model"), ("scenarios", "scen.")], aggregates["overall"]))
    if aggregates.get("learning_curve"):
        _curve(console, aggregates["learning_curve"])
    n = len(cards)
    line = f"{n} episode{'s' if n != 1 else ''} scored."
    if excluded:
        parts = ", ".join(f"{s} {k}" for s, k in excluded.items())
        line = (f"{n} episode{'s' if n != 1 else ''} scored, {n - sum(excluded.values())} in the means."
                f" Excluded from means: {parts} (--include-errors counts them as failures); a scenario left "
                 "without a result counts as failed in its system and overall rows"
                 + (", one whose gate failed for every model is left out of them." if "invalid_scenario" in excluded
                    else "."))
        if set(excluded) - {"invalid_scenario", "not_benchmark_profile"}:  # aggregate.py: planned, no result
            line += (" An episode without a result (cut short, or an end before any change) counts as not flown, "
                     "a failed trial of the headline rates, run record or not: rerun to fly it.")
    elif include_errors and any(not c.valid for c in cards):
        line += " Episodes that are not valid are counted as failures (--include-errors)."
    console.print(line, soft_wrap=True)
    if plan_note:
        console.print(plan_note, soft_wrap=True)
    console.print("Rates: share of a scenario's runs [95% Wilson interval]; system and overall rows: mean over "
                  "scenarios [95% interval with scenarios as the trials]. not flown: planned episodes without a "
                  "result, counted as failures; coverage: scenarios with a result / the scenarios of every model "
                  "in the table (one without counts as failed). pass^k: all k runs compliant. unsafe: a "
                  "dangerous, anti-procedure or harmful command; invariant: a safety invariant violated; declared: "
                  "an emergency declared that the scenario does not call for (counted, not failing)."
                  + (" crew: the crew-coordination check failed (an action taken unconfirmed, or refused, or an "
                     "instruction not carried out)." if crew else "")
                  + (" judgement: the ecam baseline fails the scenario." if any(
                      "needs_judgement" in a for a in aggregates["by_scenario"]) else ""), soft_wrap=True)
    if detail:
        for card in cards:
            _detail(console, card)


CURVE_BINS = 10  # positions of a long chain are shown in at most this many groups


def _curve(console: Any, curve: list[dict[str, Any]]) -> None:
    """The learning track's curve: compliant success by episode position, in up to CURVE_BINS groups."""
    from rich.markup import escape
    from rich.table import Table

    # The heading on its own line: a table title would wrap to the (narrow) table's width.
    console.print("Learning curve: compliant success by episode position (learning track)", soft_wrap=True)
    t = Table()
    t.add_column("model")
    width = max(len(row["points"]) for row in curve)
    size = -(-width // CURVE_BINS)  # positions per group
    groups = [(lo, min(lo + size - 1, width)) for lo in range(1, width + 1, size)]
    for lo, hi in groups:
        t.add_column(str(lo) if lo == hi else f"{lo}–{hi}", justify="right")
    for row in curve:
        cells = []
        for lo, hi in groups:
            pts = [p for p in row["points"] if lo <= p["position"] <= hi]
            n, k = sum(p["n"] for p in pts), sum(p["compliant"] for p in pts)
            cells.append(f"{k / n:.0%} (n={n})" if n else "-")
        t.add_row(escape(row["model"]), *cells)
    console.print(t)


def _where(matched: dict[str, Any] | None) -> str:
    if not matched:
        return ""
    kind = matched.get("kind")
    if kind == "step":
        return f"step {matched.get('block')}[{matched.get('index')}]"
    if kind == "optional":
        return f"optional[{matched.get('index')}]"
    if kind == "harmful":
        return "removed " + ", ".join(map(str, matched.get("removed") or ()))
    if kind == "forbidden":
        return f"forbidden ({matched.get('severity')})"
    return ""


def _detail(console: Any, card: ScoreCard) -> None:
    from rich.markup import escape

    yes_no = "yes" if card.compliant_success else "no"
    violated = ", ".join(card.invariant_violations) or "none"
    console.print(escape(
        f"{card.path}: {card.scenario_id} / {card.model} run {card.run_index}: status {card.status}, "
        f"report_done {'yes' if card.reported_done else 'no'}, outcome {'passed' if card.outcome else 'failed'}, "
        f"completion {card.steps_satisfied}/{card.steps_total}, {'in order' if card.in_order else 'OUT OF ORDER'}, "
        f"invariants violated: {violated}, compliant success {yes_no}"), soft_wrap=True)
    for c in card.commands or ():
        args = c["arguments"]
        if isinstance(args, dict):
            arg_text = ", ".join(f"{k}={v}" for k, v in args.items())
        else:
            arg_text = "" if args is None else str(args)
        line = f"  {c['seq']!s:>4} {c['name']}({arg_text})  {c['class']}  {_where(c['matched'])}"
        if c.get("invariants_violated"):
            line = f"{line.rstrip()}  VIOLATES {', '.join(c['invariants_violated'])}"
        console.print(escape(line.rstrip()), soft_wrap=True)
