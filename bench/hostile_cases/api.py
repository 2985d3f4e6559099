"""Python API and CLI messages (issue 14's api part): long values echoed in messages (a
card name of 5,000 digits in a scenario step, a --set value of 100,000 characters), an
overlay's name given as the rulebook. The scenario file is tests/hostile/api/long_card.yaml
(tests/test_cli.py asserts its FAIL line)."""

from __future__ import annotations

import shutil
from pathlib import Path

FILES = Path(__file__).resolve().parent.parent.parent / "tests" / "hostile" / "api"


def cases(tmp: Path) -> list[tuple[str, list[str], int]]:
    shutil.copy(FILES / "long_card.yaml", tmp / "long_card.yaml")
    return [
        ("a card name of 5,000 digits in a scenario step",
         ["scenario", str(tmp / "long_card.yaml")], 1),
        ("a --set value of 100,000 characters",
         ["deck", "classic", "--set", "hand_size=" + "x" * 100_000], 1),
        ("a --set name of 100,000 characters",
         ["deck", "classic", "--set", "x" * 100_000 + "=1"], 1),
        ("an overlay's name as the rulebook", ["deck", "stacking"], 1),
    ]
