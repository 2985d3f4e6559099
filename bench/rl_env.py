"""Environment steps per second: our PettingZoo env (uno_rules.rl.pettingzoo) beside RLCard's
``rlcard.make('uno')`` environment, random policy, in one run (see bench/README.md).

The comparison is kept fair, as bench.py's:

* same policy: uniformly random over the legal actions each env gives (ours: the ids the
  ``action_mask`` marks, ``numpy.flatnonzero``; RLCard: ``state['legal_actions']``'s keys),
  one ``random.Random`` per runner;
* same unit: an env step that takes an action, including the observation and the mask of
  the next agent (RLCard's ``env.step`` builds the next player's state: its encoded planes
  and legal actions; ours ``env.last()`` builds ``{"observation", "action_mask"}``); a
  round's reset and (ours) the agents' closing ``step(None)`` are timed too, counted as no
  step; our ``pass`` steps (out-of-turn windows let go) count as steps: their share is
  printed;
* same set-up cost: both envs are made once (rulebook loaded, RLCard env seeded), untimed;
* CPU time (``time.process_time``), repetitions interleaved between the runners, medians,
  and the paired ratio (per repetition, ours over RLCard's, then the median).

RLCard's ``make('uno')`` plays 2 players only: the ratio is at 2 players (ours at 4 is
printed beside). RLCard is optional: ``pip install -e '.[bench,rl]'``.

Run: ``python bench/rl_env.py [--steps N] [--reps R] [--rulebook classic] [--house H ...]
[--profile]``.
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import random
import statistics
import sys
import time
from collections.abc import Callable

import numpy

from uno_rules.rl.pettingzoo import env as make_env

# A runner takes at least ``steps`` env steps (whole rounds) and returns how many it took.
Runner = Callable[[int], int]


def ours_runner(rulebook: str = "classic", players: int = 2, house: tuple[str, ...] = (),
                seed: int = 0) -> Runner:
    """Rounds through our AEC env, the PettingZoo loop (``agent_iter`` / ``last`` /
    ``step``), a uniformly random action of the mask."""
    env = make_env(rulebook, players, house=house)
    rng = random.Random(seed)
    env.reset(seed=seed)
    flatnonzero = numpy.flatnonzero

    def run(steps: int) -> int:
        taken = 0
        while taken < steps:
            env.reset()
            for _agent in env.agent_iter():
                obs, _reward, term, trunc, _info = env.last()
                if term or trunc:
                    env.step(None)
                    continue
                legal = flatnonzero(obs["action_mask"])
                env.step(int(legal[rng.randrange(len(legal))]))
                taken += 1
        return taken
    return run


def pass_share(rulebook: str, players: int, house: tuple[str, ...], steps: int) -> float:
    """The share of our env steps that are a ``pass`` (a seat letting an out-of-turn window
    go: cheap, the game unchanged), over the same loop, untimed: RLCard has no such step."""
    env = make_env(rulebook, players, house=house)
    rng = random.Random(1)
    taken = passes = 0
    while taken < steps:
        env.reset(seed=taken)
        for _agent in env.agent_iter():
            obs, _reward, term, trunc, _info = env.last()
            if term or trunc:
                env.step(None)
                continue
            legal = numpy.flatnonzero(obs["action_mask"])
            action = int(legal[rng.randrange(len(legal))])
            passes += env.table[action].kind == "pass"
            env.step(action)
            taken += 1
    return passes / taken


def rlcard_runner(seed: int = 0) -> Runner | None:
    """Rounds through ``rlcard.make('uno')``: ``reset`` then ``step`` until ``is_over``, a
    uniformly random legal action. None without RLCard."""
    try:
        import rlcard
    except ImportError:
        return None
    env = rlcard.make("uno", config={"seed": seed})
    rng = random.Random(seed)

    def run(steps: int) -> int:
        taken = 0
        while taken < steps:
            state, _player = env.reset()
            while not env.is_over():
                legal = list(state["legal_actions"])
                state, _player = env.step(legal[rng.randrange(len(legal))])
                taken += 1
        return taken
    return run


def measure(runners: dict[str, Runner], steps: int, reps: int) -> dict[str, list[float]]:
    """Interleaved repetitions after an untimed warm-up: each runner's steps/s per rep."""
    for run in runners.values():
        run(max(1, steps // 10))
    rates: dict[str, list[float]] = {name: [] for name in runners}
    for _ in range(reps):
        for name, run in runners.items():
            start = time.process_time()
            taken = run(steps)
            rates[name].append(taken / (time.process_time() - start))
    return rates


def profile(steps: int, rulebook: str, players: int, house: tuple[str, ...],
            top: int = 25) -> None:
    """cProfile of our loop, the top functions by own time."""
    run = ours_runner(rulebook, players, house)
    profiler = cProfile.Profile()
    profiler.runcall(run, steps)
    pstats.Stats(profiler, stream=sys.stdout).sort_stats("tottime").print_stats(top)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=20_000, help="env steps a repetition")
    parser.add_argument("--reps", type=int, default=9)
    parser.add_argument("--rulebook", default="classic")
    parser.add_argument("--house", nargs="*", default=[])
    parser.add_argument("--profile", action="store_true")
    args = parser.parse_args()
    house = tuple(args.house)
    runners: dict[str, Runner] = {
        "uno-rules PettingZoo 2p": ours_runner(args.rulebook, 2, house),
        "uno-rules PettingZoo 4p": ours_runner(args.rulebook, 4, house)}
    theirs = rlcard_runner()
    if theirs is not None:
        runners["RLCard make('uno') 2p"] = theirs
    rates = measure(runners, args.steps, args.reps)
    print(f"{args.rulebook}{''.join(' +' + h for h in house)}: {args.reps} reps of "
          f">= {args.steps} env steps, CPU time")
    print(f"{'runner':<26} {'steps/s':>9} {'spread':>7} {'x RLCard (paired)':>18}")
    base = rates.get("RLCard make('uno') 2p")
    for name, row in rates.items():
        median = statistics.median(row)
        spread = (max(row) - min(row)) / median
        ratio = "" if base is None else \
            f"{statistics.median(a / b for a, b in zip(row, base, strict=True)):.2f}"
        print(f"{name:<26} {median:>9.0f} {spread:>6.0%} {ratio:>18}")
    for players in (2, 4):
        share = pass_share(args.rulebook, players, house, args.steps)
        print(f"our steps that are a pass at {players} players: {share:.1%}")
    if args.profile:
        profile(args.steps, args.rulebook, 2, house)


if __name__ == "__main__":
    main()
