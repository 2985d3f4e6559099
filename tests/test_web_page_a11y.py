"""The page for everyone, in Debian's chromium (the fixtures of tests/test_web_page.py, skipped
as it is): axe-core finds no serious or critical WCAG 2.1 AA violation on any tab, a game
in progress and a round's end included; on a 390 x 844 phone every tab fits the width and
Play's options show without scrolling; a round is played by the keyboard alone, focus kept
on the next thing to press, a live region saying what the agents did and what is asked.

axe-core comes from the npm registry (``npm pack``, pinned below) into a cache folder
(``UNO_RULES_AXE_DIR``, else ~/.cache/uno-rules); .ci/run installs npm. Without npm and
without the cached file the axe tests fail saying so: they never skip."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import tarfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import test_web_page as web  # skips the module without a browser

# The fixtures (browser, page, server) are found by name: each test's parameters name them.
from test_web_page import browser, page, server  # noqa: F401

AXE_VERSION = "4.11.0"
PHONE = {"width": 390, "height": 844}
TABS = ["edit", "rules", "simulate", "compare", "play", "replay"]


def axe_file() -> Path:
    """axe.min.js of AXE_VERSION, fetched once with ``npm pack`` into the cache folder."""
    cache = Path(os.environ.get("UNO_RULES_AXE_DIR")
                 or Path.home() / ".cache" / "uno-rules") / f"axe-core-{AXE_VERSION}"
    script = cache / "axe.min.js"
    if script.exists():
        return script
    npm = shutil.which("npm")
    if npm is None:
        pytest.fail(f"axe-core {AXE_VERSION} is not in {cache} and npm is missing "
                    "(apt-get install npm; .ci/run does)", pytrace=False)
    cache.mkdir(parents=True, exist_ok=True)
    done = subprocess.run([npm, "pack", f"axe-core@{AXE_VERSION}", "--pack-destination",
                           str(cache)], capture_output=True, text=True, timeout=300)
    packed = cache / f"axe-core-{AXE_VERSION}.tgz"
    if done.returncode != 0 or not packed.exists():
        pytest.fail(f"npm pack axe-core@{AXE_VERSION} failed: {done.stderr.strip()[-300:]}",
                    pytrace=False)
    with tarfile.open(packed) as tar:
        member = tar.extractfile("package/axe.min.js")
        assert member is not None
        partial = cache / "axe.min.js.part"
        partial.write_bytes(member.read())
    partial.replace(script)  # whole or not at all: another run may read it
    return script


@pytest.fixture(scope="module")
def axe() -> str:
    return axe_file().read_text(encoding="utf-8")


def violations(pg: web.Page, axe_source: str) -> list[str]:
    """axe-core's serious and critical WCAG 2.0/2.1 A and AA violations on the page now."""
    if not pg.evaluate("typeof window.axe !== 'undefined'"):
        pg.add_script_tag(content=axe_source)
    found: list[dict[str, Any]] = pg.evaluate(
        """async () => (await axe.run(document, {runOnly: {type: 'tag', values:
             ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice']}})).violations""")
    return [f"{v['id']} ({v['impact']}): {v['help']}: "
            + "; ".join(n["target"][0] + " " + n.get("failureSummary", "")[:160]
                        for n in v["nodes"][:4])
            for v in found if v["impact"] in ("serious", "critical")]


def assert_clean(pg: web.Page, axe_source: str, where: str) -> None:
    found = violations(pg, axe_source)
    assert not found, f"{where}: " + "\n".join(found)


@pytest.fixture
def phone(browser: web.Browser, server: web.Server) -> Iterator[web.Page]:  # noqa: F811
    yield from web.browse(browser, server, viewport=PHONE, has_touch=True, is_mobile=True)


def fill_tabs(pg: web.Page) -> None:
    """Something on each tab worth checking: a simulation's chart, a comparison, a record."""
    web.start_simulation(pg, 40)
    pg.wait_for_selector("#sim-chart rect.bar")
    pg.click("#tab-compare")
    pg.select_option("#cmpa-rulebook", "classic")
    pg.select_option("#cmpb-rulebook", "classic")
    pg.fill("#cmp-games", "40")
    pg.click("#cmp-run")
    pg.wait_for_selector("#cmp-table tbody tr")


