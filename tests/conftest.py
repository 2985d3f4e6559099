"""Shared fixtures."""

from __future__ import annotations

from pathlib import Path

import pytest

import uno_rules

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="session")
def classic() -> uno_rules.Rulebook:
    return uno_rules.load_rulebook("classic")
