"""Python bytecodes executed per turn of bench.py's pure loops: a deterministic cost measure,
unmoved by a busy machine (the timing figures are not).

    PYTHONPATH=TREE python TREE/bench/bytecodes.py [--players 2] [--games 40] [--objects]
        [--top 25]

run from outside the tree (e.g. /tmp) with ``PYTHONPATH`` naming the source tree to measure,
so two trees compare like with like. The integer lane (``legal_ids`` / ``step``, bench.py's
``lane_runner``) by default, the object loop with ``--objects``; the same seeded rounds every
time. Counts ``sys.settrace`` opcode events (the pure engine only: a compiled one runs no
bytecodes) after a warm-up that fills the rulebook's memoised tables; prints the total per
turn and the functions that run the most."""

from __future__ import annotations

import argparse
import collections
import sys
from pathlib import Path
from types import FrameType
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
import bench  # noqa: E402  (beside this file)
import uno_rules  # noqa: E402


def count(players: int, games: int, objects: bool = False,
          warm: int = 60) -> tuple[int, collections.Counter[str]]:
    """The turns of ``games`` rounds and the bytecodes each function ran, after ``warm``
    rounds that fill the rulebook's memoised tables (the match tables fill as colour and
    rank pairs come up)."""
    run = (bench.ours_runner if objects else bench.lane_runner)(players)
    ops: collections.Counter[str] = collections.Counter()

    def tracer(frame: FrameType, event: str, _arg: Any) -> Any:
        if event == "call":
            frame.f_trace_opcodes = True
        elif event == "opcode":
            code = frame.f_code
            ops[f"{code.co_filename.split('/uno_rules/')[-1]}:{code.co_name}"] += 1
        return tracer

    run(warm)
    previous = sys.gettrace()
    sys.settrace(tracer)
    try:
        turns = run(games)
    finally:
        sys.settrace(previous)
    return turns, ops


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--objects", action="store_true", help="the object loop")
    parser.add_argument("--top", type=int, default=25)
    args = parser.parse_args()
    turns, ops = count(args.players, args.games, args.objects)
    print(f"{uno_rules.__file__}: {turns} turns, "
          f"{sum(ops.values()) / turns:.1f} bytecodes per turn")
    for name, n in ops.most_common(args.top):
        print(f"  {n / turns:7.1f}  {name}")


if __name__ == "__main__":
    main()
