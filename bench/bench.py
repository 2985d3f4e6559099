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

Both builds in one run: the pure-Python engine (this source tree) and the compiled one (mypyc:
a copy built into ``build/bench-compiled`` by ``bench/build_compiled.py``, rebuilt when the
sources change; about a minute), each in a worker process of its own; every repetition runs
every runner of every build in turn.

Run: ``python bench/bench.py [--games N] [--reps R] [--players 2 4] [--pure-only]
[--compiled DIR] [--profile]``.
"""

from __future__ import annotations

import argparse
import copy
import cProfile
import hashlib
import json
import os
import pstats
import random
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import uno_rules

ROOT = Path(__file__).resolve().parent.parent
# floor.py and build_compiled.py sit beside this file (not on the path with PYTHONSAFEPATH).
sys.path.insert(0, str(Path(__file__).resolve().parent))
# A runner plays ``games`` whole rounds and returns the total number of turns taken.
Runner = Callable[[int], int]


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
    policy on the same ids in the same order, so the same rounds as :func:`ours_runner`.
    The loop is play_first_runner's written out for ids, not shared through a callback: a
    call per action would be timed too."""
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


# ----------------------------------------------------------------------------- workers
# Each build runs in a worker process of its own (a process can import only one
# ``uno_rules``); the coordinator interleaves the repetitions of every runner of every worker,
# one at a time, and the worker measures its own CPU time.
FACTORIES: dict[str, Callable[[int], Runner]] = {
    "objects": ours_runner,
    "ids": lane_runner,
    "RLCard game loop": lambda players: rlcard_loop_runner(rlcard_game(players)),
    "RLCard bare round": lambda players: rlcard_bare_runner(rlcard_game(players)),
    "hard-coded floor": floor_runner,
}


def worker(players: int) -> None:
    """Answer the coordinator on stdin/stdout: ``info``; ``run NAME GAMES`` (CPU seconds and
    turns of that many rounds of runner NAME, made on first use); ``clone``; ``quit``."""
    runners: dict[str, Runner] = {}
    for line in sys.stdin:
        command, *args = line.rstrip("\n").split("\t")
        if command == "info":
            answer: Any = {"compiled": uno_rules.COMPILED, "file": uno_rules.__file__,
                           "rlcard": rlcard_game(2) is not None}
        elif command == "run":
            name, games = args[0], int(args[1])
            if name not in runners:
                runners[name] = FACTORIES[name](players)
            start = time.process_time()
            turns = runners[name](games)
            answer = [time.process_time() - start, turns]
        elif command == "clone":
            answer = clone_costs(players, rlcard=args[0] == "1")
        else:
            return
        print(json.dumps(answer), flush=True)


class Worker:
    """A worker process running one build (``pythonpath`` first on its path)."""

    def __init__(self, build: str, pythonpath: str, players: int):
        self.build = build
        env = {**os.environ, "PYTHONPATH": pythonpath, "UNO_RULES_CACHE": "off"}
        self.proc = subprocess.Popen([sys.executable, __file__, "--worker", str(players)],
                                     env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     text=True)

    def ask(self, *words: object) -> Any:
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.proc.stdin.write("\t".join(map(str, words)) + "\n")
        self.proc.stdin.flush()
        line = self.proc.stdout.readline()
        if not line:
            raise SystemExit(f"the {self.build} worker stopped (see its error above)")
        return json.loads(line)

    def ask_quit(self) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write("quit\n")
        self.proc.stdin.close()
        self.proc.wait()


