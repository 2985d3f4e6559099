/* uno-rules playground: Simulate and Compare (the statistics, drawn as SVG). Loaded after app.js. */
"use strict";

/* ------------------------------------------------------------------ simulate */

let simSource, simJob;

function runSimulation() {
  let body;
  try { body = { ...simSource.body(), ...gameArgs("sim"), match: $("#sim-match").checked }; } catch (e) {
    return simJob.status(e.message, "bad");
  }
  $("#sim-result").hidden = true;
  simJob.start("/api/simulate", body);
}

const ival = (o, f = num) => (o && o.low !== undefined ? `${f(o.low)} – ${f(o.high)}` : "");

function showSimulation(result) {
  $("#sim-result").hidden = false;
  drawSimChart(result);
  const rows = [];
  const row = (name, value, ci, note = "") => rows.push(el("tr", {},
    el("td", {}, name), el("td", {}, value), el("td", { class: "ci" }, ci), el("td", { class: "ci" }, note)));
  const what = result.match ? "matches" : "rounds";
  row(`${what} decided`, `${result.decided} of ${result.games}`, "", result.stalled ? `${result.stalled} stalled` : "");
  (result.win_rate_by_seat || []).forEach((w, seat) =>
    row(`seat ${seat} wins`, pct(w.rate), ival(w, pct), `${w.count} of ${w.of}` +
      (result.agents ? ` · ${Array.isArray(result.agents) ? result.agents[seat] : result.agents}` : "")));
  (result.win_rate_by_team || []).forEach((w, team) => row(`team ${team} wins`, pct(w.rate), ival(w, pct), ""));
  const fp = result.first_player;
  if (fp) row("first player wins", pct(fp.rate), ival(fp, pct),
    `fair ${pct(fp.fair)}; advantage ${pct(fp.advantage)} (${pct(fp.advantage_low)} – ${pct(fp.advantage_high)})`);
  const dist = (name, o, unit = "") => {
    if (!o) return;
    row(name, `${num(o.mean)}${unit}`, ival(o), o.p50 !== undefined ? `median ${o.p50}, 95th pct ${o.p95}, max ${o.max}` : "");
  };
  if (result.length) {
    dist("round length (turns)", result.length.turns);
    dist("round length (actions)", result.length.actions);
  }
  dist("rounds per match", result.rounds_per_match);
  dist("points per round", result.points_per_round);
  dist("cards drawn per round", result.cards_drawn);
  if (result.final_scores) {
    dist("winner's final score", result.final_scores.winner);
    dist("runner-up's final score", result.final_scores.runner_up);
  }
  dist("lead changes", result.lead_changes);
  const ch = result.challenges;
  if (ch && ch.of) row("challenges won", pct(ch.rate), ival(ch, pct), `${ch.count} of ${ch.of}; ${num(ch.per_round, 2)} per round`);
  if (result.metrics) {
    row("balance", num(result.metrics.balance, 2), "", "1 = every seat wins as often");
    row("decisiveness", num(result.metrics.decisiveness, 2), "", "");
  }
  $("#sim-table").replaceChildren(
    el("thead", {}, el("tr", {}, el("th", {}, `${result.rulebook}${(result.house || []).length ? " + " + result.house.join(" + ") : ""}: ${result.games} ${what}, ${result.players} players, seed ${result.seed}`),
      el("th", {}, "value"), el("th", {}, "95% interval"), el("th", {}, ""))),
    el("tbody", {}, rows));
}

/** Win rates by seat (bar, 95% interval, the fair line) and the length histogram, side by
    side in one SVG. */
