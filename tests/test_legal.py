"""Legality: what is offered, to whom, and when (tests added for mutants that survived a
mutation-testing run over legal.py and decisions.py, see bench/mutation.md)."""

from __future__ import annotations

from pathlib import Path

import pytest

import uno_rules
from uno_rules import Action, IllegalAction
from uno_rules.engine.position import Position, game_from_position


def _game(hands: list[list[str]], top: str, name: str = "classic",
          house: tuple[str, ...] = (), settings: dict | None = None,
          draw_pile: list[str] | None = None) -> uno_rules.Game:
    rulebook = uno_rules.load_rulebook(name, house=house, settings=settings)
    return game_from_position(rulebook, len(hands), Position(
        hands=hands, discard=[top], draw_pile=draw_pile if draw_pile is not None else
        ["green 1", "green 2", "green 3", "green 4"]))


def test_jump_in_is_offered_only_with_the_setting_and_only_to_holders() -> None:
    hands = [["red 1", "blue 2"], ["red 5", "green 7"], ["yellow 3", "yellow 4"]]
    plain = _game(hands, "red 5")
    assert not [a for a in plain.legal_actions() if a.kind == "jump_in"]
    jumping = _game(hands, "red 5", house=("jump_in",))
    assert [a for a in jumping.legal_actions() if a.kind == "jump_in"] == \
        [Action(1, "jump_in", "red 5")]


def test_a_stacked_draw_without_penalty_offers_no_challenge() -> None:
    game = _game([["red draw_two", "red 1"], ["blue draw_two", "blue 1"], ["green 1"]],
                 "red 5", house=("stacking",))
    game.apply("0 play red draw_two")
    options = game.decision.options  # type: ignore[union-attr]
    assert Action(1, "play", "blue draw_two") in options and Action(1, "draw") in options
    assert not [a for a in options if a.kind == "challenge"]


def test_turns_are_counted_one_per_turn() -> None:
    game = _game([["red 1", "red 2", "red 3"], ["red 4", "red 6", "red 7"]], "red 5")
    for action in ("0 play red 1", "1 play red 4", "0 draw"):
        game.apply(action)
    assert game.turns == 3


def test_keeping_a_drawn_card_is_an_event_and_playing_it_may_call_uno() -> None:
    game = _game([["blue 1", "blue 2"], ["green 5", "green 6"]], "red 5",
                 draw_pile=["red 7", "yellow 1"])
    game.apply("0 draw")
    assert game.decision.kind == "drawn"  # type: ignore[union-attr]
    game.apply("0 keep")
    assert game.events[-1] == "seat 0 keeps the drawn card"
    called = _game([["blue 1"], ["green 5", "green 6"]], "red 5",
                   draw_pile=["red 7", "yellow 1"])
    called.apply("0 draw")
    called.apply("0 play red 7 uno")  # the drawn card, leaving one card, with UNO called
    assert not [a for a in called.legal_actions() if a.kind == "catch"]


def test_an_illegal_card_does_not_hide_the_cards_after_it(tmp_path: Path) -> None:
    """A card that may not be played (legal_if, no bluffing) sorting before the others."""
    path = tmp_path / "early.yaml"
    path.write_text(
        "name: early\nplayers: {min: 2, max: 4}\ncolors: [red, blue]\n"
        "deck:\n  wilds: {ranks: [strict_wild], copies: 4, points: 50}\n"
        "  numbers: {ranks: [1, 2, 3, 4, 5, 6, 7, 8, 9], colors: all, copies: 2, points: face}\n"
        "cards:\n  strict_wild:\n    legal_if: {holds_no: color}\n    effect: [choose_color]\n")
    rulebook = uno_rules.load_rulebook(path)
    game = game_from_position(rulebook, 2, Position(
        hands=[["strict_wild", "red 5", "blue 2"], ["blue 1", "blue 3"]], discard=["red 3"]))
    plays = [a.arg for a in game.decision.options if a.kind == "play"]  # type: ignore[union-attr]
    assert plays == ["red 5"]


