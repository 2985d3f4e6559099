"""Classic games per second of uno-rules beside RLCard's hard-coded UnoGame, in one run.

The comparison is kept fair (see bench/README.md):

* same policy: RLCard offers ``draw`` only when nothing is playable, so its uniform random
  choice over the legal actions is our ``play_first``: a uniformly random ``play`` option when
  there is one, else a uniformly random option of ``game.decision.options`` (the decision's
  options only, no out-of-turn UNO catches, which RLCard does not have);
* same unit: a whole round, dealing included, from a fresh deal to a winner;
* same set-up cost: our rulebook is loaded once and RLCard's ``UnoGame`` is built and seeded
  once, both outside the timing; every round then deals anew (``new_game`` / ``init_game``);
* CPU time (``time.process_time``), repetitions interleaved between the engines, medians.

Ours is timed twice too: the object loop (``decision.options`` / ``apply``) and the integer
lane (``legal_ids`` / ``step``), the same policy on the same rounds (asserted: the same turns).
RLCard is timed twice: its game loop (``game.step``, which also builds the next player's state
each time, as an RL environment does) and its bare round loop (``round.proceed_round``, no
state). RLCard is optional: ``pip install -e '.[bench]'``.

Run: ``python bench/bench.py [--games N] [--reps R] [--players 2 4] [--profile]``.
"""

from __future__ import annotations

import argparse
import copy
import cProfile
import pstats
import random
import statistics
import time
from collections.abc import Callable
from typing import Any

import uno_rules

# A runner plays ``games`` whole rounds and returns the total number of turns taken.
Runner = Callable[[int], int]
OURS = ("uno-rules", "integer lane")  # the object loop and the integer lane, same rounds


# ---------------------------------------------------------------------------- uno-rules
def play_first_runner(new_game: Callable[[int], Any], seed: int = 0) -> Runner:
    """Rounds from ``new_game(game_seed)`` played with play_first on the decision's options
    (no catches): the loop the bench times for uno-rules and for the floor engine."""
    rng = random.Random(seed)
    next_seed = [seed]

    def run(games: int) -> int:
        turns = 0
        randrange = rng.randrange
        first = next_seed[0]
        for game_seed in range(first, first + games):
            game = new_game(game_seed)
            while not game.over:
                options = game.decision.options
                plays = [a for a in options if a.kind == "play"]
                pool = plays or options
                game.apply(pool[randrange(len(pool))])
            turns += game.turns
        next_seed[0] = first + games
        return turns

    return run


def ours_runner(players: int, seed: int = 0) -> Runner:
    """Our classic rounds (the rulebook loaded once, no event log)."""
    rulebook = uno_rules.load_rulebook("classic")
    return play_first_runner(lambda game_seed: rulebook.new_game(players, game_seed, log=False),
                             seed)


def lane_runner(players: int, seed: int = 0) -> Runner:
    """Our classic rounds through the integer lane (``legal_ids`` / ``step``): the same
    policy on the same ids in the same order, so the same rounds as :func:`ours_runner`."""
    rulebook = uno_rules.load_rulebook("classic")
    is_play = [a.kind == "play" for a in rulebook.action_table(players)]
    rng = random.Random(seed)
    next_seed = [seed]

    def run(games: int) -> int:
        turns = 0
        randrange = rng.randrange
        first = next_seed[0]
        for game_seed in range(first, first + games):
            game = rulebook.new_game(players, game_seed, log=False)
            while not game.over:
                ids = game.legal_ids()
                plays = [i for i in ids if is_play[i]]
                pool = plays or ids
                game.step(pool[randrange(len(pool))])
            turns += game.turns
        next_seed[0] = first + games
        return turns

    return run


def floor_runner(players: int, seed: int = 0) -> Runner:
    """The hard-coded floor engine (bench/floor.py), its tables made once."""
    from floor import FloorGame, Tables

    tables = Tables(uno_rules.load_rulebook("classic"), players)
    return play_first_runner(lambda game_seed: FloorGame(tables, players, game_seed), seed)


# ------------------------------------------------------------------------------- RLCard
def rlcard_game(players: int, seed: int = 0) -> Any | None:
    """One RLCard ``UnoGame``, seeded once; None when RLCard is not installed."""
    try:
        import numpy as np
        from rlcard.games.uno.game import UnoGame
    except ImportError:
        return None
    game = UnoGame(num_players=players)
    game.np_random = np.random.RandomState(seed)
    return game


