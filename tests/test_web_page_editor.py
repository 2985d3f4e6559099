"""The Edit tab's code editor in Debian's chromium (the fixtures and helpers of
tests/test_web_page.py, skipped as it is): CodeMirror 6 from the committed bundle with a
typo marked at its line, the schema's keys completed, a file opened and saved, a share link
that reproduces the rulebook in another browser; and the plain textarea when the bundle
does not load (its gutter, its key list, Escape then Tab)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

# The fixtures (browser, page, server) are found by name: each test's parameters name them.
from test_web_page import (  # noqa: F401
    WAIT,
    Browser,
    Page,
    Server,
    browse,
    browser,
    classic_text,
    open_page,
    page,
    server,
    shot,
    where,
)


def text_of(pg: Page) -> str:
    """The editor's whole text (the code editor's or the textarea's: app.js's ``editor``)."""
    text: str = pg.evaluate("editor.value")
    return text


def test_the_code_editor_marks_a_typo_at_its_line_and_goes_there(
        page: Page, server: Server) -> None:  # noqa: F811
    assert page.locator(".cm-editor #code").count() == 1
    assert page.is_hidden("#editor") and page.is_hidden("#gutter")
    broken = classic_text(server).replace("hand_size: 7", "hand_sise: 7")
    line, column = where(broken, "hand_sise")
    page.fill("#code", broken)
    problem = page.wait_for_selector("#problems .problem")
    assert problem.inner_text().startswith(f"{line}:{column} ")
    # the unknown key underlined, and nothing else
    page.wait_for_selector(".cm-lintRange-error")
    assert page.locator(".cm-lintRange-error").all_inner_texts() == ["hand_sise"]
    problem.click()  # the cursor goes to the problem's line and column
    assert page.evaluate("editor.selectionStart") == (
        sum(len(x) + 1 for x in broken.split("\n")[:line - 1]) + column - 1)
    assert page.inner_text(".cm-activeLineGutter").strip() == str(line)
    assert page.locator(".cm-activeLine .cm-lintRange-error").inner_text() == "hand_sise"
    assert page.locator(".cm-gutter-lint .cm-lint-marker-error").count() == 1
    shot(page, "edit")
    page.keyboard.press("Control+z")  # undo history: the typo is typed over again
    page.keyboard.press("Control+y")
    assert text_of(page) == broken
    page.fill("#code", broken.replace("hand_sise", "hand_size"))
    page.wait_for_selector("#edit-status.good")
    assert page.locator(".cm-lintRange-error").count() == 0


def test_the_code_editor_highlights_folds_and_searches(page: Page) -> None:  # noqa: F811
    page.fill("#code", "name: mine\nsettings:\n  hand_size: 5\n  uno_penalty: 4\n")
    assert page.locator("#code .cm-line span").count() > 3  # YAML's keys and values coloured
    page.click(".cm-foldGutter span[title='Fold line'] >> nth=0")
    page.wait_for_selector(".cm-foldPlaceholder")
    assert "hand_size" not in page.inner_text("#code")  # folded away, still in the text
    assert "hand_size: 5" in text_of(page)
    page.click(".cm-foldPlaceholder")
    page.focus("#code")
    page.keyboard.press("Control+f")
    page.wait_for_selector(".cm-search input[name='search']")
    page.keyboard.type("penalty")
    page.keyboard.press("Enter")
    page.wait_for_selector(".cm-searchMatch-selected")
    assert page.inner_text(".cm-searchMatch-selected") == "penalty"


def test_the_code_editor_completes_the_keys_the_schema_allows(page: Page) -> None:  # noqa: F811
    page.fill("#code", "name: mine\nextends: classic\nsettings:\n  hand_size: 5\n")
    page.focus("#code")
    page.keyboard.press("Control+End")
    page.keyboard.type("  uno_p")
    page.wait_for_selector(".cm-tooltip-autocomplete li")
    offered = page.locator(".cm-tooltip-autocomplete .cm-completionLabel").all_inner_texts()
    assert offered == ["uno_penalty"]
    assert "UNO" in page.inner_text(".cm-tooltip-autocomplete li")  # the setting's description
    shot(page, "edit-complete")
    # CodeMirror takes no Tab for the first 75 ms after the list opens or changes (its
    # interactionDelay: a fast typist's Tab indents): on a loaded machine the Tab came within
    # them and indented. Waited for here from the list's last change, in the page's own time.
    page.wait_for_function("CM.completionStatus(editor.view.state) === 'active'")
    page.evaluate("new Promise((done) => setTimeout(done, 150))")
    page.keyboard.press("Tab")  # taken
    page.keyboard.type("4")
    assert text_of(page).endswith("  hand_size: 5\n  uno_penalty: 4")
    page.wait_for_selector("#edit-status.good")


def test_enter_keeps_the_indentation_one_step_more_after_a_key(page: Page) -> None:  # noqa: F811
    page.fill("#code", "name: mine\nsettings:")
    page.focus("#code")
    page.keyboard.press("Control+End")
    page.keyboard.press("Enter")
    page.keyboard.type("hand_size: 5")
    page.keyboard.press("Enter")
    page.keyboard.type("uno_penalty: 4")
    assert text_of(page) == "name: mine\nsettings:\n  hand_size: 5\n  uno_penalty: 4"


def test_escape_then_tab_leaves_the_code_editor_and_tab_alone_indents(page: Page) -> None:  # noqa: F811
    page.fill("#code", "name: mine\n")
    page.focus("#code")
    page.keyboard.press("Control+End")
    page.keyboard.press("Tab")
    assert text_of(page) == "name: mine\n  "
    assert page.evaluate("document.activeElement.id") == "code"
    page.keyboard.press("Escape")
    page.keyboard.press("Tab")
    assert text_of(page) == "name: mine\n  "
    assert page.evaluate("document.activeElement.id") != "code"
    page.keyboard.press("Shift+Tab")
    assert page.evaluate("document.activeElement.id") == "code"
    page.keyboard.press("Tab")  # back in the editor: Tab indents again
    assert text_of(page) == "name: mine\n    "


def test_a_file_opened_into_the_editor_and_saved_back(page: Page, tmp_path: Path) -> None:  # noqa: F811
    mine = "name: mine\nextends: classic\nsettings:\n  hand_size: 5\n"
    source = tmp_path / "mine.yaml"
    source.write_text(mine, encoding="utf-8")
    page.set_input_files("#edit-open", str(source))
    page.wait_for_function("editor.value.startsWith('name: mine')")
    assert text_of(page) == mine
    page.wait_for_selector("#edit-status.good")
    page.fill("#code", mine.replace("hand_size: 5", "hand_size: 6"))
    with page.expect_download() as info:
        page.click("#edit-save")
    download = info.value
    assert download.suggested_filename == "mine.yaml"  # named after its `name:`
    saved = tmp_path / "saved.yaml"
    download.save_as(saved)
    assert saved.read_text(encoding="utf-8") == mine.replace("hand_size: 5", "hand_size: 6")


def test_a_share_link_opened_in_another_browser_reproduces_the_rulebook(
        page: Page, browser: Browser, server: Server) -> None:  # noqa: F811
    text = classic_text(server).replace("hand_size: 7", "hand_size: 5") + "# shared: é ✓\n"
    page.fill("#code", text)
    page.click("#edit-share")
    page.wait_for_selector("#share-row:not([hidden])")
    link = page.input_value("#share-link")
    assert link.startswith(f"{server.url}static/index.html#edit=")
    assert "hand_size" not in link  # compressed and coded, not the text itself
    assert len(link) < len(text)
    other = browser.new_context()  # a fresh browser: no storage shared with the first
    other.set_default_timeout(WAIT)
    try:
        pg = other.new_page()
        open_page(pg, link)
        assert text_of(pg) == text
        assert pg.get_attribute("#tab-edit", "aria-selected") == "true"
        assert pg.url.endswith("#edit")  # the text is kept; a reload does not bring the link back
        pg.wait_for_selector("#edit-status.good")
        open_page(pg, pg.url)
        assert text_of(pg) == text
    finally:
        other.close()


def test_a_damaged_share_link_says_so_and_keeps_the_text(page: Page, server: Server) -> None:  # noqa: F811
    before = text_of(page)
    again = page.context.new_page()  # the same browser's storage, a link opened afresh
    open_page(again, f"{server.url}static/index.html#edit=not-a-rulebook")
    assert "damaged" in again.inner_text("#toast")
    assert text_of(again) == before


# --------------------------------------------------------------------------- without the bundle


@pytest.fixture
def plain_page(browser: Browser, server: Server) -> Iterator[Page]:  # noqa: F811
    """The page with its code editor's bundle refused: the textarea must do."""
    yield from browse(browser, server, viewport={"width": 1280, "height": 860},
                      refuse="**/vendor/editor.js")


