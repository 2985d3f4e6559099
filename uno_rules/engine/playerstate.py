"""Per-player state: the run functions, phrases and ``if`` conditions of a rulebook's
``player_state`` (a Power Card each, a once-per-round joker, a counter). A rulebook declares
each key with its values in order and the value everyone starts with; ``set_state`` and
``turn_state`` steps change a seat's value, the ``state`` and ``every_state`` conditions read
them. The values live in :attr:`State._marks` (so clones, snapshots, views and observations
carry them); :mod:`uno_rules.engine.effects` and :mod:`uno_rules.engine.conditions` register
these parts in their tables.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from .words import verb

if TYPE_CHECKING:
    from .model import Rules, Step
    from .records import Ctx
    from .state import State as Game

KEY_SCHEMA = {"type": "string", "pattern": "^[a-z][a-z0-9_]*$",
              "description": "A key declared in `player_state`."}
VALUES_SCHEMA = {"type": "object", "minProperties": 1, "description":
                 "Keys declared in `player_state`, each with one of its values.",
                 "propertyNames": {"pattern": "^[a-z][a-z0-9_]*$"},
                 "additionalProperties": {"type": ["string", "integer"]},
                 "examples": [{"power": "green"}]}


def values_of(rules: Rules, key: str) -> tuple[str, ...]:
    """The values of the per-player state ``key``, in order (``KeyError`` if undeclared)."""
    for name, values, _ in rules.player_state:
        if name == key:
            return values
    raise KeyError(key)


def seat_state(game: Game, seat: int) -> dict[str, str]:
    """``seat``'s per-player state, by key: each key's value's name."""
    declared = game.rulebook.player_state
    base = seat * len(declared)
    return {name: values[game._marks[base + k]]
            for k, (name, values, _) in enumerate(declared)}


def _set_state(game: Game, ctx: Ctx, step: Step) -> None:
    seat = game._seat(step.args["who"], ctx)
    if seat >= 0:
        key = step.args["key"]
        game._set_mark(seat, key, values_of(game.rulebook, key).index(str(step.args["to"])))


def _turn_state(game: Game, ctx: Ctx, step: Step) -> None:
    seat = game._seat(step.args["who"], ctx)
    if seat >= 0:
        key = step.args["key"]
        count, by = len(values_of(game.rulebook, key)), step.args.get("by", 1)
        game._set_mark(seat, key, (game._marks[game._mark_at(seat, key)] + by) % count)


def _holds(game: Game, seat: int, value: Mapping[str, Any]) -> bool:
    rules = game.rulebook
    return all(game._marks[game._mark_at(seat, key)] == values_of(rules, key).index(str(v))
               for key, v in value.items())


def state_holds(game: Game, ctx: Ctx, value: Mapping[str, Any]) -> bool:
    """The ``state`` condition: the player's values are the ones given."""
    return _holds(game, ctx.actor, value)


def every_state_holds(game: Game, ctx: Ctx, value: Mapping[str, Any]) -> bool:
    """The ``every_state`` condition: every player still in has the values given."""
    return all(_holds(game, s, value) for s in range(game.players)
               if s not in game.eliminated)


def _pairs(value: Mapping[str, Any]) -> str:
    return " and ".join(f"{k} is {v}" for k, v in value.items())


def say_state(value: Mapping[str, Any]) -> str:
    return f"when your {_pairs(value)}"


def say_every_state(value: Mapping[str, Any]) -> str:
    return f"when every player's {_pairs(value)}"


def say_set_state(a: dict[str, Any], sub: Any) -> str:
    return f"{verb(a['who'], 'set')} {'your' if a['who'] == 'self' else 'their'} " \
        f"{a['key']} to {a['to']}"


def say_turn_state(a: dict[str, Any], sub: Any) -> str:
    by = a.get("by", 1)
    to = "to its next value" if by == 1 else f"{by} values on" if by > 0 else f"{-by} back"
    return f"{verb(a['who'], 'turn')} {'your' if a['who'] == 'self' else 'their'} " \
        f"{a['key']} over ({to})"
