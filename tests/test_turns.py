"""Turns of several plays (`turn: {plays: each_pile, end: [...]}`, DOS's): the `again`
decision, the `end` action at the end of the table, the piles played this turn in snapshots,
the end steps before going out, and random rounds that keep every card and end."""

from __future__ import annotations

import random
from pathlib import Path

import uno_rules
from uno_rules.engine.actions import Action
from uno_rules.engine.position import Position, game_from_position
from uno_rules.engine.tables import action_table

HERE = Path(__file__).resolve().parent
PLAYS = str(HERE / "rulebooks" / "positive" / "several_plays.yaml")
START = Position(hands=[["red 5", "blue 5", "green 2", "yellow 9"], ["red 1", "blue 1"]],
                 discards=[["red 1"], ["blue 3"], ["green 7"]],
                 draw_pile=["green 8", "yellow 8", "red 8", "blue 8"])


def _game() -> uno_rules.Game:
    return game_from_position(uno_rules.load_rulebook(PLAYS), 2, START, seed=1)


def test_again_offers_the_piles_not_played_on_and_end() -> None:
    game = _game()
    game.apply("0 play red 5 on 0")
    assert game.decision is not None and game.decision.kind == "again"
    assert [str(a) for a in game.legal_actions()] == [
        "0 play blue 5 on 1", "0 play green 2 on 2", "0 end"]
    assert game._played_piles == [0]


def test_end_runs_the_end_steps_then_the_next_turn() -> None:
    game = _game()
    game.apply("0 play red 5 on 0")
    game.apply("0 end")
    assert game.events[-2:] == ["discard pile 0 (2 cards) goes onto the cleared pile",
                                "green 8 is turned up on discard pile 0"]
    assert game.decision is not None and game.decision.seat == 1
    assert game.decision.kind == "turn" and game._played_piles == []


def test_the_end_actions_close_the_table() -> None:
    rulebook = uno_rules.load_rulebook(PLAYS)
    table = action_table(rulebook, 3)
    assert table[-3:] == (Action(0, "end"), Action(1, "end"), Action(2, "end"))
    game = rulebook.new_game(3, 1)
    assert all(game._acts[s].end == len(table) - 3 + s for s in range(3))
    classic = uno_rules.load_rulebook("classic")
    assert not any(a.kind == "end" for a in action_table(classic, 3))


def test_a_snapshot_mid_turn_restores() -> None:
    game = _game()
    game.apply("0 play red 5 on 0")
    data = game.snapshot()
    assert data["played_piles"] == [0]
    again = uno_rules.restore(data)
    assert again._played_piles == [0] and again.legal_ids() == game.legal_ids()
    assert "played_piles" not in uno_rules.load_rulebook("classic").new_game(2, 1).snapshot()


def _again_count(game: uno_rules.Game, rng: random.Random) -> int:
    """Play ``game`` out at random, checking every card is kept and every state mid-turn
    restores (its consistency checked) as it was; how many `again` decisions came."""
    count = 0
    while not game.over:
        count += game.decision is not None and game.decision.kind == "again"
        game.apply(rng.choice(game.legal_actions()))
        if game._played_piles:
            assert uno_rules.restore(game.snapshot()).legal_ids() == game.legal_ids()
        assert sorted(game._all_cards()) == sorted(game.rulebook.deck)
    assert game.outcome is not None and game._played_piles == []
    return count


def test_random_rounds_keep_every_card_and_end() -> None:
    rulebook = uno_rules.load_rulebook(PLAYS)
    assert sum(_again_count(rulebook.new_game(3, seed), random.Random(seed))
               for seed in range(6)) > 0


def test_the_sheet_says_the_turn() -> None:
    from uno_rules.authoring.explain import rule_lines
    lines = rule_lines(uno_rules.load_rulebook(PLAYS))["Your turn"]
    assert any(line.startswith("After a play you may play again") for line in lines)
    assert any(line.startswith("At the end of your turn: Every discard pile") for line in lines)


def test_the_table_words_the_again_decision() -> None:
    from uno_rules.table.screen import option_text, prompt_text
    game = _game()
    game.apply("0 play red 5 on 0")
    assert option_text(Action(0, "end"), game) == "end your turn"
    assert "play again onto a pile not played on this turn" in prompt_text(game, 0)