function drawSimChart(result) {
  const chart = $("#sim-chart");
  const W = 1000, H = 320, top = 34, bottom = 46, left = 48;
  chart.setAttribute("viewBox", `0 0 ${W} ${H}`);
  chart.replaceChildren();
  const plotH = H - top - bottom;
  // Left: win rates.
  const rates = result.win_rate_by_seat || [];
  const fair = result.first_player && result.first_player.fair ? result.first_player.fair : 1 / Math.max(1, rates.length);
  const ymax = Math.min(1, Math.max(fair, ...rates.map((r) => r.high)) * 1.15) || 1;
  const lw = 430;
  const y = (v) => top + plotH - (v / ymax) * plotH;
  chart.append(svg("text", { x: left, y: 20, class: "title", "font-weight": "600", "font-size": 15 },
    `Win rate by seat, with 95% intervals (${result.match ? "matches" : "rounds"})`));
  for (let i = 0; i <= 4; i++) {
    const v = (ymax * i) / 4;
    chart.append(svg("line", { x1: left, x2: left + lw, y1: y(v), y2: y(v), stroke: "#e5e7eb" }));
    chart.append(svg("text", { x: left - 6, y: y(v) + 4, "text-anchor": "end", "font-size": 11, fill: "#6b7280" }, `${Math.round(v * 100)}%`));
  }
  const slot = lw / Math.max(1, rates.length);
  rates.forEach((r, seat) => {
    const cx = left + slot * (seat + 0.5);
    const bw = Math.min(48, slot * 0.6);
    chart.append(svg("rect", { x: cx - bw / 2, y: y(r.rate), width: bw, height: y(0) - y(r.rate),
                                fill: "#8fb3f0", class: "bar" }));
    chart.append(svg("line", { x1: cx, x2: cx, y1: y(r.low), y2: y(r.high), stroke: "#1d2330", "stroke-width": 2 }));
    for (const v of [r.low, r.high]) chart.append(svg("line", { x1: cx - 6, x2: cx + 6, y1: y(v), y2: y(v), stroke: "#1d2330", "stroke-width": 2 }));
    chart.append(svg("circle", { cx, cy: y(r.rate), r: 4, fill: "#1f6feb", class: "point" }));
    chart.append(svg("text", { x: cx, y: y(0) + 16, "text-anchor": "middle", "font-size": 12 }, `seat ${seat}`));
    chart.append(svg("text", { x: cx, y: y(0) + 30, "text-anchor": "middle", "font-size": 11, fill: "#6b7280" }, pct(r.rate)));
  });
  chart.append(svg("line", { x1: left, x2: left + lw, y1: y(fair), y2: y(fair), stroke: "#d1242f",
                             "stroke-dasharray": "6 4", "stroke-width": 1.5, class: "fair" }));
  chart.append(svg("text", { x: left + lw + 4, y: y(fair) + 4, "font-size": 11, fill: "#d1242f" }, `fair ${pct(fair)}`));
  // Right: the length histogram.
  const lengths = result.match ? result.rounds_per_match : result.length && result.length.turns;
  const hist = lengths && lengths.histogram;
  const hx = 560, hw = W - hx - 20;
  chart.append(svg("text", { x: hx, y: 20, "font-weight": "600", "font-size": 15 },
    result.match ? "Rounds per match" : "Round length (turns)"));
  if (!hist || !hist.counts.length) return;
  const cmax = Math.max(...hist.counts, 1);
  const hy = (c) => top + plotH - (c / cmax) * plotH;
  const bwid = hw / hist.counts.length;
  hist.counts.forEach((c, i) => {
    chart.append(svg("rect", { x: hx + i * bwid + 1, y: hy(c), width: Math.max(1, bwid - 2), height: hy(0) - hy(c),
                               fill: "#f2a33a", class: "bar" }, ));
  });
  chart.append(svg("line", { x1: hx, x2: hx + hw, y1: hy(0), y2: hy(0), stroke: "#6b7280" }));
  const every = Math.ceil(hist.counts.length / 8);
  for (let i = 0; i <= hist.counts.length; i += every) {
    chart.append(svg("text", { x: hx + i * bwid, y: hy(0) + 16, "text-anchor": "middle", "font-size": 11, fill: "#6b7280" },
      hist.start + i * hist.width));
  }
  chart.append(svg("text", { x: hx - 4, y: top + 4, "text-anchor": "end", "font-size": 11, fill: "#6b7280" }, cmax));
  if (lengths.mean !== undefined) {
    const mx = hx + ((lengths.mean - hist.start) / hist.width) * bwid;
    chart.append(svg("line", { x1: mx, x2: mx, y1: top, y2: hy(0), stroke: "#1d2330", "stroke-dasharray": "4 3" }));
    chart.append(svg("text", { x: mx + 4, y: top + 10, "font-size": 11 }, `mean ${num(lengths.mean)}`));
  }
}

/* ------------------------------------------------------------------ compare */

let cmpA, cmpB, cmpJob, cmpLabels = [];

function runCompare() {
  let variants;
  try {
    variants = [cmpA, cmpB].map((w) => ({ ...w.body(), label: w.label() }));
  } catch (e) {
    return cmpJob.status(e.message, "bad");
  }
  if (variants[0].label === variants[1].label) variants[1].label += " (B)";
  cmpLabels = variants.map((v) => v.label);
  $("#cmp-result").hidden = true;
  const args = gameArgs("cmp");
  cmpJob.start("/api/compare", { variants, ...args });
}

