"""The UNO button on the page, in Debian's chromium (the fixtures of tests/test_web_page.py,
skipped as it is): a card clicked alone is its plain play (and the agents catch it), the
button pressed by keyboard first makes the card call UNO (as ``red 5 uno`` does at the
terminal), the live region says so, and the button is up again after the answer."""

from __future__ import annotations

import json
from contextlib import contextmanager
from typing import Any

# The fixtures (browser, page, server) are found by name: each test's parameters name them.
from test_table_uno import DOS_SETS, SETS, first_call_seed
from test_web_page import (  # noqa: F401
    Browser,
    Page,
    Server,
    browse,
    browser,
    open_page,
    page,
    server,
    shot,
)


def open_call(page: Page, server: Server) -> str:  # noqa: F811
    """A round where seat 0's first card leaves it one, opened by its link."""
    seed, _ = first_call_seed()
    state = server.post("/api/games", {"rulebook": "classic", "players": 2, "humans": [0],
                                       "agents": "greedy", "seed": seed, "round": True,
                                       "set": SETS})
    open_page(page, f"{server.url}#play={state['game']}")
    page.wait_for_selector("#hand .card.playable")
    return str(state["game"])


def play_first_card(page: Page) -> None:  # noqa: F811
    version = page.get_attribute("#game", "data-version")
    page.locator("#hand .card.playable").first.click()
    page.wait_for_function(
        f"document.querySelector('#game').dataset.version !== '{version}'")


def test_a_card_clicked_alone_calls_no_uno(page: Page, server: Server) -> None:  # noqa: F811
    open_call(page, server)
    assert page.is_enabled("#uno-call")
    assert page.get_attribute("#uno-call", "aria-pressed") == "false"
    play_first_card(page)
    assert "catches seat 0" in page.inner_text("#game-log")


def test_the_uno_button_by_keyboard_then_the_card_calls_uno(
        page: Page, server: Server, browser: Browser) -> None:  # noqa: F811
    game = open_call(page, server)
    page.focus("#uno-call")
    page.keyboard.press("Space")
    assert page.get_attribute("#uno-call", "aria-pressed") == "true"
    assert "UNO! will be called" in page.inner_text("#game-live")
    shot(page, "uno")
    with contextmanager(browse)(browser, server, viewport={"width": 390, "height": 844}) as phone:
        open_page(phone, f"{server.url}#play={game}")
        phone.wait_for_selector("#hand .card.playable")
        box = phone.locator("#uno-call").bounding_box()
        assert box is not None and box["x"] + box["width"] <= 390 and box["height"] >= 44
        shot(phone, "uno-phone")
    play_first_card(page)
    assert "catches seat 0" not in page.inner_text("#game-log")
    state = server.get(f"/api/games/{game}")
    assert len(state["view"]["hand"]) == 1
    assert page.get_attribute("#uno-call", "aria-pressed") == "false"  # up again


def test_an_owed_call_is_made_by_the_uno_button_as_uno_is_typed(
        page: Page, server: Server) -> None:  # noqa: F811
    """Where no card can call but a call of one's own is offered (another's card left the
    seat at one: ``uno_after_others``), the button answers ``uno``, the terminal's word."""
    open_call(page, server)
    sent: list[str] = []

    def answered(route: Any) -> None:
        sent.append(json.loads(route.request.post_data or "{}").get("answer"))
        route.fulfill(status=409, json={"error": "stop here"})
    page.route("**/answer", answered)
    page.evaluate("""() => {
      const s = structuredClone(play.state);
      s.prompt = { ...s.prompt, can_pass: true, options: [
        { index: 1, text: "call UNO for seat 0", kind: "uno", card: null, colour: null,
          uno: false }] };
      render(s);
    }""")
    assert page.is_enabled("#uno-call")
    page.click("#uno-call")
    page.wait_for_function("!play.busy")
    assert sent == ["uno"]


def test_a_rulebook_s_own_call_is_named_on_the_page(
        page: Page, server: Server) -> None:  # noqa: F811
    """DOS (``call_name: DOS``): the button, its live message and the options say DOS."""
    seed, _ = first_call_seed("dos", DOS_SETS)
    state = server.post("/api/games", {"rulebook": "dos", "players": 2, "humans": [0],
                                       "agents": "greedy", "seed": seed, "round": True,
                                       "set": DOS_SETS})
    open_page(page, f"{server.url}#play={state['game']}")
    page.wait_for_selector("#hand .card.playable")
    assert page.inner_text("#uno-call").strip() == "DOS!"
    assert "and call DOS" in page.inner_text("#options")
    assert "UNO" not in page.inner_text("#options")
    page.focus("#uno-call")
    page.keyboard.press("Space")
    assert "DOS! will be called" in page.inner_text("#game-live")
    shot(page, "dos-call")
