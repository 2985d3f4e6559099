"""Answers the way people type them, read against real decisions; bad input gets a
one-line hint, and nothing typed ever raises."""

from __future__ import annotations

import random
from collections.abc import Sequence
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import uno_rules
from uno_rules.engine.actions import KINDS_WITH_CARD, Action
from uno_rules.engine.game import Game
from uno_rules.engine.position import Position, game_from_position
from uno_rules.load.resources import shipped_names
from uno_rules.table.answers import (
    Blank,
    Chosen,
    Help,
    Hint,
    Quit,
    abbreviations,
    canonical,
    interpret,
    with_call,
)
from uno_rules.table.screen import label

ROOT = Path(__file__).resolve().parent.parent


def load(name: str, *house: str) -> uno_rules.Rulebook:
    return uno_rules.load_rulebook(name, house=house)


def options_of(game: Game, seat: int) -> list[Action]:
    """What ``seat`` may do now, as a front end offers it: its decision's options (if its
    own), its out-of-turn actions, its pass."""
    table = game.rulebook.action_table(game.players)
    return [table[i] for i in game.legal_ids(seat)]


def chosen(line: str, options: Sequence[Action], game: Game, seat: int = 0) -> str:
    """The option ``line`` picks, in notation (or the answer's class name)."""
    answer = interpret(line, options, game, seat)
    return str(answer.action) if isinstance(answer, Chosen) else type(answer).__name__


def turn() -> tuple[Game, list[Action]]:
    game = game_from_position(load("classic"), 3, Position(
        hands=[["red 1", "red 5", "wild", "wild_draw_four", "blue skip"], ["blue 1", "blue 2"],
               ["green 2", "green 3"]], discard=["red 7"]))
    return game, options_of(game, 0)


@pytest.mark.parametrize(("line", "want"), [
    ("1", "0 play red 1"), ("2", " 0 play red 5"), ("  2  ", "0 play red 5"),
    ("0 play red 5", "0 play red 5"), ("0 PLAY  Red 5", "0 play red 5"),
    ("play red 5", "0 play red 5"), ("red 5", "0 play red 5"), ("RED 5", "0 play red 5"),
    ("r5", "0 play red 5"), ("wild", "0 play wild"), ("w", "0 play wild"),
    ("wd4", "0 play wild_draw_four"), ("+4", "0 play wild_draw_four"),
    ("w+4", "0 play wild_draw_four"), ("wild draw four", "0 play wild_draw_four"),
    ("wild_draw_four", "0 play wild_draw_four"), ("wild draw 4", "0 play wild_draw_four"),
    ("play wild +4", "0 play wild_draw_four"), ("0 play wild_draw_four", "0 play wild_draw_four"),
    ("draw", "0 draw"), ("0 draw", "0 draw"), ("DRAW", "0 draw"),
    ("q", "Quit"), ("quit", "Quit"), ("EXIT", "Quit"), ("", "Blank"), ("   ", "Blank"),
    ("?", "Help"), ("help", "Help"), ("HELP", "Help"),
])
def test_a_turn_read_in_every_form(line: str, want: str) -> None:
    game, options = turn()
    assert chosen(line, options, game) == want.strip()


@pytest.mark.parametrize("line", [
    "6", "0", "99", "-1", "²", "١", "9" * 5000, "fly away", "blue skip", "skip", "keep",
    "challenge", "catch 2", "pass", "1 play red 5", "play", "blue", "play blue 9", "uno",
    "red 5 on 3", "\x00\x1b[2J", "r", "target 1"])
def test_a_bad_answer_gets_a_one_line_hint(line: str) -> None:
    game, options = turn()
    answer = interpret(line, options, game, 0)
    assert isinstance(answer, Hint), answer
    assert answer.text and "\n" not in answer.text and len(answer.text) < 200
    assert "\x1b" not in answer.text and "\x00" not in answer.text


