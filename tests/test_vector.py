"""Gymnasium vector environments over UnoEnv (uno_rules.rl.vector), and why there is no
PettingZoo parallel environment."""

from __future__ import annotations

from typing import Any

import numpy
import pytest

pytest.importorskip("gymnasium")  # the rl extra; the shared environment has it

import gymnasium  # noqa: E402

from uno_rules.rl.gymnasium import ENV_ID, UnoEnv  # noqa: E402
from uno_rules.rl.vector import NOT_PARALLEL, make_vec  # noqa: E402

Step = tuple[list[int], list[float], list[bool]]


def run(envs: Any, seed: int, steps: int) -> list[Step]:
    """``steps`` steps of ``envs`` from ``reset(seed=seed)``, each sub-env taking its
    lowest-but-one legal action (its only one when alone): actions, rewards, ends."""
    _, info = envs.reset(seed=seed)
    out = []
    for _ in range(steps):
        masks = info["action_mask"]
        assert all(m.any() for m in masks)  # same_step auto-reset: always something to do
        actions = [int(numpy.flatnonzero(m)[-2:][0]) for m in masks]
        _, reward, term, trunc, info = envs.step(actions)
        out.append((actions, [float(r) for r in reward], [bool(d) for d in term | trunc]))
    return out


def test_vector_env_steps_through_auto_reset() -> None:
    envs = make_vec("classic", 3, opponents="play_first")
    _, info = envs.reset(seed=7)
    ended = numpy.zeros(3, dtype=int)
    for _ in range(400):
        actions = [int(numpy.flatnonzero(m)[0]) for m in info["action_mask"]]
        _, reward, term, trunc, info = envs.step(actions)
        done = term | trunc
        if done.any():  # the round's last observation and info kept, a new round begun
            assert set(numpy.flatnonzero(info["_final_obs"])) == set(numpy.flatnonzero(done))
            assert all(abs(r) == 1 for r in reward[term])
        ended += done
        assert [m.sum() for m in envs.call("action_masks")] == \
            [int(m.sum()) for m in info["action_mask"]]
    assert (ended >= 2).all(), ended
    envs.close()


def test_same_seeds_same_trajectories_and_each_sub_env_is_a_lone_env() -> None:
    first = run(make_vec("classic", 2, opponents="greedy"), 11, 150)
    assert run(make_vec("classic", 2, opponents="greedy"), 11, 150) == first
    assert run(make_vec("classic", 2, opponents="greedy"), 12, 150) != first
    # Sub-env 1 is UnoEnv seeded 11 + 1, then reset() (its RNG's next round) at each end.
    lone = UnoEnv("classic", opponents="greedy")
    lone.reset(seed=12)
    for actions, rewards, ends in first:
        _, reward, terminated, truncated, _ = lone.step(actions[1])
        assert (reward, terminated or truncated) == (rewards[1], ends[1])
        if ends[1]:
            lone.reset()
    assert any(ends[1] for _, _, ends in first)


def test_async_vector_env_matches_sync() -> None:
    kwargs: dict[str, Any] = {"players": 3, "opponents": "play_first", "house": ["jump_in"]}
    sync = run(make_vec("classic", 2, **kwargs), 3, 60)
    envs = make_vec("classic", 2, mode="async", **kwargs)
    try:
        assert run(envs, 3, 60) == sync
    finally:
        envs.close()


def test_gymnasium_make_vec_by_id() -> None:
    envs = gymnasium.make_vec(ENV_ID, num_envs=2, rulebook="flip", players=3)
    obs, info = envs.reset(seed=0)
    assert obs.shape[0] == 2 and info["action_mask"].shape[0] == 2
    envs.close()


@pytest.mark.parametrize("args, message", [
    ({"num_envs": 0}, "num_envs=0"), ({"mode": "threads"}, "mode='threads'"),
    ({"autoreset": "never"}, "autoreset='never'"), ({"seat": 5}, "seat=5")])
def test_make_vec_refuses_bad_arguments(args: dict[str, Any], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        make_vec("classic", **args)


def test_no_parallel_env_and_why() -> None:
    """PettingZoo's own conversion refuses the AEC env: its metadata says it can't be."""
    from pettingzoo.utils.conversions import aec_to_parallel  # type: ignore[import-untyped]

    from uno_rules.rl.pettingzoo import env

    aec = env("classic", players=2)
    assert aec.metadata["is_parallelizable"] is False
    with pytest.raises(AssertionError, match="not generally safe"):
        aec_to_parallel(aec)
    assert "turn-based" in NOT_PARALLEL


def test_every_sub_envs_rounds_ask_about_an_unplayable_drawn_card() -> None:
    """The sub-envs' rounds, the auto-reset ones too, are the PettingZoo env's: a drawn card
    is asked about whether or not it can be played (who acts tells nobody which)."""
    envs = make_vec("classic", 2, opponents="play_first")
    steps = run(envs, 3, 300)
    assert sum(any(ends) for _, _, ends in steps) >= 2  # rounds made by auto-reset
    rounds = [sub.unwrapped.aec.game for sub in envs.envs]  # type: ignore[attr-defined]
    assert all(game.offer_unplayable for game in rounds)