function showCompare(result) {
  $("#cmp-result").hidden = false;
  const labels = (result.variants || []).map((v, i) => v.label || cmpLabels[i] || `variant ${i}`);
  const metrics = Object.entries(result.metrics || {});
  const isRate = (m) => m.unit === "%";
  const val = (m, v) => (isRate(m) ? `${pct(v.rate)}` : num(v.mean, 2));
  const ci = (m, v) => (isRate(m) ? ival(v, pct) : ival(v, (x) => num(x, 2)));
  const dval = (m, d) => (isRate(m) ? `${d.mean >= 0 ? "+" : ""}${(100 * d.mean).toFixed(1)} pts` : `${d.mean >= 0 ? "+" : ""}${num(d.mean, 2)}`);
  const dci = (m, d) => (isRate(m) ? `${(100 * d.low).toFixed(1)} – ${(100 * d.high).toFixed(1)}` : `${num(d.low, 2)} – ${num(d.high, 2)}`);
  const head = el("tr", {}, el("th", {}, `${result.games} deals, ${result.players} players, seed ${result.seed}`),
    labels.map((l) => el("th", {}, l)),
    labels.slice(1).map((l) => el("th", {}, `${l} − ${labels[0]}`)));
  const body = metrics.map(([, m]) => el("tr", {},
    el("td", {}, `${m.name}${m.unit && m.unit !== "%" ? ` (${m.unit})` : ""}`),
    m.values.map((v) => el("td", {}, val(m, v), el("br"), el("span", { class: "ci" }, ci(m, v)))),
    (m.diff || []).map((d) => el("td", { class: d.significant ? "sig" : null },
      dval(m, d), d.significant ? " *" : "", el("br"), el("span", { class: "ci" }, dci(m, d))))));
  $("#cmp-table").replaceChildren(el("thead", {}, head), el("tbody", {}, body),
    el("tfoot", {}, el("tr", {}, el("td", { colspan: 1 + labels.length * 2 - 1, class: "ci" },
      "Paired differences on the same deals with 95% intervals; * significant: the interval excludes 0."))));
  drawCompareChart(metrics, labels);
}

/** Each metric's paired difference with its interval, on its own scale around 0. */
function drawCompareChart(metrics, labels) {
  const chart = $("#cmp-chart");
  const rowH = 30, top = 34, left = 240, W = 1000, right = 120;
  const H = top + rowH * metrics.length + 10;
  chart.setAttribute("viewBox", `0 0 ${W} ${H}`);
  chart.replaceChildren(svg("text", { x: 10, y: 20, "font-weight": "600", "font-size": 15 },
    `${labels[1] || "B"} − ${labels[0] || "A"}: paired difference, 95% interval (each row on its own scale; the line is 0)`));
  const mid = left + (W - left - right) / 2, half = (W - left - right) / 2;
  chart.append(svg("line", { x1: mid, x2: mid, y1: top - 6, y2: H - 6, stroke: "#6b7280" }));
  metrics.forEach(([, m], i) => {
    const d = (m.diff || [])[0];
    const cy = top + rowH * i + rowH / 2;
    chart.append(svg("text", { x: left - 10, y: cy + 4, "text-anchor": "end", "font-size": 12 },
      `${m.name}${m.unit && m.unit !== "%" ? ` (${m.unit})` : ""}`));
    if (!d) return;
    const span = Math.max(Math.abs(d.low), Math.abs(d.high), 1e-9);
    const x = (v) => mid + (v / span) * half * 0.9;
    const colour = d.significant ? "#d1242f" : "#1f6feb";
    chart.append(svg("line", { x1: x(d.low), x2: x(d.high), y1: cy, y2: cy, stroke: colour, "stroke-width": 3 }));
    chart.append(svg("circle", { cx: x(d.mean), cy, r: 5, fill: colour, class: "point" }));
    const f = m.unit === "%" ? (v) => `${(100 * v).toFixed(1)} pts` : (v) => num(v, 2);
    chart.append(svg("text", { x: W - right + 10, y: cy + 4, "font-size": 12, fill: colour },
      `${d.mean >= 0 ? "+" : ""}${f(d.mean)}${d.significant ? " *" : ""}`));
  });
}

