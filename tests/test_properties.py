"""Property tests every shipped rulebook must pass, over random seeds and player counts.

Each example plays a whole round with random legal actions (out-of-turn actions included)
and checks the invariants after every action. ``UNO_LONG=1`` (or ``pytest --long``) plays
ten times as many rounds (see conftest.py).
"""

from __future__ import annotations

import json
import os
import random
from pathlib import Path

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

import uno_rules
from uno_rules import IllegalAction
from uno_rules.load.loader import house_names, shipped_names
from uno_rules.sim.simulate import POLICIES, random_moves

# Every shipped rulebook, plus overlays that make new rules (name, house).
VARIANTS = [(name, ()) for name in shipped_names()] + [
    ("classic", ("partners",)),
    ("classic", ("stacking", "seven_zero", "jump_in")),
    ("classic", ("draw_to_match", "force_play", "no_bluffing", "no_action_finish")),
    ("teams", ("stacking", "jump_in")),
    ("classic", ("deflect", "pass_on", "jump_in_wilds")),
    ("classic", ("knock_out_worst",)),
]
RULEBOOKS = {v: uno_rules.load_rulebook(v[0], house=v[1]) for v in VARIANTS}
POSITIVE = sorted((Path(__file__).resolve().parent / "rulebooks" / "positive").glob("*.yaml"))
MAX_ACTIONS = 4000  # a game still running then is a stalled game, which is allowed
LONG = os.environ.get("UNO_LONG", "") not in ("", "0")  # the long run (conftest.py)
REFUSALS_EVERY = 53  # steps between checks that illegal actions are refused


def examples(default: int) -> int:
    """``default`` hypothesis examples, ten times as many in the long run."""
    return default * 10 if LONG else default


def player_counts(rb: uno_rules.Rulebook) -> list[int]:
    return rb.player_counts()


def _bogus_actions(game: uno_rules.Game, rng: random.Random) -> list[uno_rules.Action]:
    legal = set(game.legal_actions())
    names = [f.name for f in game.rulebook.faces]
    n = game.players
    candidates = [uno_rules.Action(rng.randrange(n), "play", rng.choice(names)),
                  uno_rules.Action(rng.randrange(n), "draw"),
                  uno_rules.Action(rng.randrange(n), "give", rng.choice(names)),
                  uno_rules.Action(rng.randrange(n), "catch", rng.randrange(n)),
                  uno_rules.Action(rng.randrange(n), "target", rng.randrange(n)),
                  uno_rules.Action(None, "loser", rng.randrange(n)),
                  # (a deck without colours: any colour named is bogus)
                  uno_rules.Action(rng.randrange(n), "color",
                                   rng.choice(game.rulebook.colors or ("red",)))]
    return [a for a in candidates if a not in legal]


def _check_turn_state(game: uno_rules.Game) -> None:
    """At the start of a turn: the round goes on exactly when no win condition holds."""
    rb = game.rulebook
    d = game.decision
    assert game.hands[d.seat], "an out player got a turn"
    for seat in game._out_seats:
        assert not game.hands[seat], "a player marked out holds cards at a turn"
    for seat in range(game.players):
        if seat in game.eliminated:
            assert not game.hands[seat], "a knocked-out player holds cards"
            continue
        if rb.round_ends == "player":
            assert game.hands[seat], "a hand is empty but the round goes on"
        else:
            assert any(game.hands[s] for s in game.teammates(seat)), \
                "a whole team is out but the round goes on"


def _state(game: uno_rules.Game) -> tuple:
    """Everything :meth:`Game.snapshot` records, plus the event log, cheap to take often.

    The snapshot's ``history`` is every action as text, so a whole snapshot costs time in
    proportion to the length of the game; taking one before and after each refused action
    made this test quadratic in the game length. Here the snapshot is taken with the history
    left out and the history (and the log) are compared as the action tuples themselves: the
    text of an action is a function of its tuple, so this is at least as strict.
    """
    history, game.history = game.history, []
    try:
        data = game.snapshot()
    finally:
        game.history = history
    rng = data.pop("rng")  # 600-odd numbers: compared as they are, not as JSON text
    return json.dumps(data), rng, list(history), list(game.log or ())


def _check_round_trip(game: uno_rules.Game) -> None:
    """The snapshot survives JSON and restores to the same state with the same options."""
    data = game.snapshot()
    restored = game.rulebook.restore(json.loads(json.dumps(data)))
    assert restored.snapshot() == data
    assert restored.legal_actions() == game.legal_actions()


def _check_result(game: uno_rules.Game) -> None:
    rb, result = game.rulebook, game.result
    assert result is not None and game.decision is None and game.legal_actions() == []
    winners = set(result.winners)
    assert len(winners) == rb.team_size
    standing = {s for s in range(game.players) if s not in game.eliminated}
    if not standing <= winners:  # not the last standing: the winner went out
        empty = [s for s in winners if not game.hands[s]]
        assert empty if rb.round_ends == "player" else len(empty) == len(winners)
    assert result.points == sum(game.faces[c].points for s, h in enumerate(game.hands)
                                if s not in winners for c in h) + \
        rb.settings.knockout_points * len(game.eliminated)


def check_step(game: uno_rules.Game, full: list[int]) -> None:
    """The invariants that hold between any two actions (``full``: the deck's card ids,
    sorted); tests/test_snapshot.py checks restored games with them too."""
    assert sorted(game._all_cards()) == full, "a card was lost or duplicated"
    if game.over:
        return
    decision = game.decision
    assert decision is not None and decision.options, "a decision with no option"
    assert decision.seat is None or decision.seat not in game.eliminated, \
        "a knocked-out player decides"
    assert not any(a.kind in ("target", "loser", "catch") and a.arg in game.eliminated
                   for a in decision.options), "a knocked-out player is a target"
    if decision.kind == "turn":
        _check_turn_state(game)


