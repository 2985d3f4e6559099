"""Discard piles that open, close and are counted: ``open_piles``, ``clear_piles``,
``refill_piles`` and ``each_pile`` (DOS's Centre Row) — the deal, random rounds that keep
every card, snapshots, views, observations and events with closed piles."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

import uno_rules
from uno_rules.engine.position import Position, game_from_position
from uno_rules.rl.observation import Observer

HERE = Path(__file__).resolve().parent
ROW = str(HERE / "rulebooks" / "positive" / "centre_row.yaml")
KEPT = str(HERE / "rulebooks" / "positive" / "centre_row_kept.yaml")
CLEAR = Position(hands=[["red 9", "green 1", "green 2"], ["yellow 1", "yellow 2"]],
                 discards=[["red 1", "red 3"], ["blue 2", "blue 5"], [], []],
                 draw_pile=["green 7", "yellow 8", "red 2"])


def _row() -> uno_rules.Rulebook:
    return uno_rules.load_rulebook(ROW)


def test_the_deal_turns_up_the_open_piles_only() -> None:
    rulebook = _row()
    assert rulebook.open_piles == 2 and rulebook.turned_piles() == 2
    for seed in range(5):
        game = rulebook.new_game(3, seed)
        assert [bool(p) for p in game._discards] == [True, True, False, False]
        placed = sum(map(len, game.hands)) + sum(map(len, game._discards))
        assert placed + len(game.draw_pile) == len(rulebook.deck) and game._first_turns >= 2
    assert uno_rules.load_rulebook("classic").turned_piles() == 1


def test_clearing_and_refilling_in_events_and_views() -> None:
    game = game_from_position(_row(), 2, CLEAR, seed=1)
    game.apply("0 play red 9")
    assert game.events == ["seat 0 plays red 9",
                           "discard pile 0 (3 cards) goes onto the cleared pile",
                           "discard pile 1 (2 cards) goes onto the cleared pile",
                           "green 7 is turned up on discard pile 0",
                           "yellow 8 is turned up on discard pile 1"]
    assert [len(p) for p in game._piles] == [5] and [len(p) for p in game._discards] == \
        [1, 1, 0, 0]
    assert game.seat_view(1).tops[2:] == (-1, -1)
    observer = Observer(game.rulebook, 2)
    assert len(observer.encode(game, 1)) == observer.size


def test_a_snapshot_with_closed_piles_restores() -> None:
    game = game_from_position(_row(), 2, CLEAR, seed=1)
    game.apply("0 play red 9")
    again = uno_rules.restore(game.snapshot())
    assert again._discards == game._discards and again._colors == game._colors
    assert again.legal_ids() == game.legal_ids()


@pytest.mark.parametrize("path", [ROW, KEPT])
def test_random_rounds_keep_every_card_and_end(path: str) -> None:
    rulebook = uno_rules.load_rulebook(path)
    cleared = 0
    for seed in range(6):
        game = rulebook.new_game(3, seed)
        rng = random.Random(seed)
        while not game.over:
            game.apply(rng.choice(game.legal_actions()))
            assert sorted(game._all_cards()) == sorted(rulebook.deck)
        assert game.outcome is not None
        cleared += sum("goes onto the cleared pile" in e for e in game.events)
    assert cleared > 0


def test_the_sheet_says_which_piles_start_closed() -> None:
    from uno_rules.authoring.explain import rule_lines
    assert any("turned up on the first 2 only" in line for line in rule_lines(_row())["Setup"])


def _reshuffled(path: str) -> uno_rules.Game:
    """After a 9 clears two piles onto `cleared` and the refill empties the draw pile, a
    play on pile 1 leaves a card under its top; then seat 0 draws (a reshuffle)."""
    position = Position(hands=CLEAR.hands, discards=CLEAR.discards,
                        draw_pile=["green 7", "yellow 8"])
    game = game_from_position(uno_rules.load_rulebook(path), 2, position, seed=1)
    game.apply("0 play red 9")
    game.apply("1 play yellow 2 on 1")
    assert not game.draw_pile and [len(p) for p in game._discards] == [1, 2, 0, 0]
    game.apply("0 draw")
    return game


def test_reshuffle_discards_false_leaves_the_row_alone() -> None:
    kept = _reshuffled(KEPT)
    assert [len(p) for p in kept._discards] == [1, 2, 0, 0] and len(kept.draw_pile) == 4
    assert [len(p) for p in kept._piles] == [0]
    taken = _reshuffled(ROW)  # the default: the card under pile 1's top joins too
    assert [len(p) for p in taken._discards] == [1, 1, 0, 0] and len(taken.draw_pile) == 5


def test_reshuffle_discards_false_with_nothing_to_reshuffle_draws_nothing() -> None:
    rulebook = uno_rules.load_rulebook(KEPT)
    game = game_from_position(rulebook, 2, Position(
        hands=[["red 8", "green 1"], ["yellow 1", "yellow 2"]],
        discards=[["red 1", "red 3"], ["blue 2", "blue 5"], [], []], draw_pile=[]), seed=1)
    assert not game._can_draw()
    assert [len(p) for p in game._discards] == [2, 2, 0, 0]


def test_the_sheet_says_the_row_is_left_alone() -> None:
    from uno_rules.authoring.explain import rule_lines
    kept = uno_rules.load_rulebook(KEPT)
    assert any("the discard piles are left alone" in line
               for line in rule_lines(kept)["Your turn"])
