"""Environment steps per second: our PettingZoo env (uno_rules.rl.pettingzoo) beside RLCard's
``rlcard.make('uno')`` environment, random policy, in one run (see bench/README.md).

The comparison is kept fair, as bench.py's:

* same policy: uniformly random over the legal actions each env gives (ours: the ids the
  ``action_mask`` marks, ``mask.nonzero()[0]``; RLCard: ``state['legal_actions']``'s keys),
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
[--profile] [--adapters]``.

``--adapters`` measures issue 31's goals instead, at 2 players on two lanes: classic with
``draw_with_playable: false`` (as RLCard's UNO: a seat with a playable card may not draw, so
random rounds are of comparable length, ~1,000 steps otherwise), and
``bench/rlcard_uno.yaml`` (RLCard's rules wherever our settings can say them:
bench/README.md lists what still differs), that one also with ``auto_forced`` (rows ``...
rlcard_uno auto``: forced decisions taken unasked, their steps counted). Whole episodes (a
random learner; the other seats random too: RLCard's random policy, our Gymnasium env's
``uniform`` agent) for PettingZoo, Gymnasium and RLCard, interleaved: episodes per second of
CPU time, env steps per episode (every seat's actions, ours with their passes), µs per step,
and paired ratios against RLCard's per episode and per step; then our steps per episode by
what they do (untimed) and how many of them RLCard's accounting would count; and the CPU
time of one OpenSpiel step (``legal_actions`` and ``apply_action`` of a uniformly random
one, chance nodes drawn from ``chance_outcomes``) beside the engine's own step
(``legal_ids`` and ``step``), both per seat's action: the time of chance nodes (OpenSpiel's
dealt and drawn cards, contests) is counted, the nodes are not; and the floor, the same loop
over a trivial OpenSpiel Python game (pyspiel's own cost per step, without and with chance
nodes).
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
from pathlib import Path
from typing import Any

from uno_rules.rl.pettingzoo import env as make_env

# The adapters' lanes: RLCard's UNO lets a seat draw only without a playable card.
LIKE_RLCARD = {"draw_with_playable": False}
# Chance nodes per player step in the OpenSpiel lane (classic 2p, random play: ~0.6 with the
# deal's), the floor's share of them
CHANCE_SHARE = 0.5
# A runner takes at least ``steps`` env steps (whole rounds) and returns how many it took.
Runner = Callable[[int], int]


def ours_runner(rulebook: str = "classic", players: int = 2, house: tuple[str, ...] = (),
                seed: int = 0) -> Runner:
    """Rounds through our AEC env, the PettingZoo loop (``agent_iter`` / ``last`` /
    ``step``), a uniformly random action of the mask."""
    env = make_env(rulebook, players, house=house)
    rng = random.Random(seed)
    env.reset(seed=seed)

    def run(steps: int) -> int:
        taken = 0
        while taken < steps:
            taken += aec_round(env, rng)
        return taken
    return run


def aec_round(env: Any, rng: random.Random, seed: int | None = None,
              seen: Callable[[int], None] | None = None) -> int:
    """A round through our AEC env's loop (``reset``, then ``agent_iter`` / ``last`` /
    ``step``), a uniformly random action of the mask: the steps it took. ``seen`` (the
    untimed breakdowns) is handed each action just before it is taken."""
    taken = 0
    env.reset(seed=seed)
    for _agent in env.agent_iter():
        obs, _reward, term, trunc, _info = env.last()
        if term or trunc:
            env.step(None)
            continue
        # the mask's ids as RLCard hands out its legal actions: .nonzero() is the ndarray's
        # own (numpy.flatnonzero, the same ids, adds ~1 µs of dispatch a step: ~15 % of ours)
        legal = obs["action_mask"].nonzero()[0]
        action = int(legal[rng.randrange(len(legal))])
        if seen is not None:
            seen(action)
        env.step(action)
        taken += 1
    return taken


def pass_share(rulebook: str, players: int, house: tuple[str, ...], steps: int) -> float:
    """The share of our env steps that are a ``pass`` (a seat letting an out-of-turn window
    go: cheap, the game unchanged), over the same loop, untimed: RLCard has no such step."""
    env = make_env(rulebook, players, house=house)
    rng = random.Random(1)
    taken, passes = 0, [0]

    def count(action: int) -> None:
        passes[0] += env.table[action].kind == "pass"
    while taken < steps:
        taken += aec_round(env, rng, taken, count)
    return passes[0] / taken


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


def episodes(adapter: str, seed: int = 0, rulebook: str = "classic",
             settings: dict[str, Any] | None = None, auto_forced: bool = False
             ) -> Runner | None:
    """Whole episodes at 2 players through ``adapter`` (``pettingzoo``, ``gymnasium`` or
    ``rlcard``; ours of ``rulebook`` with ``settings``, LIKE_RLCARD by default, and
    ``auto_forced``), a uniformly random policy for every seat; ``run(n)`` plays ``n`` and
    returns the env steps they took (every seat's actions, ours with their passes: a
    Gymnasium opponent's too; with ``auto_forced`` the forced ones taken unasked too, so
    that a step is the same work with the option on or off). None when the adapter's
    package is missing."""
    rng = random.Random(seed)
    settings = LIKE_RLCARD if settings is None else settings
    if adapter == "rlcard":
        rlcard_round = rlcard_runner(seed)  # a run of >= 1 step: one round
        if rlcard_round is None:
            return None

        def one() -> int:
            return rlcard_round(1)
    elif adapter == "pettingzoo":
        aec = make_env(rulebook, 2, settings=settings, auto_forced=auto_forced)
        aec.reset(seed=seed)

        def one() -> int:
            shown = aec_round(aec, rng)
            return int(aec._steps) if auto_forced else shown
    else:
        try:
            from uno_rules.rl.gymnasium import UnoEnv
        except ImportError:
            return None
        gym = UnoEnv(rulebook, 2, opponents="uniform", settings=settings,
                     auto_forced=auto_forced)
        gym.reset(seed=seed)

        def one() -> int:
            _obs, info = gym.reset()
            done = False
            while not done:
                legal = info["action_mask"].nonzero()[0]  # as aec_round reads it
                _obs, _reward, term, trunc, info = gym.step(
                    int(legal[rng.randrange(len(legal))]))
                done = term or trunc
            return int(gym.aec._steps)  # the learner's and the opponents' (the AEC's count)

    def run(n: int) -> int:
        return sum(one() for _ in range(n))
    return run


def step_costs(steps: int, reps: int) -> tuple[float, float] | None:
    """Median CPU µs of one OpenSpiel step and of one engine step (see the module doc),
    interleaved; None without OpenSpiel."""
    try:
        import pyspiel

        import uno_rules.rl.openspiel  # noqa: F401  (registers the game)
    except ImportError:
        return None
    spiel = pyspiel.load_game("uno_rules", {"rulebook": "classic", "players": 2,
                                            "settings": "draw_with_playable:false"})
    rulebook = make_env("classic", 2, settings=LIKE_RLCARD).rulebook
    rng = random.Random(0)

    def openspiel(n: int) -> float:  # a dealt or drawn card, a contest: no step
        return spiel_steps(spiel.new_initial_state, n, rng)

    def engine(n: int) -> float:
        taken, start = 0, time.process_time()
        while taken < n:
            game = rulebook.new_game(2, rng.getrandbits(63), log=False)
            while not game.over:
                seat = game.pending.seat  # type: ignore[union-attr]
                legal = game.legal_ids(seat)  # a contest (no seat): its outcomes, no step
                game.step(legal[rng.randrange(len(legal))])
                taken += seat is not None
        return (time.process_time() - start) / taken * 1e6

    openspiel(steps // 10)
    engine(steps // 10)
    spiel_us, engine_us = [], []
    for _ in range(reps):
        spiel_us.append(openspiel(steps))
        engine_us.append(engine(steps))
    return statistics.median(spiel_us), statistics.median(engine_us)


def spiel_floor(steps: int, reps: int, chance: float) -> float | None:
    """Median CPU µs of one step of a trivial OpenSpiel Python game (its state a counter,
    two players, three actions, a chance node of 50 fixed outcomes after a share ``chance``
    of the steps) through :func:`step_costs`' loop: what pyspiel's Python game API costs
    before a game does any work. None without OpenSpiel."""
    try:
        import pyspiel
    except ImportError:
        return None
    name = f"uno_rules_bench_floor_{round(chance * 100)}"
    outcomes = [(a, 1 / 50) for a in range(50)]
    every = max(1, round(1 / chance)) if chance else 0

    class State(pyspiel.State):  # type: ignore[misc]
        def __init__(self, game: Any) -> None:
            super().__init__(game)
            self.n, self.chance = 0, False

        def current_player(self) -> int:
            if self.n >= 60:
                return int(pyspiel.PlayerId.TERMINAL)
            return int(pyspiel.PlayerId.CHANCE) if self.chance else self.n % 2

        def _legal_actions(self, player: int) -> list[int]:
            return [0, 1, 2]

        def chance_outcomes(self) -> list[tuple[int, float]]:
            return outcomes

        def _apply_action(self, action: int) -> None:
            if self.chance:
                self.chance = False
            else:
                self.n += 1
                self.chance = bool(every) and self.n % every == 0

        def is_terminal(self) -> bool:
            return self.n >= 60

        def returns(self) -> list[float]:
            return [0.0, 0.0]

    kind = pyspiel.GameType(
        short_name=name, long_name=name, dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL, max_num_players=2,
        min_num_players=2, provides_information_state_string=False,
        provides_information_state_tensor=False, provides_observation_string=False,
        provides_observation_tensor=False, parameter_specification={})

    class Game(pyspiel.Game):  # type: ignore[misc]
        def __init__(self, params: Any = None) -> None:
            super().__init__(kind, pyspiel.GameInfo(
                num_distinct_actions=3, max_chance_outcomes=50, num_players=2,
                min_utility=-1.0, max_utility=1.0, utility_sum=0.0, max_game_length=200),
                params or {})

        def new_initial_state(self) -> State:
            return State(self)

    pyspiel.register_game(kind, Game)
    game = pyspiel.load_game(name)
    rng = random.Random(0)

    def run(n: int) -> float:
        return spiel_steps(game.new_initial_state, n, rng)

    run(steps // 10)
    return statistics.median(run(steps) for _ in range(reps))


def spiel_steps(new: Callable[[], Any], n: int, rng: random.Random) -> float:
    """CPU µs per player step of random rounds from ``new()`` (chance nodes drawn from
    ``chance_outcomes``, their time counted, the nodes not)."""
    taken, start = 0, time.process_time()
    while taken < n:
        state = new()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes, probs = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(rng.choices(outcomes, probs)[0])
            else:
                legal = state.legal_actions()
                state.apply_action(legal[rng.randrange(len(legal))])
                taken += 1
    return (time.process_time() - start) / taken * 1e6


# The adapters' rulebooks: classic with RLCard's draw rule, and the bench's rulebook nearest
# RLCard's UNO in every rule our settings can say (bench/README.md lists what differs).
RLCARD_UNO = str(Path(__file__).resolve().parent / "rlcard_uno.yaml")
LANES = {"classic": ("classic", LIKE_RLCARD), "rlcard_uno": (RLCARD_UNO, {})}


def adapters(rounds: int, reps: int) -> None:
    """Issue 31's speed lanes (see the module doc), printed."""
    runners = {f"{name} {lane}": run for lane, (book, settings) in LANES.items()
               for name in ("pettingzoo", "gymnasium")
               if (run := episodes(name, rulebook=book, settings=settings)) is not None}
    for name in ("pettingzoo", "gymnasium"):  # forced decisions taken unasked (auto_forced)
        if (run := episodes(name, rulebook=RLCARD_UNO, settings={}, auto_forced=True)) \
                is not None:
            runners[f"{name} rlcard_uno auto"] = run
    if (theirs := episodes("rlcard")) is not None:
        runners["rlcard"] = theirs
    times, steps = measure_episodes(runners, rounds, reps)
    print(f"2 players, random policies, {reps} reps of {rounds} episodes, CPU time; lanes: "
          "classic with draw_with_playable false, and bench/rlcard_uno.yaml")
    print(f"{'adapter':<27} {'episodes/s':>10} {'spread':>7} {'steps/ep':>9} {'µs/step':>8} "
          f"{'x RLCard/ep':>12} {'x RLCard/step':>14}")
    base, base_steps = times.get("rlcard"), steps.get("rlcard")
    for name, row in times.items():
        rates = [rounds / t for t in row]
        median = statistics.median(rates)
        per_step = statistics.median(t / s * 1e6 for t, s in zip(row, steps[name], strict=True))
        per_ep = step = ""
        if base is not None and base_steps is not None:  # paired: RLCard's time over ours
            pairs = list(zip(row, steps[name], base, base_steps, strict=True))
            per_ep = f"{statistics.median(b / t for t, _s, b, _bs in pairs):.2f}"
            step = f"{statistics.median(b / bs * s / t for t, s, b, bs in pairs):.2f}"
        print(f"{name:<27} {median:>10.1f} {(max(rates) - min(rates)) / median:>6.0%} "
              f"{sum(steps[name]) / (rounds * len(row)):>9.1f} {per_step:>8.2f} "
              f"{per_ep:>12} {step:>14}")
    for lane, (book, settings) in LANES.items():
        kinds = step_kinds(book, settings, rounds * 5)
        print(f"our steps per episode, {lane}: " + ", ".join(
            f"{kind} {n:.1f}" for kind, n in kinds.items() if kind != "rlcard") +
            f"; as RLCard counts them (play, draw) {kinds['rlcard']:.1f}")
    costs = step_costs(rounds * 200, reps)
    if costs is not None:
        print(f"OpenSpiel step {costs[0]:.1f} µs, engine step {costs[1]:.1f} µs: "
              f"{costs[0] / costs[1]:.2f}x")
    for chance in (0.0, CHANCE_SHARE):
        floor = spiel_floor(rounds * 200, reps, chance)
        if floor is not None:
            print(f"floor (a trivial OpenSpiel Python game, a chance node after "
                  f"{chance:.0%} of steps): {floor:.1f} µs a step")