@st.composite
def setups(draw: st.DrawFn) -> tuple[tuple[str, tuple[str, ...]], int, int, str]:
    variant = draw(st.sampled_from(VARIANTS))
    players = draw(st.sampled_from(player_counts(RULEBOOKS[variant])))
    return variant, players, draw(st.integers(0, 2**32)), draw(st.sampled_from(sorted(POLICIES)))


@settings(max_examples=examples(200), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(setups())
# A catch whose penalty tagged an out partner back in, while another seat's turn was pending.
@example((("teams", ("stacking", "jump_in")), 4, 725, "play_first"))
def test_random_game_invariants(setup: tuple) -> None:
    variant, players, seed, policy = setup
    rulebook = RULEBOOKS[variant]
    full = sorted(rulebook.deck)  # card ids: equal sorted lists are equal multisets
    game = rulebook.new_game(players, seed)
    rng = random.Random(seed)
    choose = POLICIES[policy]
    for step in range(MAX_ACTIONS):
        check_step(game, full)
        if game.over:
            break
        if step % REFUSALS_EVERY == 0:  # illegal actions are refused and change nothing
            before = _state(game)
            for bad in _bogus_actions(game, rng):
                with pytest.raises(IllegalAction):
                    game.apply(bad)
                assert _state(game) == before
            legal = set(game.legal_ids()) | set(game.out_of_turn_ids()) \
                | {i for s in range(game.players) for i in game.legal_ids(s)}  # passes
            size = len(game.rulebook.action_table(players))
            for bad_id in [i for i in rng.sample(range(size), 8) if i not in legal] + \
                    [-1, size, True, "0"]:
                with pytest.raises(IllegalAction):
                    game.step(bad_id)  # type: ignore[arg-type]
                assert _state(game) == before
        if step & (step - 1) == 0:  # steps 0, 1, 2, 4, 8, ...: early and late states
            _check_round_trip(game)
        game.step(choose(game, rng))
    _check_round_trip(game)  # the final state (over, or stalled) too
    if game.over:
        _check_result(game)


@settings(max_examples=examples(40), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(setups(), st.integers(0, 400))
def test_determinism_and_snapshot_continuation(setup: tuple, cut: int) -> None:
    variant, players, seed, policy = setup
    rulebook = RULEBOOKS[variant]
    a, b = rulebook.new_game(players, seed), rulebook.new_game(players, seed)
    random_moves(a, random.Random(seed), cut, policy)
    random_moves(b, random.Random(seed), cut, policy)
    assert a.snapshot() == b.snapshot()
    restored = rulebook.restore(json.loads(json.dumps(a.snapshot())))
    random_moves(a, random.Random(1), 2000, policy)
    random_moves(restored, random.Random(1), 2000, policy)
    assert restored.snapshot() == a.snapshot()


@pytest.mark.parametrize("variant", VARIANTS, ids=lambda v: "+".join((v[0], *v[1])))
def test_every_player_count_plays_a_whole_round(variant: tuple) -> None:
    rulebook = RULEBOOKS[variant]
    full = sorted(rulebook.deck)
    for players in player_counts(rulebook):
        game = rulebook.new_game(players, seed=players)
        rng = random.Random(players)
        while not game.over:
            assert sorted(game._all_cards()) == full
            if game.decision.kind == "turn":
                _check_turn_state(game)
            random_moves(game, rng, 1, "play_first")
        _check_result(game)


def test_every_house_rule_is_a_variant() -> None:
    """Every shipped overlay (read from the package) is played by the tests above."""
    played = {h for _, house in VARIANTS for h in house}
    assert set(house_names()) <= played, sorted(set(house_names()) - played)


def _conserves_replays_and_restores(rulebook: uno_rules.Rulebook) -> None:
    """At the smallest and largest player counts a seeded round keeps every card, plays
    the same twice, and a snapshot taken midway (through JSON) plays on exactly as the game
    it came from."""
    full = sorted(rulebook.deck)
    counts = player_counts(rulebook)
    for players in sorted({counts[0], counts[-1]}):
        a, b = rulebook.new_game(players, seed=7), rulebook.new_game(players, seed=7)
        for game in (a, b):
            random_moves(game, random.Random(7), 40, "uniform")
            check_step(game, full)
        assert a.snapshot() == b.snapshot()
        restored = rulebook.restore(json.loads(json.dumps(a.snapshot())))
        for game in (a, restored):
            random_moves(game, random.Random(8), MAX_ACTIONS, "play_first")
            check_step(game, full)
        assert restored.snapshot() == a.snapshot()


@pytest.mark.parametrize("variant", VARIANTS, ids=lambda v: "+".join((v[0], *v[1])))
def test_every_variant_conserves_replays_and_restores(variant: tuple) -> None:
    """Each variant, not only those hypothesis happens to draw."""
    _conserves_replays_and_restores(RULEBOOKS[variant])


@pytest.mark.parametrize("path", POSITIVE, ids=lambda p: p.stem)
def test_every_positive_example_conserves_replays_and_restores(path: Path) -> None:
    """The example rulebooks of each capability (tests/rulebooks/positive/) too."""
    _conserves_replays_and_restores(uno_rules.load_rulebook(path))
