"""Combos on the page (DOS: two cards that add up to a pile's card, played at once), in
Debian's chromium with the fixtures of tests/test_web_page.py (skipped as it is): the first
card clicked is marked and only the cards that may join it are raised; the second plays
both (several piles: then a pile is clicked); a marked card that is a play of its own is
played alone by a button; all by keyboard too. And the Replay tab names the rulebook's call
(DOS), not UNO, in a seat's flag."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable
from typing import Any

import test_web_page as web  # skips the module without a browser

# The fixtures (browser, page, server) are found by name: each test's parameters name them.
from test_table_uno import DOS_SETS, first_call_seed
from test_web_page import browser, page, server  # noqa: F401
from test_web_page_a11y import PHONE, assert_clean, axe, phone  # noqa: F401

Combo = tuple[str, ...]


def combos(state: dict[str, Any]) -> dict[Combo, set[int]]:
    """The seat's combo plays now: each one's cards (names, in order) -> its piles."""
    found: dict[Combo, set[int]] = defaultdict(set)
    for o in (state["prompt"] or {}).get("options", []):
        if o["kind"] == "play" and not o["uno"] and len(o["cards"] or ()) > 1:
            found[tuple(c["name"] for c in o["cards"])].add(o["pile"])
    return found


def alone(state: dict[str, Any]) -> set[str]:
    """The cards the seat may play by themselves now."""
    return {o["cards"][0]["name"] for o in state["prompt"]["options"]
            if o["kind"] == "play" and len(o["cards"]) == 1}


def dos_game(server: web.Server, fits: Callable[[dict[str, Any]], Combo | None]  # noqa: F811
             ) -> tuple[dict[str, Any], Combo]:
    """The first DOS deal (2 players, seat 0 a person) whose options give ``fits`` a combo."""
    for seed in range(60):
        state = server.post("/api/games", {"rulebook": "dos", "players": 2, "humans": [0],
                                           "agents": "greedy", "seed": seed, "round": True})
        if state["prompt"] and (chosen := fits(state)) is not None:
            return state, chosen
    raise AssertionError("no DOS deal has such a combo")


def one_pile_and_alone(state: dict[str, Any]) -> Combo | None:
    """A pair on one pile whose first card is also played alone, the second not: a click on
    the first must both start the combo and leave its play alone."""
    ones = alone(state)
    return next((k for k, piles in combos(state).items() if len(k) == 2 and len(piles) == 1
                 and k[0] in ones and k[1] not in ones), None)


def several_piles(state: dict[str, Any]) -> Combo | None:
    return next((k for k, piles in combos(state).items() if len(piles) > 1), None)


def opened(pg: web.Page, server: web.Server,  # noqa: F811
           fits: Callable[[dict[str, Any]], Combo | None]
           ) -> tuple[dict[str, Any], Combo, str | None]:
    """A DOS game with a combo that ``fits`` opened on the page: its state, the combo, the
    page's version."""
    state, chosen = dos_game(server, fits)
    web.open_page(pg, f"{server.url}#play={state['game']}")
    pg.wait_for_selector("#hand .card.playable")
    return state, chosen, pg.get_attribute("#game", "data-version")


def card(pg: web.Page, name: str) -> web.Any:
    return pg.locator(f"#hand .card[data-name='{name}']").first


def joins(pg: web.Page) -> list[str]:
    return [str(n) for n in pg.eval_on_selector_all(
        "#hand .card[data-combo='joins']", "ns => ns.map(n => n.dataset.name)")]


def first_move(server: web.Server, state: dict[str, Any]) -> str:  # noqa: F811
    """The game's first step as seat 0 saw it (the record's action: what the page sent), its
    names as the page writes them (``wild number``, not ``wild_number``)."""
    moves = server.get(f"/api/games/{state['game']}/replay?seat=0")["moves"]
    return str(moves[0]).replace("_", " ")


def on(pile: int) -> str:
    """A play's pile as the record writes it (pile 0 unsaid)."""
    return f" on {pile}" if pile else ""


def answered(pg: web.Page, version: str | None) -> None:
    pg.wait_for_function(f"document.querySelector('#game').dataset.version !== '{version}'")


def test_a_combo_is_played_by_clicking_its_cards_the_joining_ones_shown(
        page: web.Page, server: web.Server, axe: str) -> None:  # noqa: F811
    state, (first, second), version = opened(page, server, one_pile_and_alone)
    card(page, first).click()
    marked = page.locator("#hand .card[data-combo='marked']")
    assert marked.count() == 1 and marked.get_attribute("data-name") == first
    assert marked.get_attribute("aria-pressed") == "true"
    # the cards that may join are exactly the options' second cards after this first one
    assert sorted(joins(page)) == sorted({k[1] for k in combos(state) if k[0] == first})
    assert second in joins(page)
    assert page.locator("#options button[data-kind='combo-alone']").inner_text() == \
        f"play {first} alone"
    assert f"{first} marked" in page.inner_text("#game-live")
    web.shot(page, "combo")
    assert_clean(page, axe, "a combo's first card marked")
    page.locator(f"#hand .card[data-combo='joins'][data-name='{second}']").first.click()
    answered(page, version)
    assert f"seat 0 plays {first}\nseat 0 plays {second}" in page.inner_text("#game-log")
    (pile,) = combos(state)[first, second]
    assert first_move(server, state) == f"0 play {first} + {second}{on(pile)}"


