"use strict";
/* Combos on the page (docs/web.md, "Combos"): a play of several cards at once (a rulebook's
   `combos:`) is made card by card. The first card clicked is marked and the cards that may
   join it are raised; the card that completes a play plays it (several piles: then a pile
   is clicked). A marked card that is also a play of its own gets a "play alone" button.
   Which cards join comes from the prompt's options (each option's `cards`), nothing else.
   Kept apart from table.js: render() asks comboCard, comboButtons and comboKey. */

const JOIN = " + ";  // between a combo's card names (the engine's notation, COMBO)

/** The hand positions marked, in the order clicked (two cards of one name are two cards). */
const combo = { marked: [], version: null };

/** An option's play key: its cards' names joined (one card: its name). */
function playKey(o) {
  return Array.isArray(o.cards) && o.cards.length ? o.cards.map((c) => c.name).join(JOIN) : o.card.name;
}

/** Marks hold only while the game stays at the version they were made at. */
function keepMarks(state) {
  const hand = (state.view && state.view.hand) || [];
  const at = `${state.game}/${state.version}`;
  if (combo.version !== at || combo.marked.some((i) => i >= hand.length)) combo.marked = [];
  combo.version = at;
}

/** The marked cards' names, in order. */
function markedNames() {
  const hand = (play.state && play.state.view && play.state.view.hand) || [];
  return combo.marked.map((i) => hand[i].name);
}

/** The play key of the cards marked (null: none marked): pileTargets' chosen play. */
function comboKey() {
  return combo.marked.length ? markedNames().join(JOIN) : null;
}

/** From the cards ``names``: the names that may join next, and their own play by pile
 *  (``alone``: null where they are not a play by themselves). */
function comboNext(plays, names) {
  const key = names.join(JOIN);
  const next = new Set();
  for (const k of plays.keys()) {
    if (k.startsWith(key + JOIN)) next.add(k.slice(key.length + JOIN.length).split(JOIN)[0]);
  }
  return { key, next, alone: plays.get(key) || null };
}

/** A hand card (position ``i``) as combos see it; null: no combo concerns it now (the plain
 *  click then, render's). */
function comboCard(c, i, plays) {
  if (!combo.marked.length) {
    const { next, alone } = comboNext(plays, [c.name]);
    if (!next.size) return null;
    const words = `${c.name}: mark it, then click a card to play with it${alone ? ", or play it alone" : ""}`;
    return comboNode(c, "starts", words, () => mark(i, plays));
  }
  const names = markedNames();
  if (combo.marked.includes(i)) {
    return comboNode(c, "marked", `${c.name}: marked (click to let go)`, () => letGo(i));
  }
  if (comboNext(plays, names).next.has(c.name)) {
    return comboNode(c, "joins", `${c.name}: play with ${names.join(", ")}`, () => mark(i, plays));
  }
  return comboNode(c, "off", c.name, null);
}

function comboNode(c, role, words, go) {
  const attrs = { title: words, "aria-label": words, dataset: { name: c.name, combo: role } };
  if (go) attrs.onclick = go;
  else attrs["aria-disabled"] = "true";
  if (role === "marked") attrs["aria-pressed"] = "true";
  const node = cardEl(c, attrs, "button");
  node.classList.add(role === "off" ? "dim" : role === "marked" ? "selected" : "playable");
  if (role === "joins") node.classList.add("joins");
  return node;
}

/** A card marked: a complete play with nothing more to join, on one pile, is played. */
function mark(i, plays) {
  play.selected = null;  // a single card chosen for its piles gives way to the combo
  combo.marked.push(i);
  const names = markedNames();
  const { next, alone } = comboNext(plays, names);
  if (!next.size && alone && alone.size === 1) {
    const o = alone.values().next().value;
    combo.marked = [];
    playCard(o);
    return;
  }
  redraw(`${names.join(JOIN)} marked: ${next.size ? `click a card to play with it (${[...next].join(", ")})` : "click a pile"}` +
    `${next.size && alone ? ", or play it as it is" : ""}.`);
}

/** A marked card clicked again: it and the cards marked after it are let go. */
function letGo(i) {
  combo.marked = combo.marked.slice(0, Math.max(0, combo.marked.indexOf(i)));
  redraw(combo.marked.length ? `${markedNames().join(JOIN)} marked.` : "No card marked.");
}

/** The page again with the marks, the focus on the next thing to press, the live region
 *  saying what is marked. */
function redraw(said) {
  render(play.state);
  const next = $("#hand .card[data-combo='joins']") || $("#table-view .discard.target")
    || $("#options button[data-kind='combo-alone']") || $("#hand .card.playable");
  if (next) next.focus();
  $("#game-live").textContent = said;
}

/** While cards are marked: the button that plays them as they are (one card: "play alone";
 *  several piles: to the piles), and one that lets them go. */
function comboButtons(plays) {
  if (!combo.marked.length) return [];
  const names = markedNames();
  const { alone } = comboNext(plays, names);
  const buttons = [];
  if (alone) {
    const what = names.length === 1 ? `play ${names[0]} alone` : `play ${names.join(JOIN)}`;
    const go = alone.size === 1 ? () => playCard(alone.values().next().value)
      : () => { const t = $("#table-view .discard.target"); if (t) t.focus(); };
    buttons.push(el("button", { class: "primary", dataset: { kind: "combo-alone" }, onclick: go },
      alone.size === 1 ? what : `${what}: then click a pile`));
  }
  buttons.push(el("button", { dataset: { kind: "combo-let-go" }, onclick: () => letGo(combo.marked[0]) }, "let go"));
  return buttons;
}

// Escape in the hand lets the marked cards go, as "let go" does (the keyboard's way back).
document.addEventListener("keydown", (e) => {
  if (e.key !== "Escape" || !combo.marked.length || !e.target.closest || !e.target.closest("#hand, #options")) return;
  letGo(combo.marked[0]);
});
