"""Simulations with the default policy (play_first) finish, and in a sensible number of turns."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

import uno_rules
from uno_rules.load.loader import shipped_names
from uno_rules.sim.simulate import simulate

LONG = os.environ.get("UNO_LONG", "") not in ("", "0")  # the long run (conftest.py)
TEAMS_GAMES = 1000 if LONG else 100


@pytest.mark.parametrize("players", [4, 6, 8])
def test_teams_default_policy_never_stalls(players: int) -> None:
    stats = simulate(uno_rules.load_rulebook("teams"), TEAMS_GAMES, players, seed=players)
    out = stats.to_json()
    assert stats.policy == "play_first"
    assert out["stalled"] == 0, f"{out['stalled']} of {TEAMS_GAMES} games stalled"
    assert sum(out["wins_by_team"]) == TEAMS_GAMES


# RULES.md §8-13's editions, each as soon as it ships (DOS later): every player count.
LATER = [name for name in ("classic_2018", "attack", "triple_play", "dos", "flex", "all_wild")
         if name in shipped_names()]
LATER_GAMES = 1000 if LONG else 20


@pytest.mark.parametrize("name", LATER)
def test_later_editions_default_policy_never_stalls(name: str) -> None:
    rulebook = uno_rules.load_rulebook(name)
    for players in rulebook.player_counts():
        out = simulate(rulebook, LATER_GAMES, players, seed=players).to_json()
        assert out["stalled"] == 0, f"{name} {players}p: {out['stalled']} games stalled"
        assert sum(out["wins_by_seat"]) == LATER_GAMES


def test_classic_default_policy_turns() -> None:
    stats = simulate(uno_rules.load_rulebook("classic"), 200, 4, seed=1)
    out = stats.to_json()
    assert stats.policy == "play_first" and out["stalled"] == 0
    assert out["turns"]["mean"] < 100, out["turns"]


HOSTILE = Path(__file__).resolve().parent / "hostile" / "exits"


def test_stalled_games_are_counted_by_reason() -> None:
    stats = simulate(uno_rules.load_rulebook(HOSTILE / "retrigger.yaml"), 2, 10, seed=1,
                     max_steps=30_000).to_json()
    assert stats["stalled"] == 2 and stats["stalled_reasons"] == {"steps": 2}
    stats = simulate(uno_rules.load_rulebook("classic"), 4, 4, seed=1,
                     max_actions=3).to_json()
    assert stats["stalled"] == 4 and stats["stalled_reasons"] == {"actions": 4}


def test_a_runaway_effect_is_a_stalled_game_not_the_end_of_the_run(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from uno_rules.engine import game as game_module

    monkeypatch.setattr(game_module, "RUN_BUDGET", 2)  # an action card now "runs away"
    stats = simulate(uno_rules.load_rulebook("classic"), 20, 4, seed=1).to_json()
    assert stats["stalled"] >= 1 and stats["stalled_reasons"] == {"runaway": stats["stalled"]}
    assert sum(stats["wins_by_seat"]) + stats["stalled"] == 20  # the run went on


def test_ctrl_c_keeps_the_games_finished(monkeypatch: pytest.MonkeyPatch) -> None:
    import uno_rules.sim.rounds as rounds
    import uno_rules.sim.simulate as module

    real, calls = rounds.play_random, []

    def interrupted_third(*args: object, **kwargs: object) -> object:
        calls.append(1)
        if len(calls) == 3:
            raise KeyboardInterrupt
        return real(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(rounds, "play_random", interrupted_third)  # play_round's
    stats = module.simulate(uno_rules.load_rulebook("classic"), 10, 4, seed=1).to_json()
    assert stats["games"] == 2 and stats["interrupted"] is True
    assert stats["games_requested"] == 10 and sum(stats["wins_by_seat"]) == 2
    whole = simulate(uno_rules.load_rulebook("classic"), 2, 4, seed=1).to_json()
    assert whole["wins_by_seat"] == stats["wins_by_seat"] and whole["turns"] == stats["turns"]


def test_an_unknown_policy_is_a_value_error() -> None:
    rulebook = uno_rules.load_rulebook("classic")
    with pytest.raises(ValueError, match=r"unknown policy 'x' \(one of uniform, play_first\)"):
        simulate(rulebook, games=1, players=2, seed=1, policy="x")


@pytest.mark.parametrize(("args", "kwargs", "message"), [
    ((-1, 3, 0), {}, "games=-1: expected a whole number >= 1"),
    ((0, 3, 0), {}, "games=0: expected a whole number >= 1"),
    ((2.0, 3, 0), {}, "games=2.0: expected a whole number >= 1, got float"),
    ((2, 3.0, 0), {}, "players=3.0: expected a whole number of players (classic is for "
                      "2-10), got float"),
    ((2, 11, 0), {}, "classic is for 2-10 players, not 11"),
    ((2, 3, None), {}, "seed=None: expected a whole number (the same seed, the same games)"),
    ((2, 3, 0), {"max_actions": 0}, "max_actions=0: expected a whole number >= 1 or None"),
    ((2, 3, 0), {"max_steps": "9"}, "max_steps='9': expected a whole number >= 1 or None, "
                                    "got str"),
])
def test_simulate_checks_its_arguments_first(args: tuple[object, ...], kwargs: dict[str, object],
                                             message: str) -> None:
    classic = uno_rules.load_rulebook("classic")
    with pytest.raises(uno_rules.IllegalAction) as info:
        simulate(classic, *args, **kwargs)  # type: ignore[arg-type]
    assert str(info.value) == message


def test_statistics_with_confidence_agree_with_the_counts() -> None:
    from uno_rules.sim.rounds import Round

    rounds: list[Round] = []
    stats = simulate(uno_rules.load_rulebook("classic"), 60, 3, seed=5,
                     on_round=rounds.append)
    out = stats.to_json()
    assert len(rounds) == 60 and out["decided"] == 60 - out["stalled"]
    assert [r["count"] for r in out["win_rate_by_seat"]] == out["wins_by_seat"]
    assert [r.turns for r in rounds] == stats.turn_counts
    assert sum(r.drawn or 0 for r in rounds) == sum(stats.drawn_counts) > 0
    assert out["length"]["turns"]["max"] == out["turns"]["max"] == max(stats.turn_counts)
    assert all(r.actions is not None and r.turns is not None and r.actions >= r.turns
               for r in rounds)
    assert out["first_player"]["count"] == sum(r.first in r.winners for r in rounds)
    assert out["challenges"]["of"] == sum(r.challenges or 0 for r in rounds) > 0
    assert out["challenges"]["count"] == sum(r.challenges_won or 0 for r in rounds)
    assert out["metrics"]["duration"] == out["length"]["turns"]["mean"]
    assert 0 <= out["metrics"]["balance"] <= 1 and 0 <= out["metrics"]["decisiveness"] <= 1


def test_cards_drawn_count_every_card_that_left_the_draw_pile() -> None:
    from uno_rules.sim.rounds import Round, game_seeds, play_random

    rulebook, checked = uno_rules.load_rulebook("classic"), 0
    for seed in range(8):
        rounds: list[Round] = []
        simulate(rulebook, 1, 2, seed=seed, on_round=rounds.append)
        game = play_random(rulebook, 2, next(game_seeds(seed, 1)), log=True)
        assert game.log is not None and game.turns == rounds[0].turns
        if any(e[0] == "reshuffle" for e in game.log) or \
                sum(1 for e in game.log if e[0] == "first") != 1:
            continue  # a first Wild Draw Four goes back into the pile: not this simple sum
        # No reshuffle: every card that left the pile after the deal and the first card
        # turned was drawn.
        assert rounds[0].drawn == 108 - 2 * 7 - 1 - len(game.draw_pile)
        checked += 1
    assert checked >= 4


def test_no_challenges_key_without_a_challenge_in_the_rulebook() -> None:
    rulebook = uno_rules.load_rulebook("classic", house=["no_bluffing"])
    assert "challenges" not in simulate(rulebook, 3, 2, seed=1).to_json()


def test_team_rates_and_first_player_by_team() -> None:
    out = simulate(uno_rules.load_rulebook("teams"), 20, 4, seed=2).to_json()
    assert [r["count"] for r in out["win_rate_by_team"]] == out["wins_by_team"]
    assert out["first_player"]["fair"] == 0.5  # two sides
    assert out["first_player"]["count"] == out["wins_by_team"][0]  # seat 0 is in team 0


def test_ctrl_c_keeps_the_statistics_and_csv_rows_of_the_games_finished(
        monkeypatch: pytest.MonkeyPatch) -> None:
    import uno_rules.sim.simulate as module

    real, calls = module.Stats.count, []

    def interrupted_fourth(self: module.Stats, record: module.Round,
                           team_of: object) -> None:
        calls.append(1)
        if len(calls) == 4:
            self.turn_counts.append(0)  # half counted when Ctrl-C comes
            raise KeyboardInterrupt
        real(self, record, team_of)  # type: ignore[arg-type]

    monkeypatch.setattr(module.Stats, "count", interrupted_fourth)
    rows: list[module.Round] = []
    stats = module.simulate(uno_rules.load_rulebook("classic"), 10, 4, seed=1,
                            on_round=rows.append)
    out = stats.to_json()
    assert out["games"] == 3 and len(rows) == 3 and out["length"]["turns"]["n"] == 3
    assert len(stats.turn_counts) == len(stats.action_counts) == 3
    assert [r.turns for r in rows] == stats.turn_counts


def test_a_chance_node_is_drawn_by_the_driver_not_the_policy(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """random_moves draws a contest (no seat) with its own RNG: the policy is never asked
    there; the rounds are those the golden files hold (tests/test_golden.py)."""
    from uno_rules.sim import rounds as sim

    asked = []
    policy = sim.POLICIES["play_first"]

    def seated_only(game: uno_rules.Game, rng: object) -> int:
        asked.append(game.decision)
        assert game.decision is not None and game.decision.seat is not None
        return policy(game, rng)  # type: ignore[arg-type]

    monkeypatch.setitem(sim.POLICIES, "play_first", seated_only)
    rulebook = uno_rules.load_rulebook("ted_lasso")
    contests = 0
    for seed in range(15):
        game = sim.play_random(rulebook, 4, seed)
        contests += sum(a.kind == "loser" for a in game.history)
    assert contests > 5 and len(asked) > 100


def test_a_ctrl_c_while_a_round_is_counted_waits_for_the_whole_round(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A Ctrl-C landing inside Stats.count (after a round's wins, before the count of
    rounds) is held until the round is counted whole and handed on: the interrupted run's
    wins add up to its rounds (a Dask run once reported one win too many), and its last
    round reaches ``on_round`` (the CSV once held a row fewer than the rounds counted)."""
    import signal

    from uno_rules.sim import simulate as sim

    count = sim.Stats.count
    calls = []

    def interrupted(self: sim.Stats, r: sim.Round, team_of: Any) -> None:
        count(self, r, team_of)
        calls.append(r)
        if len(calls) == 5:
            signal.raise_signal(signal.SIGINT)  # midway, as far as the loop is concerned
    monkeypatch.setattr(sim.Stats, "count", interrupted)
    rows: list[sim.Round] = []  # `simulate --csv` writes a round's row here
    stats = sim.simulate(uno_rules.load_rulebook("classic"), 50, 4, seed=1,
                         on_round=rows.append)
    assert stats.games == 5 and stats.requested == 50
    assert sum(stats.wins_by_seat) + stats.stalled == 5 == len(stats.turn_counts)
    assert rows == calls  # counted and handed on: the round's row too (it was held back)
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler  # put back
