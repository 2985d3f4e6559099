"""How well the built-in greedy agent plays: its win rate, with a 95% Wilson interval,
against uniform and play_first opponents at 2 and 4 players, greedy's seat moving round by
round (tests/test_agents.py checks the same with fewer rounds). Results: bench/README.md.

    python bench/agents.py [--games N] [--rulebook classic] [--seed S]
    python bench/agents.py --lookahead [--games N]   # lookahead against greedy, 2 players
"""

from __future__ import annotations

import argparse
import time

import uno_rules
from uno_rules.play.agents import AGENTS, play_agents
from uno_rules.sim.stats import wilson


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--rulebook", default="classic")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--lookahead", action="store_true",
                        help="lookahead (determinized rollouts) against greedy at 2 players")
    args = parser.parse_args()
    rulebook = uno_rules.load_rulebook(args.rulebook)
    if args.lookahead:
        lookahead(rulebook, args)
        return
    print(f"{args.rulebook}, {args.games} rounds each, seeds {args.seed}..., greedy's seat "
          f"rotating")
    print(f"{'players':>7} {'opponents':<10} {'wins':>6} {'rate':>6}  95% Wilson    "
          f"{'fair':>5} {'stalled':>7} {'s':>6}")
    for players in (2, 4):
        for opponent in ("uniform", "play_first"):
            start = time.process_time()
            wins, stalled = play_off(rulebook, players, "greedy", opponent, args)
            low, high = wilson(wins, args.games)
            print(f"{players:>7} {opponent:<10} {wins:>6} {wins / args.games:>6.3f}  "
                  f"{low:.3f}-{high:.3f}  {1 / players:>5.2f} {stalled:>7} "
                  f"{time.process_time() - start:>6.1f}")


def play_off(rulebook: uno_rules.Rulebook, players: int, agent: str, opponent: str,
             args: argparse.Namespace) -> tuple[int, int]:
    """``agent`` at one seat against ``opponent`` at the others, its seat moving round by
    round (round g: seat g mod players, seed args.seed + g): its wins and the rounds
    stalled."""
    wins = stalled = 0
    for g in range(args.games):
        seat = g % players
        seats = [(opponent, AGENTS[opponent])] * players
        seats[seat] = (agent, AGENTS[agent])
        game = play_agents(rulebook, players, args.seed + g, seats)
        if game.result is None:
            stalled += 1
        else:
            wins += seat in game.result.winners
    return wins, stalled


def lookahead(rulebook: uno_rules.Rulebook, args: argparse.Namespace) -> None:
    """Lookahead against greedy at 2 players, seats alternating round by round: its win
    rate with a 95% Wilson interval against the fair share (0.5)."""
    start = time.process_time()
    wins, stalled = play_off(rulebook, 2, "lookahead", "greedy", args)
    low, high = wilson(wins, args.games)
    print(f"{args.rulebook}, 2 players, lookahead vs greedy, {args.games} rounds, seeds "
          f"{args.seed}...: {wins} wins, rate {wins / args.games:.3f}, 95% Wilson "
          f"{low:.3f}-{high:.3f} (fair 0.50), {stalled} stalled, "
          f"{time.process_time() - start:.0f} s CPU")


if __name__ == "__main__":
    main()
