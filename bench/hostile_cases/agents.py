"""Players (issue 16 item 2): --agents names that are wrong in every way a user can get
them wrong, and one of 100,000 characters; agent modules that fail (tests/hostile/agents/,
run from that folder in tests/test_agents.py, which asserts each message). Here the
command-line cases that need no module beside the user."""

from __future__ import annotations

from pathlib import Path


def cases(tmp: Path) -> list[tuple[str, list[str], int]]:
    sim = ["simulate", "classic", "--players", "4", "--games", "20"]
    return [
        ("--agents, one per seat", [*sim, "--agents", "greedy,uniform,play_first,uniform"],
         0),
        ("--agents, the wrong count", [*sim, "--agents", "greedy,uniform"], 1),
        ("--agents, 15,000 names (105 KB)", [*sim, "--agents", "greedy," * 15_000], 1),
        ("--agents, a name of 100,000 characters", [*sim, "--agents", "g" * 100_000], 1),
        ("--agents, a module that doesn't exist", [*sim, "--agents", "no_such_mod:A"], 1),
        ("--agents, a function, not a class", [*sim, "--agents", "json:dumps"], 1),
    ]
