"""Train a policy through the PettingZoo adapter itself, with NumPy alone, then measure it.

Everything the learner knows comes from ``uno_rules.rl.pettingzoo.env``: the observation
array and the action mask of ``env.last()``, the reward at the end of the round. The actions
are the seat-free space (``shared_actions=True``), so one policy plays either seat. The
policy is linear softmax (``uno_rules.rl.linear``): a weight row per action, a score
``weights[action] @ features`` for each action in the mask. It learns by REINFORCE (each
choice of a round pushed towards or away by how much the round's reward beat the running
average) playing one seat, alternating, against a uniformly random agent (a legal action
drawn from the mask). Then it plays fresh rounds choosing its most likely action, and its
win rate is printed with a 95% Wilson interval next to a uniformly random agent's,
measured the same way (same rounds, same opponent).

    python examples/train_pettingzoo.py                          # the full run: ~80 s CPU
    python examples/train_pettingzoo.py --episodes 300 --eval 400   # the reduced run (CI)
"""

from __future__ import annotations

import random
import time
from typing import Any

import numpy as np

import uno_rules
from uno_rules.rl.linear import LinearPolicy, Trace, options
from uno_rules.rl.pettingzoo import env
from uno_rules.sim.stats import trained_vs_random


def policy_for(aec: Any) -> LinearPolicy:
    """A linear softmax over the observation, one weight row per action of the shared space."""
    space = aec.observation_space(aec.possible_agents[0])["observation"]
    return LinearPolicy(aec.size, 1 / np.maximum(space.high.astype(np.float32), 1))


def uniform(obs: dict[str, Any], rng: random.Random) -> int:
    legal = np.flatnonzero(obs["action_mask"])
    return int(legal[rng.randrange(len(legal))])


def play(aec: Any, seed: int, seat: int, policy: LinearPolicy | None,
         trace: Trace | None) -> float:
    """One round through the AEC loop, ``policy`` (None: uniform random) at ``seat`` and a
    uniformly random agent elsewhere: the learner's reward."""
    aec.reset(seed=seed)
    rng = random.Random(seed)
    learner, reward = aec.possible_agents[seat], 0.0
    for agent in aec.agent_iter():
        obs, got, terminated, truncated, _ = aec.last()
        if terminated or truncated:
            if agent == learner:  # a round cut short by its budget counts as lost: with 0 for
                reward = -1.0 if truncated else float(got)  # it, drawing forever would pay
            aec.step(None)
        elif agent == learner and policy is not None:
            legal = np.flatnonzero(obs["action_mask"])
            aec.step(policy.choose(obs["observation"], legal, rng, trace)[0])
        else:
            aec.step(uniform(obs, rng))
    return reward


def train(aec: Any, policy: LinearPolicy, episodes: int, seed: int, lr: float) -> None:
    for episode in range(episodes):
        trace: Trace = []
        policy.learn(trace, play(aec, seed + episode, episode % 2, policy, trace), lr)


def measure(aec: Any, policy: LinearPolicy | None, games: int, seed: int) -> int:
    """Rounds won of ``games`` (a round won: reward > 0; a truncated one gives 0)."""
    return sum(play(aec, seed + i, i % 2, policy, None) > 0 for i in range(games))


def main(argv: list[str] | None = None) -> None:
    args = options(__doc__, episodes=3_000, games=2_000).parse_args(argv)
    try:
        aec = env(args.rulebook, players=2, house=args.house, shared_actions=True)
    except uno_rules.UnoRulesError as exc:  # a wrong name, a house rule that doesn't fit
        raise SystemExit(f"train_pettingzoo: {exc}") from None
    policy = policy_for(aec)
    start = time.process_time()
    train(aec, policy, args.episodes, args.seed * 10**6, args.lr)
    took = time.process_time() - start
    print(f"{args.rulebook} + {', '.join(args.house) or 'no house rule'}, 2 players, against "
          f"uniform random: trained on {args.episodes} rounds in {took:.0f} s CPU")
    test_seed = args.seed * 10**6 + 500_000  # rounds the training never saw, the same for both
    trained = measure(aec, policy, args.eval, test_seed)
    baseline = measure(aec, None, args.eval, test_seed)
    print(trained_vs_random(trained, baseline, args.eval))


if __name__ == "__main__":
    main()