def test_hints_say_why() -> None:
    game, options = turn()
    assert interpret("99", options, game, 0) == \
        Hint("no option '99': type 1 to 5, or ? for help")
    assert "you are seat 0" in interpret("1 play red 5", options, game, 0).text  # type: ignore
    assert "blue skip is not an option now" in \
        interpret("blue skip", options, game, 0).text  # type: ignore[union-attr]
    huge = interpret("9" * 5000, options, game, 0)
    assert isinstance(huge, Hint) and len(huge.text) < 80


def test_uno_with_a_play_picks_the_calling_variant() -> None:
    game = game_from_position(load("classic"), 2, Position(
        hands=[["red 1", "wild_draw_four"], ["blue 1"]], discard=["red 5"]))
    options = options_of(game, 0)
    assert chosen("red 1", options, game) == "0 play red 1"
    for line in ("red 1 uno", "uno red 1", "r1 uno", "play red 1 uno", "0 play red 1 uno",
                 "RED 1 UNO", "uno! red 1", "+4 uno", "uno wd4"):
        assert chosen(line, options, game).endswith("uno"), line
    assert chosen("wild draw four uno", options, game) == "0 play wild_draw_four uno"
    hint = interpret("uno", options, game, 0)
    assert isinstance(hint, Hint) and "red 1 uno" in hint.text
    # No calling variant (more cards left): "uno" with the play still plays it.
    game, options = turn()
    assert chosen("red 5 uno", options, game) == "0 play red 5"


def test_an_option_number_with_uno_calls_as_the_card_name_does() -> None:
    """``N uno`` (what the page's UNO button sends) and ``NAME uno`` meet in with_call:
    the plain play unless UNO is said, at any option number of a card with a call."""
    game = game_from_position(load("classic"), 2, Position(
        hands=[["red 1", "wild_draw_four"], ["blue 1"]], discard=["red 5"]))
    options = options_of(game, 0)
    for n, option in enumerate(options, 1):
        if option.kind != "play":
            continue
        name = label(str(option.arg))
        assert chosen(f"{n} uno", options, game) == chosen(f"{name} uno", options, game) \
            == str(option._replace(uno=True))
        assert chosen(name, options, game) == str(option._replace(uno=False))
    assert with_call(options, True) == [o for o in options if o.uno]
    assert with_call(options, False) == [o for o in options if not o.uno]
    # No calling variant (more cards left): "2 uno" is notation, not option 2 played.
    game, options = turn()
    assert isinstance(interpret("2 uno", options, game, 0), Hint)
    assert chosen("2 uno", options, game, 2) != "0 play red 5"


def test_a_colour_prompt() -> None:
    game, _ = turn()
    game.apply("0 play wild")
    options = options_of(game, 0)
    for line, want in (("blue", "blue"), ("b", "blue"), ("BLUE", "blue"), ("color blue", "blue"),
                       ("colour b", "blue"), ("choose green", "green"), ("y", "yellow"),
                       ("0 color red", "red"), ("color red", "red"), ("1", "red"), ("gr", "green")):
        assert chosen(line, options, game) == f"0 color {want}", line
    for line in ("wild", "purple", "color", "color mauve", "x"):
        assert isinstance(interpret(line, options, game, 0), Hint), line


def test_a_colour_prompt_on_the_other_side_with_two_colours_of_one_letter() -> None:
    game = game_from_position(load("flip"), 2, Position(
        hands=[["wild", "pink 1"], ["teal 2"]], discard=["pink 5"], side="dark"))
    game.apply("0 play wild")
    options = options_of(game, 0)
    assert chosen("pink", options, game) == "0 color pink"
    assert chosen("pu", options, game) == "0 color purple"
    assert chosen("t", options, game) == "0 color teal"
    assert chosen("o", options, game) == "0 color orange"
    hint = interpret("p", options, game, 0)
    assert isinstance(hint, Hint) and "pink" in hint.text and "purple" in hint.text


