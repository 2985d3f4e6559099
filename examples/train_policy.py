"""Train a small policy with NumPy alone on a house-rule variant, then measure it.

The policy is linear softmax over the observation vector (``uno_rules.rl.observation``): one
row of weights per action of its seat, a score ``weights[action] @ features`` for each
legal action (the mask), a softmax over them. It learns by REINFORCE: after each round
every choice it made is pushed towards (won) or away from (lost) by how much the result
beat the running average. It plays one seat against a built-in agent (``uno_rules.play.agents``),
alternating seats so that neither starts more often, then plays fresh rounds choosing its
most likely action and prints its win rate with a 95% Wilson interval, next to a uniform
random player's measured the same way (same rounds, same opponent) and the fair share.

    python examples/train_policy.py                  # the full run: a few CPU minutes
    python examples/train_policy.py --episodes 300 --eval 300    # the reduced run (CI)

The learner reads the game through the Observer, which shows it only what its seat sees
(its own hand, the table, hand sizes: ``tests/test_observation.py``), never other hands.
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable
from typing import Any

import numpy as np

import uno_rules
from uno_rules.play.agents import AGENTS, Observation, play_agents_on
from uno_rules.rl.observation import Observer
from uno_rules.sim.stats import wilson


class Policy:
    """Linear softmax over the observation, one weight row per action of a seat."""

    def __init__(self, rulebook: uno_rules.Rulebook, players: int):
        self.observer = Observer(rulebook, players)
        table = rulebook.action_table(players)
        # Every seat's actions share rows: an action is keyed by kind and argument, a seat
        # argument (a catch's target, ...) counted from the actor, as the observation is.
        keys: dict[tuple[str, Any], int] = {}
        self.row = np.zeros((players, len(table)), dtype=np.intp)
        for i, a in enumerate(table):
            if a.seat is None:
                continue
            arg = (a.arg - a.seat) % players if isinstance(a.arg, int) else a.arg
            self.row[a.seat, i] = keys.setdefault((a.kind, arg), len(keys))
        self.passing = len(keys)  # one more row: passing on an out-of-turn offer
        highs = np.array([max(s.high, 1) for s in self.observer.spaces
                          for _ in range(s.length)], dtype=np.float32)
        self.scale = 1 / highs  # every feature in 0..1
        self.weights = np.zeros((len(keys) + 1, self.observer.size + 1), dtype=np.float32)

    def features(self, game: uno_rules.Game, seat: int) -> np.ndarray:
        x = np.ones(self.observer.size + 1, dtype=np.float32)  # the last one: a bias
        x[:-1] = self.observer.array(game, seat) * self.scale
        return x

    def rows(self, seat: int, obs: Observation) -> np.ndarray:
        rows = self.row[seat, list(obs.ids)]
        return np.append(rows, self.passing) if obs.optional else rows


class Learner:
    """A seat played by the policy: sampling while it trains (each choice recorded in
    ``trace``), its most likely action when measured."""

    def __init__(self, policy: Policy, game: uno_rules.Game, seat: int, rng: random.Random,
                 trace: list[tuple[np.ndarray, np.ndarray, np.ndarray, int]] | None):
        self.policy, self.game, self.seat, self.rng, self.trace = policy, game, seat, rng, trace

    def choose(self, obs: Observation) -> int | None:
        x = self.policy.features(self.game, self.seat)
        rows = self.policy.rows(self.seat, obs)
        logits = self.policy.weights[rows] @ x
        p = np.exp(logits - logits.max())
        p /= p.sum()
        if self.trace is None:  # the most likely, ties drawn at random (untrained: uniform)
            best = np.flatnonzero(logits == logits.max())
            k = int(best[self.rng.randrange(len(best))])
        else:
            k = min(int(np.searchsorted(np.cumsum(p), self.rng.random())), len(p) - 1)
            self.trace.append((x, rows, p, k))
        return obs.ids[k] if k < len(obs.ids) else None  # past the ids: pass


def play(rulebook: uno_rules.Rulebook, seed: int, seat: int, opponent: str,
         make: Callable[[uno_rules.Game, int, random.Random], Any]) -> bool:
    """One 2-player round, ``make`` seating the player at ``seat``: did that seat win?"""
    game = rulebook.new_game(2, seed)
    agents: list[tuple[str, Any]] = [(opponent, AGENTS[opponent])] * 2
    agents[seat] = ("learner", lambda s, rng: make(game, s, rng))
    play_agents_on(rulebook, game, agents)
    return game.result is not None and seat in game.result.winners  # stalled: not won


def train(policy: Policy, rulebook: uno_rules.Rulebook, episodes: int, opponent: str,
          seed: int, lr: float) -> None:
    baseline = 0.0
    for episode in range(episodes):
        trace: list[tuple[np.ndarray, np.ndarray, np.ndarray, int]] = []
        won = play(rulebook, seed + episode, episode % 2, opponent,
                   lambda g, s, rng, t=trace: Learner(policy, g, s, rng, t))
        reward = 1.0 if won else -1.0
        advantage, baseline = reward - baseline, baseline + 0.01 * (reward - baseline)
        for x, rows, p, k in trace:  # the log-softmax's gradient: onehot(k) - p
            grad = -p
            grad[k] += 1
            policy.weights[rows] += (lr * advantage) * np.outer(grad, x)


def measure(rulebook: uno_rules.Rulebook, games: int, opponent: str, seed: int,
            make: Callable[[uno_rules.Game, int, random.Random], Any]) -> int:
    return sum(play(rulebook, seed + i, i % 2, opponent, make) for i in range(games))


def line(name: str, wins: int, games: int) -> str:
    low, high = wilson(wins, games)
    return (f"{name}: won {wins}/{games} = {wins / games:.1%} "
            f"(95% interval {low:.1%}-{high:.1%})")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rulebook", default="classic")
    parser.add_argument("--house", action="append", default=None,
                        help="a house rule (repeatable; default: stacking; none: no house rule)")
    parser.add_argument("--opponent", default="play_first", choices=sorted(AGENTS))
    parser.add_argument("--episodes", type=int, default=20_000, help="training rounds")
    parser.add_argument("--eval", type=int, default=2_000, help="rounds measured")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--lr", type=float, default=0.02)
    args = parser.parse_args(argv)
    house = ["stacking"] if args.house is None else [h for h in args.house if h != "none"]
    try:
        rulebook = uno_rules.load_rulebook(args.rulebook, house=house)
    except uno_rules.UnoRulesError as exc:  # a wrong name, or a house rule that doesn't fit
        raise SystemExit(f"train_policy: {exc}") from None
    if 2 not in rulebook.player_counts():
        raise SystemExit(f"train_policy: {rulebook.name} is for {rulebook.players_text()} "
                         "players; this example plays 2")
    policy = Policy(rulebook, 2)
    start = time.process_time()
    train(policy, rulebook, args.episodes, args.opponent, args.seed * 10**6, args.lr)
    took = time.process_time() - start
    print(f"{args.rulebook} + {', '.join(house) or 'no house rule'}, 2 players, against "
          f"{args.opponent}: trained on {args.episodes} rounds in {took:.0f} s CPU")
    # Measured on rounds the training never saw, the same ones for both players.
    test_seed = args.seed * 10**6 + 500_000
    trained = measure(rulebook, args.eval, args.opponent, test_seed,
                      lambda g, s, rng: Learner(policy, g, s, rng, None))
    uniform = measure(rulebook, args.eval, args.opponent, test_seed,
                      lambda g, s, rng: AGENTS["uniform"](s, rng))
    print(line("trained policy", trained, args.eval))
    print(line("uniform random", uniform, args.eval))
    low, high = wilson(trained, args.eval)
    verdict = "above" if low > 0.5 else "below" if high < 0.5 else "not distinguishable from"
    print(f"fair share 50.0%: the trained policy is {verdict} it")


if __name__ == "__main__":
    main()
