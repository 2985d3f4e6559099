/* uno-rules playground: the page over the JSON API of docs/web.md. Plain JS, no build step,
   nothing fetched from elsewhere. Element ids are what tests/test_web_page.py drives: keep
   them stable. */
"use strict";

const LH = 20;                       // the editor's line height in px (style.css --lh)
const KEY = "uno-rules.";            // localStorage prefix
const TABS = ["edit", "rules", "simulate", "compare", "play", "replay"];

const $ = (sel, root = document) => root.querySelector(sel);
const $$ = (sel, root = document) => Array.from(root.querySelectorAll(sel));

/** An element: el("div", {class: "x", onclick: f}, child, "text", ...). */
function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === null || v === undefined || v === false) continue;
    if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
    else if (k === "style" && typeof v === "object") Object.assign(node.style, v);
    else if (k === "dataset") Object.assign(node.dataset, v);
    else node.setAttribute(k, v === true ? "" : v);
  }
  for (const c of children.flat()) {
    if (c === null || c === undefined || c === false) continue;
    node.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return node;
}

const SVG_NS = "http://www.w3.org/2000/svg";
function svg(tag, attrs = {}, text) {
  const node = document.createElementNS(SVG_NS, tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  if (text !== undefined) node.textContent = String(text);
  return node;
}

const store = {
  get(name, fallback = null) {
    try {
      const v = localStorage.getItem(KEY + name);
      return v === null ? fallback : JSON.parse(v);
    } catch (e) { return fallback; }
  },
  set(name, value) {
    try {
      if (value === null || value === undefined) localStorage.removeItem(KEY + name);
      else localStorage.setItem(KEY + name, JSON.stringify(value));
    } catch (e) { /* storage full or refused: the page still works */ }
  },
};

/** One call to the API: {ok, status, data} (data is the JSON answer, or {error}). */
async function api(method, path, body) {
  const init = { method, headers: {} };
  if (body !== undefined) {
    init.headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  let response;
  try {
    response = await fetch(path, init);
  } catch (e) {
    return { ok: false, status: 0, data: { error: "the server does not answer (is uno-rules serve running?)" } };
  }
  let data;
  try { data = await response.json(); } catch (e) { data = { error: `${response.status} ${response.statusText}` }; }
  return { ok: response.ok, status: response.status, data };
}

let toastTimer = null;
function toast(message) {
  const t = $("#toast");
  t.textContent = message;
  t.hidden = false;
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => { t.hidden = true; }, 4000);
}

const pct = (x) => (x === null || x === undefined ? "–" : `${(100 * x).toFixed(1)}%`);
const num = (x, d = 1) => (x === null || x === undefined ? "–" : Number(x).toFixed(d).replace(/\.0+$/, ""));

/* ------------------------------------------------------------------ catalogue */

const catalogue = { rulebooks: [], house: [] };

async function loadCatalogue() {
  const r = await api("GET", "/api/rulebooks");
  if (r.ok) {
    catalogue.rulebooks = r.data.rulebooks || [];
    catalogue.house = r.data.house || [];
  } else {
    toast(`rulebooks: ${r.data.error}`);
  }
  const start = $("#start-from");
  start.replaceChildren(
    el("optgroup", { label: "Shipped rulebooks" },
      catalogue.rulebooks.map((b) => el("option", { value: `rulebook:${b.name}` },
        `${b.name} — ${b.title}`))),
    el("optgroup", { label: "Start something new" },
      el("option", { value: "template" }, "a new rulebook (uno-rules new) extending the base"),
      el("option", { value: "overlay" }, "a new house-rule overlay on the base")),
    el("optgroup", { label: "Shipped house-rule overlays" },
      catalogue.house.map((h) => el("option", { value: `house:${h.name}` },
        `${h.name} — ${h.summary}`))));
  const base = $("#base");
  base.replaceChildren(...catalogue.rulebooks.map((b) => el("option", { value: b.name }, b.name)));
  base.value = store.get("base", "classic");
  for (const w of sourceWidgets) w.fill();
}

/* ------------------------------------------------------------------ a source of rules */

const sourceWidgets = [];

/** The rules a simulation, a comparison or a game uses: the editor's text or a shipped
    rulebook, with shipped house rules and settings on top. */
class SourceWidget {
  constructor(container, prefix, initial) {
    this.container = container;
    this.prefix = prefix;
    this.initial = initial;  // "editor" or a shipped name
    sourceWidgets.push(this);
  }

  fill() {
    const saved = store.get(`source.${this.prefix}`, { rulebook: this.initial, house: [], set: "" });
    this.select = el("select", { id: `${this.prefix}-rulebook` },
      el("option", { value: "editor" }, "the editor's text"),
      catalogue.rulebooks.map((b) => el("option", { value: b.name }, b.name)));
    this.select.value = saved.rulebook;
    if (!this.select.value) this.select.value = "editor";
    this.houses = el("div", { class: "houses", id: `${this.prefix}-house` },
      catalogue.house.map((h) => el("label", { title: h.summary },
        el("input", { type: "checkbox", value: h.name,
                      checked: (saved.house || []).includes(h.name) }), h.name)));
    this.set = el("input", { id: `${this.prefix}-set`, value: saved.set || "",
                             placeholder: "hand_size=5 uno_penalty=4" });
    const save = () => store.set(`source.${this.prefix}`, this.saved());
    this.container.replaceChildren(
      el("label", {}, "Rulebook", this.select),
      el("span", { class: "muted" }, "House rules"), this.houses,
      el("label", { title: "settings, like --set: NAME=VALUE separated by spaces" }, "Settings", this.set));
    this.container.addEventListener("change", save);
  }

  saved() {
    return { rulebook: this.select.value, house: this.houseNames(), set: this.set.value };
  }

  houseNames() {
    return $$("input:checked", this.houses).map((i) => i.value);
  }

  /** The request's source keys (docs/web.md), or throws a one-line Error. */
  body() {
    const body = {};
    if (this.select.value === "editor") {
      body.text = editor.value;
      body.base = $("#base").value || "classic";
    } else {
      body.rulebook = this.select.value;
    }
    body.house = this.houseNames();
    body.set = {};
    for (const part of this.set.value.split(/[\s,]+/).filter(Boolean)) {
      const at = part.indexOf("=");
      if (at < 1) throw new Error(`a setting is NAME=VALUE: ${part}`);
      body.set[part.slice(0, at)] = part.slice(at + 1);
    }
    return body;
  }

  label() {
    const name = this.select.value === "editor" ? "editor" : this.select.value;
    return [name, ...this.houseNames()].join(" + ") + (this.set.value.trim() ? ` (${this.set.value.trim()})` : "");
  }
}

/* ------------------------------------------------------------------ tabs */

function showTab(name, { updateHash = true } = {}) {
  if (!TABS.includes(name)) name = "edit";
  for (const t of TABS) {
    $(`#panel-${t}`).hidden = t !== name;
    $(`#tab-${t}`).setAttribute("aria-selected", t === name ? "true" : "false");
  }
  store.set("tab", name);
  if (updateHash) {
    const hash = name === "play" && play.id ? `#play=${play.id}` : `#${name}`;
    history.replaceState(null, "", hash);
  }
  if (name === "rules") refreshRules();
  if (name === "play") enterPlay();
  if (name === "replay") refreshGameLists();
}

/* ------------------------------------------------------------------ edit */

const editor = $("#editor");
const edit = { version: 0, validated: -1, timer: null, seq: 0, problems: [], ok: null };

function lineCount(text) { return text.split("\n").length; }

function drawGutter() {
  const bad = new Set(edit.problems.filter((p) => p.file === "editor" && p.line > 0).map((p) => p.line));
  const n = lineCount(editor.value);
  const gutter = $("#gutter");
  const marks = $("#editor-marks");
  const rows = [];
  const markRows = [];
  for (let i = 1; i <= n; i++) {
    const isBad = bad.has(i);
    rows.push(el("div", { class: isBad ? "bad" : null, title: isBad ? problemsAt(i) : null }, i));
    markRows.push(el("div", { class: isBad ? "bad" : null }));
  }
  gutter.replaceChildren(...rows);
  marks.replaceChildren(...markRows);
  syncScroll();
}

function problemsAt(line) {
  return edit.problems.filter((p) => p.file === "editor" && p.line === line).map((p) => p.message).join("\n");
}

function syncScroll() {
  $("#gutter").scrollTop = editor.scrollTop;
  $("#editor-marks").scrollTop = editor.scrollTop;
}

function onEdit() {
  edit.version += 1;
  store.set("editor", editor.value);
  drawGutter();
  clearTimeout(edit.timer);
  edit.timer = setTimeout(validate, 300);
}

/** Put the editor's cursor at LINE:COL (1-based) and scroll it into view. */
function goTo(line, column) {
  const lines = editor.value.split("\n");
  line = Math.max(1, Math.min(line, lines.length));
  let offset = 0;
  for (let i = 0; i < line - 1; i++) offset += lines[i].length + 1;
  offset += Math.max(0, Math.min((column || 1) - 1, lines[line - 1].length));
  editor.focus();
  editor.setSelectionRange(offset, offset);
  editor.scrollTop = Math.max(0, (line - 1) * LH - editor.clientHeight / 3);
  syncScroll();
}

async function validate() {
  const seq = ++edit.seq;
  const version = edit.version;
  const status = $("#edit-status");
  status.textContent = "checking…";
  status.className = "status";
  const r = await api("POST", "/api/validate", { text: editor.value, base: $("#base").value || "classic" });
  if (seq !== edit.seq) return;  // a newer check was started: this one is stale
  edit.validated = version;
  if (!r.ok) {
    edit.problems = [];
    edit.ok = false;
    status.textContent = r.data.error || `error ${r.status}`;
    status.className = "status bad";
    renderProblems();
    return;
  }
  const d = r.data;
  edit.problems = d.problems || [];
  edit.ok = !!d.ok;
  edit.overlay = !!d.overlay;
  status.textContent = d.ok ? `valid ${d.overlay ? "house-rule overlay" : "rulebook"}` :
    `${edit.problems.length} problem${edit.problems.length === 1 ? "" : "s"}`;
  status.className = d.ok ? "status good" : "status bad";
  const badge = $("#edit-badge");
  badge.textContent = d.ok ? (d.summary || "valid") : `editor: ${edit.problems.length} problem(s)`;
  badge.className = d.ok ? "badge" : "badge bad";
  renderProblems();
  renderDeck(d);
}

function renderProblems() {
  const list = $("#problems");
  list.replaceChildren(...edit.problems.map((p) => {
    const inEditor = p.file === "editor" && p.line > 0;
    const where = inEditor ? `${p.line}:${p.column}` : (p.file && p.file !== "editor" ? `${p.file}${p.line ? `:${p.line}:${p.column}` : ""}` : "settings");
    return el("li", {
      class: "problem", dataset: { line: inEditor ? p.line : 0, column: p.column || 0 },
      title: inEditor ? "go to this line" : null,
      onclick: () => { if (inEditor) goTo(p.line, p.column); },
    }, el("b", {}, where), " ", p.message, p.path ? el("span", { class: "path" }, p.path) : null);
  }));
  $("#no-problems").textContent = edit.problems.length ? "" : (edit.ok ? "No problems." : "");
  drawGutter();
}

function renderDeck(d) {
  $("#summary").textContent = d.summary || (d.ok ? "" : "The deck shows when the rulebook is valid.");
  const deck = $("#deck");
  if (!d.deck) { deck.replaceChildren(); return; }
  deck.replaceChildren(
    el("p", { class: "muted", style: { flexBasis: "100%", margin: "0 0 4px" } }, `${d.deck.total} cards`),
    ...Object.entries(d.deck.cards).map(([name, count]) => {
      const colour = colourOfName(name);
      return el("span", { class: "chip", title: name },
        el("i", { style: { background: colour || "conic-gradient(#d32f2f 0 25%, #1e63c8 0 50%, #2e9d3a 0 75%, #f2c500 0)" } }, `${count}`),
        name);
    }));
}

const KNOWN_COLOURS = { red: "#d32f2f", yellow: "#e0b400", green: "#2e9d3a", blue: "#1e63c8",
  pink: "#d63384", teal: "#139c9c", orange: "#ee7a1a", purple: "#7b3fb8" };

/** A CSS colour for a card name's first word when it is a colour (deck chips only). */
function colourOfName(name) {
  const first = name.split(" ")[0];
  if (KNOWN_COLOURS[first]) return KNOWN_COLOURS[first];
  return CSS.supports("color", first) ? first : null;
}

function cssOfColour(colour) {
  if (!colour) return null;
  return KNOWN_COLOURS[colour] || (CSS.supports("color", colour) ? colour : "#555");
}

async function startFrom() {
  const choice = $("#start-from").value;
  const base = $("#base").value || "classic";
  if (editor.value.trim() && !confirm("Replace the editor's text?")) return;
  let text = null;
  if (choice === "template") {
    const r = await api("GET", `/api/template?base=${encodeURIComponent(base)}`);
    if (!r.ok) return toast(r.data.error);
    text = r.data.text;
  } else if (choice === "overlay") {
    text = `# A house-rule overlay: only what it changes, applied on top of the base rulebook
# (chosen next to "Base" above). Keys are those of a rulebook: docs/settings.md.
name: my_house_rules
title: my house rules
description: "Five cards each, and a heavier penalty for a missed UNO"
settings:
  hand_size: 5
  uno_penalty: 4
`;
  } else {
    const name = choice.split(":")[1];
    const r = await api("GET", `/api/rulebooks/${encodeURIComponent(name)}`);
    if (!r.ok) return toast(r.data.error);
    text = r.data.text;
  }
  editor.value = text;
  editor.scrollTop = 0;
  onEdit();
  clearTimeout(edit.timer);
  validate();
}

function initEdit() {
  editor.addEventListener("input", onEdit);
  editor.addEventListener("scroll", syncScroll);
  editor.addEventListener("keydown", (e) => {
    if (e.key === "Tab" && !e.shiftKey && !e.ctrlKey && !e.altKey) {  // two spaces, as YAML wants
      e.preventDefault();
      editor.setRangeText("  ", editor.selectionStart, editor.selectionEnd, "end");
      onEdit();
    }
  });
  $("#start-load").addEventListener("click", startFrom);
  $("#base").addEventListener("change", () => {
    store.set("base", $("#base").value);
    edit.version += 1;
    validate();
  });
}

async function initialText() {
  const saved = store.get("editor", null);
  if (saved !== null) {
    editor.value = saved;
  } else {
    const r = await api("GET", "/api/rulebooks/classic");
    editor.value = r.ok ? r.data.text : "";
    store.set("editor", editor.value);
  }
  drawGutter();
  validate();
}

/* ------------------------------------------------------------------ rules */

const rules = { version: -1, base: null };

async function refreshRules() {
  const base = $("#base").value || "classic";
  if (rules.version === edit.version && rules.base === base) return;
  rules.version = edit.version;
  rules.base = base;
  $("#diff-base").textContent = base;
  const status = $("#rules-status");
  status.textContent = "generating…";
  status.className = "status";
  const body = { text: editor.value, base };
  const [sheet, diff] = await Promise.all([api("POST", "/api/explain", body), api("POST", "/api/diff", body)]);
  if (rules.version !== edit.version) return;  // edited meanwhile: the next visit refreshes
  const show = (target, r) => {
    if (r.ok) {
      target.innerHTML = r.data.html;  // markdown-it with raw HTML off: no user markup
    } else {
      target.replaceChildren(el("p", { class: "status bad" }, r.data.error || `error ${r.status}`));
    }
  };
  show($("#rules-sheet"), sheet);
  show($("#diff"), diff);
  if (sheet.ok) {
    status.textContent = "From the editor's text" + (edit.overlay ? ` applied to ${base}` : "") + ".";
  } else {
    status.textContent = "The editor's text has problems: fix them in the Edit tab.";
    status.className = "status bad";
  }
}

/* ------------------------------------------------------------------ jobs (simulate, compare) */

/** A background job: start it, poll its progress, cancel it; the job id is kept so a reload
    picks the polling up again. */
class JobRunner {
  constructor(prefix, onResult) {
    this.prefix = prefix;
    this.onResult = onResult;
    this.id = null;
    this.timer = null;
    $(`#${prefix}-cancel`).addEventListener("click", () => this.cancel());
  }

  status(text, cls = "") {
    const s = $(`#${this.prefix}-status`);
    s.textContent = text;
    s.className = `status ${cls}`;
  }

  async start(path, body) {
    this.stop();
    const r = await api("POST", path, body);
    if (!r.ok) {
      this.status(r.data.error || `error ${r.status}`, "bad");
      return;
    }
    this.id = r.data.job;
    store.set(`job.${this.prefix}`, this.id);
    this.running(true);
    this.status("started…");
    this.poll();
  }

  resume() {
    const id = store.get(`job.${this.prefix}`, null);
    if (!id) return;
    this.id = id;
    this.poll();
  }

  running(on) {
    $(`#${this.prefix}-cancel`).disabled = !on;
    $(`#${this.prefix}-run`).disabled = on;
  }

  async poll() {
    if (!this.id) return;
    const id = this.id;
    const r = await api("GET", `/api/jobs/${encodeURIComponent(id)}`);
    if (id !== this.id) return;
    if (!r.ok) {
      this.running(false);
      this.status(r.status === 404 ? "" : (r.data.error || `error ${r.status}`), "bad");
      this.forget();
      return;
    }
    const job = r.data;
    const bar = $(`#${this.prefix}-progress`);
    bar.max = Math.max(1, job.total || 1);
    bar.value = job.done || 0;
    if (job.state === "running") {
      this.running(true);
      this.status(`${(job.done || 0).toLocaleString()} of ${(job.total || 0).toLocaleString()} games`);
      this.timer = setTimeout(() => this.poll(), 300);
      return;
    }
    this.running(false);
    if (job.state === "done") {
      bar.value = bar.max;
      this.status(`done: ${(job.total || 0).toLocaleString()} games`, "good");
      this.onResult(job.result);
    } else if (job.state === "cancelled") {
      this.status("cancelled", "bad");
    } else {
      this.status(`failed: ${job.error || "?"}`, "bad");
    }
    this.forget();
  }

  forget() {
    this.id = null;
    store.set(`job.${this.prefix}`, null);
  }

  stop() {
    clearTimeout(this.timer);
    this.id = null;
  }

  async cancel() {
    if (!this.id) return;
    const id = this.id;
    this.stop();
    const r = await api("DELETE", `/api/jobs/${encodeURIComponent(id)}`);
    this.running(false);
    this.status(r.ok ? "cancelled" : (r.data.error || "could not cancel"), "bad");
    store.set(`job.${this.prefix}`, null);
  }
}

function intOf(id) {
  const v = $(id).value.trim();
  return v === "" ? null : Number.parseInt(v, 10);
}

function gameArgs(prefix) {
  const args = { games: intOf(`#${prefix}-games`), players: intOf(`#${prefix}-players`),
                 seed: intOf(`#${prefix}-seed`), policy: $(`#${prefix}-policy`).value };
  const agents = $(`#${prefix}-agents`).value.trim();
  if (agents) args.agents = agents;
  if (args.seed === null) delete args.seed;
  return args;
}

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
  chart.append(svg("text", { x: left + lw, y: y(fair) - 5, "text-anchor": "end", "font-size": 11, fill: "#d1242f" }, `fair ${pct(fair)}`));
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
  const ticks = Math.min(hist.counts.length, 8);
  for (let t = 0; t <= ticks; t++) {
    const i = Math.round((t * hist.counts.length) / ticks);
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

/* ------------------------------------------------------------------ cards and the table */

/** The short face of a rank: digits as they are, the usual symbols, words otherwise. */
const NUMBER_WORDS = { one: 1, two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, eight: 8, nine: 9, ten: 10 };
function face(rank) {
  rank = String(rank || "");
  if (/^\d+$/.test(rank)) return { text: rank, long: false, corner: rank };
  const draw = rank.match(/draw (\w+)$/);
  if (draw) {
    const n = NUMBER_WORDS[draw[1]] || draw[1];
    return { text: `+${n}`, long: false, corner: `+${n}` };
  }
  if (rank === "skip") return { text: "⊘", long: false, corner: "⊘" };
  if (rank === "reverse") return { text: "⇄", long: false, corner: "⇄" };
  if (rank === "wild") return { text: "WILD", long: true, corner: "W" };
  return { text: rank.toUpperCase(), long: true, corner: rank.charAt(0).toUpperCase() };
}

function cardEl(card, attrs = {}) {
  const f = face(card.rank);
  const css = card.css || cssOfColour(card.colour);
  const node = el("div", {
    class: `card${card.colour ? "" : " wild"}${card.other ? " has-other" : ""}`,
    title: card.name + (card.other ? ` (other side: ${card.other.name})` : ""),
    dataset: { name: card.name },
    style: css ? { "--c": css } : {},
    ...attrs,
  },
  el("span", { class: "corner tl" }, f.corner),
  el("div", { class: "oval" }, el("span", { class: `rank${f.long ? " long" : ""}${/^[69]$/.test(f.text) ? " turned" : ""}` }, f.text)),
  el("span", { class: "corner br" }, f.corner));
  if (card.other) {
    const o = card.other;
    node.append(el("div", { class: "other", style: { "--o": o.css || cssOfColour(o.colour) || "#1d1d1d" } },
      `⟲ ${o.name}`));
  }
  if (css) node.style.setProperty("--c", css);
  return node;
}

/** The table as a seat sees it: the seats, the piles, the top card and the colour. */
function renderTable(container, view, { me = null } = {}) {
  if (!view) { container.replaceChildren(); return; }
  const seats = el("div", { class: "seats" }, (view.seats || []).map((s) => el("div", {
    class: `seat${s.seat === view.to_act ? " to-act" : ""}${s.seat === me ? " me" : ""}${s.out ? " out" : ""}`,
    dataset: { seat: s.seat },
  },
  el("div", {}, el("b", {}, `seat ${s.seat}`), ` ${s.who || ""}`, s.seat === me ? " (you)" : "",
    s.team !== null && s.team !== undefined ? ` · team ${s.team}` : ""),
  el("div", {}, `${s.cards} card${s.cards === 1 ? "" : "s"}`, s.score !== undefined ? ` · ${s.score} pts` : "",
    s.out ? " · out" : "", s.uno_open ? el("span", { class: "flag" }, " · no UNO called!") : ""),
  el("div", { class: "backs" }, Array.from({ length: Math.min(s.cards, 20) }, () => el("span"))))));
  const colour = view.colour;
  const centre = el("div", { class: "centre" },
    el("div", { class: "pile", title: "draw pile" }, `draw`, el("br"), `${view.draw_pile}`),
    view.top ? cardEl(view.top) : el("div", { class: "pile" }, "—"),
    el("div", { class: "info" },
      el("div", {}, "colour ", el("span", { class: "colour-dot", style: { display: "inline-block", verticalAlign: "middle",
        background: colour ? cssOfColour(colour) : "transparent" } }), ` ${colour || "none"}`),
      el("div", {}, view.direction === -1 ? "↺ anticlockwise" : "↻ clockwise"),
      el("div", {}, `discard pile ${view.discard_pile}`),
      view.stacked ? el("div", { class: "flag" }, `stacked: draw ${view.stacked}`) : null,
      view.side ? el("div", {}, `side: ${view.side}`) : null));
  container.replaceChildren(centre, seats);
}

/* ------------------------------------------------------------------ play */

const play = { id: null, state: null, busy: false, passed: null };
let playSource;

function humansOf(text) {
  const t = text.trim();
  if (t === "" || t === "none") return [];
  return t.split(/[\s,]+/).map((x) => Number.parseInt(x, 10));
}

async function newGame() {
  let body;
  try {
    body = { ...playSource.body(), players: intOf("#play-players"), humans: humansOf($("#play-humans").value),
             agents: $("#play-agents").value.trim() || "greedy", round: $("#play-round").checked };
  } catch (e) { return toast(e.message); }
  if (body.humans.some(Number.isNaN)) return toast("your seats: numbers like 0 or 0,2");
  const seed = intOf("#play-seed");
  if (seed !== null) body.seed = seed;
  $("#play-new").disabled = true;
  const r = await api("POST", "/api/games", body);
  $("#play-new").disabled = false;
  if (!r.ok) return notice(r.data.error || `error ${r.status}`, true);
  setGame(r.data);
}

function setGame(state) {
  play.id = state.game;
  store.set("game", play.id);
  if (!$("#panel-play").hidden) history.replaceState(null, "", `#play=${play.id}`);
  render(state);
}

async function openGame(id) {
  const r = await api("GET", `/api/games/${encodeURIComponent(id)}`);
  if (!r.ok) {
    if (r.status === 404) {
      store.set("game", null);
      play.id = null;
    }
    return notice(r.data.error || `error ${r.status}`, true);
  }
  setGame(r.data);
}

function enterPlay() {
  refreshGameLists();
  if (play.state) return;
  const id = play.id || store.get("game", null);
  if (id) openGame(id);
}

function notice(text, show = true) {
  const n = $("#game-notice");
  n.textContent = text;
  n.hidden = !show || !text;
  if (show && text && $("#game").hidden) toast(text);
}

function statusText(state) {
  if (state.status === "over") return `Game over: ${state.result ? state.result.text : "finished"}`;
  if (state.status === "stalled") return "The round stalled (its budget ran out): the game is over";
  const p = state.prompt;
  if (!p) return "waiting…";
  if (p.kind === "next_round") return `Round over: ${p.text}`;
  if (p.kind === "pass_to") return `pass to seat ${p.seat}`;
  return `${p.seat !== null && p.seat !== undefined ? `seat ${p.seat}: ` : ""}${p.text}`;
}

function render(state) {
  play.state = state;
  $("#game").hidden = false;
  $("#game").dataset.version = state.version;
  $("#play-setup").open = false;
  $("#game-title").textContent = `${state.title} · ${state.one_round ? "one round" : `round ${state.round}` +
    (state.target ? `, to ${state.target} points` : "")} · game ${state.game}`;
  const status = $("#game-status");
  status.textContent = statusText(state);
  status.dataset.status = state.status;
  const p = state.prompt;
  const v = state.view;
  const me = v ? v.seat : null;
  renderTable($("#table-view"), v, { me });
  // The hand: cards that are options are played by a click on them.
  const plays = new Map();
  for (const o of (p && p.options) || []) {
    if (o.card && o.kind === "play" && !plays.has(o.card.name)) plays.set(o.card.name, o);
  }
  $("#hand").replaceChildren(...((v && v.hand) || []).map((c) => {
    const o = plays.get(c.name);
    return cardEl(c, o ? { onclick: () => answer(String(o.index)), title: `play ${c.name}` } : {});
  }));
  $$("#hand .card").forEach((node) => {
    if (plays.has(node.dataset.name)) node.classList.add("playable");
    else if (plays.size) node.classList.add("dim");
  });
  // The options, one button each.
  const buttons = [];
  $("#prompt-text").textContent = p && p.kind !== "pass_to" ? `${p.seat !== null && p.seat !== undefined ? `Seat ${p.seat}, ` : ""}${p.text}:` : "";
  if (p && p.kind !== "pass_to") {
    for (const o of p.options || []) {
      const colour = o.colour || null;
      const cls = [colour ? "colour" : "", /\buno\b/i.test(o.text) ? "uno" : ""].join(" ").trim();
      buttons.push(el("button", { class: cls || null, dataset: { index: o.index, kind: o.kind || "" },
        style: colour ? { background: cssOfColour(colour) } : {},
        onclick: () => answer(String(o.index)) }, o.text));
    }
    if (p.kind === "window" && !(p.options || []).length) {
      const humans = (state.seats || []).map((who, i) => (who === "human" ? i : null)).filter((i) => i !== null);
      for (const seat of humans) {
        buttons.push(el("button", { dataset: { kind: "seat" }, onclick: () => answer(String(seat)) }, `seat ${seat} acts out of turn`));
      }
    }
    if (p.can_pass || p.kind === "next_round") {
      const label = p.kind === "next_round" ? "deal the next round" : p.kind === "window" ? "go on" : "pass";
      buttons.push(el("button", { class: "primary", dataset: { kind: "pass" }, onclick: () => answer("") }, label));
    }
  }
  $("#options").replaceChildren(...buttons);
  // Hot-seat: nobody's hand shows until the seat says it has the screen.
  const pass = $("#pass-screen");
  if (p && p.kind === "pass_to") {
    $("#pass-text").textContent = `Pass the screen to seat ${p.seat}.`;
    pass.hidden = false;
  } else {
    pass.hidden = true;
  }
  $("#game-log").replaceChildren(...(state.log || []).map((line) => el("li", {}, line)));
  const log = $("#game-log");
  log.scrollTop = log.scrollHeight;
  renderScores(state);
}

function renderScores(state) {
  const seats = (state.view && state.view.seats) || [];
  const rows = (state.scores || []).map((score, seat) => el("tr", {},
    el("td", {}, `seat ${seat}`), el("td", {}, (state.seats || [])[seat] || (seats[seat] && seats[seat].who) || ""),
    el("td", {}, score)));
  const winners = state.result ? state.result.winners || [] : [];
  rows.forEach((r, seat) => { if (winners.includes(seat)) r.classList.add("sig"); });
  $("#scores").replaceChildren(
    el("thead", {}, el("tr", {}, el("th", {}, "seat"), el("th", {}, "who"), el("th", {}, state.target ? `score (to ${state.target})` : "score"))),
    el("tbody", {}, rows));
}

async function answer(text) {
  if (play.busy || !play.state) return;
  play.busy = true;
  $$("#options button, #pass-ok").forEach((b) => { b.disabled = true; });
  const r = await api("POST", `/api/games/${encodeURIComponent(play.id)}/answer`,
    { version: play.state.version, answer: text });
  play.busy = false;
  if (r.ok) {
    notice("", false);
    render(r.data);
  } else if (r.status === 409 && r.data.state) {
    render(r.data.state);
    notice("Another tab or window moved this game on: here is the table now.");
  } else {
    render(play.state);
    notice(r.data.error || `error ${r.status}`);
    if (r.status === 404) { store.set("game", null); }
  }
}

async function refreshGameLists() {
  const r = await api("GET", "/api/games");
  if (!r.ok) return;
  const games = r.data.games || [];
  const label = (g) => `${g.title} · ${g.players} players · ${g.status}${g.updated ? ` · ${String(g.updated).replace("T", " ").slice(0, 16)}` : ""}`;
  $("#play-games").replaceChildren(...games.map((g) => el("option", { value: g.game }, label(g))));
  const replay = $("#replay-game");
  const chosen = replay.value;
  replay.replaceChildren(el("option", { value: "" }, "—"), ...games.map((g) => el("option", { value: g.game }, label(g))));
  if (chosen) replay.value = chosen;
}

function initPlay() {
  playSource = new SourceWidget($("#play-source"), "play", "classic");
  $("#play-new").addEventListener("click", newGame);
  $("#play-open").addEventListener("click", () => { const id = $("#play-games").value; if (id) openGame(id); });
  $("#play-games").addEventListener("dblclick", () => { const id = $("#play-games").value; if (id) openGame(id); });
  $("#pass-ok").addEventListener("click", () => answer(""));
  // Another tab may have played: look again when this one comes back into view.
  document.addEventListener("visibilitychange", () => {
    if (!document.hidden && play.id && !$("#panel-play").hidden) openGame(play.id);
  });
}

/* ------------------------------------------------------------------ replay */

const replay = { source: null, step: 0, total: 0, seats: 0 };

async function openReplay() {
  const file = $("#replay-file").files[0];
  const game = $("#replay-game").value;
  if (file) {
    const text = await file.text();
    replay.source = { record: text };
    $("#replay-file").value = "";
  } else if (game) {
    replay.source = { game };
  } else {
    return toast("choose a record file or a game");
  }
  replay.step = 0;
  replay.seats = 0;
  showReplayStep(0);
}

async function showReplayStep(step) {
  if (!replay.source) return;
  const seatValue = $("#replay-seat").value;
  const seat = seatValue === "" ? null : Number.parseInt(seatValue, 10);
  let r;
  if (replay.source.record !== undefined) {
    r = await api("POST", "/api/replay", { record: replay.source.record, to: step, seat, open: seat === null });
  } else {
    const q = new URLSearchParams({ to: step });
    if (seat !== null) q.set("seat", seat); else q.set("open", "true");
    r = await api("GET", `/api/games/${encodeURIComponent(replay.source.game)}/replay?${q}`);
  }
  if (!r.ok) {
    $("#replay-action").textContent = r.data.error || `error ${r.status}`;
    $("#replay-action").className = "prompt status bad";
    return;
  }
  const d = r.data;
  replay.step = d.step;
  replay.total = d.total;
  const range = $("#replay-step");
  range.max = d.total;
  range.value = d.step;
  $("#replay-pos").textContent = `step ${d.step} of ${d.total}`;
  $("#replay-action").className = "prompt";
  $("#replay-action").textContent = d.step === 0 ? "The deal." : `Step ${d.step}: ${d.action || ""}`;
  const v = d.view;
  const n = v && v.seats ? v.seats.length : 0;
  if (n && n !== replay.seats) {
    replay.seats = n;
    const sel = $("#replay-seat");
    const keep = sel.value;
    sel.replaceChildren(el("option", { value: "" }, "every hand (open)"),
      ...Array.from({ length: n }, (_, i) => el("option", { value: i }, `seat ${i}`)));
    sel.value = keep;
  }
  renderTable($("#replay-view"), v, { me: v ? v.seat : null });
  const hands = [];
  if (v && Array.isArray(v.hands)) {
    v.hands.forEach((h, i) => hands.push(el("div", { class: "muted", style: { flexBasis: "100%" } }, `seat ${i}`), ...h.map((c) => cardEl(c))));
  } else if (v && v.hand) {
    hands.push(...v.hand.map((c) => cardEl(c)));
  }
  $("#replay-hand").replaceChildren(...hands);
  $("#replay-log").replaceChildren(...(d.log || []).map((line) => el("li", {}, line)));
}

function initReplay() {
  $("#replay-open").addEventListener("click", openReplay);
  $("#replay-file").addEventListener("change", openReplay);
  const go = (to) => showReplayStep(Math.max(0, Math.min(replay.total, to)));
  $("#replay-first").addEventListener("click", () => go(0));
  $("#replay-prev").addEventListener("click", () => go(replay.step - 1));
  $("#replay-next").addEventListener("click", () => go(replay.step + 1));
  $("#replay-last").addEventListener("click", () => go(replay.total));
  $("#replay-step").addEventListener("change", (e) => go(Number.parseInt(e.target.value, 10)));
  $("#replay-seat").addEventListener("change", () => go(replay.step));
  document.addEventListener("keydown", (e) => {
    if ($("#panel-replay").hidden || e.target.tagName === "INPUT" || e.target.tagName === "SELECT") return;
    if (e.key === "ArrowRight") go(replay.step + 1);
    if (e.key === "ArrowLeft") go(replay.step - 1);
  });
}

/* ------------------------------------------------------------------ start */

async function main() {
  for (const t of TABS) $(`#tab-${t}`).addEventListener("click", () => showTab(t));
  initEdit();
  simSource = new SourceWidget($("#sim-source"), "sim", "editor");
  cmpA = new SourceWidget($("#cmp-a"), "cmpa", "editor");
  cmpB = new SourceWidget($("#cmp-b"), "cmpb", "classic");
  initPlay();
  initReplay();
  simJob = new JobRunner("sim", showSimulation);
  cmpJob = new JobRunner("cmp", showCompare);
  $("#sim-run").addEventListener("click", runSimulation);
  $("#cmp-run").addEventListener("click", runCompare);
  await loadCatalogue();
  await initialText();
  // Where to start: #play=ID (a game), #TAB, else the last tab shown.
  const hash = location.hash.slice(1);
  if (hash.startsWith("play=")) {
    play.id = decodeURIComponent(hash.slice(5));
    store.set("game", play.id);
    showTab("play");
  } else {
    showTab(TABS.includes(hash) ? hash : store.get("tab", "edit"));
  }
  simJob.resume();
  cmpJob.resume();
  document.body.dataset.ready = "1";  // tests wait for this
}

main();
