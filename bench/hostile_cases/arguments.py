"""Hostile command-line arguments (the sweep of tests/test_hostile.py's "command-line
arguments"; NUL bytes can't be passed to a process, so those cases are tested in process
only): NaN where a float is taken, 100,000-character values echoed in the error, a record
cut after its header. Each is one line, exit 1; tests/test_hostile.py and
tests/test_record.py check the messages."""

from __future__ import annotations

import json
from pathlib import Path

from uno_rules.play.record import _check

LONG = "x" * 100_000  # under the 128 KiB a single argument may have


def cases(tmp: Path) -> list[tuple[str, list[str], int]]:
    header = tmp / "header.jsonl"  # a record's first line alone: the chain check passes
    line = {"record": 1, "engine": "0.1.0", "rulebook": "classic", "digest": "sha256:0",
            "source": "classic", "house": [], "set": {}, "players": 2, "seed": 1,
            "match": False, "budgets": {"max_steps": 100000, "max_actions": 20000},
            "seats": []}
    header.write_text(json.dumps({**line, "check": _check("", line)}) + "\n")
    return [
        ("args: --scheduler-timeout nan", ["simulate", "classic", "--games", "1", "--scheduler",
                                           "tcp://127.0.0.1:1", "--scheduler-timeout", "nan"], 1),
        ("args: a 100,000-char --set", ["deck", "classic", "--set", LONG], 1),
        ("args: a 100,000-char --house", ["validate", "classic", "--house", LONG], 1),
        ("args: a 100,000-char --seed", ["simulate", "classic", "--seed", LONG], 1),
        ("args: a 100,000-char command", [LONG], 1),
        ("args: replay of a bare header", ["replay", str(header)], 1),
    ]
