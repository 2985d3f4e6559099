"""uno-rules: a declarative rules engine for UNO and its editions.

Rulebooks are YAML files; :func:`load_rulebook` validates and compiles one, and
:meth:`Rulebook.new_game` starts a round that any program can drive through
``game.decision`` and ``game.apply``.
"""

from __future__ import annotations

import importlib
from importlib.machinery import EXTENSION_SUFFIXES
from typing import TYPE_CHECKING, Any

from .engine import game as _game
from .engine import rulebook as _rulebook
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
__version__ = "0.1.0"
#: True when the engine runs compiled (``UNO_RULES_COMPILE=1`` at install: mypyc C extensions),
#: False for the pure-Python build. Read from the modules' files, never set by hand.
COMPILED: bool = all((module.__file__ or "").endswith(tuple(EXTENSION_SUFFIXES))
                     for module in (_game, _rulebook))

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
