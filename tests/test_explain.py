"""Rules sheets (explain), variant diffs and starter rulebooks."""

from __future__ import annotations

import dataclasses
import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

import uno_rules
from uno_rules.authoring.explain import NOTHING, describe, explain
from uno_rules.authoring.variants import diff
from uno_rules.cli import cli
from uno_rules.engine.conditions import CONDITIONS
from uno_rules.engine.effects import PRIMITIVES
from uno_rules.load.loader import check, shipped_names

runner = CliRunner()


def test_every_primitive_has_words() -> None:
    assert all(callable(p.say) for p in PRIMITIVES.values())


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


def test_no_mercy_sheet_says_what_the_engine_does() -> None:
    """docs/rulebooks/no_mercy.md point by point; each sentence is proven by a scenario of
    tests/scenarios/no_mercy/ (rules_sheet.yaml, stacking.yaml, cards.yaml) or, for a match,
    by tests/test_match.py."""
    sheet = explain(uno_rules.load_rulebook("no_mercy"))
    turn = sheet.split("## Your turn")[1].split("## Winning")[0]
    winning = sheet.split("## Winning and scoring")[1].split("## Cards")[0]
    cards = {line.split("**")[1]: line for line in sheet.split("## Cards")[1].splitlines()
             if line.startswith("- **")}
    # The drawn card must be played (force_play), and nothing says it may be kept.
    assert "- Or draw: You draw until a playable card comes, then if the drawn card can be " \
           "played, it must be played at once." in turn
    assert "- A playable drawn card must be played at once." in turn
    assert "may be played" not in sheet
    # Stacking by value, of any colour.
    assert "of equal or higher value, of any colour (it need not match the top card);" in turn
    # Knocked out of the round (so dealt in again next round), and the last one standing wins.
    assert "you are knocked out of the round, your cards set aside" in turn
    assert "out of the game" not in sheet
    assert "- A player knocked out takes no more part in the round: its turns are skipped, it " \
           "is never chosen, hands pass over it and “with N players” counts only the players " \
           "still in. In a match it is dealt in again in the next round." in winning
    assert "- If all the other players are knocked out, you win the round." in winning
    # A 0 passes the hands among the players still in; a 7 chooses among them.
    assert cards["0"].startswith("- **0**: Every hand passes to the next player in the "
                                 "direction of play, among the players still in (one knocked "
                                 "out is passed over).")
    assert "You choose another player still in, then you swap hands" in cards["7"]
    # A last Wild Reverse Draw Four does not reverse before the next player draws.
    assert "As the last card: the round is over, so the direction of play does not reverse: " \
           "“the next player” is the one who would have played next without it." \
           in cards["wild_reverse_draw_four"]
    assert "(a stacked total too, drawn at once)" in winning
    # UNO after a Discard All or a 7/0 trade, and the knocked-out hands rejoining (sheet.yaml
    # and rules_audit.yaml prove them).
    assert "- Call UNO whenever your own card leaves you one card (your next-to-last card, or " \
           "one whose effect makes you discard more or trade hands);" in turn
    assert "- When the draw pile runs out, the discard pile but its top card is shuffled into " \
           "a new one, with the cards on the knocked_out pile." in turn
    assert [k for k, line in cards.items() if "As the last card" in line] == \
        ["wild_reverse_draw_four"]  # no other card reverses before a draw


def test_sheet_words_follow_the_settings() -> None:
    """What the drawn card may do follows `play_drawn`; knock-out words only where players
    can be knocked out; stacking says whether an answer must be playable."""
    classic = explain(uno_rules.load_rulebook("classic"))
    assert "then if the drawn card can be played, it may be played at once." in classic
    assert "must be played" not in classic and "knocked out" not in classic
    assert "Call UNO when you play your next-to-last card;" in classic
    assert "When the draw pile runs out" not in classic
    forced = explain(uno_rules.load_rulebook("classic", house=["force_play", "seven_zero"]))
    assert "then if the drawn card can be played, it must be played at once." in forced
    assert "it may be played at once" not in forced
    assert "among the players still in" not in forced and "still in" not in forced
    # Teams: a player who is out while its partner plays on is passed over too.
    teams = explain(uno_rules.load_rulebook("teams", house=["seven_zero"]))
    assert "- **0**: Every hand passes to the next player in the direction of play, among the " \
           "players still in (one who is out is passed over)." in teams
    assert "You choose another player still in, then you swap hands" in teams
    never = explain(uno_rules.load_rulebook("classic", settings={"play_drawn": "never"}))
    assert "then the drawn card is kept (it can't be played this turn)." in never
    stacking = explain(uno_rules.load_rulebook("classic", house=["stacking"]))
    assert "of the same value that can be played on the top card;" in stacking
    assert "As the last card" not in stacking


