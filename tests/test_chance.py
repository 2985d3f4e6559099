"""Table outcomes (`random`, counts given as weights), `repeat`, the `drew` condition, the
`caught` steps and a card's `going_out: not_allowed`: the language parts of UNO Attack."""

from __future__ import annotations

import random
from collections import Counter
from pathlib import Path

import pytest

import uno_rules
from uno_rules import IllegalAction
from uno_rules.engine.actions import Action, shape_problem
from uno_rules.engine.position import Position, game_from_position
from uno_rules.play import driver

HERE = Path(__file__).resolve().parent
JACKPOT = HERE / "rulebooks" / "positive" / "jackpot.yaml"


def jackpot(**settings: object) -> uno_rules.Rulebook:
    return uno_rules.load_rulebook(JACKPOT, settings=settings or None)


def at(rulebook: uno_rules.Rulebook, hands: list[list[str]], discard: list[str],
       draw_pile: list[str]) -> uno_rules.Game:
    return game_from_position(rulebook, len(hands), Position(hands=hands, discard=discard,
                                                             draw_pile=draw_pile))


def test_a_random_step_is_a_chance_node_over_its_branches_by_weight() -> None:
    game = at(jackpot(), [["red 7", "red 1"], ["blue 2"], ["green 3"]], ["red 3"],
              ["blue 1", "green 6", "red 9", "yellow 1"])
    game.apply("0 play red 7")
    decision = game.decision
    assert decision is not None and decision.seat is None and decision.kind == "outcome"
    # the branch of weight 0 is no option
    assert [str(a) for a in decision.options] == ["outcome jackpot", "outcome nothing"]
    assert decision.weights == (1, 9) and decision.chance == (0.1, 0.9)
    outcomes = set(game.legal_ids())
    assert not outcomes & set(game.legal_ids(1))  # no seat's own (seat 1 may catch seat 0)
    with pytest.raises(IllegalAction):
        game.apply("outcome never")
    game.apply("outcome jackpot")
    assert [len(h) for h in game.hands] == [1, 3, 3]
    assert game.events[-3:] == ["the table's outcome: jackpot", "seat 1 draws 2 cards",
                                "seat 2 draws 2 cards"]


def test_an_option_can_weigh_a_branch_and_one_branch_left_asks_nothing() -> None:
    game = at(jackpot(lever=0), [["red 7", "red 1"], ["blue 2"], ["green 3"]], ["red 3"],
              ["blue 1", "green 6"])
    game.apply("0 play red 7")  # only `nothing` can come: no question
    decision = game.decision
    assert decision is not None and (decision.seat, decision.kind) == (1, "turn")


def test_a_count_given_as_weights_is_drawn_at_the_table() -> None:
    game = at(jackpot(), [["red draw_two", "red 1"], ["blue 2"]], ["red 3"],
              ["blue 1", "green 6", "red 9", "yellow 1"])
    game.apply("0 play red draw_two")
    decision = game.decision
    assert decision is not None and decision.kind == "outcome"
    assert [a.arg for a in decision.options] == ["1", "2", "3"]
    assert decision.weights == (1, 2, 1)
    game.apply("outcome 3")
    assert len(game.hands[1]) == 4
    assert game.decision is not None and game.decision.seat == 0  # skipped, two players


def test_a_count_of_one_value_asks_nothing() -> None:
    game = at(jackpot(two_weights={2: 1, 5: 0}), [["red draw_two", "red 1"], ["blue 2"]],
              ["red 3"], ["blue 1", "green 6", "red 9"])
    game.apply("0 play red draw_two")
    assert len(game.hands[1]) == 3 and game.decision is not None and \
        game.decision.kind == "turn"


def test_caught_steps_replace_the_penalty_count_and_resume_the_decision() -> None:
    game = at(jackpot(), [["red 1", "red 2"], ["blue 2", "blue 3"], ["green 3", "green 4"]],
              ["red 3"], ["blue 1", "green 6", "red 9", "yellow 1"])
    game.apply("0 play red 1")  # UNO not called (a bare play)
    game.apply("1 catch 0")
    # a repeat until a draw gives a card: each pass a table outcome of 0 or 1 card
    for value in ("0", "0", "1"):
        decision = game.decision
        assert decision is not None and decision.kind == "outcome", value
        game.apply(f"outcome {value}")
    assert len(game.hands[0]) == 2
    decision = game.decision  # seat 1's turn, taken up again
    assert decision is not None and (decision.seat, decision.kind) == (1, "turn")


def test_repeat_until_stops_when_nothing_is_left_to_draw() -> None:
    attack = uno_rules.load_rulebook("attack")
    # Wild Hit-Fire turned up first, with nothing left to draw: seat 0 chooses the colour,
    # no hit is pressed (no table outcome), and it is skipped.
    game = game_from_position(attack, 2, Position(hands=[["red 1"], ["blue 2"]],
                                                  draw_pile=["wild_hit_fire"]))
    game.apply("0 color blue")
    decision = game.decision
    assert decision is not None and (decision.seat, decision.kind) == (1, "turn")
    assert [len(h) for h in game.hands] == [1, 1]


