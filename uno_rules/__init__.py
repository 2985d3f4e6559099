"""uno-rules: a declarative rules engine for UNO and its editions.

Rulebooks are YAML files; :func:`load_rulebook` validates and compiles one, and
:meth:`Rulebook.new_game` starts a round that any program can drive through
``game.decision`` and ``game.apply``.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from .actions import Action, Decision, Result
from .errors import (
    IllegalAction,
    NotationError,
    Problem,
    RulebookError,
    RunawayEffect,
    ScenarioError,
    SnapshotError,
    UnoRulesError,
)
from .game import Game
from .rulebook import Rulebook

if TYPE_CHECKING:  # static names for mypy; at run time they come from __getattr__
    from .loader import load_rulebook, restore

__all__ = [
    "Action", "Decision", "Game", "IllegalAction", "NotationError", "Problem", "Result",
    "Rulebook", "RulebookError", "RunawayEffect", "ScenarioError", "SnapshotError",
    "UnoRulesError", "load_rulebook", "restore",
]
__version__ = "0.1.0"

# The load side needs yaml and jsonschema (~0.2 s to import): it is imported on first use,
# so that importing the package and playing a game from a loaded Rulebook never pay for it.
_FROM_LOADER = ("load_rulebook", "restore")
# Load-side submodules that an eager import used to make attributes of the package.
_LOAD_MODULES = ("checks", "compiler", "loader", "problems", "resources", "schema", "yamlpos")


def __getattr__(name: str) -> Any:
    """Import a load-side name (``load_rulebook``, ``restore``) or submodule when first asked."""
    if name in _FROM_LOADER:
        value = getattr(importlib.import_module(".loader", __name__), name)
    elif name in _LOAD_MODULES:
        value = importlib.import_module(f".{name}", __name__)
    else:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    globals()[name] = value  # later lookups find it without calling __getattr__
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *_FROM_LOADER})
