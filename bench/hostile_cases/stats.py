"""simulate's statistics and --csv (issue 16, item 3): output that can't be written, a
full disk mid-run, and statistics of points beyond a float. tests/test_cli.py asserts the
messages."""

from __future__ import annotations

from pathlib import Path

HUGE = Path(__file__).resolve().parent.parent.parent / "tests" / "hostile" / "exits" / \
    "points_huge.yaml"


def cases(tmp: Path) -> list[tuple[str, list[str], int]]:
    out = [
        ("--csv into a missing folder",
         ["simulate", "classic", "--games", "5", "--csv", str(tmp / "no" / "x.csv")], 1),
        ("--csv a folder", ["simulate", "classic", "--games", "5", "--csv", str(tmp)], 1),
        ("--csv a 300-char name",
         ["simulate", "classic", "--games", "5", "--csv", str(tmp / ("a" * 300))], 1),
        ("--csv with points of 10**400",
         ["simulate", str(HUGE), "--games", "50", "--json", "--csv", str(tmp / "h.csv")], 0),
        ("statistics of stalled rounds only",
         ["simulate", "classic", "--games", "200", "--max-actions", "1"], 0),
    ]
    if Path("/dev/full").exists():  # Linux: every write fails, disk full
        out.append(("--csv on a full disk",
                    ["simulate", "classic", "--games", "2000", "--csv", "/dev/full"], 1))
    return out
