"""Soak run: N simulated games of every shipped rulebook (and overlays given) at every legal
player count; prints one line per run and exits 1 if any game errs or stalls.

Run: ``python bench/soak.py --games 1000 [--policy play_first] [--house partners]``.
"""

from __future__ import annotations

import argparse
import sys

import uno_rules
from uno_rules.load.loader import shipped_names
from uno_rules.sim.rounds import POLICIES
from uno_rules.sim.simulate import simulate


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--policy", choices=sorted(POLICIES), default="play_first")
    parser.add_argument("--rulebook", action="append", help="default: every shipped one")
    parser.add_argument("--house", action="append", default=[])
    args = parser.parse_args()
    bad = 0
    for name in args.rulebook or shipped_names():
        rb = uno_rules.load_rulebook(name, house=args.house)
        for players in rb.player_counts():
            try:
                stats = simulate(rb, args.games, players, seed=players, policy=args.policy)
            except Exception as exc:  # noqa: BLE001 - report and count every failure
                print(f"ERROR {name} {players}p: {type(exc).__name__}: {exc}", flush=True)
                bad += 1
                continue
            s = stats.to_json()
            bad += s["stalled"] > 0
            print(f"{'ok   ' if not s['stalled'] else 'STALL'} {name}{'+' if args.house else ''}"
                  f"{'+'.join(args.house)} {players}p: {args.games} games, stalled "
                  f"{s['stalled']}, turns p50 {s['turns']['p50']} max {s['turns']['max']}, "
                  f"{s['timing']['games_per_second']} games/s", flush=True)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
