"""Scenario files whose rules misbehave (issue 28): a step whose card's effect runs away is
that scenario's failure, exit 1, not an internal error (exit 3); tests/test_cli.py asserts
the message."""

from __future__ import annotations

from pathlib import Path

HOSTILE = Path(__file__).resolve().parents[2] / "tests" / "hostile"


def cases(tmp: Path) -> list[tuple[str, list[str], int]]:
    return [("a scenario step that runs away",
             ["scenario", str(HOSTILE / "exits" / "runaway_scenario.yaml")], 1)]
