"""The playground's page end to end: the real server (``uno-rules serve``, a subprocess)
driven through Debian's chromium with Playwright, each test asserting what a user sees.

Skipped when chromium or Playwright is missing, unless ``UNO_RULES_NEED_BROWSER=1`` (CI):
then it fails. ``UNO_RULES_SCREENSHOTS=1`` saves each tab's picture to docs/web/<tab>.png.
One browser for the module; each test opens its own page (a fresh context: fresh storage)
unless it continues one."""

from __future__ import annotations

import json
import math
import os
import queue
import re
import signal
import subprocess
import sys
import threading
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parent.parent
CHROMIUM = Path("/usr/bin/chromium")
NEED = os.environ.get("UNO_RULES_NEED_BROWSER") == "1"
SHOTS = ROOT / "docs" / "web" if os.environ.get("UNO_RULES_SCREENSHOTS") == "1" else None
WAIT = 30_000  # ms: a busy two-core CI machine, not a speed claim


def _missing() -> str | None:
    if not CHROMIUM.exists():
        return f"{CHROMIUM} is not installed"
    for module in ("playwright", "starlette", "uvicorn"):
        try:
            __import__(module)
        except ImportError:
            return f"{module} is not installed (pip install -e '.[test,web]')"
    return None


if (why := _missing()) is not None:
    if NEED:
        pytest.fail(f"UNO_RULES_NEED_BROWSER=1 but {why}", pytrace=False)
    pytest.skip(why, allow_module_level=True)

from playwright.sync_api import Browser, Page, sync_playwright  # noqa: E402

# A round of classic for 3 seats in which the human (seat 0), playing as step() plays,
# comes to play a wild (the test asserts that a colour was chosen).
PLAY_SEED = 3


class Server:
    """``uno-rules serve --port 0 --data-dir DIR`` in a subprocess; restart() stops it and
    starts it again on the same port and data directory (the page's URL stays)."""

    def __init__(self, data_dir: Path) -> None:
        self.data_dir = data_dir
        self.port = 0
        self.url = ""
        self.proc: subprocess.Popen[str] | None = None

    def start(self) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "uno_rules", "serve", "--port", str(self.port),
             "--data-dir", str(self.data_dir)],
            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        lines: queue.Queue[str] = queue.Queue()
        stderr = self.proc.stderr
        assert stderr is not None

        def read() -> None:
            for line in stderr:
                lines.put(line)

        threading.Thread(target=read, daemon=True).start()
        seen = []
        while True:
            try:
                line = lines.get(timeout=60)
            except queue.Empty:
                raise AssertionError(f"serve printed no address: {seen}") from None
            seen.append(line)
            found = re.search(r"(http://[^/\s]+/)", line)
            if found:
                self.url = found.group(1)
                self.port = int(self.url.rstrip("/").rsplit(":", 1)[1])
                return
            if self.proc.poll() is not None:
                raise AssertionError(f"serve exited: {''.join(seen)}")

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGINT)
            try:
                self.proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self.proc = None

    def restart(self) -> None:
        self.stop()
        self.start()

    def get(self, path: str) -> Any:
        with urllib.request.urlopen(self.url.rstrip("/") + path, timeout=30) as answer:
            return json.loads(answer.read())

    def post(self, path: str, body: dict[str, Any]) -> Any:
        request = urllib.request.Request(self.url.rstrip("/") + path, method="POST",
                                         data=json.dumps(body).encode())
        with urllib.request.urlopen(request, timeout=60) as answer:
            return json.loads(answer.read())


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    s = Server(tmp_path_factory.mktemp("web-data"))
    s.start()
    yield s
    s.stop()


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=str(CHROMIUM), args=["--no-sandbox"])
        yield b
        b.close()


@pytest.fixture
def page(browser: Browser, server: Server) -> Iterator[Page]:
    yield from browse(browser, server, viewport={"width": 1280, "height": 860})


def browse(browser: Browser, server: Server, refuse: str | None = None,
           **context: Any) -> Iterator[Page]:
    """The page opened in a fresh context (``context``: Playwright's options), closed after;
    a script error on it fails the test. ``refuse``: a URL pattern the network refuses."""
    ctx = browser.new_context(**context)
    ctx.set_default_timeout(WAIT)
    if refuse is not None:
        ctx.route(refuse, lambda route: route.abort())
    pg = ctx.new_page()
    errors: list[str] = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    open_page(pg, server.url)
    yield pg
    ctx.close()
    assert not errors, f"the page's script failed: {errors}"