def test_challenge_or_accept() -> None:
    game, _ = turn()
    game.apply("0 play wild_draw_four")
    game.apply("0 color green")
    options = options_of(game, 1)
    assert {str(o) for o in options} == {"1 challenge", "1 accept"}
    assert chosen("challenge", options, game, 1) == "1 challenge"
    assert chosen("Accept", options, game, 1) == "1 accept"
    assert chosen("1 challenge", options, game, 1) == "1 challenge"
    assert isinstance(interpret("0 challenge", options, game, 1), Hint)
    assert isinstance(interpret("draw", options, game, 1), Hint)


def test_a_drawn_card_played_or_kept() -> None:
    game = game_from_position(load("classic"), 2, Position(
        hands=[["blue 1", "blue 2"], ["green 1"]], discard=["red 5"],
        draw_pile=["red 9", "yellow 2"]))
    game.apply("0 draw")
    options = options_of(game, 0)
    assert game.decision is not None and game.decision.kind == "drawn"
    assert chosen("keep", options, game) == "0 keep"
    assert chosen("red 9", options, game) == "0 play red 9"
    assert chosen("play red 9", options, game) == "0 play red 9"
    assert chosen("r9", options, game) == "0 play red 9"
    assert isinstance(interpret("blue 1", options, game, 0), Hint)


def test_catch_and_pass_out_of_turn() -> None:
    game = game_from_position(load("classic"), 3, Position(
        hands=[["red 1", "red 2"], ["blue 1", "red 3"], ["green 2", "green 3"]],
        discard=["red 5"]))
    game.apply("0 play red 1")  # UNO not called
    mine = options_of(game, 1)  # seat 1's turn, and the catch
    assert chosen("catch", mine, game, 1) == "1 catch 0"
    assert chosen("catch 0", mine, game, 1) == "1 catch 0"
    assert chosen("1 catch 0", mine, game, 1) == "1 catch 0"
    assert chosen("CATCH  0", mine, game, 1) == "1 catch 0"
    assert isinstance(interpret("catch 2", mine, game, 1), Hint)
    assert isinstance(interpret("catch two", mine, game, 1), Hint)
    assert chosen("red 3", mine, game, 1) == "1 play red 3"
    other = options_of(game, 2)  # not seat 2's decision: the catch and a pass
    assert [str(o) for o in other] == ["2 catch 0", "2 pass"]
    assert chosen("catch", other, game, 2) == "2 catch 0"
    assert chosen("pass", other, game, 2) == "2 pass"
    assert chosen("2", other, game, 2) == "2 pass"


def test_jump_in_with_the_house_rule() -> None:
    game = game_from_position(load("classic", "jump_in"), 3, Position(
        hands=[["red 1", "blue 2"], ["blue 1", "blue 3"], ["red 5", "green 3"]],
        discard=["red 5"]))
    options = options_of(game, 2)
    assert "2 jump_in red 5" in [str(o) for o in options]
    for line in ("jump in red 5", "jump-in red 5", "jump_in red 5", "jump red 5", "red 5",
                 "r5", "2 jump_in red 5", "jump_in red 5", "JUMP IN RED 5"):
        assert chosen(line, options, game, 2) == "2 jump_in red 5", line
    assert chosen("pass", options, game, 2) == "2 pass"
    hint = interpret("jump in", options, game, 2)
    assert isinstance(hint, Hint) and "jump in red 5" in hint.text


def test_target_a_seat() -> None:
    game = game_from_position(load("classic", "seven_zero"), 3, Position(
        hands=[["red 7", "blue 2"], ["blue 1", "blue 3"], ["green 2", "green 3"]],
        discard=["red 5"]))
    game.apply("0 play red 7")
    options = options_of(game, 0)
    assert game.decision is not None and game.decision.kind == "target"
    assert chosen("target 2", options, game) == "0 target 2"
    assert chosen("seat 2", options, game) == "0 target 2"
    assert chosen("0 target 1", options, game) == "0 target 1"
    assert isinstance(interpret("target 0", options, game, 0), Hint)
    assert isinstance(interpret("target", options, game, 0), Hint)
    assert isinstance(interpret("target x", options, game, 0), Hint)


