"""Friends across browsers on the page, in Debian's chromium (the fixtures and helpers of
tests/test_web_page.py, skipped as it is): one game from two browser contexts by their seat
links, each with its own hand, a move in one shown in the other by its event stream, a
reload rejoining, and a third context without a link seeing no hand and no option."""

from __future__ import annotations

from test_web_page import (  # noqa: F401
    WAIT,
    Browser,
    Page,
    Server,
    browser,
    hand,
    open_page,
    server,
    step,
)


def seat_page(browser: Browser, url: str) -> Page:  # noqa: F811
    context = browser.new_context(viewport={"width": 1280, "height": 860})
    context.set_default_timeout(WAIT)
    page = context.new_page()
    open_page(page, url)
    return page


def test_two_browsers_play_one_game_by_their_seat_links(browser: Browser,  # noqa: F811
                                                         server: Server) -> None:  # noqa: F811
    made = server.post("/api/games", {"rulebook": "classic", "players": 2, "humans": [0, 1],
                                      "seed": 5, "round": True, "friends": True})
    game, links = made["game"], made["links"]["seats"]
    pages = [seat_page(browser, f"{server.url}static/index.html#play={game}&token={links[s]}")
             for s in ("0", "1")]
    for seat, page in enumerate(pages):
        page.wait_for_selector("#hand .card")
        assert page.url.endswith(f"#play={game}")  # the token leaves the address bar
        assert f"You play seat {seat}" in page.inner_text("#friends-you")
    assert hand(pages[0]) != hand(pages[1])
    asked = server.get(f"/api/games/{game}")["prompt"]["seat"]
    mover, watcher = pages[asked], pages[1 - asked]
    assert watcher.locator("#options button").count() == 0  # not its turn: nothing to do
    before = watcher.get_attribute("#game", "data-version")
    held = hand(watcher)
    step(mover, [])
    watcher.wait_for_function(  # no click, no reload: the stream brought it
        f"document.querySelector('#game').dataset.version !== '{before}'")
    assert watcher.get_attribute("#game", "data-version") == mover.get_attribute(
        "#game", "data-version")
    watcher.reload()
    watcher.wait_for_selector("#hand .card")
    assert f"You play seat {1 - asked}" in watcher.inner_text("#friends-you")
    assert len(hand(watcher)) >= len(held) and set(held) <= set(hand(watcher))
    stranger = seat_page(browser, f"{server.url}static/index.html#play={game}")
    stranger.wait_for_selector("#friends-panel:not([hidden])")
    assert "public table" in stranger.inner_text("#friends-you")
    assert stranger.locator("#hand .card").count() == 0
    assert stranger.locator("#options button").count() == 0
    for page in (*pages, stranger):
        page.context.close()