def test_without_the_bundle_the_textarea_marks_lines_and_completes_keys(
        plain_page: Page, server: Server) -> None:  # noqa: F811
    page = plain_page  # noqa: F811
    assert page.locator(".cm-editor").count() == 0 and page.is_visible("#editor")
    broken = classic_text(server).replace("hand_size: 7", "hand_sise: 7")
    line, column = where(broken, "hand_sise")
    page.fill("#editor", broken)
    problem = page.wait_for_selector("#problems .problem")
    assert problem.get_attribute("data-line") == str(line)
    assert page.inner_text("#gutter .bad") == str(line)
    problem.click()
    offset = sum(len(x) + 1 for x in broken.split("\n")[:line - 1]) + column - 1
    assert page.evaluate("document.querySelector('#editor').selectionStart") == offset

    page.fill("#editor", "name: mine\nextends: classic\nsettings:\n  hand_size: 5\n")
    page.focus("#editor")
    page.keyboard.press("Control+End")
    page.keyboard.type("  uno_p")
    page.wait_for_selector("#completion li")
    assert page.locator("#completion li b").all_inner_texts() == ["uno_penalty"]
    page.keyboard.press("Tab")
    page.keyboard.type("4")
    assert page.input_value("#editor").endswith("  hand_size: 5\n  uno_penalty: 4")
    page.wait_for_selector("#edit-status.good")


def test_without_the_bundle_escape_then_tab_leaves_the_textarea(plain_page: Page) -> None:
    page = plain_page  # noqa: F811
    page.fill("#editor", "name: mine\n")
    page.focus("#editor")
    page.keyboard.press("Control+End")
    page.keyboard.press("Tab")
    assert page.input_value("#editor") == "name: mine\n  "
    page.keyboard.press("Escape")
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.id") != "editor"
    assert page.input_value("#editor") == "name: mine\n  "