def test_a_hit_gives_what_exists() -> None:
    attack = uno_rules.load_rulebook("attack")
    game = at(attack, [["wild_hit_fire", "red 1"], ["blue 2"]], ["red 3"], [])
    game.apply("0 play wild_hit_fire")
    game.apply("0 color blue")
    game.apply("outcome 2")  # only red 3 can come (reshuffled from under the top card)
    assert [len(h) for h in game.hands] == [1, 2]
    decision = game.decision
    assert decision is not None and (decision.seat, decision.kind) == (0, "turn")


def test_repeat_until_a_draw_gives_a_card() -> None:
    attack = uno_rules.load_rulebook("attack")
    game = at(attack, [["wild_hit_fire", "red 1"], ["blue 2"], ["green 2"]], ["red 3"],
              ["blue 1", "green 6", "red 9"])
    game.apply("0 play wild_hit_fire")
    game.apply("0 color blue")
    for value in ("0", "0", "2"):
        game.apply(f"outcome {value}")
    assert [len(h) for h in game.hands] == [1, 3, 1]
    decision = game.decision
    assert decision is not None and (decision.seat, decision.kind) == (2, "turn")


@pytest.mark.parametrize(("rule", "playable"), [("not_allowed", False), ("ends_round", True)])
def test_a_card_that_may_not_be_the_last_card(rule: str, playable: bool) -> None:
    attack = uno_rules.load_rulebook("attack", settings={"trade_hands_going_out": rule})
    game = at(attack, [["red trade_hands"], ["blue 2", "blue 3"]], ["red 3"], ["blue 1"])
    options = [str(a) for a in game.decision.options]  # type: ignore[union-attr]
    assert ("0 play red trade_hands" in options) is playable
    if not playable:
        with pytest.raises(IllegalAction, match="may not be played as the last card"):
            game.apply("0 play red trade_hands")
    else:
        game.apply("0 play red trade_hands")
        assert game.over and game.hands[1] == [game.rulebook.by_name["blue 2"],
                                               game.rulebook.by_name["blue 3"]]


def test_outcome_notation() -> None:
    action = Action.parse("outcome 3")
    assert action == Action(None, "outcome", "3") and str(action) == "outcome 3"
    assert str(Action.parse("outcome jackpot")) == "outcome jackpot"
    assert shape_problem(Action(0, "outcome", "3")) == "outcome needs no seat, not 0"
    assert shape_problem(Action(None, "outcome", 3)) is not None


def test_weighted_draws_follow_the_weights_and_never_draw_weight_zero() -> None:
    rng = random.Random(5)
    counts = Counter(driver.weighted((10, 11, 12), (3, 0, 1), rng) for _ in range(4000))
    assert set(counts) == {10, 12}
    assert 0.7 < counts[10] / 4000 < 0.8  # 3 in 4
    assert driver.settle((10, 11), random.Random(1), (0, 5)) == 11


def test_simulation_draws_outcomes_by_their_weights() -> None:
    """The launcher gives no card half the time: over many hits, about half are 0."""
    attack = uno_rules.load_rulebook("attack")
    seen: Counter[str] = Counter()
    for seed in range(20):
        game = attack.new_game(3, seed)
        rng = random.Random(seed)
        while not game.over:
            if driver.is_chance(game):
                action = game.rulebook.action_table(3)[driver.chance(game, rng)]
                if action.kind == "outcome":
                    seen[str(action.arg)] += 1
                game.step(game.rulebook.action_table(3).index(action))
            else:
                game.apply(rng.choice(game.decision.options))  # type: ignore[union-attr]
    total = sum(seen.values())
    assert total > 200 and "7" not in seen
    assert 0.4 < seen["0"] / total < 0.6


def test_a_game_at_a_table_outcome_snapshots_and_restores() -> None:
    game = at(jackpot(), [["red 7", "red 1"], ["blue 2"], ["green 3"]], ["red 3"],
              ["blue 1", "green 6", "red 9", "yellow 1"])
    game.apply("0 play red 7")
    snap = game.snapshot()
    assert snap["pending"]["kind"] == "outcome" and snap["pending"]["seat"] is None
    again = game.rulebook.restore(snap)
    assert again.snapshot() == snap
    assert again.decision == game.decision
    bad = {**snap, "pending": {**snap["pending"], "data": [["jackpot", 5, 0]]}}
    with pytest.raises(uno_rules.SnapshotError):
        game.rulebook.restore(bad)
    for g in (game, again):
        g.apply("outcome nothing")
    assert again.snapshot() == game.snapshot()


def test_rulebooks_without_table_outcomes_keep_their_action_tables() -> None:
    classic = uno_rules.load_rulebook("classic")
    assert not any(a.kind == "outcome" for a in classic.action_table(4))
    attack = uno_rules.load_rulebook("attack")
    table = attack.action_table(4)
    assert [str(a) for a in table if a.kind == "outcome"] == [f"outcome {k}" for k in range(7)]
    # the losers and passes keep their place before them
    acts = attack.new_game(4, 1)._acts[2]
    assert str(table[acts.pass_]) == "2 pass" and str(table[acts.loser[3]]) == "loser 3"
    assert str(table[acts.outcome["4"]]) == "outcome 4"
