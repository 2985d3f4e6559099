"""The numbered action space and its legality mask."""

from __future__ import annotations

import random

import pytest

import uno_rules
from uno_rules.spaces import ActionSpace


@pytest.mark.parametrize("name, house, players", [("classic", (), 3), ("teams", (), 4),
                                                  ("ted_lasso", (), 2),
                                                  ("classic", ("jump_in", "stacking"), 4)])
def test_mask_is_exactly_the_legal_actions(name: str, house: tuple, players: int) -> None:
    rb = uno_rules.load_rulebook(name, house=house)
    space = ActionSpace(rb, players)
    assert len(set(space)) == len(space)
    for seed in range(3):
        game = rb.new_game(players, seed)
        rng = random.Random(seed)
        while not game.over:
            mask = space.mask(game)
            legal = game.legal_actions()
            assert sum(mask) == len(set(legal)) > 0
            assert all(mask[space.index(a)] for a in legal)
            pick = rng.choice([i for i, ok in enumerate(mask) if ok])
            game.apply(space[pick])
        assert not any(space.mask(game))


def test_index_round_trip_and_unknown_action(classic: uno_rules.Rulebook) -> None:
    space = ActionSpace(classic, 2)
    action = uno_rules.Action.parse("1 play red 5 uno")
    assert space[space.index(action)] == action
    with pytest.raises(ValueError, match="not in this action space"):
        space.index(uno_rules.Action(5, "draw"))