def test_a_marked_card_is_played_alone_or_let_go_by_keyboard(
        page: web.Page, server: web.Server) -> None:  # noqa: F811
    state, (first, _), version = opened(page, server, one_pile_and_alone)
    card(page, first).focus()
    page.keyboard.press("Enter")
    # focus moves to a card that may join (the next thing to press)
    assert page.evaluate("document.activeElement.dataset.combo") == "joins"
    page.keyboard.press("Escape")  # let go, as the "let go" button does
    assert page.locator("#hand .card[data-combo='marked']").count() == 0
    assert not joins(page)
    card(page, first).click()
    page.click("#options button[data-kind='combo-let-go']")
    assert page.locator("#hand .card[data-combo='marked']").count() == 0
    card(page, first).focus()
    page.keyboard.press("Enter")
    page.focus("#options button[data-kind='combo-alone']")
    page.keyboard.press("Enter")
    answered(page, version)
    (pile,) = {o["pile"] for o in state["prompt"]["options"]
               if o["cards"] and [c["name"] for c in o["cards"]] == [first]}
    assert first_move(server, state) == f"0 play {first}{on(pile)}"


def test_on_a_phone_a_marked_card_s_buttons_fit_and_read(
        phone: web.Page, server: web.Server, axe: str) -> None:  # noqa: F811
    _, (first, second), _ = opened(phone, server, one_pile_and_alone)
    card(phone, first).click()
    assert second in joins(phone)
    for kind in ("combo-alone", "combo-let-go"):
        box = phone.locator(f"#options button[data-kind='{kind}']").bounding_box()
        assert box is not None and box["x"] + box["width"] <= PHONE["width"]
    assert phone.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    assert_clean(phone, axe, "a combo's first card marked, 390 px")


def test_a_combo_that_goes_on_several_piles_is_played_on_the_pile_clicked(
        page: web.Page, server: web.Server) -> None:  # noqa: F811
    state, (first, second), version = opened(page, server, several_piles)
    card(page, first).click()
    page.locator(f"#hand .card[data-combo='joins'][data-name='{second}']").first.click()
    assert page.locator("#hand .card[data-combo='marked']").count() == 2
    targets = page.locator("#table-view .discard.target")
    piles = sorted(combos(state)[first, second])
    assert sorted(int(str(targets.nth(k).get_attribute("data-pile")))
                  for k in range(targets.count())) == piles
    assert page.evaluate("document.activeElement.classList.contains('target')")
    target = targets.last
    assert f"play {first} + {second} on pile {piles[-1]}" in str(target.get_attribute("aria-label"))
    target.click()
    answered(page, version)
    assert first_move(server, state) == f"0 play {first} + {second}{on(piles[-1])}"


def test_the_replay_names_the_rulebook_s_call_in_a_seat_s_flag(
        page: web.Page, server: web.Server) -> None:  # noqa: F811
    """DOS: seat 0 plays its card without calling DOS; the step after shows its flag."""
    seed, _ = first_call_seed("dos", DOS_SETS)
    state = server.post("/api/games", {"rulebook": "dos", "players": 2, "humans": [0],
                                       "agents": "greedy", "seed": seed, "round": True,
                                       "set": DOS_SETS})
    game = state["game"]
    plain = next(o for o in state["prompt"]["options"] if o["kind"] == "play" and not o["uno"])
    answer = str(plain["index"])
    while state["status"] == "playing":  # on to the end (the replay of a game that is over)
        state = server.post(f"/api/games/{game}/answer",
                            {"version": state["version"], "answer": answer})
        answer = "1" if state["prompt"] and state["prompt"]["options"] else ""
    assert server.get(f"/api/games/{game}/replay?to=1&open=1")["call"] == "DOS"
    page.click("#tab-replay")
    page.select_option("#replay-game", game)
    page.click("#replay-open")
    page.wait_for_function("document.querySelector('#replay-pos').textContent.startsWith('step 0')")
    page.click("#replay-next")
    page.wait_for_function("document.querySelector('#replay-pos').textContent.startsWith('step 1')")
    flag = page.locator("#replay-view .seat[data-seat='0'] .flag")
    assert flag.inner_text().strip() == "· no DOS called!"
    assert "UNO" not in page.inner_text("#replay-view")