def test_the_card_itself_is_not_counted_against_its_legality() -> None:
    """wd4_wilds_match: a held wild makes Wild Draw Four illegal, but not the card itself."""
    game = _game([["wild_draw_four", "blue 2"], ["green 1", "green 2"]], "red 3",
                 house=("no_bluffing",), settings={"wd4_wilds_match": True})
    assert Action(0, "play", "wild_draw_four") in game.decision.options  # type: ignore
    two = _game([["wild_draw_four", "wild", "blue 2"], ["green 1", "green 2"]], "red 3",
                house=("no_bluffing",), settings={"wd4_wilds_match": True})
    assert Action(0, "play", "wild_draw_four") not in two.decision.options  # type: ignore


def _partners(tmp_path: Path, effect: str) -> uno_rules.Rulebook:
    path = tmp_path / "opp.yaml"
    path.write_text(f"name: opp\nextends: classic\nhouse: [partners]\n"
                    f"cards:\n  skip:\n    effect: {effect}\n")
    return uno_rules.load_rulebook(path)


def test_choose_player_among_opponents_leaves_the_partner_out(tmp_path: Path) -> None:
    rulebook = _partners(tmp_path, "[{choose_player: {among: opponents}}]")
    game = game_from_position(rulebook, 4, Position(
        hands=[["red skip", "red 1"], ["blue 1", "blue 2"], ["green 1", "green 2"],
               ["yellow 1", "yellow 2"]], discard=["red 5"]))
    game.apply("0 play red skip")
    assert [a.arg for a in game.decision.options] == [1, 3]  # type: ignore[union-attr]
    others = _partners(tmp_path, "[choose_player]")
    game = game_from_position(others, 4, Position(
        hands=[["red skip", "red 1"], ["blue 1", "blue 2"], ["green 1", "green 2"],
               ["yellow 1", "yellow 2"]], discard=["red 5"]))
    game.apply("0 play red skip")
    assert [a.arg for a in game.decision.options] == [1, 2, 3]  # type: ignore[union-attr]


def test_each_opponent_leaves_the_partner_out(tmp_path: Path) -> None:
    rulebook = _partners(tmp_path, "[{each: {seats: opponents, then: [{draw: {who: self, "
                                   "count: 1}}]}}]")
    game = game_from_position(rulebook, 4, Position(
        hands=[["red skip", "red 1"], ["blue 1", "blue 2"], ["green 1", "green 2"],
               ["yellow 1", "yellow 2"]], discard=["red 5"],
        draw_pile=["green 5", "green 6", "green 7"]))
    game.apply("0 play red skip")
    assert [len(h) for h in game.hands] == [1, 3, 2, 3]


def test_a_drawn_card_with_the_first_id_is_offered_too() -> None:
    """Card ids start at 0 (`red 0` in classic): 0 is a card, not 'no card'."""
    game = _game([["blue 1", "blue 2"], ["green 5", "green 6"]], "red 5",
                 draw_pile=["red 0", "yellow 1"])
    game.apply("0 draw")
    assert game.decision.kind == "drawn"  # type: ignore[union-attr]
    assert Action(0, "play", "red 0") in game.decision.options  # type: ignore[union-attr]


def test_play_drawn_never_offers_no_drawn_card() -> None:
    game = _game([["blue 1", "blue 2"], ["green 5", "green 6"]], "red 5",
                 settings={"play_drawn": "never"}, draw_pile=["red 7", "yellow 1"])
    game.apply("0 draw")
    assert game.decision.seat == 1 and game.decision.kind == "turn"  # type: ignore[union-attr]


