/* uno-rules playground: the cards, the table, Play and Replay. Loaded after app.js. */
"use strict";

/* ------------------------------------------------------------------ cards and the table */

/** The short face of a rank: digits as they are, the usual symbols (+2, ⊘, ⇄, # for a
 *  number), words otherwise; "wild" is said by the card's black, so a wild rank shows the
 *  rest ("wild skip" ⊘, "wild draw four" +4, "wild dos" DOS) and only a plain wild WILD. */
const NUMBER_WORDS = { one: 1, two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, eight: 8, nine: 9, ten: 10 };
const SYMBOLS = { skip: "⊘", reverse: "⇄", number: "#" };
function face(rank) {
  rank = String(rank || "").replace(/_/g, " ").trim();
  if (/^\d+$/.test(rank)) return { text: rank, long: false, corner: rank };
  if (rank === "wild") return { text: "WILD", long: true, corner: "W" };
  const words = rank.replace(/^wild /, "").split(/\s+/);
  const parts = [];
  for (let i = 0; i < words.length; i += 1) {
    const word = words[i];
    const n = NUMBER_WORDS[word] || (/^\d+$/.test(word) ? word : null);
    if (word === "draw" && i + 1 < words.length && (NUMBER_WORDS[words[i + 1]] || /^\d+$/.test(words[i + 1]))) {
      parts.push(`+${NUMBER_WORDS[words[i + 1]] || words[i + 1]}`);
      i += 1;
    } else parts.push(SYMBOLS[word] || (n !== null ? String(n) : word.toUpperCase()));
  }
  const text = parts.join(" ");
  const first = parts[0];
  const corner = /^[A-Z]/.test(first) ? first.charAt(0) : first;
  // a long word (TARGETED, ROULETTE) is drawn smaller still, to fit the oval
  return { text, long: text.length > 3, small: parts.some((w) => w.length > 5), corner };
}

/** A card: a <div> with its name for screen readers (role img), or a <button> (a hand's
 *  card: tag "button"). Its ink (corners, rank) is whatever reads on its colour. */
function cardEl(card, attrs = {}, tag = "div") {
  const f = face(card.rank);
  const css = card.css || cssOfColour(card.colour);
  const label = tag === "div" ? { role: "img", "aria-label": card.name } : { type: "button", "aria-label": card.name };
  const node = el(tag, {
    class: `card${card.colour ? "" : " wild"}${card.other ? " has-other" : ""}`,
    title: card.name + (card.other ? ` (other side: ${card.other.name})` : ""),
    dataset: { name: card.name },
    ...label,
    ...attrs,
  },
  el("span", { class: "corner tl" }, f.corner),
  el("span", { class: "oval" }, el("span", { class: `rank${f.long ? " long" : ""}${f.small ? " small" : ""}${/^[69]$/.test(f.text) ? " turned" : ""}` }, f.text)),
  el("span", { class: "corner br" }, f.corner));
  if (card.other) {
    const o = card.other;
    const back = o.css || cssOfColour(o.colour) || "#1d1d1d";
    node.append(el("span", { class: "other", style: { "--o": back, color: inkOn(back) } }, `⟲ ${o.name}`));
  }
  if (css) {
    const ink = inkOn(css);
    node.style.setProperty("--c", css);
    node.style.setProperty("--t", ink);
    // the rank is drawn in the card's colour on the white oval, unless that colour is too pale
    node.style.setProperty("--r", ink === "#fff" ? css : "#1d1d1d");
  }
  return node;
}

/** One discard pile of several: its top card, its number, open or closed and its public
 *  press count where the rulebook has pile counters (never a hidden limit). ``target``
 *  ({text, go}): a button that plays (or presses) there. */
