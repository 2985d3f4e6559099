"""Simulations with the default policy (play_first) finish, and in a sensible number of turns."""

from __future__ import annotations

import os

import pytest

import uno_rules
from uno_rules.simulate import simulate

LONG = os.environ.get("UNO_LONG", "") not in ("", "0")  # the long run (conftest.py)
TEAMS_GAMES = 1000 if LONG else 100


@pytest.mark.parametrize("players", [4, 6, 8])
def test_teams_default_policy_never_stalls(players: int) -> None:
    stats = simulate(uno_rules.load_rulebook("teams"), TEAMS_GAMES, players, seed=players)
    out = stats.to_json()
    assert stats.policy == "play_first"
    assert out["stalled"] == 0, f"{out['stalled']} of {TEAMS_GAMES} games stalled"
    assert sum(out["wins_by_team"]) == TEAMS_GAMES


def test_classic_default_policy_turns() -> None:
    stats = simulate(uno_rules.load_rulebook("classic"), 200, 4, seed=1)
    out = stats.to_json()
    assert stats.policy == "play_first" and out["stalled"] == 0
    assert out["turns"]["mean"] < 100, out["turns"]
