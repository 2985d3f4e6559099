"""compare (issue 16 item 4): variants wrong in every way the command line allows, and
absurdly many or long ones; tests/test_compare.py asserts the messages."""

from __future__ import annotations

from pathlib import Path


def cases(tmp: Path) -> list[tuple[str, list[str], int]]:
    cmp = ["compare", "--games", "5", "--players", "2"]
    return [
        ("compare, two variants", [*cmp, "classic", "classic", "--house", "stacking"], 0),
        ("compare, --house before any variant", [*cmp, "--house", "stacking", "classic",
                                                  "classic"], 1),
        ("compare, 10,000 variants", [*cmp, *["classic"] * 10_000], 1),
        ("compare, a variant of 2,000 house rules", [*cmp, "classic",
                                                     "classic" + "+stacking" * 2000], 1),
        ("compare, 5,000 --set on one variant", [*cmp, "classic", "classic",
                                                 *["--set", "hand_size=5"] * 5000], 0),
        ("compare, a variant name of 100,000 characters", [*cmp, "classic", "c" * 100_000],
         1),
        ("compare, 20,000 '+'", [*cmp, "classic", "+" * 20_000], 1),
    ]