function pileEl(p, target) {
  const state = p.open === null || p.open === undefined ? "" : p.open ? "open" : "closed";
  const pressed = p.presses === null || p.presses === undefined ? "" : `pressed ${p.presses}`;
  const words = [state, pressed].filter(Boolean);
  const about = `pile ${p.pile}: ${p.top ? p.top.name : "empty"}${p.colour ? `, colour ${p.colour}` : ""}` +
    `, ${p.cards} card${p.cards === 1 ? "" : "s"}${words.length ? `, ${words.join(", ")}` : ""}`;
  const attrs = {
    class: `discard${p.open === false ? " closed" : ""}${target ? " target" : ""}`,
    dataset: { pile: p.pile, open: state || null, presses: pressed ? p.presses : null },
    title: target ? `${target.text} (${about})` : about,
  };
  const body = [
    p.top ? cardEl(p.top) : el("div", { class: "pile" }, "—"),
    el("div", { class: "pile-info", "aria-hidden": "true" }, el("b", {}, `pile ${p.pile}`),
      p.colour ? el("span", { class: "colour-dot small", style: { background: cssOfColour(p.colour) } }) : null,
      words.length ? el("br") : null, words.join(" · ")),
  ];
  if (target) return el("button", { ...attrs, type: "button", "aria-label": `${target.text}; ${about}`, onclick: target.go }, ...body);
  return el("div", { ...attrs, role: "group", "aria-label": about }, ...body);
}

/** The table as a seat sees it: the seats, the piles, the top card and the colour.
 *  ``targets``: pile number -> {text, go}, the piles a click plays on (several piles). */
function renderTable(container, view, { me = null, targets = new Map(), call = "UNO" } = {}) {
  if (!view) { container.replaceChildren(); return; }
  const seats = el("div", { class: "seats" }, (view.seats || []).map((s) => el("div", {
    class: `seat${s.seat === view.to_act ? " to-act" : ""}${s.seat === me ? " me" : ""}${s.out ? " out" : ""}`,
    dataset: { seat: s.seat },
  },
  el("div", {}, el("b", {}, `seat ${s.seat}`), ` ${s.who || ""}`, s.seat === me ? " (you)" : "",
    s.team !== null && s.team !== undefined ? ` · team ${s.team}` : ""),
  el("div", {}, `${s.cards} card${s.cards === 1 ? "" : "s"}`, s.score !== undefined ? ` · ${s.score} pts` : "",
    s.out ? " · out" : "", s.uno_open ? el("span", { class: "flag" }, ` · no ${call} called!`) : ""),
  // Per-player state (a Power Card, a joker): each key's value, shown to every seat.
  Array.isArray(s.state) && s.state.length ? el("div", { class: "state" }, s.state.join(" · ")) : "",
  // A two-sided deck: the other faces this seat holds up are seen (small cards), else backs.
  Array.isArray(s.backs) && s.backs.length
    ? el("div", { class: "faces" }, s.backs.map((c) => cardEl(c)))
    : el("div", { class: "backs" }, Array.from({ length: Math.min(s.cards, 20) }, () => el("span"))))));
  const colour = view.colour;
  // Several discard piles: each drawn (its top card, its colour, open or closed, presses).
  const several = Array.isArray(view.piles) && view.piles.length > 1;
  const centre = el("div", { class: `centre${several ? " several" : ""}` },
    view.draw_top_back
      ? el("div", { class: "pile-back", title: `draw pile: ${view.draw_pile}, its top card's other side` },
          cardEl(view.draw_top_back), el("span", {}, `draw ${view.draw_pile}`))
      : el("div", { class: "pile", title: "draw pile" }, `draw`, el("br"), `${view.draw_pile}`),
    several
      ? el("div", { class: "discards", role: "group", "aria-label": "discard piles" },
          view.piles.map((p) => pileEl(p, targets.get(p.pile))))
      : view.top ? cardEl(view.top) : el("div", { class: "pile" }, "—"),
    el("div", { class: "info" },
      several ? null : el("div", {}, "colour ", el("span", { class: "colour-dot", style: { display: "inline-block", verticalAlign: "middle",
        background: colour ? cssOfColour(colour) : "transparent" } }), ` ${colour || "none"}`),
      el("div", {}, view.direction === -1 ? "↺ anticlockwise" : "↻ clockwise"),
      several ? null : el("div", {}, `discard pile ${view.discard_pile}`),
      view.stacked ? el("div", { class: "flag" }, `stacked: draw ${view.stacked}`) : null,
      view.side ? el("div", {}, `side: ${view.side}`) : null));
  container.replaceChildren(centre, seats);
}

