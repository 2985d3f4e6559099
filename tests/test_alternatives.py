"""A card's alternative (`alternatives`, deck groups' `alternative` and `second_colors`): the
`side` decision, its actions, notation, snapshots, observation and answers at the table."""

from __future__ import annotations

import uno_rules
from uno_rules.engine.actions import Action
from uno_rules.engine.position import Position, game_from_position
from uno_rules.table.answers import Chosen, interpret

POSITION = Position(hands=[["red 5 flex", "blue 2"], ["blue 3"], ["green 3"]],
                    discard=["yellow 4"])


def _flex() -> uno_rules.Rulebook:
    return uno_rules.load_rulebook("flex")


def test_only_a_rulebook_with_alternatives_has_side_actions() -> None:
    classic, flex = uno_rules.load_rulebook("classic"), _flex()
    assert not [a for a in classic.action_table(3) if a.kind == "side"]
    sides = [str(a) for a in flex.action_table(3) if a.kind == "side"]
    assert sides == [f"{s} side {n}" for s in range(3) for n in ("normal", "flex")]
    assert flex.action_table(3)[-6:] == tuple(Action.parse(t) for t in sides)


def test_the_side_action_round_trips_in_notation() -> None:
    action = Action(1, "side", "flex")
    assert str(action) == "1 side flex" and Action.parse("1 side flex") == action


def test_a_card_matching_by_its_second_colour_offers_its_alternative_only() -> None:
    game = game_from_position(_flex(), 3, POSITION, seed=1)
    assert "0 play red 5 flex" in [str(a) for a in game.legal_actions()]
    game.apply("0 play red 5 flex")
    assert game.decision is not None and game.decision.kind == "side"
    assert [str(a) for a in game.decision.options] == ["0 side flex"]


def test_a_pending_side_survives_a_snapshot_and_the_integer_lane() -> None:
    game = game_from_position(_flex(), 3, Position(
        hands=[["red 5 flex", "blue 2"], ["blue 3"], ["green 3"]], discard=["red 4"]), seed=1)
    game.apply("0 play red 5 flex")
    snap = game.snapshot()
    assert snap["pending"]["kind"] == "side" and snap["pending"]["data"] is True
    again = game.rulebook.restore(snap)
    table = game.rulebook.action_table(3)
    assert [str(table[i]) for i in again.legal_ids()] == ["0 side normal", "0 side flex"]
    again.step(again.legal_ids()[1])
    assert again.snapshot()["player_state"] == {"power": ["red", "green", "green"]}


def test_the_side_is_logged_and_observed() -> None:
    from uno_rules.rl.observation import Observer
    game = game_from_position(_flex(), 3, POSITION, seed=1)
    game.apply("0 play red 5 flex")
    obs = Observer(game.rulebook, 3)
    kinds = obs.segment("decision_kind")
    assert obs.encode(game, 0)[kinds.offset + kinds.length - 1] == 1  # side: the last kind
    game.apply("0 side flex")
    assert "seat 0 plays it as flex" in game.events


def test_a_side_is_answered_by_its_name_at_the_table() -> None:
    game = game_from_position(_flex(), 3, POSITION, seed=1)
    game.apply("0 play red 5 flex")
    assert game.decision is not None
    assert interpret("flex", game.decision.options, game, 0) == Chosen(Action(0, "side",
                                                                              "flex"))
