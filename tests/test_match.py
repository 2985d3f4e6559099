"""Matches: scoring methods, target score and the next dealer."""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path

import pytest

import uno_rules
from uno_rules import IllegalAction, SnapshotError
from uno_rules.play.match import Match
from uno_rules.sim.simulate import random_moves

ROOT = Path(__file__).resolve().parent.parent


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


def test_triple_play_passes_the_deal_left_its_seat_0_edge_is_the_one_round_match() -> None:
    """Seat 0 wins more triple_play matches (docs/rules.md, section 10): not a dealer that
    never moves. Its match is one round, dealt by the last seat; at 500 points the deal
    passes left and each round's first player is the seat left of its dealer."""
    one, rounds = _play_match(uno_rules.load_rulebook("triple_play"), 5)
    assert len(rounds) == 1 and rounds[0][1] == 2
    rb = uno_rules.load_rulebook("triple_play", settings={"target_score": 500})
    match, rounds = _play_match(rb, 5)
    assert len(rounds) > 3
    assert [d for _, d, _, _ in rounds] == [(2 + i) % 3 for i in range(len(rounds))]
    for game, dealer, _, _ in rounds:
        first = next(a for a in game.history if a.kind != "outcome")
        assert first.seat == (dealer + 1) % 3


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
    # the match stops there, with no winner
    assert match.over and match.winners == () and match.scores == [0, 0, 0]
    assert match.stalled == "the round's budget of 2 actions ran out"


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


# ------------------------------------------------------------------- seats out of the match
def test_a_round_with_seats_out_deals_them_nothing_and_skips_them() -> None:
    classic = uno_rules.load_rulebook("classic")
    game = classic.new_game(4, 2, dealer=0, out=[1])
    assert [len(h) for h in game.hands] == [7, 0, 7, 7] and game.eliminated == [1]
    assert game.decision.seat == 2  # the first turn passes the seat out
    random_moves(game, random.Random(2))
    assert game.over and 1 not in {a.seat for a in game.history}
    assert classic.restore(game.snapshot()).snapshot() == game.snapshot()


def test_no_seat_out_deals_the_same_game() -> None:
    classic = uno_rules.load_rulebook("classic")
    assert classic.new_game(4, 9, out=[]).snapshot() == classic.new_game(4, 9).snapshot()


@pytest.mark.parametrize(("out", "dealer", "message"), [
    ([3], None, "out=[3]: the dealer, seat 3, is out of the match"),
    ([0, 1, 2], 3, "out=[0, 1, 2]: fewer than two players left in"),
    ([5], None, "out=[5]: expected a list of distinct seats 0-3"),
    ([1, 1], None, "out=[1, 1]: expected a list of distinct seats 0-3"),
    ("1", None, "out='1': expected a list of distinct seats 0-3"),
])
def test_seats_out_are_checked_first(out: object, dealer: int | None, message: str) -> None:
    with pytest.raises(IllegalAction) as info:
        uno_rules.load_rulebook("classic").new_game(4, 1, dealer=dealer, out=out)
    assert str(info.value) == message


def test_teams_have_no_seat_out_nor_elimination_scoring() -> None:
    teams = uno_rules.load_rulebook("teams")
    with pytest.raises(IllegalAction, match=r"out=\[1\]: teams plays in partnerships, whose seats "
                                            "are never out of a match"):
        teams.new_game(4, 1, out=[1], dealer=0)
    rb = uno_rules.load_rulebook("teams", settings={"scoring": "elimination"})
    with pytest.raises(IllegalAction, match="teams plays in partnerships: elimination scoring is "
                                            "for players on their own"):
        Match(rb, 4, 1)


# ----------------------------------------------------------------------------- snapshots
def _finish(match: Match, rng: random.Random) -> tuple[list[int], tuple[int, ...], int]:
    while not match.over:
        random_moves(match.game, rng)
        if match.game.stalled:
            break
        match.next_round()
    return match.scores, match.winners, match.rounds


@pytest.mark.parametrize("scoring", ["winner_takes", "elimination"])
def test_a_match_snapshot_plays_on_identically(scoring: str) -> None:
    rb = uno_rules.load_rulebook("classic", settings={"scoring": scoring,
                                                      "target_score": 200})
    match, rng = Match(rb, 4, 11), random.Random(11)
    for _ in range(2):  # after round 2
        random_moves(match.game, rng)
        match.next_round()
    for _ in range(5):  # and mid-round
        match.game.step(rng.choice(match.game.legal_ids()))
    data = json.loads(json.dumps(match.snapshot()))
    assert data["rounds"] == 3 and data["game"]["rulebook"] == "classic"
    again = Match.restore(rb, data)
    assert again.snapshot() == data
    end = _finish(match, random.Random(5))
    assert _finish(again, random.Random(5)) == end and end[1]
    assert again.out == match.out and again.dealer == match.dealer


def _tamper(data: dict, key: str, value: object) -> dict:
    return {**data, key: value}


