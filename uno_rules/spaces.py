"""A fixed, numbered action space per rulebook and player count, with legality as a mask —
the shape reinforcement-learning libraries expect (PettingZoo-style)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import overload

from .engine.actions import Action
from .engine.game import Game
from .engine.rulebook import Rulebook
from .engine.tables import action_table


class ActionSpace(Sequence[Action]):
    """Every action a game of ``rulebook`` with ``players`` seats could ever offer, numbered.

    ``space[i]`` is an :class:`Action`, ``space.index(action)`` its number, and
    ``space.mask(game)`` a list of booleans, true exactly for the legal actions now. The
    numbers are the ids of ``rulebook.action_table(players)``.
    """

    def __init__(self, rulebook: Rulebook, players: int):
        self.rulebook, self.players = rulebook, players
        # The numbering is the rulebook's action table: an action's number is its id in the
        # integer lane (Game.legal_ids / Game.step), laid out once (docs/actions.md).
        self._actions = action_table(rulebook, players)  # unchecked, as the space always was
        self._index = {a: i for i, a in enumerate(self._actions)}

    def __len__(self) -> int:
        return len(self._actions)

    @overload
    def __getitem__(self, i: int) -> Action: ...
    @overload
    def __getitem__(self, i: slice) -> tuple[Action, ...]: ...
    def __getitem__(self, i: int | slice) -> Action | tuple[Action, ...]:
        return self._actions[i]

    def index(self, action: Action, *args: int) -> int:
        """The number of ``action`` (ValueError if it is not in the space)."""
        try:
            return self._index[action]
        except KeyError:
            raise ValueError(f"{action} is not in this action space") from None

    def mask(self, game: Game) -> list[bool]:
        """True for each action that ``game`` would accept now."""
        if game.players != self.players or game.rulebook.name != self.rulebook.name:
            raise ValueError(f"a game of {game.rulebook.name} for {game.players} players in "
                             f"the action space of {self.rulebook.name} for {self.players}")
        out = [False] * len(self._actions)
        for i in game.legal_ids():
            out[i] = True
        for i in game.out_of_turn_ids():
            out[i] = True
        return out
