"""Matches: scoring methods, target score and the next dealer."""

from __future__ import annotations

import random

import pytest

import uno_rules
from uno_rules import IllegalAction
from uno_rules.match import Match
from uno_rules.simulate import random_moves


def _play_match(rulebook: uno_rules.Rulebook, seed: int) -> tuple[Match, list[tuple]]:
    match = Match(rulebook, 3, seed)
    rng = random.Random(seed)
    rounds = []
    while True:
        random_moves(match.game, rng)
        assert match.game.over
        before = list(match.scores)
        game, dealer = match.game, match.dealer
        nxt = match.next_round()
        rounds.append((game, dealer, before, list(match.scores)))
        if nxt is None:
            return match, rounds


def test_winner_takes_to_target() -> None:
    rb = uno_rules.load_rulebook("classic", settings={"target_score": 150})
    match, rounds = _play_match(rb, 4)
    for game, _dealer, before, after in rounds:
        w = game.result.winners[0]
        assert after[w] - before[w] == game.result.points
        assert sum(after) - sum(before) == game.result.points
    assert match.scores[match.winners[0]] >= 150
    assert all(after[s] < 150 for _, _, _, after in rounds[:-1] for s in range(3))
    dealers = [d for _, d, _, _ in rounds]
    assert dealers == [(2 + i) % 3 for i in range(len(rounds))]  # the deal passes left
    with pytest.raises(IllegalAction):
        match.next_round()


def test_lowest_total_and_winner_deals() -> None:
    rb = uno_rules.load_rulebook("classic", settings={"scoring": "lowest_total",
                                                      "next_dealer": "winner",
                                                      "target_score": 200})
    match, rounds = _play_match(rb, 8)
    for game, _, before, after in rounds:
        for seat in range(3):
            left = sum(game.faces[c].points for c in game.hands[seat])
            assert after[seat] - before[seat] == left
    assert max(match.scores) >= 200
    assert all(match.scores[w] == min(match.scores) for w in match.winners)
    for (game, _, _, _), (_, dealer, _, _) in zip(rounds, rounds[1:], strict=False):
        assert dealer == game.result.winners[0]


def test_same_seed_same_match() -> None:
    rb = uno_rules.load_rulebook("classic", settings={"target_score": 100})
    a, _ = _play_match(rb, 3)
    b, _ = _play_match(rb, 3)
    assert (a.scores, a.winners, a.rounds) == (b.scores, b.winners, b.rounds)


def test_next_round_needs_a_finished_round(classic: uno_rules.Rulebook) -> None:
    with pytest.raises(IllegalAction, match="not over"):
        Match(classic, 2, 1).next_round()


def test_elimination_last_one_standing() -> None:
    """Seats keep their numbers: a seat out of the match is in every later round with an
    empty hand, dealt nothing, never acting."""
    rb = uno_rules.load_rulebook("pokemon", settings={"scoring": "elimination",
                                                      "target_score": 150})
    match = Match(rb, 4, 2)
    rng = random.Random(2)
    history = []
    while not match.over:
        game = match.game
        assert game.players == 4 and game.eliminated == match.out
        assert all(not game.hands[s] for s in match.out)
        acted = set()
        while not game.over:
            acted.add(game.decision.seat)
            game.apply(rng.choice(game.decision.options))
        assert not acted & set(match.out)  # a seat out never acts
        out, before = list(match.out), list(match.scores)
        match.next_round()
        for s in range(4):  # own leftover points; a seat out adds nothing
            left = 0 if s in out else sum(game.faces[c].points for c in game.hands[s])
            assert match.scores[s] - before[s] == left
        history.append(out)
    history.append(match.out)
    for earlier, later in zip(history, history[1:], strict=False):
        assert set(earlier) <= set(later)
    assert all(match.scores[s] >= 150 for s in match.out)
    standing = [s for s in range(4) if s not in match.out]
    assert all(match.scores[s] < 150 for s in standing)
    assert len(standing) <= 1 and len(history) > 2
    assert match.winners == tuple(standing) if standing else match.winners


def test_a_player_knocked_out_is_dealt_in_again_next_round() -> None:
    """What the No Mercy sheet says (docs/rulebooks/no_mercy.md): knocked out of the round,
    dealt in again in the next round of the match."""
    rb = uno_rules.load_rulebook("no_mercy")
    for seed in range(20):  # a first round in which somebody is knocked out
        match = Match(rb, 3, seed)
        random_moves(match.game, random.Random(seed))
        if match.game.eliminated:
            break
    first = match.game
    assert first.over and first.eliminated and first.result is not None
    assert match.scores == [0, 0, 0]
    game = match.next_round()
    assert game is not None and match.seats == [0, 1, 2] and match.out == []
    assert game.eliminated == [] and [len(h) for h in game.hands] == [7, 7, 7]
    assert not game.over and game.decision is not None


def test_a_stalled_round_has_no_score() -> None:
    match = Match(uno_rules.load_rulebook("classic"), 3, seed=1)
    match.game.max_actions = 2
    rng = random.Random(1)
    while not match.game.over:
        match.game.apply(rng.choice(match.game.decision.options))
    with pytest.raises(IllegalAction, match="the current round stalled: the round's budget "
                                            "of 2 actions ran out; it has no score"):
        match.next_round()


@pytest.mark.parametrize(("players", "seed", "message"), [
    (3.0, 1, "players=3.0: expected a whole number of players (classic is for 2-10), got float"),
    (3, "1", "seed='1': expected a whole number or None, got str"),
    (1, 1, "classic is for 2-10 players, not 1"),
])
def test_a_match_checks_its_arguments_first(players: object, seed: object, message: str) -> None:
    classic = uno_rules.load_rulebook("classic")
    with pytest.raises(IllegalAction) as info:
        Match(classic, players, seed)  # type: ignore[arg-type]
    assert str(info.value) == message