@pytest.mark.parametrize(("change", "field"), [
    (lambda d: _tamper(d, "scores", [0, 0, 0]), "scores"),
    (lambda d: _tamper(d, "scores", [0, 0, -5, 0]), "scores"),
    (lambda d: _tamper(d, "out", [3, 1]), "out"),
    (lambda d: _tamper(d, "out", [2]), "out"),
    (lambda d: _tamper(d, "dealer", 1), "dealer"),
    (lambda d: _tamper(d, "rounds", 0), "rounds"),
    (lambda d: _tamper(d, "rng", [3, [1, 2], None]), "rng"),
    (lambda d: _tamper(d, "digest", "sha256:0"), "digest"),
    (lambda d: _tamper(d, "players", 3), "players"),
    (lambda d: _tamper(d, "winners", [0]), "winners"),
    (lambda d: _tamper(d, "match", 9), "match"),
    (lambda d: _tamper(d, "extra", 1), "extra"),
    (lambda d: {k: v for k, v in d.items() if k != "seed"}, "seed"),
    (lambda d: _tamper(d, "game", {**d["game"], "hands": [d["game"]["hands"][0] * 2,
                                                        *d["game"]["hands"][1:]]}), "game"),
])
def test_a_tampered_match_snapshot_names_the_field(change: object, field: str) -> None:
    rb = uno_rules.load_rulebook("classic")
    data = Match(rb, 4, 3).snapshot()
    with pytest.raises(SnapshotError) as info:
        Match.restore(rb, change(data))  # type: ignore[operator]
    assert str(info.value).startswith(f"match snapshot field {field!r}: "), str(info.value)


def test_a_match_snapshot_of_other_rules_is_refused() -> None:
    data = Match(uno_rules.load_rulebook("classic"), 4, 3).snapshot()
    with pytest.raises(SnapshotError, match="match snapshot field 'game': .*rulebook"):
        Match.restore(uno_rules.load_rulebook("pokemon"), data)
    with pytest.raises(SnapshotError, match="a match snapshot is a mapping"):
        Match.restore(uno_rules.load_rulebook("classic"), [])  # type: ignore[arg-type]


# ------------------------------------------------------------------------------ properties
@pytest.mark.parametrize("name, players", [
    ("classic", 2), ("classic", 5), ("pokemon", 3), ("ted_lasso", 4), ("teams", 4),
    ("teams", 6), ("no_mercy", 3), ("no_mercy", 6), ("flip", 3)])
@pytest.mark.parametrize("scoring", ["winner_takes", "lowest_total", "elimination"])
def test_a_simulated_match_ends_and_its_winner_earned_it(name: str, players: int,
                                                         scoring: str) -> None:
    """Every shipped rulebook at legal player counts, random agents, seeded: the match ends
    (or stops on a stalled round, with no winner); its winners reached the target (winner
    takes), hold the lowest total when someone reached it, or outlived the others."""
    own = uno_rules.load_rulebook(name, settings={"scoring": scoring})  # its own target
    low = uno_rules.load_rulebook(name, settings={"scoring": scoring, "target_score": 150})
    if scoring == "elimination" and own.team_size > 1:  # refused: see the test above
        with pytest.raises(IllegalAction, match="elimination scoring is for players"):
            Match(own, players, 0)
        return
    for seed, rb in enumerate((own, low)):  # play_first to the rulebook's target, uniform
        target = rb.settings.target_score   # (long rounds) to a lower one
        match, rng = Match(rb, players, seed), random.Random(seed)
        while not match.over:
            assert match.rounds <= 200
            game = match.game
            assert game.eliminated == match.out and not any(game.hands[s] for s in match.out)
            random_moves(game, rng, policy="uniform" if seed else "play_first")
            assert not {a.seat for a in game.history} & set(match.out)  # never acts
            if game.stalled:
                break
            match.next_round()
        if match.stalled:
            assert match.over and match.winners == ()
            with pytest.raises(IllegalAction, match="stalled"):
                match.next_round()
            continue
        scores, winners = match.scores, match.winners
        assert winners and match.over
        if scoring == "winner_takes":
            assert all(scores[w] >= target for w in winners)
            assert all(scores[s] < target for s in range(players) if s not in winners)
        elif scoring == "lowest_total":
            assert max(scores) >= target and {scores[w] for w in winners} == {min(scores)}
        else:
            assert all(scores[s] >= target for s in match.out)
            standing = [s for s in range(players) if s not in match.out]
            assert all(scores[s] < target for s in standing)
            assert set(winners) == set(standing) or not standing


def test_the_hostile_match_files_say_what_is_wrong() -> None:
    """tests/hostile/match/ (bench/hostile_cases/match.py times them): one located line,
    exit 2, as the file's first line says."""
    from click.testing import CliRunner

    from uno_rules.cli import cli

    files = sorted((ROOT / "tests" / "hostile" / "match").glob("*.yaml"))
    assert len(files) >= 7
    for path in files:
        expected = path.read_text().splitlines()[0].removeprefix("# expect: ")
        result = CliRunner().invoke(cli, ["scenario", str(path)])
        assert result.exit_code == 2, (path, result.output)
        assert result.output.strip() == f"{path}:{expected}"


def test_many_seats_out_are_one_counted_line(tmp_path: Path) -> None:
    from click.testing import CliRunner

    from uno_rules.cli import cli

    sys.path.insert(0, str(ROOT / "bench" / "hostile_cases"))
    try:
        from match import many_seats_out  # type: ignore[import-not-found]
    finally:
        sys.path.pop(0)
    result = CliRunner().invoke(cli, ["scenario", str(many_seats_out(tmp_path))])
    assert result.exit_code == 2
    assert result.output.strip().endswith(": 19,000 problems like this, the first at 5:37: "
                                          "match.out: no seat 9: seats are 0-3 "
                                          "(at $.match.out[0])")
