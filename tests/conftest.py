"""Shared fixtures."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from hypothesis import settings

import uno_rules

ROOT = Path(__file__).resolve().parent.parent

# CI replays a fixed set of examples (reproducible runs); local runs explore new ones.
settings.register_profile("ci", derandomize=True, print_blob=True)
if os.environ.get("CI"):
    settings.load_profile("ci")


@pytest.fixture(scope="session")
def classic() -> uno_rules.Rulebook:
    return uno_rules.load_rulebook("classic")
