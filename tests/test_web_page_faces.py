"""Cards drawn as cards, in Debian's chromium (the fixtures of tests/test_web_page.py,
skipped as it is): every rank of the shipped rulebooks with wild and special ranks gets a
short face (digits, +N, the symbols, the rank's own words without the "wild" the card's
black already says) that fits inside its oval; a picture per rulebook with
``UNO_RULES_SCREENSHOTS=1``."""

from __future__ import annotations

import pytest

# The fixtures (browser, page, server) are found by name: each test's parameters name them.
from test_web_page import SHOTS, Page, Server, browser, open_page, page, server  # noqa: F401

import uno_rules
from uno_rules.table.screen import label

RULEBOOKS = ("classic", "dos", "all_wild", "attack", "triple_play", "flex", "no_mercy")
DRAW = """(ranks) => {
  const box = document.createElement("div");
  box.id = "faces-test";
  box.style.cssText = "position:fixed;top:0;left:0;z-index:99;background:#fff;" +
    "display:flex;flex-wrap:wrap;gap:4px;padding:4px";
  for (const rank of ranks) box.append(cardEl({ name: rank, rank, colour: null, css: null }));
  document.body.append(box);
  return [...box.querySelectorAll(".card")].map((c) => {
    const oval = c.querySelector(".oval"), r = c.querySelector(".rank");
    return { text: r.textContent, corner: c.querySelector(".corner").textContent,
             fits: r.getBoundingClientRect().width <= oval.getBoundingClientRect().width + 0.5 };
  });
}"""


@pytest.mark.parametrize("name", RULEBOOKS)
def test_every_rank_has_a_short_face_that_fits(page: Page, server: Server,  # noqa: F811
                                               name: str) -> None:
    ranks = [label(r) for r in uno_rules.load_rulebook(name).ranks]
    open_page(page, server.url)
    faces = page.evaluate(DRAW, ranks)
    for rank, face in zip(ranks, faces, strict=True):
        assert face["fits"], (rank, face)
        assert face["text"] == "WILD" if rank == "wild" else not face["text"].startswith(
            "WILD"), (rank, face)
        assert "_" not in face["text"] and face["corner"], (rank, face)
    if SHOTS is not None:
        SHOTS.mkdir(parents=True, exist_ok=True)
        page.locator("#faces-test").screenshot(path=str(SHOTS / f"faces-{name}.png"))


def test_dos_wilds_read_as_their_rank(page: Page, server: Server) -> None:  # noqa: F811
    open_page(page, server.url)
    faces = page.evaluate(DRAW, ["wild dos", "wild number", "wild draw four", "wild skip two",
                                 "draw two", "7"])
    assert [f["text"] for f in faces] == ["DOS", "#", "+4", "⊘ 2", "+2", "7"]
