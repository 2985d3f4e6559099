"""Property tests every shipped rulebook must pass, over random seeds and player counts.

Each example plays a whole round with uniformly random legal actions (out-of-turn catches
included) and checks the invariants after every action.
"""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import uno_rules
from uno_rules import IllegalAction
from uno_rules.loader import shipped_names
from uno_rules.simulate import MAX_ACTIONS, random_moves

RULEBOOKS = {name: uno_rules.load_rulebook(name) for name in shipped_names()}
SETTINGS = settings(max_examples=200, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])


def _cards(game: uno_rules.Game) -> Counter[int]:
    c: Counter[int] = Counter(game.draw_pile)
    c.update(game.discard)
    c.update(game.out)
    for hand in game.hands:
        c.update(hand)
    return c


def _bogus_actions(game: uno_rules.Game, rng: random.Random) -> list[uno_rules.Action]:
    legal = set(game.legal_actions())
    names = [f.name for f in game.rulebook.faces]
    candidates = [uno_rules.Action(rng.randrange(game.players), "play", rng.choice(names)),
                  uno_rules.Action(rng.randrange(game.players), "draw"),
                  uno_rules.Action(rng.randrange(game.players), "catch",
                                   rng.randrange(game.players)),
                  uno_rules.Action(rng.randrange(game.players), "color",
                                   rng.choice(game.rulebook.colors))]
    return [a for a in candidates if a not in legal]


def _rulebook_and_players():
    return st.sampled_from(sorted(RULEBOOKS)).flatmap(
        lambda name: st.tuples(st.just(name), st.integers(RULEBOOKS[name].players_min,
                                                          RULEBOOKS[name].players_max)))


@SETTINGS
@given(_rulebook_and_players(), st.integers(0, 2**32))
def test_random_game_invariants(book_players: tuple[str, int], seed: int) -> None:
    name, players = book_players
    rulebook = RULEBOOKS[name]
    full = Counter(rulebook.deck)
    game = rulebook.new_game(players, seed)
    rng = random.Random(seed)
    for step in range(MAX_ACTIONS):
        assert _cards(game) == full, "a card was lost or duplicated"
        if game.over:
            break
        decision = game.decision
        assert decision is not None and decision.options, "a decision with no option"
        if step % 97 == 0:  # illegal actions are refused and change nothing
            before = json.dumps(game.snapshot())
            for bad in _bogus_actions(game, rng):
                with pytest.raises(IllegalAction):
                    game.apply(bad)
                assert json.dumps(game.snapshot()) == before
        actions = game.legal_actions()
        game.apply(actions[rng.randrange(len(actions))])
    if game.over:  # the round ends exactly when a hand is empty
        assert game.result is not None and game.decision is None
        winner = game.result.winners[0]
        assert game.hands[winner] == []
        assert game.result.points == sum(rulebook.faces[c].points for h in game.hands for c in h)
    else:
        assert all(game.hands), "a hand is empty but the round goes on"


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(sorted(RULEBOOKS)), st.integers(0, 2**32), st.integers(0, 400))
def test_determinism_and_snapshot_continuation(name: str, seed: int, cut: int) -> None:
    rulebook = RULEBOOKS[name]
    players = rulebook.players_min + seed % (rulebook.players_max - rulebook.players_min + 1)
    run = random_moves
    a, b = rulebook.new_game(players, seed), rulebook.new_game(players, seed)
    run(a, random.Random(seed), cut)
    run(b, random.Random(seed), cut)
    assert a.snapshot() == b.snapshot()
    restored = rulebook.restore(json.loads(json.dumps(a.snapshot())))
    run(a, random.Random(1), 3000)
    run(restored, random.Random(1), 3000)
    assert restored.snapshot() == a.snapshot()
