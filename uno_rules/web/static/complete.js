/* uno-rules playground: completion of rulebook keys in the editor, from the JSON Schema
   (GET /api/schema). Typing a key at the start of a line offers the keys the schema allows
   there, with their descriptions; Tab or Enter takes one, Escape closes the list. The place
   in the YAML is read from the indentation of the lines above (block style only: inside a
   list or a flow mapping nothing is offered). keysAt is what the code editor (code.js)
   offers too; the list drawn here is the plain textarea's. Loaded after app.js. */
"use strict";

const completion = { schema: null, items: [], chosen: 0, from: 0, to: 0 };

async function loadSchema() {
  const r = await api("GET", "/api/schema");
  if (r.ok) completion.schema = r.data.schema || r.data;
}

/** The schema node a $ref points at (local refs only). */
function deref(node) {
  let seen = 0;
  while (node && node.$ref && seen++ < 20) {
    const parts = node.$ref.replace(/^#\//, "").split("/");
    node = parts.reduce((n, p) => (n ? n[p] : null), completion.schema);
  }
  return node;
}

/** The object schema among a node's alternatives (anyOf/oneOf/allOf), if any. */
function objectOf(node) {
  node = deref(node);
  if (!node) return null;
  if (node.properties || node.additionalProperties || node.patternProperties) return node;
  for (const k of ["anyOf", "oneOf", "allOf"]) {
    for (const alt of node[k] || []) {
      const o = objectOf(alt);
      if (o) return o;
    }
  }
  return null;
}

function child(node, key) {
  const o = objectOf(node);
  if (!o) return null;
  if (o.properties && o.properties[key]) return o.properties[key];
  for (const [pattern, sub] of Object.entries(o.patternProperties || {})) {
    if (new RegExp(pattern).test(key)) return sub;
  }
  return typeof o.additionalProperties === "object" ? o.additionalProperties : null;
}

/** The keys of the mapping that line LINE (0-based) would be in: [] at the top, null when
    it can't be told (a list, a flow mapping). */
function parentKeys(lines, line, indent) {
  const path = [];
  let want = indent;
  for (let i = line - 1; i >= 0 && want > 0; i--) {
    const text = lines[i];
    if (!text.trim() || text.trim().startsWith("#")) continue;
    const m = text.match(/^(\s*)(- )?([A-Za-z_][\w-]*)\s*:\s*(.*)$/);
    const ind = text.length - text.trimStart().length;
    if (ind >= want) continue;
    if (!m || m[2] || /^[[{]/.test(m[4])) return null;
    path.unshift(m[3]);
    want = ind;
  }
  return path;
}

function siblings(lines, line, indent) {
  const keys = new Set();
  for (const dir of [-1, 1]) {
    for (let i = line + dir; i >= 0 && i < lines.length; i += dir) {
      const text = lines[i];
      if (!text.trim() || text.trim().startsWith("#")) continue;
      const ind = text.length - text.trimStart().length;
      if (ind < indent) break;
      const m = text.match(/^\s*([A-Za-z_][\w-]*)\s*:/);
      if (ind === indent && m) keys.add(m[1]);
    }
  }
  return keys;
}

function closeCompletion() {
  completion.items = [];
  $("#completion").hidden = true;
}

/** The keys the schema allows at POS of TEXT, where a key is being typed at the start of a
    line: {from, to, line, indent, items: [{key, help}]}, or null. The textarea's list below
    and the code editor (code.js) both offer these. */
function keysAt(text, pos) {
  if (!completion.schema) return null;
  const lineStart = text.lastIndexOf("\n", pos - 1) + 1;
  const before = text.slice(lineStart, pos);
  const m = before.match(/^(\s*)([A-Za-z_][\w-]*)$/);
  const rest = text.slice(pos, (text.indexOf("\n", pos) + 1 || text.length + 1) - 1);
  if (!m || rest.trim()) return null;
  const lines = text.split("\n");
  const line = text.slice(0, lineStart).split("\n").length - 1;
  const indent = m[1].length;
  const path = parentKeys(lines, line, indent);
  if (path === null) return null;
  let node = completion.schema;
  for (const key of path) {
    node = child(node, key);
    if (!node) return null;
  }
  const o = objectOf(node);
  if (!o || !o.properties) return null;
  const taken = siblings(lines, line, indent);
  const prefix = m[2];
  const items = Object.entries(o.properties)
    .filter(([k]) => k.startsWith(prefix) && k !== prefix && !taken.has(k))
    .map(([k, sub]) => ({ key: k, help: (deref(sub) || {}).description || "" }));
  return items.length ? { from: pos - prefix.length, to: pos, line, indent, items } : null;
}

function offerCompletion() {
  if (editor.selectionStart !== editor.selectionEnd) return closeCompletion();
  const found = keysAt(editor.value, editor.selectionStart);
  if (!found) return closeCompletion();
  completion.items = found.items;
  completion.chosen = 0;
  completion.from = found.from;
  completion.to = found.to;
  drawCompletion(found.line, found.indent);
}

function drawCompletion(line, column) {
  const box = $("#completion");
  box.replaceChildren(...completion.items.slice(0, 12).map((item, i) => el("li", {
    class: i === completion.chosen ? "chosen" : null,
    onmousedown: (e) => { e.preventDefault(); completion.chosen = i; acceptCompletion(); },
  }, el("b", {}, item.key), item.help ? el("span", {}, item.help) : null)));
  const charWidth = 7.8;  // 13px monospace, near enough for placing a list
  box.style.top = `${6 + (line + 1) * LH - editor.scrollTop}px`;
  box.style.left = `${Math.max(0, 8 + column * charWidth - editor.scrollLeft)}px`;
  box.hidden = false;
}

function acceptCompletion() {
  const item = completion.items[completion.chosen];
  if (!item) return;
  editor.setRangeText(`${item.key}: `, completion.from, completion.to, "end");
  closeCompletion();
  onEdit();
}

function initCompletion() {
  loadSchema();
  if (!(editor instanceof HTMLTextAreaElement)) return;  // the code editor has its own list
  editor.addEventListener("input", (e) => {
    if (e.inputType && e.inputType.startsWith("insert") && e.inputType !== "insertFromPaste") offerCompletion();
    else closeCompletion();
  });
  editor.addEventListener("keydown", (e) => {
    if (!completion.items.length) return;
    if (e.key === "Tab" || e.key === "Enter") {
      e.preventDefault();
      e.stopImmediatePropagation();
      acceptCompletion();
    } else if (e.key === "Escape") {  // closes the list only: a second Escape then Tab leaves
      e.stopImmediatePropagation();
      closeCompletion();
    } else if (e.key === "ArrowDown" || e.key === "ArrowUp") {
      e.preventDefault();
      const n = Math.min(completion.items.length, 12);
      completion.chosen = (completion.chosen + (e.key === "ArrowDown" ? 1 : n - 1)) % n;
      const lines = editor.value.slice(0, completion.from).split("\n");
      drawCompletion(lines.length - 1, lines[lines.length - 1].length);
    }
  }, true);
  editor.addEventListener("blur", closeCompletion);
  editor.addEventListener("scroll", closeCompletion);
}
