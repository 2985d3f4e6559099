"""The move list and "continue from here" on the page, in Debian's chromium (the fixtures
of tests/test_web_page.py, skipped as it is): after a game, its moves in the Replay tab,
each a button showing that position; "Continue from here" starts a new game there with
the same seats, played on in the Play tab."""

from __future__ import annotations

import json
import re
from pathlib import Path

# The fixtures (browser, page, server) are found by name: each test's parameters name them.
import test_web_page as web
from test_web_page import Page, Server, browser, page, server  # noqa: F401
from test_web_replay_branch import a_record


def play_to_the_end(page: Page) -> None:  # noqa: F811
    for _ in range(400):
        if page.get_attribute("#game-status", "data-status") != "playing":
            return
        web.step(page, [])
    raise AssertionError(f"still playing after 400 answers: {web.status(page)}")


def test_after_a_game_its_moves_jump_and_continue_from_here(
        page: Page, server: Server) -> None:  # noqa: F811
    made = server.post("/api/games", {"rulebook": "classic", "players": 3, "humans": [0],
                                      "agents": "normal", "seed": 8, "round": True})
    web.open_page(page, f"{server.url}#play={made['game']}")
    page.wait_for_selector("#hand .card")
    play_to_the_end(page)
    page.click("#game-moves")  # after the game: its moves, at the end
    page.wait_for_selector("#replay-moves button[aria-current='step']")
    moves = page.locator("#replay-moves button")
    total = moves.count() - 1  # the deal first
    assert total > 10 and page.inner_text("#replay-pos") == f"step {total} of {total}"
    record = server.get(f"/api/games/{made['game']}/replay?open=1")["moves"]
    assert moves.all_inner_texts()[1:] == record
    # a move clicked shows that position (by keyboard: focus it, Enter)
    half = total // 2
    moves.nth(half).focus()
    page.keyboard.press("Enter")
    page.wait_for_function(
        f"document.querySelector('#replay-pos').textContent === 'step {half} of {total}'")
    assert page.get_attribute(f"#replay-moves button[data-step='{half}']",
                              "aria-current") == "step"
    assert page.inner_text("#replay-action") == f"Step {half}: {record[half - 1]}"
    web.shot(page, "moves")
    page.click("#replay-continue")
    page.wait_for_function(f"!location.hash.includes('{made['game']}') && "
                           "location.hash.startsWith('#play=')")
    page.wait_for_selector("#panel-play:not([hidden]) #game[data-version]")
    new = re.search(r"#play=(\S+)$", page.url)
    assert new and new.group(1) != made["game"]
    state = server.get(f"/api/games/{new.group(1)}")
    assert state["seats"] == made["seats"]
    assert new.group(1) in page.inner_text("#game-title")
    if state["status"] == "playing":  # the seat's hand at that position, to play on
        cards = [c.get_attribute("data-name") for c in page.query_selector_all("#hand .card")]
        assert cards == [c["name"] for c in state["view"]["hand"]]
        web.step(page, [])


def test_a_record_file_continues_from_a_move_at_the_seat_chosen(
        page: Page, server: Server, tmp_path: Path) -> None:  # noqa: F811
    text = a_record(tmp_path / "elsewhere")  # a game played on another server
    record = tmp_path / "game.jsonl"
    record.write_text(text, encoding="utf-8")
    actions = [json.loads(line)["action"] for line in text.splitlines() if '"step"' in line]
    # a move after which seat 1 (an agent in the record) is the next to act: its turn
    to = next(n for n in range(len(actions) // 2, len(actions)) if actions[n][0] == "1")
    web.open_page(page, server.url)
    page.click("#tab-replay")
    page.set_input_files("#replay-file", str(record))
    page.wait_for_selector("#replay-moves button[aria-current='step']")
    page.select_option("#replay-seat", "1")
    page.click(f"#replay-moves button[data-step='{to}']")
    page.wait_for_function(f"document.querySelector('#replay-pos').textContent === "
                           f"'step {to} of {len(actions)}'")
    page.click("#replay-continue")
    page.wait_for_function("location.hash.startsWith('#play=')")
    new = re.search(r"#play=(\S+)$", page.url)
    assert new
    state = server.get(f"/api/games/{new.group(1)}")
    assert [s == "human" for s in state["seats"]] == [False, True, False]
    assert state["prompt"]["seat"] == 1  # the record's next move is this seat's
    at = server.post("/api/replay", {"record": text, "to": to, "seat": 1})
    want = [c["name"] for c in at["view"]["hand"]]
    assert want
    page.wait_for_selector("#panel-play:not([hidden]) #game[data-version]")
    page.wait_for_function(f"document.querySelector('#game-title').textContent"
                           f".includes('{new.group(1)}')")
    shown = "[...document.querySelectorAll('#hand .card')].map(c => c.dataset.name)"
    try:  # the hand drawn once the new game's state has come
        page.wait_for_function(f"want => JSON.stringify({shown}) === JSON.stringify(want)",
                               arg=want, timeout=10_000)
    finally:
        assert page.evaluate(shown) == want

