"""The numbered action space and its legality mask."""

from __future__ import annotations

import os
import random
from pathlib import Path

import pytest

import uno_rules
from uno_rules.spaces import ActionSpace

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
SEEDS = 30 if os.environ.get("UNO_LONG", "") not in ("", "0") else 3  # long run: conftest.py


@pytest.mark.parametrize("name, house, players", [("classic", (), 3), ("teams", (), 4),
                                                  ("ted_lasso", (), 2), ("flip", (), 3),
                                                  ("two_piles", (), 3),
                                                  ("classic", ("jump_in", "stacking"), 4)])
def test_mask_is_exactly_the_legal_actions(name: str, house: tuple, players: int) -> None:
    rb = uno_rules.load_rulebook(EXAMPLES / f"{name}.yaml" if name == "two_piles" else name,
                                 house=house)
    space = ActionSpace(rb, players)
    assert len(set(space)) == len(space)
    for seed in range(SEEDS):
        game = rb.new_game(players, seed)
        rng = random.Random(seed)
        while not game.over:
            mask = space.mask(game)
            legal = {space.index(a) for a in game.legal_actions()}
            # Every legal action is marked, and nothing else: as many marks as legal actions.
            assert mask.count(True) == len(legal) > 0
            assert all(mask[i] for i in legal)
            # So the marked numbers are exactly ``legal``; sorted, they are the marks in order
            # (the same pick as scanning the mask, without scanning all of it every step).
            pick = rng.choice(sorted(legal))
            game.apply(space[pick])
        assert not any(space.mask(game))


def test_index_round_trip_and_unknown_action(classic: uno_rules.Rulebook) -> None:
    space = ActionSpace(classic, 2)
    action = uno_rules.Action.parse("1 play red 5 uno")
    assert space[space.index(action)] == action
    with pytest.raises(ValueError, match="not in this action space"):
        space.index(uno_rules.Action(5, "draw"))


def test_a_mask_of_another_table_is_refused() -> None:
    """A 2-player space given a 3-player game marked seat 2's actions nowhere (or raised a
    bare KeyError): a mask that silently lies."""
    rulebook = uno_rules.load_rulebook("classic")
    space = ActionSpace(rulebook, 2)
    for game in (rulebook.new_game(3, seed=1),
                 uno_rules.load_rulebook("no_mercy").new_game(2, seed=1)):
        with pytest.raises(ValueError, match="in the action space of classic for 2"):
            space.mask(game)
    assert any(space.mask(rulebook.new_game(2, seed=1)))