def measure(runners: list[tuple[Worker, str]], games: int,
            reps: int) -> dict[tuple[str, str], dict[str, Any]]:
    """Interleave ``reps`` repetitions of ``games`` rounds of each (worker, runner) after an
    untimed warm-up; per runner its games/s of each repetition and turns per round."""
    for w, name in runners:
        w.ask("run", name, max(1, games // 10))
    out: dict[tuple[str, str], dict[str, Any]] = {
        (w.build, name): {"rates": [], "turns": 0} for w, name in runners}
    for _ in range(reps):
        for w, name in runners:
            cpu, turns = w.ask("run", name, games)
            row = out[w.build, name]
            row["rates"].append(games / cpu)
            row["turns"] += turns
    for row in out.values():
        row["rate"] = statistics.median(row["rates"])
        row["spread"] = (max(row["rates"]) - min(row["rates"])) / row["rate"]
        row["turns"] /= games * reps
    return out


def paired(mine: list[float], theirs: list[float]) -> float:
    """The median of the per-repetition ratios of two runners' rates."""
    return statistics.median([a / b for a, b in zip(mine, theirs, strict=True)])


def compiled_copy(where: Path) -> Path:
    """A compiled copy of the engine under ``where``, built (about a minute) unless the one
    there was built from the same sources (a digest of them kept beside it)."""
    sources = sorted([*(ROOT / "uno_rules").rglob("*.py"), ROOT / "setup.py",
                      *(ROOT / "_build").glob("*.py")])
    digest = hashlib.sha256(b"".join(p.read_bytes() for p in sources)).hexdigest()
    stamp = where / "sources.sha256"
    if not (stamp.is_file() and stamp.read_text() == digest):
        print(f"building the compiled engine into {where} (once per source change)...",
              flush=True)
        from build_compiled import main as build

        if build([str(where)]) != 0:
            raise SystemExit("the compiled build failed")
        stamp.write_text(digest)
    return where


def clone_costs(players: int = 4, actions: int = 20, copies: int = 500, *,
                rlcard: bool = True) -> list[str]:
    """Lines on the cost of copying a game mid-round (and RLCard's step_back snapshot)."""
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
    theirs = rlcard_game(players, 1) if rlcard else None
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
OURS = [("pure", "objects"), ("pure", "ids"), ("compiled", "objects"), ("compiled", "ids")]
THEIRS = [("RLCard", "RLCard game loop"), ("RLCard", "RLCard bare round"),
          ("floor", "hard-coded floor")]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=500, help="rounds per repetition")
    parser.add_argument("--reps", type=int, default=11, help="interleaved repetitions")
    parser.add_argument("--players", type=int, nargs="+", default=[2, 4])
    parser.add_argument("--pure-only", action="store_true",
                        help="leave the compiled build out (no compiler needed)")
    parser.add_argument("--compiled", type=Path, default=ROOT / "build" / "bench-compiled",
                        help="where the compiled copy is kept (built when missing or stale)")
    parser.add_argument("--profile", action="store_true",
                        help="also profile the pure object loop at 4 players (top 25)")
    parser.add_argument("--worker", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker is not None:
        worker(args.worker)
        return

    paths = {"pure": str(ROOT)}
    if not args.pure_only:
        paths["compiled"] = str(compiled_copy(args.compiled.resolve()))
    print(f"method: CPU time (process_time) measured in one worker process per build, whole "
          f"rounds, {args.games} rounds x {args.reps} interleaved reps (every runner of every "
          f"build in turn), median games/s; play_first on the decision's options (objects) or "
          f"ids (integer lane) vs RLCard uniform; rulebook loaded / UnoGame built and seeded "
          f"once, untimed")
    header = (f"{'players':>7} {'build':<9} {'loop':<18} {'games/s':>8} {'spread':>7} "
              f"{'turns':>6} {'x game loop':>11} {'x bare round':>12}")
    for players in args.players:
        workers = {build: Worker(build, path, players) for build, path in paths.items()}
        infos = {build: w.ask("info") for build, w in workers.items()}
        for build, info in infos.items():
            if info["compiled"] != (build == "compiled"):
                raise SystemExit(f"the {build} worker imported {info['file']} "
                                 f"(COMPILED={info['compiled']})")
        if players == args.players[0]:
            for build, info in infos.items():
                print(f"{build}: {info['file']}")
            print(header)
            print("-" * len(header))
        have_rlcard = infos["pure"]["rlcard"]
        runners = [(workers[b], name) for b, name in OURS if b in workers]
        theirs = [(b, name) for b, name in THEIRS if have_rlcard or b != "RLCard"]
        runners += [(workers["pure"], name) for _, name in theirs]
        results = measure(runners, args.games, args.reps)
        ours = [(b, name) for b, name in OURS if b in workers]
        # the same policy on the same ids: the same rounds, turn for turn, in every build
        assert len({results[key]["turns"] for key in ours}) == 1, results
        loop = results.get(("pure", "RLCard game loop"))
        bare = results.get(("pure", "RLCard bare round"))
        for build, name in ours + [("pure", name) for _, name in theirs]:
            r = results[build, name]
            label = build if (build, name) in ours else name.split()[0]
            what = {"objects": "object loop", "ids": "integer lane"}.get(
                name, " ".join(name.split()[1:]) if label != "hard-coded" else "floor")
            x_loop = f"{paired(r['rates'], loop['rates']):.2f}" if loop else ""
            x_bare = f"{paired(r['rates'], bare['rates']):.2f}" if bare else ""
            print(f"{players:>7} {label:<9} {what:<18} {r['rate']:8.1f} {r['spread']:7.1%} "
                  f"{r['turns']:6.1f} {x_loop:>11} {x_bare:>12}")
        for build, w in workers.items():
            if players == args.players[-1]:
                for line in w.ask("clone", int(build == "pure" and have_rlcard)):
                    print(f"{build:<9} {line}")
            w.ask_quit()
    print("x game loop / x bare round: the median over repetitions of this runner's games/s "
          "over RLCard's in the same repetition (above 1: faster than RLCard); spread: "
          "(max - min) / median; turns: mean per round (RLCard: steps); floor "
          "(bench/floor.py): classic hard-coded for speed, an upper bound for any engine")
    if args.profile:
        profile(args.games)


if __name__ == "__main__":
    main()