def open_page(pg: Page, url: str) -> None:
    pg.goto(url)
    pg.wait_for_selector("body[data-ready='1']")


def shot(pg: Page, tab: str) -> None:
    if SHOTS is None:
        return
    SHOTS.mkdir(parents=True, exist_ok=True)
    path = SHOTS / f"{tab}.png"
    pg.screenshot(path=str(path), full_page=True)
    try:  # a third of the bytes in 128 colours, as good to read (Pillow: the plot extra)
        from PIL import Image
    except ImportError:
        return
    with Image.open(path) as image:
        small = image.convert("RGB").quantize(colors=128, dither=Image.Dither.NONE)
    small.save(path, optimize=True)


def classic_text(server: Server) -> str:
    text: str = server.get("/api/rulebooks/classic")["text"]
    return text


def where(text: str, needle: str) -> tuple[int, int]:
    """1-based line and column of ``needle`` in ``text``."""
    for number, line in enumerate(text.split("\n"), 1):
        if needle in line:
            return number, line.index(needle) + 1
    raise AssertionError(f"{needle!r} not in the text")


# --------------------------------------------------------------------------- edit, rules


def test_a_broken_key_shows_its_line_and_column_and_the_fix_changes_the_rules_sheet(
        page: Page, server: Server) -> None:
    text = classic_text(server)
    assert "hand_size: 7" in text
    page.fill("#code", text)  # the code editor's text (tests/test_web_page_editor.py)
    page.wait_for_selector("#edit-status.good")
    page.click("#tab-rules")
    page.wait_for_selector("#rules-sheet h1")
    before = page.inner_text("#rules-sheet")
    assert "7 cards" in before

    page.click("#tab-edit")
    broken = text.replace("hand_size: 7", "hand_sise: 7")
    line, column = where(broken, "hand_sise")
    page.fill("#code", broken)
    problem = page.wait_for_selector("#problems .problem")
    assert problem.get_attribute("data-line") == str(line)
    assert problem.inner_text().startswith(f"{line}:{column} ")
    assert "hand_sise" in problem.inner_text()

    page.fill("#code", text.replace("hand_size: 7", "hand_size: 5"))
    page.wait_for_selector("#edit-status.good")
    assert page.locator("#problems .problem").count() == 0
    page.click("#tab-rules")
    page.wait_for_function(
        "document.querySelector('#rules-sheet').innerText.includes('5 cards')")
    after = page.inner_text("#rules-sheet")
    assert after != before and "7 cards" not in after
    page.wait_for_function("document.querySelector('#diff').innerText.includes('hand_size')")
    assert re.search(r"hand_size: 7 → 5", page.inner_text("#diff"))
    shot(page, "rules")

    # The editor's text is kept in the browser: a reload shows it again.
    open_page(page, server.url)
    assert "hand_size: 5" in page.evaluate("editor.value")


# --------------------------------------------------------------------------- simulate, compare


def start_simulation(page: Page, games: int, **fields: str) -> None:
    """Simulate classic for ``games`` games, other fields (``players``, ``seed``) as given."""
    page.click("#tab-simulate")
    page.select_option("#sim-rulebook", "classic")
    page.fill("#sim-games", str(games))
    for name, value in fields.items():
        page.fill(f"#sim-{name}", value)
    page.click("#sim-run")


def test_a_200_game_simulation_draws_its_chart(page: Page) -> None:
    start_simulation(page, 200, players="4", seed="1")
    page.wait_for_selector("#sim-chart rect.bar")
    # Four seats: a bar, a point and an interval each; the fair line; the histogram's bars.
    assert page.locator("#sim-chart circle.point").count() == 4
    assert page.locator("#sim-chart line.fair").count() == 1
    assert page.locator("#sim-chart rect.bar").count() > 4
    assert page.inner_text("#sim-status") == "done: 200 rounds"
    # Round ticks, equally spaced, from 0; each axis says what it measures.
    for part in ("rates", "lengths"):
        ticks = texts(page, f"#sim-chart g.{part} text.tick.y")
        assert_nice([float(t.rstrip("%").replace(",", "")) for t in ticks], start=0)
    assert_nice([float(t) for t in texts(page, "#sim-chart g.lengths text.tick.x")])
    assert texts(page, "#sim-chart text.axis-label") == [
        "rounds won (%)", "seat (its win rate below)", "rounds", "turns in the round"]
    assert page.evaluate("document.querySelector('#sim-progress').value") == 200
    table = page.inner_text("#sim-table")
    assert "200 rounds, 4 players, seed 1" in table and "seat 3 wins" in table
    assert "fair 25.0%" in table
    # The first player's advantage is a difference of rates: percentage points.
    assert re.search(r"advantage [+-]\d+\.\d pts \([+-]\d+\.\d pts – [+-]\d+\.\d pts\)", table)
    shot(page, "simulate")


