"""State's records under load through the CLI (issue 15 item 1, state): whole rounds that
keep effect frames, cards being given, stacked draws, two discard piles and Flip's sides
busy, each within the time and memory limits. (Hostile snapshots are API input, not CLI:
tests/test_snapshot.py refuses them.)"""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent.parent


def cases(tmp: Path) -> list[tuple[str, list[str], int]]:
    return [
        ("teams rounds: giving records, after-draw frames",
         ["simulate", "teams", "--games", "20", "--players", "4", "--seed", "1"], 0),
        ("No Mercy rounds: stacked draws, knocked-out piles",
         ["simulate", "no_mercy", "--games", "20", "--players", "4", "--seed", "1"], 0),
        ("two discard piles: the pile in focus and its colour",
         ["simulate", str(ROOT / "examples" / "two_piles.yaml"), "--games", "20",
          "--players", "3", "--seed", "1"], 0),
        ("Flip rounds: both sides, turned over mid-effect",
         ["simulate", "flip", "--games", "20", "--players", "3", "--seed", "1"], 0),
    ]
