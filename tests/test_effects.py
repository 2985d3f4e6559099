"""The primitives: what a step does when the player it names was never chosen, and when a
choice is still asked at the end of a round."""

from __future__ import annotations

from pathlib import Path

import uno_rules
from uno_rules.engine.position import Position, game_from_position


def _rulebook(tmp_path: Path, effect: str) -> uno_rules.Rulebook:
    path = tmp_path / "variant.yaml"
    path.write_text(f"name: variant\nextends: classic\ncards:\n  wild:\n    effect: {effect}\n")
    return uno_rules.load_rulebook(path)


def test_a_choice_read_through_a_default_is_still_asked_at_the_end(tmp_path: Path) -> None:
    """A bare `contest` reads `target` by default (`with: target`): the target is asked even
    when the card ends the round, as with `contest: target` written out."""
    for contest in ("contest", "{contest: target}"):
        rulebook = _rulebook(tmp_path, f"[choose_player, {contest}, "
                                       "{draw: {who: loser, count: 2}}]")
        choose = next(step for program in rulebook.programs for step in program
                      if step.op == "choose_player")
        assert choose.at_end, contest
        game = game_from_position(rulebook, 3, Position(
            hands=[["wild"], ["red 1", "red 2"], ["blue 1", "blue 2"]], discard=["red 5"],
            draw_pile=["green 1", "green 2", "green 3"]))
        game.apply("0 play wild")
        assert game.decision.kind == "target"  # type: ignore[union-attr]
        game.apply("0 target 2")
        game.apply("loser 2")
        assert game.over and game.hand(2) == ["blue 1", "blue 2", "green 1", "green 2"]


NOBODY_LEFT = "[{each: {seats: others, then: [knock_out]}}, choose_player, "


def test_a_player_never_chosen_draws_nothing(tmp_path: Path) -> None:
    """`choose_player` with nobody left to choose leaves `target` unset: a later step naming
    it does nothing (it used to read seat -1, the last seat, and deal cards to a player
    knocked out)."""
    rulebook = _rulebook(tmp_path, NOBODY_LEFT + "{draw: {who: target, count: 2}}]")
    game = game_from_position(rulebook, 3, Position(
        hands=[["wild", "red 9"], ["red 1"], ["blue 1"]], discard=["red 5"],
        draw_pile=["green 1", "green 2", "green 3"]))
    game.apply("0 play wild")
    assert game.over and game.result.winners == (0,)  # type: ignore[union-attr]
    assert game.eliminated == [1, 2] and game.hands[1] == game.hands[2] == []
    assert game.hand(0) == ["red 9"]


def test_steps_naming_nobody_do_nothing(tmp_path: Path) -> None:
    effect = NOBODY_LEFT + (
        "{discard_color: target}, {turn_to: target}, {knock_out: target}, "
        "{swap_hands: {with: target}}, {draw_until_color: target}, "
        "{draw_until_playable: target}, {choose_color: target}, {contest: target}, "
        "{draw: {who: loser, count: 1}}, "
        "{if: {out: target, then: [{draw: {who: self, count: 3}}]}}]")
    rulebook = _rulebook(tmp_path, effect)
    game = game_from_position(rulebook, 3, Position(
        hands=[["wild", "red 9"], ["red 1"], ["blue 1"]], discard=["red 5"],
        draw_pile=["green 1", "green 2", "green 3"]))
    game.apply("0 play wild")
    assert game.over and game.hand(0) == ["red 9"]
    assert game.eliminated == [1, 2] and game.hands[1] == game.hands[2] == []
    assert len(game.draw_pile) == 5  # the two hands knocked out go under it; none drawn