def open_replay(pg: web.Page, server: web.Server) -> None:  # noqa: F811
    made = server.post("/api/games", {"rulebook": "classic", "players": 3, "humans": [],
                                      "seed": 5, "round": True})
    pg.click("#tab-replay")
    pg.select_option("#replay-game", made["game"])
    pg.click("#replay-open")
    pg.wait_for_function("document.querySelector('#replay-pos').textContent.startsWith('step 0')")
    pg.click("#replay-next")
    pg.wait_for_function("document.querySelector('#replay-pos').textContent.startsWith('step 1')")


# --------------------------------------------------------------------------- axe-core


@pytest.mark.parametrize("width", [1280, 390])
def test_axe_finds_no_serious_violation_on_any_tab_nor_in_a_game(
        browser: web.Browser, server: web.Server, axe: str, width: int) -> None:  # noqa: F811
    context = browser.new_context(viewport={"width": width, "height": 844})
    context.set_default_timeout(web.WAIT)
    pg = context.new_page()
    try:
        web.open_page(pg, server.url)
        editor_text = server.get("/api/rulebooks/classic")["text"]
        pg.fill("#code", editor_text.replace("hand_size: 7", "hand_sise: 7"))
        pg.wait_for_selector("#problems .problem")  # a problem listed and marked
        assert_clean(pg, axe, "edit")
        pg.click("#tab-rules")
        pg.wait_for_selector("#rules-status")
        assert_clean(pg, axe, "rules")
        fill_tabs(pg)
        assert_clean(pg, axe, "compare")
        pg.click("#tab-simulate")
        assert_clean(pg, axe, "simulate")
        web.new_game(pg)  # a game in progress: the hand, the options, the table
        assert_clean(pg, axe, "play")
        chosen: list[str] = []
        for _ in range(400):
            if pg.is_visible("#options button.colour"):
                break
            web.step(pg, chosen)
        assert pg.is_visible("#options button.colour")  # the coloured buttons, checked too
        assert_clean(pg, axe, "play: choose a colour")
        open_replay(pg, server)
        assert_clean(pg, axe, "replay")
    finally:
        context.close()


@pytest.mark.parametrize("width", [1280, 390])
def test_axe_finds_no_serious_violation_at_a_round_end(
        browser: web.Browser, server: web.Server, axe: str, width: int) -> None:  # noqa: F811
    state = server.post("/api/games", {"rulebook": "classic", "players": 3, "humans": [0],
                                       "agents": "greedy", "seed": 7})
    for pg in web.browse(browser, server, viewport={"width": width, "height": 844}):
        web.open_page(pg, f"{server.url}#play={state['game']}")
        pg.wait_for_selector("#hand .card")
        for _ in range(400):
            if pg.is_visible("#round-end"):
                break
            web.step(pg, [])
        assert pg.is_visible("#next-round")
        assert_clean(pg, axe, f"round end at {width} px")
        if width == PHONE["width"]:
            assert not overflowing(pg), overflowing(pg)
            web.shot(pg, "phone-round-end")


def test_axe_finds_no_serious_violation_in_the_friends_views_on_a_phone(
        browser: web.Browser, server: web.Server, axe: str) -> None:  # noqa: F811
    made = server.post("/api/games", {"rulebook": "classic", "players": 2, "humans": [0, 1],
                                      "seed": 5, "round": True, "friends": True})
    game, token = made["game"], made["links"]["seats"]["0"]
    views = {"a seat's link": f"#play={game}&token={token}", "the public table": f"#play={game}"}
    for where, fragment in views.items():
        # Its own context, opened at the link (browse() would open the page first: the
        # link would then change only the hash, as no one opens a link).
        context = browser.new_context(viewport=PHONE, has_touch=True, is_mobile=True)
        context.set_default_timeout(web.WAIT)
        pg = context.new_page()
        try:
            web.open_page(pg, f"{server.url}static/index.html{fragment}")
            # A seat's link shows its hand, the public table says it is one.
            pg.wait_for_selector("#hand .card" if "token" in fragment else
                                   "#friends-panel:not([hidden])")
            assert_clean(pg, axe, f"friends, {where}, at 390 px")
            assert not overflowing(pg), (where, overflowing(pg))
        finally:
            context.close()


