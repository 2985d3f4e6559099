"""uno-rules: a declarative rules engine for UNO and its editions.

Rulebooks are YAML files; :func:`load_rulebook` validates and compiles one, and
:meth:`Rulebook.new_game` starts a round that any program can drive through
``game.decision`` and ``game.apply``.
"""

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
from .loader import load_rulebook, restore
from .rulebook import Rulebook

__all__ = [
    "Action", "Decision", "Game", "IllegalAction", "NotationError", "Problem", "Result",
    "Rulebook", "RulebookError", "RunawayEffect", "ScenarioError", "SnapshotError",
    "UnoRulesError", "load_rulebook", "restore",
]
__version__ = "0.1.0"