def texts(page: Page, selector: str) -> list[str]:
    return [(t or "").strip() for t in page.locator(selector).all_text_contents()]


def assert_nice(ticks: list[float], start: float | None = None) -> None:
    """Ticks equally spaced on a step of 1, 2 or 5 × 10^k, each a multiple of it."""
    assert len(ticks) >= 2, ticks
    step = ticks[1] - ticks[0]
    mantissa = step / 10 ** math.floor(math.log10(step))
    assert round(mantissa, 9) in (1, 2, 5), ticks
    assert all(math.isclose(b - a, step) for a, b in zip(ticks, ticks[1:], strict=False)), ticks
    assert all(math.isclose(t / step, round(t / step), abs_tol=1e-9) for t in ticks), ticks
    assert start is None or ticks[0] == start, ticks


@pytest.mark.parametrize("lo, hi, count, least, ticks", [
    (0, 38, 5, 0, [0, 10, 20, 30, 40]),      # not 0/9.5/19/28.5/38
    (0, 42, 5, 0, [0, 10, 20, 30, 40, 50]),
    (0, 0.3, 4, 0, [0, 0.1, 0.2, 0.3]),      # 0.1 × 3 reads 0.3
    (-3.2, 7.9, 7, 0, [-4, -2, 0, 2, 4, 6, 8]),
    (0, 3, 5, 1, [0, 1, 2, 3]),              # counts: whole steps only
    (17, 171, 8, 1, [0, 20, 40, 60, 80, 100, 120, 140, 160, 180]),
    (0, 0, 5, 0, [0, 0.2, 0.4, 0.6, 0.8, 1]),  # one value: an axis above it
])
def test_the_charts_tick_rule(page: Page, lo: float, hi: float, count: int, least: int,
                              ticks: list[float]) -> None:
    assert page.evaluate(f"niceTicks({lo}, {hi}, {count}, {least})") == ticks
    assert_nice(ticks)


def test_a_bad_setting_is_said_in_the_pages_words(page: Page) -> None:
    start_simulation(page, 10, set="hand_size=50")  # the Settings field
    page.wait_for_selector("#sim-status.bad")
    said = page.inner_text("#sim-status")
    assert "Settings: hand_size=50: 50 is greater than the maximum" in said, said
    assert "--" not in said


def test_a_long_simulation_can_be_cancelled(page: Page) -> None:
    start_simulation(page, 100000)
    page.wait_for_selector("#sim-cancel:not([disabled])")
    page.click("#sim-cancel")
    page.wait_for_function("document.querySelector('#sim-status').textContent === 'cancelled'")
    assert page.is_enabled("#sim-run")
    assert page.is_hidden("#sim-result")


def test_compare_shows_two_variants_and_their_paired_differences(page: Page) -> None:
    page.click("#tab-compare")
    page.select_option("#cmpa-rulebook", "classic")
    page.select_option("#cmpb-rulebook", "classic")
    page.check("#cmpb-house input[value='stacking']")
    page.fill("#cmp-games", "300")
    page.fill("#cmp-players", "4")
    page.click("#cmp-run")
    page.wait_for_selector("#cmp-table tbody tr")
    head = page.inner_text("#cmp-table thead")
    assert "classic + stacking" in head and "classic + stacking − classic" in head
    assert "round length" in page.inner_text("#cmp-table tbody")
    assert page.locator("#cmp-chart circle.point").count() >= 5
    # 300 deals, each played under both variants: 600 rounds, said as such.
    assert page.inner_text("#cmp-status") == "done: 600 rounds (300 deals × 2 variants)"
    assert "300 deals × 2 variants, 4 players" in head
    # A numeric axis per unit, through 0, labelled with the unit.
    labels = texts(page, "#cmp-chart text.axis-label")
    assert "difference (percentage points)" in labels and "difference (turns)" in labels
    for unit in ("%", "turns", "points"):
        ticks = texts(page, f"#cmp-chart g.diffs[data-unit='{unit}'] text.tick")
        assert "0" in ticks, (unit, ticks)
        assert_nice([float(t.replace(",", "")) for t in ticks])
    shot(page, "compare")


