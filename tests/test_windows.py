"""Out-of-turn windows that reveal nothing (issue 31), the engine's side: a window asks
every seat that could act out of turn by public information (``Game.asked_seats``), each
may pass, and resampling any seat's information keeps who is asked. The adapters' side:
tests/test_out_of_turn.py."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest

import uno_rules
from uno_rules import Action, Game
from uno_rules.engine.model import NO_COLOR


def _public_asked(game: Game) -> list[int]:
    """The seats a window should ask, from what every seat sees (this test's own reading
    of the rule): the seats offered a catch or an UNO call, and under jump_in, while
    another's turn or drawn card is pending on a card that may be jumped on, every other
    seat with cards."""
    view = game.view(0)  # the public parts are the same in every seat's view
    seats = {a.seat for a in game.out_of_turn_actions() if a.kind in ("catch", "uno")}
    pending, settings = game.pending, game.rulebook.settings
    top = game.faces[game.discard[-1]] if game.discard else None
    if settings.jump_in and pending is not None and pending.kind in ("turn", "drawn") \
            and top is not None and (top.color != NO_COLOR or settings.jump_in_wilds):
        seats.update(s for s, n in enumerate(view["hand_sizes"]) if n and s != pending.seat)
    return sorted(s for s in seats if s is not None)


def _rounds(house: tuple[str, ...], players: int, count: int) -> Iterator[tuple[Game, Any]]:
    """Rounds of classic with ``house`` dealt and played at random, yielded at every
    decision (and a generator to draw from)."""
    rulebook = uno_rules.load_rulebook("classic", house=list(house))
    for seed in range(count):
        game, rng = rulebook.new_game(players, seed, max_actions=400), random.Random(seed)
        while not game.over:
            yield game, rng
            extra = game.out_of_turn_ids()
            ids = game.legal_ids() + tuple(extra if rng.random() < 0.3 else ())
            game.step(rng.choice(ids))


@pytest.mark.parametrize("house", [("jump_in",), ("jump_in_wilds", "partners")])
def test_a_window_asks_by_public_information_and_resampling_keeps_it(
        house: tuple[str, ...]) -> None:
    players = 4
    table = uno_rules.load_rulebook("classic", house=list(house)).action_table(players)
    only_pass = holders = 0
    for game, rng in _rounds(house, players, 6):
        asked = game.asked_seats()
        assert asked == _public_asked(game)
        decider = game.pending.seat if game.pending is not None else None
        mine = {table[i].seat for i in game.out_of_turn_ids()}
        assert mine - {decider} <= set(asked)  # whoever may act out of turn is asked
        for seat in set(asked) - {decider}:
            ids = game.legal_ids(seat)
            assert table[ids[-1]] == Action(seat, "pass")
            only_pass += len(ids) == 1
            holders += len(ids) > 1
        if asked and len(game.history) % 3 == 0:
            before = game.snapshot()
            for seat in set(asked) - {decider}:  # each pass is legal and changes nothing
                game.apply(Action(seat, "pass"), seat=seat)
            assert game.snapshot() == before
            for seat in range(players):  # any seat's resampling: the same seats asked
                world = game.resample(seat, random.Random(rng.random()))
                assert world.asked_seats() == asked
                assert world.pending is not None and world.pending.seat == decider
    assert only_pass > 200 and holders > 10, (only_pass, holders)


def test_a_seat_not_asked_may_not_pass() -> None:
    for game, _rng in _rounds(("jump_in",), 3, 2):
        decider = game.pending.seat if game.pending is not None else None
        for seat in set(range(3)) - set(game.asked_seats()) - {decider}:
            assert game.legal_ids(seat) == ()
            with pytest.raises(uno_rules.IllegalAction, match="can't pass"):
                game.apply(Action(seat, "pass"), seat=seat)