/* ------------------------------------------------------------------ play */

const play = { id: null, state: null, busy: false, passed: null, said: null, selected: null, uno: false };

/** A prompt's card plays by card name, each by pile (its plain play: UNO is called only
 *  with the UNO button down, as the terminal's "red 5 uno"), and its presses by pile. */
function choicesOf(p) {
  const plays = new Map();
  const presses = new Map();
  const options = (p && p.options) || [];
  for (const o of [...options.filter((x) => !x.uno), ...options.filter((x) => x.uno)]) {
    const pile = o.pile === null || o.pile === undefined ? 0 : o.pile;
    if (o.kind === "press") { if (!presses.has(pile)) presses.set(pile, o); continue; }
    if (!o.card || o.kind !== "play") continue;
    const key = playKey(o);  // a combo's: its cards' names joined (combo.js)
    if (!plays.has(key)) plays.set(key, new Map());
    const byPile = plays.get(key);
    if (!byPile.has(pile)) byPile.set(pile, o);
  }
  return { plays, presses };
}

/** The piles a click acts on: those the selected card goes on, and those to press. */
function pileTargets(p) {
  const { plays, presses } = choicesOf(p);
  const targets = new Map();
  const key = comboKey() || play.selected;  // cards marked for a combo (combo.js), else one
  const chosen = key && plays.get(key);
  for (const [pile, o] of chosen || []) {
    targets.set(pile, { text: `play ${key} on pile ${pile}`, go: () => playCard(o) });
  }
  for (const [pile, o] of presses) targets.set(pile, { text: o.text, go: () => answer(String(o.index)) });
  return targets;
}

/** A hand card that goes on several piles: chosen (again: let go), its piles to click. */
function selectCard(name) {
  play.selected = play.selected === name ? null : name;
  const v = play.state.view;
  renderTable($("#table-view"), v, { me: v ? v.seat : null, targets: pileTargets(play.state.prompt), call: callName() });
  $$("#hand .card").forEach((node) => {
    const on = node.dataset.name === play.selected;
    node.classList.toggle("selected", on);
    node.setAttribute("aria-pressed", on ? "true" : "false");
  });
  const first = $("#table-view .discard.target");
  if (play.selected && first) first.focus();
}
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
             agents: $("#play-agents").value.trim() || "normal", round: $("#play-round").checked };
  } catch (e) { return toast(e.message); }
  if (body.humans.some(Number.isNaN)) return toast("your seats: numbers like 0 or 0,2");
  const seed = intOf("#play-seed");
  if (seed !== null) body.seed = seed;
  if ($("#play-friends") && $("#play-friends").checked) body.friends = true;
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

/** A prompt's text, naming its seat unless the text already does. */
function withSeat(p) {
  if (p.seat === null || p.seat === undefined || /^seat \d/i.test(p.text)) return p.text;
  return `seat ${p.seat}: ${p.text}`;
}

/** When a game was last played, read from seconds since 1970 or an ISO date. */
function when(updated) {
  if (updated === null || updated === undefined || updated === "") return "";
  const date = typeof updated === "number" ? new Date(updated * 1000) : new Date(updated);
  if (Number.isNaN(date.getTime())) return String(updated);
  return date.toLocaleString([], { dateStyle: "short", timeStyle: "short" });
}

/** Whether a game (a state or a listed game) has ended: its record and every hand are shown. */
function ended(game) {
  return game.status === "over" || game.status === "stalled";
}

function statusText(state) {
  if (state.status === "over") return `Game over: ${state.result ? state.result.text : "finished"}`;
  if (state.status === "stalled") return `Stalled: ${state.reason || "the round's budget ran out"}; the game is over`;
  const p = state.prompt;
  if (!p) return "waiting…";
  if (p.kind === "next_round") return state.round_end ? `Round over: ${state.round_end.text}` : `Round over: ${p.text}`;
  if (p.kind === "pass_to") return `pass to seat ${p.seat}`;
  return withSeat(p);
}