# --------------------------------------------------------------------------- play


def new_game(page: Page, seed: int = PLAY_SEED, humans: str = "0",
             rulebook: str = "classic") -> str:
    page.click("#tab-play")
    page.select_option("#play-rulebook", rulebook)
    page.fill("#play-players", "3")
    page.fill("#play-humans", humans)
    page.fill("#play-agents", "greedy")
    page.fill("#play-seed", str(seed))
    page.check("#play-round")
    page.click("#play-new")
    page.wait_for_selector("#game[data-version]")
    match = re.search(r"#play=(\S+)$", page.url)
    assert match, page.url
    return match.group(1)


def hand(page: Page) -> list[str]:
    return [c.get_attribute("data-name") or "" for c in page.query_selector_all("#hand .card")]


def status(page: Page) -> str:
    return page.inner_text("#game-status")


def step(page: Page, chosen: list[str]) -> None:
    """One answer as a player would give it: a colour when asked (the first offered), else a
    wild from the hand, else a card, else whatever comes first (draw, pass, go on)."""
    version = page.get_attribute("#game", "data-version")
    if page.is_visible("#pass-screen"):
        page.click("#pass-ok")
        page.wait_for_function(
            f"document.querySelector('#game').dataset.version !== '{version}'")
        return
    colours = page.query_selector_all("#options button.colour")
    wild = page.query_selector("#hand .card.playable.wild")
    plays = page.query_selector_all("#hand .card.playable")
    if colours:
        chosen.append(colours[0].inner_text().split()[-1])
        colours[0].click()
    elif wild is not None:
        wild.click()
    elif plays:
        plays[0].click()
    else:
        page.click("#options button >> nth=0")
    page.wait_for_function(
        f"document.querySelector('#game').dataset.version !== '{version}'")


def play_until(page: Page, chosen: list[str], done: Any, limit: int = 400) -> None:
    for _ in range(limit):
        if done():
            return
        step(page, chosen)
    raise AssertionError(f"still playing after {limit} answers: {status(page)}")


def test_a_round_against_agents_to_its_end_with_a_wild_colour_choice(page: Page) -> None:
    new_game(page)
    assert page.locator("#hand .card").count() == 7
    assert page.locator("#options button").count() >= 1
    assert "seat 1" in page.inner_text("#table-view")
    chosen: list[str] = []
    play_until(page, chosen, lambda: page.is_visible("#options button.colour"))
    colours = page.locator("#options button.colour").all_inner_texts()
    assert [c.split()[-1] for c in colours] == ["red", "yellow", "green", "blue"]
    shot(page, "play")
    step(page, chosen)
    assert chosen == ["red"]
    assert re.search(r"seat 0 chooses red", page.inner_text("#game-log"))
    play_until(page, chosen, lambda: page.get_attribute("#game-status", "data-status") != "playing")
    assert status(page).startswith("Game over")
    assert page.locator("#options button").count() == 0
    assert re.search(r"seat(\(s\))? \d", status(page))


def test_a_reload_mid_game_goes_on_with_the_same_hand(page: Page, server: Server) -> None:
    new_game(page)
    chosen: list[str] = []
    for _ in range(3):
        step(page, chosen)
    before, url = hand(page), page.url
    assert before
    open_page(page, url)  # a reload: the game comes back from the URL
    page.wait_for_selector("#hand .card")
    assert hand(page) == before
    open_page(page, server.url)  # no game in the URL: the browser kept its id
    page.wait_for_selector("#hand .card")
    assert page.url == url and hand(page) == before
    step(page, chosen)
    assert page.get_attribute("#game", "data-version") is not None


def at_step(page: Page, prefix: str) -> None:
    page.wait_for_function(
        f"document.querySelector('#replay-pos').textContent.startsWith({prefix!r})")


