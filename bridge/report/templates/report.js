// The page's script: routes between views, fills the episode list, and draws each episode
// page when it is opened (the data is embedded once; 10,000 pages are never built up front).
// Every text from a trajectory goes through textContent, never innerHTML.
"use strict";

async function loadReportData() {
  // JSON, gzipped, in base64 (bridge/report/writer.py): inflated by the browser itself, no library.
  const b64 = document.getElementById("report-data").textContent.trim();
  const bin = atob(b64);
  const bytes = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
  const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"));
  return JSON.parse(await new Response(stream).text());
}

loadReportData().then((DATA) => {
  const EPISODES = DATA.episodes;
  EPISODES.forEach((ep, i) => { ep.id = i; });
  const PAGE_SIZE = 100;
  const PLOT_CONFIG = { displaylogo: false, responsive: true };
  const LEVELS = {
    3: { name: "warning", colour: "#d62728" },
    2: { name: "caution", colour: "#f28e1c" },
    1: { name: "advisory (level 1)", colour: "#e8c547" },
  };
  const OTHER_LEVEL = { name: "alert", colour: "#9ca3af" };
  // Marks of the agent's actions, by class (reads and waits have rows of their own).
  const CLASS_MARKS = {
    required: { colour: "#2ca02c", symbol: "triangle-up", size: 11 },
    out_of_order: { colour: "#f28e1c", symbol: "triangle-up", size: 11 },
    optional: { colour: "#1f77b4", symbol: "diamond", size: 10 },
    redundant: { colour: "#9ca3af", symbol: "circle-open", size: 9 },
    extraneous: { colour: "#6b7280", symbol: "square", size: 9 },
    no_op: { colour: "#9ca3af", symbol: "circle-open", size: 9 },
    harmful: { colour: "#b91c1c", symbol: "x", size: 14 },
    forbidden_dangerous: { colour: "#d62728", symbol: "x", size: 15 },
    forbidden_anti_procedure: { colour: "#c2410c", symbol: "x", size: 13 },
    invalid: { colour: "#111827", symbol: "x-thin-open", size: 11 },
  };
  const READ_MARK = { colour: "#64748b", symbol: "circle", size: 7 };
  const ROW = { waits: 0, reads: 1, actions: 2 };

  // ---- small DOM helpers -------------------------------------------------------------
  function el(tag, attrs, ...children) {
    const node = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (v === null || v === undefined || v === false) continue;
      if (k === "class") node.className = v;
      else if (k === "text") node.textContent = v;
      else if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
      else node.setAttribute(k, v === true ? "" : v);
    }
    for (const c of children.flat()) {
      if (c === null || c === undefined || c === false) continue;
      node.append(c instanceof Node ? c : document.createTextNode(String(c)));
    }
    return node;
  }
  const fmt = {
    pct: (x) => (x === null || x === undefined ? "–" : Math.round(x * 100) + "%"),
    s: (x) => (x === null || x === undefined ? "–" : (Math.round(x * 10) / 10).toString()),
    usd: (x) => (x === null || x === undefined ? "–" : "$" + x.toFixed(4)),
    int: (x) => (x === null || x === undefined ? "–" : x.toLocaleString("en")),
  };
  function argsText(args) {
    return Object.entries(args || {}).map(([k, v]) => k + "=" + (typeof v === "string" ? v : JSON.stringify(v))).join(", ");
  }
  function callText(c) { return "#" + c.seq + " " + c.tool + "(" + argsText(c.args) + ")"; }
  function clsKey(c) { return c.label === "no-op" ? "no_op" : c.cls; }
  function isRead(c) { return c.cls === "observation"; }
  function resultOf(ep) {
    if (ep.status !== "valid") return { key: "excluded", text: "not valid: " + ep.status, badge: "warn" };
    if (ep.compliant) return { key: "compliant", text: "compliant success", badge: "good" };
    if (ep.outcome) return { key: "handled", text: "handled, not by the book", badge: "warn" };
    return { key: "failed", text: "not handled", badge: "bad" };
  }

  // ---- views and routing -------------------------------------------------------------
  const views = {};
  document.querySelectorAll("section.view").forEach((s) => { views[s.id.slice(5)] = s; });

  function show(name) {
    for (const [k, s] of Object.entries(views)) s.hidden = k !== name;
    const tab = name === "episode" ? "episodes" : name;
    document.querySelectorAll("nav a").forEach((a) => a.classList.toggle("active", a.dataset.view === tab));
    drawCharts(views[name]);
  }

  function drawCharts(root) {
    root.querySelectorAll("div.chart[id^='chart-']").forEach((div) => {
      if (div.dataset.drawn || div.offsetParent === null) return;  // Plotly sizes from the visible box
      const spec = DATA.figures[div.id.slice(6)];
      if (!spec) return;
      Plotly.newPlot(div, spec.data, spec.layout, PLOT_CONFIG);
      div.dataset.drawn = "1";
    });
  }
  document.querySelectorAll("details").forEach((d) => d.addEventListener("toggle", () => { if (d.open) drawCharts(d); }));

  function route() {
    const hash = location.hash || "#/overview";
    const [path, query] = hash.replace(/^#\/?/, "").split("?");
    const parts = path.split("/");
    if (parts[0] === "episode" && EPISODES[Number(parts[1])]) {
      show("episode");
      renderEpisode(EPISODES[Number(parts[1])]);
      window.scrollTo(0, 0);
    } else if (parts[0] === "episodes") {
      setFilters(new URLSearchParams(query || ""));
      show("episodes");
    } else if (parts[0] === "comparison" && views.comparison) {
      show("comparison");
    } else {
      show("overview");
    }
  }
  window.addEventListener("hashchange", route);

  // ---- the episode list ------------------------------------------------------------
  const F = {
    q: document.getElementById("filter-q"), scenario: document.getElementById("filter-scenario"),
    model: document.getElementById("filter-model"), result: document.getElementById("filter-result"),
  };
  DATA.scenarios.forEach((s) => F.scenario.append(el("option", { value: s, text: s })));
  DATA.models.forEach((m) => F.model.append(el("option", { value: m, text: m })));
  let page = 0;
  let searchText = null;

  function haystack(i) {
    if (searchText === null) {
      searchText = EPISODES.map((e) => [e.scenario, e.title, e.model, e.system, e.reason, e.status,
        e.report ? e.report.diagnosis : ""].join(" ").toLowerCase());
    }
    return searchText[i];
  }
  function matches(ep) {
    const q = F.q.value.trim().toLowerCase();
    if (F.scenario.value && ep.scenario !== F.scenario.value) return false;
    if (F.model.value && ep.model !== F.model.value) return false;
    const r = F.result.value;
    if (r === "dangerous" ? ep.dangerous === 0
      : r.startsWith("status:") ? ep.status !== r.slice(7)
        : r && resultOf(ep).key !== r) return false;
    return !q || q.split(/\s+/).every((w) => haystack(ep.id).includes(w));
  }
  function setFilters(params) {
    F.q.value = params.get("q") || "";
    for (const k of ["scenario", "model", "result"]) {
      const v = params.get(k) || "";
      if (v && ![...F[k].options].some((o) => o.value === v)) F[k].append(el("option", { value: v, text: v }));
      F[k].value = v;
    }
    page = Number(params.get("page") || 0);
    renderList();
  }
  function filtersToHash() {
    const p = new URLSearchParams();
    for (const k of ["q", "scenario", "model", "result"]) if (F[k].value) p.set(k, F[k].value);
    if (page) p.set("page", page);
    history.replaceState(null, "", "#/episodes" + (p.toString() ? "?" + p : ""));
  }
  function onFilter() { page = 0; filtersToHash(); renderList(); }
  F.q.addEventListener("input", onFilter);
  ["scenario", "model", "result"].forEach((k) => F[k].addEventListener("change", onFilter));
  document.getElementById("page-prev").addEventListener("click", () => { page -= 1; filtersToHash(); renderList(); });
  document.getElementById("page-next").addEventListener("click", () => { page += 1; filtersToHash(); renderList(); });

  function renderList() {
    const shown = EPISODES.filter(matches);
    const pages = Math.max(1, Math.ceil(shown.length / PAGE_SIZE));
    page = Math.min(Math.max(0, page), pages - 1);
    const rows = shown.slice(page * PAGE_SIZE, (page + 1) * PAGE_SIZE).map((ep) => {
      const r = resultOf(ep);
      return el("tr", { "data-id": ep.id, onclick: () => { location.hash = "#/episode/" + ep.id; } },
        el("td", { class: "num" }, el("a", { href: "#/episode/" + ep.id, text: String(ep.id) })),
        el("td", { text: ep.scenario }), el("td", { text: ep.model }), el("td", { class: "num", text: fmt.s(ep.run) }),
        el("td", {}, el("span", { class: "badge " + r.badge, text: r.text })),
        el("td", { text: ep.reason || "–" }),
        el("td", { class: "num", text: ep.steps[0] + "/" + ep.steps[1] }),
        el("td", { class: "num", text: String(ep.dangerous) }),
        el("td", { text: ep.diagnosis_match ? "matched" : "no" }),
        el("td", { class: "num", text: String(ep.tool_calls) }), el("td", { class: "num", text: fmt.s(ep.sim_s) }));
    });
    document.querySelector("#table-episodes tbody").replaceChildren(...rows);
    document.getElementById("filter-count").textContent = shown.length + " of " + EPISODES.length + " episodes";
    document.getElementById("page-info").textContent = "page " + (page + 1) + " of " + pages;
    document.getElementById("page-prev").disabled = page === 0;
    document.getElementById("page-next").disabled = page >= pages - 1;
  }

  // ---- one episode -----------------------------------------------------------------
  function renderEpisode(ep) {
    const root = views.episode;
    const r = resultOf(ep);
    const chip = (text, cls) => el("span", { class: "badge " + (cls || ""), text });
    const forbiddenCalls = ep.calls.filter((c) => c.cls.startsWith("forbidden") || c.cls === "harmful");
    root.replaceChildren(...[
      el("p", {}, el("a", { href: "#/episodes", onclick: (e) => { e.preventDefault(); history.back(); } }, "← back")),
      el("div", { class: "ep-head" },
        el("h2", { id: "episode-title" }, "Episode " + ep.id + ": " + ep.scenario),
        el("div", { class: "muted", text: ep.title }),
        el("div", { class: "chips" },
          chip(r.text, r.badge), chip("model " + ep.model), chip("run " + fmt.s(ep.run)),
          chip("end: " + (ep.reason || "no final event")),
          chip("outcome " + (ep.outcome ? "held" : "not held"), ep.outcome ? "good" : "bad"),
          chip("procedure " + ep.steps[0] + "/" + ep.steps[1] + (ep.in_order ? ", in order" : ", out of order"),
            ep.steps[0] === ep.steps[1] && ep.in_order ? "good" : "warn"),
          chip(ep.dangerous + " dangerous", ep.dangerous ? "bad" : ""),
          chip("diagnosis " + (ep.diagnosis_match ? "matched" : "not matched"), ep.diagnosis_match ? "good" : "warn"),
          chip(ep.tool_calls + " tool calls" + (ep.budget.tool_calls ? " of " + ep.budget.tool_calls : "")),
          chip(fmt.s(ep.sim_s) + " s simulated" + (ep.budget.sim_s ? " of " + ep.budget.sim_s : "")),
          ep.tokens[0] || ep.tokens[1] ? chip(fmt.int(ep.tokens[0]) + " in / " + fmt.int(ep.tokens[1]) + " out tokens") : null,
          ep.cost !== null ? chip(fmt.usd(ep.cost)) : null),
        el("div", { class: "muted", text: ep.path })),
      ep.task ? el("details", {}, el("summary", {}, "Task prompt"), el("pre", { class: "text", text: ep.task })) : null,
      el("h3", {}, "Timeline (simulated time)"),
      ep.alerts === null ? el("p", { class: "note" },
        "This trajectory was recorded before alert onsets and clears were kept: no alert bars.") : null,
      el("div", { id: "episode-timeline", class: "chart" }),
      el("p", { class: "note" }, "Bars: ECAM alerts while shown (red warning, amber caution, yellow level 1); " +
        "hatched ends: the change happened somewhere within that stretch of the call. Marks: reads (grey dots), " +
        "waits (blue spans), actions by class (▲ correct, ▲ orange out of order, ◆ optional, ✕ forbidden)."),
      forbiddenCalls.length ? forbiddenBox(forbiddenCalls) : null,
      el("div", { class: "grid2" },
        el("div", {}, el("h3", {}, "Expected procedure"), procedureView(ep)),
        el("div", {}, el("h3", {}, "What the agent did"), commandsView(ep))),
      el("h3", {}, "Diagnosis"), diagnosisView(ep),
      el("h3", {}, "End: " + (ep.reason || "no final event")), criteriaView(ep),
      transcriptView(ep)].filter(Boolean));
    drawTimeline(document.getElementById("episode-timeline"), ep);
  }

  function forbiddenBox(calls) {
    return el("div", { class: "forbidden-box", id: "forbidden-actions" },
      el("b", {}, "Forbidden actions"),
      el("ul", {}, calls.map((c) => el("li", {},
        el("span", { class: "cls cls-" + c.cls, text: c.label }), " ", callText(c), " at " + fmt.s(c.t0) + " s",
        c.match ? " — " + c.match : ""))));
  }

  function procedureView(ep) {
    const out = [];
    if (!ep.procedure.length) out.push(el("p", { class: "muted" }, "No action is expected: the right response is restraint."));
    for (const b of ep.procedure) {
      out.push(el("div", { class: "block" },
        el("h4", {}, b.name + (b.ordered ? " (in order)" : " (any order)")),
        el("ol", {}, b.steps.map((s) => el("li", { class: s.seq ? "step-done" : "step-missing" },
          s.action, s.wait_s ? " then wait " + s.wait_s + " s" : "", s.note ? " — " + s.note : "", " ",
          s.seq ? el("span", { class: "cls cls-" + s.cls, text: "#" + s.seq + " " + (s.cls === "required" ? "correct" : "out of order") })
            : el("span", { class: "muted", text: "not done" }))))));
    }
    if (ep.optional.length) out.push(el("p", {}, el("b", {}, "Optional: "), ep.optional.join(", ")));
    if (ep.forbidden.length) {
      out.push(el("div", {}, el("b", {}, "Forbidden:"), el("ul", {}, ep.forbidden.map((f) => el("li", {},
        f.action + " (" + f.severity + ")", f.why ? ": " + f.why : "",
        f.seqs.length ? el("b", { class: "fail", text: " — done at #" + f.seqs.join(", #") }) : null)))));
    }
    return el("div", {}, out);
  }

  function commandsView(ep) {
    const box = el("div", {});
    const toggle = el("label", {}, el("input", { type: "checkbox", id: "hide-reads",
      onchange: (e) => box.classList.toggle("hide-reads", e.target.checked) }), " hide reads and waits");
    const rows = ep.calls.map((c) => el("tr", {
      class: (isRead(c) ? "is-read" : "") + (c.cls.startsWith("forbidden") || c.cls === "harmful" ? " is-forbidden" : ""),
      "data-seq": c.seq },
    el("td", { class: "num", text: String(c.seq) }), el("td", { class: "num", text: fmt.s(c.t0) }),
    el("td", { text: c.tool + "(" + argsText(c.args) + ")" }),
    el("td", {}, el("span", { class: "cls cls-" + clsKey(c), text: c.label })),
    el("td", { text: [c.note, c.match].filter(Boolean).join(" — ") })));
    box.append(toggle, el("table", { class: "scores calls", id: "episode-calls" },
      el("thead", {}, el("tr", {}, ["#", "t (s)", "command", "class", "what happened"].map((h) => el("th", { text: h })))),
      el("tbody", {}, rows)));
    if (!ep.calls.length) box.append(el("p", { class: "muted", text: "No tool call." }));
    return box;
  }

  function diagnosisView(ep) {
    const out = [];
    if (ep.report) {
      out.push(el("pre", { class: "text", id: "episode-diagnosis", text: ep.report.diagnosis || "" }));
      if (ep.report.actions_summary) out.push(el("p", {}, el("b", {}, "Actions summary: "), ep.report.actions_summary));
    } else {
      out.push(el("p", { class: "muted" }, "The agent did not report (no report_done)."));
    }
    if (ep.keywords.length) {
      out.push(el("p", {}, el("b", {}, "Keywords (every group needs one): "), ep.keywords.map((g, i) => el("span", {},
        i ? " · " : "", g.any.map((s, j) => el("span", {}, j ? " / " : "",
          el("span", { class: g.hit.includes(s) ? "kw-hit" : "kw-miss", text: s })))))));
    }
    out.push(el("p", {}, "Diagnosis ", el("b", { class: ep.diagnosis_match ? "pass" : "fail",
      text: ep.diagnosis_match ? "matched" : "not matched" })));
    return el("div", {}, out);
  }

  function criteriaView(ep) {
    const out = [];
    if (ep.criteria.length) {
      out.push(el("table", { class: "scores", id: "episode-criteria" },
        el("thead", {}, el("tr", {}, ["success criterion", "at the end", ""].map((h) => el("th", { text: h })))),
        el("tbody", {}, ep.criteria.map((c) => el("tr", {}, el("td", { text: c.what }), el("td", { text: c.actual }),
          el("td", { class: c.passed ? "pass" : "fail", text: c.passed ? "✓ held" : "✗ not held" }))))));
    } else {
      out.push(el("p", { class: "muted" }, "No success criteria recorded (the episode has no final verdict)."));
    }
    out.push(el("p", {}, el("b", {}, "ECAM at the end: "), ep.final_ecam.length ? ep.final_ecam.join(", ") : "no alert"));
    return el("div", {}, out);
  }

  function transcriptView(ep) {
    const out = [];
    if (ep.client) {
      const c = ep.client;
      out.push(el("h3", {}, "Client " + (c.client || "") + (c.model ? " (" + c.model + ")" : "")),
        el("p", {}, (c.turns ?? "–") + " turns · " + fmt.int(c.input_tokens) + " input / " + fmt.int(c.output_tokens) +
          " output tokens · " + fmt.usd(c.cost) + (c.stop_reason ? " · stop: " + c.stop_reason : "")),
        c.tool_uses.length ? el("p", { class: "muted" }, "Tools asked for: " + c.tool_uses.join(", ")) : null,
        c.error ? el("p", { class: "fail" }, "Client error: " + c.error) : null);
    }
    if (ep.turns.length) {
      out.push(el("h3", {}, "Transcript (" + ep.turns.length + " turns)"));
      const turns = ep.turns.map((t, i) => t.kind === "assistant"
        ? el("div", { class: "turn" }, el("div", { class: "meta" }, "turn " + (i + 1) + " · " + fmt.int(t.tokens[0]) +
            " in / " + fmt.int(t.tokens[1]) + " out" + (t.cost !== null ? " · " + fmt.usd(t.cost) : "")),
          t.text || el("span", { class: "muted", text: "(no text)" }),
          t.asked.length ? el("div", { class: "meta" }, "→ " + t.asked.join("; ")) : null)
        : el("div", { class: "turn" }, el("div", { class: "meta", text: t.kind }), t.text));
      out.push(el("details", { id: "episode-transcript" }, el("summary", {}, "Show the turns"), turns));
    }
    return el("div", {}, out);
  }

  // ---- the timeline (Plotly) ---------------------------------------------------------
  function drawTimeline(div, ep) {
    const end = Math.max(1, ep.sim_s || 0, ...ep.calls.map((c) => c.t1 || 0));
    const alerts = ep.alerts || [];
    const titles = [];
    alerts.forEach((a) => { if (!titles.includes(a.title)) titles.push(a.title); });
    const yOf = (title) => 3 + (titles.length - 1 - titles.indexOf(title));
    const traces = [];

    // Alert bars: one trace per level for the time an alert surely showed, one for the uncertain ends.
    const byLevel = {};
    const add = (level, part, y, from, to, hover) => {
      const key = level + part;
      if (!byLevel[key]) {
        const lv = LEVELS[level] || OTHER_LEVEL;
        byLevel[key] = { type: "bar", orientation: "h", name: lv.name + (part === "maybe" ? " (within span)" : ""),
          x: [], base: [], y: [], hovertext: [], hovertemplate: "%{hovertext}<extra></extra>",
          width: part === "maybe" ? 0.3 : 0.6,
          marker: part === "maybe" ? { color: lv.colour, opacity: 0.45, pattern: { shape: "/" } } : { color: lv.colour },
          legendgroup: "alerts" };
        traces.push(byLevel[key]);
      }
      const t = byLevel[key];
      t.x.push(Math.max(to - from, end / 400)); t.base.push(from); t.y.push(y); t.hovertext.push(hover);
    };
    for (const a of alerts) {
      const y = yOf(a.title);
      const on = a.on ?? 0;
      const offSure = a.off_since ?? a.off ?? end;
      const hover = a.title + ": shown " + (a.on_since !== null ? "between " + a.on_since + " and " + on : "at " + on) +
        " s, " + (a.off === null ? "still shown at the end" : "cleared " + (a.off_since !== null
          ? "between " + a.off_since + " and " + a.off : "at " + a.off) + " s");
      const head = a.on_since !== null && a.on_since < on;
      const tail = a.off !== null && a.off_since !== null && a.off_since < a.off;
      if (head) add(a.level, "maybe", y, a.on_since, on, hover);
      if (offSure > on || !(head || tail)) add(a.level, "sure", y, on, Math.max(on, offSure), hover);
      if (tail) add(a.level, "maybe", y, a.off_since, a.off, hover);
    }

    // Calls: reads on one row, waits as spans, actions marked by class; same-time marks fan out.
    const stacked = {};
    const jitter = (row, t) => { const k = row + ":" + t; stacked[k] = (stacked[k] || 0) + 1; return ((stacked[k] - 1) % 5 - 2) * 0.1; };
    const waits = { type: "bar", orientation: "h", name: "wait", x: [], base: [], y: [], width: 0.35, hovertext: [],
      hovertemplate: "%{hovertext}<extra></extra>", marker: { color: "#93c5fd" } };
    const marks = {};
    for (const c of ep.calls) {
      const t0 = c.t0 ?? 0;
      const hover = callText(c) + " at " + fmt.s(t0) + " s: " + c.label + (c.note ? " — " + c.note : "") + (c.match ? " — " + c.match : "");
      if (c.tool === "wait" && !c.error) {
        waits.x.push(Math.max((c.t1 ?? t0) - t0, end / 400)); waits.base.push(t0); waits.y.push(ROW.waits); waits.hovertext.push(hover);
        continue;
      }
      const read = isRead(c);
      const key = read ? (c.tool === "report_done" ? "report_done" : "read") : clsKey(c);
      if (!marks[key]) {
        const m = read ? (key === "report_done" ? { colour: "#111827", symbol: "star", size: 13 } : READ_MARK)
          : CLASS_MARKS[key] || { colour: "#6b7280", symbol: "square", size: 9 };
        marks[key] = { type: "scatter", mode: "markers", name: read ? (key === "report_done" ? "report done" : "read") : c.label,
          x: [], y: [], hovertext: [], hovertemplate: "%{hovertext}<extra></extra>",
          marker: { color: m.colour, symbol: m.symbol, size: m.size, line: { width: 1.5, color: m.colour } } };
      }
      const row = read ? ROW.reads : ROW.actions;
      marks[key].x.push(t0); marks[key].y.push(row + jitter(row, t0)); marks[key].hovertext.push(hover);
    }
    if (waits.x.length) traces.push(waits);
    traces.push(...Object.values(marks));

    const shapes = [];
    const annotations = [];
    for (const c of ep.calls.filter((x) => x.cls.startsWith("forbidden") || x.cls === "harmful")) {
      shapes.push({ type: "line", x0: c.t0, x1: c.t0, yref: "paper", y0: 0, y1: 1,
        line: { color: "#d62728", width: 1.5, dash: "dash" } });
      annotations.push({ x: c.t0, yref: "paper", y: 1, yanchor: "bottom", showarrow: false,
        text: "✕ #" + c.seq, font: { color: "#d62728", size: 11 } });
    }
    const tickvals = [ROW.waits, ROW.reads, ROW.actions, ...titles.map(yOf)];
    const ticktext = ["waits", "reads", "actions", ...titles];
    const layout = {
      height: 150 + 26 * (3 + titles.length), margin: { l: 40, r: 20, t: 24, b: 70 }, barmode: "overlay",
      hovermode: "closest", font: { family: "system-ui, sans-serif", size: 12 },
      xaxis: { title: { text: "simulated time (s)" }, range: [-end * 0.01, end * 1.02], zeroline: false },
      yaxis: { tickvals, ticktext, range: [-0.6, 2.6 + titles.length], automargin: true, fixedrange: true },
      legend: { orientation: "h", y: -0.35 }, shapes, annotations,
    };
    Plotly.newPlot(div, traces, layout, PLOT_CONFIG);
    div.dataset.drawn = "1";
  }

  document.getElementById("loading").remove();
  route();
}).catch((err) => {
  document.getElementById("loading").hidden = true;
  document.getElementById("load-error").hidden = false;
  document.getElementById("load-error").textContent = "This report's data could not be read: " + err;
  console.error(err);
});
