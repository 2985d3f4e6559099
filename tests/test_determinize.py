"""game.resample(seat, rng) (uno_rules/engine/determinize.py): the hidden cards re-dealt
from one seat's information, on random states of every shipped rulebook.

The quick run checks a few hundred states per rulebook (every seat of each); UNO_LONG=1
checks 10,000 per rulebook (the issue's bar); UNO_RESAMPLE_STATES=N sets it by hand."""

from __future__ import annotations

import functools
import os
import random
from collections import Counter
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from uno_rules import Game, Rulebook, load_rulebook
from uno_rules.load.resources import shipped_names
from uno_rules.rl.observation import Observer

LONG = os.environ.get("UNO_LONG", "") not in ("", "0")
# UNO_RESAMPLE_STATES=N: N per rulebook, whatever the run.
STATES = int(os.environ.get("UNO_RESAMPLE_STATES", 10_000 if LONG else 150))
NAMES = shipped_names()


@functools.cache
def _loaded(name: str) -> Rulebook:
    """Each rulebook loaded once: a fresh load has no memo, and its digest (every snapshot
    writes it) costs a Flip-sized rulebook ~0.1 s to compute again."""
    return load_rulebook(name)


def random_state(name: str, r: random.Random) -> Game:
    """A round of ``name`` at a random player count, some random actions in (out-of-turn
    ones too), not over."""
    rb = _loaded(name)
    counts = [c for c in rb.player_counts() if c <= 6]
    while True:
        g = rb.new_game(r.choice(counts), seed=r.randrange(2**32), log=r.random() < 0.5)
        for _ in range(r.randrange(120)):
            if g.over:
                break
            acts = g.legal_actions()
            # mostly the first option (rounds move on), sometimes anything
            g.apply(acts[0] if r.random() < 0.5 else r.choice(acts))
        if not g.over:
            return g


def hidden(g: Game, seat: int) -> Counter[int]:
    """The cards ``seat`` can't see (every card but its hand and the public piles)."""
    out: Counter[int] = Counter(g.draw_pile)
    for s, hand in enumerate(g.hands):
        if s != seat:
            out.update(hand)
    for pile in g._piles:
        out.update(pile)
    for giving in g.giving:
        out.update(card for giver, _, card in giving.aside if giver != seat)
    return out


def play_out(g: Game) -> None:
    """Play the round to its end: the first option each time (a legal action, or it raises)."""
    while not g.over:
        g.step(g.legal_ids()[0])


def check(g: Game, seat: int, rng: random.Random) -> Game:
    """Resample ``g`` for ``seat`` and check everything the seat can reach is unchanged."""
    before = g.snapshot()
    view, ids, decision = g.view(seat), g.legal_ids(seat), g.decision_for(seat)
    observer = Observer(g.rulebook, g.players)
    encoded = observer.encode(g, seat)
    new = g.resample(seat, rng)
    assert g.snapshot() == before, "the original changed"
    assert new.view(seat) == view
    assert new.legal_ids(seat) == ids
    assert new.decision_for(seat) == decision
    assert observer.encode(new, seat) == encoded  # the RL observation (docs/embedding.md)
    assert new.hands[seat] == g.hands[seat]  # the very same cards, in the same order
    assert new._discards == g._discards and new._out == g._out and new.history == g.history
    assert hidden(new, seat) == hidden(g, seat)
    # A consistent state: a snapshot of it restores (restore checks every pending record).
    Game.restore(g.rulebook, new.snapshot())
    if new.pending is not None and new.pending.kind == "drawn":
        assert new.pending.card in new.hands[new.pending.seat]
        assert new._can_play(new.pending.seat, new.pending.card)
    return new


@pytest.mark.parametrize("name", NAMES)
def test_resample_on_random_states(name: str) -> None:
    r = random.Random(name)
    drawn = 0
    for n in range(STATES):
        g = random_state(name, r)
        seat = n % g.players
        pending = g.pending
        drawn += pending is not None and pending.kind == "drawn" and pending.seat != seat
        new = check(g, seat, r)
        if n % 10 == 0:
            play_out(new)
            assert new.over
    if name in ("classic", "pokemon"):  # offer_drawn: another seat's drawn card was met
        assert drawn > 0


def test_flip_keeps_the_backs_the_seat_sees() -> None:
    r = random.Random(5)
    for _ in range(100):
        g = random_state("flip", r)
        seat = r.randrange(g.players)
        new = g.resample(seat, r)
        back = g.rulebook.side_faces[(g.side + 1) % 2]
        for s in range(g.players):
            if s != seat:
                assert sorted(back[c].id for c in new.hands[s]) == \
                    sorted(back[c].id for c in g.hands[s])
        if g.draw_pile:
            assert back[new.draw_pile[-1]].id == back[g.draw_pile[-1]].id
        # the hidden cards by back: the same numbers of each
        assert Counter(back[c].id for c in hidden(new, seat).elements()) == \
            Counter(back[c].id for c in hidden(g, seat).elements())


def test_two_seeds_give_different_deals() -> None:
    r = random.Random(9)
    differ = total = 0
    for name in NAMES:
        for _ in range(20):
            g = random_state(name, r)
            seat = r.randrange(g.players)
            if len(set(hidden(g, seat))) < 3:
                continue
            a = g.resample(seat, random.Random(1))
            b = g.resample(seat, random.Random(2))
            total += 1
            differ += (a.hands, a.draw_pile) != (b.hands, b.draw_pile)
            # and the same seed gives the same deal
            c = g.resample(seat, random.Random(1))
            assert (a.hands, a.draw_pile, a._rng.getstate()) == \
                (c.hands, c.draw_pile, c._rng.getstate())
    assert total > 50 and differ >= 0.95 * total


