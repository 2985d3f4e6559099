"""Chance nodes (issue 17 item 3): Ted Lasso's contests, settled at the table, under load
(rounds of random moves and of agents at the most players, every contest drawn by the
driver) and in a scenario file that answers one wrongly (tests/hostile/chance/, its
messages asserted in tests/test_scenarios.py)."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent.parent


def cases(tmp: Path) -> list[tuple[str, list[str], int]]:
    sim = ["simulate", "ted_lasso", "--players", "10", "--games", "30", "--seed", "3"]
    return [
        ("Ted Lasso rounds at 10 players: contests drawn by random_moves", sim, 0),
        ("the same, uniform: catches compete with contests",
         [*sim, "--policy", "uniform"], 0),
        ("the same with agents: contests drawn by the table's RNG",
         [*sim, "--agents", ",".join(["greedy", "uniform"] * 5)], 0),
        ("a scenario settling a contest with an outsider, a turn during one",
         ["scenario", str(ROOT / "tests" / "hostile" / "chance" / "contest_outsider.yaml")], 1),
    ]
