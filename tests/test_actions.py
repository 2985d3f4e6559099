"""Action notation: parse, str and repr round-trip."""

from __future__ import annotations

import pytest

from uno_rules import Action, NotationError


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
