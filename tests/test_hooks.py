"""A caller's ``on_action`` hook (the driver's) at the table and in the RL adapters: it sees
exactly the round's history, in order, contests and out-of-turn actions included, each with
the events it logged, and changes nothing in the round."""

from __future__ import annotations

import random

import pytest
from test_pettingzoo import play  # a round through the AEC loop, masked uniform

import uno_rules
from uno_rules.engine.actions import Action
from uno_rules.engine.game import Game
from uno_rules.play import driver
from uno_rules.play.agents import load_agent
from uno_rules.play.match import Match
from uno_rules.table.session import Session

RULES = ("ted_lasso", ("jump_in",))  # out-of-turn windows (jump-ins, catches) and contests
Seen = list[tuple[Action, driver.Events]]


def _rulebook() -> uno_rules.Rulebook:
    return uno_rules.load_rulebook(RULES[0], house=list(RULES[1]))


def _watching() -> tuple[Seen, driver.OnAction]:
    seen: Seen = []
    return seen, lambda action, events: seen.append((action, events))


def _check(game: Game, seen: Seen, dealt: Game) -> tuple[int, int]:
    """The hook saw the round's history, in order, and (when the round logs) every event
    after the deal with its action; returns the contests and out-of-turn actions seen (from
    ``dealt``, the round as dealt, replayed)."""
    assert [a for a, _ in seen] == game.history and seen
    if game.log is not None:
        logged = [e for _, events in seen for e in events]
        assert logged == game.log[len(game.log) - len(logged):] and logged
    contests = out_of_turn = 0
    for action, _ in seen:
        decider = dealt.pending.seat if dealt.pending is not None else None
        contests += decider is None
        out_of_turn += decider is not None and action.seat != decider
        dealt.apply(action)
    return contests, out_of_turn


def env_round(rulebook: uno_rules.Rulebook, seed: int | None) -> Game:
    """The round an RL env (or OpenSpiel's game) deals with ``seed``, as it plays it: a
    drawn card asked about whether or not it can be played (so its history replays)."""
    game = rulebook.new_game(3, seed)
    game.offer_unplayable = True
    return game


def test_the_table_calls_the_hook_for_every_action() -> None:
    rb = _rulebook()
    counts = [0, 0]
    for seed in range(12):
        match = Match(rb, 3, seed)
        dealt = match.game.clone()
        seen, on_action = _watching()
        session = Session(match, ["greedy"] * 3, {"greedy": load_agent("greedy")},
                          lambda prompt: None, lambda line: None, one_round=True,
                          on_action=on_action)
        session.run()
        plain = Match(rb, 3, seed)
        Session(plain, ["greedy"] * 3, {"greedy": load_agent("greedy")}, lambda prompt: None,
                lambda line: None, one_round=True).run()
        assert plain.game.history == match.game.history  # the hook changed nothing
        counts = [c + n for c, n in zip(counts, _check(match.game, seen, dealt), strict=True)]
        # A record's actions replayed at the table (a resumed game) are taken too.
        again, on_again = _watching()
        replayed = Match(rb, 3, seed)
        Session(replayed, ["greedy"] * 3, {"greedy": load_agent("greedy")},
                lambda prompt: None, lambda line: None, one_round=True, on_action=on_again,
                script=[str(a) for a in match.game.history]).run()
        assert again == seen
    assert all(counts), counts  # contests and out-of-turn actions were among them


def test_pettingzoo_calls_the_hook_for_every_action() -> None:
    from uno_rules.rl.pettingzoo import env

    counts = [0, 0]
    for seed in range(8):
        seen, on_action = _watching()
        watched = env(RULES[0], 3, RULES[1], on_action=on_action)
        play(watched, seed, random.Random(seed))
        plain = env(RULES[0], 3, RULES[1])
        play(plain, seed, random.Random(seed))
        assert watched.game.history == plain.game.history
        dealt = env_round(watched.rulebook, watched.game.seed)
        counts = [c + n for c, n in zip(counts, _check(watched.game, seen, dealt),
                                        strict=True)]
    assert all(counts), counts


def test_gymnasium_calls_the_hook_for_the_learners_and_the_opponents_actions() -> None:
    from uno_rules.rl.gymnasium import UnoEnv

    for seed in range(4):
        seen, on_action = _watching()
        rng = random.Random(seed)
        learner = UnoEnv(RULES[0], 3, "greedy", house=RULES[1], on_action=on_action)
        _, info = learner.reset(seed=seed)
        done = False
        while not done:
            ids = [i for i, m in enumerate(info["action_mask"]) if m]
            _, _, end, cut, info = learner.step(rng.choice(ids))
            done = end or cut
        game = learner.aec.game
        assert game is not None
        seats = {a.seat for a, _ in seen}
        assert {0, 1, 2} <= seats  # every seat's actions, not only the learner's
        _check(game, seen, env_round(learner.rulebook, game.seed))


@pytest.mark.parametrize("deals", [0, 1024])  # each card a chance node; seeded deals
def test_openspiel_calls_the_hook_for_every_action_of_its_state_only(deals: int) -> None:
    import pyspiel

    import uno_rules.rl.openspiel  # noqa: F401  (registers the game)

    game = pyspiel.load_game("uno_rules", {"rulebook": RULES[0], "house": ",".join(RULES[1]),
                                           "players": 3, "deals": deals})
    counts = [0, 0]
    for seed in range(6):
        rng = random.Random(seed)
        seen, on_action = _watching()
        state = game.new_initial_state(on_action=on_action)
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes, odds = zip(*state.chance_outcomes(), strict=True)
                action = rng.choices(outcomes, odds)[0]
            else:
                action = rng.choice(state.legal_actions())
            state.apply_action(action)
            if len(seen) == 5:  # a search's copies report to nobody
                for copy in (state.clone(), game.deserialize_state(state.serialize()),
                             pyspiel.deserialize_game_and_state(
                                 pyspiel.serialize_game_and_state(game, state))[1]):
                    while not copy.is_terminal() and not copy.is_chance_node():
                        copy.apply_action(copy.legal_actions()[0])
        played = state.uno_game
        if not deals:  # no seed deals the round again: the actions and their events
            assert [a for a, _ in seen] == played.history and seen
            logged = [e for _, events in seen for e in events]
            assert logged == played.log[len(played.log) - len(logged):] and logged
            continue
        dealt = env_round(played.rulebook, played.seed)
        counts = [c + n for c, n in zip(counts, _check(played, seen, dealt), strict=True)]
    assert all(counts) or not deals, counts


@pytest.mark.parametrize("hooked", [False, True])
def test_a_hook_changes_no_observation(hooked: bool) -> None:
    """The round logs its events only for a hook: what a seat observes is the same."""
    from uno_rules.rl.pettingzoo import env

    first = env(RULES[0], 3, RULES[1], on_action=(lambda a, e: None) if hooked else None)
    second = env(RULES[0], 3, RULES[1])
    for e in (first, second):
        e.reset(seed=3)
    rng = random.Random(3)
    for agent in first.agent_iter(200):
        one, two = first.observe(agent), second.observe(agent)
        assert (one["observation"] == two["observation"]).all()
        _, _, done, cut, _ = first.last()
        action = None if done or cut else rng.choice(
            [i for i, m in enumerate(one["action_mask"]) if m])
        first.step(action)
        second.step(action)
