"""The numbered action space and its legality mask."""

from __future__ import annotations

import os
import random
import sys
from pathlib import Path

import pytest

import uno_rules
from uno_rules.rl.spaces import ActionSpace

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


@pytest.mark.parametrize("name, house, players", [("classic", ("jump_in",), 4),
                                                  ("teams", (), 4), ("no_mercy", (), 3)])
def test_a_seats_mask_holds_only_what_that_seat_may_do(name: str, house: tuple,
                                                       players: int) -> None:
    """Per seat: its decision's options when the decision is its own, its out-of-turn actions
    (a jump-in names a card of its holder's hand: never in another seat's mask) and then its
    ``pass``, marked exactly when it has such actions or a window asks it and the decision
    is not its own; the seats' masks together, passes aside, are the referee's mask."""
    rb = uno_rules.load_rulebook(name, house=house)
    space = ActionSpace(rb, players)
    passes = [space.index(uno_rules.Action(s, "pass")) for s in range(players)]
    assert passes == list(range(len(space) - players, len(space)))  # appended last
    jump_ins = passed = 0
    for seed in range(SEEDS):
        game = rb.new_game(players, seed)
        rng = random.Random(seed)
        while not game.over:
            union = [False] * len(space)
            for seat in range(players):
                mask = space.mask(game, seat)
                marked = {i for i, m in enumerate(mask) if m}
                assert marked == set(game.legal_ids(seat))
                for i in marked:
                    action = space[i]
                    assert action.seat == seat or (game.decision is not None and
                                                   game.decision.seat == seat and
                                                   action in game.decision.options)
                    jump_ins += action.kind == "jump_in"
                others = {a for a in game.out_of_turn_actions() if a.seat == seat}
                asked = bool(others) or seat in game.asked_seats()  # a window asks it
                assert mask[passes[seat]] == (asked and game.decision is not None
                                              and game.decision.seat != seat)
                passed += mask[passes[seat]]
                union = [u or m for u, m in zip(union, mask, strict=True)]
            for i in passes:
                union[i] = False  # the referee has nothing to pass on
            assert union == space.mask(game)
            legal = game.legal_actions()  # mostly a play when there is one: rounds end
            plays = [a for a in legal if a.kind == "play"]
            game.apply(rng.choice(plays if plays and rng.random() < 0.9 else legal))
    assert jump_ins > 0 or name != "classic"
    assert passed > 0 or name == "no_mercy"  # few catches in its short 3-seat runs


def test_a_player_count_the_rulebook_cant_play_is_refused() -> None:
    teams = uno_rules.load_rulebook("teams")
    with pytest.raises(uno_rules.IllegalAction, match="teams is for 4, 6, 8 players, not 2"):
        ActionSpace(teams, 2)
    with pytest.raises(uno_rules.IllegalAction, match="not 11"):
        ActionSpace(uno_rules.load_rulebook("classic"), 11)


def test_the_mask_as_a_numpy_array(classic: uno_rules.Rulebook,
                                   monkeypatch: pytest.MonkeyPatch) -> None:
    numpy = pytest.importorskip("numpy")  # the [rl] extra: installed in CI
    space = ActionSpace(classic, 3)
    game = classic.new_game(3, seed=4)
    for seat in range(3):
        array = space.mask_array(game, seat)
        assert array.dtype == numpy.int8 and array.shape == (len(space),)
        assert array.tolist() == [int(m) for m in space.mask(game, seat)]
    assert space.mask_array(game, game.decision.seat).sum() == len(game.decision.options)
    monkeypatch.setitem(sys.modules, "numpy", None)
    with pytest.raises(ImportError, match=r"needs NumPy: pip install 'uno-rules\[rl\]'"):
        space.mask_array(game, 0)