function render(state) {
  // A card chosen for its pile is let go once the game moves on (or another opens).
  if (!play.state || play.state.game !== state.game || play.state.version !== state.version) play.selected = null;
  keepMarks(state);
  play.state = state;
  $("#game").hidden = false;
  $("#game").dataset.version = state.version;
  // The record holds the seed and every hand: the server gives it once the game is over.
  const record = $("#game-record");
  record.hidden = !ended(state);
  if (ended(state)) record.href = `/api/games/${encodeURIComponent(state.game)}/record`;
  else record.removeAttribute("href");
  record.setAttribute("download", `${state.game}.jsonl`);
  $("#play-setup").open = false;
  $("#game-title").textContent = `${state.title} · ${state.one_round ? "one round" : `round ${state.round}` +
    (state.target ? `, to ${state.target} points` : "")} · game ${state.game}`;
  const status = $("#game-status");
  status.textContent = statusText(state);
  status.dataset.status = state.status;
  const p = state.prompt;
  const v = state.view;
  const me = v ? v.seat : null;
  // The hand: cards that are options are played by a click on them; one that goes on
  // several piles is chosen first, then the pile clicked.
  const { plays } = choicesOf(p);
  if (play.selected && !plays.has(play.selected)) play.selected = null;
  renderTable($("#table-view"), v, { me, targets: pileTargets(p), call: callName() });
  renderUno(p);
  $("#hand").replaceChildren(...((v && v.hand) || []).map((c, i) => {
    const marking = comboCard(c, i, plays);  // a card a combo starts with or may take
    if (marking) return marking;
    const byPile = plays.get(c.name);
    if (!byPile) return cardEl(c, { "aria-disabled": "true" }, "button");
    if (byPile.size > 1) {
      const node = cardEl(c, { onclick: () => selectCard(c.name), title: `${c.name}: then click a pile`,
        "aria-label": `${c.name}: choose a pile`, "aria-pressed": play.selected === c.name ? "true" : "false" }, "button");
      node.classList.toggle("selected", play.selected === c.name);
      return node;
    }
    const o = byPile.values().next().value;
    const where = o.pile === null || o.pile === undefined ? "" : ` on pile ${o.pile}`;
    return cardEl(c, { onclick: () => playCard(o), title: `play ${c.name}${where}`, "aria-label": `play ${c.name}${where}` }, "button");
  }));
  $$("#hand .card").forEach((node) => {
    if (node.dataset.combo) return;
    if (plays.has(node.dataset.name)) node.classList.add("playable");
    else if (plays.size) node.classList.add("dim");
  });
  // The options, one button each.
  const buttons = comboButtons(plays);
  $("#prompt-text").textContent = p && p.kind !== "pass_to" && p.kind !== "next_round" ? `${withSeat(p)}:` : "";
  if (p && p.kind !== "pass_to") {
    for (const o of p.options || []) {
      const colour = o.colour || null;
      const calls = o.uno || o.kind === "uno" || o.kind === "catch";
      const cls = [colour ? "colour" : "", calls ? "uno" : ""].join(" ").trim();
      buttons.push(el("button", { class: cls || null, dataset: { index: o.index, kind: o.kind || "" },
        style: colour ? { background: cssOfColour(colour), color: inkOn(cssOfColour(colour)) } : {},
        onclick: () => answer(String(o.index)) }, o.text));
    }
    if (p.kind === "window" && (p.seat === null || p.seat === undefined) && !(p.options || []).length) {
      const humans = (state.seats || []).map((who, i) => (who === "human" ? i : null)).filter((i) => i !== null);
      for (const seat of humans) {
        buttons.push(el("button", { dataset: { kind: "seat" }, onclick: () => answer(String(seat)) }, `seat ${seat} acts out of turn`));
      }
    }
    // next_round: the round-end summary's "Next round" button deals it
    if ((p.can_pass && p.kind !== "next_round") || p.kind === "window") {
      const label = p.kind === "window" ? "go on" : "pass";
      buttons.push(el("button", { class: "primary", dataset: { kind: "pass" }, onclick: () => answer("") }, label));
    }
  }
  $("#options").replaceChildren(...buttons);
  // Hot-seat: nobody's hand shows until the seat says it has the screen.
  const pass = $("#pass-screen");
  if (p && p.kind === "pass_to") {
    $("#pass-text").textContent = `Pass the screen to seat ${p.seat}.`;
    $("#pass-ok").disabled = false;
    pass.hidden = false;
  } else {
    pass.hidden = true;
  }
  $("#game-log").replaceChildren(...(state.log || []).map((line) => el("li", {}, line)));
  const log = $("#game-log");
  log.scrollTop = log.scrollHeight;
  renderScores(state);
  renderRoundEnd(state);
  if (typeof renderFriends === "function") renderFriends(state);
  focusNext();
  announce(state);
}

