"""The one game loop (uno_rules.play.driver): its ``on_action`` hook sees every action of
a round with its events, in order, without changing the round; a run's watched rounds are
the same in one process, in worker processes and on a Dask cluster; and every place that
plays a round drives the driver's loop."""

from __future__ import annotations

import random
from typing import Any

import pytest
from test_distributed import cluster  # noqa: F401  (the fixture: a two-worker cluster)

import uno_rules
from uno_rules.engine.actions import Action
from uno_rules.engine.game import Game
from uno_rules.play import driver
from uno_rules.play.agents import load_agent, play_agents
from uno_rules.sim.rounds import play_random, play_round
from uno_rules.sim.watch import Watched, play_watched, watch_rounds

CLASSIC = uno_rules.load_rulebook("classic")
AGENTS = [("greedy", load_agent("greedy")), ("uniform", load_agent("uniform")),
          ("play_first", load_agent("play_first"))]


def _watching() -> tuple[list[tuple[Action, driver.Events]], driver.OnAction]:
    seen: list[tuple[Action, driver.Events]] = []
    return seen, lambda action, events: seen.append((action, events))


def _check_seen(game: Game, seen: list[tuple[Action, driver.Events]]) -> None:
    """Every action of the round, in order, and every event logged after the deal, each
    with the action that logged it."""
    assert [a for a, _ in seen] == game.history and seen
    log = game.log or []
    dealt = len(log) - sum(len(events) for _, events in seen)
    assert [e for _, events in seen for e in events] == log[dealt:]
    assert all(type(e) is tuple for _, events in seen for e in events)


@pytest.mark.parametrize("policy", ["play_first", "uniform"])
def test_the_hook_sees_every_random_action_and_changes_nothing(policy: str) -> None:
    for seed in range(6):
        seen, on_action = _watching()
        watched = play_random(CLASSIC, 3, seed, policy=policy, log=True, on_action=on_action)
        plain = play_random(CLASSIC, 3, seed, policy=policy, log=True)
        _check_seen(watched, seen)
        assert watched.history == plain.history and watched.log == plain.log


def test_the_hook_sees_every_agents_action_and_changes_nothing() -> None:
    rb = uno_rules.load_rulebook("ted_lasso")  # out-of-turn windows and contests
    for seed in range(4):
        seen, on_action = _watching()
        watched = play_agents(rb, 3, seed, AGENTS, on_action=on_action)
        plain = play_agents(rb, 3, seed, AGENTS)
        _check_seen(watched, seen)
        assert watched.history == plain.history and watched.log == plain.log


def test_a_budget_stops_the_loop_and_a_script_is_taken_whatever_the_round() -> None:
    game = CLASSIC.new_game(2, 5)
    rng = random.Random(1)
    driver.drive(game, lambda g: driver.settle(g.legal_ids(), rng), 3)
    assert len(game.history) == 3 and not game.over
    seen, on_action = _watching()
    driver.script(game, [game.legal_ids()[0]], on_action)
    assert [a for a, _ in seen] == game.history[3:]


def _records(rounds: Any) -> list[Watched]:
    return list(rounds)


def test_a_runs_watched_rounds_are_its_rounds_and_the_same_with_workers() -> None:
    one = _records(watch_rounds(CLASSIC, 6, 4, seed=3))
    assert [w.record for w in one] == [
        play_round(CLASSIC, 4, w.record.seed or 0, None, "play_first", None, None)
        for w in one]
    assert all(len(w.actions) == w.record.actions for w in one)
    assert one == _records(watch_rounds(CLASSIC, 6, 4, seed=3, workers=2))
    agents = _records(watch_rounds(CLASSIC, 4, 3, seed=3, agents=AGENTS))
    assert agents == _records(watch_rounds(CLASSIC, 4, 3, seed=3, agents=AGENTS, workers=2))
    assert agents[0] == play_watched(CLASSIC, 3, agents[0].record.seed or 0, None,
                                     "play_first", None, AGENTS)


def test_a_runs_watched_rounds_are_the_same_on_a_dask_cluster(
        cluster: str) -> None:  # noqa: F811
    from distributed import Client

    one = _records(watch_rounds(CLASSIC, 6, 4, seed=3))
    with Client(cluster) as client:
        assert _records(watch_rounds(CLASSIC, 6, 4, seed=3, client=client)) == one


