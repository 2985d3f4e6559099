"""Scale (issue 16 item 7, the local part): --workers values that are wrong in every way a
user can get them wrong, one of 100,000 digits; each refused before a process is started
(tests/test_workers.py asserts each message)."""

from __future__ import annotations

from pathlib import Path


def cases(tmp: Path) -> list[tuple[str, list[str], int]]:
    sim = ["simulate", "classic", "--players", "4", "--games", "20"]
    return [
        ("--workers 1", [*sim, "--workers", "1"], 0),
        ("--workers x", [*sim, "--workers", "x"], 1),
        ("--workers -1", [*sim, "--workers", "-1"], 1),
        ("--workers 1.5", [*sim, "--workers", "1.5"], 1),
        ("--workers 1e3", [*sim, "--workers", "1e3"], 1),
        ("--workers, 30 digits", [*sim, "--workers", "9" * 30], 1),
        ("--workers, 100,000 digits", [*sim, "--workers", "9" * 100_000], 1),
        ("--workers, 100,000 letters", [*sim, "--workers", "a" * 100_000], 1),
    ]
