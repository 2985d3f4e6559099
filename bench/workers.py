"""Games per second of ``simulate`` at 1 and more worker processes (issue 16 item 7), and
that every count of workers gives the same statistics. Each run includes starting its
processes (what a user waits for); the counts alternate, run after run, so that a busy
machine slows each alike. ``--workers 1,2,dask2`` adds a local Dask cluster of 2 worker
processes (``--scheduler local --workers 2``, the ``[dask]`` extra; its start and close
counted in its wall time). Results: bench/README.md.

    python bench/workers.py [--games 2000] [--players 4] [--rulebook classic]
                            [--workers 1,2] [--reps 3]
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import time
from contextlib import AbstractContextManager, nullcontext
from typing import Any

import uno_rules
from uno_rules.sim.simulate import simulate
from uno_rules.sim.workers import cores


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--rulebook", default="classic")
    parser.add_argument("--workers", default="1,2")
    parser.add_argument("--reps", type=int, default=3)
    args = parser.parse_args()
    rulebook = uno_rules.load_rulebook(args.rulebook)
    counts = args.workers.split(",")
    rates: dict[str, list[float]] = {w: [] for w in counts}
    walls: dict[str, list[float]] = {w: [] for w in counts}
    cpu: dict[str, list[float]] = {w: [] for w in counts}  # this process's and workers'

    def used() -> float:
        me, kids = (resource.getrusage(who) for who in (resource.RUSAGE_SELF,
                                                         resource.RUSAGE_CHILDREN))
        return me.ru_utime + me.ru_stime + kids.ru_utime + kids.ru_stime

    def cluster(w: str) -> AbstractContextManager[Any]:
        if not w.startswith("dask"):
            return nullcontext()
        from uno_rules.sim.distributed import open_client

        return open_client("local", int(w[4:]))

    results = {}
    for _ in range(args.reps):
        for w in counts:
            before, start = used(), time.perf_counter()
            with cluster(w) as client:
                stats = simulate(rulebook, args.games, args.players, seed=0,
                                 workers=1 if client else int(w), client=client)
            walls[w].append(time.perf_counter() - start)
            rates[w].append(stats.games / walls[w][-1])
            cpu[w].append(used() - before)  # the workers are joined: counted by now
            out = stats.to_json()
            del out["timing"]
            results[w] = out
    same = all(r == results[counts[0]] for r in results.values())
    print(f"{args.rulebook}, {args.players} players, {args.games} rounds, {args.reps} reps, "
          f"{cores()} cores usable, load average {os.getloadavg()[0]:.1f} at the end")
    base = statistics.median(rates[counts[0]])
    for w in counts:
        med = statistics.median(rates[w])
        print(f"  workers {w:>5}: {med:6.0f} games/s (median; runs "
              f"{', '.join(f'{r:.0f}' for r in rates[w])}), {med / base:.2f}x; wall "
              f"{statistics.median(walls[w]):.2f} s, CPU {statistics.median(cpu[w]):.2f} s "
              f"in all processes")
    print(f"  statistics identical at every count: {same}")


if __name__ == "__main__":
    main()
