"""The terminal play loop, driven by scripted replies."""

from __future__ import annotations

from collections.abc import Iterator

from click.testing import CliRunner

import uno_rules
from uno_rules.cli import cli
from uno_rules.play import play
from uno_rules.position import Position, game_from_position


def _script(replies: list[str]) -> tuple[list[str], object]:
    said: list[str] = []
    it: Iterator[str] = iter(replies)
    return said, lambda prompt: next(it, None)


def test_a_human_plays_a_round_to_the_end() -> None:
    game = uno_rules.load_rulebook("classic").new_game(2, seed=3)
    said, ask = _script(["1"] * 500)
    assert play(game, [0], ask, said.append, seed=3) is True
    assert game.over and said[-1].startswith("round over: seat(s)")
    assert any(line.startswith("your hand (seat 0):") for line in said)


def test_bad_replies_are_explained_and_q_quits() -> None:
    game = uno_rules.load_rulebook("classic").new_game(3, seed=1)
    said, ask = _script(["99", "fly away", "q"])
    assert play(game, [0], ask, said.append, seed=1) is False
    assert sum("not an option" in line for line in said) == 2 and said[-1] == "bye"
    assert not game.over


def test_actions_may_be_typed_in_notation() -> None:
    rb = uno_rules.load_rulebook("classic")
    game = game_from_position(rb, 2, Position(hands=[["red 1"], ["blue 1"]], discard=["red 5"]))
    said, ask = _script(["0 play RED 1"])
    assert play(game, [0], ask, said.append) is True
    assert game.result == uno_rules.Result((0,), 1)


def _contest(hand_of_1: list[str]) -> uno_rules.Game:
    """Ted Lasso, 3 players: seat 1 has played a Grunt against seat 0; the contest (a chance
    node, no seat) is pending."""
    rb = uno_rules.load_rulebook("ted_lasso")
    game = game_from_position(rb, 3, Position(
        hands=[["green 1", "green 2"], ["wild_roy_kent_grunt", *hand_of_1], ["yellow 1"]],
        discard=["red 5"], turn=1, draw_pile=["blue 1", "blue 2", "blue 3", "blue 4"]))
    game.apply("1 play wild_roy_kent_grunt")
    game.apply("1 color red")
    game.apply("1 target 0")
    assert game.decision is not None and game.decision.seat is None
    return game


def test_a_contest_is_drawn_and_shown_not_asked() -> None:
    """The human in a contest is not prompted for its loser: the table's draw (the bots'
    RNG) settles it and the result shows before the human's next prompt."""
    game = _contest(["red 1", "red 2"])
    said, ask = _script(["q"])
    play(game, [0], ask, said.append, seed=1)
    losers = [line for line in said if line.endswith("loses the contest")]
    assert len(losers) == 1 and not any("loser" in line for line in said)
    first_prompt = next(i for i, line in enumerate(said) if line.startswith("your hand"))
    assert said.index(losers[0]) < first_prompt
    loser = int(losers[0].split()[1])
    assert loser in (0, 1) and len(game.hands[loser]) == 4  # 2 or 3 held, 2 drawn, 1 played


def test_a_human_may_catch_while_the_table_settles_a_contest() -> None:
    """A human with an out-of-turn action during a contest is offered only that (enter lets
    the table draw the contest's result)."""
    game = _contest(["red 1"])  # seat 1 left with one card, UNO not called
    said, ask = _script(["", "q"])
    play(game, [0], ask, said.append, seed=1)
    prompt = said.index("the table settles the contest (press enter to let it act, or jump "
                        "in):")
    # only the catch offered; enter pressed: the contest is drawn and its result shown next
    assert said[prompt + 1:prompt + 3] in (["  1) 0 catch 1", f"  seat {s} loses the contest"]
                                           for s in (0, 1))


def test_a_human_may_jump_in_while_a_bot_is_to_act() -> None:
    rb = uno_rules.load_rulebook("classic", house=["jump_in"])
    game = game_from_position(rb, 3, Position(
        hands=[["red 5", "blue 9"], ["red 5", "green 1", "green 2"], ["yellow 1", "yellow 2"]],
        discard=["red 3"], turn=1, draw_pile=["yellow 7", "yellow 8", "yellow 9"]), seed=2)
    game.apply("1 play red 5")
    said, ask = _script(["0 jump_in red 5", "q"])
    play(game, [0], ask, said.append, seed=2)
    assert any("jump in" in line for line in said)
    assert "  seat 0 jumps in" in said and "  seat 0 plays red 5" in said


def test_cli_play_arguments() -> None:
    runner = CliRunner()
    result = runner.invoke(cli, ["play", "classic", "--players", "2", "--seed", "4"],
                           input="1\n" * 400)
    assert result.exit_code == 0 and "round over" in result.output
    bad = runner.invoke(cli, ["play", "classic", "--players", "3", "--human", "5"])
    assert bad.exit_code == 1 and "seats are 0 to 2" in bad.output
    odd = runner.invoke(cli, ["play", "teams", "--players", "5"])
    assert odd.exit_code == 1 and "4, 6, 8" in odd.output


def test_the_table_shows_the_other_side_and_every_discard_pile() -> None:
    from pathlib import Path

    from uno_rules.play import describe_table as table

    flip = uno_rules.load_rulebook("flip").new_game(2, 3)
    lines = table(flip, 0)
    assert lines[0].startswith("side in play: light (the dark side shows: seat 1: ")
    assert "draw pile top " in lines[0] and "seat 0:" not in lines[0].split("shows:")[1]
    piles = uno_rules.load_rulebook(Path(__file__).parent.parent / "examples" /
                                    "two_piles.yaml").new_game(2, 3)
    assert table(piles, 0)[0].startswith("pile 0: red 4 (red); pile 1: yellow 9 (yellow)")


def test_answers_that_look_like_numbers_are_not_options() -> None:
    from uno_rules.play import _choose

    options = list(uno_rules.load_rulebook("classic").new_game(2, 1).decision.options)
    assert _choose(options, "1") == options[0]
    for answer in ("²", "9" * 5000, "١", "0" * 10 + "1"):
        assert _choose(options, answer) is None


def test_a_stalled_round_says_why() -> None:
    game = uno_rules.load_rulebook("classic").new_game(2, 1, max_actions=3)
    lines: list[str] = []
    assert play(game, [], lambda prompt: None, lines.append, seed=1) is False
    assert lines[-1] == "round stopped: the round's budget of 3 actions ran out"