def test_the_future_is_fresh() -> None:
    """The resampled game's generator is not the original's (whose next reshuffles are the
    real ones) and no seed of the deal is carried."""
    g = load_rulebook("classic").new_game(2, seed=3)
    new = g.resample(0, random.Random(1))
    assert new._rng.getstate() != g._rng.getstate()
    assert new.seed is None and new.log == []


def test_teams_the_given_card_stays_with_the_partner() -> None:
    """In Teams each player gives its partner a card at the start: the giver knows where it
    is until the partner plays it."""
    rb = load_rulebook("teams")
    r = random.Random(2)
    checked = 0
    for seed in range(40):
        g = rb.new_game(4, seed=seed)
        while not g.over and g.pending is not None and g.pending.kind == "give":
            g.step(g.legal_ids()[r.randrange(len(g.legal_ids()))])
        for _ in range(r.randrange(30)):  # and some turns on
            if not g.over:
                g.step(g.legal_ids()[0])
        if g.over:
            continue
        for seat in range(4):
            partner = g._partner(seat)
            given = [str(a.arg) for a in g.history if a.kind == "give" and a.seat == seat]
            for a in g.history:  # until the partner plays (or gives on) a card of that name
                if a.seat == partner and a.kind in ("play", "give") and a.arg in given:
                    given.remove(str(a.arg))
            for k in range(5):
                new = check(g, seat, random.Random(k))
                # in the partner's hand, or set aside for it (chosen, not yet received)
                held = new.hand(partner) + [new.faces[card].name for giving in new.giving
                                            for giver, _, card in giving.aside if giver == seat]
                assert not Counter(given) - Counter(held)
                checked += len(given)
    assert checked > 100
    # Someone outside the partnership knows nothing of it: the card moves about.
    g = rb.new_game(4, seed=1)
    while g.pending is not None and g.pending.kind == "give":
        g.step(g.legal_ids()[0])
    seat, name = next((a.seat, str(a.arg)) for a in g.history if a.kind == "give")
    partner, other = g._partner(seat), (seat + 1) % 4
    assert any(Counter(g.resample(other, random.Random(k)).hand(partner)) !=
               Counter(g.hand(partner)) for k in range(20))


def test_another_seats_drawn_card_is_followed() -> None:
    """A pending `drawn` decision of another seat names a card of its hand: the new deal
    names the card now there, one it can play (today's snapshot surgery fails there)."""
    rb = load_rulebook("classic")
    r = random.Random(4)
    found = 0
    for seed in range(400):
        g = rb.new_game(3, seed=seed)
        for _ in range(60):
            if g.over or (g.pending is not None and g.pending.kind == "drawn"):
                break
            ids = g.legal_ids()
            g.step(ids[-1] if r.random() < 0.3 else ids[0])  # the last option: often draw
        if g.over or g.pending is None or g.pending.kind != "drawn":
            continue
        seat = (g.pending.seat + 1) % 3
        for k in range(5):
            new = check(g, seat, random.Random(k))
            assert new._ctx.drawn == new.pending.card
            play_out(new)
        found += 1
    assert found > 10


def test_bad_arguments() -> None:
    g = load_rulebook("classic").new_game(2, seed=1)
    with pytest.raises(ValueError, match="no seat 2"):
        g.resample(2, random.Random(1))
    with pytest.raises(TypeError, match="random.Random"):
        g.resample(0, 7)  # type: ignore[arg-type]


def observed(g: Game, seat: int) -> Any:
    """What an agent at ``seat`` can reach, as its observation is built (agents.py)."""
    from uno_rules.play.agents import observation
    pending = g.pending
    kind = pending.kind if pending is not None and pending.seat == seat else None
    obs = observation(g, seat, g.legal_ids(seat), kind, 0)
    return (obs.view, obs.kind, obs.ids, obs.options, obs.events)


@settings(max_examples=300 if LONG else 60, deadline=None)
@given(name=st.sampled_from(NAMES), seed=st.integers(0, 2**32 - 1),
       rng_seed=st.integers(0, 2**32 - 1))
def test_nothing_the_seat_reaches_changes(name: str, seed: int, rng_seed: int) -> None:
    """The leak test: for a random state, nothing an agent at the seat can reach (its view,
    its legal ids, its observation) tells the original from a resample; and the resampled
    round plays on to its end."""
    r = random.Random(seed)
    g = random_state(name, r)
    seat = r.randrange(g.players)
    new = check(g, seat, random.Random(rng_seed))
    assert observed(new, seat) == observed(g, seat)
    play_out(new)


@pytest.mark.parametrize("name", NAMES)
def test_resample_is_canonical(name: str) -> None:
    """The hidden cards are sorted before the shuffle: resampling a resampled round with a
    generator in the same state gives the same round as resampling the original (the
    no-peeking audit: same seed, re-dealt hidden cards, same result)."""
    r = random.Random(f"canonical {name}")
    differ = 0
    for n in range(40):
        g = random_state(name, r)
        seat, k = n % g.players, r.randrange(2**32)
        once = g.resample(seat, random.Random(k))
        twice = once.resample(seat, random.Random(k))
        again = g.resample(seat, random.Random(k + 1)).resample(seat, random.Random(k))
        assert twice.snapshot() == once.snapshot() == again.snapshot()
        differ += once.snapshot()["hands"] != g.snapshot()["hands"]
    assert differ > 0  # the hidden cards did move
