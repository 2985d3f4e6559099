"""auto_forced (uno_rules.rl.pettingzoo, uno_rules.rl.gymnasium, uno_rules.rl.vector): a seat
with exactly one legal action is never shown its turn; the env takes that action as if
chosen, so the round, its hook calls and its rewards are those of the same real choices
with the option off."""

from __future__ import annotations

import random
import warnings
from collections.abc import Callable
from typing import Any

import numpy
import pytest
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test, seed_test

from uno_rules.rl.gymnasium import UnoEnv
from uno_rules.rl.pettingzoo import env
from uno_rules.rl.vector import make_vec

CASES = [("classic", 3, (), {"play_drawn": "must"}), ("classic", 2, (), None),
         ("classic", 3, ("jump_in",), None), ("classic", 4, (), {"play_drawn": "must"})]


def run(e: Any, pick: Callable[[Any], int], rewards: dict[str, float]) -> None:
    """The env's round to its end (after reset): ``pick`` chooses from each shown mask's
    ids; each agent's rewards added to ``rewards``."""
    for agent in e.agent_iter():
        obs, reward, term, trunc, _ = e.last()
        rewards[agent] = rewards.get(agent, 0.0) + reward
        e.step(None if term or trunc else pick(numpy.flatnonzero(obs["action_mask"])))


def play(auto: bool, name: str, players: int, house: Any, settings: Any,
         seed: int) -> dict[str, Any]:
    """One round by masked random agents that draw from their RNG only for a real choice
    (two options or more): what the hook saw, the round's record and rewards, and how many
    masks were shown and how many of those were forced."""
    hooked: list[tuple[str, list[str]]] = []
    e = env(name, players, house=house, settings=settings, auto_forced=auto,
            on_action=lambda a, events: hooked.append((str(a), [str(v) for v in events])))
    e.reset(seed=seed)
    rng = random.Random(seed)
    rewards: dict[str, float] = {}
    sizes: list[int] = []

    def pick(legal: Any) -> int:
        sizes.append(len(legal))
        return int(legal[0]) if len(legal) == 1 else int(rng.choice(legal))

    run(e, pick, rewards)
    assert e.game is not None
    return {"hooked": hooked, "history": [str(a) for a in e.game.history],
            "result": e.game.result, "rewards": rewards, "shown": len(sizes),
            "forced": sizes.count(1)}


@pytest.mark.parametrize("name,players,house,settings", CASES)
def test_a_round_ends_the_same_with_forced_actions_taken_unasked(
        name: str, players: int, house: Any, settings: Any) -> None:
    skipped = 0
    for seed in range(6):
        off = play(False, name, players, house, settings, seed)
        on = play(True, name, players, house, settings, seed)
        assert on["forced"] == 0  # a forced decision is never shown
        assert off["forced"] > 0 or seed
        for key in ("hooked", "history", "result", "rewards"):
            assert on[key] == off[key], key  # the hook saw every action, as if taken
        assert len(on["hooked"]) == len(on["history"])
        assert on["shown"] == off["shown"] - off["forced"]
        skipped += off["forced"]
    assert skipped > 0


def test_off_by_default() -> None:
    assert env("classic", 2).auto_forced is False
    assert UnoEnv("classic", 2).aec.auto_forced is False


def test_forced_plays_of_a_drawn_card_and_forced_keeps_both_vanish() -> None:
    """Under play_drawn: must the drawer is never asked about its drawn card, playable
    (played) or not (kept): both were taken, neither was shown."""
    taken: list[str] = []
    e = env("classic", 2, settings={"play_drawn": "must"}, auto_forced=True,
            on_action=lambda a, events: taken.append(str(a)))
    rng = random.Random(2)
    def pick(legal: Any) -> int:
        assert len(legal) > 1 and not any(e.table[i].kind == "keep" for i in legal)
        return int(rng.choice(legal))

    for seed in range(10):
        e.reset(seed=seed)
        run(e, pick, {})
    assert any("keep" in a for a in taken)


def test_pettingzoo_api_and_seed_tests_pass_with_it_on() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for house in ((), ("jump_in",)):
            api_test(env("classic", 3, house=house, auto_forced=True), num_cycles=60)
            seed_test(lambda h=house: env("classic", 3, house=h, auto_forced=True),
                      num_cycles=60)


@pytest.mark.parametrize("players", [2, 3])
def test_gymnasium_learner_is_shown_real_choices_only(players: int) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        check_env(UnoEnv("classic", players, seat=1, auto_forced=True))
    e = UnoEnv("classic", players, settings={"play_drawn": "must"}, auto_forced=True)
    rng = random.Random(1)
    for seed in range(5):
        _, info = e.reset(seed=seed)
        done = False
        while not done:
            legal = numpy.flatnonzero(info["action_mask"])
            assert len(legal) > 1
            _, reward, term, trunc, info = e.step(int(rng.choice(legal)))
            done = term or trunc
        assert reward in (1.0, -1.0)


def test_make_vec_passes_it_through() -> None:
    envs = make_vec("classic", num_envs=2, auto_forced=True)
    assert all(e.aec.auto_forced for e in envs.unwrapped.envs)  # type: ignore[attr-defined]
    envs.close()
