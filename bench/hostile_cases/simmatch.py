"""``simulate --match`` (issue 16, item 1): matches that can't end, whose rounds all stall,
that end at once, and bad --max-rounds values. A match that can't end is cut by its budget
of rounds (--max-rounds, default 1000) and reported stalled, well within the limits;
tests/test_matchsim.py asserts each outcome and message."""

from __future__ import annotations

from pathlib import Path

HOSTILE = Path(__file__).resolve().parents[2] / "tests" / "hostile"


def cases(tmp: Path) -> list[tuple[str, list[str], int]]:
    sim = ["simulate", "classic", "--match", "--json"]
    return [
        ("match: every round stalls", [*sim, "--games", "50", "--max-actions", "1"], 0),
        ("match: rounds that never end", ["simulate", str(HOSTILE / "exits" / "retrigger.yaml"),
                                          "--match", "--players", "10", "--games", "1"], 0),
        ("match: target 1", [*sim, "--games", "100", "--set", "target_score=1"], 0),
        ("match: target 10**9, 1,000 rounds", [*sim, "--games", "1", "--players", "2", "--set",
                                               "target_score=1000000000"], 0),
        ("match: elimination to 10**9", ["simulate", str(HOSTILE / "simmatch" /
                                                         "unreachable.yaml"), "--match",
                                         "--games", "1", "--players", "2"], 0),
        ("match: --max-rounds 0", [*sim, "--max-rounds", "0"], 1),
        ("match: --max-rounds 10**23", [*sim, "--games", "2", "--max-rounds", "9" * 23], 0),
        ("match: --max-rounds, 5,000 digits", [*sim, "--max-rounds", "9" * 5000], 1),
        ("--max-rounds without --match", ["simulate", "classic", "--max-rounds", "5"], 1),
        ("match: --games 10**23", [*sim, "--games", "9" * 23], 1),
    ]