/** The call's name: the rulebook's call_name ("UNO"; DOS: "DOS"), sent in the state. */
function callName() {
  return (play.state && play.state.call) || "UNO";
}

/** The UNO button: usable when a play may call UNO (the prompt offers a calling variant)
 *  or a call of one's own is offered; up again after every answer. Named for the call. */
function renderUno(p) {
  const button = $("#uno-call");
  const call = callName();
  button.textContent = `${call}!`;
  button.title = `press, then play the card: it calls ${call}`;
  const options = (p && p.options) || [];
  const withCard = options.some((o) => o.uno);
  if (!withCard) play.uno = false;
  button.disabled = !withCard && !options.some((o) => o.kind === "uno");
  button.setAttribute("aria-pressed", String(play.uno));
}

/** Pressed: a toggle for the card played next; where no card can call but an UNO call of
 *  its own is offered (one another's card left you at one), the call itself — the
 *  terminal's "uno". */
function toggleUno() {
  const options = (play.state && play.state.prompt && play.state.prompt.options) || [];
  if (!options.some((o) => o.uno) && options.some((o) => o.kind === "uno")) return answer("uno");
  play.uno = !play.uno;
  renderUno(play.state && play.state.prompt);
  const call = callName();
  $("#game-live").textContent = play.uno ? `${call}! will be called with the card you play now.`
    : `${call} will not be called.`;
}

/** A card clicked: its play, with UNO called when the UNO button is down (the server's
 *  "N uno" picks the calling variant: one rule for the page and the terminal). */
function playCard(o) {
  const options = (play.state && play.state.prompt && play.state.prompt.options) || [];
  // only a card whose play has a calling variant is sent with "uno" (another is just played)
  const call = play.uno && options.some((x) => x.uno && x.kind === o.kind && x.card && x.card.name === o.card.name);
  play.uno = false;
  answer(call ? `${o.index} uno` : String(o.index));
}

/** After an answer the buttons pressed are gone: focus goes to the next thing to press (a
 *  playable card, else the first option), unless the user is elsewhere on the page. */
function focusNext() {
  const a = document.activeElement;
  const lost = !a || a === document.body || a.closest("#play-setup") || a.closest("#game")?.hidden;
  if (!lost || $("#panel-play").hidden) return;
  const next = (!$("#pass-screen").hidden && $("#pass-ok")) || $("#hand .card.playable")
    || $("#options button") || $("#game-status");
  next.focus();
}

/** The live region: what happened since the last answer (the agents' moves), then what is
 *  asked now; a new game or round says its last few lines. */
function announce(state) {
  const log = state.log || [];
  const seen = play.said && play.said.game === state.game && play.said.count <= log.length ? play.said.count : Math.max(0, log.length - 6);
  play.said = { game: state.game, count: log.length };
  const p = state.prompt;
  const now = state.status === "playing" && p && p.kind !== "next_round" ? `Now asked: ${statusText(state)}.` : `${statusText(state)}.`;
  $("#game-live").textContent = [...log.slice(seen), now].join("\n");
}

/** Who won, in words (never colour alone): the round's winners, or the match's once won. */
function winnersOf(state) {
  const end = state.round_end;
  if (!end) return { seats: [], word: "" };
  return end.match_winners.length ? { seats: end.match_winners, word: "match winner" }
    : { seats: end.winners, word: "round winner" };
}

/** The end of a round: every hand with each card's points and its total, then "Next round"
 *  (a match goes on) or "Play again" (a new game made the same way). */
