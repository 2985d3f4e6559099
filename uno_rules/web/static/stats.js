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

/** A difference of two rates: percentage points, not a percent of anything. */
const pts = (x) => (x === null || x === undefined ? "–" : `${x >= 0 ? "+" : ""}${(100 * x).toFixed(1)} pts`);
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
    `fair ${pct(fp.fair)}; advantage ${pts(fp.advantage)} (${pts(fp.advantage_low)} – ${pts(fp.advantage_high)})`);
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

/* ------------------------------------------------------------------ axes */

/** Round tick values covering lo..hi, about `count` of them, on a step of 1, 2 or 5 × 10^k
    (at least `least`): 0/10/20/30/40, never 0/9.5/19/28.5/38. The first and last ticks are
    the axis's ends. */
function niceTicks(lo, hi, count = 5, least = 0) {
  if (!(hi > lo)) hi = lo + 1;  // one value (or none): an axis of one step above it
  const raw = (hi - lo) / Math.max(1, count - 1);
  const mag = 10 ** Math.floor(Math.log10(raw));
  const f = raw / mag;  // 1 ≤ f < 10: rounded to the nearest of 1, 2, 5, 10 (Heckbert's rule)
  const step = Math.max(least, mag * (f < 1.5 ? 1 : f < 3 ? 2 : f < 7 ? 5 : 10));
  const ticks = [];
  // toPrecision: 0.1 × 3 is 0.30000000000000004, the label must read 0.3.
  for (let k = Math.floor(lo / step + 1e-9); k <= Math.ceil(hi / step - 1e-9); k++) {
    ticks.push(Number((k * step).toPrecision(12)));
  }
  return ticks;
}

const GREY = "#595959";  // axis text: 7:1 on white

/** An axis's title: under a horizontal axis, or turned up the left of a vertical one. */
function axisLabel(chart, x, y, text, vertical = false) {
  const attrs = { x, y, "text-anchor": "middle", "font-size": 12, fill: GREY, class: "axis-label" };
  if (vertical) attrs.transform = `rotate(-90 ${x} ${y})`;
  chart.append(svg("text", attrs, text));
}

/** Win rates by seat (bar, 95% interval, the fair line) and the length histogram, side by
    side in one SVG, each with its ticks and labelled axes. */
function drawSimChart(result) {
  const chart = $("#sim-chart");
  const W = 1000, H = 340, top = 34, bottom = 66;
  chart.setAttribute("viewBox", `0 0 ${W} ${H}`);
  chart.replaceChildren();
  const part = (name) => chart.appendChild(svg("g", { class: name }));
  drawRates(part("rates"), result, { left: 64, width: 430, top, base: H - bottom });
  drawLengths(part("lengths"), result, { left: 600, width: W - 600 - 20, top, base: H - bottom });
}

