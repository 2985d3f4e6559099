"""Train sb3-contrib's MaskablePPO on UnoEnv (needs ``pip install sb3-contrib``, which brings
PyTorch: not an extra of uno-rules, and not run in CI).

``UnoEnv`` offers ``action_masks()``, the method MaskablePPO asks an env for, so no wrapper
is needed; ``shared_actions=True`` gives the seat-free action space. The trained policy then
plays fresh rounds against the same opponent, its most likely legal action each time.

    python examples/train_maskable_ppo.py --steps 200000 --opponent play_first
"""

from __future__ import annotations

import argparse
from typing import Any

from uno_rules.rl.gymnasium import UnoEnv
from uno_rules.sim.stats import wilson


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rulebook", default="classic")
    parser.add_argument("--opponent", default="play_first")
    parser.add_argument("--steps", type=int, default=200_000, help="training env steps")
    parser.add_argument("--eval", type=int, default=1_000, help="rounds measured")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    try:
        from sb3_contrib import MaskablePPO
    except ImportError:
        raise SystemExit("train_maskable_ppo: needs sb3-contrib (and PyTorch): "
                         "pip install sb3-contrib") from None
    env: Any = UnoEnv(args.rulebook, opponents=args.opponent, shared_actions=True)
    model = MaskablePPO("MlpPolicy", env, seed=args.seed, verbose=0)
    model.learn(total_timesteps=args.steps)
    wins = 0
    for i in range(args.eval):
        obs, _ = env.reset(seed=args.seed * 10**6 + i)
        while True:
            action, _ = model.predict(obs, action_masks=env.action_masks(), deterministic=True)
            obs, reward, terminated, truncated, _ = env.step(int(action))
            if terminated or truncated:
                wins += reward > 0
                break
    low, high = wilson(wins, args.eval)
    print(f"MaskablePPO against {args.opponent}: won {wins}/{args.eval} "
          f"(95% interval {low:.1%}-{high:.1%})")


if __name__ == "__main__":
    main()
