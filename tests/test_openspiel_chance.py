"""OpenSpiel's chance model (uno_rules/rl/openspiel.py, ``deals: 0``, the default): every
card dealt and drawn is a chance node over the faces of the cards it may be, weighted by
their count, so a seat's information state no longer names the deal, and resampling from
it re-deals only what the seat can't see."""

from __future__ import annotations

import json
import random
from collections import Counter
from typing import Any

import pytest

pyspiel = pytest.importorskip("pyspiel")  # the rl extra (CI installs it)

import uno_rules  # noqa: E402
import uno_rules.rl.openspiel  # noqa: E402,F401  (registers "uno_rules")


def _load(rulebook: str, players: int, **more: object) -> Any:
    return pyspiel.load_game("uno_rules", {"rulebook": rulebook, "players": players, **more})


def _chance(state: Any, rng: random.Random) -> None:
    actions, weights = zip(*state.chance_outcomes(), strict=True)
    state.apply_action(rng.choices(actions, weights)[0])


def _random_step(state: Any, rng: random.Random) -> None:
    if state.is_chance_node():
        _chance(state, rng)
    else:
        state.apply_action(rng.choice(state.legal_actions()))


@pytest.mark.parametrize(("rulebook", "players", "house"),
                         [("classic", 2, ""), ("classic", 3, "stacking"),
                          ("no_mercy", 3, ""), ("attack", 2, "")])
def test_openspiels_random_simulation_test_with_card_chance(rulebook: str, players: int,
                                                            house: str) -> None:
    game = _load(rulebook, players, house=house, max_actions=150)
    assert game.deals == 0  # the default: cards are chance outcomes
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)


def _deal(game: Any, faces: list[str]) -> Any:
    """A state dealt ``faces`` in order (each a chance outcome), the first card last."""
    ids = {f.name: f.id for f in game.blank(False).faces}
    state = game.new_initial_state()
    for face in faces:
        assert state.is_chance_node()
        state.apply_action(len(game.table) + ids[face])
    return state


def test_the_deal_is_one_chance_node_per_card() -> None:
    game = _load("classic", 2)
    mine = ["red 1", "red 2", "red 3", "blue 4", "blue 5", "green 6", "wild"]
    theirs = ["yellow 1", "yellow 2", "yellow 3", "green 4", "green 5", "red 6", "red 7"]
    dealt = [card for pair in zip(mine, theirs, strict=True) for card in pair]  # seat 0 first
    state = _deal(game, [*dealt, "yellow 9"])
    assert not state.is_chance_node() and len(state.history()) == 15
    uno = state.uno_game
    assert uno.hand(0) == sorted(mine) and uno.hand(1) == sorted(theirs)
    assert uno.top == "yellow 9" and uno.view(0)["draw_pile_size"] == 108 - 15
    assert [state.action_to_string(a) for a in state.history()[:2]] == \
        ["card red 1", "card yellow 1"]


def test_the_information_state_names_the_deal_no_more() -> None:
    """Two deals differing only in seat 1's cards: seat 0's information state, observation
    and tensor are the same; seat 1's differ."""
    game = _load("classic", 2)
    mine = ["red 1", "red 2", "red 3", "blue 4", "blue 5", "green 6", "wild"]
    states = []
    for theirs in (["yellow 1", "yellow 2", "yellow 3", "green 4", "green 5", "red 6", "red 7"],
                   ["blue 1", "blue 2", "blue 3", "green 8", "green 9", "red 9", "red skip"]):
        dealt = [card for pair in zip(mine, theirs, strict=True) for card in pair]
        states.append(_deal(game, [*dealt, "yellow 9"]))
    one, two = states
    assert one.uno_game.hand(1) != two.uno_game.hand(1)
    assert one.information_state_string(0) == two.information_state_string(0)
    assert one.observation_string(0) == two.observation_string(0)
    assert one.observation_tensor(0) == two.observation_tensor(0)
    assert one.information_state_string(1) != two.information_state_string(1)


