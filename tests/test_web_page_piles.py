"""Several discard piles on the page (UNO Triple Play), in Debian's chromium with the fixtures
of tests/test_web_page.py (skipped as it is): every pile drawn with its top card as a card,
open or closed and its press count (never a hidden limit), on the desktop and on a 390 px
phone; a card that goes on several piles is chosen, then played by a click on a pile; a
press is a click on the pile."""

from __future__ import annotations

from typing import Any

import test_web_page as web  # skips the module without a browser

# The fixtures (browser, page, server) are found by name: each test's parameters name them.
from test_web_page import browser, page, server  # noqa: F401
from test_web_page_a11y import PHONE, assert_clean, axe, phone  # noqa: F401

SEED = 4


def new_game(pg: web.Page) -> str:
    return web.new_game(pg, SEED, rulebook="triple_play")


def api_view(server: web.Server, game: str) -> dict[str, Any]:  # noqa: F811
    view: dict[str, Any] = server.get(f"/api/games/{game}")["view"]
    return view


def assert_piles_drawn(pg: web.Page, view: dict[str, Any]) -> None:
    """The page's piles are the API's: the top card, open or closed, the press count."""
    piles = pg.locator("#table-view .discard")
    assert piles.count() == 3
    for p in view["piles"]:
        node = pg.locator(f"#table-view .discard[data-pile='{p['pile']}']")
        assert node.locator(".card").get_attribute("data-name") == p["top"]["name"]
        assert node.get_attribute("data-open") == ("open" if p["open"] else "closed")
        assert node.get_attribute("data-presses") == str(p["presses"])
        words = node.inner_text()
        assert f"pile {p['pile']}" in words and f"pressed {p['presses']}" in words
        assert ("closed" in words) == (not p["open"])
    assert "limit" not in pg.inner_text("#table-view").lower()


def answered(pg: web.Page, version: str | None) -> None:
    pg.wait_for_function(
        f"document.querySelector('#game').dataset.version !== '{version}'")


def test_every_pile_is_drawn_and_a_card_goes_on_the_pile_clicked(
        page: web.Page, server: web.Server, axe: str) -> None:  # noqa: F811
    game = new_game(page)
    chose = pressed = 0
    for _ in range(200):
        if page.get_attribute("#game-status", "data-status") != "playing":
            break
        view = api_view(server, game)
        assert_piles_drawn(page, view)
        version = page.get_attribute("#game", "data-version")
        several = page.locator("#hand .card[aria-label$='choose a pile']")
        targets = page.locator("#table-view .discard.target")
        if several.count():
            name = several.first.get_attribute("data-name")
            several.first.click()
            assert several.first.get_attribute("aria-pressed") == "true"
            assert targets.count() >= 2  # the piles it goes on, framed and clickable
            pile = targets.last.get_attribute("data-pile")
            targets.last.click()
            answered(page, version)
            assert f"seat 0 plays {name} on discard pile {pile}" in page.inner_text("#game-log")
            chose += 1
        elif targets.count():  # after a draw kept: press an open pile of one's choice
            pile = targets.first.get_attribute("data-pile")
            targets.first.click()
            answered(page, version)
            assert f"seat 0 presses discard pile {pile}" in page.inner_text("#game-log")
            pressed += 1
        elif page.locator("#options button[data-kind='draw']").count() and not chose:
            page.click("#options button[data-kind='draw']")
            answered(page, version)
        else:
            web.step(page, [])
        if chose and pressed:
            break
    assert chose and pressed
    web.shot(page, "piles")
    assert_clean(page, axe, "several piles")


def test_on_a_phone_every_pile_shows_within_the_width(
        phone: web.Page, server: web.Server, axe: str) -> None:  # noqa: F811
    game = new_game(phone)
    assert_piles_drawn(phone, api_view(server, game))
    assert_clean(phone, axe, "several piles, 390 px")
    several = phone.locator("#hand .card[aria-label$='choose a pile']")
    for _ in range(100):  # on to a turn with a card that goes on several piles
        if several.count():
            break
        version = phone.get_attribute("#game", "data-version")
        targets = phone.locator("#table-view .discard.target")
        if targets.count():
            targets.first.click()
            answered(phone, version)
        else:
            web.step(phone, [])
    several.first.click()  # chosen: the piles it goes on are buttons, within the width
    targets = phone.locator("#table-view button.discard.target")
    assert targets.count() >= 2
    for k in range(targets.count()):
        box = targets.nth(k).bounding_box()
        assert box is not None and box["x"] + box["width"] <= PHONE["width"]
    assert_clean(phone, axe, "several piles, a card chosen, 390 px")
    for k in range(3):
        box = phone.locator(f"#table-view .discard[data-pile='{k}']").bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"]
    assert phone.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
