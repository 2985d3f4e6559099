"""Games per second of uno-rules' classic rulebook, side by side with RLCard's hard-coded
UnoGame (if installed: ``pip install -e '.[bench]'``), as a ratio.

Both sides play the same policy: a uniformly random playable card when there is one, else
draw (RLCard only allows drawing when nothing is playable); colours and challenges at random.
Run: ``python bench/bench.py [--games N] [--players P]``.
"""

from __future__ import annotations

import argparse
import random
import time

import uno_rules


def ours(games: int, players: int) -> float:
    rulebook = uno_rules.load_rulebook("classic")
    start = time.perf_counter()
    for seed in range(games):
        game = rulebook.new_game(players, seed, log=False)
        rng = random.Random(seed)
        # Like RLCard: the decision's options only (RLCard has no out-of-turn UNO catches).
        while not game.over:
            options = game.decision.options
            plays = [a for a in options if a.kind == "play"]
            pool = plays or options
            game.apply(pool[rng.randrange(len(pool))])
    return games / (time.perf_counter() - start)


def rlcard_loop(games: int, players: int) -> float | None:
    try:
        from rlcard.games.uno.game import UnoGame
    except ImportError:
        return None
    import numpy as np

    start = time.perf_counter()
    for seed in range(games):
        game = UnoGame(num_players=players)
        game.np_random = np.random.RandomState(seed)
        rng = random.Random(seed)
        _, player = game.init_game()
        while not game.is_over():
            legal = game.get_legal_actions()
            game.step(legal[rng.randrange(len(legal))])
    return games / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=500)
    parser.add_argument("--players", type=int, default=4)
    args = parser.parse_args()
    a = ours(args.games, args.players)
    b = rlcard_loop(args.games, args.players)
    print(f"uno-rules classic: {a:8.1f} games/s")
    if b is None:
        print("RLCard UnoGame:   not installed (pip install -e '.[bench]')")
    else:
        print(f"RLCard UnoGame:   {b:8.1f} games/s")
        print(f"ratio (uno-rules / RLCard): {a / b:.2f}")


if __name__ == "__main__":
    main()