@pytest.mark.parametrize("big_hand", [0, 32, 10**6])
def test_the_short_turn_path_offers_what_the_general_one_does(
        big_hand: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """Plain rulebooks take a shorter path to a turn's options (uno_rules.engine.tables): it must
    offer exactly what the general path offers (ids of the action table), in the same order,
    whichever way it finds the playable cards (the set's intersection above BIG_HAND cards,
    a flag per card below: each build has its own default)."""
    import random

    from uno_rules.engine import decisions

    monkeypatch.setattr(decisions, "BIG_HAND", big_hand)

    from uno_rules.sim.simulate import random_moves

    checked = 0
    for name, house in [("classic", ()), ("pokemon", ()), ("ted_lasso", ()),
                        ("classic", ("stacking",)), ("classic", ("partners",))]:
        rulebook = uno_rules.load_rulebook(name, house=house)
        players = rulebook.player_counts()[-1] if house == ("partners",) else 3
        for seed in range(25):
            game = rulebook.new_game(players, seed)
            rng = random.Random(seed)
            for _ in range(60):
                if game.over:
                    break
                if game._plain and game.pending.kind in ("turn", "drawn"):  # type: ignore
                    fast = game.pending.options(game)  # type: ignore[union-attr]
                    game._plain = False
                    general = game.pending.options(game)  # type: ignore[union-attr]
                    game._plain = True
                    assert list(fast) == list(general)
                    checked += 1
                random_moves(game, rng, 1, "uniform")
    assert checked > 1000


def test_stacking_any_color_answers_by_value_whatever_the_colour(tmp_path: Path) -> None:
    """No Mercy's `stacking.any_color`: a Draw Four of another colour answers a Draw Two;
    without the setting the same answer must also be playable on the top card."""
    hands = [["red draw_two", "red 1"], ["blue draw_four", "blue draw_two", "blue 1"],
             ["green 1"]]
    game = _game(hands, "red 5", name="no_mercy")
    assert game.rulebook.stack_any_color is True
    game.apply("0 play red draw_two")
    plays = [a.arg for a in game.legal_actions() if a.kind == "play"]
    assert plays == ["blue draw_two", "blue draw_four"]  # not blue 1: not a draw card
    (tmp_path / "matching.yaml").write_text(
        "name: matching\nextends: no_mercy\nstacking: {mixing: true, any_color: false}\n")
    strict = game_from_position(uno_rules.load_rulebook(tmp_path / "matching.yaml"), 3,
                                Position(hands=hands, discard=["red 5"],
                                         draw_pile=["green 2", "green 3", "green 4"]))
    assert strict.rulebook.stack_any_color is False
    strict.apply("0 play red draw_two")
    before = strict.snapshot()
    with pytest.raises(IllegalAction, match=r"blue draw_four can't answer the pending draw "
                       r"of 2: only a stacking card worth 2 or more that can be played on "
                       r"red draw_two \(red\) may"):
        strict.apply("1 play blue draw_four")
    assert strict.snapshot() == before  # refused: nothing changed
    assert [a.arg for a in strict.legal_actions() if a.kind == "play"] == ["blue draw_two"]


def test_stacking_any_color_keeps_a_cards_own_conditions(tmp_path: Path) -> None:
    """Any colour may answer, but a card's `legal_if` (no bluffing) still holds."""
    (tmp_path / "any.yaml").write_text("name: any\nstacking: {any_color: true}\n")
    house = ("stacking", "no_bluffing", str(tmp_path / "any.yaml"))
    mixing = {"stack_mixing": True}  # set, not overlaid: an overlay may not undo another's
    hands = [["red draw_two", "red 1"], ["wild_draw_four", "red 2", "blue 1"], ["green 1"]]
    game = _game(hands, "red 5", house=house, settings=mixing)
    assert game.rulebook.stack_any_color is True
    game.apply("0 play red draw_two")
    assert not [a for a in game.legal_actions() if a.kind == "play"]  # holds red: illegal
    free = _game([hands[0], ["wild_draw_four", "blue 1"], hands[2]], "red 5", house=house,
                 settings=mixing)
    free.apply("0 play red draw_two")
    assert {a.arg for a in free.legal_actions() if a.kind == "play"} == {"wild_draw_four"}


def test_classic_stacking_does_not_stack_by_value_alone() -> None:
    assert uno_rules.load_rulebook("classic", house=("stacking",)).stack_any_color is False
    assert uno_rules.load_rulebook("classic").stack_any_color is False


def test_a_knocked_out_seat_never_catches_or_calls() -> None:
    """RULES.md, No Mercy: a knocked-out player is out of the game; it was still offered
    catches of the seat open to one (found by the PettingZoo adapter's windows)."""
    import random

    rulebook = uno_rules.load_rulebook("no_mercy")
    seen = 0
    for seed in range(40):
        game = rulebook.new_game(4, seed=seed, log=False)
        rng = random.Random(seed)
        while not game.over:
            if game.eliminated and game._uno_open >= 0:
                seen += 1
                assert not [a for a in game.out_of_turn_actions()
                            if a.seat in game.eliminated], game.out_of_turn_actions()
            # play when possible: random rounds of No Mercy knock seats out quickly
            options = list(game.decision.options)  # type: ignore[union-attr]
            plays = [a for a in options if a.kind == "play"]
            game.apply(rng.choice(plays or options))
    assert seen > 0  # the situation arose


def _refusal(game: uno_rules.Game, action: str) -> str:
    """The whole refusal message of ``action``; the game must be unchanged by it."""
    before = game.snapshot()
    with pytest.raises(IllegalAction) as refused:
        game.apply(action)
    assert game.snapshot() == before
    return str(refused.value)


@pytest.mark.parametrize("hand", [["red 5", "red 6", "blue 1"],
                                  ["red 5", "red 6", "blue 1", "blue 2", "green 7"]])
def test_calling_uno_with_three_or_more_cards_is_refused_with_its_reason(
        hand: list[str]) -> None:
    """RULES.md §1: UNO is called playing the next-to-last card, not earlier."""
    game = _game([hand, ["blue 2"]], "red 3")
    assert _refusal(game, "0 play red 5 uno") == (
        "0 play red 5 uno: UNO is called in advance only on the next-to-last card "
        "(or a card that may leave one)")
    game.apply("0 play red 5")  # the same card without the call is fine
    assert game.decision.seat == 1  # type: ignore[union-attr]


@pytest.mark.parametrize("action", ["0 give red 5", "0 color red", "0 keep", "0 target 1",
                                    "0 challenge"])
def test_an_action_of_another_kind_gets_the_fallback_refusal(action: str) -> None:
    game = _game([["red 5", "red 6", "blue 1"], ["blue 2"]], "red 3")
    assert _refusal(game, action) == f"{action}: not an option (pending: seat 0 to turn)"


def test_a_last_card_that_may_not_go_out_is_refused_as_such_on_a_play_and_a_jump_in() -> None:
    """RULES.md §5 `no_action_finish`: no going out on an action card, on a play or a
    jump-in; the refusal says why (not that the card doesn't match)."""
    game = _game([["red skip", "red 1"], ["blue 1", "blue 2"], ["green 1", "green 2"],
                  ["red skip"]], "red 3", house=("no_action_finish", "jump_in"))
    game.apply("0 play red skip")
    assert "3 jump_in red skip" not in map(str, game.legal_actions())
    assert _refusal(game, "3 jump_in red skip") == \
        "3 jump_in red skip: only a number may be the last card (go_out_on: number)"
    assert _refusal(game, "1 jump_in red skip") == "1 jump_in red skip: only the exact card " \
        "on top may jump in, while a turn is pending, by another seat"
    alone = _game([["red skip"], ["blue 1"]], "red 3", house=("no_action_finish",))
    assert _refusal(alone, "0 play red skip") == \
        "0 play red skip: only a number may be the last card (go_out_on: number)"
