"""The public face of a compiled rulebook: a :class:`Rulebook` starts and restores games."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from .actions import Action
from .arguments import check_arguments
from .errors import IllegalAction
from .game import Game
from .model import Face, Rules
from .notation import parse_card
from .tables import action_table


@dataclass(frozen=True, repr=False)
class Rulebook(Rules):
    """A compiled rulebook (see :func:`uno_rules.load_rulebook`): deck, card rules, programs
    and settings, and the entry points to play it."""

    def face(self, name: str) -> Face:
        """The face with this notation (case-insensitive); raises NotationError."""
        return self.faces[parse_card(self, name)]

    def action_table(self, players: Any) -> tuple[Action, ...]:
        """Every action any seat of a ``players``-seat game can take, numbered: the id of an
        action is its index (the integer lane: :meth:`Game.legal_ids`, :meth:`Game.step`).
        Laid out seat by seat from the rulebook's own order of faces, colours and piles,
        then the contest's ``loser`` per seat, so it is the same in every run and version of
        the same rulebook (docs/actions.md). A player count the rulebook can't play raises
        :class:`IllegalAction`, as :meth:`new_game` does."""
        check_arguments(self, players, None)
        if players not in self.player_counts():
            raise IllegalAction(f"{self.name} is for {self.players_text()} players, "
                                f"not {players}")
        return action_table(self, players)

    def new_game(self, players: Any, seed: Any = None, *, dealer: Any = None,
                 log: Any = True, max_steps: Any = None, max_actions: Any = None,
                 out: Any = None) -> Game:
        """Deal a new round for ``players`` seats, every shuffle drawn from ``seed`` (None:
        a fresh random one; an int must have ``abs(seed) < 2**256``, so that the game's
        snapshot can always write it: Python won't turn an int of 4,300 digits into text).
        ``max_steps`` / ``max_actions``: the round's budget of effect steps and of actions
        (default ``game.GAME_STEPS`` / ``game.GAME_ACTIONS``); when one runs out the round
        stops, over without a result, ``game.stalled`` saying why. ``out``: seats out of
        a match, knocked out before the deal (dealt nothing, skipped, in ``eliminated``;
        a rulebook's ``knockout_points`` count them too). Every argument is checked
        first (see :func:`uno_rules.engine.arguments.check_arguments`): a wrong one raises
        :class:`IllegalAction` naming it, as a player count the rulebook doesn't allow does
        (typed Any so that in the compiled build, too, a wrong type meets that check)."""
        # Through a variable, not Game(...): from code compiled with mypyc, a direct call of a
        # class with its own __new__ (State's) turns an error in __init__ into a SystemError.
        game: type[Game] = Game
        return game(self, players, seed, dealer=dealer, log=log, max_steps=max_steps,
                    max_actions=max_actions, out=out)

    def restore(self, snapshot: Mapping[str, Any]) -> Game:
        """Rebuild a game from :meth:`Game.snapshot` output; raises :class:`SnapshotError`
        naming the field for a snapshot of other rules (rulebook, house rules, settings or
        digest) or of a state the engine could not have reached or go on from."""
        return Game.restore(self, snapshot)
