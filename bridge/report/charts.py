"""Plotly figure specs of the overview, as plain dicts ({"data": [...], "layout": {...}}).

plotly.js (inlined once in the page) draws them; building the specs here keeps
the page's script small and lets tests read the numbers a chart shows. Rates
carry their 95 % Wilson intervals (from score's aggregates) as asymmetric error bars.
"""

from __future__ import annotations

from typing import Any

MODEL_COLOURS = ("#1f77b4", "#ff7f0e", "#2ca02c", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22",
                 "#17becf", "#d62728")


def colour_of(models: list[str]) -> dict[str, str]:
    return {m: MODEL_COLOURS[i % len(MODEL_COLOURS)] for i, m in enumerate(models)}


def _layout(title: str, **extra: Any) -> dict[str, Any]:
    return {"title": {"text": title, "font": {"size": 14}}, "margin": {"l": 60, "r": 20, "t": 40, "b": 50},
            "height": 320, "barmode": "group", "legend": {"orientation": "h", "y": -0.2},
            "font": {"family": "system-ui, sans-serif", "size": 12}, **extra}


def _rate_bars(name: str, colour: str, xs: list[str], rates: list[dict[str, Any]], *,
               horizontal: bool = False) -> dict[str, Any]:
    ys = [r["rate"] for r in rates]
    up = [None if r["rate"] is None else r["ci95"][1] - r["rate"] for r in rates]
    down = [None if r["rate"] is None else r["rate"] - r["ci95"][0] for r in rates]
    err = {"type": "data", "symmetric": False, "array": up, "arrayminus": down, "thickness": 1.2, "width": 3}
    text = [("–" if r["rate"] is None else f"{r['count']}/{r['n']}") for r in rates]
    trace = {"type": "bar", "name": name, "marker": {"color": colour}, "hovertext": text,
             "hovertemplate": "%{hovertext}: %{" + ("x" if horizontal else "y") + ":.0%}<extra>" + name + "</extra>"}
    if horizontal:
        trace.update(orientation="h", y=xs, x=ys, error_x=err)
    else:
        trace.update(x=xs, y=ys, error_y=err)
    return trace


def _with_n(agg: dict[str, Any], key: str) -> dict[str, Any]:
    return {**agg[key], "n": agg["n"]}


def overall_rates(overall: list[dict[str, Any]], colours: dict[str, str]) -> dict[str, Any]:
    """Compliant success and outcome success per model."""
    labels = ("compliant success", "outcome")
    data = [_rate_bars(m["model"], colours[m["model"]], list(labels),
                       [_with_n(m, "compliant_success"), _with_n(m, "outcome_success")]) for m in overall]
    return {"data": data, "layout": _layout("By model (95 % Wilson intervals)",
                                            yaxis={"range": [0, 1.05], "tickformat": ".0%"})}


def system_rates(by_system: list[dict[str, Any]], colours: dict[str, str]) -> dict[str, Any]:
    systems = sorted({a["system"] for a in by_system})
    data = []
    for model in colours:
        rows = {a["system"]: a for a in by_system if a["model"] == model}
        if rows:
            data.append(_rate_bars(model, colours[model], [s for s in systems if s in rows],
                                   [_with_n(rows[s], "compliant_success") for s in systems if s in rows]))
    return {"data": data, "layout": _layout("Compliant success by system",
                                            yaxis={"range": [0, 1.05], "tickformat": ".0%"})}


def scenario_rates(by_scenario: list[dict[str, Any]], colours: dict[str, str]) -> dict[str, Any]:
    scenarios = sorted({a["scenario_id"] for a in by_scenario}, reverse=True)  # top to bottom: a to z
    data = []
    for model in colours:
        rows = {a["scenario_id"]: a for a in by_scenario if a["model"] == model}
        if rows:
            data.append(_rate_bars(model, colours[model], [s for s in scenarios if s in rows],
                                   [_with_n(rows[s], "compliant_success") for s in scenarios if s in rows],
                                   horizontal=True))
    height = 80 + 14 * len(scenarios) * max(1, len(data))
    return {"data": data, "layout": _layout("Compliant success by scenario", height=height,
                                            margin={"l": 300, "r": 20, "t": 40, "b": 40},
                                            xaxis={"range": [0, 1.05], "tickformat": ".0%"},
                                            yaxis={"automargin": True}, legend={"orientation": "h", "y": 1.02,
                                                                                "yanchor": "bottom"})}


