"""Perfect recall in OpenSpiel's information states (uno_rules/rl/recall.py): a seat
remembers its own hand's changes and every public action, passes included; the
information-state tensor holds that memory at the size the game declares; a seat's first
information state is shared by many deals."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

pyspiel = pytest.importorskip("pyspiel")  # the rl extra (CI installs it)
from test_openspiel_chance import _deal, _random_step  # noqa: E402  (a state dealt ...)

import uno_rules.rl.openspiel  # noqa: E402,F401  (registers "uno_rules")
from uno_rules.load.resources import house_names, shipped_names  # noqa: E402
from uno_rules.rl.recall import PUBLIC_ACTIONS, private_history, public_history  # noqa: E402


def _load(rulebook: str, players: int, **more: object) -> Any:
    return pyspiel.load_game("uno_rules", {"rulebook": rulebook, "players": players, **more})


def _card(game: Any, state: Any, face: str) -> None:
    ids = {f.name: f.id for f in game.blank(False).faces}
    assert state.is_chance_node()
    state.apply_action(len(game.table) + ids[face])


def _draw(game: Any, state: Any, face: str) -> None:
    """The seat to move draws ``face`` (one it can't play) and keeps it (asked all the same:
    the seat moves again either way)."""
    seat = state.current_player()
    state.apply_action(next(a for a in state.legal_actions() if game.table[a].kind == "draw"))
    _card(game, state, face)
    assert state.current_player() == seat
    assert [game.table[a].kind for a in state.legal_actions()] == ["keep"]
    state.apply_action(state.legal_actions()[0])
    assert state.current_player() != seat


MINE = ["red 1", "red 2", "red 3", "blue 4", "blue 5", "green 6", "wild"]
THEIRS = ["yellow 1", "yellow 2", "yellow 3", "green 4", "green 5", "red 6", "red 7"]


def _swapped_worlds(game: Any) -> tuple[Any, Any]:
    """Two rounds of Classic at 2 players differing only in seat 0's own cards: dealt
    ``blue 8`` and then drawing ``green 7``, or dealt ``green 7`` and drawing ``blue 8``;
    then seat 1 draws ``blue 0`` (none playable on ``red 9``: each draw passes the turn).
    Seat 0's hands end the same."""
    worlds = []
    for kept, drawn in (("blue 8", "green 7"), ("green 7", "blue 8")):
        mine = [*MINE[:6], kept]
        dealt = [c for pair in zip(mine, THEIRS, strict=True) for c in pair]
        state = _deal(game, [*dealt, "red 9"])  # seat 0 moves first, on red 9
        _draw(game, state, drawn)      # seat 0: not red, not a 9
        _draw(game, state, "blue 0")   # seat 1
        worlds.append(state)
    return worlds[0], worlds[1]


def test_own_draws_are_remembered_in_the_information_state_and_tensor() -> None:
    game = _load("classic", 2)
    one, two = _swapped_worlds(game)
    assert one.uno_game.hand(0) == two.uno_game.hand(0)  # the same hand now
    assert one.observation_string(0) == two.observation_string(0)  # the view forgets
    assert one.information_state_string(0) != two.information_state_string(0)
    assert one.information_state_tensor(0) != two.information_state_tensor(0)
    # Seat 1 saw the same things in both: its information state is one.
    assert one.information_state_string(1) == two.information_state_string(1)
    assert one.information_state_tensor(1) == two.information_state_tensor(1)


def test_the_tensor_parts_count_what_the_seat_drew_and_saw() -> None:
    game = _load("classic", 2)
    one, _ = _swapped_worlds(game)
    ids = {f.name: f.id for f in game.blank(False).faces}
    obs = game.make_py_observer(pyspiel.IIGObservationType(perfect_recall=True))
    obs.set_from(one, 0)
    assert obs.tensor.shape == tuple(game.information_state_tensor_shape())
    assert list(obs.dict["gained"]).count(1) == 1 and obs.dict["gained"][ids["green 7"]] == 1
    assert obs.dict["played"][ids["red 9"]] == 1 and sum(obs.dict["played"]) == 1
    assert not obs.dict["lost"].any()
    slots = obs.dict["public_actions"].reshape(PUBLIC_ACTIONS, -1)
    # most recent first: seat 1's draw, then seat 0's keep and draw (another seat's keep
    # is left out)
    assert [str(game.table[int(row.argmax())]) for row in slots[:3]] == \
        ["1 draw", "0 keep", "0 draw"]
    assert not slots[3:].any()
    obs.set_from(one, 1)
    assert obs.dict["gained"][ids["blue 0"]] == 1 and sum(obs.dict["gained"]) == 1


