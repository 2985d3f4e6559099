"""The primitives that move cards between players' hands: ``give_cards``, ``deal_hands``,
``swap_hands`` and ``rotate_hands`` (each step's run function and its phrase), registered in
:data:`uno_rules.engine.effects.PRIMITIVES`."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .decisions import start_giving
from .model import Step
from .words import Sub, cards, who

if TYPE_CHECKING:
    from .legal import Legality as Game
    from .records import Ctx


def _give_cards(game: Game, ctx: Ctx, step: Step) -> None:
    src = step.args["from"]
    if src == "all":
        first = game._first()
        givers = [(first + i) % game.players for i in range(game.players)
                  if (first + i) % game.players not in game.eliminated]
    else:
        givers = [g for g in (game._seat(s, ctx) for s in (src if isinstance(src, list)
                                                          else [src])) if g >= 0]
    if step.args["all_or_none"] and not all(game.hands[g] for g in givers):
        return
    to = step.args.get("to")  # not given: each giver's partner
    recipients = None if to is None else [_recipients(game, ctx, to, g) for g in givers]
    start_giving(game, givers, step.args["count"], step.args["together"], ctx, recipients)


def _recipients(game: Game, ctx: Ctx, to: str, giver: int) -> list[int]:
    """The seats of ``to`` seen from ``giver`` (``self``: the giver; ``target``: the card's),
    the giver itself left out."""
    seen = ctx.copy()
    seen.actor = giver
    return [s for s in game._seat_set(to, seen) if s != giver]


def _deal_hands(game: Game, ctx: Ctx, step: Step) -> None:
    seats = game._seat_set(step.args["seats"], ctx)
    start = game._seat(step.args["from"], ctx)  # named before the hands are gathered
    if not seats or start < 0:
        return
    game._deal_hands(seats, start, bool(step.args["keep_counts"]))
    if ctx.face < 0:
        return  # no card played (a first card, a setup): nobody owes UNO
    # Its player owes UNO only if the deal leaves it one card and it didn't call it with the
    # card; a seat left with one card without having played owes nothing (RULES.md §8).
    actor = ctx.actor
    if len(game.hands[actor]) == 1 and not ctx.called:
        game._uno_open = actor
    elif game._uno_open == actor:
        game._uno_open = -1


def _swap_hands(game: Game, ctx: Ctx, step: Step) -> None:
    other = game._seat(step.args["with"], ctx)
    if other >= 0 and other != ctx.actor:
        game.hands[ctx.actor], game.hands[other] = game.hands[other], game.hands[ctx.actor]
        game._note("swap", ctx.actor, other)
        game._owe_calls([other], ctx.actor)


def _rotate_hands(game: Game, ctx: Ctx, step: Step) -> None:
    game._owe_calls(game._rotate_hands(), ctx.actor)


# ----------------------------------------------------------------------- phrases
def _say_deal_hands(a: dict[str, Any], sub: Sub) -> str:
    seats = {"all": "every hand, yours included,", "others": "every other player's hand",
             "opponents": "the hands of every player not of your team"}.get(
                 a["seats"], f"the hand of {who(a['seats'])}")
    text = f"{seats} is gathered and shuffled, and dealt out again one card at a time, " \
        f"clockwise from {who(a['from'])}"
    if a["keep_counts"]:
        text += ", each getting back as many cards as it held"
    return text + "; you owe UNO only if the deal leaves you one card"


def _say_give_cards(a: dict[str, Any], sub: Sub) -> str:
    src, to = a["from"], a.get("to")
    recipient = "their partner" if to is None else \
        "each other player" if to == "others" else who(to)
    if src == "all":
        givers = "every player, in turn from the dealer's left,"
    elif isinstance(src, list):
        givers = " and then ".join(who(s) for s in src)
    else:
        givers = who(src)
    count = a["count"]
    what = "half their hand (rounded down)" if count == "half" else cards(count)
    text = f"{givers} give {what} of their choice to {recipient}"
    if a["together"]:
        text += ", all chosen before any card is received"
    if a["all_or_none"]:
        text += ", only if all of them still hold cards"
    return text
