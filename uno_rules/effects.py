"""The effect primitives: the one table every card behaviour is composed from.

Each primitive has a name, a description, its parameters (JSON Schema, used to build the
rulebook schema) and a ``run`` function. The schema, the docs and the loader all read
:data:`PRIMITIVES`; nothing else names primitives.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from .model import Step

if TYPE_CHECKING:
    from .game import Ctx, Game

SEATS = {
    "self": "the player who played the card",
    "next": "the next player in the direction of play (after any reverse already done)",
    "prev": "the previous player in the direction of play",
    "dealer": "the dealer",
    "first": "the player to the dealer's left",
    "target": "the player chosen by the card's `choose_player` step",
    "challenger": "the player who answered the card's `challenge` step",
}

SEAT_SCHEMA = {"enum": sorted(SEATS), "description": "A seat, relative to the card's player: "
               + "; ".join(f"`{k}`: {v}" for k, v in SEATS.items())}
STEPS_REF = {"$ref": "#/$defs/steps"}
COUNT_SCHEMA = {"description": "How many cards (or a `$option` reference).",
                "anyOf": [{"type": "integer", "minimum": 0}, {"type": "string", "pattern": r"^\$"}]}


@dataclass(frozen=True)
class Primitive:
    """A documented building block of card effects."""

    name: str
    doc: str
    run: Callable[[Game, Ctx, Step], None]
    params: dict[str, Any] = field(default_factory=dict)
    required: tuple[str, ...] = ()
    bare: bool = False            # may be written as a bare string, without parameters
    at_end: bool = False          # still runs when the card ended the round (see RULES: going out)
    uses_color: bool = False      # reads the colour in force (so a preceding colour choice matters)
    programs: tuple[str, ...] = ()  # parameters that hold nested step lists
    main: str | None = None       # the parameter a bare value stands for (`turn_to: dealer`)


def _draw(game: Game, ctx: Ctx, step: Step) -> None:
    game.draw_cards(game.seat(step.args["who"], ctx), step.args["count"])


def _skip(game: Game, ctx: Ctx, step: Step) -> None:
    game.skips += 1


def _reverse(game: Game, ctx: Ctx, step: Step) -> None:
    game.direction = -game.direction
    game.note("reverse", ctx.actor)


def _turn_to(game: Game, ctx: Ctx, step: Step) -> None:
    game.turn_to = game.seat(step.args["who"], ctx)


def _choose_color(game: Game, ctx: Ctx, step: Step) -> None:
    game.ask("color", game.seat(step.args.get("who", "self"), ctx), ctx)


def _challenge(game: Game, ctx: Ctx, step: Step) -> None:
    branches = (step.args["guilty"], step.args["innocent"], step.args["accepted"])
    if ctx.final:  # a card that ended the round can't be challenged
        game.push(branches[2], ctx)
        return
    seat = game.seat(step.args["who"], ctx)
    ctx.challenger = seat
    game.ask("challenge", seat, ctx, branches)


def _return_card(game: Game, ctx: Ctx, step: Step) -> None:
    game.return_played_card(ctx)


def _if(game: Game, ctx: Ctx, step: Step) -> None:
    players = step.args.get("players")
    holds = players is None or players == game.players
    branch = step.args.get("then") if holds else step.args.get("else")
    if branch is not None:
        game.push(branch, ctx)


def _turn_again(game: Game, ctx: Ctx, step: Step) -> None:
    game.turn_first_card(put_back=step.args.get("put_back", False))


PRIMITIVES: dict[str, Primitive] = {p.name: p for p in [
    Primitive("draw", "`who` draws `count` cards from the draw pile (reshuffling the discard "
              "pile, all but its top card, when it runs out; what can't be drawn is forgiven).",
              _draw, {"who": SEAT_SCHEMA, "count": COUNT_SCHEMA}, ("who", "count"), at_end=True),
    Primitive("skip", "The next player loses its turn (several skips add up).", _skip, bare=True),
    Primitive("reverse", "The direction of play flips.", _reverse, bare=True),
    Primitive("turn_to", "The next turn goes to `who` instead of the next player.", _turn_to,
              {"who": SEAT_SCHEMA}, ("who",), main="who"),
    Primitive("choose_color", "`who` (default `self`) chooses the colour in force (any colour, "
              "the same one too). At the end of a round it is asked only if a later step of the "
              "card uses the colour.", _choose_color, {"who": SEAT_SCHEMA}, bare=True,
              main="who"),
    Primitive("challenge", "`who` may challenge the card. Challenged: `guilty` runs if the card "
              "was not legally played (see the card's `legal_if`), else `innocent`; not "
              "challenged (or the card ended the round): `accepted`.", _challenge,
              {"who": SEAT_SCHEMA, "guilty": STEPS_REF, "innocent": STEPS_REF,
               "accepted": STEPS_REF}, ("who", "guilty", "innocent", "accepted"), at_end=True,
              programs=("guilty", "innocent", "accepted")),
    Primitive("return_card", "The card goes back to its player's hand and the colour in force "
              "reverts to what it was before the card.", _return_card, bare=True),
    Primitive("if", "Runs `then` when the condition holds, else `else`. Conditions: `players` "
              "(the number of players equals it), `option` (a boolean option is true; decided "
              "when the rulebook loads).", _if,
              {"players": {"type": "integer", "minimum": 2, "description": "Number of players."},
               "option": {"type": "string", "description": "Name of a boolean option."},
               "then": STEPS_REF, "else": STEPS_REF}, at_end=True, programs=("then", "else")),
    Primitive("turn_again", "First card only: turn another card from the draw pile on top and "
              "apply its first-card rules; with `put_back: true` this card first goes back into "
              "the draw pile, which is shuffled.", _turn_again,
              {"put_back": {"type": "boolean", "description": "Put this card back and shuffle."}},
              bare=True, main="put_back"),
]}