# --------------------------------------------------------------------------- phone


def overflowing(pg: web.Page) -> list[str]:
    """The visible controls of the shown tab (and the header) that reach past the viewport's
    width, and the page's own width if it scrolls sideways."""
    found: list[str] = pg.evaluate("""() => {
      const w = document.documentElement.clientWidth, out = [];
      if (document.documentElement.scrollWidth > w)
        out.push(`the page is ${document.documentElement.scrollWidth}px wide`);
      for (const n of document.querySelectorAll(
          'header button, .panel:not([hidden]) :is(button, input, select, textarea, summary, a)')) {
        const r = n.getBoundingClientRect();
        if (!r.width || !r.height || n.closest('[hidden]')) continue;
        if (r.left < 0 || r.right > w + 0.5) out.push(`${n.id || n.tagName} ${r.left}..${r.right}`);
      }
      return out;
    }""")
    return found


def small_targets(pg: web.Page) -> list[str]:
    """Tabs, buttons, menus and fields of the shown tab smaller than 44 x 44 px (WCAG 2.5.5's
    size; a checkbox's target is its label)."""
    found: list[str] = pg.evaluate("""() => {
      const out = [];
      for (const n of document.querySelectorAll('header button, .panel:not([hidden]) '
          + ':is(button, select, input:not([type=checkbox]):not([type=radio]), summary)')) {
        const r = n.getBoundingClientRect();
        if (!r.width || n.closest('[hidden]')) continue;
        const least = n.tagName === 'SUMMARY' ? 0 : 44;  // a summary spans its row
        if (r.width < least || r.height < 44)
          out.push(`${n.id || n.textContent} ${r.width}x${r.height}`);
      }
      return out;
    }""")
    return found


def test_on_a_phone_every_tab_fits_and_its_tabs_and_buttons_can_be_tapped(
        phone: web.Page, server: web.Server) -> None:  # noqa: F811
    fill_tabs(phone)
    open_replay(phone, server)
    for tab in TABS:
        phone.click(f"#tab-{tab}")
        assert phone.get_attribute(f"#tab-{tab}", "aria-selected") == "true"
        assert not overflowing(phone), (tab, overflowing(phone))
        assert not small_targets(phone), (tab, small_targets(phone))
        if tab == "simulate":
            web.shot(phone, "phone-simulate")
    # the charts keep a readable size: a region scrolled sideways, not shrunk to the width
    phone.click("#tab-simulate")
    chart = phone.locator("#sim-chart").bounding_box()
    assert chart is not None and chart["width"] >= 800


def test_on_a_phone_the_hand_and_the_options_show_without_scrolling(phone: web.Page) -> None:
    web.new_game(phone)
    phone.evaluate("window.scrollTo(0, 0)")
    chosen: list[str] = []
    for _ in range(6):
        for what in ("#hand .card >> nth=-1", "#options button >> nth=-1"):
            box = phone.locator(what).bounding_box()
            assert box is not None and box["y"] >= 0, what
            assert box["y"] + box["height"] <= PHONE["height"], (what, box)
        assert not overflowing(phone), overflowing(phone)
        assert not small_targets(phone), small_targets(phone)
        web.step(phone, chosen)
    web.shot(phone, "phone-play")


# --------------------------------------------------------------------------- keyboard


def focused(pg: web.Page) -> str:
    where: str = pg.evaluate("""() => { const a = document.activeElement;
      const box = a.closest('#hand, #options, #pass-screen, #round-end');
      return `${a.tagName} ${box ? box.id : '-'} ${a.textContent.trim().slice(0, 40)}`; }""")
    return where


