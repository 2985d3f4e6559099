"use strict";
/* Friends across browsers (docs/web.md, "Friends across browsers"): a seat's link
   (#play=ID&token=T) is kept per game in this browser, sent with that game's requests, and
   its event stream renders each move as it happens; the host sees every seat's link and
   may give a seat to an agent or take it back. Kept apart from table.js: it only hooks in. */

const friends = { source: null, streamed: null };

/** A seat link opened: its token kept for the game, the address left without it. */
(function takeLink() {
  const m = /^#play=([0-9a-f]{12})&token=([A-Za-z0-9_-]+)$/.exec(location.hash);
  if (!m) return;
  try { localStorage.setItem(`uno-rules.token.${m[1]}`, JSON.stringify(m[2])); } catch (e) { /* private mode */ }
  history.replaceState(null, "", `#play=${m[1]}`);
})();

function friendToken(game, host = false) {
  return store.get(`${host ? "host" : "token"}.${game}`, null);
}

/** The headers of a request about a game with links: its seat's token (the host's to
    start it again or hand a seat over). */
function seatHeaders(path, headers) {
  const m = /^\/api\/games\/([0-9a-f]{12})(\/[a-z]+)?/.exec(path);
  if (!m) return;
  const host = m[2] === "/again" || m[2] === "/seats";
  const token = friendToken(m[1], host) || (host ? null : friendToken(m[1], true));
  if (token) headers["X-Seat-Token"] = token;
}

function linkOf(game, token) {
  return `${location.origin}/static/index.html#play=${game}&token=${token}`;
}

/** After each render: keep a new game's links, follow its event stream, show the host's
    panel. */
function renderFriends(state) {
  if (state.links) {
    const seats = Object.keys(state.links.seats);
    store.set(`host.${state.game}`, state.links.host);
    store.set(`links.${state.game}`, state.links.seats);
    if (seats.length) store.set(`token.${state.game}`, state.links.seats[seats[0]]);
    openGame(state.game);  // as the maker's seat sees it (the answer was the host's view)
    return;
  }
  const panel = $("#friends-panel");
  if (!state.friends) {
    follow(null);
    if (panel) panel.hidden = true;
    return;
  }
  follow(state.game);
  const you = state.friends.you;
  const links = store.get(`links.${state.game}`, null);
  $("#friends-you").textContent = (you === null ? "You watch: no seat's link (the public table only)."
    : you === "host" ? "You are the host." : `You play seat ${you}.`) +
    (links ? " Send each friend their seat's link (anyone with a link plays that seat)." : "");
  const rows = [];
  for (const [seat, token] of Object.entries(links || {})) {
    const agent = state.friends.auto[seat];
    const input = el("input", { readonly: "", value: linkOf(state.game, token), "aria-label": `seat ${seat}'s link` });
    const give = el("button", { onclick: () => handOver(Number(seat), agent ? null : "greedy") },
      agent ? `take seat ${seat} back from ${agent}` : `give seat ${seat} to an agent`);
    rows.push(el("li", {}, `seat ${seat}: `, input, " ", give));
  }
  $("#friends-links").replaceChildren(...rows);
  $("#friends-links").hidden = !links;
  panel.hidden = false;
}

/** Follow one game's event stream (null: none): each state it sends is rendered. */
function follow(game) {
  const token = game && (friendToken(game) || "");
  const key = game && `${game} ${token}`;
  if (friends.streamed === key) return;
  if (friends.source) friends.source.close();
  friends.source = null;
  friends.streamed = key;
  if (!game) return;
  const q = token ? `?token=${encodeURIComponent(token)}` : "";
  friends.source = new EventSource(`/api/games/${game}/events${q}`);
  friends.source.onmessage = (e) => {
    const got = JSON.parse(e.data);
    if (!play.busy && play.id === got.game) render(got);
  };
}

async function handOver(seat, agent) {
  const r = await api("POST", `/api/games/${encodeURIComponent(play.id)}/seats`, { seat, agent });
  if (!r.ok) return notice(r.data.error || `error ${r.status}`);
  openGame(play.id);  // the answer is the host's view: this page shows its seat's
}
