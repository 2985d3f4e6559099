"""Start-up: the whole process of ``uno-rules simulate classic --games 1``, timed from outside
(CPU = user + system of the child, and wall time), with the compiled-rulebook cache off and
warm. Each run is a fresh interpreter; the two kinds take turns (off, warm, off, ...), and
the medians are printed.

Run: ``python bench/startup.py [--runs 11] [-- ARGS...]`` (ARGS: another command's
arguments, say ``simulate no_mercy --games 1``).
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time

DEFAULT = ["simulate", "classic", "--games", "1"]


def run(args: list[str], cache: str) -> tuple[float, float]:
    """CPU and wall seconds of ``uno-rules ARGS`` in a fresh process."""
    env = {**os.environ, "UNO_RULES_CACHE": cache}
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run([sys.executable, "-m", "uno_rules", *args], env=env, check=True,
                   stdout=subprocess.DEVNULL, stdin=subprocess.DEVNULL)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime), wall


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=11)
    parser.add_argument("args", nargs="*", default=DEFAULT)
    given = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        run(given.args, folder)  # fills the cache (and the OS's file cache), not counted
        times: dict[str, list[tuple[float, float]]] = {"off": [], "warm": []}
        for _ in range(given.runs):
            times["off"].append(run(given.args, "off"))
            times["warm"].append(run(given.args, folder))
    print(f"uno-rules {' '.join(given.args)}: {given.runs} runs each, medians (min-max)")
    for kind, got in times.items():
        cpu, wall = ([t[i] for t in got] for i in (0, 1))
        print(f"  cache {kind:<5} cpu {statistics.median(cpu):.3f} s ({min(cpu):.3f}-"
              f"{max(cpu):.3f})  wall {statistics.median(wall):.3f} s ({min(wall):.3f}-"
              f"{max(wall):.3f})")


if __name__ == "__main__":
    main()