def test_two_tabs_on_one_game_the_late_answer_shows_the_table_as_it_is(page: Page) -> None:
    new_game(page)
    other = page.context.new_page()
    open_page(other, page.url)
    other.wait_for_selector("#hand .card")
    step(page, [])
    step(other, [])  # answers an old version: refused, and the table is shown as it is now
    assert other.is_visible("#game-notice")
    assert "Another tab" in other.inner_text("#game-notice")
    assert other.get_attribute("#game", "data-version") == page.get_attribute(
        "#game", "data-version")
    assert hand(other) == hand(page)


def test_hot_seat_hides_the_table_until_the_seat_has_the_screen(page: Page) -> None:
    new_game(page, humans="0,1")
    seen: set[str] = set()
    for _ in range(60):
        if page.is_visible("#pass-screen"):
            found = re.search(r"seat (\d+)", page.inner_text("#pass-text"))
            assert found and found.group(1) in ("0", "1")
            seen.add(found.group(1))
            # No seat's hand is on the page behind the cover.
            assert page.locator("#hand .card").count() == 0
            if seen == {"0", "1"}:
                break
        step(page, [])
    assert seen == {"0", "1"}, seen
    page.click("#pass-ok")
    page.wait_for_selector("#hand .card")
    assert page.is_hidden("#pass-screen")


def test_replay_steps_through_a_finished_game_and_a_record_file(
        page: Page, server: Server, tmp_path: Path) -> None:
    # A round of agents alone, over as soon as it is made (no other test's game needed).
    made = server.post("/api/games", {"rulebook": "classic", "players": 3, "humans": [],
                                      "seed": 5, "round": True})
    assert made["status"] == "over", made["status"]
    game = made["game"]
    playing = server.post("/api/games", {"rulebook": "classic", "players": 3, "humans": [0],
                                         "seed": 5, "round": True})["game"]
    page.click("#tab-replay")
    page.select_option("#replay-game", game)
    # A game being played is not offered: its other seats' views come when it is over.
    listed = page.eval_on_selector_all("#replay-game option", "os => os.map(o => o.value)")
    assert game in listed and playing not in listed, listed
    page.click("#replay-open")
    at_step(page, "step 0 of")
    total = int(page.inner_text("#replay-pos").split()[-1])
    assert total > 10
    page.click("#replay-next")
    at_step(page, "step 1 of")
    assert page.inner_text("#replay-action").startswith("Step 1:")
    page.click("#replay-last")
    at_step(page, f"step {total} of {total}")
    page.click("#replay-prev")
    at_step(page, f"step {total - 1} of")
    shot(page, "replay")
    with urllib.request.urlopen(f"{server.url}api/games/{game}/record", timeout=30) as answer:
        record = tmp_path / "game.jsonl"
        record.write_bytes(answer.read())
    page.set_input_files("#replay-file", str(record))
    at_step(page, f"step 0 of {total}")
    assert page.inner_text("#replay-action") == "The deal."
    assert page.locator("#replay-view .seat").count() == 3
    # A record edited by hand is refused with the record's own one-line message.
    lines = record.read_text(encoding="utf-8").splitlines()
    entry = json.loads(lines[3])
    entry["events"] = [*entry.get("events", []), "seat 0 wins everything"]
    lines[3] = json.dumps(entry)
    tampered = tmp_path / "tampered.jsonl"
    tampered.write_text("\n".join(lines) + "\n", encoding="utf-8")
    page.set_input_files("#replay-file", str(tampered))
    page.wait_for_selector("#replay-action.bad")
    refused = page.inner_text("#replay-action")
    assert refused.startswith("record:4:") and "was changed" in refused, refused


def test_a_server_restart_mid_game_goes_on(page: Page, server: Server) -> None:
    # Last in the module: the server is a new process afterwards (same port, same data).
    new_game(page)
    assert page.is_hidden("#game-record")  # the record (the seed, every hand): at the end
    chosen: list[str] = []
    for _ in range(2):
        step(page, chosen)
    before, url = hand(page), page.url
    server.restart()
    open_page(page, url)
    page.wait_for_selector("#hand .card")
    assert hand(page) == before
    play_until(page, chosen, lambda: page.get_attribute("#game-status", "data-status") != "playing")
    assert status(page).startswith("Game over")
    assert page.is_visible("#game-record")
