/* uno-rules playground: the page over the JSON API of docs/web.md; stats.js (Simulate,
   Compare) and table.js (cards, Play, Replay) come after it, code.js (the code editor, from
   the committed bundle vendor/editor.js) and editfile.js (save, open, share) too. Plain JS,
   no build step of its own, nothing fetched from elsewhere. Element ids are what tests/test_web_page.py drives: keep them stable. */
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
  if (typeof seatHeaders === "function") seatHeaders(path, init.headers);  // friends.js
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

// The textarea, or the code editor put in its place (code.js) when its bundle loaded.
let editor = $("#editor");
const edit = { version: 0, validated: -1, timer: null, seq: 0, problems: [], ok: null, escaped: false };

function lineCount(text) { return text.split("\n").length; }

function drawGutter() {
  if (editor.mark) return;  // the code editor marks lines itself (renderProblems)
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
  if (editor.mark) return;
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
  if (editor.goTo) return editor.goTo(line, column);
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
      title: inEditor ? "go to this line" : null, tabindex: inEditor ? 0 : null,
      onclick: () => { if (inEditor) goTo(p.line, p.column); },
      onkeydown: (e) => { if (inEditor && e.key === "Enter") goTo(p.line, p.column); },
    }, el("b", {}, where), " ", p.message, p.path ? el("span", { class: "path" }, p.path) : null);
  }));
  $("#no-problems").textContent = edit.problems.length ? "" : (edit.ok ? "No problems." : "");
  if (editor.mark) editor.mark(edit.problems);
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
        el("i", { style: { background: colour || "#1d1d1d", color: colour ? inkOn(colour) : "#fff" } }, `${count}`),
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

/** The text colour readable on a background (WCAG 1.4.3: 4.5:1): white, else near black. */
const INKS = new Map();
function inkOn(css) {
  if (!INKS.has(css)) INKS.set(css, inkOf(css));
  return INKS.get(css);
}

function inkOf(css) {
  const probe = document.createElement("span");
  probe.style.color = css;
  document.body.append(probe);
  const rgb = getComputedStyle(probe).color.match(/[\d.]+/g);
  probe.remove();
  if (!rgb) return "#fff";
  const lin = (c) => { c /= 255; return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4; };
  const [r, g, b] = rgb.slice(0, 3).map(Number).map(lin);
  const lum = 0.2126 * r + 0.7152 * g + 0.0722 * b;
  return 1.05 / (lum + 0.05) >= 4.5 ? "#fff" : "#1d1d1d";
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
  replaceText(text);
}

/** The editor's text replaced (Load, Open), checked at once. */
function replaceText(text) {
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
    // Escape then Tab leaves the editor (as in CodeMirror): Tab alone indents.
    const leaving = edit.escaped;
    edit.escaped = e.key === "Escape";
    if (e.key === "Tab" && !e.shiftKey && !e.ctrlKey && !e.altKey && !leaving) {  // two spaces, as YAML wants
      e.preventDefault();
      editor.setRangeText("  ", editor.selectionStart, editor.selectionEnd, "end");
      onEdit();
    } else if (e.key === "Enter" && !e.shiftKey && !e.ctrlKey && !e.altKey && !e.metaKey) {
      // A new line keeps the indentation, one step more after "key:" (YAML's nesting).
      e.preventDefault();
      const start = editor.selectionStart;
      const line = editor.value.slice(editor.value.lastIndexOf("\n", start - 1) + 1, start);
      let indent = line.match(/^\s*/)[0];
      if (/:\s*$/.test(line)) indent += "  ";
      editor.setRangeText(`\n${indent}`, start, editor.selectionEnd, "end");
      onEdit();
    }
  });
  $("#start-load").addEventListener("click", startFrom);
  if (typeof mountCode === "function") editor = mountCode(editor, onEdit) || editor;  // code.js
  $("#base").addEventListener("change", () => {
    store.set("base", $("#base").value);
    edit.version += 1;
    validate();
  });
}

async function initialText() {
  const shared = await sharedText();  // a share link's text comes first (editfile.js)
  const saved = shared === null ? store.get("editor", null) : shared;
  if (saved !== null) {
    editor.value = saved;
    store.set("editor", saved);
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
      this.status(`${big(job.done)} of ${jobCount(job)}`);
      this.timer = setTimeout(() => this.poll(), 300);
      return;
    }
    this.running(false);
    if (job.state === "done") {
      bar.value = bar.max;
      this.status(`done: ${jobCount(job)}`, "good");
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

const big = (n) => (n || 0).toLocaleString("en");

/** What a job plays, exactly: "200 rounds", or for a compare "2,000 rounds (1,000 deals ×
    2 variants)": each deal is played once under every variant. */
function jobCount(job) {
  const all = `${big(job.total)} ${job.unit || "rounds"}`;
  return job.variants > 1 ? `${all} (${big(job.games)} deals × ${job.variants} variants)` : all;
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

/* ------------------------------------------------------------------ start */

async function main() {
  for (const t of TABS) $(`#tab-${t}`).addEventListener("click", () => showTab(t));
  // The tabs' own keys (WAI-ARIA tabs): the arrows, Home and End move between them.
  $("#tabs").addEventListener("keydown", (e) => {
    const at = TABS.indexOf(document.activeElement.dataset.panel);
    const to = { ArrowRight: at + 1, ArrowLeft: at - 1, Home: 0, End: TABS.length - 1 }[e.key];
    if (at < 0 || to === undefined) return;
    e.preventDefault();
    const name = TABS[(to + TABS.length) % TABS.length];
    showTab(name);
    $(`#tab-${name}`).focus();
  });
  initEdit();
  initCompletion();
  initEditFile();
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

document.addEventListener("DOMContentLoaded", main);  // after stats.js and table.js