def test_a_draw_is_a_chance_node_over_the_draw_piles_cards() -> None:
    """A seat's draw waits for chance: its outcomes are the draw pile's faces by count
    (after a reshuffle, the cards reshuffled); the card chosen is the one drawn."""
    game = _load("classic", 2, max_actions=600)
    rng = random.Random(3)
    draws = reshuffled = 0
    for _ in range(3):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.uno_game is not None and state.chosen == ():  # an action's first card
                uno = state.uno_game
                expected = uno.draw_pile or [c for d in uno._discards for c in d[:-1]]
                reshuffled += not uno.draw_pile
                counts = Counter(expected)
                outcomes = state.chance_outcomes()
                assert [(a - len(game.table), p) for a, p in outcomes] == \
                    [(f, counts[f] / len(expected)) for f in sorted(counts)]
                seat, hand = uno.decision.seat, [list(h) for h in uno.hands]
                face = rng.choice(sorted(counts))
                state.apply_action(len(game.table) + face)
                if not state.is_chance_node() and sum(map(len, state.uno_game.hands)) == \
                        sum(map(len, hand)) + 1:  # one card drawn: that one
                    assert Counter(state.uno_game.hands[seat]) - Counter(hand[seat]) == \
                        Counter([face])
                    draws += 1
                continue
            _random_step(state, rng)
    assert draws > 20 and reshuffled > 0


def test_an_illegal_card_outcome_is_refused_and_changes_nothing() -> None:
    game = _load("classic", 2)
    state = _deal(game, ["wild"] * 4)
    before = state.serialize()
    for bad in (len(game.table) + 53 + 1, len(game.table) + 52, 0):  # no face; none left
        with pytest.raises(uno_rules.IllegalAction):
            state.apply_action(bad)
        assert state.serialize() == before


def test_resample_from_infostate_keeps_what_the_seat_saw() -> None:
    """Resampled states look the same to the seat (information state, legal actions) and
    re-deal the others' hands and the draw pile."""
    game = _load("classic", 3)
    rng = random.Random(8)
    moved = tried = 0
    for _ in range(8):
        state = game.new_initial_state()
        for _ in range(60 + rng.randrange(40)):
            if state.is_terminal():
                break
            _random_step(state, rng)
        if state.is_terminal() or state.is_chance_node():
            continue
        player = state.current_player()
        sampler = pyspiel.UniformProbabilitySampler(0., 1.)
        for _ in range(3):
            sampled = state.resample_from_infostate(player, sampler)
            tried += 1
            assert sampled.information_state_string(player) == \
                state.information_state_string(player)
            assert sampled.legal_actions() == state.legal_actions()
            others = [s for s in range(3) if s != player]
            moved += any(sampled.uno_game.hand(s) != state.uno_game.hand(s) for s in others)
            sampled.apply_action(rng.choice(sampled.legal_actions()))  # it plays on
    assert tried >= 12 and moved >= tried - 2


def _deciding_on_a_playable_drawn_card(game: Any, rng: random.Random) -> Any:
    """A state of ``game`` in which the seat to move decides on a card it drew and can
    play."""
    for _ in range(40):
        state = game.new_initial_state()
        while not state.is_terminal():
            pending = None if state.is_chance_node() else state.uno_game.pending
            if pending is not None and pending.kind == "drawn" and \
                    pending.seat == state.current_player() and \
                    any(game.table[a].kind == "play" for a in state.legal_actions()):
                return state
            _random_step(state, rng)
    raise AssertionError("no playable drawn card in 40 rounds")