def test_give_a_card() -> None:
    game = load("teams").new_game(4, 3)
    decision = game.decision
    assert decision is not None and decision.kind == "give"
    seat = decision.seat
    assert seat is not None
    options = options_of(game, seat)
    card = str(options[-1].arg)
    assert chosen(f"give {card}", options, game, seat) == str(options[-1])
    assert chosen(f"give {label(card)}", options, game, seat) == str(options[-1])
    assert chosen(label(card), options, game, seat) == str(options[-1])


def test_a_card_playable_on_two_piles_is_asked_about() -> None:
    rb = load(str(ROOT / "examples" / "two_piles.yaml"))
    game = game_from_position(rb, 2, Position(
        hands=[["red 7", "blue 2", "yellow 9"], ["green 1"]], discards=[["red 5"], ["red 3"]]))
    options = options_of(game, 0)
    hint = interpret("red 7", options, game, 0)
    assert isinstance(hint, Hint) and "which one?" in hint.text
    assert "on pile 0" in hint.text and "on pile 1" in hint.text
    assert chosen("red 7 on 1", options, game) == "0 play red 7 on 1"
    assert chosen("red 7 on pile 1", options, game) == "0 play red 7 on 1"
    assert chosen("red 7 pile 1", options, game) == "0 play red 7 on 1"
    assert chosen("red 7 on 0", options, game) == "0 play red 7"
    assert chosen("0 play red 7 on 1", options, game) == "0 play red 7 on 1"
    assert isinstance(interpret("red 7 on 2", options, game, 0), Hint)


def test_help_lists_what_may_be_typed_with_examples_from_the_options() -> None:
    game, options = turn()
    answer = interpret("?", options, game, 0)
    assert isinstance(answer, Help)
    text = "\n".join(answer.lines)
    assert "1 to 5" in text and "red 1 (or r1)" in text and "draw" in text
    assert "0 play red 1" in text and "q" in text
    game.apply("0 play wild")
    text = "\n".join(interpret("help", options_of(game, 0), game, 0).lines)  # type: ignore
    assert "a colour: red, yellow, green or blue" in text


def test_card_words() -> None:
    assert canonical("Wild_Draw_Four") == ("wild", "+4") == canonical("wild +4")
    assert canonical("red draw two") == ("red", "+2")
    assert abbreviations("wild_draw_four") == {"w+4", "wd4"}
    assert abbreviations("red 5") == {"r5"}


def _random_states() -> list[Game]:
    games = []
    books = [(n, ()) for n in shipped_names()] + [
        ("classic", ("jump_in", "seven_zero", "stacking")),
        ("classic", ("deflect", "pass_on", "jump_in_wilds")),
        (str(ROOT / "examples" / "two_piles.yaml"), ())]
    for name, house in books:
        rb = load(name, *house)
        for seed in range(6):
            players = rb.player_counts()[seed % 2]
            game = rb.new_game(players, seed)
            rng = random.Random(seed)
            for step in range(rng.randrange(20, 160)):
                if game.over:
                    break
                # every 25th position, those with a chance out of turn (a catch, a jump-in)
                # and those of rarer decisions (a colour, a target, a challenge, a give)
                kind = game.decision.kind if game.decision else ""
                if step % 25 == 0 or game.out_of_turn_actions() or \
                        kind not in ("turn", "drawn"):
                    games.append(game.clone())
                game.apply(rng.choice(game.legal_actions()))
    return games