function renderRoundEnd(state) {
  const end = state.round_end;
  const box = $("#round-end");
  const shown = !box.hidden;
  box.hidden = !end;
  if (!end) {
    $("#table-view").hidden = false;
    $(".hand-row").hidden = false;
    return;
  }
  $("#round-end-title").textContent = end.text;
  $("#match-end").textContent = end.match_text ? `★ ${end.match_text}` : "";
  $("#match-end").hidden = !end.match_text;
  const who = state.seats || [];
  $("#round-hands").replaceChildren(...end.hands.map((h) => el("div", {
    class: `end-hand${h.winner ? " winner" : ""}`, dataset: { seat: h.seat },
  },
  el("div", { class: "end-head" }, el("b", {}, `seat ${h.seat}`), ` ${who[h.seat] || ""}`,
    h.winner ? el("span", { class: "winner-badge" }, "★ winner") : "",
    el("span", { class: "end-total" }, `${h.points} point${h.points === 1 ? "" : "s"}`)),
  h.cards.length
    ? el("ul", { class: "end-cards", "aria-label": `seat ${h.seat}'s cards` }, h.cards.map((c) => el("li", {},
      cardEl(c), el("span", { class: "end-points" }, `${c.points}`))))
    : el("div", { class: "muted" }, "no cards left"))));
  const next = state.prompt && state.prompt.kind === "next_round";
  // Between a match's rounds the next one is dealt already: its table waits for "Next round".
  $("#table-view").hidden = next;
  $(".hand-row").hidden = next;
  $("#next-round").hidden = !next;
  $("#next-round").disabled = false;
  $("#play-again").hidden = next;
  $("#game-moves").hidden = !ended(state);
  // Focus goes to what comes next once the summary appears (the keyboard's next step).
  if (!shown) (next ? $("#next-round") : $("#play-again")).focus();
}

async function playAgain() {
  if (!play.id) return;
  $("#play-again").disabled = true;
  const r = await api("POST", `/api/games/${encodeURIComponent(play.id)}/again`);
  $("#play-again").disabled = false;
  if (!r.ok) return notice(r.data.error || `error ${r.status}`, true);
  setGame(r.data);
  refreshGameLists();
}

function renderScores(state) {
  const seats = (state.view && state.view.seats) || [];
  const rows = (state.scores || []).map((score, seat) => el("tr", {},
    el("td", {}, `seat ${seat}`), el("td", {}, (state.seats || [])[seat] || (seats[seat] && seats[seat].who) || ""),
    el("td", {}, score)));
  const won = winnersOf(state);
  rows.forEach((r, seat) => {
    if (!won.seats.includes(seat)) return;
    r.classList.add("winner");
    r.lastChild.append(" ", el("span", { class: "winner-badge" }, `★ ${won.word}`));
  });
  $("#scores").replaceChildren(
    el("thead", {}, el("tr", {}, el("th", {}, "seat"), el("th", {}, "who"), el("th", {}, state.target ? `score (to ${state.target})` : "score"))),
    el("tbody", {}, rows));
}

async function answer(text) {
  if (play.busy || !play.state) return;
  play.busy = true;
  $$("#options button, #pass-ok, #next-round").forEach((b) => { b.disabled = true; });
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
  const label = (g) => `${g.title} · ${g.players} players · ${g.status}${g.updated ? ` · ${when(g.updated)}` : ""}`;
  $("#play-games").replaceChildren(...games.map((g) => el("option", { value: g.game }, label(g))));
  // Only ended games can be replayed here: a game being played shows no other seat's view.
  const replay = $("#replay-game");
  const chosen = replay.value;
  replay.replaceChildren(el("option", { value: "" }, "—"),
    ...games.filter(ended).map((g) => el("option", { value: g.game }, label(g))));
  if (chosen) replay.value = chosen;
}

