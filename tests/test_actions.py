"""Action notation: parse, str and repr round-trip."""

from __future__ import annotations

import io
import json
import random
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import given
from hypothesis import strategies as st
from test_random_rulebooks import FUZZ, rulebooks

import uno_rules
from uno_rules import Action, NotationError
from uno_rules.engine.actions import ALL_KINDS
from uno_rules.engine.errors import RunawayEffect
from uno_rules.load.loader import check
from uno_rules.play.record import Recorder, read_text


@pytest.mark.parametrize("text", ["1 play red 5", "1 play red 5 uno", "0 draw", "0 keep",
                                  "2 color blue", "1 challenge", "1 accept", "0 target 2",
                                  "3 catch 1", "loser 2", "1 play wild_draw_four",
                                  "0 give red 5 pass", "2 pass"])
def test_round_trip(text: str) -> None:
    action = Action.parse(text)
    assert str(action) == text
    assert eval(repr(action), {"Action": Action}) == action


def test_parse_fields() -> None:
    assert Action.parse("1 play RED  5 uno") == Action(1, "play", "red 5", True)
    assert Action.parse("3 catch 1") == Action(3, "catch", 1)
    assert Action.parse("loser 2") == Action(None, "loser", 2)
    assert Action.parse("2 pass") == Action(2, "pass")  # a bare kind: no argument


@pytest.mark.parametrize("text", ["", "1 fly", "play red 5", "1 draw now", "1 catch x",
                                  "1 color", "pass", "1 pass 2"])
def test_bad_notation(text: str) -> None:
    with pytest.raises(NotationError):
        Action.parse(text)
    with pytest.raises(ValueError):
        Action.parse(text)


@pytest.mark.parametrize("action, message", [
    (Action(0, "play", None), "play takes str, not None"),
    (Action(0, "draw", "x"), "draw takes no argument"),
    (Action(None, "draw"), "draw needs a seat number"),
    (Action(1, "loser", 2), "loser needs no seat"),
    (Action(0, "catch", "1"), "catch takes int"),
    (Action(0, "fly"), "unknown action kind 'fly'"),
    (Action(0, "draw", None, True), "uno is a flag of a play"),
    # fields of the wrong type: refused by the game in the compiled build too, not by mypyc
    (Action("0", "draw"), "draw needs a seat number, not '0'"),  # type: ignore[arg-type]
    (Action(0, 5), "unknown action kind 5"),  # type: ignore[arg-type]
    (Action(0, "play", ["red 5"]), r"play takes str, not \['red 5'\]"),  # type: ignore[arg-type]
    (Action(0, "play", "red 5", 1), "uno is a flag of a play, not 1"),
    (Action(0, "play", "red 5", False, 1.0), "pile is a discard"),  # type: ignore[arg-type]
    (5, "not an Action: 5"),
    (("0", "draw"), r"not an Action: \('0', 'draw'\)"),
])
def test_malformed_actions_are_refused(classic, action: object, message: str) -> None:
    from uno_rules import IllegalAction

    game = classic.new_game(2, seed=1)
    before = game.snapshot()
    with pytest.raises(IllegalAction, match=f"malformed action: {message}"):
        game.apply(action)
    assert game.snapshot() == before
    assert str(action)  # a malformed Action still prints (compiled: no field type check)


@pytest.mark.parametrize("text", ["² play red 5", "0 target ²",
                                  "--1 play red 5", "9" * 5000 + " draw", "0 catch " + "1" * 40,
                                  "١ draw"])
def test_numbers_are_ascii_digits_that_int_can_read(text: str) -> None:
    with pytest.raises(NotationError):
        Action.parse(text)


def test_a_negative_seat_still_parses() -> None:
    assert Action.parse("-1 draw").seat == -1  # (refused by the game, as any bad seat)


# ------------------------------------------------------------------ cards named like keywords
@pytest.mark.parametrize("action, text", [
    (Action(1, "play", "blue uno"), '1 play "blue uno"'),
    (Action(1, "play", "blue uno", True), '1 play "blue uno" uno'),
    (Action(1, "play", "blue x on 1"), '1 play "blue x on 1"'),
    (Action(1, "play", "red a  b", False, 2), '1 play "red a  b" on 2'),
    (Action(1, "play", "5 "), '1 play "5 "'),
    (Action(1, "play", "uno"), "1 play uno"),            # one word: no call to misread
    (Action(1, "play", "on 1", True), "1 play on 1 uno"),  # two words: not a pile
    (Action(1, "give", "blue uno"), "1 give blue uno"),  # give and jump_in call nothing
    (Action(1, "jump_in", "a  b"), '1 jump_in "a  b"'),
    (Action(1, "play", 'say "hi"'), r'1 play "say \"hi\""'),
])
def test_a_card_read_as_something_else_is_quoted(action: Action, text: str) -> None:
    assert str(action) == text
    assert Action.parse(text) == action


