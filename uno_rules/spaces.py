"""A fixed, numbered action space per rulebook and player count, with legality as a mask —
the shape reinforcement-learning libraries expect (PettingZoo-style)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import overload

from .engine.actions import Action
from .engine.game import Game
from .engine.rulebook import Rulebook


class ActionSpace(Sequence[Action]):
    """Every action a game of ``rulebook`` with ``players`` seats could ever offer, numbered.

    ``space[i]`` is an :class:`Action`, ``space.index(action)`` its number, and
    ``space.mask(game)`` a list of booleans, true exactly for the legal actions now.
    """

    def __init__(self, rulebook: Rulebook, players: int):
        self.rulebook, self.players = rulebook, players
        names = list(dict.fromkeys(f.name for f in rulebook.faces))  # a name on two sides once
        seats = range(players)
        actions: list[Action] = []
        for s in seats:
            actions += [Action(s, "play", n, uno, pile) for n in names for uno in (False, True)
                        for pile in range(rulebook.discard_piles)]
            actions += [Action(s, k) for k in ("draw", "keep", "challenge", "accept")]
            actions += [Action(s, "color", c) for c in rulebook.colors]
            actions += [Action(s, kind, t) for kind in ("target", "catch", "uno") for t in seats]
            actions += [Action(s, kind, n) for kind in ("give", "jump_in") for n in names]
        actions += [Action(None, "loser", t) for t in seats]
        self._actions = tuple(actions)
        self._index = {a: i for i, a in enumerate(actions)}

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
        for action in game.legal_actions():
            out[self._index[action]] = True
        return out
