"""Rules sheets (explain), variant diffs and starter rulebooks."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from click.testing import CliRunner

import uno_rules
from uno_rules.authoring import diff
from uno_rules.cli import cli
from uno_rules.effects import PRIMITIVES
from uno_rules.explain import NOTHING, SAY, describe, explain
from uno_rules.loader import check, shipped_names

runner = CliRunner()


def test_every_primitive_has_words() -> None:
    assert set(SAY) == set(PRIMITIVES)


@pytest.mark.parametrize("name", shipped_names())
def test_sheet_states_every_cards_effect(name: str) -> None:
    rb = uno_rules.load_rulebook(name)
    sheet = explain(rb)
    cards = sheet.split("## Cards")[1]
    for face in rb.faces:
        key = " ".join((rb.ranks[face.rank], *face.tags))
        assert re.search(rf"\*\*[^*]*\b{re.escape(key)}\b[^*]*\*\*", cards), key
        rule = rb.rules[face.id]
        if rule is not None and rule.effect is not None:
            text = describe(rb, rule.effect)
            assert text != NOTHING and text[1:] in cards, key
    for section in ("## Deck", "## Setup", "## Your turn", "## Winning and scoring"):
        assert section in sheet
    assert f"**{len(rb.deck)}**" in sheet


def test_sheet_sentences() -> None:
    classic = explain(uno_rules.load_rulebook("classic"))
    assert "- **draw_two**: The next player draws 2 cards, then the next player loses its " \
           "turn." in classic
    assert "if not, the next player draws 6 cards" in classic
    assert "Deal 7 cards" in classic and "first to 500 points" in classic
    lasso = explain(uno_rules.load_rulebook("ted_lasso"))
    assert "you and the chosen player hold a contest" in lasso
    assert "the loser draws 2 cards" in lasso
    teams = explain(uno_rules.load_rulebook("teams"))
    assert "your partner must play a card of the chosen colour" in teams
    assert "half their hand (rounded down)" in teams
    house = explain(uno_rules.load_rulebook("classic", house=["stacking", "jump_in"]))
    assert "Stacking:" in house and "Jump-in:" in house and "(with stacking, jump_in)" in house


def test_diff_in_rules_terms() -> None:
    classic, pokemon = uno_rules.load_rulebook("classic"), uno_rules.load_rulebook("pokemon")
    text = diff(classic, pokemon)
    assert "- added **snorlax**: 2 cards, colours wild, 50 points" in text
    assert "- changed **next_dealer**: left → winner" in text
    assert "the card goes back to your hand" in text
    assert "No differences" in diff(classic, classic)


def test_cli_explain_and_diff() -> None:
    result = runner.invoke(cli, ["explain", "teams", "--house", "jump_in"])
    assert result.exit_code == 0 and result.output.startswith("# UNO Teams (with jump_in)")
    result = runner.invoke(cli, ["diff", "classic", "classic", "--set", "hand_size=5"])
    assert result.exit_code == 0 and "hand_size**: 7 → 5" in result.output


def test_new_writes_a_starter_that_validates(tmp_path: Path,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    result = runner.invoke(cli, ["new", "my_rules", "--from", "pokemon"])
    assert result.exit_code == 0, result.output
    text = Path("my_rules.yaml").read_text()
    assert "extends: pokemon" in text and text.startswith("# yaml-language-server")
    rulebook, problems = check("my_rules.yaml")
    assert problems == [] and rulebook is not None and rulebook.name == "my_rules"
    # Uncommenting the "add cards" example gives a valid rulebook with the new card
    # (every combination of the template's blocks: test_authoring.py).
    block = text.split("# Cards of your own")[1].split("\n\n")[0].splitlines()[1:]
    Path("mine.yaml").write_text(text.replace("name: my_rules", "name: mine") + "\n".join(
        line[2:] for line in block if line.startswith("# ")) + "\n")
    mine, problems = check("mine.yaml")
    assert problems == [] and mine is not None and mine.deck_counts()["red my_card"] == 2
    again = runner.invoke(cli, ["new", "my_rules"])
    assert again.exit_code == 1 and "already exists" in again.output
    bad = runner.invoke(cli, ["new", "My Rules"])
    assert bad.exit_code == 1
