"""The integer lane (issue 15 item 3): the action table of the largest game size the limits
allow (about 900 faces, 8 discard piles, 20 players: some 290,000 actions) is built once and
played through by simulate, which uses the lane; a player count the rulebook can't play is
refused before any table is made. Files: tests/hostile/lane/ (tests/test_tables.py asserts
the table's size and the refusal's message)."""

from __future__ import annotations

import shutil
from pathlib import Path

FILES = Path(__file__).resolve().parent.parent.parent / "tests" / "hostile" / "lane"


def cases(tmp: Path) -> list[tuple[str, list[str], int]]:
    shutil.copy(FILES / "big_table.yaml", tmp / "big_table.yaml")
    big = str(tmp / "big_table.yaml")
    return [
        ("the biggest action table (900 faces, 8 piles, 20 players), one game",
         ["simulate", big, "--games", "1", "--players", "20"], 0),
        ("the biggest rulebook at a player count it can't play",
         ["simulate", big, "--games", "1", "--players", "21"], 1),
    ]
