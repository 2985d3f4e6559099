"""OpenSpiel's card chance (uno_rules/rl/openspiel.py, ``deals: 0``): each card an action
takes off the draw pile (and a pile counter's hidden limit) is chosen by a chance node, so
an action is run with the cards chosen so far and stops (:class:`NeedCard`) when it takes
one more: the engine's ``State.chance`` and ``State.limit_chance`` hooks, set for the time
of one action."""

from __future__ import annotations

from ..engine.game import Game
from ..play import driver
from ..play.driver import OnAction

DEAL = -1  # the pending action that deals the round


class NeedCard(Exception):
    """Raised from inside the engine when an action takes a card (or a pile counter's
    limit) chance hasn't chosen: ``pile`` the outcomes to choose from, each as often as
    its weight."""

    def __init__(self, pile: list[int]) -> None:
        super().__init__("a card for chance to choose")
        self.pile = pile


class Chooser:
    """A round's ``State.chance`` for one try of an action: each card taken off the draw
    pile is the next one chance chose, put on top first; past those, :class:`NeedCard`
    with the pile to choose from (sorted: its order is no one's knowledge). Its
    :meth:`limit` is the round's ``limit_chance``: a pile counter's hidden limit is chosen
    by chance too (no seat sees the outcome: information states hold no chance outcome)."""

    __slots__ = ("cards", "used", "faces")

    def __init__(self, cards: list[int], faces: int) -> None:
        self.cards, self.used, self.faces = cards, 0, faces

    def limit(self, weights: list[int]) -> int:
        """The index of the limit chance chose (an outcome ``faces + index``)."""
        if self.used == len(self.cards):
            raise NeedCard([self.faces + k for k, w in enumerate(weights) for _ in range(w)])
        code = self.cards[self.used]
        self.used += 1
        return code - self.faces

    def __call__(self, pile: list[int]) -> None:
        if self.used == len(self.cards):
            raise NeedCard(sorted(pile))
        card = self.cards[self.used]
        self.used += 1
        i = len(pile) - 1 - pile[::-1].index(card)
        pile[i], pile[-1] = pile[-1], pile[i]


def run_action(game: Game, action: int, by: int, cards: list[int], hook: OnAction | None) -> None:
    """``action`` by ``by`` (DEAL: the deal) on ``game``, taking ``cards`` off the draw
    pile (then :class:`NeedCard`)."""
    memo = game.rulebook.memo
    faces = memo.get("chance_faces")  # UnoRulesGame.faces, once per rulebook (max is slow)
    if faces is None:
        faces = memo["chance_faces"] = max(game.rulebook.deck) + 1
    chooser = Chooser(cards, faces)
    game.chance, game.limit_chance = chooser, chooser.limit
    try:
        if action == DEAL:
            game._deal()
            game._start()
        else:
            driver.take(game, action, hook, None if by < 0 else by)
    finally:
        game.chance = game.limit_chance = None


__all__ = ["DEAL", "Chooser", "NeedCard", "run_action"]
