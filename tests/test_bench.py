"""The benchmark's hard-coded floor engine (bench/floor.py) must offer the same decisions as
the classic rulebook, or its figure would not be the floor of the same work."""

from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest

import uno_rules

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "bench"))
from floor import FloorGame, Tables  # noqa: E402


@pytest.mark.parametrize("players", [2, 4, 7])
def test_floor_offers_the_same_decisions_as_classic(players: int) -> None:
    rulebook = uno_rules.load_rulebook("classic")
    tables = Tables(rulebook, players)
    compared = 0
    for seed in range(60):
        ours = rulebook.new_game(players, seed)
        turned = [event for event in ours.log or [] if event[0] == "first"]
        if len(turned) != 1 or not rulebook.faces[ours.discard[0]].number:
            continue  # the floor has no first-card rules
        floor = FloorGame(tables, players, seed)
        rng = random.Random(seed)
        while not ours.over:
            assert floor.decision == ours.decision
            options = ours.decision.options  # type: ignore[union-attr]
            plays = [a for a in options if a.kind == "play"] or options
            action = plays[rng.randrange(len(plays))]
            ours.apply(action)
            floor.apply(action)
        assert floor.over
        assert floor.turns == ours.turns
        assert floor.points == ours.result.points  # type: ignore[union-attr]
        compared += 1
    assert compared >= 20
