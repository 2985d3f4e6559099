"""Moving cards between players and per-card going out (issue 30): `deal_hands`, the seat
selectors (`left`, `right`, seat sets), `going_out` on a card, `if: option_is`, and the digest
of the rulebooks that use none of them."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

import uno_rules
from uno_rules import IllegalAction
from uno_rules.engine.position import Position, game_from_position
from uno_rules.engine.snapshot import _canonical, digest
from uno_rules.load.loader import check

HANDS = [["wild", "red 1", "red 2"], ["green 3", "green 4"],
         ["blue 1", "blue 2", "blue 3", "blue 4"], ["yellow 4"]]


def _rulebook(tmp_path: Path, wild: str, extra: str = "") -> uno_rules.Rulebook:
    path = tmp_path / "variant.yaml"
    path.write_text(f"name: variant\nextends: classic\n{extra}cards:\n  wild:\n{wild}")
    return uno_rules.load_rulebook(path)


def _game(rulebook: uno_rules.Rulebook, hands: list[list[str]] = HANDS, **kw: object
          ) -> uno_rules.Game:
    return game_from_position(rulebook, len(hands), Position(
        hands=hands, discard=["red 5"], draw_pile=["green 1", "green 2"], **kw))  # type: ignore[arg-type]


def _cards(game: uno_rules.Game) -> list[str]:
    return sorted(c for s in range(game.players) for c in game.hand(s))


@pytest.mark.parametrize("direction", ["clockwise", "counterclockwise"])
def test_deal_hands_deals_every_card_from_the_left(tmp_path: Path, direction: str) -> None:
    """Every hand gathered (the player's own too) and dealt from its left, clockwise whatever
    the direction: 2 + 2 + 4 + 1 = 9 cards, seats 1, 2, 3, 0 get 3, 2, 2, 2."""
    game = _game(_rulebook(tmp_path, "    effect: [deal_hands]\n"), direction=direction)
    before = _cards(game)
    before.remove("wild")
    game.apply("0 play wild")
    assert [len(h) for h in game.hands] == [2, 3, 2, 2]
    assert _cards(game) == before  # conserved (the wild is on the pile)
    assert game.events[-1] == "every hand is gathered, shuffled and dealt out again from seat 1"


def test_deal_hands_from_a_seat_keeping_counts_among_others(tmp_path: Path) -> None:
    """`from: right` starts at seat 3; `keep_counts` gives each seat its count back;
    `seats: others` leaves the player's hand alone."""
    game = _game(_rulebook(tmp_path, "    effect: [{deal_hands: {from: right}}]\n"))
    game.apply("0 play wild")
    assert [len(h) for h in game.hands] == [2, 2, 2, 3]
    game = _game(_rulebook(tmp_path, "    effect: [{deal_hands: {keep_counts: true}}]\n"))
    game.apply("0 play wild")
    assert [len(h) for h in game.hands] == [2, 2, 4, 1]
    game = _game(_rulebook(tmp_path, "    effect: [{deal_hands: {seats: others}}]\n"))
    game.apply("0 play wild")
    assert game.hand(0) == ["red 1", "red 2"]
    assert sorted(len(h) for h in game.hands[1:]) == [2, 2, 3]


def test_deal_hands_is_seeded(tmp_path: Path) -> None:
    """The same seed deals the same hands; the deal draws from the game's generator."""
    rulebook = _rulebook(tmp_path, "    effect: [deal_hands]\n")
    dealt = set()
    for seed in (1, 1, 2, 3, 4):
        game = game_from_position(rulebook, 4, Position(
            hands=HANDS, discard=["red 5"], draw_pile=[]), seed=seed)
        game.apply("0 play wild")
        dealt.add(tuple(tuple(game.hand(s)) for s in range(4)))
    assert 2 <= len(dealt) <= 4


def test_each_takes_a_single_seat_and_left_ignores_the_direction(tmp_path: Path) -> None:
    """`each` accepts one seat as its set; `left` is seat + 1 in either direction."""
    rulebook = _rulebook(tmp_path, "    effect: [{each: {seats: left, then: "
                                   "[{draw: {who: self, count: 1}}]}}]\n")
    for direction in ("clockwise", "counterclockwise"):
        game = _game(rulebook, direction=direction)
        game.apply("0 play wild")
        assert [len(h) for h in game.hands] == [2, 3, 4, 1], direction


def test_going_out_continues_and_not_allowed(tmp_path: Path) -> None:
    """`going_out: continues`: the last card's effect runs and play goes on, or the player,
    left with no card, wins; `not_allowed`: refused as a last card, with its reason."""
    dealt = _rulebook(tmp_path, "    going_out: continues\n    effect: [deal_hands]\n")
    hands = [["wild"], ["green 3", "green 4"], ["blue 1", "blue 2", "blue 3"], ["yellow 4"]]
    game = _game(dealt, hands)
    game.apply("0 play wild")
    assert not game.over and [len(h) for h in game.hands] == [1, 2, 2, 1]
    game = _game(dealt, [["wild"], ["green 3"], ["blue 1"]])
    game.apply("0 play wild")
    assert game.over and game.result.winners == (0,)  # type: ignore[union-attr]
    plain = _rulebook(tmp_path, "    going_out: continues\n    effect: []\n")
    game = _game(plain, [["wild"], ["green 3"], ["blue 1"]])
    game.apply("0 play wild")  # nothing deals it a card: it has gone out
    assert game.over and game.result.winners == (0,)  # type: ignore[union-attr]
    kept = _rulebook(tmp_path, "    going_out: not_allowed\n    effect: [choose_color]\n")
    game = _game(kept, [["wild"], ["green 3"], ["blue 1"]])
    assert [str(a) for a in game.decision.options] == ["0 draw"]  # type: ignore[union-attr]
    with pytest.raises(IllegalAction, match="may not be played as the last card"):
        game.apply("0 play wild")
    game = _game(kept, [["wild", "red 1"], ["green 3"], ["blue 1"]])
    game.apply("0 play wild")  # not its last card: fine
    assert game.decision.kind == "color"  # type: ignore[union-attr]


def test_the_deal_settles_its_players_uno(tmp_path: Path) -> None:
    """Its player may call UNO with the card at any hand size; it owes UNO only if the deal
    leaves it one card; another seat left with one card owes nothing."""
    rulebook = _rulebook(tmp_path, "    effect: [deal_hands]\n")
    hands = [["wild", "red 1", "red 2", "red 3", "red 4"], ["green 3"], ["blue 1"],
             ["yellow 4"]]
    game = _game(rulebook, hands)
    assert {str(a) for a in game.decision.options} >= {  # type: ignore[union-attr]
        "0 play wild", "0 play wild uno"}
    game.apply("0 play wild")
    assert [len(h) for h in game.hands] == [1, 2, 2, 2] and game._uno_open == 0
    game = _game(rulebook, hands)
    game.apply("0 play wild uno")
    assert game._uno_open == -1
    game = _game(rulebook, [["wild", "red 1"], ["green 3", "green 4", "green 5"],
                            ["blue 1", "blue 2"], ["yellow 4", "yellow 5"]])
    game.apply("0 play wild")  # its next-to-last card, uncalled: the deal leaves it two
    assert game._uno_open == -1
    game = _game(rulebook, [["wild", "red 1", "red 2"], ["green 3"], ["blue 1"], ["yellow 4"]])
    game.apply("0 play wild uno")
    assert [len(h) for h in game.hands] == [1, 2, 1, 1] and game._uno_open == -1


def test_option_is_picks_a_cards_text_when_loaded(tmp_path: Path) -> None:
    wild = ("    effect:\n      - if:\n          option_is: {text: swap}\n"
            "          then: [choose_player, swap_hands]\n          else: [choose_color]\n")
    opts = "options:\n  text: plain\n"
    plain = _rulebook(tmp_path, wild, opts)
    assert {s.op for p in plain.programs for s in p} >= {"choose_color"}
    assert "swap_hands" not in {s.op for p in plain.programs for s in p}
    swap = _rulebook(tmp_path, wild, "options:\n  text: swap\n")
    game = _game(swap)
    game.apply("0 play wild")
    assert game.decision.kind == "target"  # type: ignore[union-attr]


@pytest.mark.parametrize(("given", "message"), [
    ("{txt: swap}", "7:37: `if: option_is` names no option 'txt'; did you mean 'text'?"),
    ("{text: 1}", "7:38: `if: option_is` compares option 'text' = 'plain' with 1, a value of "
                  "another type: it could never hold"),
])
def test_option_is_names_options_of_its_type(tmp_path: Path, given: str, message: str) -> None:
    path = tmp_path / "bad.yaml"
    path.write_text("name: bad\nextends: classic\noptions:\n  text: plain\ncards:\n  wild:\n"
                    f"    effect: [{{if: {{option_is: {given}, then: [choose_color]}}}}]\n")
    rulebook, problems = check(path)
    assert rulebook is None
    assert any(str(p).startswith(f"{path}:{message}") for p in problems), problems


def test_rulebooks_without_the_new_parts_keep_their_digest(tmp_path: Path) -> None:
    """A card's `going_out: ends_round` (the default) and an `if` without the new condition
    leave the digest as it was; `continues` changes it."""
    base = _rulebook(tmp_path, "    effect: [choose_color]\n")
    same = _rulebook(tmp_path, "    going_out: ends_round\n    effect: [choose_color]\n")
    other = _rulebook(tmp_path, "    going_out: continues\n    effect: [choose_color]\n")
    assert digest(base) == digest(same) != digest(other)
    classic = uno_rules.load_rulebook("classic")
    assert all(r is None or (r.going_out == "ends_round" and not r.uno_after)
               for r in classic.rules)
    assert all("option_is" not in s.args for p in classic.programs for s in p if s.op == "if")
    canonical = repr(_canonical(classic.rules))  # what the digest reads of the card rules
    assert "going_out" not in canonical and "uno_after" not in canonical
    assert "going_out" in repr(_canonical(other.rules))


def test_random_rounds_conserve_cards(tmp_path: Path) -> None:
    """Random rounds of classic_2018, with the options' other values too: every card stays
    somewhere, and rounds end."""
    for overrides in ({}, {"shuffle_keep_counts": True, "blank_text": "swap_hands"}):
        rulebook = uno_rules.load_rulebook("classic_2018", settings=overrides)
        rng = random.Random(5)
        for seed in range(15):
            game = rulebook.new_game(rng.choice([2, 3, 5]), seed)
            while not game.over:
                options = game.decision.options  # type: ignore[union-attr]
                plays = [a for a in options if a.kind == "play"]
                game.apply(rng.choice(plays or list(options)))
                assert sorted(game._all_cards()) == sorted(rulebook.deck)


def test_give_cards_to_a_chosen_player_and_to_every_other(tmp_path: Path) -> None:
    """`give_cards` with `to`: a recipient seen from the giver (`target`: the card's chosen
    player), or a set (`others`: one card to each in turn); the give survives a snapshot."""
    chosen = _rulebook(tmp_path, "    effect: [choose_player, {give_cards: {from: self, "
                                 "to: target}}, choose_color]\n")
    game = _game(chosen)
    game.apply("0 play wild")
    game.apply("0 target 2")
    assert game.decision.kind == "give"  # type: ignore[union-attr]
    game.apply("0 give red 1")
    assert game.hand(0) == ["red 2"] and "red 1" in game.hand(2)
    assert game.decision.kind == "color"  # type: ignore[union-attr]
    everyone = _rulebook(tmp_path, "    effect: [{give_cards: {from: self, to: others, "
                                   "together: true}}]\n")
    game = _game(everyone, [["wild", "red 1", "red 2", "red 3"], ["green 3"], ["blue 1"],
                            ["yellow 4"]])
    game.apply("0 play wild")
    game.apply("0 give red 1")
    snap = game.snapshot()
    assert snap["giving"][0]["queue"] == [[0, 1, 2], [0, 1, 3]]
    game = everyone.restore(snap)
    assert game.snapshot() == snap
    game.apply("0 give red 2")
    game.apply("0 give red 3")
    assert [len(h) for h in game.hands] == [0, 2, 2, 2] and game.over


def test_give_cards_to_a_partner_needs_partnerships(tmp_path: Path) -> None:
    path = tmp_path / "bad.yaml"
    path.write_text("name: bad\nextends: classic\ncards:\n  wild:\n"
                    "    effect: [{give_cards: {from: self}}]\n")
    rulebook, problems = check(path)
    assert rulebook is None and "gives cards to partners" in str(problems[0])
    path.write_text("name: ok\nextends: classic\ncards:\n  wild:\n"
                    "    effect: [{give_cards: {from: self, to: next}}]\n")
    assert check(path)[0] is not None
