"""Determinization (issue 17 item 4): the `lookahead` agent from the command line, at the
smallest and a larger table, within the hostile bench's 2 s of CPU (one round: a few
hundred resamples and rollouts), and a name next to it that is wrong (tests/test_agents.py
asserts the message)."""

from __future__ import annotations

from pathlib import Path


def cases(tmp: Path) -> list[tuple[str, list[str], int]]:
    sim = ["simulate", "classic", "--games", "1"]
    return [
        ("--agents lookahead, 2 players, one round", [*sim, "--players", "2", "--agents",
                                                      "lookahead,greedy"], 0),
        ("--agents lookahead, 4 players, one round", [*sim, "--players", "4", "--agents",
                                                      "lookahead,greedy,greedy,greedy"], 0),
        ("--agents lookahead with a wrong name", [*sim, "--players", "2", "--agents",
                                                  "lookahead,lookahed"], 1),
    ]
