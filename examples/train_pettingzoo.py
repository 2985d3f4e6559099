"""Train a policy through the PettingZoo adapter itself, with NumPy alone, then measure it.

Everything the learner knows comes from ``uno_rules.rl.pettingzoo.env``: the observation
array and the action mask of ``env.last()``, the reward at the end of the round. The actions
are the seat-free space (``shared_actions=True``), so one policy plays either seat. The
policy is linear softmax: a weight row per action, a score ``weights[action] @ features``
for each action in the mask. It learns by REINFORCE (each choice of a round pushed towards
or away by how much the round's reward beat the running average) playing one seat,
alternating, against a uniformly random agent (a legal action drawn from the mask). Then it
plays fresh rounds choosing its most likely action, and its win rate is printed with a 95%
Wilson interval next to a uniformly random agent's, measured the same way (same rounds,
same opponent).

    python examples/train_pettingzoo.py                          # the full run: ~80 s CPU
    python examples/train_pettingzoo.py --episodes 300 --eval 400   # the reduced run (CI)
"""

from __future__ import annotations

import argparse
import random
import time
from typing import Any

import numpy as np

import uno_rules
from uno_rules.rl.pettingzoo import env
from uno_rules.sim.stats import wilson

Trace = list[tuple[np.ndarray, np.ndarray, np.ndarray, int]]


class Policy:
    """Linear softmax over the observation, one weight row per action of the shared space."""

    def __init__(self, aec: Any):
        space = aec.observation_space(aec.possible_agents[0])["observation"]
        self.scale = 1 / np.maximum(space.high.astype(np.float32), 1)  # features in 0..1
        self.weights = np.zeros((aec.size, len(self.scale) + 1), dtype=np.float32)

    def choose(self, obs: dict[str, Any], rng: random.Random, trace: Trace | None) -> int:
        """An action of the mask: sampled (recorded in ``trace``) while training, the most
        likely one (ties drawn at random: untrained, that is uniform) when measured."""
        x = np.append(obs["observation"] * self.scale, np.float32(1))  # the last: a bias
        legal = np.flatnonzero(obs["action_mask"])
        logits = self.weights[legal] @ x
        if trace is None:
            best = np.flatnonzero(logits == logits.max())
            return int(legal[best[rng.randrange(len(best))]])
        p = np.exp(logits - logits.max())
        p /= p.sum()
        k = min(int(np.searchsorted(np.cumsum(p), rng.random())), len(p) - 1)
        trace.append((x, legal, p, k))
        return int(legal[k])


def uniform(obs: dict[str, Any], rng: random.Random) -> int:
    legal = np.flatnonzero(obs["action_mask"])
    return int(legal[rng.randrange(len(legal))])


def play(aec: Any, seed: int, seat: int, policy: Policy | None, trace: Trace | None) -> float:
    """One round through the AEC loop, ``policy`` (None: uniform random) at ``seat`` and a
    uniformly random agent elsewhere: the learner's reward."""
    aec.reset(seed=seed)
    rng = random.Random(seed)
    learner, reward = aec.possible_agents[seat], 0.0
    for agent in aec.agent_iter():
        obs, got, terminated, truncated, _ = aec.last()
        if terminated or truncated:
            reward = float(got) if agent == learner else reward
            aec.step(None)
        elif agent == learner and policy is not None:
            aec.step(policy.choose(obs, rng, trace))
        else:
            aec.step(uniform(obs, rng))
    return reward


def train(aec: Any, policy: Policy, episodes: int, seed: int, lr: float) -> None:
    baseline = 0.0
    for episode in range(episodes):
        trace: Trace = []
        reward = play(aec, seed + episode, episode % 2, policy, trace)
        advantage, baseline = reward - baseline, baseline + 0.01 * (reward - baseline)
        for x, rows, p, k in trace:  # the log-softmax's gradient: onehot(k) - p
            grad = -p
            grad[k] += 1
            policy.weights[rows] += (lr * advantage) * np.outer(grad, x)


def measure(aec: Any, policy: Policy | None, games: int, seed: int) -> int:
    """Rounds won of ``games`` (a round won: reward > 0; a truncated one gives 0)."""
    return sum(play(aec, seed + i, i % 2, policy, None) > 0 for i in range(games))


def options(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    for flag, default, what in (("--episodes", 3_000, "training rounds"),
                                ("--eval", 2_000, "rounds measured"), ("--seed", 1, "")):
        parser.add_argument(flag, type=int, default=default, help=what or None)
    parser.add_argument("--lr", type=float, default=0.02)
    parser.add_argument("--rulebook", default="classic")
    parser.add_argument("--house", action="append", default=[], help="a house rule (repeatable)")
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> None:
    args = options(argv)
    try:
        aec = env(args.rulebook, players=2, house=args.house, shared_actions=True)
    except uno_rules.UnoRulesError as exc:  # a wrong name, a house rule that doesn't fit
        raise SystemExit(f"train_pettingzoo: {exc}") from None
    policy = Policy(aec)
    start = time.process_time()
    train(aec, policy, args.episodes, args.seed * 10**6, args.lr)
    took = time.process_time() - start
    print(f"{args.rulebook} + {', '.join(args.house) or 'no house rule'}, 2 players, against "
          f"uniform random: trained on {args.episodes} rounds in {took:.0f} s CPU")
    test_seed = args.seed * 10**6 + 500_000  # rounds the training never saw, the same for both
    trained = measure(aec, policy, args.eval, test_seed)
    baseline = measure(aec, None, args.eval, test_seed)
    for name, wins in (("trained policy", trained), ("uniform random", baseline)):
        low, high = wilson(wins, args.eval)
        print(f"{name}: won {wins}/{args.eval} = {wins / args.eval:.1%} "
              f"(95% interval {low:.1%}-{high:.1%})")
    verdict = "above" if wilson(trained, args.eval)[0] > baseline / args.eval else "not above"
    print(f"the trained policy's interval is {verdict} uniform random's win rate")


if __name__ == "__main__":
    main()