function drawRates(chart, result, box) {
  const { left, width, top, base } = box;
  const rates = result.win_rate_by_seat || [];
  const fair = result.first_player && result.first_player.fair ? result.first_player.fair : 1 / Math.max(1, rates.length);
  const ticks = niceTicks(0, Math.min(100, 100 * Math.max(fair, ...rates.map((r) => r.high))));
  const ymax = ticks[ticks.length - 1] / 100;
  const y = (v) => base - (v / ymax) * (base - top);
  chart.append(svg("text", { x: left - 50, y: 20, class: "title", "font-weight": "600", "font-size": 15 },
    `Win rate by seat, with 95% intervals (${result.match ? "matches" : "rounds"})`));
  for (const t of ticks) {
    chart.append(svg("line", { x1: left, x2: left + width, y1: y(t / 100), y2: y(t / 100), stroke: "#e5e7eb" }));
    chart.append(svg("text", { x: left - 6, y: y(t / 100) + 4, "text-anchor": "end", "font-size": 11, fill: GREY,
                               class: "tick y" }, `${t}%`));
  }
  axisLabel(chart, left - 44, (top + base) / 2, `${result.match ? "matches" : "rounds"} won (%)`, true);
  const slot = width / Math.max(1, rates.length);
  rates.forEach((r, seat) => {
    const cx = left + slot * (seat + 0.5);
    const bw = Math.min(48, slot * 0.6);
    chart.append(svg("rect", { x: cx - bw / 2, y: y(r.rate), width: bw, height: y(0) - y(r.rate),
                                fill: "#8fb3f0", class: "bar" }));
    chart.append(svg("line", { x1: cx, x2: cx, y1: y(r.low), y2: y(r.high), stroke: "#1d2330", "stroke-width": 2 }));
    for (const v of [r.low, r.high]) chart.append(svg("line", { x1: cx - 6, x2: cx + 6, y1: y(v), y2: y(v), stroke: "#1d2330", "stroke-width": 2 }));
    chart.append(svg("circle", { cx, cy: y(r.rate), r: 4, fill: "#1f6feb", class: "point" }));
    chart.append(svg("text", { x: cx, y: base + 16, "text-anchor": "middle", "font-size": 12, class: "tick x" }, seat));
    chart.append(svg("text", { x: cx, y: base + 30, "text-anchor": "middle", "font-size": 11, fill: GREY }, pct(r.rate)));
  });
  axisLabel(chart, left + width / 2, base + 52, "seat (its win rate below)");
  chart.append(svg("line", { x1: left, x2: left + width, y1: y(fair), y2: y(fair), stroke: "#d1242f",
                             "stroke-dasharray": "6 4", "stroke-width": 1.5, class: "fair" }));
  chart.append(svg("text", { x: left + width + 4, y: y(fair) + 4, "font-size": 11, fill: "#d1242f" }, `fair ${pct(fair)}`));
}