@pytest.mark.parametrize("text", ['1 play "blue', '1 color "red"', '1 play "a" "b"',
                                  '1 play "a" b', '1 draw "x"', '"1" draw', '1 target "2"'])
def test_a_quoted_card_out_of_place_is_refused(text: str) -> None:
    with pytest.raises(NotationError):
        Action.parse(text)


def test_a_rulebook_with_a_rank_named_uno_replays_its_own_record(tmp_path: Path) -> None:
    """Found by an attacker: `1 play blue uno` was read back as "play blue, calling UNO"."""
    path = tmp_path / "uno.yaml"
    path.write_text("name: uno\nplayers: {min: 2, max: 2}\ncolors: [red, blue]\n"
                    "deck: {coloured: {ranks: ['1', uno], colors: all, copies: 4}}\n")
    rulebook = uno_rules.load_rulebook(path)
    game = rulebook.new_game(2, seed=3)
    out = io.StringIO()
    recorder = Recorder(out, game)
    played = set()
    while not game.over:
        options = game.legal_actions()
        uno = [a for a in options if a.kind == "play" and a.arg.endswith("uno") and not a.uno]
        action = (uno or options)[0]  # an uno card whenever one can be played, UNO not called
        played.add(str(action))
        game.apply(action)
        recorder.step(action)
    recorder.end()
    assert '1 play "blue uno"' in played or '0 play "blue uno"' in played
    assert json.loads(out.getvalue().splitlines()[0])["record"] == 2
    classic = io.StringIO()  # no quoted card: format 1, as older versions wrote and read
    Recorder(classic, uno_rules.load_rulebook("classic").new_game(2, seed=3))
    assert json.loads(classic.getvalue().splitlines()[0])["record"] == 1
    match = read_text(out.getvalue()).replay(rulebook=rulebook)
    assert match.game.history == game.history


KEYWORDS = list(ALL_KINDS) + ["on", "uno"]  # every word the notation reads
KEYWORD_COLOURS = [k for k in KEYWORDS if k not in ("color",)] + ["color"]
KEYWORD_RANKS = KEYWORDS + ["on 1", "x on 2", "5 uno", "uno uno", "play on 1 uno", "0",
                            "12", "a  b", "7 ", "loser 1", "catch 0", "1", "2", "3"]
KEYWORD_WILDS = ["uno", "on 1", "pass", "draw", "wild on 3", "8 uno", "wild  two"]


@FUZZ(40)
@given(colours=st.permutations(KEYWORD_COLOURS), data=st.data(), seed=st.integers(0, 2**16))
def test_every_action_of_a_rulebook_named_with_keywords_reads_back(
        tmp_path_factory: Any, colours: list[str], data: st.DataObject, seed: int) -> None:
    """Rulebooks whose colours and ranks are the notation's own words: every action of
    their rounds is written, read back to the same action and taken from its text, and
    the round's record replays."""
    spec = data.draw(rulebooks(colours, KEYWORD_RANKS, KEYWORD_WILDS))
    path = Path(tmp_path_factory.mktemp("rb")) / "keywords.yaml"
    path.write_text(yaml.safe_dump(spec, sort_keys=False))
    rulebook, _ = check(path)
    if rulebook is None or not rulebook.player_counts():
        return
    rng = random.Random(seed)
    game = rulebook.new_game(rng.choice(rulebook.player_counts()), seed)
    out = io.StringIO()
    recorder = Recorder(out, game)
    try:
        for _ in range(400):
            if game.over:
                break
            action = rng.choice(game.legal_actions())
            text = str(action)
            assert Action.parse(text) == action, text
            game.apply(text)  # the engine takes its own notation as the same action
            assert game.history[-1] == action
            recorder.step(action)
    except RunawayEffect:
        return  # a runaway effect stops the round: nothing more to write
    recorder.end("over" if game.over else "quit")
    replayed = read_text(out.getvalue()).replay(rulebook=rulebook)
    assert replayed.game.history == game.history