def test_the_rulebooks_own_text_is_escaped_on_the_sheet() -> None:
    """A title, a description and sides' names holding a newline, a carriage return, a tab
    (tests/hostile/records/line_breaks.yaml): escaped, the description's lines kept."""
    path = Path(__file__).parent / "hostile" / "records" / "line_breaks.yaml"
    sheet = explain(uno_rules.load_rulebook(path))
    assert not [c for c in sheet if not c.isprintable() and c != "\n"]
    assert sheet.startswith("# Line\\rbreaks\\n# forged heading\\t\n\nfirst line\\rover it\n"
                            "second line\n")
    assert "colours red, blue (li\\rght side); pink, teal (da\\nrk side)." in sheet


def test_a_variant_presents_itself_not_its_base(tmp_path: Path) -> None:
    """A variant that gives no `title` or `description` is headed by its own name and "A
    variant of BASE." (they used to be inherited: its sheet said it was classic); its digest
    is what it was, so the games saved with it still restore."""
    from uno_rules.engine.snapshot import digest

    (tmp_path / "mine.yaml").write_text("name: mine\nextends: classic\nsettings: {hand_size: 5}\n")
    (tmp_path / "yours.yaml").write_text("name: yours\ntitle: Your UNO\nextends: mine.yaml\n")
    result = CliRunner().invoke(cli, ["explain", str(tmp_path / "mine.yaml")])
    assert result.exit_code == 0
    assert result.output.startswith("# mine\n\nA variant of UNO (classic rules).\n")
    yours = uno_rules.load_rulebook(tmp_path / "yours.yaml")
    assert (yours.title, yours.description) == ("Your UNO", "A variant of mine.")
    classic = uno_rules.load_rulebook("classic")
    (tmp_path / "written.yaml").write_text(  # the same variant, classic's heading written out
        "name: mine\nextends: classic\nsettings: {hand_size: 5}\n"
        f"title: {classic.title}\ndescription: {json.dumps(classic.description)}\n")
    written = uno_rules.load_rulebook(tmp_path / "written.yaml")
    assert written.title == classic.title
    assert digest(uno_rules.load_rulebook(tmp_path / "mine.yaml")) == digest(written)


def test_the_knock_out_rule_words_conditions_from_their_registry(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """What a knock-out changes in an ``if`` condition is the condition's own entry
    (``knocked_out``), worded with its phrase: the sheet follows the registry."""
    rb = uno_rules.load_rulebook("no_mercy")
    assert "and “with N players” counts only the players still in." in explain(rb)
    players = CONDITIONS["players"]
    monkeypatch.setitem(CONDITIONS, "players", dataclasses.replace(
        players, say=lambda v: f"among {v} players", knocked_out="counts the standing"))
    assert "and “among N players” counts the standing." in explain(rb)
    monkeypatch.setitem(CONDITIONS, "players", dataclasses.replace(players, knocked_out=None))
    assert "with N players" not in explain(rb)


def test_sheet_says_who_draws_a_total_left_by_a_last_answer() -> None:
    """`pending_draw_at_end: drawn` (what deflect sets) is on the sheet (the answer's
    sentence); `none`, no draw, adds nothing to it."""
    said = "Going out on one, that player draws the total, and it counts."
    assert said in explain(uno_rules.load_rulebook("classic", house=["deflect"]))
    assert said not in explain(uno_rules.load_rulebook(
        "classic", house=["deflect"], settings={"pending_draw_at_end": "none"}))