function drawLengths(chart, result, box) {
  const { left, width, top, base } = box;
  const lengths = result.match ? result.rounds_per_match : result.length && result.length.turns;
  const hist = lengths && lengths.histogram;
  const what = result.match ? "matches" : "rounds";
  chart.append(svg("text", { x: left - 50, y: 20, "font-weight": "600", "font-size": 15 },
    result.match ? "Rounds per match" : "Round length (turns)"));
  if (!hist || !hist.counts.length) return;
  const yt = niceTicks(0, Math.max(...hist.counts, 1), 5, 1);
  const cmax = yt[yt.length - 1];
  const hy = (c) => base - (c / cmax) * (base - top);
  const end = hist.start + hist.counts.length * hist.width;
  const hx = (v) => left + ((v - hist.start) / (end - hist.start)) * width;
  for (const t of yt) {
    chart.append(svg("line", { x1: left, x2: left + width, y1: hy(t), y2: hy(t), stroke: "#e5e7eb" }));
    chart.append(svg("text", { x: left - 6, y: hy(t) + 4, "text-anchor": "end", "font-size": 11, fill: GREY,
                               class: "tick y" }, t.toLocaleString("en")));
  }
  hist.counts.forEach((c, i) => {
    const x0 = hx(hist.start + i * hist.width), x1 = hx(hist.start + (i + 1) * hist.width);
    chart.append(svg("rect", { x: x0 + 1, y: hy(c), width: Math.max(1, x1 - x0 - 2), height: hy(0) - hy(c),
                               fill: "#f2a33a", class: "bar" }));
  });
  chart.append(svg("line", { x1: left, x2: left + width, y1: base, y2: base, stroke: GREY }));
  for (const t of niceTicks(hist.start, end, 8, 1).filter((v) => v >= hist.start && v <= end)) {
    chart.append(svg("line", { x1: hx(t), x2: hx(t), y1: base, y2: base + 4, stroke: GREY }));
    chart.append(svg("text", { x: hx(t), y: base + 16, "text-anchor": "middle", "font-size": 11, fill: GREY,
                               class: "tick x" }, t));
  }
  axisLabel(chart, left - 44, (top + base) / 2, what, true);
  axisLabel(chart, left + width / 2, base + 36, result.match ? "rounds in the match" : "turns in the round");
  if (lengths.mean !== undefined) {
    const mx = hx(lengths.mean);
    chart.append(svg("line", { x1: mx, x2: mx, y1: top, y2: base, stroke: "#1d2330", "stroke-dasharray": "4 3" }));
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
  const dval = (m, d) => (isRate(m) ? pts(d.mean) : `${d.mean >= 0 ? "+" : ""}${num(d.mean, 2)}`);
  const dci = (m, d) => (isRate(m) ? `${(100 * d.low).toFixed(1)} – ${(100 * d.high).toFixed(1)}` : `${num(d.low, 2)} – ${num(d.high, 2)}`);
  const head = el("tr", {}, el("th", {}, `${big(result.games)} deals × ${labels.length} variants, ${result.players} players, seed ${result.seed}`),
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

/** Each metric's paired difference with its interval; the metrics of one unit share a
    numeric axis (its ticks and its unit under it), 0 marked. */
function drawCompareChart(metrics, labels) {
  const chart = $("#cmp-chart");
  const rowH = 28, left = 250, right = 120, W = 1000, axisH = 40, gap = 14;
  const groups = new Map();  // unit → its metrics, in the table's order
  for (const [, m] of metrics) {
    if (!(m.diff || [])[0]) continue;
    if (!groups.has(m.unit)) groups.set(m.unit, []);
    groups.get(m.unit).push(m);
  }
  let H = 40;
  for (const ms of groups.values()) H += rowH * ms.length + axisH + gap;
  chart.setAttribute("viewBox", `0 0 ${W} ${H}`);
  chart.replaceChildren(svg("text", { x: 10, y: 20, "font-weight": "600", "font-size": 15 },
    `${labels[1] || "B"} − ${labels[0] || "A"}: paired difference per deal, mean and 95% interval (red: significant)`));
  let top = 40;
  for (const [unit, ms] of groups) {
    const g = chart.appendChild(svg("g", { class: "diffs", "data-unit": unit }));
    drawDiffGroup(g, unit, ms, { left, top, width: W - left - right, rowH });
    top += rowH * ms.length + axisH + gap;
  }
}

function drawDiffGroup(chart, unit, ms, box) {
  const { left, top, width, rowH } = box;
  const rate = unit === "%";  // rates differ in percentage points
  const scale = rate ? 100 : 1;
  const ends = ms.flatMap((m) => [m.diff[0].low, m.diff[0].high]).filter(Number.isFinite).map((v) => v * scale);
  const ticks = niceTicks(Math.min(0, ...ends), Math.max(0, ...ends), 7);
  const lo = ticks[0], hi = ticks[ticks.length - 1];
  const x = (v) => left + ((v * scale - lo) / (hi - lo)) * width;
  const base = top + rowH * ms.length;
  for (const t of ticks) {
    chart.append(svg("line", { x1: x(t / scale), x2: x(t / scale), y1: top, y2: base + 4,
                               stroke: t === 0 ? GREY : "#e5e7eb", "stroke-width": t === 0 ? 1.5 : 1 }));
    chart.append(svg("text", { x: x(t / scale), y: base + 16, "text-anchor": "middle", "font-size": 11, fill: GREY,
                               class: "tick" }, `${t > 0 ? "+" : ""}${t.toLocaleString("en")}`));
  }
  chart.append(svg("line", { x1: left, x2: left + width, y1: base, y2: base, stroke: GREY }));
  axisLabel(chart, left + width / 2, base + 32, `difference (${rate ? "percentage points" : unit})`);
  const f = rate ? pts : (v) => `${v >= 0 ? "+" : ""}${num(v, 2)}`;
  ms.forEach((m, i) => {
    const d = m.diff[0];
    const cy = top + rowH * i + rowH / 2;
    const colour = d.significant ? "#d1242f" : "#1f6feb";
    chart.append(svg("text", { x: left - 10, y: cy + 4, "text-anchor": "end", "font-size": 12 },
      `${m.name}${rate ? "" : ` (${m.unit})`}`));
    chart.append(svg("line", { x1: x(d.low), x2: x(d.high), y1: cy, y2: cy, stroke: colour, "stroke-width": 3 }));
    chart.append(svg("circle", { cx: x(d.mean), cy, r: 5, fill: colour, class: "point" }));
    chart.append(svg("text", { x: left + width + 10, y: cy + 4, "font-size": 12, fill: colour },
      `${f(d.mean)}${d.significant ? " *" : ""}`));
  });
}
