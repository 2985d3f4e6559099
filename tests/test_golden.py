"""Golden playthroughs: replaying recorded actions from the same seed gives the same events
and result (a change that alters play shows up here; regenerate with
``python tests/golden/regenerate.py`` only when it is meant)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import uno_rules

ROOT = Path(__file__).resolve().parent.parent
GOLDEN = sorted((ROOT / "tests" / "golden").glob("*.json"))


@pytest.mark.parametrize("path", GOLDEN, ids=lambda p: p.stem)
def test_replay_matches_golden(path: Path) -> None:
    data = json.loads(path.read_text())
    ref = data["rulebook"]  # a shipped name, or a path from the repository root
    rb = uno_rules.load_rulebook(ROOT / ref if "/" in ref else ref, house=data["house"])
    game = rb.new_game(data["players"], data["seed"])
    for i, action in enumerate(data["actions"]):
        assert not game.over, f"the round ended early, before action {i}: {action}"
        game.apply(action)
    assert game.events == data["events"]
    assert game.over and [list(game.result.winners), game.result.points] == data["result"]


def test_there_are_golden_files() -> None:
    assert len(GOLDEN) >= 8
