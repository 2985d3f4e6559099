"""A linear softmax policy with NumPy alone, learning by REINFORCE: the learner of the
training examples that go through the adapters (examples/train_pettingzoo.py and
examples/train_openspiel.py), whatever hands it the features and the legal actions.

A weight row per action; an action's score is ``weights[action] @ x``, ``x`` the features
times ``scale`` (into 0..1) and a bias of 1; the policy is the softmax of the legal
actions' scores. While it trains it samples and records each choice; after the round,
:meth:`LinearPolicy.learn` pushes every recorded choice towards or away by how much the
round's reward beat a running average of rewards (REINFORCE with a baseline). Measured, it
takes its most likely action, ties drawn at random (untrained, that is uniform random).
"""

from __future__ import annotations

import argparse
import random

import numpy as np

# One recorded choice: the features with their bias, the legal actions, their
# probabilities, the index of the one taken.
Trace = list[tuple[np.ndarray, np.ndarray, np.ndarray, int]]
BASELINE_RATE = 0.01  # how fast the running average of rewards follows them


class LinearPolicy:
    """Linear softmax over ``len(scale)`` features, one weight row per action of
    ``actions``."""

    def __init__(self, actions: int, scale: np.ndarray) -> None:
        self.scale = scale.astype(np.float32)
        self.weights = np.zeros((actions, len(scale) + 1), dtype=np.float32)
        self.baseline = 0.0

    def choose(self, features: np.ndarray, legal: np.ndarray, rng: random.Random,
               trace: Trace | None) -> tuple[int, np.ndarray]:
        """An action of ``legal`` and the policy's probabilities of ``legal``: sampled
        (recorded in ``trace``) while training, the most likely one when measured."""
        x = np.append(features * self.scale, np.float32(1))  # the last: a bias
        logits = self.weights[legal] @ x
        p = np.exp(logits - logits.max())
        p /= p.sum()
        if trace is None:
            best = np.flatnonzero(logits == logits.max())
            return int(legal[best[rng.randrange(len(best))]]), p
        k = min(int(np.searchsorted(np.cumsum(p), rng.random())), len(p) - 1)
        trace.append((x, legal, p, k))
        return int(legal[k]), p

    def learn(self, trace: Trace, reward: float, lr: float) -> None:
        """One REINFORCE step from a round's choices and its reward."""
        advantage = reward - self.baseline
        self.baseline += BASELINE_RATE * advantage
        for x, rows, p, k in trace:  # the log-softmax's gradient: onehot(k) - p
            grad = -p
            grad[k] += 1
            self.weights[rows] += (lr * advantage) * np.outer(grad, x)


def options(doc: str, episodes: int, games: int) -> argparse.ArgumentParser:
    """The training examples' common options (their defaults: ``episodes``, ``games``)."""
    parser = argparse.ArgumentParser(description=doc.splitlines()[0])
    for flag, default, what in (("--episodes", episodes, "training rounds"),
                                ("--eval", games, "rounds measured"), ("--seed", 1, "")):
        parser.add_argument(flag, type=int, default=default, help=what or None)
    parser.add_argument("--lr", type=float, default=0.02)
    parser.add_argument("--rulebook", default="classic")
    parser.add_argument("--house", action="append", default=[], help="a house rule (repeatable)")
    return parser


__all__ = ["LinearPolicy", "Trace", "options"]