def pass_curves(overall: list[dict[str, Any]], colours: dict[str, str]) -> dict[str, Any]:
    """pass^k (all k runs compliant; solid) and pass@k (at least one; dotted) for k = 1..runs."""
    data = []
    for m in overall:
        for key, label, dash in (("pass_hat_k", "pass^k", "solid"), ("pass_at_k", "pass@k", "dot")):
            ks = sorted(m[key], key=int)
            if ks:
                data.append({"type": "scatter", "mode": "lines+markers", "name": f"{m['model']} {label}",
                             "x": [int(k) for k in ks], "y": [m[key][k] for k in ks],
                             "line": {"color": colours[m["model"]], "dash": dash},
                             "hovertemplate": f"{label}" + " k=%{x}: %{y:.2f}<extra>" + m["model"] + "</extra>"})
    return {"data": data, "layout": _layout("pass^k (solid) and pass@k (dotted), mean over scenarios",
                                            xaxis={"title": {"text": "k"}, "dtick": 1},
                                            yaxis={"range": [0, 1.05], "tickformat": ".0%"},
                                            legend={"orientation": "h", "y": -0.3})}  # below the axis title


def cost_tokens(overall: list[dict[str, Any]], colours: dict[str, str]) -> dict[str, Any] | None:
    """Tokens (input, output) and cost per model, or None when no episode recorded any."""
    rows = [m for m in overall if m["input_tokens"] or m["output_tokens"] or m["cost_usd"]]
    if not rows:
        return None
    models = [m["model"] for m in rows]
    data = [{"type": "bar", "name": "input tokens", "x": models, "y": [m["input_tokens"] for m in rows],
             "marker": {"color": "#9ecae1"}},
            {"type": "bar", "name": "output tokens", "x": models, "y": [m["output_tokens"] for m in rows],
             "marker": {"color": "#3182bd"}},
            {"type": "scatter", "mode": "markers", "name": "cost (USD)", "x": models, "yaxis": "y2",
             "y": [m["cost_usd"] for m in rows], "marker": {"color": "#e6550d", "size": 10, "symbol": "diamond"}}]
    return {"data": data, "layout": _layout("Tokens and cost per model", barmode="stack",
                                            yaxis={"title": {"text": "tokens"}},
                                            yaxis2={"title": {"text": "USD"}, "overlaying": "y", "side": "right",
                                                    "rangemode": "tozero"})}


def comparison_forest(comparisons: list[dict[str, Any]]) -> dict[str, Any] | None:
    """Mean per-scenario difference in compliant success of each pair, with its bootstrap interval."""
    rows = [c for c in comparisons if c["mean_diff"] is not None]
    if not rows:
        return None
    labels = [f"{c['a']} − {c['b']}" for c in rows]
    trace = {"type": "scatter", "mode": "markers", "x": [c["mean_diff"] for c in rows], "y": labels,
             "marker": {"size": 10, "color": ["#d62728" if c["real"] else "#7f7f7f" for c in rows]},
             "error_x": {"type": "data", "symmetric": False, "array": [c["ci95"][1] - c["mean_diff"] for c in rows],
                         "arrayminus": [c["mean_diff"] - c["ci95"][0] for c in rows]},
             "hovertemplate": "%{y}: %{x:+.0%}<extra></extra>", "showlegend": False}
    return {"data": [trace], "layout": _layout(
        "Difference in compliant success, mean over scenarios (95 % paired bootstrap over scenarios)",
        height=120 + 40 * len(rows), margin={"l": 260, "r": 20, "t": 40, "b": 40},
        xaxis={"range": [-1.05, 1.05], "tickformat": "+.0%", "zeroline": True, "zerolinecolor": "#444"})}