@pytest.mark.parametrize("rulebook", ["classic", "flip", "no_mercy"])
def test_resampling_redeals_anothers_drawn_card_playable_or_not(rulebook: str) -> None:
    """Another seat deciding on the card it drew: the card is hidden, and whether it can
    be played too (the seat is asked either way), so each resampled world deals it again
    from the cards the resampling seat can't see: it varies, and is sometimes unplayable
    (keep then the drawer's only option), who moves and the seat's information state as
    they were. (Flip: only among the cards showing its back; No Mercy: play_drawn must.)"""
    game = _load(rulebook, 3)
    state = _deciding_on_a_playable_drawn_card(game, random.Random(3))
    drawer = state.current_player()
    seat = (drawer + 1) % 3
    sampler = pyspiel.UniformProbabilitySampler(0., 1.)
    cards, playable = Counter(), Counter()
    for _ in range(60):
        world = state.resample_from_infostate(seat, sampler)
        pending = world.uno_game.pending
        assert world.current_player() == drawer and pending.kind == "drawn"
        assert world.information_state_string(seat) == state.information_state_string(seat)
        assert pending.card == pending.ctx.drawn and pending.card in world.uno_game.hands[drawer]
        kinds = {game.table[a].kind for a in world.legal_actions()}
        assert kinds in ({"keep"}, {"keep", "play"}, {"play"})  # (play: perhaps with UNO)
        cards[pending.card] += 1
        playable["play" in kinds] += 1
        again = game.deserialize_state(world.serialize())  # a state the game can hold
        assert again.legal_actions() == world.legal_actions()
        world.apply_action(world.legal_actions()[0])  # and it plays on
    # (Flip: the back seen leaves a few cards it may be)
    assert len(cards) > (1 if rulebook == "flip" else 5), cards
    assert playable[True] and playable[False], playable


def test_a_state_waiting_for_a_card_serializes_and_refuses_tampering() -> None:
    game = _load("classic", 2)
    rng = random.Random(1)
    state = game.new_initial_state()
    for _ in range(5):
        _chance(state, rng)
    waiting = [state.clone()]  # in the deal
    while state.is_chance_node():
        _chance(state, rng)
    dealt = state.clone()  # the history all cards, none waiting
    while len(waiting) < 3:
        _random_step(state, rng)
        if state.is_chance_node() and state.uno_game is not None:
            waiting.append(state.clone())
    for one in [dealt, *waiting]:
        text = one.serialize()
        again = game.deserialize_state(text)
        assert again.serialize() == text and str(again) == str(one)
        assert again.history() == one.history()
        if one is dealt:
            continue
        assert again.chance_outcomes() == one.chance_outcomes()
        fields = json.loads(text)
        for change in ({"pending": None}, {"cards": fields["cards"] + [0]},
                       {"pending": [1, 0]}):
            with pytest.raises(uno_rules.SnapshotError, match="serialized state: (pending|round)"):
                game.deserialize_state(json.dumps({**fields, **change}))


def test_the_engine_hook_is_left_unset() -> None:
    """The hook is set only while an action runs, an illegal one included."""
    game = _load("classic", 2)
    state = game.new_initial_state()
    rng = random.Random(0)
    while state.is_chance_node():
        _chance(state, rng)
    before = state.serialize()
    with pytest.raises(uno_rules.IllegalAction):
        state.apply_action(next(a for a in range(len(game.table))
                                if a not in state.legal_actions()))
    assert state.uno_game.chance is None and state.serialize() == before
    state.apply_action(state.legal_actions()[-1])  # a draw: it waits for its card
    assert state.is_chance_node() and state.chosen == () and state.uno_game.chance is None


def test_openspiels_ismcts_plays_classic_with_card_chance() -> None:
    np = pytest.importorskip("numpy")
    from open_spiel.python.algorithms import ismcts, mcts

    game = _load("classic", 2)
    evaluator = mcts.RandomRolloutEvaluator(1, np.random.RandomState(0), 100)
    bot = ismcts.ISMCTSBot(game, evaluator, uct_c=2.0, max_simulations=8,
                           random_state=np.random.RandomState(1))
    state = game.new_initial_state()
    moves = bot_plays(bot, state, random.Random(2), 6)
    assert moves == 6 or state.is_terminal()


def bot_plays(bot: Any, state: Any, rng: random.Random, limit: int = 10**9) -> int:
    """``bot`` chooses every seat's moves in ``state``, chance drawn with ``rng`` by its
    weights, until ``limit`` moves or the end: the moves made, each a legal action."""
    moves = 0
    while moves < limit and not state.is_terminal():
        if state.is_chance_node():
            _chance(state, rng)
            continue
        action = bot.step(state)
        assert action in state.legal_actions()
        state.apply_action(action)
        moves += 1
    return moves


