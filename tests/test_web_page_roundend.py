"""The end of a round on the page, in Debian's chromium (the fixtures and helpers of
tests/test_web_page.py, skipped as it is): every hand shown with its points, the winner in
words, the scores the API has, "Next round" and "Play again" by keyboard."""

from __future__ import annotations

import re

# The fixtures (browser, page, server) are found by name: each test's parameters name them.
from test_web_page import (  # noqa: F401
    Page,
    Server,
    browser,
    open_page,
    page,
    server,
    shot,
    status,
    step,
)


def open_game(page: Page, server: Server, **body: object) -> str:  # noqa: F811
    """A game made through the API, opened on the page by its link."""
    state = server.post("/api/games", {"rulebook": "classic", "players": 3, "humans": [0],
                                       "agents": "greedy", **body})
    open_page(page, f"{server.url}#play={state['game']}")
    page.wait_for_selector("#hand .card")
    return str(state["game"])


def play_to_round_end(page: Page) -> None:  # noqa: F811
    for _ in range(400):
        if page.is_visible("#round-end"):
            return
        step(page, [])
    raise AssertionError(f"no round end after 400 answers: {status(page)}")


def test_a_match_round_end_shows_every_hand_and_next_round_deals_by_keyboard(
        page: Page, server: Server) -> None:  # noqa: F811
    game = open_game(page, server, seed=7)
    play_to_round_end(page)
    state = server.get(f"/api/games/{game}")
    end = state["round_end"]
    assert state["prompt"]["kind"] == "next_round"
    hands = page.locator("#round-hands .end-hand")
    assert hands.count() == 3
    for seat in range(3):
        box = hands.nth(seat)
        hand = end["hands"][seat]
        assert box.locator(".card").count() == len(hand["cards"])
        assert f"{hand['points']} point" in box.inner_text()
    winner = page.locator("#round-hands .end-hand.winner")
    assert winner.count() == 1 and "winner" in winner.inner_text()  # said, not coloured
    assert f"seat {end['winners'][0]}" in winner.inner_text()
    assert "Round over: round 1 over" in status(page)
    assert page.is_hidden("#hand") and page.is_hidden("#table-view")  # the next deal waits
    assert page.locator("#options button").count() == 0  # "Next round" is the way on
    rows = page.locator("#scores tbody tr")
    assert [int(rows.nth(s).locator("td").nth(2).inner_text().split()[0])
            for s in range(3)] == state["scores"] == end["scores"]
    assert max(state["scores"]) > 0
    assert "round winner" in page.inner_text("#scores tr.winner")
    assert page.locator("#scores tr.sig").count() == 0  # no red row
    shot(page, "round-end")
    # the keyboard's next step: focus is on "Next round"
    assert page.evaluate("document.activeElement.id") == "next-round"
    version = page.get_attribute("#game", "data-version")
    page.keyboard.press("Enter")
    page.wait_for_function(
        f"document.querySelector('#game').dataset.version !== '{version}'")
    assert page.is_hidden("#round-end")
    assert "round 2" in page.inner_text("#game-title")
    assert page.locator("#hand .card").count() == 7
    rows = page.locator("#scores tbody tr")
    assert [int(rows.nth(s).locator("td").nth(2).inner_text().split()[0])
            for s in range(3)] == end["scores"]  # kept


def test_a_match_end_names_its_winner_and_play_again_starts_a_new_game(
        page: Page, server: Server) -> None:  # noqa: F811
    game = open_game(page, server, seed=7, set={"target_score": 1})
    play_to_round_end(page)
    assert re.search(r"seat \d wins the match", page.inner_text("#match-end"))
    assert "match winner" in page.inner_text("#scores tr.winner")
    assert page.is_hidden("#next-round")
    assert page.evaluate("document.activeElement.id") == "play-again"
    page.keyboard.press("Enter")
    page.wait_for_function(f"!location.hash.includes('{game}')")
    page.wait_for_selector("#round-end", state="hidden")
    again = re.search(r"#play=(\S+)$", page.url)
    assert again and again.group(1) != game
    state = server.get(f"/api/games/{again.group(1)}")
    assert state["version"] == 0 and state["seats"] == ["human", "greedy", "greedy"]
    # A new deal has a seed of its own: its first card may make seat 0 draw before it
    # plays (9 cards after a Draw Two), so the page is held to the API's hand, not to 7.
    assert again.group(1) in page.inner_text("#game-title")
    assert len(state["view"]["hand"]) >= 7
    assert page.locator("#hand .card").count() == len(state["view"]["hand"])