def rlcard_loop_runner(game: Any, seed: int = 0) -> Runner:
    """RLCard's game loop: ``get_legal_actions`` and ``step`` (which builds the next state)."""
    rng = random.Random(seed)

    def run(games: int) -> int:
        steps = 0
        randrange = rng.randrange
        for _ in range(games):
            game.init_game()
            while not game.is_over():
                legal = game.get_legal_actions()
                game.step(legal[randrange(len(legal))])
                steps += 1
        return steps

    return run


def rlcard_bare_runner(game: Any, seed: int = 0) -> Runner:
    """RLCard's bare round loop: the round's own legal actions and ``proceed_round``, no state.

    ``init_game`` still deals the round (and builds the first state, once per round).
    """
    rng = random.Random(seed)

    def run(games: int) -> int:
        steps = 0
        randrange = rng.randrange
        for _ in range(games):
            game.init_game()
            rnd, hands = game.round, game.players
            while not rnd.is_over:
                legal = rnd.get_legal_actions(hands, rnd.current_player)
                rnd.proceed_round(hands, legal[randrange(len(legal))])
                steps += 1
        return steps

    return run


# ------------------------------------------------------------------------------ timing
def measure(runners: dict[str, Runner], games: int, reps: int) -> dict[str, dict[str, float]]:
    """Interleave ``reps`` repetitions of ``games`` rounds per runner; medians of games/s."""
    rates: dict[str, list[float]] = {name: [] for name in runners}
    turns: dict[str, int] = dict.fromkeys(runners, 0)
    for run in runners.values():  # warm-up, untimed
        run(max(1, games // 10))
    for _ in range(reps):
        for name, run in runners.items():
            start = time.process_time()
            turns[name] += run(games)
            rates[name].append(games / (time.process_time() - start))
    out: dict[str, dict[str, float]] = {}
    for name, series in rates.items():
        median = statistics.median(series)
        out[name] = {"rate": median, "spread": (max(series) - min(series)) / median,
                     "turns": turns[name] / (games * reps)}
        # each of our loops' rate over this one's, repetition by repetition
        for mine in OURS:
            if mine in rates:
                out[name][f"paired {mine}"] = statistics.median(
                    [a / b for a, b in zip(rates[mine], series, strict=True)])
    return out


def clone_costs(players: int = 4, actions: int = 20, copies: int = 500) -> list[str]:
    """Lines on the cost of copying a game mid-round (placeholder until ``Game.clone``)."""
    rulebook = uno_rules.load_rulebook("classic")
    game = rulebook.new_game(players, 1, log=False)
    rng = random.Random(1)
    for _ in range(actions):
        if game.over:
            break
        options = game.decision.options  # type: ignore[union-attr]
        game.apply(options[rng.randrange(len(options))])

    def per_copy(make: Callable[[], object]) -> str:
        start = time.process_time()
        for _ in range(copies):
            make()
        return f"{(time.process_time() - start) / copies * 1e6:8.1f} us"

    lines = []
    clone = getattr(game, "clone", None)
    if callable(clone):
        lines.append(f"clone: game.clone()                            {per_copy(clone)}")
    try:
        copy.deepcopy(game)
    except Exception as exc:  # today: the rulebook holds mappingproxy objects
        lines.append(f"clone: not supported yet (copy.deepcopy(game): {type(exc).__name__}: "
                     f"{exc})")
    else:
        lines.append(f"clone: copy.deepcopy(game)                     "
                     f"{per_copy(lambda: copy.deepcopy(game))}")
    memo_copy = per_copy(lambda: copy.deepcopy(game, {id(rulebook): rulebook}))
    lines.append(f"       copy.deepcopy(game), rulebook shared      {memo_copy}")
    theirs = rlcard_game(players, 1)
    if theirs is not None:
        theirs.init_game()
        for _ in range(actions):
            if theirs.is_over():
                break
            legal = theirs.get_legal_actions()
            theirs.step(legal[rng.randrange(len(legal))])
        snap = per_copy(lambda: (copy.deepcopy(theirs.dealer), copy.deepcopy(theirs.round),
                                 copy.deepcopy(theirs.players)))
        lines.append(f"       RLCard step_back snapshot (3 deepcopies)  {snap}")
    return lines


def profile(games: int, players: int = 4, top: int = 25) -> None:
    """cProfile over our loop; the ``top`` functions by own time, with their share of it."""
    run = ours_runner(players)
    profiler = cProfile.Profile()
    profiler.runcall(run, games)
    stats = pstats.Stats(profiler).stats  # type: ignore[attr-defined]
    total = sum(row[2] for row in stats.values()) or 1.0
    rows = sorted(stats.items(), key=lambda item: item[1][2], reverse=True)[:top]
    print(f"\nprofile: uno-rules classic, {players} players, {games} rounds "
          f"(cProfile, top {top} by tottime; total {total:.2f} s)")
    print(f"{'tottime':>8} {'share':>6} {'cumtime':>8} {'ncalls':>9}  function")
    for (path, line, func), (_cc, ncalls, tottime, cumtime, _callers) in rows:
        where = func if path == "~" else f"{path.rsplit('/', 1)[-1]}:{line}({func})"
        print(f"{tottime:8.3f} {tottime / total:6.1%} {cumtime:8.3f} {ncalls:9d}  {where}")


# -------------------------------------------------------------------------------- main
def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=500, help="rounds per repetition")
    parser.add_argument("--reps", type=int, default=11, help="interleaved repetitions")
    parser.add_argument("--players", type=int, nargs="+", default=[2, 4])
    parser.add_argument("--profile", action="store_true",
                        help="also profile our loop at 4 players (top 25 by tottime)")
    args = parser.parse_args()

    have_rlcard = rlcard_game(2) is not None
    print(f"method: CPU time (process_time), whole rounds, {args.games} rounds x "
          f"{args.reps} interleaved reps, median games/s; play_first on decision options "
          f"vs RLCard uniform; rulebook loaded / UnoGame built and seeded once, untimed")
    header = (f"{'players':>7} {'engine':<24} {'games/s':>8} {'spread':>7} {'turns':>6} "
              f"{'ratio':>6} {'paired':>6}")
    print(header)
    print("-" * len(header))
    floors: list[str] = []
    for players in args.players:
        runners = {"uno-rules": ours_runner(players), "integer lane": lane_runner(players)}
        if have_rlcard:
            theirs = rlcard_game(players)
            runners["RLCard game loop"] = rlcard_loop_runner(theirs)
            runners["RLCard bare round"] = rlcard_bare_runner(theirs)
        runners["hard-coded floor"] = floor_runner(players)
        results = measure(runners, args.games, args.reps)
        # the same policy on the same ids: the same rounds, turn for turn
        assert results["integer lane"]["turns"] == results["uno-rules"]["turns"]
        for mine in OURS:
            for name, r in results.items():
                if name in OURS and name != mine:
                    continue
                ratio = paired = ""
                if name != mine:
                    ratio = f"{results[mine]['rate'] / r['rate']:.2f}"
                    paired = f"{r[f'paired {mine}']:.2f}"
                label = name if name != mine else f"{mine}" + \
                    (" (objects)" if mine == "uno-rules" else " (ids)")
                print(f"{players:>7} {label:<24} {r['rate']:8.1f} {r['spread']:7.1%} "
                      f"{r['turns']:6.1f} {ratio:>6} {paired:>6}")
        if have_rlcard:
            floor = results["hard-coded floor"]["rate"] / results["RLCard game loop"]["rate"]
            floors.append(f"{players} players: the hard-coded floor runs at {floor:.2f}x "
                          f"RLCard's game loop")
    if have_rlcard:
        print("ratio: uno-rules median / that engine's median (above 1: uno-rules faster), "
              "first for the object loop, then for the integer lane; "
              "paired: median of the per-rep ratios;\nspread: (max - min) / median over reps; "
              "turns: mean turns per round (RLCard: steps)")
        print("floor (bench/floor.py): classic hard-coded for speed, the same decisions and "
              "loop, no log or catches: an upper bound for any engine")
        for line in floors:
            print(line)
    else:
        print("RLCard not installed: only uno-rules measured "
              "(install it with: pip install -e '.[bench]')")
    print()
    for line in clone_costs():
        print(line)
    if args.profile:
        profile(args.games)


if __name__ == "__main__":
    main()
