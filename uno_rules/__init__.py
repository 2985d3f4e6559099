"""uno-rules: a declarative rules engine for UNO and its editions.

Rulebooks are YAML files; :func:`load_rulebook` validates and compiles one, and
:meth:`Rulebook.new_game` starts a round that any program can drive through
``game.decision`` and ``game.apply``.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from . import _moved
from ._about import COMPILED
from ._about import __version__ as __version__
from .engine.actions import Action, Decision, Result
from .engine.errors import (
    IllegalAction,
    NotationError,
    Problem,
    RulebookError,
    RunawayEffect,
    ScenarioError,
    SnapshotError,
    UnoRulesError,
)
from .engine.game import Game
from .engine.rulebook import Rulebook

if TYPE_CHECKING:  # static names for mypy; at run time they come from __getattr__
    from .load.entry import load_rulebook, restore

__all__ = [
    "COMPILED", "Action", "Decision", "Game", "IllegalAction", "NotationError", "Problem",
    "Result", "Rulebook", "RulebookError", "RunawayEffect", "ScenarioError", "SnapshotError",
    "UnoRulesError", "load_rulebook", "restore",
]
_moved.install()  # the modules' old paths (uno_rules.sim.simulate, ...) still import

# The load side needs yaml and jsonschema (~0.2 s to import) to load a rulebook afresh: its
# entry points are imported on first use, and import those only on a miss of the compiled-
# rulebook cache, so that importing the package and playing a game never pay for them.
_FROM_LOADER = ("load_rulebook", "restore")


def __getattr__(name: str) -> Any:
    """Import a load-side name (``load_rulebook``, ``restore``) when first asked."""
    if name in _FROM_LOADER:
        value = getattr(importlib.import_module(".load.entry", __name__), name)
    else:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    globals()[name] = value  # later lookups find it without calling __getattr__
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *_FROM_LOADER})