def test_every_place_that_plays_a_round_drives_the_driver(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Patch the loop (and its one-action step): each caller must reach them."""
    loops: list[str] = []
    drive, take, drive_asking = driver.drive, driver.take, driver.drive_asking

    def counted_drive(*args: Any, **kwargs: Any) -> Game:
        loops.append("drive")
        return drive(*args, **kwargs)

    def counted_take(*args: Any, **kwargs: Any) -> None:
        loops.append("take")
        take(*args, **kwargs)

    def counted_asking(*args: Any, **kwargs: Any) -> Any:
        loops.append("drive_asking")
        return (yield from drive_asking(*args, **kwargs))

    monkeypatch.setattr(driver, "drive", counted_drive)
    monkeypatch.setattr(driver, "drive_asking", counted_asking)
    monkeypatch.setattr(driver, "take", counted_take)

    def uses(expect: str, play: Any) -> None:
        loops.clear()
        play()
        assert expect in loops, play

    from uno_rules.play.agents import play_agents_on
    from uno_rules.sim.matchsim import play_match
    from uno_rules.sim.rounds import play_on, random_moves
    from uno_rules.sim.simulate import simulate

    uses("drive", lambda: random_moves(CLASSIC.new_game(2, 1), random.Random(1)))
    uses("drive", lambda: play_on(CLASSIC, CLASSIC.new_game(2, 1), "uniform", None))
    uses("drive", lambda: play_agents_on(CLASSIC, CLASSIC.new_game(3, 1), AGENTS))
    uses("drive", lambda: play_round(CLASSIC, 3, 1, None, "uniform", None, AGENTS))
    uses("drive", lambda: simulate(CLASSIC, 2, 2, 1))
    uses("drive", lambda: play_match(CLASSIC, 2, 1, None, "play_first", None, None, 50))

    import io
    from pathlib import Path

    from uno_rules.authoring.scenario import run_file
    from uno_rules.play.match import Match
    from uno_rules.play.record import read_text, record_game
    from uno_rules.table.session import Session

    game = play_agents(CLASSIC, 2, 4, AGENTS[:2])
    out = io.StringIO()
    uses("take", lambda: record_game(out, CLASSIC, game))
    uses("take", lambda: read_text(out.getvalue()).replay())
    scenario = next((Path(__file__).parent / "scenarios" / "classic").glob("*.yaml"))
    uses("take", lambda: run_file(scenario))
    session = Session(Match(CLASSIC, 2, 3), ["greedy"] * 2, {"greedy": load_agent("greedy")},
                      ask=lambda _: None, say=lambda _: None, one_round=True)
    uses("drive_asking", session.run)
    assert "take" in loops  # the table's own take (records) goes through the driver's


def test_the_rl_adapters_step_through_the_drivers_take(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Stepped by their callers, the adapters take each action through driver.take."""
    import pyspiel

    import uno_rules.rl.openspiel  # noqa: F401  (registers the game with OpenSpiel)
    from uno_rules.rl.gymnasium import UnoEnv
    from uno_rules.rl.pettingzoo import env

    taken: list[int | Action] = []
    take = driver.take

    def counted(game: Game, action: int | Action, *args: Any, **kwargs: Any) -> None:
        taken.append(action)
        take(game, action, *args, **kwargs)

    monkeypatch.setattr(driver, "take", counted)
    e = env("classic", 2)
    e.reset(seed=1)
    mask = e.observe(e.agent_selection)["action_mask"]
    e.step(int(mask.nonzero()[0][0]))
    assert taken
    taken.clear()
    state = pyspiel.load_game("uno_rules", {"rulebook": "classic", "players": 2}
                              ).new_initial_state()
    while state.is_chance_node():  # the deal's cards: not a round's actions
        state.apply_action(state.chance_outcomes()[0][0])
    state.apply_action(state.legal_actions()[0])
    assert len(taken) == 1
    taken.clear()
    g = UnoEnv("classic", 2, opponents="play_first")
    _, info = g.reset(seed=1)
    g.step(int(info["action_mask"].nonzero()[0][0]))
    assert taken