function initPlay() {
  playSource = new SourceWidget($("#play-source"), "play", "classic");
  $("#play-new").addEventListener("click", newGame);
  $("#play-open").addEventListener("click", () => { const id = $("#play-games").value; if (id) openGame(id); });
  $("#play-games").addEventListener("dblclick", () => { const id = $("#play-games").value; if (id) openGame(id); });
  $("#pass-ok").addEventListener("click", () => answer(""));
  $("#next-round").addEventListener("click", () => answer(""));
  $("#play-again").addEventListener("click", playAgain);
  $("#uno-call").addEventListener("click", toggleUno);
  $("#game-moves").addEventListener("click", gameMoves);
  // Another tab may have played: look again when this one comes back into view.
  document.addEventListener("visibilitychange", () => {
    if (!document.hidden && play.id && !$("#panel-play").hidden) openGame(play.id);
  });
}

/* ------------------------------------------------------------------ replay */

const replay = { source: null, step: 0, total: 0, seats: 0, listed: null };

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
  replay.listed = null;
  showReplayStep(0);
}

/** The move list: a button per step (the deal first), drawn once per record; the step
 *  shown is marked (aria-current). */
function renderMoves(d) {
  const list = $("#replay-moves");
  if (replay.listed !== replay.source) {
    replay.listed = replay.source;
    list.replaceChildren(...["the deal", ...(d.moves || [])].map((text, i) => el("li", {},
      el("button", { type: "button", dataset: { step: i }, onclick: () => showReplayStep(i) }, text))));
  }
  $$("#replay-moves button").forEach((b) => {
    if (Number(b.dataset.step) === d.step) {
      b.setAttribute("aria-current", "step");
      b.scrollIntoView({ block: "nearest" });
    } else {
      b.removeAttribute("aria-current");
    }
  });
  // A kept game, or a record file, may go on from any step (a new game, the same deal).
  $("#replay-continue").hidden = !replay.source;
}

/** "Continue from here": a new game at the step shown, played on in the Play tab. */
async function continueFromHere() {
  if (!replay.source) return;
  $("#replay-continue").disabled = true;
  const r = replay.source.record !== undefined ? await continueRecord()
    : await api("POST", `/api/games/${encodeURIComponent(replay.source.game)}/branch`, { to: replay.step });
  $("#replay-continue").disabled = false;
  if (!r.ok) return toast(r.data.error || `error ${r.status}`);
  setGame(r.data);
  showTab("play");
}

/** "Continue from here" in a record file: the record is sent, the user at the seat shown
 *  (every hand open: the record's own seat). */
function continueRecord() {
  const seatValue = $("#replay-seat").value;
  const seat = seatValue === "" ? null : Number.parseInt(seatValue, 10);
  return api("POST", "/api/replay/branch", { record: replay.source.record, to: replay.step, seat });
}

/** After a game: its moves in the Replay tab, at the last step. */
async function gameMoves() {
  if (!play.id) return;
  replay.source = { game: play.id };
  replay.seats = 0;
  replay.listed = null;
  showTab("replay");
  await refreshGameLists();
  $("#replay-game").value = play.id;
  const r = await api("GET", `/api/games/${encodeURIComponent(play.id)}/replay?open=true`);
  showReplayStep(r.ok ? r.data.total : 0);
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
  renderTable($("#replay-view"), v, { me: seat, call: d.call || "UNO" });
  const hands = [];
  if (v && Array.isArray(v.hands)) {
    v.hands.forEach((h, i) => hands.push(el("div", { class: "muted", style: { flexBasis: "100%" } }, `seat ${i}`), ...h.map((c) => cardEl(c))));
  } else if (v && v.hand) {
    hands.push(...v.hand.map((c) => cardEl(c)));
  }
  $("#replay-hand").replaceChildren(...hands);
  $("#replay-log").replaceChildren(...(d.log || []).map((line) => el("li", {}, line)));
  renderMoves(d);
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
  $("#replay-seat").addEventListener("change", () => { replay.listed = null; go(replay.step); });
  $("#replay-continue").addEventListener("click", continueFromHere);
  document.addEventListener("keydown", (e) => {
    if ($("#panel-replay").hidden || e.target.tagName === "INPUT" || e.target.tagName === "SELECT") return;
    if (e.key === "ArrowRight") go(replay.step + 1);
    if (e.key === "ArrowLeft") go(replay.step - 1);
  });
}