def test_passes_of_every_window_are_remembered() -> None:
    """Under jump_in a pass of an earlier window (closed since) stays in every seat's
    information state, where it fell."""
    game = _load("classic", 3, house="jump_in", max_actions=200)
    rng = random.Random(2)
    state, passes, checked = game.new_initial_state(), [], 0
    while not state.is_terminal():
        if state.is_chance_node():
            actions, weights = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(rng.choices(actions, weights)[0])
            continue
        seat, legal = state.current_player(), state.legal_actions()
        pass_ = [a for a in legal if game.table[a].kind == "pass"]
        action = pass_[0] if pass_ else rng.choice(legal)
        state.apply_action(action)
        if pass_:
            passes.append(f"{seat} pass")
        elif passes and not state.is_chance_node():  # the round moved on: windows closed
            for s in range(3):
                public = state.information_state_string(s).split("\n")[1].split(" | ")
                assert [a for a in public if a.endswith(" pass")] == passes
            checked += 1
    assert len(passes) > 5 and checked > 5


def test_a_seats_first_information_state_fits_many_deals() -> None:
    """Seat 0's first information state, resampled many times: the others' hands and the
    draw pile differ, its information state and tensor never do."""
    for rulebook, players in (("classic", 2), ("classic", 4), ("no_mercy", 3)):
        game = _load(rulebook, players)
        rng = random.Random(rulebook)
        state = game.new_initial_state()
        while state.is_chance_node() or state.current_player() != 0:
            if state.is_chance_node():
                actions, weights = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(rng.choices(actions, weights)[0])
            else:
                state.apply_action(rng.choice(state.legal_actions()))
        info, tensor = state.information_state_string(0), state.information_state_tensor(0)
        sampler = pyspiel.UniformProbabilitySampler(0., 1.)
        others = set()
        for _ in range(40):
            world = state.resample_from_infostate(0, sampler)
            assert world.information_state_string(0) == info
            assert world.information_state_tensor(0) == tensor
            others.add(tuple(tuple(world.uno_game.hand(s)) for s in range(1, players)))
        assert len(others) == 40  # every world a different deal of the hidden cards


def test_the_memory_round_trips_and_refuses_tampering() -> None:
    game = _load("classic", 2)
    one, _ = _swapped_worlds(game)
    text = one.serialize()
    back = game.deserialize_state(text)
    assert back.information_state_string(0) == one.information_state_string(0)
    assert back.information_state_tensor(0) == one.information_state_tensor(0)
    fields = json.loads(text)
    for bad in ({}, [[0, 9]], [[0, [[0, [999], []]], []]], [[99, [], []]], [["0", 1]]):
        with pytest.raises(uno_rules.SnapshotError, match="serialized state: memory"):
            game.deserialize_state(json.dumps({**fields, "memory": bad}))


HOUSE = house_names()


@pytest.mark.parametrize(("rulebook", "house"),
                         [(name, "") for name in shipped_names()]
                         + [("classic", name) for name in HOUSE])
def test_random_simulation_with_serialization_everywhere(rulebook: str, house: str) -> None:
    """OpenSpiel's random_sim_test (serialization too) on every shipped rulebook and house
    rule, the information-state tensor checked against the declared shape on the way."""
    counts = uno_rules.load_rulebook(rulebook, house=[house] if house else []).player_counts()
    game = _load(rulebook, min(counts), house=house, max_actions=60)
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)
    shape = game.information_state_tensor_shape()
    rng = random.Random(rulebook + house)
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            actions, weights = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(rng.choices(actions, weights)[0])
            continue
        player = state.current_player()
        assert len(state.information_state_tensor(player)) == shape[0]
        state.apply_action(rng.choice(state.legal_actions()))



def test_an_unplayable_drawn_card_is_asked_about_and_round_trips() -> None:
    """A drawn card that can't be played is asked about all the same (keep its only
    option): the state waits at the round's own ``drawn`` decision and serializes as any."""
    game = _load("classic", 2)
    mine = [*MINE[:6], "blue 8"]
    state = _deal(game, [c for pair in zip(mine, THEIRS, strict=True) for c in pair] + ["red 9"])
    state.apply_action(next(a for a in state.legal_actions() if game.table[a].kind == "draw"))
    _card(game, state, "green 7")  # not playable on red 9
    assert state.uno_game.pending.kind == "drawn" and state.current_player() == 0
    assert [str(game.table[a]) for a in state.legal_actions()] == ["0 keep"]
    back = game.deserialize_state(state.serialize())
    assert back.current_player() == 0 and back.legal_actions() == state.legal_actions()
    with pytest.raises(uno_rules.IllegalAction):  # only the keep is legal
        state.apply_action(next(a for a in range(len(game.table))
                                if a not in state.legal_actions()))
    state.apply_action(state.legal_actions()[0])
    assert state.current_player() == 1