def test_every_option_of_random_decisions_is_read_back() -> None:
    """On random states of every rulebook: each option by its number, its notation (with
    and without the seat) and, for a card, its name (with uno for the calling variant),
    unless another option names the same card (then a hint); a colour by its name."""
    checked: set[str] = set()
    for game in _random_states():
        for seat in range(game.players):
            options = options_of(game, seat)
            for i, option in enumerate(options, 1):
                assert interpret(str(i), options, game, seat) == Chosen(option)
                assert interpret(str(option), options, game, seat) == Chosen(option)
                assert interpret(str(option).split(" ", 1)[1], options, game, seat) == \
                    Chosen(option)
                if option.kind in KINDS_WITH_CARD:
                    line = label(str(option.arg)) + (" uno" if option.uno else "")
                    twins = [o for o in options if o.kind in KINDS_WITH_CARD and
                             canonical(str(o.arg)) == canonical(str(option.arg)) and
                             o.uno == option.uno]
                    answer = interpret(line, options, game, seat)
                    assert answer == (Chosen(option) if len(twins) == 1 else answer), line
                    if len(twins) > 1:
                        assert isinstance(answer, Hint) and "which one?" in answer.text
                elif option.kind == "color":
                    assert interpret(str(option.arg), options, game, seat) == Chosen(option)
                elif option.kind in ("draw", "keep", "challenge", "accept", "pass", "end"):
                    assert interpret(option.kind, options, game, seat) == Chosen(option)
                else:  # a seat's: catch 2, target 2, uno 2 (for a partner)
                    assert interpret(f"{option.kind} {option.arg}", options, game, seat) == \
                        Chosen(option)
                checked.add(option.kind)
    assert {"play", "draw", "keep", "color", "challenge", "accept", "pass", "give", "catch",
            "jump_in", "target", "uno"} <= checked, checked


GAME, OPTIONS = turn()
LINES = st.one_of(
    st.text(),
    st.text(alphabet=st.characters(codec="utf-8"), max_size=40),
    st.text(alphabet="0123456789²³¹٠١٢ \t\n\r\x00\x1b+-", max_size=30),
    st.integers(min_value=-10**60, max_value=10**60).map(str),
    st.lists(st.sampled_from(["play", "red", "5", "uno", "wild", "draw", "four", "on", "pile",
                              "1", "catch", "jump", "in", "color", "blue", "0", "?", "+4",
                              "seat", "target", "give", "q", "_", "-", "²"]),
             max_size=6).map(" ".join),
    st.just("9" * 5000), st.just("1" * 100_000), st.just("red 5 uno " * 50_000))


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(LINES)
def test_no_line_raises(line: str) -> None:
    answer = interpret(line, OPTIONS, GAME, 0)
    assert isinstance(answer, (Chosen, Help, Quit, Hint, Blank))
    if isinstance(answer, Chosen):
        assert answer.action in OPTIONS
    if isinstance(answer, Hint):
        assert answer.text and "\n" not in answer.text and len(answer.text) < 300


STATES = _random_states()


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(LINES, st.integers(0, len(STATES) - 1))
def test_no_line_raises_at_any_decision(line: str, which: int) -> None:
    game = STATES[which]
    seat = which % game.players
    options = options_of(game, seat)
    answer = interpret(line, options, game, seat)
    assert not isinstance(answer, Chosen) or answer.action in options


def test_draw_with_a_count_draws_and_plus_two_plays() -> None:
    game = game_from_position(load("classic"), 2, Position(
        hands=[["red draw_two", "blue 1", "blue 2"], ["green 1"]], discard=["red 7"]))
    options = options_of(game, 0)
    assert chosen("draw 2", options, game) == "0 draw"
    assert chosen("draw two", options, game) == "0 draw"
    assert chosen("+2", options, game) == "0 play red draw_two"
    assert chosen("red +2", options, game) == "0 play red draw_two"
    assert chosen("rd2", options, game) == "0 play red draw_two"
    assert chosen("red draw two", options, game) == "0 play red draw_two"