def step_kinds(rulebook: str, settings: dict[str, Any], rounds: int) -> dict[str, float]:
    """Our env steps per episode by what they do (untimed, the PettingZoo loop): ``play``
    from the hand, ``drawn`` (a drawn card's forced play or keep: RLCard's draw does either
    in its one step), ``color`` (RLCard's wild names it in its play), ``uno`` (catches and
    passes: RLCard has no UNO), ``other``; ``rlcard`` is what RLCard would count of them."""
    env = make_env(rulebook, 2, settings=settings)
    rng, counts = random.Random(1), dict.fromkeys(("play", "draw", "drawn", "color", "uno",
                                                   "other"), 0)

    def count(action: int) -> None:
        kind, pending = env.table[action].kind, env.game.pending
        if pending is not None and pending.kind == "drawn":
            kind = "drawn"
        elif kind in ("catch", "pass"):
            kind = "uno"
        counts[kind if kind in counts else "other"] += 1
    for seed in range(rounds):
        aec_round(env, rng, seed, count)
    out = {kind: n / rounds for kind, n in counts.items()}
    out["rlcard"] = out["play"] + out["draw"]
    return out


def measure_episodes(runners: dict[str, Runner], episodes_: int, reps: int
                     ) -> tuple[dict[str, list[float]], dict[str, list[int]]]:
    """Interleaved repetitions of ``episodes_`` episodes after an untimed warm-up: each
    runner's CPU seconds and env steps per rep."""
    for run in runners.values():
        run(max(1, episodes_ // 10))
    times: dict[str, list[float]] = {name: [] for name in runners}
    steps: dict[str, list[int]] = {name: [] for name in runners}
    for _ in range(reps):
        for name, run in runners.items():
            start = time.process_time()
            steps[name].append(run(episodes_))
            times[name].append(time.process_time() - start)
    return times, steps


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
    parser.add_argument("--adapters", action="store_true",
                        help="issue 31's lanes: episodes/s per adapter, OpenSpiel's step")
    args = parser.parse_args()
    if args.adapters:
        adapters(max(1, args.steps // 200), args.reps)
        return
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
