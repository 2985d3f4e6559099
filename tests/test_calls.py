"""UNO owed after another's card (``uno_after_others``): the seats a swap or a rotation of
hands leaves at one card call for themselves (``S uno S``, out of turn) or are caught in
classic's window; the state field ``owed`` in snapshots, views, events and observations."""

from __future__ import annotations

import pytest

import uno_rules
from uno_rules import Game, IllegalAction
from uno_rules.engine.position import Position, game_from_position
from uno_rules.rl.observation import Observer

SWAP = Position(hands=[["wild_forced_swap", "wild_skip"], ["wild", "wild"],
                       ["wild_draw_two", "wild", "wild"], ["wild", "wild"]],
                discard=["wild"])


def _swapped(settings: dict[str, object] | None = None) -> Game:
    """All Wild: seat 0 swaps its last-but-one hand with seat 2's three cards."""
    game = game_from_position(uno_rules.load_rulebook("all_wild", settings=settings), 4, SWAP,
                              seed=1)
    game.apply("0 play wild_forced_swap uno")
    game.apply("0 target 2")
    return game


def test_the_target_owes_its_call_and_every_other_seat_may_catch_it() -> None:
    game = _swapped()
    assert game._owed == [2] and game._uno_open == -1
    extra = {str(a) for a in game.out_of_turn_actions()}
    assert extra == {"2 uno 2", "0 catch 2", "1 catch 2", "3 catch 2"}
    assert game.legal_ids(2) == (game._acts[2].uno[2], game._acts[2].pass_)
    game.apply("2 uno 2")
    assert game._owed == [] and game.out_of_turn_actions() == []
    assert game.events[-1] == "seat 2 calls UNO"


def test_without_the_setting_the_target_owes_nothing() -> None:
    game = _swapped({"uno_after_others": False})
    assert game._owed == [] and game.out_of_turn_actions() == []
    with pytest.raises(IllegalAction, match="nobody is open"):
        game.apply("2 uno 2")


def test_a_catch_makes_the_target_draw_and_the_next_action_closes_the_window() -> None:
    caught = _swapped()
    caught.apply("3 catch 2")
    assert len(caught.hands[2]) == 3 and caught._owed == []
    late = _swapped()
    late.apply("1 play wild")
    assert late._owed == []
    with pytest.raises(IllegalAction, match="only seat 1 can"):
        late.apply("3 catch 2")


def test_owed_is_in_the_snapshot_only_when_not_empty_and_restores() -> None:
    game = _swapped()
    data = game.snapshot()
    assert data["owed"] == [2]
    again = uno_rules.restore(data)
    assert again._owed == [2] and again.snapshot() == data
    game.apply("2 uno 2")
    assert "owed" not in game.snapshot()
    bad = {**data, "owed": [2, 2]}
    with pytest.raises(uno_rules.SnapshotError, match="owed"):
        uno_rules.restore(bad)


def test_views_and_observations_show_the_seat_open_to_a_catch() -> None:
    game = _swapped()
    assert game.seat_view(1).owed == (2,) and game.view(1)["owed"] == [2]
    obs = Observer(game.rulebook, 4)
    seg = obs.segment("uno_open")
    vector = obs.encode(game, 1)
    assert [vector[seg.offset + k] for k in range(4)] == [0, 1, 0, 0]  # seat 2, one after 1
    game.apply("2 uno 2")
    assert "owed" not in game.view(1)


def test_a_rotation_of_hands_leaves_its_receivers_owing() -> None:
    """classic with seven_zero: a 0 passes every hand on; the seat given one card owes."""
    rulebook = uno_rules.load_rulebook("classic", house=["seven_zero"],
                                       settings={"uno_after_others": True})
    game = game_from_position(rulebook, 3, Position(
        hands=[["red 0", "red 1", "red 2"], ["blue 1"], ["green 1", "green 2"]],
        discard=["red 5"]), seed=1)
    game.apply("0 play red 0")
    # hands pass clockwise: seat 1 gets seat 0's two cards, seat 2 seat 1's one card
    assert [len(h) for h in game.hands] == [2, 2, 1]
    assert game._owed == [2]
    plain = uno_rules.load_rulebook("classic", house=["seven_zero"])
    same = game_from_position(plain, 3, Position(
        hands=[["red 0", "red 1", "red 2"], ["blue 1"], ["green 1", "green 2"]],
        discard=["red 5"]), seed=1)
    same.apply("0 play red 0")
    assert same._owed == [] and same.out_of_turn_actions() == []


def test_the_table_marks_the_seat_and_reads_its_call() -> None:
    """The terminal table: the seat owing its call is marked; ``uno`` (or ``call``) typed at
    its prompt makes it."""
    from uno_rules.table.answers import Chosen, interpret
    from uno_rules.table.screen import Style, table_lines

    game = _swapped()
    lines = table_lines(game, 2, Style(False))
    assert any("seat 2" in line and "UNO owed" in line for line in lines), lines
    assert not any("colour:" in line for line in lines)  # a deck without colours
    mine = [a for a in game.out_of_turn_actions() if a.seat == 2]
    for typed in ("uno", "uno 2", "call"):
        answer = interpret(typed, mine, game, 2)
        assert isinstance(answer, Chosen) and str(answer.action) == "2 uno 2", typed


def test_a_false_call_is_offered_only_with_its_penalty_and_costs_it() -> None:
    position = Position(hands=[["red 1", "red 2", "red 3"], ["blue 1"], ["green 1"]],
                        discard=["red 5"])
    plain = game_from_position(uno_rules.load_rulebook("classic"), 3, position, seed=2)
    assert not any(a.uno for a in plain.decision.options)  # type: ignore[union-attr]
    with pytest.raises(IllegalAction, match="next-to-last"):
        plain.apply("0 play red 1 uno")
    house = uno_rules.load_rulebook("classic", settings={"false_call_penalty": 3})
    game = game_from_position(house, 3, position, seed=2)
    assert any(a.uno for a in game.decision.options)  # type: ignore[union-attr]
    game.apply("0 play red 1 uno")
    assert len(game.hands[0]) == 5 and game.events[-2:] == ["seat 0 calls UNO falsely",
                                                             "seat 0 draws 3 cards"]


def test_the_call_is_named_as_the_rulebook_says() -> None:
    """``call_name``: DOS's call is DOS, in the events and on the sheet."""
    from uno_rules.authoring.explain import rule_lines
    rulebook = uno_rules.load_rulebook("dos")
    assert rulebook.settings.call_name == "DOS"
    game = game_from_position(rulebook, 2, Position(
        hands=[["red 7", "green 1", "green 3"], ["yellow 1", "yellow 3", "red 4"]],
        discards=[["blue 7"], ["green 10"], [], [], [], [], [], []]), seed=1)
    game.apply("0 play red 7")
    game.apply("1 catch 0")
    assert game.events[-2] == "seat 1 catches seat 0 without DOS"
    assert "Call DOS when you play down to 2 cards" in " ".join(rule_lines(rulebook)["Your turn"])
    classic = uno_rules.load_rulebook("classic")
    assert classic.settings.call_name == "UNO"
    assert any("Call UNO when" in line for line in rule_lines(classic)["Your turn"])