def test_a_round_played_by_the_keyboard_alone_with_focus_and_announcements(
        page: web.Page) -> None:  # noqa: F811
    web.new_game(page)
    page.wait_for_function("document.querySelector('#game-live').textContent.includes('asked')")
    assert "seat 0" in page.inner_text("#game-live")
    for _ in range(400):
        if page.get_attribute("#game-status", "data-status") != "playing":
            break
        where = focused(page)
        # focus is on the next thing to press: a playable card, an option, "go on", "Next"
        assert re.match(r"BUTTON (hand|options|round-end|pass-screen) ", where), where
        if where.startswith("BUTTON hand"):
            assert page.evaluate("document.activeElement.classList.contains('playable')")
        version = page.get_attribute("#game", "data-version")
        page.keyboard.press("Enter")
        page.wait_for_function(
            f"document.querySelector('#game').dataset.version !== '{version}'")
        said = page.inner_text("#game-live")
        if page.get_attribute("#game-status", "data-status") == "playing":
            # what the agents did since, then the question; the log ends with the same lines
            log = page.locator("#game-log li").all_inner_texts()
            assert said.strip(), "nothing announced"
            if log and "seat 0" not in log[-1]:
                assert log[-1] in said, (log[-1], said)
    assert web.status(page).startswith("Game over")
    assert "Game over" in page.inner_text("#game-live")


def test_the_hand_is_buttons_and_tab_goes_through_them(page: web.Page) -> None:  # noqa: F811
    web.new_game(page)
    cards = page.locator("#hand .card")
    assert cards.count() == 7
    for i in range(7):
        card = cards.nth(i)
        assert card.evaluate("n => n.tagName") == "BUTTON"
        name = card.get_attribute("data-name") or ""
        assert name in (card.get_attribute("aria-label") or ""), name
    playable = page.locator("#hand .card.playable").count()
    assert page.locator("#hand .card[aria-disabled='true']").count() == 7 - playable


def test_focus_is_visible_on_every_kind_of_control(page: web.Page) -> None:  # noqa: F811
    for selector in ("#tab-simulate", "#start-load", "#code"):
        page.focus(selector)
        page.keyboard.press("Shift+Tab")
        page.keyboard.press("Tab")
        style = page.evaluate(  # the code editor's ring is around all of it, gutters too
            "() => { const s = getComputedStyle("
            " document.activeElement.closest('.cm-editor') || document.activeElement);"
            " return [s.outlineStyle, s.outlineWidth, s.boxShadow]; }")
        assert style[0] != "none" and style[1] != "0px" or style[2] != "none", (selector, style)


def test_the_arrow_keys_move_between_the_tabs(page: web.Page) -> None:  # noqa: F811
    page.focus("#tab-edit")
    page.keyboard.press("ArrowRight")
    assert page.evaluate("document.activeElement.id") == "tab-rules"
    assert page.get_attribute("#tab-rules", "aria-selected") == "true"
    assert page.is_visible("#panel-rules") and page.is_hidden("#panel-edit")
    page.keyboard.press("End")
    assert page.get_attribute("#tab-replay", "aria-selected") == "true"
    page.keyboard.press("ArrowRight")  # round to the first
    assert page.evaluate("document.activeElement.id") == "tab-edit"
    page.keyboard.press("ArrowLeft")
    assert page.evaluate("document.activeElement.id") == "tab-replay"


def test_hot_seat_cover_takes_the_focus_and_axe_finds_nothing_serious(
        page: web.Page, axe: str) -> None:  # noqa: F811
    web.new_game(page, humans="0,1")
    for _ in range(60):
        if page.is_visible("#pass-screen"):
            break
        web.step(page, [])
    assert page.is_visible("#pass-screen")
    assert page.evaluate("document.activeElement.id") == "pass-ok"
    assert_clean(page, axe, "hot-seat cover")
    page.keyboard.press("Enter")
    page.wait_for_selector("#pass-screen", state="hidden")
    assert focused(page).startswith(("BUTTON hand", "BUTTON options")), focused(page)
