"""Train a policy through OpenSpiel's own RL environment with NumPy alone, then measure it.

The game is ``pyspiel.load_game("uno_rules", ...)`` (``import uno_rules.rl.openspiel``
registers it), played through ``open_spiel.python.rl_environment.Environment``: every card
dealt and drawn is a chance node the environment samples, and each agent sees what the
environment hands it, the seat's ``information_state_tensor`` (perfect recall: its view,
its own hand's changes, the recent public actions; ``--observation``: the smaller
``observation_tensor``) and its legal actions. The actions are the seat-free space
(``shared_actions``), so one policy plays either seat.

The learner is an OpenSpiel agent (``rl_agent.AbstractAgent``: ``step(time_step)`` returns
an action and its probabilities, and learns from the last time step of a round): a linear
softmax over the tensor, learning by REINFORCE (``uno_rules.rl.linear``, the PettingZoo
example's learner), playing one seat, alternating, against OpenSpiel's ``RandomAgent``.
(OpenSpiel's own NumPy agents are tabular, keyed by the whole tensor: with perfect recall
no state comes twice; its policy-gradient agents need PyTorch or JAX.) Then it plays fresh
rounds choosing its most likely action, and its win rate is printed with a 95% Wilson
interval next to ``RandomAgent``'s, measured the same way (same rounds, same opponent).

    python examples/train_openspiel.py                        # the full run
    python examples/train_openspiel.py --episodes 150 --eval 200   # the reduced run (CI)
"""

from __future__ import annotations

import random
import time
from typing import Any

import numpy as np

try:
    import pyspiel
    from open_spiel.python import rl_agent, rl_environment
    from open_spiel.python.algorithms.random_agent import RandomAgent
except ImportError as exc:
    raise SystemExit(f"train_openspiel: needs OpenSpiel ({exc.name} is missing): "
                     "pip install 'uno-rules[rl]'") from None

import uno_rules.rl.openspiel  # noqa: F401  (registers "uno_rules" with pyspiel)
from uno_rules.rl.linear import LinearPolicy, Trace, options
from uno_rules.sim.stats import trained_vs_random


class LinearAgent(rl_agent.AbstractAgent):
    """An OpenSpiel agent playing ``policy`` at ``player_id``: sampling while it trains,
    learning at the round's last time step; its most likely action when ``is_evaluation``.
    The tensor's features are squashed into 0..1 (``x / (1 + x)``: counts have no fixed
    bound)."""

    def __init__(self, player_id: int, policy: LinearPolicy, rng: random.Random,
                 lr: float) -> None:
        self.player_id, self.policy, self.rng, self.lr = player_id, policy, rng, lr
        self.trace: Trace = []

    def step(self, time_step: Any, is_evaluation: bool = False) -> Any:
        if time_step.last():
            if not is_evaluation:
                self.policy.learn(self.trace, time_step.rewards[self.player_id], self.lr)
            self.trace = []
            return None
        tensor = np.asarray(time_step.observations["info_state"][self.player_id], np.float32)
        legal = np.asarray(time_step.observations["legal_actions"][self.player_id])
        action, p = self.policy.choose(tensor / (1 + tensor), legal, self.rng,
                                       None if is_evaluation else self.trace)
        probs = np.zeros(len(self.policy.weights))
        probs[legal] = p
        return rl_agent.StepOutput(action=action, probs=probs)


def play(env: Any, seed: int, agents: list[Any], learner: int, evaluating: bool) -> float:
    """One round, seeded (the environment's chance and the random agent's NumPy draws), the
    agents by seat; every agent sees the last time step: the learner's reward."""
    env.seed(seed)
    np.random.seed(seed % 2**32)  # RandomAgent draws from NumPy's global generator
    time_step = env.reset()
    while not time_step.last():
        seat = time_step.observations["current_player"]
        time_step = env.step([agents[seat].step(time_step, is_evaluation=evaluating).action])
    for agent in agents:
        agent.step(time_step, is_evaluation=evaluating)
    return float(time_step.rewards[learner])


def seats(policy: LinearPolicy | None, seat: int, rng: random.Random, lr: float,
          actions: int) -> list[Any]:
    """The agents of a two-player round: the learner (None: a random agent) at ``seat``."""
    out: list[Any] = [RandomAgent(s, actions) for s in range(2)]
    if policy is not None:
        out[seat] = LinearAgent(seat, policy, rng, lr)
    return out


def train(env: Any, policy: LinearPolicy, episodes: int, seed: int, lr: float) -> None:
    rng = random.Random(seed)
    for episode in range(episodes):
        seat = episode % 2
        play(env, seed + episode, seats(policy, seat, rng, lr, len(policy.weights)), seat,
             False)


def measure(env: Any, policy: LinearPolicy | None, games: int, seed: int, actions: int) -> int:
    """Rounds won of ``games`` (a round won: reward > 0; one stopped by its budget gives 0)."""
    won = 0
    for i in range(games):
        agents = seats(policy, i % 2, random.Random(seed + i), 0.0, actions)
        won += play(env, seed + i, agents, i % 2, True) > 0
    return won


def main(argv: list[str] | None = None) -> LinearPolicy:
    """Train, measure, print: the trained policy."""
    parser = options(__doc__, episodes=2_000, games=1_000)
    parser.add_argument("--settings", default="draw_with_playable:false",
                        help="the game parameter settings (default: %(default)s)")
    parser.add_argument("--observation", action="store_true",
                        help="learn from observation_tensor, not information_state_tensor")
    args = parser.parse_args(argv)
    params = {"rulebook": args.rulebook, "house": ",".join(args.house), "players": 2,
              "settings": args.settings, "shared_actions": True}
    kind = rl_environment.ObservationType
    try:
        game = pyspiel.load_game("uno_rules", params)
    except (uno_rules.UnoRulesError, ValueError) as exc:
        raise SystemExit(f"train_openspiel: {exc}") from None
    env = rl_environment.Environment(
        game, observation_type=kind.OBSERVATION if args.observation else kind.INFORMATION_STATE)
    actions = env.action_spec()["num_actions"]
    size = env.observation_spec()["info_state"][0]
    policy = LinearPolicy(actions, np.ones(size, np.float32))
    saved = np.random.get_state()
    try:
        start = time.process_time()
        train(env, policy, args.episodes, args.seed * 10**6, args.lr)
        took = time.process_time() - start
        print(f"{game}, against RandomAgent: trained on {args.episodes} rounds in {took:.0f} s CPU")
        test_seed = args.seed * 10**6 + 500_000
        trained = measure(env, policy, args.eval, test_seed, actions)
        baseline = measure(env, None, args.eval, test_seed, actions)
    finally:
        np.random.set_state(saved)
    print(trained_vs_random(trained, baseline, args.eval))
    return policy


if __name__ == "__main__":
    main()
