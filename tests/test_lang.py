"""Language parts of issue 30 shown by house rules: answering a pending draw with a card
that isn't a draw card (`answers_draw`, `draw_pending`), what a hand holds (`holds`),
jump-in with wilds and knocking out the round's worst hand (settings)."""

from __future__ import annotations

import json
import random

import pytest
from table_driver import run

import uno_rules
from uno_rules.engine.conditions import CONDITIONS
from uno_rules.engine.position import Position, game_from_position
from uno_rules.engine.records import Ctx
from uno_rules.engine.snapshot import digest
from uno_rules.play.match import Match, Standing, worst_hands
from uno_rules.sim.simulate import random_moves
from uno_rules.table.screen import scores_lines


def _game(rb: uno_rules.Rulebook, players: int, hands: list[list[str]],
          draw_pile: list[str] | None = None) -> uno_rules.Game:
    return game_from_position(rb, players, Position(hands=hands, discard=["red 3"],
                                                    draw_pile=draw_pile), seed=1)


def test_answers_draw_is_compiled_only_where_given() -> None:
    plain = uno_rules.load_rulebook("classic", house=["stacking"])
    deflect = uno_rules.load_rulebook("classic", house=["deflect"])
    assert not any(r is not None and r.answers_draw for r in plain.rules)
    assert {r.rank for r in deflect.rules if r is not None and r.answers_draw} == {"reverse"}
    assert digest(plain) != digest(deflect)


@pytest.mark.parametrize("house, card, answers", [
    (["stacking"], "red reverse", False), (["deflect"], "red reverse", True),
    (["deflect"], "blue reverse", False), (["pass_on"], "red skip", True),
    (["pass_on"], "red reverse", False)])
def test_a_pending_draw_is_answered_only_by_an_answering_card_that_is_playable(
        house: list[str], card: str, answers: bool) -> None:
    rb = uno_rules.load_rulebook("classic", house=house)
    game = _game(rb, 4, [["red draw_two", "red 1"], [card, "blue 1"], ["green 1"],
                         ["yellow 1"]], ["blue 4", "blue 5", "blue 6"])
    game.apply("0 play red draw_two")
    plays = {str(a.arg) for a in game.decision.options if a.kind == "play"}
    assert plays == ({card} if answers else set()), plays


def test_a_draw_passed_round_the_table_is_drawn_once_whole() -> None:
    rb = uno_rules.load_rulebook("classic", house=["pass_on"])
    game = _game(rb, 3, [["red draw_two", "red 1"], ["red skip", "blue 1"],
                         ["red skip", "green 1"]], ["blue 4", "blue 5", "blue 6"])
    for action in ("0 play red draw_two", "1 play red skip", "2 play red skip"):
        game.apply(action)
    assert game.stacked.total == 2 and game.decision.seat == 0
    game.apply("0 draw")
    assert [len(h) for h in game.hands] == [3, 1, 1] and game.stacked.total == 0


@pytest.mark.parametrize("value, holds", [
    ({"rank": "wild"}, True), ({"rank": "wild", "count": 2}, False),
    ({"color": "red", "count": 2}, True), ({"color": "blue"}, False),
    ({"who": "next", "count": 3}, True), ({"who": "next", "count": 4}, False),
    ({"who": "next", "rank": "5", "color": "green"}, True), ({"who": "prev", "rank": 5}, False)])
def test_holds_counts_the_cards_of_a_kind_in_a_seat_hand(value: dict, holds: bool) -> None:
    rb = uno_rules.load_rulebook("classic")
    game = _game(rb, 3, [["wild", "red 1", "red 2"], ["green 5", "blue 2", "yellow 7"],
                         ["blue 9"]])
    cond = CONDITIONS["holds"]
    assert cond.holds is not None
    assert cond.holds(game, Ctx(0), value) is holds  # type: ignore[arg-type]


def test_knock_out_worst_ends_a_match_within_players_minus_one_rounds() -> None:
    rb = uno_rules.load_rulebook("classic", house=["knock_out_worst"])
    for seed in range(4):
        match, rng = Match(rb, 5, seed), random.Random(seed)
        while not match.over:
            random_moves(match.game, rng)
            out, game = list(match.out), match.game
            worst = worst_hands(game, out)
            match.next_round()
            assert worst and set(worst) <= set(match.out) and len(match.out) > len(out)
        assert match.rounds <= 4 and len(match.winners) == 1
        assert [s for s in range(5) if s not in match.out] == list(match.winners)


def test_knock_out_worst_standing_and_snapshot() -> None:
    rb = uno_rules.load_rulebook("classic", house=["knock_out_worst"])
    plain = uno_rules.load_rulebook("classic", settings={"scoring": "elimination"})
    below = Standing([0, 30, 0, 0], [1], 3)
    assert below.problems(rb, 4) == []
    assert below.problems(plain, 4)  # out below the target: not plain elimination
    match, rng = Match(rb, 4, 3), random.Random(3)
    random_moves(match.game, rng)
    match.next_round()
    data = json.loads(json.dumps(match.snapshot()))
    assert Match.restore(rb, data).snapshot() == data and match.out


def test_the_rules_sheet_says_the_new_parts() -> None:
    from uno_rules.authoring.explain import explain

    sheet = explain(uno_rules.load_rulebook(
        "classic", house=["deflect", "pass_on", "jump_in_wilds", "knock_out_worst"]))
    assert "answered, the same way, with a reverse or skip" in sheet
    assert "or the same wild" in sheet and "holding the most points" in sheet
    plain = explain(uno_rules.load_rulebook("classic", house=["stacking", "jump_in"]))
    assert "answered, the same way" not in plain and "not a wild" in plain


def test_the_terminal_table_plays_a_knock_out_match_to_its_end() -> None:
    session, _ = run("classic", 4, 3, [0], house=["deflect", "pass_on", "jump_in_wilds",
                                                  "knock_out_worst"])
    match = session.match
    assert match.over and len(match.winners) == 1 and match.rounds <= 3
    assert "or with the round's worst hand" in "\n".join(scores_lines(match))
