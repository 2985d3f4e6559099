"""Discard piles that open, close and are counted (a row of piles that grows, as DOS's
Centre Row): the run functions and phrases of ``clear_piles``, ``refill_piles`` and
``each_pile``, registered in :data:`uno_rules.engine.effects.PRIMITIVES`. A discard pile with
no card is closed: it takes no play until a card is turned up on it."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .model import NO_COLOR
from .words import Sub, cards

if TYPE_CHECKING:
    from .model import Step
    from .records import Ctx
    from .state import State as Game


def share_color(game: Game, pile: list[int]) -> bool:
    """Whether the cards of ``pile`` share a colour, a colourless card joining any (a wild
    whose colour is named to suit)."""
    colors = {game.faces[c].color for c in pile} - {NO_COLOR}
    return len(colors) <= 1


def set_pile_color(game: Game, pile: int, color: int) -> None:
    """The colour in force on discard pile ``pile`` becomes ``color``."""
    if pile == game._focus:
        game.color = color
    else:
        game._colors[pile] = color


def _clear_piles(game: Game, ctx: Ctx, step: Step) -> None:
    larger, to = step.args["larger_than"], game.rulebook.piles.index(step.args["to"])
    for k, pile in enumerate(game._discards):
        if len(pile) > larger:
            game._piles[to].extend(pile)
            count = len(pile)
            del pile[:]  # in place: `discard` is the pile in focus itself
            set_pile_color(game, k, NO_COLOR)
            game._note("clear", k, count, step.args["to"])


def _refill_piles(game: Game, ctx: Ctx, step: Step) -> None:
    discards = game._discards
    while sum(1 for d in discards if d) < step.args["to"]:
        empty = next((k for k, d in enumerate(discards) if not d), None)
        if empty is None or (not game.draw_pile and not game._reshuffle()):
            return  # no closed pile left, or no card to turn up
        card = game._take_top()  # a chance node's card under OpenSpiel
        discards[empty].append(card)
        set_pile_color(game, empty, game.faces[card].color)
        game._note("turn_up", empty, game.faces[card].name)


def _each_pile(game: Game, ctx: Ctx, step: Step) -> None:
    size, same = step.args["cards"], step.args["same_color"]
    chosen = [k for k, pile in enumerate(game._discards)
              if len(pile) == size and (not same or share_color(game, pile))]
    for k in reversed(chosen):  # pushed last runs first: in pile order
        each = ctx.copy()
        each.pile = k
        game._push(step.args["then"], each)


def say_each_pile(a: dict[str, Any], sub: Sub) -> str:
    colour = " of one colour (a wild joining any)" if a["same_color"] else ""
    return f"for each discard pile of {cards(a['cards'])}{colour}: " + sub(a["then"])