def test_the_seeded_deals_stay_an_option() -> None:
    """``deals: N``: the first node picks one of N seeds, which fix every card (as before)."""
    game = _load("classic", 2, deals=4, seed=10)
    state = game.new_initial_state()
    assert [state.action_to_string(a) for a, _ in state.chance_outcomes()] == \
        ["deal 10", "deal 11", "deal 12", "deal 13"]
    state.apply_action(state.chance_outcomes()[2][0])
    dealt = uno_rules.load_rulebook("classic").new_game(2, 12, log=False)
    dealt.offer_unplayable = True  # (the adapter's rounds ask about every drawn card)
    assert state.uno_game.snapshot() == dealt.snapshot()


def test_an_action_stopped_for_a_card_is_undone_exactly() -> None:
    """An action that asks for a card is undone by replaying the actions since an earlier
    copy of the round: a round played on, its clone and its restored copy (each with
    another copy to replay from) stay the same state, action by action."""
    game = _load("no_mercy", 3, max_actions=400)
    rng = random.Random(6)
    state = game.new_initial_state()
    while state.is_chance_node():
        _chance(state, rng)
    copies = [state.clone(), game.deserialize_state(state.serialize())]
    waited = 0
    while not state.is_terminal():
        waited += state.chosen == ()
        before = state.clone()
        _random_step(state, rng)
        action = state.history()[-1]
        for i, copy in enumerate(copies):
            copy.apply_action(action)
            assert str(copy) == str(state) and copy.serialize() == state.serialize()
            if rng.random() < 0.05:  # now and then a fresh copy
                copies[i] = before.clone()
                copies[i].apply_action(action)
    assert waited > 10


@pytest.mark.parametrize(("deals", "pickled"), [(0, False), (8, False), (0, True)])
def test_a_restored_state_keeps_the_rounds_action_budget(deals: int, pickled: bool) -> None:
    """deserialize_state and OpenSpiel's own deserialization give the round the game's
    ``max_actions`` (a snapshot doesn't hold it): a round restored now and then still
    stops at its budget."""
    game = _load("classic", 2, max_actions=60, deals=deals)
    rng = random.Random(1)
    state = game.new_initial_state()
    while not state.is_terminal():
        if rng.random() < 0.2:
            state = pyspiel.deserialize_game_and_state(  # OpenSpiel's own (a pickle)
                pyspiel.serialize_game_and_state(game, state))[1] if pickled \
                else game.deserialize_state(state.serialize())
        _random_step(state, rng)
    assert len(state.uno_game.history) <= 60


def test_the_card_chooser_belongs_to_one_round() -> None:
    """State.chance is the round's own (no module global): a round with a chooser set takes
    the card it puts on top; a copy of it, without one, takes its own top card."""
    one = uno_rules.load_rulebook("classic").new_game(2, seed=1)
    two = one.clone()
    bottom, top = one.draw_pile[0], one.draw_pile[-1]

    def bottom_up(pile: list[int]) -> None:
        pile.append(pile.pop(0))

    one.chance = bottom_up
    for game in (one, two):
        seat = game.decision.seat
        game.apply(next(a for a in game.legal_actions() if a.kind == "draw"))
        assert game.history[-1].kind == "draw"
        assert game.hands[seat][-1] == (bottom if game is one else top)
    assert two.chance is None


@pytest.mark.parametrize(("rulebook", "house"), [("classic", "stacking"), ("no_mercy", "")])
def test_how_an_action_is_tried_changes_nothing(rulebook: str, house: str) -> None:
    """An action the game has seen take a card is tried on a copy of the round, another on
    the round itself (undone by a replay when it takes one): the same round either way,
    whichever actions the game thinks draw, clones and serialized copies too."""
    def play(drawing: set[int]) -> list[str]:
        game = _load(rulebook, 3, house=house, max_actions=150)
        game.drawing = drawing
        state, rng, seen = game.new_initial_state(), random.Random(8), []
        while not state.is_terminal():
            if len(seen) % 9 == 4:
                state = state.clone() if len(seen) % 2 else \
                    game.deserialize_state(state.serialize())
            _random_step(state, rng)
            seen.append(state.serialize())
        return seen

    table = _load(rulebook, 3, house=house).table
    assert play(set()) == play(set(range(len(table)))) == play({0})
