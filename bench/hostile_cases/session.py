"""Hostile input for ``uno-rules play`` (stdin is empty: the game ends at the first
prompt): a 5,000-digit --humans, a huge file given to --resume (refused by its size), a
long game of agents only (a whole round of No Mercy at 6 seats). tests/test_play.py checks
the messages."""

from __future__ import annotations

from pathlib import Path


def cases(tmp: Path) -> list[tuple[str, list[str], int]]:
    huge = tmp / "session-huge.jsonl"
    with huge.open("wb") as f:
        f.truncate(1 << 30)  # sparse: refused from its size alone
    return [("session: --humans of 5,000 digits",
             ["play", "classic", "--humans", "9" * 5000], 1),
            ("session: --resume a 1 GiB file", ["play", "--resume", str(huge)], 1),
            ("session: a round of agents only", ["play", "no_mercy", "--players", "6",
                                                 "--humans", "none", "--round", "--seed", "1"],
             0),
            ("session: no input at the first prompt", ["play", "classic", "--seed", "1"], 0)]