def test_a_pile_limit_is_a_chance_node_no_seat_sees() -> None:
    """Triple Play's hidden pile limits: each drawn at a chance node with the declared
    weights; two outcomes leave every seat's information state the same."""
    game = _load("triple_play", 2, max_actions=300)
    limits = game.rulebook.pile_limits
    total = sum(w for _, w in limits)
    first = len(game.table) + game.faces  # a limit's outcome: first + its index
    rng = random.Random(5)
    state, seen = game.new_initial_state(), 0
    while not state.is_terminal() and seen < 6:
        if not state.is_chance_node():
            state.apply_action(rng.choice(state.legal_actions()))
            continue
        outcomes = state.chance_outcomes()
        if outcomes[0][0] < first:  # a card
            actions, weights = zip(*outcomes, strict=True)
            state.apply_action(rng.choices(actions, weights)[0])
            continue
        assert outcomes == [(first + k, w / total) for k, (_, w) in enumerate(limits)]
        worlds = []
        for k in (0, len(limits) - 1):
            world = state.clone()
            world.apply_action(first + k)
            while world.is_chance_node():  # the same outcomes after (cards, other limits)
                world.apply_action(world.chance_outcomes()[0][0])
            worlds.append(world)
        one, two = worlds
        assert one.uno_game._pile_marks != two.uno_game._pile_marks  # the limits differ
        for s in range(2):
            assert one.information_state_string(s) == two.information_state_string(s)
            assert one.information_state_tensor(s) == two.information_state_tensor(s)
        assert state.action_to_string(first) == f"limit {limits[0][0]}"
        seen += 1
        state.apply_action(first + rng.randrange(len(limits)))
    assert seen >= 3


def test_a_hands_change_is_what_it_gained_and_lost() -> None:
    """recall._diff (fast paths for a card added or taken out) against multiset arithmetic."""
    from collections import Counter

    from uno_rules.rl.recall import _diff

    rng = random.Random(1)
    for _ in range(2000):
        old = tuple(rng.randrange(6) for _ in range(rng.randrange(6)))
        new = list(old)
        for _ in range(rng.randrange(3)):
            if new and rng.random() < 0.5:
                del new[rng.randrange(len(new))]
            else:
                new.insert(rng.randrange(len(new) + 1), rng.randrange(6))
        gained, lost = _diff(old, tuple(new))
        assert Counter(gained) == Counter(new) - Counter(old)
        assert lost == tuple(sorted((Counter(old) - Counter(new)).elements()))
        assert Counter(old) + Counter(gained) - Counter(lost) == Counter(new)


def test_a_resampled_state_drops_the_other_seats_private_past() -> None:
    """resample_from_infostate(p): p's own hand's changes and every seat's public history
    as they were; the other seats' own changes up to then (the original world's cards) are
    dropped, not invented (docs/embedding.md says why); from then on each seat's changes
    are remembered in the new world, its cards."""
    game = _load("classic", 3)
    rng = random.Random(2)
    state = game.new_initial_state()
    while len(state.history()) < 60 or state.is_chance_node():
        _random_step(state, rng)
    assert not state.is_terminal()
    seat = state.current_player()
    world = state.resample_from_infostate(seat, pyspiel.UniformProbabilitySampler(0., 1.))
    old, new = state.uno_game, world.uno_game
    assert private_history(new, seat, world.memory) == private_history(old, seat, state.memory)
    others = [s for s in range(3) if s != seat]
    for s in range(3):
        assert public_history(new, s, world.memory) == public_history(old, s, state.memory)
    for s in others:
        assert private_history(old, s, state.memory)  # it had a past: dealt, drew
        assert private_history(new, s, world.memory) == []
        obs = game.make_py_observer(pyspiel.IIGObservationType(perfect_recall=True))
        obs.set_from(world, s)
        assert not obs.dict["gained"].any() and not obs.dict["lost"].any()
    before = len(world.memory.items())
    while not (world.current_player() in others and any(
            game.table[a].kind == "draw" for a in world.legal_actions())):
        _random_step(world, rng)
    mover = world.current_player()
    world.apply_action(next(a for a in world.legal_actions()
                            if game.table[a].kind == "draw"))
    while world.is_chance_node():
        _random_step(world, rng)
    changes = [c for e in world.memory.items()[before:] if len(e) == 3 for c in e[1]
               if c[0] == mover]
    gained = [card for _, got, _ in changes for card in got]
    assert gained and all(card in world.uno_game.hands[mover] for card in gained)
    assert private_history(world.uno_game, mover, world.memory)  # its new past
