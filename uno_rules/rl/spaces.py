"""A fixed, numbered action space per rulebook and player count, with legality as a mask —
the shape reinforcement-learning libraries expect (PettingZoo-style): one mask per seat,
holding only what that seat may do, as a list or as a NumPy ``int8`` array. The table's ids
are per seat; :class:`SharedActions` maps them onto one seat-free space every seat shares."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, overload

from ..engine.actions import Action
from ..engine.game import Game
from ..engine.rulebook import Rulebook


class ActionSpace(Sequence[Action]):
    """Every action a game of ``rulebook`` with ``players`` seats could ever offer, numbered.

    ``space[i]`` is an :class:`Action`, ``space.index(action)`` its number, and
    ``space.mask(game, seat)`` a list of booleans, true exactly for what ``seat`` may do
    now (``space.mask_array(game, seat)``: the same as a NumPy ``int8`` array). The numbers
    are the ids of ``rulebook.action_table(players)``; a player count the rulebook can't play
    is refused (:class:`~uno_rules.IllegalAction`), as ``new_game`` refuses it.
    """

    def __init__(self, rulebook: Rulebook, players: int):
        self.rulebook, self.players = rulebook, players
        # The numbering is the rulebook's action table: an action's number is its id in the
        # integer lane (Game.legal_ids / Game.step), laid out once (docs/actions.md).
        self._actions = rulebook.action_table(players)
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

    def mask(self, game: Game, seat: int | None = None) -> list[bool]:
        """True for each action ``seat`` may take now: its decision's options when the
        decision is its own, and its out-of-turn actions (a catch, an UNO call for a
        partner, its own jump-ins), as :meth:`Game.legal_ids` gives them — never another
        seat's. With no seat, every seat's at once: a referee's view, which tells what
        others hold (a jump-in names a card in its holder's hand); not for a player."""
        self._check(game)
        out = [False] * len(self._actions)
        if seat is None:
            for i in game.legal_ids():
                out[i] = True
            for i in game.out_of_turn_ids():
                out[i] = True
        else:
            for i in game.legal_ids(seat):
                out[i] = True
        return out

    def mask_array(self, game: Game, seat: int) -> Any:
        """:meth:`mask` for ``seat`` as a NumPy ``int8`` array of ``len(space)`` (1: legal),
        the form RL libraries take (NumPy: ``pip install 'uno-rules[rl]'``)."""
        try:
            import numpy
        except ImportError:
            raise ImportError("ActionSpace.mask_array needs NumPy: pip install "
                              "'uno-rules[rl]'") from None
        self._check(game)
        out = numpy.zeros(len(self._actions), dtype=numpy.int8)
        ids = game.legal_ids(seat)
        if ids:
            out[list(ids)] = 1
        return out

    def _check(self, game: Game) -> None:
        if game.players != self.players or game.rulebook.name != self.rulebook.name:
            raise ValueError(f"a game of {game.rulebook.name} for {game.players} players in "
                             f"the action space of {self.rulebook.name} for {self.players}")


#: The kinds whose argument is a seat: in the shared space it is counted from the actor.
SEAT_ARGS = frozenset({"target", "catch", "uno"})


class SharedActions:
    """One action space for every seat (RLCard-style): the seat-free actions of
    ``rulebook.action_table(players)``, each seat's ids mapped onto them.

    ``table[k]`` is an :class:`Action` with no seat: what seat ``s`` takes as shared id
    ``k`` is that action as its own, a seat it names (``target``, ``catch``, ``uno``)
    counted from ``s`` in seat-number order (``catch 1``: the seat after ``s``; ``0``:
    ``s`` itself). ``table_id[s][k]`` is that action's id in the rulebook's table and
    ``shared_id[s][i]`` the shared id of table id ``i`` (-1: not one of ``s``'s actions,
    such as a contest's ``loser``). Ordered as seat 0's actions are in the table, so seat
    0's ids map onto ``0 .. len - 1`` in order.
    """

    def __init__(self, rulebook: Rulebook, players: int):
        table = rulebook.action_table(players)
        shared: list[Action] = []
        index: dict[Action, int] = {}
        shared_id = [[-1] * len(table) for _ in range(players)]
        for i, action in enumerate(table):
            seat = action.seat
            if seat is None:  # a contest's outcome: the table's, no seat's
                continue
            arg = action.arg
            if action.kind in SEAT_ARGS:
                assert type(arg) is int
                arg = (arg - seat) % players
            free = Action(None, action.kind, arg, action.uno, action.pile)
            k = index.get(free)
            if k is None:
                k = index[free] = len(shared)
                shared.append(free)
            shared_id[seat][i] = k
        table_id = [[0] * len(shared) for _ in range(players)]
        for seat in range(players):
            for i, k in enumerate(shared_id[seat]):
                if k >= 0:
                    table_id[seat][k] = i
        self.table: tuple[Action, ...] = tuple(shared)
        self.table_id = tuple(tuple(ids) for ids in table_id)
        self.shared_id = tuple(tuple(ids) for ids in shared_id)

    def __len__(self) -> int:
        return len(self.table)


def shared_actions(rulebook: Rulebook, players: int) -> SharedActions:
    """The :class:`SharedActions` of ``rulebook`` for ``players`` seats, made once."""
    key = ("rl.shared_actions", players)
    got = rulebook.memo.get(key)
    if got is None:
        got = rulebook.memo[key] = SharedActions(rulebook, players)
    assert isinstance(got, SharedActions)
    return got
