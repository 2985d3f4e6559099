"""The conditions of the ``if`` primitive: one table, as
:data:`~uno_rules.engine.effects.PRIMITIVES` is for steps.

Each :class:`Condition` is registered once with its parameter's schema, what makes it hold
(in words, for docs/primitives.md), how it is decided and its phrase for the rules sheet. The
``if`` primitive's parameters and description, the rulebook schema, the compiler and the
sheet all read :data:`CONDITIONS`: a new condition is one entry here.

A condition is decided either while the round is played (``holds``, with ``say``: how the
sheet words it) or once, when the rulebook loads (``at_load``: the rulebook's options and the
value; only the branch that applies is compiled, so the sheet never names it). One whose
meaning a knock-out changes says how (``knocked_out``), for the sheet's knock-out rule.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from .playerstate import VALUES_SCHEMA, every_state_holds, say_every_state, say_state, state_holds
from .words import SEAT_SCHEMA, cards, verb, who

if TYPE_CHECKING:
    from .records import Ctx
    from .state import State as Game


@dataclass(frozen=True)
class Condition:
    """One condition an ``if`` step may test: the parameter ``name`` of the step."""

    name: str
    doc: str                      # what makes it hold (docs/primitives.md)
    schema: dict[str, Any]        # its value's JSON Schema
    holds: Callable[[Game, Ctx, Any], bool] | None = None         # decided in play
    say: Callable[[Any], str] | None = None                       # words, for one in play
    at_load: Callable[[Mapping[str, Any], Any], bool] | None = None  # decided when loaded
    # how a knock-out changes what it counts, for the sheet's knock-out rule (None: not)
    knocked_out: str | None = None


def _players(game: Game, ctx: Ctx, value: Any) -> bool:
    return bool(value == game._standing())


def _out(game: Game, ctx: Ctx, value: Any) -> bool:
    seat = game._seat(value, ctx)
    return seat >= 0 and seat != ctx.actor and not game.hands[seat]


def _hand_at_least(game: Game, ctx: Ctx, value: Any) -> bool:
    return bool(len(game.hands[ctx.actor]) >= value)


def _card_tag(game: Game, ctx: Ctx, value: Any) -> bool:
    return ctx.face >= 0 and value in game.faces[ctx.face].tags


def _drew(game: Game, ctx: Ctx, value: Any) -> bool:
    return (ctx.drawn >= 0) == bool(value)


def _draw_pending(game: Game, ctx: Ctx, value: Any) -> bool:
    return (game.stacked.total > 0) == bool(value)


def _holds(game: Game, ctx: Ctx, value: Any) -> bool:
    seat = game._seat(value.get("who", "self"), ctx)
    if seat < 0:
        return False
    rb, faces = game.rulebook, game.faces
    color, rank, tag = value.get("color"), value.get("rank"), value.get("tag")
    held = 0
    for card in game.hands[seat]:
        face = faces[card]
        if (color is None or (face.color >= 0 and rb.colors[face.color] == color)) and \
                (rank is None or rb.ranks[face.rank] == str(rank)) and \
                (tag is None or tag in face.tags):
            held += 1
    return bool(held >= value.get("count", 1))


def _say_holds(value: Any) -> str:
    kind = " ".join([str(value[k]) for k in ("color", "rank", "tag") if k in value] + ["card"])
    count = value.get("count", 1)
    what = f"a {kind}" if count == 1 else f"{count} or more {kind}s"
    return f"when {verb(value.get('who', 'self'), 'hold')} {what}"


HOLDS_SCHEMA: dict[str, Any] = {
    "type": "object", "additionalProperties": False, "minProperties": 1,
    "examples": [{"who": "next", "rank": "wild"}],
    "description": "Which seat (`who`, default self) holds at least `count` (default 1) "
                   "cards of the colour, rank and tag given (each optional: none given "
                   "counts every card).",
    "properties": {"who": SEAT_SCHEMA,
                   "color": {"type": "string", "description": "A colour of the deck."},
                   "rank": {"type": ["string", "integer"],
                            "description": "A rank of the deck."},
                   "tag": {"type": "string", "description": "A tag of a deck group."},
                   "count": {"type": "integer", "minimum": 1,
                             "description": "Fewest such cards (default 1)."}}}
def _kept_drawn(game: Game, ctx: Ctx, value: Any) -> bool:
    return (ctx.drawn >= 0 and ctx.drawn in game.hands[ctx.actor]) == bool(value)


def _own_turn(game: Game, ctx: Ctx, value: Any) -> bool:
    # a turn of several plays (its plays, its draw's steps or its end steps) under way, and
    # it is the player's: the turn's draw marks the turn's context until the turn ends
    turn = (bool(game._played_piles) or game._ctx.drawn >= 0) and game._ctx.actor == ctx.actor
    return turn == bool(value)


def _option(options: Mapping[str, Any], value: Any) -> bool:
    return bool(options[value])


def _option_is(options: Mapping[str, Any], value: Any) -> bool:
    return all(options[name] == want for name, want in value.items())


CONDITIONS: dict[str, Condition] = {c.name: c for c in [
    Condition("players", "the number of players still in the round equals it",
              {"type": "integer", "minimum": 2, "description": "Number of players."},
              _players, lambda v: f"with {v} players",
              knocked_out="counts only the players still in"),
    Condition("option", "a boolean option is true; decided when the rulebook loads",
              {"type": "string", "description": "Name of a boolean option."},
              at_load=_option),
    # A card's text chosen by a setting: blank cards whose text the table writes, a house
    # rule's "what a 7 does" (swap, or pass a card).
    Condition("option_is", "each option named has the value given (`{blank_text: "
              "swap_hands}`: a string, number or boolean option); decided when the rulebook "
              "loads",
              {"type": "object", "minProperties": 1, "description": "Options and the value "
               "each must have.", "additionalProperties": {
                   "anyOf": [{"type": "string"}, {"type": "number"}, {"type": "boolean"}]}},
              at_load=_option_is),
    Condition("out", "that seat, not the player, holds no cards", SEAT_SCHEMA,
              _out, lambda v: f"when {who(v)} is out"),
    Condition("hand_at_least", "the player holds at least that many cards",
              {"type": "integer", "minimum": 1, "description": "Fewest cards in the player's "
                                                               "hand."},
              _hand_at_least, lambda v: f"when you hold {cards(v)} or more"),
    # Per-player state (uno_rules.engine.playerstate): a Power Card each, a joker.
    Condition("state", "the player's per-player state has each value given (`{power: green}`)",
              VALUES_SCHEMA, state_holds, say_state),
    Condition("every_state", "every player still in has each value given "
              "(`{power: red}`)", VALUES_SCHEMA, every_state_holds, say_every_state,
              knocked_out="counts only the players still in"),
    # The card's own symbols: a symbol printed on one copy of a rank and not the other
    # (UNO Flex's plain numbers and flex ones), a Passing-symbol card acting otherwise.
    Condition("card_tag", "the card being played carries that tag (`pass`): e.g. plain "
              "and tagged copies of a rank, a Passing-symbol card acting otherwise",
              {"type": "string", "examples": ["pass"], "description": "A tag of a deck group."},
              _card_tag, lambda v: f"on a {v} card"),
    # Used by UNO Attack (`repeat` ... `until: {drew: true}`: hit until a hit gives a card)
    # and by a "draw one; if it gave nothing, ..." house rule.
    Condition("drew", "true: a draw step of this card gave its drawer a card (in a "
              "`repeat`, during its last pass); false: none did (e.g. hit a card launcher "
              "until a hit gives a card, or a \"draw one; if nothing came...\" house rule)",
              {"type": "boolean", "description": "Whether a card was drawn."},
              _drew, lambda v: "when a card was drawn" if v else "when no card was drawn"),
    # A card answering a draw still pending (a stacked total no one has drawn yet): a
    # Reverse that deflects a Draw Two back, a Skip that passes it on (house rules
    # `deflect` and `pass_on`); false: no draw pending (the card's ordinary play).
    Condition("draw_pending", "true: a stacked draw is pending (the card answers it, see "
              "`answers_draw`); false: none is. House rules `deflect` (a Reverse sends it "
              "back) and `pass_on` (a Skip passes it on)",
              {"type": "boolean", "examples": [True],
               "description": "Whether a stacked draw is pending."},
              _draw_pending,
              lambda v: "when a draw is pending" if v else "when no draw is pending"),
    # What a hand holds, beyond its size: a card that acts otherwise when its player (or
    # another) still holds a wild, a colour or N cards of a rank; `hand_at_least` for any
    # seat and any kind of card.
    Condition("holds", "that seat (`who`, default the player) holds at least `count` "
              "(default 1) cards of the colour, rank and tag given (`{rank: wild}`, "
              "`{who: next, count: 25}`): a house rule's 'a Skip makes a player still "
              "holding a wild draw one', a mercy rule (out at 25 cards or more)",
              HOLDS_SCHEMA, _holds, _say_holds),
    # Used by UNO Triple Play (a drawn card not played: press a pile to end the turn) and a
    # "draw one; keep it and draw a second" house rule.
    Condition("kept_drawn", "true: the card the last draw step drew is still in its "
              "drawer's hand (kept, or not playable); false: it was played or none came "
              "(e.g. press a pile after keeping the drawn card, or a \"keep it and draw "
              "another\" house rule)",
              {"type": "boolean", "description": "Whether the drawn card was kept."},
              _kept_drawn, lambda v: "when the drawn card was kept" if v
              else "when the drawn card was played (or none came)"),
    # Used by DOS (a player caught not calling DOS during its own turn draws at its end) and
    # a house rule of a several-play turn where a penalty waits for the turn's end.
    Condition("own_turn", "true: the player's own turn of several plays (`turn: {plays: "
              "each_pile}`) is under way, its plays, its draw's steps or its end steps "
              "(e.g. a player caught "
              "during its own turn marked to draw at its end, or a house rule deferring "
              "penalties to the end of a several-play turn)",
              {"type": "boolean", "description": "Whether the player's turn is under way."},
              _own_turn, lambda v: "during your own turn" if v else "outside your own turn"),
]}


def all_hold(game: Game, ctx: Ctx, conds: Mapping[str, Any]) -> bool:
    """Whether every condition given in ``conds`` (by name; None: not given) holds now
    (those decided at load time were compiled away)."""
    # The step's parameters, not every condition: a step gives a few, the table grows.
    for name, value in conds.items():
        if value is not None:
            cond = CONDITIONS.get(name)  # None: `then`, `else`
            if cond is not None and cond.holds is not None and \
                    not cond.holds(game, ctx, value):
                return False
    return True


def decided_at_load(params: Mapping[str, Any], options: Mapping[str, Any]) -> bool | None:
    """Whether the load-time conditions an ``if`` step gives all hold (None: it gives none)."""
    given = [c for c in CONDITIONS.values() if c.at_load is not None and c.name in params]
    if not given:
        return None
    return all(c.at_load(options, params[c.name]) for c in given if c.at_load is not None)
